#include "cli/experiments/grasp_scene.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "cli/experiments/step_size_rules.hpp"
#include "engine/geometry/mass_properties.hpp"
#include "engine/geometry/polygon.hpp"
#include "engine/geometry/polygon_builders.hpp"

namespace pegsim::cli {
namespace {

using nlohmann::json;

// The gripper. The thesis gives no sizes or gains. The generator's polygons fit in a box of
// 0.71 m (the diagonal of its ±0.25 m square) centred on x = 0, so the palm's underside is at
// 0.8 m and the knuckles at x = ±0.45 m: the open gripper clears every polygon.
constexpr double kFingerWidth = 0.04;                  // m
constexpr double kProximal = 0.74, kDistal = 0.3;      // link lengths, m
constexpr double kKnuckleX = 0.45, kPalmBottom = 0.8;  // m
constexpr double kPalmSize[2] = {1.0, 0.08};           // m
constexpr double kPalmMass = 1.0, kProximalMass = 0.3, kDistalMass = 0.5, kObjectMass = 0.5;  // kg
constexpr double kSqueeze = 0.04;    // m: the closed fingertips' targets lie this far inside
constexpr double kClearance = 0.03;  // m: open fingertips this far outside the polygon
// PD gains, the same in every trial (§5.2.5) and on both fingers. The efforts are explicit,
// so h kd / I stays below 1 at h = 0.01 for the inertias each joint moves (proximal about
// 0.23 kg m^2 with its distal link, distal 0.009 kg m^2); no gravity compensation, as in the
// thesis, so the fingers droop a little under their weight and the object's.
struct Gains {
  double kp, kd, max_effort;
};
constexpr Gains kKnuckleGains{150.0, 12.0, 20.0};  // N m/rad, N m s/rad, N m
constexpr Gains kMiddleGains{40.0, 1.2, 8.0};
constexpr Gains kLiftGains{5000.0, 150.0, 300.0};  // N/m, N s/m, N
constexpr int kPathPoints = 12;                    // waypoints of each motion

// The fraction of a motion done at fraction f of its time: a half cosine, which starts and
// stops with zero speed, so that the palm does not toss the object when the lift ends.
double smooth(double f) {
  return 0.5 * (1.0 - std::cos(M_PI * f));
}

Vec2 turn(const Vec2& v, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  return {c * v.x() - s * v.y(), s * v.x() + c * v.y()};
}

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

// The leftmost x of a convex polygon between heights y0 <= y1.
double leftmost_between(const std::vector<Vec2>& polygon, double y0, double y1) {
  double x = std::numeric_limits<double>::infinity();
  const std::size_t n = polygon.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2& a = polygon[i];
    const Vec2& b = polygon[(i + 1) % n];
    if (a.y() >= y0 && a.y() <= y1) x = std::min(x, a.x());
    for (const double y : {y0, y1})
      if ((a.y() - y) * (b.y() - y) < 0.0)
        x = std::min(x, a.x() + (b.x() - a.x()) * (y - a.y()) / (b.y() - a.y()));
  }
  return x;
}

// A finger's two links as absolute angles, each the turn of the link's downward direction
// (0, -1) about +z: a link at angle a points along (sin a, -cos a).
struct FingerPose {
  double proximal, distal;
};

double link_angle(const Vec2& direction) {
  return std::atan2(direction.x(), -direction.y());
}

// The left finger with its tip at `tip` (inverse kinematics of two links from the knuckle),
// the middle joint bent outward, away from the object.
FingerPose left_finger_reaching(const Vec2& tip) {
  const Vec2 knuckle(-kKnuckleX, kPalmBottom);
  const Vec2 reach = tip - knuckle;
  const double d = std::clamp(reach.norm(), std::abs(kProximal - kDistal), kProximal + kDistal);
  const double gamma = std::acos(std::clamp(
      (kProximal * kProximal + d * d - kDistal * kDistal) / (2 * kProximal * d), -1.0, 1.0));
  const Vec2 proximal = turn(reach.normalized(), -gamma);
  const Vec2 middle = knuckle + kProximal * proximal;
  return {link_angle(proximal), link_angle(tip - middle)};
}

json rectangle(const std::string& name, double width, double length, const Vec2& centre,
               double angle, double mass, double mu, const char* color) {
  return {{"name", name},
          {"shape", {{"type", "rectangle"}, {"size", {width, length}}}},
          {"position", {centre.x(), centre.y()}},
          {"orientation", angle},
          {"mass", mass},
          {"mu", mu},
          {"color", color}};
}

json pd(const std::string& joint, const char* coordinate, const Gains& g, const json& points) {
  return {{"type", "pd"},
          {"joint", joint},
          {"coordinate", coordinate},
          {"kp", g.kp},
          {"kd", g.kd},
          {"max_effort", g.max_effort},
          {"target", {{"type", "waypoints"}, {"points", points}}}};
}

}  // namespace

