// The frames a timeline scrubs: a bounded in-memory history of the live run, or the frames
// of a run file read on demand (RunReader's O(1) random access).
#pragma once

#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>

#include "gui/sim/frame_snapshot.hpp"
#include "io/run_reader.hpp"

namespace pegsim::gui {

class FrameSource {
 public:
  virtual ~FrameSource() = default;
  virtual std::int64_t count() const = 0;
  // k in [0, count()); may throw (RunFileError) for a file that cannot be read.
  virtual FramePtr frame(std::int64_t k) const = 0;
};

// Keeps the last `capacity` frames of a live run; older ones are dropped.
class LiveHistory : public FrameSource {
 public:
  explicit LiveHistory(std::int64_t capacity) : capacity_(capacity < 1 ? 1 : capacity) {}
  void append(FramePtr frame);
  void clear() { frames_.clear(); }
  void set_capacity(std::int64_t capacity);
  std::int64_t capacity() const { return capacity_; }
  std::int64_t count() const override { return std::int64_t(frames_.size()); }
  FramePtr frame(std::int64_t k) const override { return frames_.at(std::size_t(k)); }

 private:
  std::int64_t capacity_;
  std::deque<FramePtr> frames_;
};

class RunFileSource : public FrameSource {
 public:
  // Throws RunFileError naming the file.
  explicit RunFileSource(const std::filesystem::path& file);
  std::int64_t count() const override { return reader_.frame_count(); }
  FramePtr frame(std::int64_t k) const override;
  const ModelPtr& model() const { return model_; }
  const RunReader& reader() const { return reader_; }

 private:
  RunReader reader_;
  ModelPtr model_;
};

}  // namespace pegsim::gui
