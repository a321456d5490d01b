// Reads back the complementarity problems of a Simulation Data Standard file written by
// export_sds (docs/sds.md), for solver comparison.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "io/run_data.hpp"
#include "io/run_file_error.hpp"

namespace pegsim {

// Whether `file` is an HDF5 file whose root holds /mbs_frame%06d groups (false for anything
// else, a missing file included).
bool is_sds_file(const std::filesystem::path& file);

struct SdsProblem {
  RecordedProblem problem;  // size 0: the step solved nothing or its problem was not recorded
  std::string solver;       // that answered when recorded, "" if none
  std::string status;       // to_string(SolveStatus) of that answer, or "none"
};

class SdsReader {
 public:
  // Throws RunFileError naming the file if it is not an SDS file.
  explicit SdsReader(const std::filesystem::path& file);
  ~SdsReader();
  SdsReader(SdsReader&&) noexcept;

  const std::filesystem::path& file() const;
  // The frame numbers present, ascending (frame k is run step k).
  const std::vector<std::int64_t>& frames() const;
  double tolerance() const;  // of the recorded run (root attributes), defaults if absent
  int max_iterations() const;
  // Frame k's problem; throws RunFileError if k is absent or its M / q are missing (files
  // from other programs carry bodies and contacts only).
  SdsProblem problem(std::int64_t k) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pegsim
