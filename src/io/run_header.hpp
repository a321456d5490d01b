// The frame-independent part of a run file: made from a scene and a simulator for the writer,
// and turned back into an engine Model for a replay that needs nothing but the file.
#pragma once

#include <string>

#include "engine/core/model.hpp"
#include "io/run_data.hpp"
#include "io/scene.hpp"

namespace pegsim {

// `model` and `settings` are the simulator's (they may differ from the scene's after
// command-line overrides); name, JSON text and folder come from the scene.
RunHeader make_run_header(const Scene& scene, const Model& model, const Settings& settings,
                          const std::string& program);

// The engine model of a recorded run, rebuilt from the stored geometry and mass properties.
// Throws RunFileError (naming `origin`) if a stored polytope is not a valid convex polyhedron.
Model build_model(const RunHeader& header, const std::string& origin);

}  // namespace pegsim
