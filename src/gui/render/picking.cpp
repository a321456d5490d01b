#include "gui/render/picking.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pegsim::gui {

std::optional<double> ray_hit(const Body& body, const BodyState& state, const Vec3& origin,
                              const Vec3& dir, const DrawnExtent& extent) {
  // Work in the body frame, where the shapes are defined.
  const Quat inv = state.orientation.conjugate();
  const Vec3 o = inv * (origin - state.position);
  const Vec3 d = inv * dir;
  switch (body.shape.kind) {
    case ShapeKind::Sphere: {
      const double r = body.shape.radius;
      const double a = d.squaredNorm(), b = o.dot(d), c = o.squaredNorm() - r * r;
      const double disc = b * b - a * c;
      if (a == 0.0 || disc < 0.0) return std::nullopt;
      const double s = std::sqrt(disc);
      const double t0 = (-b - s) / a, t1 = (-b + s) / a;
      if (t1 < 0.0) return std::nullopt;
      return t0 >= 0.0 ? t0 : 0.0;
    }
    case ShapeKind::Plane: {
      if (o.z() <= 0.0) return 0.0;  // starts inside the half-space
      if (d.z() >= 0.0) return std::nullopt;
      const double t = -o.z() / d.z();
      const Vec3 x = o + t * d;
      if (std::max(std::abs(x.x()), std::abs(x.y())) > extent.half_width) return std::nullopt;
      return t;
    }
    case ShapeKind::Polytope: {
      // Clip the ray against every face's half-space normal . x <= offset.
      double enter = 0.0, leave = std::numeric_limits<double>::infinity();
      for (const Polytope::Face& f : body.shape.polytope->faces) {
        const double dn = f.normal.dot(d), dist = f.offset - f.normal.dot(o);
        if (dn == 0.0) {
          if (dist < 0.0) return std::nullopt;  // parallel and outside
          continue;
        }
        const double t = dist / dn;
        if (dn < 0.0)
          enter = std::max(enter, t);
        else
          leave = std::min(leave, t);
        if (enter > leave) return std::nullopt;
      }
      return enter;
    }
    case ShapeKind::Compound: {  // the nearest hit of its parts
      std::optional<double> best;
      for (const CompoundPart& part : body.shape.compound->parts) {
        Body piece;
        piece.shape = part.shape;
        BodyState pose;
        pose.position = state.position + state.orientation * part.position;
        pose.orientation = state.orientation * part.orientation;
        const auto t = ray_hit(piece, pose, origin, dir, extent);
        if (t && (!best || *t < *best)) best = t;
      }
      return best;
    }
    case ShapeKind::Polygon:
    case ShapeKind::Circle:
    case ShapeKind::HalfPlane: {
      // Planar shapes are drawn flat in the body's x-y plane: where the ray crosses it.
      if (d.z() == 0.0) return std::nullopt;
      const double t = -o.z() / d.z();
      if (t < 0.0) return std::nullopt;
      const Vec3 x = o + t * d;
      if (body.shape.kind == ShapeKind::Circle)
        return x.head<2>().norm() <= body.shape.radius ? std::optional(t) : std::nullopt;
      if (body.shape.kind == ShapeKind::HalfPlane)
        return x.y() <= 0.0 && x.y() >= -extent.depth && std::abs(x.x()) <= extent.half_width
                   ? std::optional(t)
                   : std::nullopt;
      const Polygon& p = *body.shape.polygon;
      for (int e = 0; e < p.size(); ++e)
        if (p.normals[std::size_t(e)].dot(x.head<2>() - p.vertices[std::size_t(e)]) > 0.0)
          return std::nullopt;
      return t;
    }
  }
  return std::nullopt;
}

DrawnExtent drawn_extent(double scene_size) {
  return {0.5 * std::max(10.0, 6.0 * scene_size), 0.25 * scene_size};
}

int pick_body(const Model& model, const FrameSnapshot& frame, const Vec3& origin, const Vec3& dir,
              const DrawnExtent& extent) {
  int best = -1;
  double best_t = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < model.bodies.size() && i < frame.bodies.size(); ++i) {
    if (!model.bodies[i].visible || !frame.present(int(i))) continue;
    if (auto t = ray_hit(model.bodies[i], frame.bodies[i], origin, dir, extent); t && *t < best_t) {
      best_t = *t;
      best = int(i);
    }
  }
  return best;
}

}  // namespace pegsim::gui
