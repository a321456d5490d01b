// The corrective method of thesis §5.2 as whole steps: contacts only where bodies overlap
// ("considers only contacts that are violated"), one per overlapping pair, whose impulses
// "drive the interpenetration to zero at the end of the time-step" (§5.2.3) through the
// Stewart-Trinkle row psi / h + n^T v >= 0 (6.1).
#include <gtest/gtest.h>

#include <cmath>

#include "../dynamics/test_world.hpp"
#include "bodies_2d.hpp"
#include "engine/collision/posed_polytope.hpp"
#include "engine/dynamics/simulator.hpp"
#include "engine/geometry/compound.hpp"
#include "engine/metrics/overlap.hpp"
#include "engine/metrics/overlap_2d.hpp"

namespace pegsim {
namespace {

Settings corrective_settings(const Vec3& gravity = Vec3::Zero()) {
  Settings s;
  s.h = 0.01;
  s.gravity = gravity;
  s.contact_model = ContactModel::Corrective;
  return s;
}

double overlap_area(const Simulator& sim, int a, int b) {
  double area = -1.0;
  EXPECT_TRUE(pair_overlap_area_2d(sim.model(), sim.state(), a, b, area));
  return area;
}

double overlap_volume(const Simulator& sim, int a, int b) {
  double volume = -1.0;
  EXPECT_TRUE(pair_overlap_volume(sim.model(), sim.state(), a, b, volume));
  return volume;
}

// The only contact of a step: one per overlapping pair.
const Contact& only_contact(const StepReport& r) {
  EXPECT_EQ(r.contacts.size(), 1u);
  EXPECT_EQ(r.constraints.groups.size(), 1u);
  return r.contacts.front();
}

// Two free unit squares overlapping 0.2 along x (and fully along y): one contact at the
// overlap's centre, normal +x, gap -0.2; after one step they touch, overlap 0, and part at
// 0.2 / h between them (equal masses: +-10 m/s).
TEST(CorrectiveModel, OverlappingSquaresSeparateInOneStep) {
  test::World w;
  const int a = test::add_polygon(w, "a", make_rectangle(1, 1), 1.0, Vec2(0, 0));
  const int b = test::add_polygon(w, "b", make_rectangle(1, 1), 1.0, Vec2(0.8, 0));
  Simulator sim(w.model, w.state, test::planar_settings(ContactModel::Corrective));
  EXPECT_NEAR(overlap_area(sim, a, b), 0.2, 1e-15);
  const StepReport& r = sim.step();
  ASSERT_FALSE(r.failed) << r.failure;
  const Contact& c = only_contact(r);
  EXPECT_EQ(c.body_a, a);
  EXPECT_NEAR((c.normal - Vec3::UnitX()).norm(), 0.0, 1e-15);
  EXPECT_NEAR(c.gap, -0.2, 1e-15);
  EXPECT_NEAR((0.5 * (c.point_a + c.point_b()) - Vec3(0.4, 0, 0)).norm(), 0.0, 1e-15);
  EXPECT_LE(overlap_area(sim, a, b), 1e-9);
  EXPECT_NEAR(sim.state().bodies[b].position.x() - sim.state().bodies[a].position.x(), 1.0, 1e-12);
  EXPECT_NEAR(sim.state().bodies[b].velocity.x(), 10.0, 1e-9);  // the bounce: -psi / h
}

// A square sunk 0.1 into the top of a static 2 x 1 slab, 0.3 to the right: 0.1 along +y is
// the least penetration (1.2 along x), the overlap's centroid lies under the square's centre,
// so the square rises 0.1 in one step without turning and the overlap is 0.
TEST(CorrectiveModel, SquareSunkIntoASlabIsPushedOutAlongTheLeastPenetratedAxis) {
  test::World w;
  const int slab = test::add_polygon(w, "slab", make_rectangle(2, 1), 1.0, Vec2(0, 0), 0.0, true);
  const int sq = test::add_polygon(w, "square", make_rectangle(1, 1), 1.0, Vec2(0.3, 0.9));
  Simulator sim(w.model, w.state, test::planar_settings(ContactModel::Corrective));
  const Contact& c = only_contact(sim.step());
  EXPECT_NEAR((c.normal - Vec3::UnitY()).norm(), 0.0, 1e-15);
  EXPECT_NEAR(c.gap, -0.1, 1e-15);
  EXPECT_LE(overlap_area(sim, slab, sq), 1e-9);
  EXPECT_NEAR(sim.state().bodies[sq].position.y(), 1.0, 1e-12);
  EXPECT_NEAR(sim.state().bodies[sq].angular_velocity.z(), 0.0, 1e-12);
}

// 3D: free unit cubes, B 0.85 above A (0.15 deep, 1 in x and y): normal +z, and after one
// step they touch with no overlap volume.
TEST(CorrectiveModel, OverlappingCubesSeparateInOneStep) {
  test::World w;
  const int a = w.add_box("a", Vec3(1, 1, 1), 1.0, Vec3::Zero(), Quat::Identity(), 0.0);
  const int b = w.add_box("b", Vec3(1, 1, 1), 1.0, Vec3(0, 0, 0.85), Quat::Identity(), 0.0);
  Simulator sim(w.model, w.state, corrective_settings());
  EXPECT_NEAR(overlap_volume(sim, a, b), 0.15, 1e-14);
  const Contact& c = only_contact(sim.step());
  EXPECT_NEAR((c.normal - Vec3::UnitZ()).norm(), 0.0, 1e-15);
  EXPECT_NEAR(c.gap, -0.15, 1e-15);
  EXPECT_EQ(c.feature_a.kind, FeatureKind::Face);
  EXPECT_LE(overlap_volume(sim, a, b), 1e-9);
  EXPECT_NEAR(sim.state().bodies[b].position.z() - sim.state().bodies[a].position.z(), 1.0, 1e-12);
}

// A cube sunk 0.1 into the top of a static 3 x 3 x 1 slab, off centre (0.2, -0.3): the
// overlap's centroid is under the cube's centre, the normal +z (depth 0.1, against 1.7 and
// more sideways), and the cube is lifted out in one step without turning.
TEST(CorrectiveModel, CubeSunkIntoASlabIsPushedOutAlongTheLeastPenetratedAxis) {
  test::World w;
  const int slab = w.add_box("slab", Vec3(3, 3, 1), 1.0, Vec3::Zero(), Quat::Identity(), 0.0);
  w.model.bodies[slab].is_static = true;
  const int cube =
      w.add_box("cube", Vec3(1, 1, 1), 1.0, Vec3(0.2, -0.3, 0.9), Quat::Identity(), 0.0);
  Simulator sim(w.model, w.state, corrective_settings());
  const Contact& c = only_contact(sim.step());
  EXPECT_NEAR((c.normal - Vec3::UnitZ()).norm(), 0.0, 1e-15);
  EXPECT_NEAR(c.gap, -0.1, 1e-15);
  EXPECT_NEAR((0.5 * (c.point_a + c.point_b()) - Vec3(0.2, -0.3, 0.45)).norm(), 0.0, 1e-14);
  EXPECT_LE(overlap_volume(sim, slab, cube), 1e-9);
  EXPECT_NEAR(sim.state().bodies[cube].angular_velocity.norm(), 0.0, 1e-12);
}

// Resting exactly on the ground is no overlap, so there is no contact (no look-ahead, unlike
// the SM's epsilon): the box falls g h^2 into the plane during the first step, and the next
// step's vertex contacts push it back out to zero penetration.
TEST(CorrectiveModel, ABoxTouchingTheGroundGetsNoContactUntilItSinksIn) {
  const double h = 0.01, g = 9.81;
  test::World w;
  w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
  const int box = w.add_box("box", Vec3(1, 1, 0.5), 1.0, Vec3(0, 0, 0.25));
  Simulator sim(w.model, w.state, corrective_settings(Vec3(0, 0, -g)));
  EXPECT_TRUE(sim.step().contacts.empty());
  EXPECT_NEAR(sim.state().bodies[box].position.z(), 0.25 - g * h * h, 1e-12);
  const StepReport& r = sim.step();
  EXPECT_EQ(r.contacts.size(), 4u);  // the four bottom vertices, each g h^2 deep
  for (const Contact& c : r.contacts) EXPECT_NEAR(c.gap, -g * h * h, 1e-12);
  EXPECT_NEAR(sim.state().bodies[box].position.z(), 0.25, 1e-12);
}

// Deepest penetration of a box into the plane z = 0 (0 above it).
double penetration(const Simulator& sim, int body) {
  const PosedPolytope p(*sim.model().bodies[body].shape.polytope, sim.state().bodies[body]);
  double lowest = 0.0;
  for (int v = 0; v < static_cast<int>(p.shape.vertices.size()); ++v)
    lowest = std::min(lowest, p.vertex(v).z());
  return -lowest;
}

// A box dropped 0.2 m onto the ground: it sinks into the plane at most the distance of one
// step's travel v h (it has no contact until it overlaps), every step with contacts ends at
// zero penetration, and the bounce never rises above the drop height.
TEST(CorrectiveModel, ADroppedBoxSinksAtMostOneStepsTravelAndIsPushedBackOut) {
  const double h = 0.01, g = 9.81, drop = 0.2;
  test::World w;
  w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
  const int box = w.add_box("box", Vec3(1, 1, 0.5), 1.0, Vec3(0, 0, 0.25 + drop));
  Simulator sim(w.model, w.state, corrective_settings(Vec3(0, 0, -g)));
  double deepest = 0.0, highest = 0.0;
  int contact_steps = 0;
  for (int k = 0; k < 150; ++k) {
    const double speed = std::abs(sim.state().bodies[box].velocity.z()) + g * h;  // v at the end
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << r.failure;
    const double d = penetration(sim, box);
    EXPECT_LE(d, speed * h + 1e-12) << "step " << k;
    if (!r.contacts.empty()) {
      ++contact_steps;
      EXPECT_LE(d, 1e-12) << "step " << k;
    }
    deepest = std::max(deepest, d);
    if (contact_steps > 0) highest = std::max(highest, sim.state().bodies[box].position.z() - 0.25);
  }
  EXPECT_GT(contact_steps, 1);
  EXPECT_GT(deepest, 0.0);  // it did overlap before any contact
  EXPECT_LT(deepest, std::sqrt(2 * g * drop) * h + g * h * h);
  EXPECT_LE(highest, drop + 1e-9);                      // bounces, but gains no energy
  EXPECT_LE(penetration(sim, box), g * h * h + 1e-12);  // at most one free step's fall at the end
}

// Overlapping spheres (the narrow phase's exact contact with epsilon = 0): one contact along
// the line of centres, and they touch after one step.
TEST(CorrectiveModel, OverlappingSpheresSeparateInOneStep) {
  test::World w;
  const int a = w.add_sphere("a", 0.5, 1.0, Vec3::Zero(), 0.0);
  const int b = w.add_sphere("b", 0.5, 2.0, Vec3(0.48, 0.0, 0.64), 0.0);  // centres 0.8 apart
  Simulator sim(w.model, w.state, corrective_settings());
  EXPECT_GT(overlap_volume(sim, a, b), 0.0);
  const Contact& c = only_contact(sim.step());
  EXPECT_NEAR(c.gap, -0.2, 1e-15);
  EXPECT_NEAR((c.normal - Vec3(0.6, 0, 0.8)).norm(), 0.0, 1e-15);
  EXPECT_NEAR((sim.state().bodies[b].position - sim.state().bodies[a].position).norm(), 1.0, 1e-12);
  EXPECT_LE(overlap_volume(sim, a, b), 1e-9);
}

CompoundPart box_part(const Vec3& lo, const Vec3& hi) {
  const Vec3 size = hi - lo;
  return {Shape::convex(std::make_shared<const Polytope>(make_box(size.x(), size.y(), size.z()))),
          0.5 * (lo + hi), Quat::Identity()};
}

// A compound (§4.5) part by part: a static L of a floor part (top z = 0) and a wall part
// (inner face x = -0.8); a 0.4 m cube sunk 0.02 into the floor and 0.03 into the wall gets
// one contact per overlapping part, +z 0.02 deep on the floor and +x 0.03 deep on the wall,
// and one step leaves it touching both, with no overlap volume.
TEST(CorrectiveModel, ACubeSunkIntoACompoundCornerGetsOneContactPerPart) {
  test::World w;
  Body l;
  l.name = "L";
  l.shape = Shape::compound_of(std::make_shared<const Compound>(make_compound(
      {box_part({-1, -1, -0.2}, {1, 1, 0}), box_part({-1, -1, -0.05}, {-0.8, 1, 1})}, false)));
  l.is_static = true;
  l.mu = 0.0;
  const int corner = w.add(l, Vec3::Zero());
  const int cube =
      w.add_box("cube", Vec3::Constant(0.4), 1.0, Vec3(-0.63, 0, 0.18), Quat::Identity(), 0.0);
  Simulator sim(w.model, w.state, corrective_settings());
  const StepReport& r = sim.step();
  ASSERT_FALSE(r.failed) << r.failure;
  ASSERT_EQ(r.contacts.size(), 2u);
  for (const Contact& c : r.contacts) {
    ASSERT_EQ(c.body_a, corner);
    if (c.part_a == 0) {
      EXPECT_NEAR((c.normal - Vec3::UnitZ()).norm(), 0.0, 1e-15);
      EXPECT_NEAR(c.gap, -0.02, 1e-15);
    } else {
      EXPECT_EQ(c.part_a, 1);
      EXPECT_NEAR((c.normal - Vec3::UnitX()).norm(), 0.0, 1e-15);
      EXPECT_NEAR(c.gap, -0.03, 1e-15);
    }
  }
  EXPECT_NEAR((sim.state().bodies[cube].position - Vec3(-0.6, 0, 0.2)).norm(), 0.0, 1e-12);
  EXPECT_LE(overlap_volume(sim, corner, cube), 1e-9);
}

// Frictionless overlapping pairs turned against each other, moving and spinning: the
// corrective impulses are internal, so linear and angular momentum (about the origin) are
// unchanged by every step (squares and cubes have isotropic inertia, so R I R^T = I).
TEST(CorrectiveModel, MomentumIsConservedThroughTheCorrection) {
  auto momentum = [](const Simulator& sim, Vec3& linear, Vec3& angular) {
    linear.setZero();
    angular.setZero();
    for (std::size_t i = 0; i < sim.model().bodies.size(); ++i) {
      const Body& body = sim.model().bodies[i];
      const BodyState& s = sim.state().bodies[i];
      linear += body.mass * s.velocity;
      const Mat3 r = s.orientation.toRotationMatrix();
      angular += s.position.cross(body.mass * s.velocity) +
                 r * body.inertia * r.transpose() * s.angular_velocity;
    }
  };
  for (int dimension : {2, 3}) {
    test::World w;
    Settings settings = corrective_settings();
    if (dimension == 2) {
      test::add_polygon(w, "a", make_rectangle(1, 1), 1.0, Vec2(0, 0), 0.1);
      test::add_polygon(w, "b", make_rectangle(0.6, 0.6), 3.0, Vec2(0.65, 0.3), 0.7);
      settings = test::planar_settings(ContactModel::Corrective);
    } else {
      w.add_box("a", Vec3(1, 1, 1), 1.0, Vec3::Zero(),
                Quat(Eigen::AngleAxisd(0.3, Vec3(1, 2, 3).normalized())), 0.0);
      w.add_box("b", Vec3(0.6, 0.6, 0.6), 3.0, Vec3(0.5, 0.3, 0.45),
                Quat(Eigen::AngleAxisd(0.9, Vec3(-2, 1, 1).normalized())), 0.0);
    }
    w.state.bodies[0].velocity = Vec3(0.3, -0.2, dimension == 3 ? 0.1 : 0.0);
    w.state.bodies[1].velocity = Vec3(-0.5, 0.1, 0.0);
    w.state.bodies[1].angular_velocity = Vec3(0, 0, 2.0);
    Simulator sim(w.model, w.state, settings);
    Vec3 p0, l0, p, l;
    momentum(sim, p0, l0);
    double impulse = 0.0;
    for (int k = 0; k < 5; ++k) {
      const StepReport& r = sim.step();
      ASSERT_FALSE(r.failed) << r.failure;
      for (double x : r.normal_impulse) impulse += x;
      momentum(sim, p, l);
      EXPECT_NEAR((p - p0).norm(), 0.0, 1e-12) << dimension << "D step " << k;
      EXPECT_NEAR((l - l0).norm(), 0.0, 1e-12) << dimension << "D step " << k;
    }
    EXPECT_GT(impulse, 0.1) << dimension << "D";
  }
}

// Two aligned cubes (2D: squares) meeting head-on at 1 m/s each, frictionless, in free space:
// the first contact of a pair that has only just met (a face-to-face overlap of roundoff
// depth, whose clipped volume is 0) sits on the line of centres, not at a corner, so no body
// spins; and the correction takes back at most the closing speed (it parts them at
// overlap / h <= the closing speed), so the kinetic energy never grows. Gaps are chosen so
// that they meet at a step's start (0.2 m: 10 steps of 0.02 m, by repeated addition) and
// within a step.
TEST(CorrectiveModel, SquarelyMeetingBodiesNeitherSpinNorGainEnergy) {
  for (int dimension : {2, 3}) {
    for (double gap : {0.2, 0.1, 0.137, 0.0501}) {
      SCOPED_TRACE(std::to_string(dimension) + "D, gap " + std::to_string(gap));
      test::World w;
      Settings settings = corrective_settings();
      int a = 0, b = 0;
      if (dimension == 2) {
        a = test::add_polygon(w, "a", make_rectangle(1, 1), 1.0, Vec2(-0.5 - gap / 2, 0));
        b = test::add_polygon(w, "b", make_rectangle(1, 1), 1.0, Vec2(0.5 + gap / 2, 0));
        settings = test::planar_settings(ContactModel::Corrective);
      } else {
        a = w.add_box("a", Vec3(1, 1, 1), 1.0, Vec3(-0.5 - gap / 2, 0, 0), Quat::Identity(), 0.0);
        b = w.add_box("b", Vec3(1, 1, 1), 1.0, Vec3(0.5 + gap / 2, 0, 0), Quat::Identity(), 0.0);
      }
      w.state.bodies[a].velocity = Vec3(1, 0, 0);
      w.state.bodies[b].velocity = Vec3(-1, 0, 0);
      Simulator sim(w.model, w.state, settings);
      const double energy0 = 1.0;  // 2 x 1/2 x 1 kg x (1 m/s)^2
      int contact_steps = 0;
      for (int k = 0; k < 60; ++k) {
        const StepReport& r = sim.step();
        ASSERT_FALSE(r.failed) << r.failure;
        for (std::size_t i = 0; i < r.contacts.size(); ++i) {
          if (!r.enforced[i]) continue;
          ++contact_steps;
          EXPECT_LT(Vec2(r.contacts[i].point_a.y(), r.contacts[i].point_a.z()).norm(), 1e-9)
              << "step " << k + 1;
        }
        double energy = 0.0, spin = 0.0;
        for (int body : {a, b}) {
          const BodyState& s = sim.state().bodies[body];
          energy += 0.5 * s.velocity.squaredNorm();  // no spin to add: checked below
          spin = std::max(spin, s.angular_velocity.norm());
        }
        EXPECT_LE(energy, energy0 * (1.0 + 1e-12)) << "step " << k + 1;
        EXPECT_LT(spin, 1e-12) << "step " << k + 1;
      }
      EXPECT_GT(contact_steps, 0);
      // They parted: moving apart, along x only.
      EXPECT_GT(sim.state().bodies[b].velocity.x(), 0.0);
      EXPECT_LT(sim.state().bodies[a].velocity.x(), 0.0);
    }
  }
}

// The corrective impulse is the gap term psi / h alone, which anitescu-potra drops.
TEST(CorrectiveModel, AnitescuPotraIsRefusedWithTheCorrectiveMethod) {
  Settings s = corrective_settings();
  s.formulation = Formulation::AnitescuPotra;
  EXPECT_NE(check_settings(s).find("corrective"), std::string::npos);
  s.formulation = Formulation::MixedLcp;
  EXPECT_EQ(check_settings(s), "");
}

}  // namespace
}  // namespace pegsim
