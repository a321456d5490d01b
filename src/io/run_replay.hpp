// Replaying a run file: what a simulator needs before each step to reproduce the recording
// bit for bit (the engine is deterministic given the same settings and wrenches).
#pragma once

#include "engine/dynamics/simulator.hpp"
#include "io/run_reader.hpp"

namespace pegsim {

// Before the step that produces recorded frame `next` (next.index >= 1): switches `sim` to
// the settings that step ran with, when they differ, and sets the external wrench it
// applied. Throws std::invalid_argument if the recorded settings are unusable.
void prepare_replay_step(Simulator& sim, const RunReader& reader, const RunFrame& next);

}  // namespace pegsim
