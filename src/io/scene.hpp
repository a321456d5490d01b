// Scene files (JSON): the model, its initial state and its settings. Schema: docs/scene-format.md.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/core/model.hpp"
#include "engine/core/settings.hpp"
#include "engine/core/state.hpp"

namespace pegsim {

// Bad scene input. what() is one line: "<file>: <json path>: <what was expected>",
// e.g. "scenes/x.json: /bodies/2/shape/size: expected an array of 3 positive numbers".
struct SceneError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Scene {
  std::string name;   // "name" field, else the file stem
  int dimension = 3;  // "dimension": 3, or 2 for a planar scene (world x-y plane)
  std::string description;
  Model model;
  State initial;  // time 0, step 0
  Settings settings;
  double duration = 1.0;       // default run length in s ("duration" field)
  std::string source;          // the JSON text as read (kept so a run file can embed it)
  std::filesystem::path file;  // where it came from (empty when parsed from text)
  // What loading noticed that may spoil a run, each naming its body: a non-convex mesh that
  // collides as its convex hull.
  std::vector<std::string> warnings;
};

// Reads and validates a scene. Throws SceneError naming the file, the JSON path and what was
// expected; never returns a half-built scene.
// A robot file (.urdf) stands for a scene of that robot alone (scene_robot.hpp). Robots'
// package:// URIs are searched for in `package_path` first (docs/robots.md).
Scene load_scene(const std::filesystem::path& file,
                 const std::vector<std::filesystem::path>& package_path = {});
// Same, from text; `origin` names the text in messages, `base_dir` resolves relative mesh and
// robot paths.
Scene parse_scene(const std::string& json_text, const std::string& origin,
                  const std::filesystem::path& base_dir,
                  const std::vector<std::filesystem::path>& package_path = {});

}  // namespace pegsim
