// Reads a run file (docs/run-format.md) with random access to any frame: O(1) seeks per
// frame through the offset tables, so a timeline can scrub a long run.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

#include "engine/core/model.hpp"
#include "io/run_data.hpp"
#include "io/run_file_error.hpp"

namespace pegsim {

class RunReader {
 public:
  // Opens and checks the file: HDF5, format name and version, every dataset and its shape.
  // Throws RunFileError naming the file and what is missing or expected. A file whose writer
  // was killed opens with the frames flushed before.
  explicit RunReader(const std::filesystem::path& file);
  ~RunReader();
  RunReader(RunReader&&) noexcept;
  RunReader& operator=(RunReader&&) noexcept;

  const std::filesystem::path& file() const;
  const RunHeader& header() const;
  std::int64_t frame_count() const;
  // Simulated time of every frame (read once, then cached).
  const std::vector<double>& times() const;

  // Frame k in [0, frame_count()): poses, twists, contacts and the full solver report.
  // Throws std::out_of_range for a bad k, RunFileError when the file cannot be read.
  RunFrame frame(std::int64_t k) const;
  // Frames [first, first + count) in one pass (for exports); each as frame() returns it.
  std::vector<RunFrame> frames(std::int64_t first, std::int64_t count) const;
  // Frames [first, first + count) as states only (time, step, poses, twists, wrenches), in one
  // read of four datasets: what the plots need of every frame. Throws as frames() does.
  std::vector<State> states(std::int64_t first, std::int64_t count) const;

  // The settings frame k was stepped with (frame 0: the run's initial settings, as header()).
  // Throws std::out_of_range for a bad k.
  const Settings& settings(std::int64_t k) const;
  // Every change of settings during the run, by frame (empty if they never changed).
  const std::vector<SettingsChange>& settings_changes() const;
  // Whether the file records external wrenches (files written before they existed do not).
  bool has_wrenches() const;

  // Every frame's solver report, without attempts (for statistics over the whole run).
  std::vector<RecordedSolve> solver_reports() const;
  // frame_count() + 1 offsets: frame k has contacts [offset[k], offset[k + 1]).
  std::vector<std::int64_t> contact_offsets() const;

  // Whether the file records SM traps (files written before they existed do not).
  bool has_sm_traps() const;
  // frame_count() + 1 offsets: frame k has SM traps [offset[k], offset[k + 1]); all zeros
  // when the file records none.
  std::vector<std::int64_t> sm_trap_offsets() const;

  // Whether the file holds each step's complementarity problem (recorded with
  // RunWriterOptions::record_problems).
  bool has_problems() const;
  // The problem of frame k (size 0 for frame 0 and steps that solved nothing). Throws
  // RunFileError if the file holds no problems, std::out_of_range for a bad k.
  RecordedProblem problem(std::int64_t k) const;

  // The engine model rebuilt from the stored geometry (a replay needs nothing else).
  Model model() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pegsim
