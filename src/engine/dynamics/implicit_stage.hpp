// Stages 3-7 under Formulation::GeometricallyImplicit (seed 001, formulation/implicit_step.hpp):
// every broad-phase pair whose surfaces may be within epsilon at the start of the step enters
// the mixed NCP with its end-of-step closest points as unknowns, and the solve moves the
// bodies. The surfaces are the smooth ones, never a tessellation, so there is no narrow phase:
// a pair is left out only when a separating axis (separation_bound) shows a gap beyond
// epsilon. Pairs leave the problem when they are farther apart; a
// pair's unknowns warm-start the next step's solve while it stays.
#pragma once

#include <string>
#include <vector>

#include "engine/collision/broad_phase.hpp"
#include "engine/core/contact.hpp"
#include "engine/core/model.hpp"
#include "engine/core/settings.hpp"
#include "engine/core/state.hpp"
#include "engine/dynamics/step_report.hpp"
#include "engine/formulation/implicit_step.hpp"

namespace pegsim {

// The body's shape as one C^2 convex inequality (sphere, circle, plane, half-plane, and the
// ellipsoid or superquadric a tessellation stands for); false for shapes that have none here
// (other polytopes and polygons, compounds).
bool implicit_function_of(const Shape& shape, ImplicitFunction& out);

// The body's shape for the formulation: its one function (implicit_function_of) in body.shape,
// or its convex pieces in body.pieces (a polytope or polygon: the intersection of its face
// planes, polytope_convex); false for shapes it cannot take.
bool implicit_body_shape(const Shape& shape, ImplicitBody& body);
// A convex polytope or polygon as the intersection of its faces' (edges') half-spaces (seed 001
// Remark 2 (a)), about its centre of mass.
ImplicitConvex polytope_convex(const Shape& shape);

// The solver that answers every step of the formulation (formulation/implicit_step.hpp).
inline constexpr const char* kImplicitSolver = "mcp-newton";

// The shell of a pair: a body's own when the other is rigid; two shells in series (their
// compliances K^-1 added, dampers likewise, thicknesses added) when both have one, an
// approximation beyond the paper, which gives a shell to one body of a pair.
QuasiRigidShell pair_shell(const QuasiRigidShell& a, const QuasiRigidShell& b);

// A lower bound on the gap between the two bodies' surfaces: the largest gap along a
// separating axis, the half-space's normal, or the line of the centres and the bodies' own
// axes. Exact for spheres, for any body against a half-space, and for bodies whose nearest
// points lie along one of those axes.
double separation_bound(const ImplicitBody& a, const ImplicitBody& b, int piece_a = 0,
                        int piece_b = 0);

// The broad phase's margin under the implicit formulation: epsilon, and twice the largest
// sagitta of a tessellation (the boxes are the tessellations', inside the surfaces).
double implicit_broad_margin(const Model& model, const Settings& settings);

// How far any point of body i can travel in a step of h at its velocity at the start of it,
// h (|v| + |omega| r) with r the reach of its shape from its centre of mass (0 for a static or
// absent body); and twice the largest of these over the model, which the broad phase's boxes
// are widened by besides implicit_broad_margin. A pair enters the problem when its surfaces
// may come within epsilon by the end of the step (the paper's rule, epsilon at the start of
// the step, lets bodies approaching faster than epsilon / h pass into each other).
double implicit_reach(const Model& model, const State& state, std::size_t i, double h);
double implicit_reach_margin(const Model& model, const State& state, double h);

// Why `model` cannot be stepped geometrically implicitly (a body without an implicit function,
// joints), or "".
std::string implicit_step_defect(const Model& model);

class ImplicitStage {
 public:
  // One step from `state` with the broad phase's `candidates` (boxes inflated by
  // implicit_broad_margin); r.contacts gets one contact per pair at the end of the step: a1,
  // its normal and the gap to a2. On success the state holds the end of the step (time and
  // step advanced, applied wrenches cleared); on failure it is unchanged and r.failed says why.
  void step(const Model& model, const Settings& settings, const std::vector<BodyPair>& candidates,
            State& state, StepReport& r);
  void forget() {
    warm_pairs_.clear();
    warm_contacts_.clear();
  }

 private:
  std::vector<ImplicitPair> warm_pairs_;  // the last solved step's pairs and their unknowns
  std::vector<ImplicitContact> warm_contacts_;
  std::vector<ImplicitBody> bodies_;
  std::vector<Shape> shapes_;  // the shape each of bodies_ holds the implicit form of
  std::vector<double> reach_;  // each body's implicit_reach in the step
  std::vector<ImplicitPair> pairs_;
  std::vector<ImplicitContact> contacts_;
};

}  // namespace pegsim
