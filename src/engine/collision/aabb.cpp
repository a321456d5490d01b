// World AABBs of the shape kinds, inflated by a margin on every side.
#include "engine/collision/aabb.hpp"

#include <cmath>
#include <limits>

namespace pegsim {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The half-space {n . (x - p) <= 0} is bounded only along an axis its normal is aligned with
// (a plane's normal is its body's +z, a half-plane's its +y: unbounded in z).
Aabb plane_aabb(const BodyState& state, const Vec3& body_normal, double margin) {
  const Vec3 n = state.orientation * body_normal;
  Aabb box{Vec3::Constant(-kInf), Vec3::Constant(kInf)};
  for (int k = 0; k < 3; ++k) {
    if (std::abs(n[k]) < 1.0 - 1e-12) continue;
    if (n[k] > 0.0)
      box.hi[k] = state.position[k] + margin;
    else
      box.lo[k] = state.position[k] - margin;
  }
  return box;
}

}  // namespace

Aabb compute_aabb(const Body& body, const BodyState& state, double margin) {
  switch (body.shape.kind) {
    case ShapeKind::Sphere: {
      const Vec3 r = Vec3::Constant(body.shape.radius + margin);
      return Aabb{state.position - r, state.position + r};
    }
    case ShapeKind::Plane:
      return plane_aabb(state, Vec3::UnitZ(), margin);
    case ShapeKind::HalfPlane:
      return plane_aabb(state, Vec3::UnitY(), margin);
    case ShapeKind::Circle: {
      const Vec3 r(body.shape.radius + margin, body.shape.radius + margin, margin);
      return Aabb{state.position - r, state.position + r};
    }
    case ShapeKind::Polygon: {
      const Mat3 R = state.orientation.toRotationMatrix();
      Aabb box{Vec3::Constant(kInf), Vec3::Constant(-kInf)};
      for (const Vec2& v : body.shape.polygon->vertices) {
        const Vec3 w = state.position + R * Vec3(v.x(), v.y(), 0.0);
        box.lo = box.lo.cwiseMin(w);
        box.hi = box.hi.cwiseMax(w);
      }
      box.lo.array() -= margin;
      box.hi.array() += margin;
      return box;
    }
    case ShapeKind::Polytope: {
      const Mat3 R = state.orientation.toRotationMatrix();
      Aabb box{Vec3::Constant(kInf), Vec3::Constant(-kInf)};
      for (const Vec3& v : body.shape.polytope->vertices) {
        const Vec3 w = state.position + R * v;
        box.lo = box.lo.cwiseMin(w);
        box.hi = box.hi.cwiseMax(w);
      }
      box.lo.array() -= margin;
      box.hi.array() += margin;
      return box;
    }
    case ShapeKind::Compound: {  // the box of every part's box
      const Mat3 R = state.orientation.toRotationMatrix();
      Aabb box{Vec3::Constant(kInf), Vec3::Constant(-kInf)};
      for (const CompoundPart& part : body.shape.compound->parts) {
        const Vec3 origin = state.position + R * part.position;
        const double r = part.shape.radius;
        if (part.shape.kind == ShapeKind::Sphere || part.shape.kind == ShapeKind::Circle) {
          const Vec3 extent(r, r, part.shape.kind == ShapeKind::Circle ? 0.0 : r);
          box.lo = box.lo.cwiseMin(origin - extent);
          box.hi = box.hi.cwiseMax(origin + extent);
          continue;
        }
        const Mat3 Rp = R * part.orientation.toRotationMatrix();
        if (part.shape.kind == ShapeKind::Polygon) {
          for (const Vec2& v : part.shape.polygon->vertices) {
            const Vec3 w = origin + Rp * Vec3(v.x(), v.y(), 0.0);
            box.lo = box.lo.cwiseMin(w);
            box.hi = box.hi.cwiseMax(w);
          }
          continue;
        }
        for (const Vec3& v : part.shape.polytope->vertices) {
          const Vec3 w = origin + Rp * v;
          box.lo = box.lo.cwiseMin(w);
          box.hi = box.hi.cwiseMax(w);
        }
      }
      box.lo.array() -= margin;
      box.hi.array() += margin;
      return box;
    }
  }
  return Aabb{};
}

}  // namespace pegsim
