// Scene files: JSON text -> Model, initial State and Settings (docs/scene-format.md).
#include "io/scene.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/json_node.hpp"
#include "io/scene_body.hpp"
#include "io/scene_controllers.hpp"
#include "io/scene_joint.hpp"
#include "io/scene_limits.hpp"
#include "io/scene_robot.hpp"
#include "io/scene_settings.hpp"
#include "io/text_file.hpp"

namespace pegsim {
namespace {

// nlohmann reports a byte offset; people want a line and column.
[[noreturn]] void syntax_error(const std::string& text, const std::string& origin,
                               const nlohmann::json::parse_error& e) {
  const std::size_t end = std::min<std::size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
  const std::size_t line = 1 + std::count(text.begin(), text.begin() + end, '\n');
  const std::size_t line_start = text.rfind('\n', end == 0 ? 0 : end - 1);
  const std::size_t column = end - (line_start == std::string::npos ? 0 : line_start + 1) + 1;
  std::string detail = e.what();
  if (auto colon = detail.find(": "); colon != std::string::npos) detail.erase(0, colon + 2);
  throw SceneError(origin + ": line " + std::to_string(line) + ", column " +
                   std::to_string(column) + ": expected valid JSON (" + detail + ")");
}

// Where the parser is, as a JSON pointer (RFC 6901): per open object its last key, per open
// array the index of the element being read. The parser's own errors for a repeated key and
// for a number beyond the double range carry no place; this gives them one.
struct ParsePath {
  struct Level {
    bool array = false;
    std::string key;
    std::size_t index = 0;
    std::set<std::string> keys;  // an object's keys so far
  };
  std::vector<Level> levels;

  std::string pointer() const {
    std::string out;
    for (const Level& l : levels) {
      std::string token = l.array ? std::to_string(l.index) : l.key;
      for (std::size_t at = 0; (at = token.find_first_of("~/", at)) != std::string::npos; at += 2)
        token.replace(at, 1, token[at] == '~' ? "~0" : "~1");
      out += "/" + token;
    }
    return out.empty() ? "/" : out;
  }
  void element_done() {
    if (!levels.empty() && levels.back().array) ++levels.back().index;
  }
};

// nlohmann keeps the last of two equal keys; a repeated field is almost always a mistake, so
// it is reported instead, at its pointer.
nlohmann::json parse_rejecting_repeated_keys(const std::string& text, const std::string& origin) {
  ParsePath path;
  auto callback = [&](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    switch (event) {
      case Event::object_start:
        path.levels.push_back({});
        break;
      case Event::array_start:
        path.levels.push_back({true, {}, 0, {}});
        break;
      case Event::key:
        path.levels.back().key = parsed.get<std::string>();
        if (!path.levels.back().keys.insert(path.levels.back().key).second)
          throw SceneError(origin + ": " + path.pointer() +
                           ": expected each field once per "
                           "object (\"" +
                           path.levels.back().key + "\" is repeated)");
        break;
      case Event::object_end:
      case Event::array_end:
        path.levels.pop_back();
        path.element_done();
        break;
      case Event::value:
        path.element_done();
        break;
    }
    return true;
  };
  try {
    return nlohmann::json::parse(text, callback);
  } catch (const nlohmann::json::out_of_range& e) {
    // A literal beyond the double range (1e400): the parser names the literal, not its place.
    std::string detail = e.what();
    if (auto colon = detail.find("] "); colon != std::string::npos) detail.erase(0, colon + 2);
    throw SceneError(origin + ": " + path.pointer() + ": expected a finite number (" + detail +
                     ")");
  }
}

void resolve_no_collide(std::vector<SceneBody>& parsed,
                        const std::unordered_map<std::string, int>& index, Model& model) {
  for (std::size_t i = 0; i < parsed.size(); ++i)
    for (const auto& [name, where] : parsed[i].no_collide) {
      const auto found = index.find(name);
      const int other = found == index.end() ? -1 : found->second;
      if (other < 0 || other == static_cast<int>(i))
        where.fail("the name of another body (there is no other body \"" + name + "\")");
      model.bodies[i].no_collide.push_back(other);
    }
}

// Muted colours, far from the overlays' orange, red, amber and yellow markers and from one
// another (after the Tableau 10 palette).
std::array<float, 4> default_body_color(int k) {
  static constexpr std::array<std::array<float, 3>, 8> kPalette = {{{0.31f, 0.47f, 0.65f},
                                                                    {0.35f, 0.63f, 0.31f},
                                                                    {0.69f, 0.48f, 0.63f},
                                                                    {0.46f, 0.72f, 0.70f},
                                                                    {0.74f, 0.56f, 0.50f},
                                                                    {0.61f, 0.46f, 0.37f},
                                                                    {0.42f, 0.55f, 0.64f},
                                                                    {0.55f, 0.55f, 0.24f}}};
  const auto& c = kPalette[static_cast<std::size_t>(k) % kPalette.size()];
  return {c[0], c[1], c[2], 1.0f};
}

void read_bodies(const JsonNode& list, const std::filesystem::path& base_dir, bool robots,
                 Scene& scene) {
  const char* what = robots ? "an array of at most 10000 bodies"
                            : "a non-empty array of at most 10000 bodies (or \"robots\")";
  list.require_array(what);
  if ((list.size() == 0 && !robots) || list.size() > static_cast<std::size_t>(kMaxBodies))
    list.fail(what);
  std::vector<SceneBody> parsed;
  std::unordered_map<std::string, int> index;  // names looked up in O(1): validation is linear
  int uncoloured = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    parsed.push_back(parse_body(list[i], base_dir, scene.dimension));
    // A moving body without a colour of its own takes the next of a palette, so that bodies
    // are told apart; static ones stay grey.
    if (!parsed.back().body.is_static && !list[i].find("color"))
      parsed.back().body.color = default_body_color(uncoloured++);
    const std::string& name = parsed.back().body.name;
    if (!index.emplace(name, static_cast<int>(i)).second)
      list[i].at("name", "").fail("a unique body name (\"" + name + "\" is used twice)");
    for (const std::string& w : parsed.back().warnings)
      scene.warnings.push_back("body '" + name + "': " + w);
    scene.model.bodies.push_back(parsed.back().body);
    scene.initial.bodies.push_back(parsed.back().state);
  }
  resolve_no_collide(parsed, index, scene.model);
}

}  // namespace

