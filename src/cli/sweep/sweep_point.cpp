#include "cli/sweep/sweep_point.hpp"

#include <cmath>
#include <fstream>
#include <sstream>

#include "cli/experiments/grasp_scene.hpp"
#include "cli/experiments/pour_scene.hpp"
#include "io/json_node.hpp"

namespace pegsim::cli {
namespace {

using nlohmann::json;

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::string origin(const Sweep& s) {
  return s.file.empty() ? "sweep" : s.file.string();
}

// Whether a scene's body (any JSON: a user's file, not yet checked) is the one named `name`.
bool named(const json& body, const std::string& name) {
  return body.is_object() && body.contains("name") && body["name"].is_string() &&
         body["name"].get<std::string>() == name;
}

bool planar(const json& scene) {
  return scene.contains("dimension") && scene["dimension"].is_number() &&
         scene["dimension"].get<double>() == 2.0;
}

// The value of the point's parameter that sets `target`, if any.
const json* value_for(const Sweep& s, const SweepPoint& p, const std::string& target) {
  for (std::size_t i = 0; i < s.parameters.size(); ++i)
    for (const std::string& t : s.parameters[i].targets)
      if (t == target) return &p.values[i];
  return nullptr;
}

// A generator option: a number in [min, max], or `fallback` when absent.
double option(const Sweep& s, const char* key, double fallback, double min, double max) {
  const json& o = s.generator_options;
  if (!o.contains(key)) return fallback;
  const json& v = o[key];
  if (!v.is_number() || !(v.get<double>() >= min && v.get<double>() <= max))
    throw SweepError(origin(s) + ": /generator/" + key + ": expected a number in [" +
                     std::to_string(min) + ", " + std::to_string(max) + "]");
  return v.get<double>();
}

void check_generator_options(const Sweep& s) {
  const std::vector<std::string> allowed =
      s.generator == "grasp_2d" ? std::vector<std::string>{"mu", "duration"}
                                : std::vector<std::string>{"bodies", "interval", "duration"};
  for (const auto& [key, value] : s.generator_options.items()) {
    bool ok = false;
    for (const std::string& a : allowed) ok = ok || a == key;
    if (!ok) {
      std::string names;
      for (const std::string& a : allowed) names += (names.empty() ? "" : ", ") + a;
      throw SweepError(origin(s) + ": /generator/" + key + ": unknown option of " + s.generator +
                       " (it takes " + names + ")");
    }
  }
}

json generated_scene(const Sweep& s, const SweepPoint& p) {
  std::uint64_t seed = 0;
  if (const json* v = value_for(s, p, "seed")) {
    if (!v->is_number_integer() || v->get<long long>() < 0)
      throw SweepError(origin(s) + ": parameter setting \"seed\": expected integers >= 0, got " +
                       v->dump());
    seed = v->get<std::uint64_t>();
  }
  double h = 0.01;
  if (const json* v = value_for(s, p, "settings.h"); v && v->is_number()) h = v->get<double>();
  if (!(h > 0))
    throw SweepError(origin(s) + ": parameter setting \"settings.h\": expected numbers > 0");
  std::string model;
  if (const json* v = value_for(s, p, "settings.contact_model"); v && v->is_string())
    model = v->get<std::string>();
  if (s.generator == "grasp_2d") {
    GraspSetup g;
    g.seed = seed;
    g.h = h;
    g.mu = option(s, "mu", 0.0, 0.0, 10.0);
    g.duration = option(s, "duration", g.duration, 1e-6, 1e6);
    if (!model.empty()) g.contact_model = model;
    return grasp_scene(g);
  }
  PourSetup setup =
      s.generator == "polygon_pour" ? polygon_pour_setup(seed, h) : polyhedra_pour_setup(seed, h);
  setup.bodies = int(option(s, "bodies", setup.bodies, 1, 1000));
  if (double(setup.bodies) != option(s, "bodies", setup.bodies, 1, 1000))
    throw SweepError(origin(s) + ": /generator/bodies: expected an integer from 1 to 1000");
  setup.interval = option(s, "interval", setup.interval, 0.0, 1e6);
  setup.duration = option(s, "duration", setup.duration, 1e-6, 1e6);
  if (!model.empty()) setup.contact_model = model;
  return pour_scene(setup);
}

// The JSON a target names inside the scene, created on the way (a missing array of an
// offset's component: zeros of the scene's dimension); `where` names it in messages.
json& target_slot(json& scene, const std::string& target, bool offset, std::string& where) {
  const int dimension = planar(scene) ? 2 : 3;
  std::vector<std::string> path;
  std::stringstream parts(target);
  for (std::string part; std::getline(parts, part, '.');) path.push_back(part);
  json* node = &scene;
  std::size_t k = 0;
  if (path[0] == "settings") {
    if (!scene.contains("settings")) scene["settings"] = json::object();
    node = &scene["settings"];
    where = "/settings";
    k = 1;
  } else if (path[0] == "body") {
    json& bodies = scene["bodies"];
    node = nullptr;
    if (bodies.is_array())
      for (std::size_t b = 0; b < bodies.size(); ++b)
        if (named(bodies[b], path[1])) {
          node = &bodies[b];
          where = "/bodies/" + std::to_string(b);
        }
    if (!node) throw SweepError("the scene has no body named '" + path[1] + "'");
    k = 2;
  }
  for (; k < path.size(); ++k) {
    const std::string& key = path[k];
    const bool index = key.find_first_not_of("0123456789") == std::string::npos;
    if (index) {
      if (!node->is_array())
        throw SweepError(where + ": expected an array to take component " + key + " of");
      const std::size_t i = std::stoul(key);
      if (i >= node->size())
        throw SweepError(where + ": has no component " + key + " (" + std::to_string(node->size()) +
                         " components)");
      node = &(*node)[i];
    } else {
      if (!node->is_object()) throw SweepError(where + ": expected an object to set '" + key + "'");
      const bool component_next =
          k + 1 < path.size() && path[k + 1].find_first_not_of("0123456789") == std::string::npos;
      if (!node->contains(key) && component_next) {
        (*node)[key] = json::array();
        for (int d = 0; d < dimension; ++d) (*node)[key].push_back(0.0);
      } else if (!node->contains(key) && offset) {
        (*node)[key] = 0.0;
      }
      node = &(*node)[key];
    }
    where += "/" + key;
  }
  return *node;
}

// body.NAME.turn.AXIS: the body's initial orientation turned by `angle` (rad) about the world
// axis AXIS (x, y or z; a 2D body's angle about z).
void turn_body(json& scene, const std::string& target, double angle) {
  const std::size_t dot = target.find('.', 5);
  const std::string name = target.substr(5, dot - 5);
  const int axis = target.back() - 'x';
  json* body = nullptr;
  if (scene.contains("bodies") && scene["bodies"].is_array())
    for (json& b : scene["bodies"])
      if (named(b, name)) body = &b;
  if (!body) throw SweepError("the scene has no body named '" + name + "'");
  if (planar(scene)) {
    if (axis != 2) throw SweepError("a 2D body turns about z only");
    const json o = body->contains("orientation") ? (*body)["orientation"] : json(0.0);
    if (!o.is_number()) throw SweepError("expected the 2D body's orientation to be an angle");
    (*body)["orientation"] = o.get<double>() + angle;
    return;
  }
  Quat q = Quat::Identity();
  if (body->contains("orientation")) {
    const json& o = (*body)["orientation"];
    auto numbers = [](const json& a, std::size_t n) {
      if (!a.is_array() || a.size() != n) return false;
      for (const json& v : a)
        if (!v.is_number()) return false;
      return true;
    };
    if (numbers(o, 4))
      q = Quat(o[0].get<double>(), o[1].get<double>(), o[2].get<double>(), o[3].get<double>());
    else if (o.is_object() && o.contains("axis") && numbers(o["axis"], 3) && o.contains("angle") &&
             o["angle"].is_number())
      q = Quat(Eigen::AngleAxisd(
          o["angle"].get<double>(),
          Vec3(o["axis"][0].get<double>(), o["axis"][1].get<double>(), o["axis"][2].get<double>())
              .normalized()));
    else
      throw SweepError("expected the body's orientation as [w, x, y, z] or {axis, angle}");
    if (!(q.norm() > 0) || !q.coeffs().allFinite())
      throw SweepError("expected the body's orientation to be a rotation");
    q.normalize();
  }
  const Quat turned = Quat(Eigen::AngleAxisd(angle, Vec3::Unit(axis))) * q;
  (*body)["orientation"] = {turned.w(), turned.x(), turned.y(), turned.z()};
}

bool is_turn(const std::string& target) {
  const std::size_t n = target.size();
  return target.rfind("body.", 0) == 0 && n > 7 && target.compare(n - 7, 6, ".turn.") == 0 &&
         (target[n - 1] == 'x' || target[n - 1] == 'y' || target[n - 1] == 'z');
}

}  // namespace

double random_draw(std::uint64_t seed, long long point, std::size_t parameter, double low,
                   double high) {
  const std::uint64_t x =
      splitmix64(splitmix64(splitmix64(seed) ^ std::uint64_t(point)) ^ std::uint64_t(parameter));
  const double u = double(x >> 11) * 0x1.0p-53;  // [0, 1)
  return low + u * (high - low);
}

SweepPoint sweep_point(const Sweep& sweep, long long index) {
  SweepPoint p;
  p.index = index;
  p.values.resize(sweep.parameters.size());
  long long rest = index;
  for (std::size_t i = sweep.parameters.size(); i-- > 0;) {
    const SweepParameter& q = sweep.parameters[i];
    if (q.random) continue;
    const long long n = static_cast<long long>(q.values.size());
    p.values[i] = q.values[std::size_t(rest % n)];
    rest /= n;
  }
  for (std::size_t i = 0; i < sweep.parameters.size(); ++i)
    if (sweep.parameters[i].random)
      p.values[i] =
          random_draw(sweep.seed, index, i, sweep.parameters[i].low, sweep.parameters[i].high);
  return p;
}

SweepBase load_sweep_base(const Sweep& sweep) {
  SweepBase base;
  base.scene_dir = ".";
  if (!sweep.generator.empty()) {
    check_generator_options(sweep);
    return base;
  }
  std::ifstream in(sweep.scene, std::ios::binary);
  if (!in)
    throw SweepError(origin(sweep) + ": /scene: " + sweep.scene.string() + " cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  base.scene_text = text.str();
  try {
    base.scene = json::parse(base.scene_text);
  } catch (const json::exception& e) {
    throw SweepError(sweep.scene.string() + ": not JSON: " + e.what());
  }
  if (!base.scene.is_object()) throw SweepError(sweep.scene.string() + ": expected a scene object");
  base.scene_dir = sweep.scene.parent_path();
  return base;
}

json point_scene_json(const Sweep& sweep, const SweepBase& base, const SweepPoint& p) {
  json scene = sweep.generator.empty() ? base.scene : generated_scene(sweep, p);
  if (sweep.duration > 0) scene["duration"] = sweep.duration;
  for (std::size_t i = 0; i < sweep.parameters.size(); ++i) {
    const SweepParameter& q = sweep.parameters[i];
    for (const std::string& target : q.targets) {
      if (target == "seed") continue;  // the generator's
      std::string where;
      try {
        if (is_turn(target)) {
          if (!q.numeric()) throw SweepError("a turn takes numbers (rad)");
          turn_body(scene, target, q.scale * p.values[i].get<double>());
          continue;
        }
        json& slot =
            target == "duration" ? scene["duration"] : target_slot(scene, target, q.offset, where);
        if (q.offset && !slot.is_number())
          throw SweepError(where + ": an offset needs a number there, the scene has " +
                           slot.dump());
        if (q.numeric()) {
          const double v = q.scale * p.values[i].get<double>();
          slot = q.offset ? slot.get<double>() + v : v;
        } else {
          slot = p.values[i];
        }
      } catch (const SweepError& e) {
        throw SweepError(origin(sweep) + ": parameter '" + q.name + "' sets '" + target +
                         "': " + e.what());
      }
    }
  }
  return scene;
}

Scene point_scene(const Sweep& sweep, const SweepBase& base, const SweepPoint& p) {
  const json scene = point_scene_json(sweep, base, p);
  const std::string name = sweep.generator.empty() ? sweep.scene.string() : sweep.generator;
  try {
    return parse_scene(scene.dump(), name + " (sweep point " + std::to_string(p.index) + ")",
                       base.scene_dir);
  } catch (const SceneError& e) {
    throw SweepError(origin(sweep) + ": point " + std::to_string(p.index) + ": " + e.what());
  }
}

int check_sweep_points(const Sweep& sweep, const SweepBase& base) {
  const SweepPoint first = sweep_point(sweep, 0);
  const Scene scene = point_scene(sweep, base, first);
  const int dimension = scene.dimension;
  // The bodies the metrics name.
  for (std::size_t m = 0; m < sweep.metrics.size(); ++m) {
    for (const std::string& name : sweep.metrics[m].bodies())
      if (scene.model.body_index(name) < 0)
        throw SweepError(origin(sweep) + ": /metrics/" + std::to_string(m) +
                         ": expected a body of the scene, it has none named '" + name + "'");
  }
  for (std::size_t i = 0; i < sweep.parameters.size(); ++i) {
    const SweepParameter& q = sweep.parameters[i];
    std::vector<json> values = q.values;
    if (q.random) values = {q.low, q.high};
    for (std::size_t k = 1 - std::size_t(q.random); k < values.size(); ++k) {
      SweepPoint p = first;
      p.values[i] = values[k];
      try {
        point_scene(sweep, base, p);
      } catch (const SweepError& e) {
        throw SweepError(std::string(e.what()) + " (parameter '" + q.name +
                         "' = " + values[k].dump() + ")");
      }
    }
  }
  return dimension;
}

double point_cost(const json& scene) {
  double h = 0.01, duration = 1.0;
  if (scene.contains("settings") && scene["settings"].contains("h") &&
      scene["settings"]["h"].is_number())
    h = scene["settings"]["h"].get<double>();
  if (scene.contains("duration") && scene["duration"].is_number())
    duration = scene["duration"].get<double>();
  return h > 0 ? duration / h : 0.0;
}

}  // namespace pegsim::cli
