// Records a run to an HDF5 run file (docs/run-format.md), one frame per simulator step.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "engine/dynamics/simulator.hpp"
#include "io/run_data.hpp"
#include "io/run_file_error.hpp"

namespace pegsim {

struct RunWriterOptions {
  bool overwrite = false;      // replace an existing file (else RunFileError)
  double flush_seconds = 0.5;  // wall time between two flushes at most (while frames come)
  int deflate_level = 1;       // 0-9; 1 is several times faster than 6 at a similar ratio
  // Also record each step's LCP (M, q, block starts) and its z, for solver comparison
  // (docs/run-format.md, "Complementarity problems"). Off: the file is as without it.
  bool record_problems = false;
};

// A StepObserver: frame 0 (the initial state) is written on construction, then one frame per
// observed step (failed steps included: their flag is set and the state is unchanged).
// Frames are buffered and written by a background thread, so that a step pays only for
// copying its report and does not wait for the writer while it keeps up (batches are handed
// over when the writer is free); once 8 MiB of frames wait for it, the step waits, so the
// frames pending hold at most 24 MiB. The file is flushed about every `flush_seconds` and on
// close(), and marked whole then (closed_frame_count, docs/run-format.md). A step
// hands the frames over at the latest flush_seconds / 2 after the previous hand-off, so a
// caller that stops stepping (a paused GUI) calls flush() to put the last frames on disk.
// The file is written in HDF5 SWMR mode: a process killed at any moment leaves a file that
// RunReader opens, holding every frame up to the last flush.
class RunWriter : public StepObserver {
 public:
  // Creates `file`; throws RunFileError naming it if it exists (and !options.overwrite) or
  // cannot be created or written.
  RunWriter(const std::filesystem::path& file, const RunHeader& header, const State& initial,
            const RunWriterOptions& options = {});
  ~RunWriter() override;  // closes the file; errors are lost (call close() to see them)
  RunWriter(const RunWriter&) = delete;
  RunWriter& operator=(const RunWriter&) = delete;

  // Buffers one frame. Throws RunFileError if an earlier background write failed.
  void on_step(const Model& model, const State& state, const StepReport& report) override;
  // Writes every buffered frame and flushes the file; returns when it is on disk.
  void flush();
  // Flushes and closes; throws RunFileError on any write error. Further calls do nothing.
  void close();

  std::int64_t frames() const;  // observed so far, frame 0 included
  const std::filesystem::path& file() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pegsim
