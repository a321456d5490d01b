#include "gui/sim/frame_source.hpp"

namespace pegsim::gui {

void LiveHistory::append(FramePtr frame) {
  frames_.push_back(std::move(frame));
  while (std::int64_t(frames_.size()) > capacity_) frames_.pop_front();
}

void LiveHistory::set_capacity(std::int64_t capacity) {
  capacity_ = capacity < 1 ? 1 : capacity;
  while (std::int64_t(frames_.size()) > capacity_) frames_.pop_front();
}

RunFileSource::RunFileSource(const std::filesystem::path& file)
    : reader_(file), model_(std::make_shared<const Model>(reader_.model())) {}

FramePtr RunFileSource::frame(std::int64_t k) const {
  // The settings frame k was stepped with: a run's settings may change along it.
  return make_snapshot(*model_, reader_.frame(k), &reader_.settings(k));
}

}  // namespace pegsim::gui
