// The common volume of two overlapping bodies A and B and the properties the volumetric contact
// model (seed 002, §3.1 and ch. 4) turns into a force: the volume V, its centroid, its inertia
// tensor about the centroid, and a normal.
//
// The thesis fits a plane to the intersection's contour and takes its normal, which fails where
// the contact spans several planes (a cube in a matching hole). Here the normal is the gradient
// of V with respect to moving B away from A: -dV/dd = sum over the intersection's faces on B's
// surface of their outward area vectors. Where the faces on both surfaces close the solid, this
// equals minus the same sum over A's faces, so it is symmetric; a face lying on both surfaces
// (flush sides) moves V on neither side and counts for neither. Per convex piece pair this
// points the way that separates the pieces fastest, and its length is the rate at which the
// volume shrinks, the contact area that linearizes V over a step (V(d) ~ V - area d).
#pragma once

#include <vector>

#include "engine/core/shape.hpp"
#include "engine/core/state.hpp"
#include "engine/geometry/disc_polygon.hpp"
#include "engine/geometry/polytope_overlap.hpp"

namespace pegsim {

struct IntersectionProperties {
  double volume = 0.0;           // V, m^3
  Vec3 centroid = Vec3::Zero();  // world frame
  Mat3 inertia = Mat3::Zero();   // about the centroid at unit density, m^5
  Vec3 normal = Vec3::UnitZ();   // unit, from A onto B (the way B leaves fastest)
  double area = 0.0;             // -dV/dd along the normal, m^2
  // How the layer on each body's faces resists tilting them (m^4; planar m^3, about z): a face
  // of outward normal nu tilted by theta about a unit axis e through its centroid moves its
  // points y (from that centroid) by theta (e x y) . nu along nu, and a layer of stiffness k_v
  // under it answers with the couple -k_v T e theta,
  //   T = sum over the common volume's faces on that body of int (y x nu)(y x nu)^T dA,
  // positive semi-definite: under a flat face tr P - P (P = int y y^T dA), under a ball, a disc
  // or a cylinder's round side 0 (a faceted one: its facets' own, falling with the facets'
  // width squared), where turning the body only slides its surface along itself.
  Mat3 tilt_a = Mat3::Zero(), tilt_b = Mat3::Zero();
  // The patch's mean distance from the centroid's axis, int |r| dA / int dA, m: under a uniform
  // pressure the patch's Coulomb torque about the normal is mu F spin_radius (a disc of radius
  // R: 2 R / 3). 0 in the plane, where nothing spins about the normal.
  double spin_radius = 0.0;

  bool empty() const { return !(volume > 0.0); }
};

// A face plane (normal . x = offset) and an edge line of the bodies, for the buffers below.
struct FacePlane {
  Vec3 normal;
  double offset;
};
struct EdgeLine {
  Vec2 normal;
  double offset;
};

// Buffers of the functions here and in intersection_properties_2d.hpp, reused from call to
// call so that a step allocates nothing once they have grown.
struct IntersectionWorkspace {
  SolidWorkspace solids;
  std::vector<FacePlane> planes_a, planes_b;
  std::vector<EdgeLine> lines_a, lines_b;
  std::vector<signed char> side;  // per face (edge) of the common solid: on A, on B, or both
  std::vector<Vec2> common, scratch;
  // A ball (disc) and a polytope (polygon): the posed vertices, a face's or a slice's polygon and
  // its clipped copy, the edge pieces inside the disc, the points and heights where the slices'
  // shape changes.
  std::vector<Vec3> points, breakpoints;
  std::vector<Vec2> slice, clipped;
  std::vector<EdgePiece> pieces;
  std::vector<double> heights;
};

// The face planes of a posed polytope: n_w = R n, offset + n_w . position.
void posed_planes(const Polytope& p, const BodyState& pose, std::vector<FacePlane>& out);

// A and B convex polytopes: B's solid clipped by A's face planes (exact up to rounding).
IntersectionProperties polytope_intersection_properties(const Polytope& a, const BodyState& a_pose,
                                                        const Polytope& b, const BodyState& b_pose,
                                                        IntersectionWorkspace& w);

// A the half-space {x : normal . (x - point) <= 0} (normal unit, out of A), B a polytope.
IntersectionProperties halfspace_polytope_intersection_properties(const Vec3& point,
                                                                  const Vec3& normal,
                                                                  const Polytope& b,
                                                                  const BodyState& b_pose,
                                                                  IntersectionWorkspace& w);

// Two balls: the lens of two spherical caps (thesis (4.12)-(4.23)) in forms without
// cancellation for thin caps. When one ball lies inside the other the area is 0 and the normal
// is along the centres (+z when they coincide).
IntersectionProperties sphere_intersection_properties(const Vec3& a_centre, double a_radius,
                                                      const Vec3& b_centre, double b_radius);

// A a convex polytope, B a ball. The normal, area and A's tilt are exact: A's faces inside the
// ball are each a face polygon cut by a disc (disc_polygon.hpp), and the ball's surface adds no
// tilt. V, centroid and inertia integrate the slices across the normal, each a disc cut by a
// polygon and exact, by Gauss-Legendre between the heights where a slice's shape changes (a
// vertex, an edge through the sphere, a face's circle at its highest or lowest), with the
// square-root ends mapped away: relative error below 1e-12 (tests/engine/geometry). The spin
// radius is a disc patch's of the same area, exact for a ball on a face's interior.
IntersectionProperties polytope_sphere_intersection_properties(const Polytope& a,
                                                               const BodyState& a_pose,
                                                               const Vec3& centre, double radius,
                                                               IntersectionWorkspace& w);

// A the half-space as above, B a ball: one spherical cap.
IntersectionProperties halfspace_sphere_intersection_properties(const Vec3& point,
                                                                const Vec3& normal,
                                                                const Vec3& centre, double radius);

}  // namespace pegsim
