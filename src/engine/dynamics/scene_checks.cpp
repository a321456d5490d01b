#include "engine/dynamics/scene_checks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/geometry/mass_properties.hpp"
#include "engine/kinematics/joint_rows.hpp"
#include "engine/metrics/overlap.hpp"

namespace pegsim {
namespace {

std::string number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", x);
  return text;
}

double shape_volume(const Shape& s) {
  switch (s.kind) {
    case ShapeKind::Sphere:
      return sphere_mass_properties(s.radius).volume;
    case ShapeKind::Circle:
      return circle_mass_properties(s.radius).volume;
    case ShapeKind::Polytope:
      return polytope_mass_properties(*s.polytope).volume;
    case ShapeKind::Polygon:
      return polygon_mass_properties(*s.polygon).volume;
    case ShapeKind::Compound: {
      double v = 0.0;  // the largest part: the parts overlap, and it bounds the union below
      for (const CompoundPart& p : s.compound->parts) v = std::max(v, shape_volume(p.shape));
      return v;
    }
    default:
      return 0.0;
  }
}

}  // namespace

double shape_radius(const Shape& s) {
  switch (s.kind) {
    case ShapeKind::Sphere:
    case ShapeKind::Circle:
      return s.radius;
    case ShapeKind::Polytope:
      return s.polytope->bounding_radius;
    case ShapeKind::Polygon:
      return s.polygon->bounding_radius;
    case ShapeKind::Compound:
      return s.compound->bounding_radius;
    default:
      return 0.0;
  }
}

double kinetic_energy(const Model& model, const State& state) {
  double e = 0.0;
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    if (b.is_static || !b.present_at(state.time)) continue;
    const BodyState& s = state.bodies[i];
    const Mat3 R = s.orientation.toRotationMatrix();
    e += 0.5 * b.mass * s.velocity.squaredNorm() +
         0.5 * s.angular_velocity.dot(R * b.inertia * R.transpose() * s.angular_velocity);
  }
  return e;
}

double mechanical_energy(const Model& model, const State& state, const Vec3& gravity) {
  double e = kinetic_energy(model, state);
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    if (!b.is_static && b.present_at(state.time))
      e -= b.mass * gravity.dot(state.bodies[i].position);
  }
  return e;
}

double smallest_body_volume(const Model& model) {
  double smallest = 0.0;
  for (const Body& b : model.bodies) {
    if (b.is_static) continue;
    const double v = shape_volume(b.shape);
    if (v > 0.0 && (smallest == 0.0 || v < smallest)) smallest = v;
  }
  return smallest;
}

std::vector<std::string> scene_warnings(const Model& model, const State& state,
                                        const Settings& settings) {
  std::vector<std::string> out;
  const double smallest = smallest_body_volume(model);
  const OverlapTotals overlap = total_overlap(model, state);
  const char* unit = model.planar() ? "m^2" : "m^3";
  if (smallest > 0.0 && overlap.max_pair_volume > kGrossOverlapFraction * smallest)
    out.push_back("bodies overlap at the start: one pair by " + number(overlap.max_pair_volume) +
                  " " + unit + ", " + number(100.0 * overlap.max_pair_volume / smallest) +
                  " % of the smallest body; the first steps will throw them apart");
  for (const Joint& j : model.joints) {
    const JointError e = joint_error(state, j);
    if (e.position > 1e-6)
      out.push_back("joint " + j.name + ": its anchors are " + number(e.position) +
                    " m apart at the start; the first steps will pull them together");
  }
  const double g = settings.gravity.norm();
  int fastest = -1;
  double radius = 0.0;
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    const double r = b.is_static ? 0.0 : shape_radius(b.shape);
    if (r > 0.0 && (fastest < 0 || r < radius)) {
      fastest = static_cast<int>(i);
      radius = r;
    }
  }
  if (g > 0.0 && fastest >= 0) {
    const double fall = std::sqrt(2.0 * radius / g);
    if (settings.h > 0.5 * fall)
      out.push_back("h = " + number(settings.h) + " s is long against " + number(fall) +
                    " s, the time " + model.bodies[fastest].name +
                    " takes to fall through its own size: expect deep penetrations and lost "
                    "contacts");
  }
  return out;
}

}  // namespace pegsim
