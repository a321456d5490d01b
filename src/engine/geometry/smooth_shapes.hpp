// Superquadrics and superellipses, {x : sum_i |x_i / a_i|^p <= 1} (p >= 2): their
// tessellations (the Polytope or Polygon every fixed-geometry formulation collides), support
// function and mass properties. p = 2 gives the ellipsoid and the ellipse.
#pragma once

#include "engine/core/shape.hpp"
#include "engine/geometry/implicit_function.hpp"
#include "engine/geometry/mass_properties.hpp"

namespace pegsim {

// The polytope whose vertices are `segments` meridians x `segments` / 2 parallels of the
// surface (Barr's parametrisation x = a cos^(2/p) eta cos^(2/p) omega, ..., which crowds the
// points where a large-p surface turns), poles included; centred on the origin.
// Throws GeometryError for a semi-axis <= 0, p < 2 or fewer than 8 segments.
Polytope make_superquadric(const Vec3& semi_axes, double exponent, int segments);
// The polygon of `segments` points of the superellipse over x and y, counter-clockwise.
Polygon make_superellipse(const Vec2& semi_axes, double exponent, int segments);

// The shape of a superquadric body (planar: the superellipse over semi_axes x and y): its
// tessellation of `segments` (make_superquadric, make_superellipse) carrying the surface with
// its sagitta. In the plane the surface's unused z semi-axis is the smaller in-plane one, which
// keeps the scale of its implicit function.
Shape make_smooth_shape(const Vec3& semi_axes, double exponent, int segments, bool planar);
// Unit-density mass properties of the surface a make_smooth_shape shape carries (areal in 2D).
MassProperties smooth_mass_properties(const Shape& shape);
// The surface as seed 001's implicit function: the ellipsoid's at p = 2, else the superquadric's.
ImplicitFunction smooth_function(const SmoothShape& s);

// h(n) = max over the body of n . x = (sum_i |a_i n_i|^q)^(1/q), q = p / (p - 1): the dual
// norm (implicit_support); n need not be a unit vector. Planar: n.z() must be 0.
double smooth_support(const SmoothShape& s, const Vec3& n);
// How far the surface reaches outside a tessellation of it: the largest h(n_f) - offset_f over
// the faces f (edges, in the plane).
double sagitta(const SmoothShape& s, const Polytope& tessellation);
double sagitta(const SmoothShape& s, const Polygon& tessellation);

// Exact mass properties for unit density (Dirichlet's integrals: the volume is
// 8 abc Gamma(1 + 1/p)^3 / Gamma(1 + 3/p), the area 4 ab Gamma(1 + 1/p)^2 / Gamma(1 + 2/p)).
MassProperties superquadric_mass_properties(const Vec3& semi_axes, double exponent);
MassProperties superellipse_mass_properties(const Vec2& semi_axes, double exponent);

}  // namespace pegsim
