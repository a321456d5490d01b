#include "engine/metrics/overlap_2d.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "engine/collision/polygon_contacts.hpp"
#include "engine/collision/posed_polygon.hpp"
#include "engine/core/part_state.hpp"
#include "engine/geometry/compound_2d.hpp"
#include "engine/geometry/intersection_properties_2d.hpp"
#include "engine/geometry/polygon_overlap.hpp"

namespace pegsim {
namespace {

std::vector<Vec2> world_outline(const Polygon& p, const BodyState& s) {
  std::vector<Vec2> out;
  pegsim::world_outline(p, s, out);
  return out;
}

// Area of a disc of radius r beyond a line at signed distance d from its centre (d > 0: the
// centre outside): the circular segment r^2 acos(d/r) - d sqrt(r^2 - d^2).
double disc_segment_area(double r, double d) {
  if (d >= r) return 0.0;
  if (d <= -r) return M_PI * r * r;
  return r * r * std::acos(d / r) - d * std::sqrt(r * r - d * d);
}

// Lens of two discs at distance d: the two circular segments cut by their radical line.
double disc_disc_area(double r1, double r2, double d) {
  if (d >= r1 + r2) return 0.0;
  if (d <= std::abs(r1 - r2)) return M_PI * std::min(r1, r2) * std::min(r1, r2);
  const double x = (d * d + r1 * r1 - r2 * r2) / (2.0 * d);  // radical line from centre 1
  return disc_segment_area(r1, x) + disc_segment_area(r2, d - x);
}

// A convex piece of a planar body in the world: a polygon's outline, a disc or a half-plane
// (a body's own shape, or a compound's part).
struct Piece {
  ShapeKind kind;
  std::vector<Vec2> outline;  // Polygon
  Vec2 centre;                // Circle: centre; HalfPlane: a point on the line
  Vec2 normal;                // HalfPlane: outward normal
  double radius;              // Circle
};

void add_piece(const Shape& shape, const BodyState& pose, std::vector<Piece>& out) {
  out.push_back({shape.kind, {}, in_plane(pose.position), half_plane_normal(pose), shape.radius});
  if (shape.kind == ShapeKind::Polygon) out.back().outline = world_outline(*shape.polygon, pose);
}

std::vector<Piece> pieces(const Body& body, const BodyState& pose) {
  std::vector<Piece> out;
  if (body.shape.kind != ShapeKind::Compound) {
    add_piece(body.shape, pose, out);
    return out;
  }
  for (const CompoundPart& part : body.shape.compound->parts) {
    add_piece(part.shape, part_state(pose, part), out);
  }
  return out;
}

// The overlap of two planar bodies one of which is a compound: the area of the union of the
// pairwise intersections of their convex pieces, (U A_i) ∩ (U B_j) = U (A_i ∩ B_j), exact.
// Polygon intersections (and polygons clipped by a half-plane) are convex, so their union is
// measured by inclusion-exclusion (union_area). A circle part overlaps no other part of its
// compound (check_planar_parts), so its lens with a circle or its segment cut by a half-plane
// is disjoint from every other term and adds; a disc meeting a polygon has no formula here,
// and makes the pair unmeasured (false).
bool compound_overlap_area(const Body& ba, const BodyState& sa, const Body& bb, const BodyState& sb,
                           double& area) {
  using K = ShapeKind;
  const std::vector<Piece> pa = pieces(ba, sa), pb = pieces(bb, sb);
  std::vector<std::vector<Vec2>> common;
  std::vector<Vec2> scratch;
  double discs = 0.0;
  for (const Piece& x0 : pa)
    for (const Piece& y0 : pb) {
      // Order the pair so that x has the lower kind (Polygon < Circle < HalfPlane).
      const bool swap = static_cast<int>(x0.kind) > static_cast<int>(y0.kind);
      const Piece& x = swap ? y0 : x0;
      const Piece& y = swap ? x0 : y0;
      if (x.kind == K::Polygon && y.kind == K::Polygon) {
        common.emplace_back();
        polygon_intersection(x.outline, y.outline, common.back(), scratch);
      } else if (x.kind == K::Polygon && y.kind == K::HalfPlane) {
        const Vec2 along(-y.normal.y(), y.normal.x());
        common.emplace_back();
        clip_polygon_left(x.outline, y.centre, y.centre + along, common.back());
      } else if (x.kind == K::Polygon && y.kind == K::Circle) {
        bool inside = true;
        double distance = INFINITY;
        for (std::size_t i = 0; i < x.outline.size(); ++i) {
          const Vec2 b1 = x.outline[i], d = x.outline[(i + 1) % x.outline.size()] - b1;
          if (d.x() * (y.centre - b1).y() - d.y() * (y.centre - b1).x() >= 0.0) continue;
          inside = false;
          const double t = std::clamp((y.centre - b1).dot(d) / d.squaredNorm(), 0.0, 1.0);
          distance = std::min(distance, (y.centre - b1 - t * d).norm());
        }
        if (inside || distance < y.radius) return false;
      } else if (x.kind == K::Circle && y.kind == K::Circle) {
        discs += disc_disc_area(x.radius, y.radius, (y.centre - x.centre).norm());
      } else if (x.kind == K::Circle && y.kind == K::HalfPlane) {
        discs += disc_segment_area(x.radius, y.normal.dot(x.centre - y.centre));
      }
    }
  std::erase_if(common, [](const std::vector<Vec2>& p) { return p.size() < 3; });
  area = union_area(common) + discs;
  return true;
}

}  // namespace

bool pair_overlap_area_2d(const Model& model, const State& state, int a, int b, double& area) {
  area = 0.0;
  const Shape* sa = &model.bodies[a].shape;
  const Shape* sb = &model.bodies[b].shape;
  if (!sa->planar() || !sb->planar()) return false;
  if (sa->kind == ShapeKind::Compound || sb->kind == ShapeKind::Compound)
    return compound_overlap_area(model.bodies[a], state.bodies[a], model.bodies[b], state.bodies[b],
                                 area);
  // Order the pair so that sa has the lower kind (Polygon < Circle < HalfPlane).
  if (static_cast<int>(sa->kind) > static_cast<int>(sb->kind)) {
    std::swap(sa, sb);
    std::swap(a, b);
  }
  const BodyState& pa = state.bodies[a];
  const BodyState& pb = state.bodies[b];
  using K = ShapeKind;
  const K ka = sa->kind, kb = sb->kind;
  if (ka == K::Polygon && kb == K::Polygon) {
    area = polygon_overlap_area(world_outline(*sa->polygon, pa), world_outline(*sb->polygon, pb));
  } else if (ka == K::Polygon && kb == K::HalfPlane) {
    // The half-plane's inside, n . (x - o) <= 0, is on the left of the line o -> o + along.
    const Vec2 n = half_plane_normal(pb), o = in_plane(pb.position);
    const Vec2 along(-n.y(), n.x());
    std::vector<Vec2> clipped;
    clip_polygon_left(world_outline(*sa->polygon, pa), o, o + along, clipped);
    area = std::abs(polygon_area(clipped));
  } else if (ka == K::Polygon && kb == K::Circle) {
    IntersectionWorkspace w;
    area = polygon_disc_intersection_properties(world_outline(*sa->polygon, pa),
                                                in_plane(pb.position), sb->radius, w)
               .volume;
  } else if (ka == K::Circle && kb == K::Circle) {
    area = disc_disc_area(sa->radius, sb->radius, in_plane(pb.position - pa.position).norm());
  } else if (ka == K::Circle && kb == K::HalfPlane) {
    const Vec2 n = half_plane_normal(pb);
    area = disc_segment_area(sa->radius, n.dot(in_plane(pa.position - pb.position)));
  }
  return true;  // half-plane - half-plane: two static half-planes, never any area
}

}  // namespace pegsim
