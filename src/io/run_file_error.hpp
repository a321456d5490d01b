// Errors of run files (HDF5). what() is one line naming the file: "<file>: <what is wrong>".
#pragma once

#include <stdexcept>

namespace pegsim {

struct RunFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace pegsim
