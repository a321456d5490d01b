#include "cli/run_overlap.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace pegsim::cli {
namespace {

constexpr std::int64_t kBlock = 2048;  // frames read at once

}  // namespace

std::vector<FrameOverlap> run_overlap(const RunReader& reader) {
  const Model model = reader.model();
  const bool planar = std::any_of(model.bodies.begin(), model.bodies.end(),
                                  [](const Body& b) { return b.shape.planar(); });
  std::vector<FrameOverlap> out;
  out.reserve(static_cast<std::size_t>(reader.frame_count()));
  State state;
  for (std::int64_t first = 0; first < reader.frame_count(); first += kBlock) {
    const std::int64_t n = std::min(kBlock, reader.frame_count() - first);
    for (RunFrame& f : reader.frames(first, n)) {
      state.time = f.time;
      state.step = f.step;
      state.bodies = std::move(f.bodies);
      out.push_back({f.index, f.time, total_overlap(model, state), planar});
    }
  }
  return out;
}

void report_overlap(std::ostream& out, const std::string& run_file,
                    const std::vector<FrameOverlap>& frames, const std::filesystem::path& csv,
                    bool overwrite) {
  const FrameOverlap* worst = nullptr;
  double sum = 0.0;
  int unmeasured = 0;
  for (const FrameOverlap& f : frames) {
    sum += f.totals.volume;
    unmeasured = std::max(unmeasured, f.totals.unmeasured_pairs);
    if (!worst || f.totals.volume > worst->totals.volume) worst = &f;
  }
  const char* unit = !frames.empty() && frames.front().planar ? "m^2" : "m^3";
  char line[256];
  if (!csv.empty()) {
    if (!overwrite && std::filesystem::exists(csv))
      throw std::runtime_error(csv.string() + ": exists; not overwriting it (use --force)");
    std::ofstream file(csv, std::ios::out | std::ios::trunc);
    if (!file) throw std::runtime_error(csv.string() + ": cannot be created");
    file.precision(17);
    file << "frame,time,overlap_volume,max_pair_volume,overlapping_pairs,unmeasured_pairs\n";
    for (const FrameOverlap& f : frames)
      file << f.frame << ',' << f.time << ',' << f.totals.volume << ',' << f.totals.max_pair_volume
           << ',' << f.totals.overlapping_pairs << ',' << f.totals.unmeasured_pairs << '\n';
    file.close();
    if (!file) throw std::runtime_error(csv.string() + ": write failed");
  } else {
    out << "frame        time   overlap (" << unit << ")  pairs  unmeasured\n";
    for (const FrameOverlap& f : frames) {
      std::snprintf(line, sizeof line, "%5lld  %10.4f  %14.6e  %5d  %10d\n",
                    static_cast<long long>(f.frame), f.time, f.totals.volume,
                    f.totals.overlapping_pairs, f.totals.unmeasured_pairs);
      out << line;
    }
  }
  out << run_file << ": " << frames.size() << " frames\n";
  if (worst) {
    std::snprintf(
        line, sizeof line,
        "  max overlap     %.6e %s at frame %lld (t = %g s)\n  mean overlap    %.6e %s\n",
        worst->totals.volume, unit, static_cast<long long>(worst->frame), worst->time,
        sum / static_cast<double>(frames.size()), unit);
    out << line;
  }
  if (unmeasured > 0)
    out << "  not measured    up to " << unmeasured
        << " interpenetrating sphere-polytope or circle-polygon pairs per frame (no exact formula;"
           " not in the sums)\n";
  if (!csv.empty()) out << "wrote " << csv.string() << '\n';
}

}  // namespace pegsim::cli
