#include "cli/run_overlap.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace pegsim::cli {
namespace {

constexpr std::int64_t kBlock = 2048;  // frames read at once

// Calls visit(frame) for every frame's overlap, in frame order, a block of frames at a time.
template <class Visit>
void visit_overlaps(const RunReader& reader, Visit visit) {
  const Model model = reader.model();
  const bool planar = model.planar();
  State state;
  for (std::int64_t first = 0; first < reader.frame_count(); first += kBlock) {
    const std::int64_t n = std::min(kBlock, reader.frame_count() - first);
    for (RunFrame& f : reader.frames(first, n)) {
      state.time = f.time;
      state.step = f.step;
      state.bodies = std::move(f.bodies);
      visit(FrameOverlap{f.index, f.time, total_overlap(model, state), planar});
    }
  }
}

}  // namespace

const char* overlap_unit(bool planar) {
  return planar ? "m^2" : "m^3";
}

void PairOverlapRecord::add(std::int64_t k, double t, const OverlapTotals& totals) {
  if (k > 0) {
    ++steps;
    steps_with_overlap += totals.overlapping_pairs > 0;
    total_sum += totals.volume;
    max_total = std::max(max_total, totals.volume);
  }
  max_unmeasured = std::max(max_unmeasured, totals.unmeasured_pairs);
  if (totals.max_pair_volume > max_pair) {
    max_pair = totals.max_pair_volume;
    step = k;
    time = t;
  }
}

nlohmann::json overlap_json(const PairOverlapRecord& r) {
  return {{"measure", r.planar ? "area" : "volume"},
          {"unit", overlap_unit(r.planar)},
          {"max_pair", r.max_pair},
          {"step", r.step},
          {"time", r.time},
          {"steps_with_overlap", r.steps_with_overlap},
          {"max_unmeasured_pairs", r.max_unmeasured}};
}

std::string overlap_lines(const PairOverlapRecord& r, const std::string& indent, int label_width) {
  char line[512];
  std::string out;
  if (r.max_pair > 0.0)
    std::snprintf(line, sizeof line,
                  "%s%-*s%.3e %s (one body pair's %s) at step %lld (t = %g s);"
                  " %lld of %lld steps with overlap\n",
                  indent.c_str(), label_width, "max overlap", r.max_pair, overlap_unit(r.planar),
                  r.planar ? "area" : "volume", static_cast<long long>(r.step), r.time,
                  r.steps_with_overlap, r.steps);
  else
    std::snprintf(line, sizeof line, "%s%-*s0 %s (no body pair overlaps in any step)\n",
                  indent.c_str(), label_width, "max overlap", overlap_unit(r.planar));
  out += line;
  if (r.max_unmeasured > 0) {
    std::snprintf(line, sizeof line,
                  "%s%-*sup to %d interpenetrating pairs of a sphere (circle) with a compound "
                  "per step not measured (no exact formula)\n",
                  indent.c_str(), label_width, "", r.max_unmeasured);
    out += line;
  }
  return out;
}

std::vector<FrameOverlap> run_overlap(const RunReader& reader) {
  std::vector<FrameOverlap> out;
  out.reserve(static_cast<std::size_t>(reader.frame_count()));
  visit_overlaps(reader, [&](const FrameOverlap& f) { out.push_back(f); });
  return out;
}

PairOverlapRecord run_pair_overlap(const RunReader& reader) {
  PairOverlapRecord r;
  visit_overlaps(reader, [&](const FrameOverlap& f) {
    r.planar = f.planar;
    r.add(f.frame, f.time, f.totals);
  });
  return r;
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
  const char* unit = overlap_unit(!frames.empty() && frames.front().planar);
  char line[256];
  if (!csv.empty()) {
    if (!overwrite && std::filesystem::exists(csv))
      throw std::runtime_error(csv.string() + ": exists; not overwriting it (use --force)");
    std::ofstream file(csv, std::ios::out | std::ios::trunc);
    if (!file) throw std::runtime_error(csv.string() + ": cannot be created");
    file.precision(17);
    // A 2D run's figures are areas: the columns say so.
    const char* measure = !frames.empty() && frames.front().planar ? "area" : "volume";
    file << "frame,time,overlap_" << measure << ",max_pair_" << measure
         << ",overlapping_pairs,unmeasured_pairs\n";
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
    std::snprintf(line, sizeof line,
                  "  max overlap     %.6e %s at frame %lld (t = %g s)\n  mean overlap    %.6e %s\n",
                  worst->totals.volume, unit, static_cast<long long>(worst->frame), worst->time,
                  sum / static_cast<double>(frames.size()), unit);
    out << line;
  }
  if (unmeasured > 0)
    out << "  not measured    up to " << unmeasured
        << " interpenetrating pairs of a sphere (circle) with a compound per frame (no exact "
           "formula; not in the sums)\n";
  if (!csv.empty()) out << "wrote " << csv.string() << '\n';
}

}  // namespace pegsim::cli
