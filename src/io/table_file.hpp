// A table of named columns (numbers or text) as an HDF5 file: the sweeps' results table for
// studies too large for CSV (docs/sweeps.md). One dataset per column under /results, the
// column order and the table's attributes on the root. Written without modification times,
// so the same table gives the same bytes.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace pegsim {

struct TableColumn {
  std::string name;
  bool text = false;
  std::vector<double> numbers;     // when !text
  std::vector<std::string> texts;  // when text
};

struct TableFile {
  std::vector<std::pair<std::string, std::string>> attributes;  // on the root
  std::vector<TableColumn> columns;
};

// Writes (replacing) `file`; throws std::runtime_error naming it on failure.
void write_table_file(const std::filesystem::path& file, const TableFile& table);
// Reads a file write_table_file wrote; throws std::runtime_error naming it and what is wrong.
TableFile read_table_file(const std::filesystem::path& file);

}  // namespace pegsim
