// libFuzzer target: run files (io/run_reader.hpp) and what `pegsim-cli info` and `overlap`
// compute from them. Promise under test: any bytes are either refused with one RunFileError
// when opened or read, or give frames whose every index (bodies, contacts, constraint groups,
// SM traps) lies in range, so that a viewer may follow them without checks of its own.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

#include "cli/run_info.hpp"
#include "cli/run_overlap.hpp"
#include "input_file.hpp"
#include "io/run_file_error.hpp"
#include "io/run_reader.hpp"

namespace {

// Frames the target reads in full: enough for every field, bounded so that one input stays fast.
constexpr std::int64_t kFramesRead = 32;

bool in(std::int64_t i, std::int64_t n) {
  return i >= 0 && i < n;
}
bool range_in(std::int64_t first, std::int64_t count, std::int64_t n) {
  return first >= 0 && count >= 0 && first <= n && count <= n - first;
}

std::string frame_defect(const pegsim::RunFrame& f, std::int64_t bodies) {
  if (static_cast<std::int64_t>(f.bodies.size()) != bodies)
    return "a frame of the wrong body count";
  const auto nc = static_cast<std::int64_t>(f.contacts.size());
  for (const auto& c : f.contacts) {
    if (!in(c.contact.body_a, bodies) && c.contact.body_a != -1) return "a contact's body A";
    if (!in(c.contact.body_b, bodies) && c.contact.body_b != -1) return "a contact's body B";
    if (c.duplicate_of != -1 && !in(c.duplicate_of, nc)) return "a contact's duplicate_of";
  }
  const auto nm = static_cast<std::int64_t>(f.constraints.members.size());
  for (const auto& g : f.constraints.groups)
    if (g.count < 1 || !range_in(g.first, g.count, nm)) return "a constraint group's range";
  for (int m : f.constraints.members)
    if (!in(m, nc)) return "a constraint group's member";
  const auto nt = static_cast<std::int64_t>(f.sm_trap_contacts.size());
  for (const auto& t : f.sm_traps) {
    if (!range_in(t.first, t.count, nt)) return "an SM trap's range";
    if (!in(t.body, bodies) || !in(t.other_body, bodies)) return "an SM trap's bodies";
  }
  for (int m : f.sm_trap_contacts)
    if (!in(m, nc)) return "an SM trap's contact";
  return {};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pegsim;
  static const std::filesystem::path file = fuzz::input_path(".h5");
  fuzz::write_input(file, data, size);
  try {
    const RunReader reader(file);
    const std::int64_t frames = reader.frame_count();
    const auto bodies = static_cast<std::int64_t>(reader.model().bodies.size());
    if (static_cast<std::int64_t>(reader.times().size()) != frames)
      fuzz::defect("times() and frame_count() disagree");
    const std::int64_t n = std::min(frames, kFramesRead);
    for (const RunFrame& f : reader.frames(0, n))
      if (const std::string why = frame_defect(f, bodies); !why.empty())
        fuzz::defect("a frame read with " + why + " out of range");
    for (std::int64_t k = 0; k < n; ++k) reader.settings(k);
    reader.settings_changes();
    if (reader.has_problems())
      for (std::int64_t k = 0; k < std::min<std::int64_t>(n, 4); ++k) reader.problem(k);
    if (frames <= kFramesRead) {
      cli::run_file_stats(reader);
      cli::run_overlap(reader);
    }
  } catch (const RunFileError&) {
    return 0;
  } catch (const std::exception& e) {
    fuzz::defect(std::string("reading a run file threw a non-RunFileError: ") + e.what());
  }
  return 0;
}
