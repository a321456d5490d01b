// The volumetric contact model's overlay (seed 002): for each contact with a common volume, the
// volume's outline (the clipped solid's edges, a lens' or cap's rim circle, a polytope's faces
// cut by a ball; in the plane the common outline), its centroid and the normal force on B at the
// centroid. The outline is recomputed from the frame's poses with the engine's own clipping, so
// live and recorded frames draw alike.
#include <cmath>
#include <numbers>
#include <span>

#include "engine/collision/convex_parts.hpp"
#include "engine/collision/polygon_contacts.hpp"
#include "engine/collision/posed_polygon.hpp"
#include "engine/geometry/disc_polygon.hpp"
#include "engine/geometry/polygon_overlap.hpp"
#include "engine/geometry/polytope_overlap.hpp"
#include "gui/render/overlay.hpp"

namespace pegsim::gui {
namespace {

constexpr int kCircleSegments = 48;

bool flat(ShapeKind k) {
  return k == ShapeKind::Plane || k == ShapeKind::HalfPlane;
}

void add_solid_edges(const ConvexSolid& solid, const Rgb& color, Sketch& out) {
  for (int k = 0; k < solid.face_count(); ++k) {
    const std::span<const Vec3> f = solid.face(k);
    for (std::size_t i = 0; i < f.size(); ++i)
      out.segments.push_back({f[i], f[(i + 1) % f.size()], color});
  }
}

void add_outline(const std::vector<Vec2>& outline, const Rgb& color, Sketch& out) {
  for (std::size_t i = 0; outline.size() >= 3 && i < outline.size(); ++i) {
    const Vec2& p = outline[i];
    const Vec2& q = outline[(i + 1) % outline.size()];
    out.segments.push_back({Vec3(p.x(), p.y(), 0.0), Vec3(q.x(), q.y(), 0.0), color});
  }
}

// The circle of radius r about `centre` across the unit `axis`.
void add_circle(const Vec3& centre, const Vec3& axis, double r, const Rgb& color, Sketch& out) {
  const Vec3 t1 = any_perpendicular(axis), t2 = axis.cross(t1);
  auto at = [&](int k) {
    const double t = 2.0 * std::numbers::pi * k / kCircleSegments;
    return Vec3(centre + r * (std::cos(t) * t1 + std::sin(t) * t2));
  };
  for (int k = 0; k < kCircleSegments; ++k) out.segments.push_back({at(k), at(k + 1), color});
}

// The rim where a ball's surface (centre c, radius r) crosses the plane n . x = offset.
void add_rim(const Vec3& c, double r, const Vec3& n, double offset, const Rgb& color, Sketch& out) {
  const double height = n.dot(c) - offset;
  if (std::abs(height) < r)
    add_circle(c - height * n, n, std::sqrt(r * r - height * height), color, out);
}

// The arc of circle (c, r) inside circle (o, s), in the plane.
void add_arc_inside(const Vec2& c, double r, const Vec2& o, double s, const Rgb& color,
                    Sketch& out) {
  auto at = [&](int k) {
    const double t = 2.0 * std::numbers::pi * k / kCircleSegments;
    return Vec2(c + r * Vec2(std::cos(t), std::sin(t)));
  };
  for (int k = 0; k < kCircleSegments; ++k) {
    const Vec2 p = at(k), q = at(k + 1);
    if ((p - o).norm() <= s && (q - o).norm() <= s)
      out.segments.push_back({Vec3(p.x(), p.y(), 0.0), Vec3(q.x(), q.y(), 0.0), color});
  }
}

bool inside_convex(const std::vector<Vec2>& polygon, const Vec2& x) {
  for (std::size_t i = 0; i < polygon.size(); ++i) {
    const Vec2 e = polygon[(i + 1) % polygon.size()] - polygon[i], d = x - polygon[i];
    if (e.x() * d.y() - e.y() * d.x() < 0.0) return false;
  }
  return true;
}

// A polygon cut by the disc (centre 0, radius r) in the plane (origin, t1, t2): its edges inside
// the disc and the circle's arcs inside it.
void add_disc_cut(const std::vector<Vec2>& polygon, double r, const Vec3& origin, const Vec3& t1,
                  const Vec3& t2, const Rgb& color, Sketch& out) {
  auto lift = [&](const Vec2& x) { return Vec3(origin + x.x() * t1 + x.y() * t2); };
  std::vector<EdgePiece> pieces;
  disc_polygon_region(polygon, r, pieces);
  for (const EdgePiece& e : pieces) out.segments.push_back({lift(e.from), lift(e.to), color});
  auto at = [&](int k) {
    const double t = 2.0 * std::numbers::pi * k / kCircleSegments;
    return Vec2(r * Vec2(std::cos(t), std::sin(t)));
  };
  for (int k = 0; k < kCircleSegments; ++k)
    if (inside_convex(polygon, at(k)) && inside_convex(polygon, at(k + 1)))
      out.segments.push_back({lift(at(k)), lift(at(k + 1)), color});
}

// A polytope's faces inside a ball: each face polygon cut by the ball's disc in its plane.
void add_ball_cut(const ConvexPart& facets, const ConvexPart& ball, const Rgb& color, Sketch& out) {
  const Polytope& p = *facets.shape.polytope;
  const Vec3 c = ball.pose.position;
  const double r = ball.shape.radius;
  for (const Polytope::Face& f : p.faces) {
    const Vec3 n = facets.pose.orientation * f.normal;
    const double height = n.dot(c) - (f.offset + n.dot(facets.pose.position));
    if (std::abs(height) >= r) continue;
    const Vec3 foot = c - height * n, t1 = any_perpendicular(n), t2 = n.cross(t1);
    std::vector<Vec2> polygon;
    for (int v : f.vertices) {
      const Vec3 x = facets.pose.position + facets.pose.orientation * p.vertices[std::size_t(v)];
      polygon.emplace_back((x - foot).dot(t1), (x - foot).dot(t2));
    }
    add_disc_cut(polygon, std::sqrt(r * r - height * height), foot, t1, t2, color, out);
  }
}

// The outline of the common volume of parts a and b (a the plane or half-plane if either is).
void add_common(const ConvexPart& a, const ConvexPart& b, const Rgb& color, Sketch& out) {
  SolidWorkspace w;
  std::vector<Vec2> pa, pb, common, scratch;
  const ShapeKind ka = a.shape.kind, kb = b.shape.kind;
  if (ka == ShapeKind::Plane) {
    const Vec3 n = a.pose.orientation * Vec3::UnitZ();
    if (kb == ShapeKind::Sphere)
      return add_rim(b.pose.position, b.shape.radius, n, n.dot(a.pose.position), color, out);
    if (kb != ShapeKind::Polytope) return;
    place_solid(*b.shape.polytope, b.pose, w.other);
    clip_solid(w.other, n, n.dot(a.pose.position), 1e-12, w.common, w.cap);
    return add_solid_edges(w.common, color, out);
  }
  if (ka == ShapeKind::Sphere && kb == ShapeKind::Sphere) {
    // The radical plane of the two spheres holds the lens' rim.
    const Vec3 d = b.pose.position - a.pose.position;
    const double l = d.norm();
    if (!(l > 0.0)) return;
    const Vec3 n = d / l;
    const double ra = a.shape.radius, rb = b.shape.radius;
    const double along = (l * l + ra * ra - rb * rb) / (2.0 * l);
    return add_rim(a.pose.position, ra, n, n.dot(a.pose.position) + along, color, out);
  }
  if (ka == ShapeKind::Polytope && kb == ShapeKind::Sphere) return add_ball_cut(a, b, color, out);
  if (ka == ShapeKind::Sphere && kb == ShapeKind::Polytope) return add_ball_cut(b, a, color, out);
  if ((ka == ShapeKind::Polygon && kb == ShapeKind::Circle) ||
      (ka == ShapeKind::Circle && kb == ShapeKind::Polygon)) {
    const ConvexPart& facets = ka == ShapeKind::Polygon ? a : b;
    const ConvexPart& disc = ka == ShapeKind::Polygon ? b : a;
    world_outline(*facets.shape.polygon, facets.pose, pa);
    const Vec2 centre = in_plane(disc.pose.position);
    for (Vec2& v : pa) v -= centre;
    return add_disc_cut(pa, disc.shape.radius, Vec3(centre.x(), centre.y(), 0.0), Vec3::UnitX(),
                        Vec3::UnitY(), color, out);
  }
  if (ka == ShapeKind::Polytope && kb == ShapeKind::Polytope)
    return add_solid_edges(
        polytope_intersection(*b.shape.polytope, b.pose, *a.shape.polytope, a.pose, w), color, out);
  if (ka == ShapeKind::HalfPlane) {
    const Vec2 n = half_plane_normal(a.pose), p = in_plane(a.pose.position);
    if (kb == ShapeKind::Circle) {
      const Vec2 c = in_plane(b.pose.position);
      const double height = n.dot(c - p), r = b.shape.radius;
      if (std::abs(height) >= r) return;
      const Vec2 foot = c - height * n, t(-n.y(), n.x());
      const double half = std::sqrt(r * r - height * height);
      out.segments.push_back({Vec3(foot.x() - half * t.x(), foot.y() - half * t.y(), 0.0),
                              Vec3(foot.x() + half * t.x(), foot.y() + half * t.y(), 0.0), color});
      return;
    }
    if (kb != ShapeKind::Polygon) return;
    world_outline(*b.shape.polygon, b.pose, pb);
    clip_polygon_left(pb, p, p + Vec2(-n.y(), n.x()), common);
    return add_outline(common, color, out);
  }
  if (ka == ShapeKind::Circle && kb == ShapeKind::Circle) {
    const Vec2 ca = in_plane(a.pose.position), cb = in_plane(b.pose.position);
    add_arc_inside(ca, a.shape.radius, cb, b.shape.radius, color, out);
    add_arc_inside(cb, b.shape.radius, ca, a.shape.radius, color, out);
    return;
  }
  if (ka == ShapeKind::Polygon && kb == ShapeKind::Polygon) {
    world_outline(*a.shape.polygon, a.pose, pa);
    world_outline(*b.shape.polygon, b.pose, pb);
    polygon_intersection(pb, pa, common, scratch);
    add_outline(common, color, out);
  }
}

class CommonVolumes : public Overlay {
 public:
  std::string key() const override { return "volumes"; }
  std::string label() const override { return "Common volumes"; }
  std::string shortcut() const override { return "Ctrl+9"; }
  bool on_by_default() const override { return false; }
  std::vector<LegendEntry> legend() const override {
    return {{kVolumeOutline, "volumetric contact: the common volume's outline"},
            {kVolumeCentroid, "its centroid, where the force acts"},
            {kVolumeForce, "the normal force on body B over the step (its impulse)"}};
  }
  void draw(const OverlayContext& c, Sketch& out) const override {
    const std::size_t n = std::min(c.model.bodies.size(), c.frame.bodies.size());
    for (const ContactSnapshot& k : c.frame.contacts) {
      if (!(k.volume > 0.0) || k.body_a < 0 || k.body_b < 0 || std::size_t(k.body_a) >= n ||
          std::size_t(k.body_b) >= n)
        continue;
      const Body& ba = c.model.bodies[std::size_t(k.body_a)];
      const Body& bb = c.model.bodies[std::size_t(k.body_b)];
      if (k.part_a >= convex_part_count(ba) || k.part_b >= convex_part_count(bb)) continue;
      const ConvexPart pa =
          convex_part(ba, c.frame.bodies[std::size_t(k.body_a)], std::max(k.part_a, 0));
      const ConvexPart pb =
          convex_part(bb, c.frame.bodies[std::size_t(k.body_b)], std::max(k.part_b, 0));
      if (flat(pb.shape.kind) && !flat(pa.shape.kind))
        add_common(pb, pa, kVolumeOutline, out);
      else
        add_common(pa, pb, kVolumeOutline, out);
      const Vec3 centroid = k.point_a + 0.5 * k.gap * k.normal;
      out.markers.push_back({centroid, kVolumeCentroid, kContactMarker});
      const Vec3 arrow = c.impulse_scale * k.normal_impulse * k.normal;
      if (arrow.norm() >= 1e-4 * c.scene_size)
        out.arrows.push_back({centroid, centroid + arrow, kVolumeForce});
    }
  }
};

}  // namespace

std::unique_ptr<Overlay> common_volumes_overlay() {
  return std::make_unique<CommonVolumes>();
}

}  // namespace pegsim::gui