Scene parse_scene(const std::string& json_text, const std::string& origin,
                  const std::filesystem::path& base_dir,
                  const std::vector<std::filesystem::path>& package_path) {
  nlohmann::json doc;
  try {
    doc = parse_rejecting_repeated_keys(json_text, origin);
  } catch (const nlohmann::json::parse_error& e) {
    syntax_error(json_text, origin, e);
  } catch (const nlohmann::json::exception& e) {
    throw SceneError(origin + ": expected valid JSON (" + std::string(e.what()) + ")");
  }
  const JsonNode root(doc, origin);
  root.require_object("a scene object with \"bodies\"");
  root.allow_only({"name", "description", "dimension", "duration", "settings", "bodies", "robots",
                   "joints", "controllers"});

  Scene scene;
  if (auto n = root.find("dimension")) {
    const char* what = "a dimension: 3, or 2 for a planar scene";
    const double d = n->number(what);
    if (d != 2.0 && d != 3.0) n->fail(what);
    scene.dimension = static_cast<int>(d);
  }
  scene.settings = default_settings(scene.dimension);
  scene.name = std::filesystem::path(origin).stem().string();
  if (auto n = root.find("name")) scene.name = n->string("a non-empty scene name");
  if (auto n = root.find("description")) {
    if (!n->value().is_string()) n->fail("a string");
    scene.description = n->value().get<std::string>();
  }
  if (auto n = root.find("duration")) scene.duration = n->positive("a positive duration in s");
  if (auto n = root.find("settings")) scene.settings = parse_settings(*n, scene.dimension);
  const auto robots = root.find("robots");
  if (!robots || root.has("bodies"))
    read_bodies(root.at("bodies", "a non-empty array of bodies (or \"robots\")"), base_dir,
                robots.has_value(), scene);
  if (robots) read_robots(*robots, base_dir, package_path, scene);
  if (scene.model.bodies.empty()) root.fail("a scene with at least one body");
  if (auto n = root.find("joints")) read_joints(*n, scene);
  if (auto n = root.find("controllers")) read_controllers(*n, scene);
  scene.source = json_text;
  return scene;
}

Scene load_scene(const std::filesystem::path& file,
                 const std::vector<std::filesystem::path>& package_path) {
  const std::string ext = file.extension().string();
  const bool robot = ext == ".urdf" || ext == ".xacro";
  const std::string text =
      robot ? robot_scene_text(file) : read_text_file(file, "a readable scene file");
  Scene scene = parse_scene(text, file.string(), file.parent_path(), package_path);
  scene.file = file;
  return scene;
}

}  // namespace pegsim
