// The folder a sweep writes (docs/sweeps.md): sweep.json (the manifest: the sweep as read, its
// fingerprint and result columns), points/<tag>.jsonl (one line per finished point, appended
// as points finish, so an interrupted run loses only the points under way), runs/ (the kept
// run files) and the results. A folder holds one sweep: a run or merge into a folder of
// another sweep, or of other files, is refused.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/sweep/sweep_point.hpp"
#include "cli/sweep/sweep_trial.hpp"

namespace pegsim::cli {

struct SweepManifest {
  std::string fingerprint;           // of the sweep file, its base scene and the program
  std::vector<std::string> columns;  // Sweep::metric_columns of the scene's dimension
  long long points = 0;
  nlohmann::json sweep;    // the sweep file's JSON
  std::string sweep_file;  // where it was read (relative scene paths resolve from there)
};

SweepManifest make_manifest(const Sweep& sweep, const SweepBase& base, int dimension);

// Creates `dir` and its manifest, or checks that `dir` already holds this sweep's. Throws
// SweepError naming the folder when it holds another sweep or files that are not a sweep's.
void open_sweep_dir(const std::filesystem::path& dir, const SweepManifest& manifest);
// The manifest of a sweep folder; throws SweepError naming what is missing or malformed.
SweepManifest read_manifest(const std::filesystem::path& dir);
// The sweep a manifest describes (its file's JSON, parsed as from its original place).
Sweep manifest_sweep(const SweepManifest& manifest);

// Every finished point recorded in `dir`'s points/*.jsonl, by index (a line cut short by an
// interruption is skipped; a point recorded twice keeps its first line, files in name order).
std::map<long long, PointResult> read_points(const std::filesystem::path& dir, std::size_t columns);

// Appends finished points to <dir>/points/<tag>.jsonl, one whole line per write, holding an
// exclusive lock on it so two processes never write one log.
class PointLog {
 public:
  PointLog(const std::filesystem::path& dir, const std::string& tag);
  ~PointLog();
  PointLog(const PointLog&) = delete;
  PointLog& operator=(const PointLog&) = delete;
  void append(const PointResult& result);

 private:
  int fd_ = -1;
  std::filesystem::path file_;
};

// Writes `text` to `file` through a temporary file of this process renamed over it: a reader
// never sees half, and two shards that finish together never write one temporary file.
void write_atomically(const std::filesystem::path& file, const std::string& text);

// A point's line and back (values as JSON numbers, round-trip exact; NaN as null).
std::string point_line(const PointResult& result);
bool parse_point_line(const std::string& line, std::size_t columns, PointResult& out);

}  // namespace pegsim::cli