GraspObject grasp_object(std::uint64_t seed) {
  Polygon p = make_random_polygon(seed);
  translate(p, polygon_mass_properties(p).centroid.head<2>());
  // Rest on the stable edge (the centroid above its interior) that best lets the fingertips
  // under the polygon: the score is the least of the overhangs beyond the bottom edge's ends,
  // the heights of the leftmost and rightmost vertices, and the centroid's distance to the
  // bottom edge's ends (a margin against tipping over when the fingers touch).
  double best_score = -std::numeric_limits<double>::infinity();
  double best_angle = 0.0, best_overhang_height = 0.0;
  for (int e = 0; e < p.size(); ++e) {
    const double angle = -M_PI / 2 - std::atan2(p.normals[e].y(), p.normals[e].x());
    const auto [a, b] = p.edge_vertices(e);
    const double left = std::min(turn(p.vertices[a], angle).x(), turn(p.vertices[b], angle).x());
    const double right = std::max(turn(p.vertices[a], angle).x(), turn(p.vertices[b], angle).x());
    if (!(left < 0.0 && right > 0.0)) continue;  // would tip over
    Vec2 low(0.0, std::numeric_limits<double>::infinity()), leftmost = low, rightmost = low;
    leftmost.x() = std::numeric_limits<double>::infinity();
    rightmost.x() = -leftmost.x();
    for (const Vec2& v : p.vertices) {
      const Vec2 w = turn(v, angle);
      if (w.y() < low.y()) low = w;
      if (w.x() < leftmost.x()) leftmost = w;
      if (w.x() > rightmost.x()) rightmost = w;
    }
    const double overhang_height = std::min(leftmost.y(), rightmost.y()) - low.y();
    const double score =
        std::min({left - leftmost.x(), rightmost.x() - right, overhang_height, -left, right});
    if (score > best_score) {
      best_score = score;
      best_angle = angle;
      best_overhang_height = overhang_height;
    }
  }
  GraspObject o;
  o.orientation = std::remainder(best_angle, 2 * M_PI);
  double x_min = 1e9, x_max = -1e9, y_min = 1e9, y_max = -1e9;
  for (const Vec2& v : p.vertices) {
    o.vertices.push_back(turn(v, o.orientation));
    x_min = std::min(x_min, o.vertices.back().x()), x_max = std::max(x_max, o.vertices.back().x());
    y_min = std::min(y_min, o.vertices.back().y()), y_max = std::max(y_max, o.vertices.back().y());
  }
  o.position = Vec2(-(x_min + x_max) / 2, -y_min);
  for (Vec2& v : o.vertices) v += o.position;
  o.width = x_max - x_min;
  o.height = y_max - y_min;
  // Below the widest points, where the sides lean out over the fingertips, and high enough
  // that the distal links (4 cm thick) clear the floor.
  o.grasp_height = std::clamp(0.5 * best_overhang_height, 0.035, 0.06);
  return o;
}

