// Small typed reads and writes of HDF5 attributes and datasets, with checked shapes.
// Failures throw h5::Failure naming the object; callers prefix the file name. Private to src/io.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/hdf5_handle.hpp"

namespace pegsim::h5 {

struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Attributes on an object (file, group or dataset). Strings are fixed-length, null-padded.
void write_attribute(hid_t object, const char* name, const std::string& value);
void write_attribute(hid_t object, const char* name, const std::vector<std::string>& values);
void write_attribute(hid_t object, const char* name, std::int64_t value);
void write_attribute(hid_t object, const char* name, const std::vector<double>& values);

bool has_attribute(hid_t object, const char* name);
std::string read_string_attribute(hid_t object, const char* name);
std::vector<std::string> read_strings_attribute(hid_t object, const char* name);
std::int64_t read_int_attribute(hid_t object, const char* name);
std::vector<double> read_doubles_attribute(hid_t object, const char* name);

// A fixed-size dataset of `dims`, written at once from `data` of `memory_type`.
void write_dataset(hid_t location, const char* name, hid_t memory_type, hid_t file_type,
                   const std::vector<hsize_t>& dims, const void* data);
void write_string_dataset(hid_t location, const char* name, const std::string& text);
std::string read_string_dataset(hid_t location, const char* name);
void write_strings_dataset(hid_t location, const char* name,
                           const std::vector<std::string>& values);
std::vector<std::string> read_strings_dataset(hid_t location, const char* name);

// Opens an existing dataset; throws "missing dataset NAME".
Handle open_dataset(hid_t location, const char* name);
// The dimensions of a dataset; throws unless its rank is `rank`.
std::vector<hsize_t> dims(hid_t dataset, int rank, const char* name);
// Reads a whole dataset of rank `rank` into `out` (resized), as `memory_type` of T.
template <typename T>
std::vector<T> read_all(hid_t location, const char* name, hid_t memory_type, int rank,
                        std::vector<hsize_t>* shape = nullptr);

// An extendable dataset: dims [0, inner...], unlimited first dimension, chunks of
// `chunk_rows` rows, shuffle + deflate(level).
Handle create_extendable(hid_t location, const char* name, hid_t file_type,
                         const std::vector<hsize_t>& inner, hsize_t chunk_rows, int level);
// Appends `rows` rows (each `row_elements` values of `memory_type`) at row `at`.
void append_rows(hid_t dataset, hid_t memory_type, hsize_t at, hsize_t rows,
                 const std::vector<hsize_t>& inner, const void* data, const char* name);
// Reads rows [first, first + rows) into `data` (room for rows * product(inner) values).
void read_rows(hid_t dataset, hid_t memory_type, hsize_t first, hsize_t rows,
               const std::vector<hsize_t>& inner, void* data, const char* name);

}  // namespace pegsim::h5
