#include "cli/experiments/experiment_files.hpp"

#include <cstdio>
#include <fstream>

namespace pegsim::cli {

namespace fs = std::filesystem;

fs::path write_experiment_file(const ExperimentOptions& options, const std::string& name,
                               const std::string& text) {
  const fs::path path = options.out_dir / name;
  if (fs::exists(path) && !options.force)
    throw ExperimentError(path.string() + ": exists (pass --force to replace it)");
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out.flush()) throw ExperimentError(path.string() + ": cannot be written");
  return path;
}

CsvTable::CsvTable(std::vector<std::string> header) : columns_(header.size()) {
  add(header);
}

void CsvTable::add(const std::vector<std::string>& cells) {
  if (cells.size() != columns_) throw std::logic_error("CsvTable: wrong number of cells");
  for (std::size_t i = 0; i < cells.size(); ++i) text_ += (i ? "," : "") + cells[i];
  text_ += '\n';
}

std::string CsvTable::number(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

}  // namespace pegsim::cli
