// The RPIsim Simulation Data Standard (user guide §8, Table 8.1) as pegsim writes it
// (docs/sds.md): group and dataset names shared by the writer and the reader. Private to src/io.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace pegsim::sds_layout {

inline constexpr const char* kFormatName = "rpisim-sds";  // root attribute `format`
inline constexpr const char* kFramePrefix = "mbs_frame";

// "/mbs_frame000042": the frame of run step 42.
inline std::string frame_group(std::int64_t k) {
  char name[32];
  std::snprintf(name, sizeof name, "/%s%06lld", kFramePrefix, static_cast<long long>(k));
  return name;
}

// Table 8.1, plus pegsim's problem datasets in `solutions` (M, q, blocks).
inline constexpr const char* kStep = "step";
inline constexpr const char* kSolution = "solutions/solution";
inline constexpr const char* kM = "solutions/M";
inline constexpr const char* kQ = "solutions/q";
inline constexpr const char* kBlocks = "solutions/blocks";
inline constexpr const char* kIterations = "solutions/iterations";

}  // namespace pegsim::sds_layout
