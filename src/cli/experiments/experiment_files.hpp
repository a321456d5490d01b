// Files an experiment writes: never replacing a user's file unless asked.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "cli/experiments/experiment.hpp"

namespace pegsim::cli {

// Writes `text` to <out_dir>/<name>; throws ExperimentError if the file exists and
// options.force is not set, or if it cannot be written.
std::filesystem::path write_experiment_file(const ExperimentOptions& options,
                                            const std::string& name, const std::string& text);

// A CSV table built row by row; numbers written with 17 significant digits.
class CsvTable {
 public:
  explicit CsvTable(std::vector<std::string> header);
  void add(const std::vector<std::string>& cells);
  static std::string number(double v);
  const std::string& text() const { return text_; }

 private:
  std::size_t columns_;
  std::string text_;
};

}  // namespace pegsim::cli
