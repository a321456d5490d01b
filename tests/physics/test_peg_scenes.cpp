// Shipped scenes under the PEG contact model (thesis §5.2): the invariant is no
// interpenetration, measured independently of the contact model as the penetration depth of
// every pair of bodies (penetration_depth.hpp).
#include <gtest/gtest.h>

#include <filesystem>

#include "engine/dynamics/simulator.hpp"
#include "io/scene.hpp"
#include "penetration_depth.hpp"
#include "shipped_scenes.hpp"

namespace pegsim {
namespace {

using test::shipped;

double lever(const Model& model, int b) {
  const Shape& s = model.bodies[b].shape;
  if (s.kind == ShapeKind::Polytope) return s.polytope->bounding_radius;
  return s.kind == ShapeKind::Sphere ? s.radius : 0.0;
}

// What one semi-implicit step may leave of the deepest pair's interpenetration with every
// contact within epsilon enforced: the rotation error of both bodies (thesis §5.3: a point r
// from the centre turns through theta = |omega| h but the constraints see only its linear
// motion, off by |R(theta) r - r - theta x r| <= r theta^2 / 2 (1 + theta)), and, for a pair
// more than epsilon apart at the start of the step (no contact to enforce), what its points
// move beyond epsilon. Positions move with the step's final twists (q+ = q + h nu+).
double step_allowance(const Model& model, const State& state, const Settings& s, int a, int b) {
  double rotation = 0.0, reach = 0.0;
  for (int body : {a, b}) {
    const double theta = state.bodies[body].angular_velocity.norm() * s.h;
    rotation += lever(model, body) * theta * theta / 2.0 * (1.0 + theta);
    reach += state.bodies[body].velocity.norm() * s.h + lever(model, body) * theta;
  }
  return rotation + std::max(0.0, reach - s.epsilon);
}

struct RunFigures {
  double deepest = 0.0;        // the deepest pair over the run, m
  double worst_excess = -1.0;  // max over the steps of depth - step_allowance, m
  int inter = 0, cross = 0;
};

RunFigures run(const Scene& scene, ContactModel model, int steps) {
  Settings settings = scene.settings;
  settings.contact_model = model;
  Simulator sim(scene.model, scene.initial, settings);
  RunFigures out;
  for (int k = 0; k < steps; ++k) {
    const StepReport& r = sim.step();
    EXPECT_FALSE(r.failed) << to_string(model) << " step " << k << ": " << r.failure;
    if (r.failed) break;
    for (const ConstraintGroup& g : r.constraints.groups) {
      out.inter += g.kind == ConstraintKind::InterContact;
      out.cross += g.kind == ConstraintKind::CrossContact;
    }
    const test::DeepestPair d = test::deepest_pair(sim.model(), sim.state());
    out.deepest = std::max(out.deepest, d.depth);
    if (d.a >= 0)
      out.worst_excess = std::max(
          out.worst_excess, d.depth - step_allowance(sim.model(), sim.state(), settings, d.a, d.b));
  }
  return out;
}

// cascading_polyhedra while the tetrahedron lands on the pedestal and slides onto its rim
// (0.6 s): its vertex near the rim makes I({C_top, C_side}) and the X-constraints of its
// edges against the rim (Alg. 15, 14), and no pair interpenetrates deeper than 1 mm.
// Measured: no overlap at the end of any of the 60 steps (25 I- and 27 X-constraints over the
// run); before Alg. 17's marks were kept per pair of edges, 51 mm at step 60, an edge pushed
// through the rim that the depth of the vertices alone did not see.
TEST(PegScenes, CascadingPolyhedraOntoTheRimDoesNotInterpenetrate) {
  const Scene scene = shipped("cascading_polyhedra");
  const RunFigures peg = run(scene, ContactModel::Peg, 60);
  EXPECT_GT(peg.inter, 0);
  EXPECT_GT(peg.cross, 0);
  EXPECT_LE(peg.deepest, 1e-3);
}

// The whole run (3 s) under the three contact models: at the end of every step the deepest
// pair is within what one step may leave (step_allowance) plus 1 um for the solver
// tolerance. Under PEG the tetrahedron, tipping its face down across the pedestal's rim
// (steps 58-60), used to sink 0.30 m into it: Alg. 17's per-edge marks dropped the only
// contact between the rim and the tetrahedron's edge crossing it (see peg_model.cpp). The one
// step that needs the allowance is the tetrahedron's landing on the ground at 7 m/s (step
// 191: 8.1 mm deep, its vertices moving 7.5 cm in the step against epsilon = 5 cm).
TEST(PegScenes, CascadingPolyhedraWholeRunDoesNotInterpenetrate) {
  const Scene scene = shipped("cascading_polyhedra");
  const int steps = static_cast<int>(std::lround(scene.duration / scene.settings.h));
  for (ContactModel model : {ContactModel::Standard, ContactModel::Lnc, ContactModel::Peg}) {
    const RunFigures f = run(scene, model, steps);
    EXPECT_LE(f.worst_excess, 1e-6) << to_string(model);
    EXPECT_LE(f.deepest, 1e-2) << to_string(model);
  }
}

}  // namespace
}  // namespace pegsim
