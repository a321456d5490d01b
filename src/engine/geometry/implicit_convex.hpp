// A convex body as the intersection of C^2 convex inequalities, {x : f_i(x) <= 0 for every i}
// (seed 001 §4.3): one function for a smooth body, a polytope's face planes (Remark 2 (a)), the
// two half-planes of the paper's gripper fingertips (§6.4), or a mix (Remark 2 (c)). In the
// body's frame; in planar mode read in the x-y plane.
#pragma once

#include <limits>
#include <vector>

#include "engine/geometry/implicit_function.hpp"

namespace pegsim {

struct ImplicitConvex {
  std::vector<ImplicitFunction> functions;
  // A point inside, and the radius of a ball about it that holds the body (infinite for an
  // unbounded one, such as a wedge of two half-planes).
  Vec3 inside = Vec3::Zero();
  double radius = std::numeric_limits<double>::infinity();
};

// The body of one function.
ImplicitConvex single_convex(const ImplicitFunction& f);

// Why `c` is no such body (no function, a function's defect), or nullptr.
const char* implicit_convex_defect(const ImplicitConvex& c);

// max_i f_i(x): <= 0 inside, 0 on the surface (x in the body frame).
double convex_value(const ImplicitConvex& c, const Vec3& x);
// The function largest at x: the face a surface point lies on.
int active_function(const ImplicitConvex& c, const Vec3& x);

// An upper bound on h(n) = max of n . x over the body (n a unit vector, body frame): the least of
// the functions' own supports and the bounding ball's. Exact for one smooth function, and for
// a polytope along its face normals.
double convex_support(const ImplicitConvex& c, const Vec3& n);

// Where the segment from `inside` towards `target` (body frame) leaves the body, or the point at
// |target - inside| along it if it does not (an unbounded body): a start for the closest points
// of a new contact pair.
Vec3 convex_surface_point(const ImplicitConvex& c, const Vec3& target);

}  // namespace pegsim
