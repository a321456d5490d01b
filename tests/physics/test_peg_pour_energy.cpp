// Issue 6: PEG-3D threw polyhedra_pour's bodies out of the box (seed 6, h = 0.016, step 100:
// 1578 N s on one edge-edge contact, polyhedron2 off at 11 m/s, then |omega| overflowed). The
// two bodies at the start of that step, alone: polyhedron0 lies on polyhedron2's edge 0 with
// its edge 7 (0.94 mm deep), and polyhedron2's edge 11, on its far side 15 cm away, is also
// within epsilon = 16 cm of edge 7. The (3.6) normal of that far pair points against B's
// outward normals there, so its line distance reads -15 cm; feasible by default (the thesis
// defines §3.3 feasibility for vertex-facet contacts only), its U-constraint (4.19, Alg. 13)
// asked the bodies to separate at 9.4 m/s along nearly the opposite of the near pair's normal,
// and the LCP, solved to 1e-13, met both with two opposed impulses of about 1550 N s.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>

#include "engine/dynamics/simulator.hpp"
#include "io/scene.hpp"
#include "penetration_depth.hpp"

namespace pegsim {
namespace {

// polyhedra_pour seed 6 (`pegsim-cli experiment polyhedra_pour --seed 6 --h 0.016`): its
// settings, and polyhedron0 / polyhedron2 (shape seeds 6000, 6002) as step 99 left them.
const char* kStep100 = R"({
  "name": "polyhedra_pour_seed6_step100",
  "settings": {"contact_model": "peg", "h": 0.016, "epsilon": 0.16, "feasibility_depth": 0.032,
               "friction_directions": 4, "solver": "lemke", "fallbacks": ["pgs"]},
  "bodies": [
    {"name": "polyhedron0", "mu": 0.0, "shape": {"type": "random_polyhedron", "seed": 6000},
     "position": [-0.29768274395551941, -0.48021738841563838, 0.14766574615226621],
     "orientation": [0.83661899066446888, -0.15267546041992824, -0.19435814403620802,
                     -0.48885967321096224],
     "velocity": [-0.39070469981063816, -0.27685969632408503, 0.22524323646182148],
     "angular_velocity": [1.875700172493715, 1.2094296786280267e-08, 2.1036671848939648e-09]},
    {"name": "polyhedron2", "mu": 0.0, "shape": {"type": "random_polyhedron", "seed": 6002},
     "position": [-0.28287968909414202, -0.12443545426933228, 0.19845374971741825],
     "orientation": [0.97856975952931069, 0.13223358518974554, -0.13747056665279936,
                     0.077571566870674485],
     "velocity": [-0.61415148414073062, 1.1506593036062751, -0.16289990872021262],
     "angular_velocity": [0.36252041359779352, -0.21205773762454727, -3.2836289161759504]}
  ]
})";

// Kinetic plus gravitational potential energy, J.
double energy(const Model& model, const State& state, const Vec3& g) {
  double e = 0.0;
  for (int i = 0; i < static_cast<int>(model.bodies.size()); ++i) {
    const Body& b = model.bodies[i];
    const BodyState& s = state.bodies[i];
    const Mat3 R = s.orientation.toRotationMatrix();
    e += 0.5 * b.mass * s.velocity.squaredNorm() - b.mass * g.dot(s.position) +
         0.5 * s.angular_velocity.dot(R * b.inertia * R.transpose() * s.angular_velocity);
  }
  return e;
}

// A frictionless contact step takes energy away, or adds at most what the semi-implicit step
// itself adds: free fall's 1/2 m (g h)^2 per body (nu+ = nu + h g, then q+ = q + h nu+), and
// the stabilization of (2.27) pushing the pair out of its starting interpenetration d, at most
// a relative velocity d / h, so 1/2 (m_a + m_b) (d / h)^2 (d measured by separating axes,
// penetration_depth.hpp, independently of the contacts).
TEST(PegPourEnergy, FarEdgeOfTheBodyGivesNoContactAndTheStepAddsNoEnergy) {
  const Scene scene = parse_scene(kStep100, "polyhedra_pour seed 6 step 100", ".");
  Simulator sim(scene.model, scene.initial, scene.settings);
  const Model& model = sim.model();
  const Settings& s = sim.settings();
  const double depth = test::deepest_pair(model, sim.state()).depth;
  const double before = energy(model, sim.state(), s.gravity);
  const StepReport& r = sim.step();
  ASSERT_FALSE(r.failed) << r.failure;
  const double after = energy(model, sim.state(), s.gravity);

  const double ma = model.bodies[0].mass, mb = model.bodies[1].mass;
  const double gh = s.gravity.norm() * s.h;
  const double allowance = 0.5 * (ma + mb) * (gh * gh + (depth / s.h) * (depth / s.h));
  EXPECT_LE(after - before, allowance) << "depth " << depth << " m";
  // The far pair (edge 7 of polyhedron0 against edge 11 of polyhedron2) is no primary contact.
  bool far_pair = false;
  for (const Contact& c : r.contacts)
    if (c.feature_a.kind == FeatureKind::Edge && c.feature_b.kind == FeatureKind::Edge &&
        c.feature_a.index == 7 && c.feature_b.index == 11 && c.body_a == 0) {
      far_pair = true;
      EXPECT_LT(c.gap, -0.15);
      EXPECT_FALSE(c.feasible);
    }
  EXPECT_TRUE(far_pair);
  double largest = 0.0;
  for (const ConstraintGroup& g : r.constraints.groups) largest = std::max(largest, g.impulse);
  std::cout << "depth " << depth << " m, energy " << before << " J -> " << after << " J (allowance "
            << allowance << " J), largest group impulse " << largest << " N s\n";
}

}  // namespace
}  // namespace pegsim
