#include "cli/experiments/pour_scene.hpp"

#include <algorithm>
#include <string>

#include "cli/experiments/step_size_rules.hpp"
#include "engine/geometry/random_points.hpp"

namespace pegsim::cli {
namespace {

using nlohmann::json;

// The thesis gives no container size, drop height or speed; these keep the pile of 20
// polygons (about 0.14 m^2 each) inside the walls and each new body clear of the last.
constexpr double kWall = 0.2;  // wall and floor thickness, m

json block(const std::string& name, const json& size, const json& position) {
  return {{"name", name},
          {"shape", {{"type", size.size() == 2 ? "rectangle" : "box"}, {"size", size}}},
          {"position", position},
          {"static", true},
          {"mu", 0.0},
          {"color", "#8c8c8c"}};
}

// 2D: a floor and two walls, 3 m apart inside and 1.5 m high; polygons appear 2.2 m above
// the floor, alternately left and right of the middle, falling at 2 m/s.
json polygon_bodies(const PourSetup& s) {
  const double inner = 3.0, height = 1.5, side = inner / 2 + kWall / 2;
  json bodies = json::array();
  bodies.push_back(block("floor", {inner + 2 * kWall, kWall}, {0.0, -kWall / 2}));
  bodies.push_back(block("left_wall", {kWall, height}, {-side, height / 2}));
  bodies.push_back(block("right_wall", {kWall, height}, {side, height / 2}));
  const auto jitter = random_points_2d(s.seed ^ 0x9e3779b97f4a7c15ULL, s.bodies, 0.3);
  for (int i = 0; i < s.bodies; ++i) {
    const double x = (i % 2 ? 0.6 : -0.6) + jitter[i].x();
    bodies.push_back({{"name", "polygon" + std::to_string(i)},
                      {"shape", {{"type", "random_polygon"}, {"seed", s.seed * 1000 + i}}},
                      {"position", {x, 2.2}},
                      {"velocity", {0.0, -2.0}},
                      {"appear_time", s.interval * i},
                      {"mu", 0.0}});
  }
  return bodies;
}

// 3D: the container is the union of five right hexahedra (journal Fig. 23), 1.2 m square
// inside and 1 m high; polyhedra appear 1.4 m above the floor moving at 1 m/s along -x
// (§5.2.4: "with a horizontal velocity in the negative x direction").
json polyhedron_bodies(const PourSetup& s) {
  const double inner = 1.2, height = 1.0, side = inner / 2 + kWall / 2;
  const double outer = inner + 2 * kWall;
  json bodies = json::array();
  bodies.push_back(block("floor", {outer, outer, kWall}, {0.0, 0.0, -kWall / 2}));
  bodies.push_back(block("wall_x-", {kWall, inner, height}, {-side, 0.0, height / 2}));
  bodies.push_back(block("wall_x+", {kWall, inner, height}, {side, 0.0, height / 2}));
  bodies.push_back(block("wall_y-", {outer, kWall, height}, {0.0, -side, height / 2}));
  bodies.push_back(block("wall_y+", {outer, kWall, height}, {0.0, side, height / 2}));
  const auto jitter = random_points_2d(s.seed ^ 0x9e3779b97f4a7c15ULL, s.bodies, 0.25);
  for (int i = 0; i < s.bodies; ++i)
    bodies.push_back({{"name", "polyhedron" + std::to_string(i)},
                      {"shape", {{"type", "random_polyhedron"}, {"seed", s.seed * 1000 + i}}},
                      {"position", {0.25 + 0.1 * jitter[i].x(), jitter[i].y(), 1.4}},
                      {"velocity", {-1.0, 0.0, 0.0}},
                      {"appear_time", s.interval * i},
                      {"mu", 0.0}});
  return bodies;
}

}  // namespace

PourSetup polygon_pour_setup(std::uint64_t seed, double h) {
  return {2, seed, h, 20, 0.25, 5.0, "sm"};
}

PourSetup polyhedra_pour_setup(std::uint64_t seed, double h) {
  return {3, seed, h, 10, 0.5, 5.0, "sm"};
}

nlohmann::json pour_scene(const PourSetup& s) {
  const bool planar = s.dimension == 2;
  json scene;
  scene["name"] =
      std::string(planar ? "polygon_pour" : "polyhedra_pour") + "_seed" + std::to_string(s.seed);
  scene["description"] = planar ? "Thesis §5.2.3: random polygons poured into a box"
                                : "Thesis §5.2.4: random polyhedra poured into a box";
  scene["dimension"] = s.dimension;
  scene["duration"] = s.duration;
  // Frictionless, as every simulation of thesis §5.2.
  scene["settings"] = scaled_settings(s.h, s.contact_model, s.primaries);
  // The thesis solved the pours with PATH, whose answers count as solved at a residual of 1e-6
  // (its default convergence_tolerance); a crash ended a run (§5 common set-up). PEG's pile
  // steps often have LCPs that no method solves beyond 1e-7 ... 1e-5 (Lemke ends on an
  // ill-conditioned basis; path, the interior point and PGS stall at the same level): at our
  // default 1e-10 they stopped 49 of 160 polyhedra trials that the thesis' set-up runs to the end.
  scene["settings"]["tolerance"] = 1e-6;
  scene["settings"]["fallbacks"] = {"path", "pgs"};
  scene["bodies"] = planar ? polygon_bodies(s) : polyhedron_bodies(s);
  return scene;
}

}  // namespace pegsim::cli
