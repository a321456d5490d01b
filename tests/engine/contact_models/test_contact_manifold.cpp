// Settings::contacts_per_pair (contact_manifold.hpp): a body pair's standard-model contacts cut to
// the deepest and those spanning the largest area, per normal direction; and what the cut keeps
// of the physics: a turned cube resting on another neither sinks nor tips at its dropped corners.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "../dynamics/test_world.hpp"
#include "contact_in_code.hpp"
#include "engine/collision/detect_contacts.hpp"
#include "engine/contact_models/contact_manifold.hpp"
#include "engine/contact_models/standard_model.hpp"
#include "engine/dynamics/simulator.hpp"

namespace pegsim {
namespace {

using test::make_contact;

std::vector<int> all_of(const std::vector<Contact>& contacts) {
  std::vector<int> out(contacts.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<int>(i);
  return out;
}

// Area of the convex polygon of points in the plane z = const, given in order around it.
double polygon_area(const std::vector<Vec3>& ring) {
  double twice = 0.0;
  for (std::size_t i = 0; i < ring.size(); ++i) {
    const Vec3& p = ring[i];
    const Vec3& q = ring[(i + 1) % ring.size()];
    twice += p.x() * q.y() - q.x() * p.y();
  }
  return 0.5 * std::abs(twice);
}

// Area of the convex hull of four points of the plane z = const (the largest of the three
// quadrilaterals they close, each half its diagonals' cross product; a point inside the
// triangle of the others gives that triangle).
double hull_area_of_four(const std::vector<Vec3>& p) {
  const double quad = 0.5 * std::max({(p[1] - p[0]).cross(p[3] - p[2]).norm(),
                                      (p[2] - p[0]).cross(p[3] - p[1]).norm(),
                                      (p[3] - p[0]).cross(p[2] - p[1]).norm()});
  double triangle = 0.0;
  for (int skip = 0; skip < 4; ++skip) {
    std::vector<Vec3> t;
    for (int k = 0; k < 4; ++k)
      if (k != skip) t.push_back(p[std::size_t(k)]);
    triangle = std::max(triangle, 0.5 * (t[1] - t[0]).cross(t[2] - t[0]).norm());
  }
  return std::max(quad, triangle);
}

// Eight contacts at the corners of a regular octagon of radius 1 (the interface of two squares
// turned 45 degrees), the third the deepest: four are kept, the deepest among them, and they
// span the largest quadrilateral the octagon's corners make (a square of area 2, of the
// octagon's 2 sqrt 2).
TEST(ContactManifold, AnOctagonKeepsItsDeepestCornerAndTheLargestQuadrilateral) {
  std::vector<Contact> contacts;
  std::vector<Vec3> ring;
  for (int k = 0; k < 8; ++k) {
    const double angle = k * M_PI / 4.0;
    ring.emplace_back(std::cos(angle), std::sin(angle), 0.0);
    contacts.push_back(make_contact(0, 1, ring.back(), Vec3::UnitZ(), k == 2 ? -1e-3 : 1e-4 * k));
  }
  std::vector<int> enforced = all_of(contacts);
  ManifoldScratch scratch;
  reduce_manifolds(contacts, 4, 0.0, enforced, scratch);
  ASSERT_EQ(enforced.size(), 4u);
  EXPECT_TRUE(std::is_sorted(enforced.begin(), enforced.end()));
  EXPECT_NE(std::find(enforced.begin(), enforced.end(), 2), enforced.end());
  std::vector<Vec3> kept;
  for (int i : enforced) kept.push_back(contacts[std::size_t(i)].point_a);
  EXPECT_NEAR(hull_area_of_four(kept), 2.0, 1e-12);
  EXPECT_NEAR(polygon_area(ring), 2.0 * std::sqrt(2.0), 1e-12);
}

// Gaps within the depth tie of the deepest count as equally deep: the second corner, 1 mm deeper
// than the others, is kept when the tie is below 1 mm and may be left out above it (the first
// point is then the first of the equally deep, the rest span the largest square).
TEST(ContactManifold, TheDepthTieDecidesWhetherASlightlyDeeperCornerLeads) {
  std::vector<Contact> contacts;
  for (int k = 0; k < 8; ++k) {
    const double angle = k * M_PI / 4.0;
    contacts.push_back(make_contact(0, 1, Vec3(std::cos(angle), std::sin(angle), 0.0),
                                    Vec3::UnitZ(), k == 1 ? -1e-3 : 0.0));
  }
  ManifoldScratch scratch;
  std::vector<int> enforced = all_of(contacts);
  reduce_manifolds(contacts, 4, 5e-4, enforced, scratch);
  EXPECT_EQ(enforced, (std::vector<int>{1, 3, 5, 7}));
  enforced = all_of(contacts);
  reduce_manifolds(contacts, 4, 2e-3, enforced, scratch);
  EXPECT_EQ(enforced, (std::vector<int>{0, 2, 4, 6}));
}

// A limit of 0 keeps every contact, and so does a pair with no more contacts than the limit.
TEST(ContactManifold, NoLimitOrFewContactsKeepEveryContact) {
  std::vector<Contact> contacts;
  for (int k = 0; k < 6; ++k)
    contacts.push_back(make_contact(0, 1, Vec3(k, 0.5 * k * k, 0.0), Vec3::UnitZ(), 0.0));
  ManifoldScratch scratch;
  std::vector<int> enforced = all_of(contacts);
  reduce_manifolds(contacts, 0, 0.0, enforced, scratch);
  EXPECT_EQ(enforced, all_of(contacts));
  reduce_manifolds(contacts, 6, 0.0, enforced, scratch);
  EXPECT_EQ(enforced, all_of(contacts));
  enforced = {1, 3, 5};
  reduce_manifolds(contacts, 4, 0.0, enforced, scratch);
  EXPECT_EQ(enforced, (std::vector<int>{1, 3, 5}));
}

// Pairs are cut apart, whichever body of the pair is A (the vertex of A on a face of B and the
// vertex of B on a face of A are one manifold: their normals are opposite), and so are a pair's
// manifolds of different normals (a cube against a wall and a floor of one body).
TEST(ContactManifold, EachPairAndNormalDirectionIsCutApart) {
  std::vector<Contact> contacts;
  for (int k = 0; k < 6; ++k) {  // pair (0, 1): three found from 0, three from 1, one manifold
    const Vec3 p(std::cos(k), std::sin(k), 0.0);
    contacts.push_back(k % 2 ? make_contact(1, 0, p, -Vec3::UnitZ(), 0.0)
                             : make_contact(0, 1, p, Vec3::UnitZ(), 0.0));
  }
  for (int k = 0; k < 5; ++k)  // pair (0, 2): a floor
    contacts.push_back(make_contact(0, 2, Vec3(k, k % 2, 0.0), Vec3::UnitZ(), 0.0));
  for (int k = 0; k < 5; ++k)  // pair (0, 2): a wall, normal 30 degrees from the floor's
    contacts.push_back(make_contact(0, 2, Vec3(0.0, k, k % 3),
                                    Vec3(0.0, std::sin(M_PI / 6), std::cos(M_PI / 6)), 0.0));
  std::vector<int> enforced = all_of(contacts);
  ManifoldScratch scratch;
  reduce_manifolds(contacts, 4, 0.0, enforced, scratch);
  int pair01 = 0, floor = 0, wall = 0;
  for (int i : enforced) {
    if (i < 6)
      ++pair01;
    else if (i < 11)
      ++floor;
    else
      ++wall;
  }
  EXPECT_EQ(pair01, 4);
  EXPECT_EQ(floor, 4);
  EXPECT_EQ(wall, 4);
}

// A 1 m cube turned 30 degrees about the vertical resting on a static one: the standard model
// enforces a contact at each corner of the interface that lies inside the other face and at
// each edge crossing (eight), four are kept. Under the exact default solver the cube then
// stays put and no contact of the pair, kept or dropped, goes deeper than the tolerance's
// reach: the dropped corners lie within the kept ones' hull, where the affine gap cannot dip.
TEST(ContactManifold, ATurnedCubeRestsOnFourOfItsEightCorners) {
  test::World w;
  const int lower = w.add_box("lower", Vec3::Ones(), 1.0, Vec3(0, 0, 0.5));
  w.model.bodies[std::size_t(lower)].is_static = true;
  const Quat turn(Eigen::AngleAxisd(M_PI / 6, Vec3::UnitZ()));
  const int upper = w.add_box("upper", Vec3::Ones(), 1.0, Vec3(0, 0, 1.5), turn);
  Settings s = test::step_settings(0.01, Vec3(0, 0, -9.81));
  {
    BroadPhase broad;
    std::vector<Contact> contacts;
    detect_contacts(w.model, w.state, s, broad, contacts);
    std::vector<int> enforced, duplicate_of;
    standard_model(contacts, enforced, duplicate_of);
    EXPECT_EQ(enforced.size(), 8u);
  }
  s.contacts_per_pair = 4;
  Simulator sim(w.model, w.state, s);
  double deepest = 0.0;
  for (int i = 0; i < 200; ++i) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << "step " << i << ": " << r.failure;
    ASSERT_TRUE(r.solve.solved()) << "step " << i;
    int enforced = 0;
    for (std::size_t k = 0; k < r.contacts.size(); ++k) {
      enforced += r.enforced[k];
      if (r.contacts[k].primary()) deepest = std::max(deepest, -r.contacts[k].gap);
    }
    EXPECT_EQ(enforced, 4) << "step " << i;
  }
  EXPECT_LE(deepest, 1e-9);
  const BodyState& b = sim.state().bodies[std::size_t(upper)];
  EXPECT_NEAR(b.position.z(), 1.5, 1e-9);
  EXPECT_LT(b.position.head<2>().norm(), 1e-9);
  EXPECT_LT(b.velocity.norm() + b.angular_velocity.norm(), 1e-9);
}

}  // namespace
}  // namespace pegsim