nlohmann::json grasp_scene(const GraspSetup& s) {
  const GraspObject object = grasp_object(s.seed);
  const Vec2 palm(0.0, kPalmBottom + kPalmSize[1] / 2);
  json bodies = json::array(), joints = json::array(), controllers = json::array();
  bodies.push_back({{"name", "floor"},
                    {"shape", {{"type", "half_plane"}}},
                    {"position", {0.0, 0.0}},
                    {"mu", s.mu},
                    {"color", "#8c8c8c"}});
  bodies.push_back({{"name", "object"},
                    {"shape", {{"type", "random_polygon"}, {"seed", s.seed}}},
                    {"position", {object.position.x(), object.position.y()}},
                    {"orientation", object.orientation},
                    {"mass", kObjectMass},
                    {"mu", s.mu},
                    {"color", "#d9822b"}});
  bodies.push_back(
      rectangle("palm", kPalmSize[0], kPalmSize[1], palm, 0.0, kPalmMass, s.mu, "#4f6fb0"));
  joints.push_back({{"name", "lift"},
                    {"type", "prismatic"},
                    {"body_a", "world"},
                    {"body_b", "palm"},
                    {"anchor", {palm.x(), palm.y()}},
                    {"axis", {0.0, 1.0}}});
  json lift_path = json::array();
  for (int i = 0; i <= kPathPoints; ++i) {
    const double f = double(i) / kPathPoints;
    lift_path.push_back({kLiftStart + f * (kLiftEnd - kLiftStart), kLift * smooth(f)});
  }
  controllers.push_back(pd("lift", "displacement", kLiftGains, lift_path));
  // Each finger is the left one's mirror image: x, angles and joint coordinates change sign.
  std::vector<Vec2> mirrored;
  for (const Vec2& v : object.vertices) mirrored.emplace_back(-v.x(), v.y());
  const double y = object.grasp_height, band = kFingerWidth / 2 + 0.01;
  for (const double side : {-1.0, 1.0}) {
    const std::string name = side < 0 ? "left" : "right";
    const std::vector<Vec2>& seen = side < 0 ? object.vertices : mirrored;
    // The fingertip moves along the line y = grasp_height from outside the polygon (clear of
    // it over the distal link's thickness) to kSqueeze inside its side: the PD's pull past the
    // contact is the grip.
    const double open = leftmost_between(seen, y - band, y + band) - kClearance;
    const double closed = leftmost_between(seen, y, y) + kSqueeze;
    const FingerPose start = left_finger_reaching(Vec2(open, y));
    json knuckle_path = json::array(), middle_path = json::array();
    for (int i = 0; i <= kPathPoints; ++i) {
      const double f = double(i) / kPathPoints;
      const FingerPose pose = left_finger_reaching(Vec2(open + smooth(f) * (closed - open), y));
      const double t = kCloseStart + f * (kCloseEnd - kCloseStart);
      knuckle_path.push_back({t, -side * (pose.proximal - start.proximal)});
      middle_path.push_back(
          {t, -side * ((pose.distal - pose.proximal) - (start.distal - start.proximal))});
    }
    const Vec2 knuckle(side * kKnuckleX, kPalmBottom);
    const Vec2 down_proximal(-side * std::sin(start.proximal), -std::cos(start.proximal));
    const Vec2 middle = knuckle + kProximal * down_proximal;
    const Vec2 down_distal(-side * std::sin(start.distal), -std::cos(start.distal));
    bodies.push_back(rectangle(name + "_proximal", kFingerWidth, kProximal,
                               knuckle + down_proximal * (kProximal / 2), -side * start.proximal,
                               kProximalMass, s.mu, "#3c8c5a"));
    bodies.push_back(rectangle(name + "_distal", kFingerWidth, kDistal,
                               middle + down_distal * (kDistal / 2), -side * start.distal,
                               kDistalMass, s.mu, "#3c8c5a"));
    joints.push_back({{"name", name + "_knuckle"},
                      {"type", "revolute"},
                      {"body_a", "palm"},
                      {"body_b", name + "_proximal"},
                      {"anchor", {knuckle.x(), knuckle.y()}}});
    joints.push_back({{"name", name + "_middle"},
                      {"type", "revolute"},
                      {"body_a", name + "_proximal"},
                      {"body_b", name + "_distal"},
                      {"anchor", {middle.x(), middle.y()}}});
    controllers.push_back(pd(name + "_knuckle", "angle", kKnuckleGains, knuckle_path));
    controllers.push_back(pd(name + "_middle", "angle", kMiddleGains, middle_path));
  }
  json scene;
  scene["name"] = "grasp_2d_seed" + std::to_string(s.seed);
  scene["description"] =
      "Thesis §5.2.5-5.2.6 (Fig. 5.17): a five-link two-fingered gripper (a palm and two "
      "fingers of two links; four PD-controlled revolute joints, the palm on a PD-controlled "
      "prismatic joint to the world) closes its fingertips under the sides of random polygon " +
      std::to_string(s.seed) + " resting on the floor from " + number(kCloseStart) + " s to " +
      number(kCloseEnd) + " s, then lifts it by " + number(kLift) + " m from " +
      number(kLiftStart) + " s to " + number(kLiftEnd) + " s; friction " + number(s.mu) + ".";
  scene["dimension"] = 2;
  scene["duration"] = s.duration;
  scene["settings"] = scaled_settings(s.h, s.contact_model, s.primaries);
  scene["bodies"] = bodies;
  scene["joints"] = joints;
  scene["controllers"] = controllers;
  return scene;
}

}  // namespace pegsim::cli
