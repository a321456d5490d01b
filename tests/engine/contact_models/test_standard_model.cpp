// The standard model stage: primary contacts enforced, each physical contact once.
#include <gtest/gtest.h>

#include <cmath>

#include "../dynamics/test_world.hpp"
#include "contact_in_code.hpp"
#include "engine/collision/detect_contacts.hpp"
#include "engine/contact_models/standard_model.hpp"
#include "engine/core/settings.hpp"

namespace pegsim {
namespace {

std::vector<Contact> contacts_of(const test::World& w, const Settings& settings) {
  BroadPhase broad;
  std::vector<Contact> contacts;
  detect_contacts(w.model, w.state, settings, broad, contacts);
  return contacts;
}

using test::make_contact;

// Two aligned unit cubes, one on the other: each corner of the interface is found twice, as the
// upper cube's vertex on the lower cube's top face and as the lower cube's vertex on the upper
// cube's bottom face. Four constraints are enforced, one per corner.
TEST(StandardModel, AlignedCubesShareEachCornerContactOnce) {
  test::World w;
  const int lower = w.add_box("lower", Vec3(1, 1, 1), 1.0, Vec3(0, 0, 0.5));
  const int upper = w.add_box("upper", Vec3(1, 1, 1), 1.0, Vec3(0, 0, 1.5));
  w.model.bodies[lower].is_static = true;
  const Settings settings;
  const std::vector<Contact> contacts = contacts_of(w, settings);
  std::vector<int> enforced, duplicate_of;
  standard_model(contacts, enforced, duplicate_of);

  int primaries = 0, duplicates = 0;
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    EXPECT_EQ(std::min(contacts[i].body_a, contacts[i].body_b), lower);
    EXPECT_EQ(std::max(contacts[i].body_a, contacts[i].body_b), upper);
    primaries += contacts[i].primary();
    if (duplicate_of[i] < 0) continue;
    ++duplicates;
    const Contact& kept = contacts[duplicate_of[i]];
    EXPECT_EQ(kept.body_a, contacts[i].body_b);  // found from the other body
    EXPECT_NEAR((kept.point_a - contacts[i].point_b()).norm(), 0.0, 1e-12);
    EXPECT_NEAR(kept.normal.dot(contacts[i].normal), -1.0, 1e-12);
  }
  EXPECT_EQ(primaries, 8);
  EXPECT_EQ(duplicates, 4);
  ASSERT_EQ(enforced.size(), 4u);
  for (int e : enforced) {
    EXPECT_EQ(duplicate_of[e], -1);
    EXPECT_NEAR(std::abs(contacts[e].point_a.x()), 0.5, 1e-12);
    EXPECT_NEAR(std::abs(contacts[e].point_a.y()), 0.5, 1e-12);
  }
}

// Turned by 45 degrees the upper cube's corners and the lower cube's corners are different
// points: nothing repeats, every primary contact is enforced.
TEST(StandardModel, TurnedCubesKeepEveryPrimaryContact) {
  test::World w;
  const int lower = w.add_box("lower", Vec3(1, 1, 1), 1.0, Vec3(0, 0, 0.5));
  w.add_box("upper", Vec3(1, 1, 1), 1.0, Vec3(0, 0, 1.5),
            Quat(Eigen::AngleAxisd(M_PI / 4, Vec3::UnitZ())));
  w.model.bodies[lower].is_static = true;
  const std::vector<Contact> contacts = contacts_of(w, Settings{});
  std::vector<int> enforced, duplicate_of;
  standard_model(contacts, enforced, duplicate_of);
  int primaries = 0;
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    primaries += contacts[i].primary();
    EXPECT_EQ(duplicate_of[i], -1);
  }
  EXPECT_GT(primaries, 4);
  EXPECT_EQ(static_cast<int>(enforced.size()), primaries);
}

TEST(StandardModel, SecondaryContactsAreNeverEnforced) {
  std::vector<Contact> contacts{make_contact(0, 1, Vec3::Zero(), Vec3::UnitZ(), 0.0),
                                make_contact(0, 1, Vec3(1, 0, 0), Vec3::UnitZ(), 0.0)};
  contacts[0].feasible = false;
  std::vector<int> enforced, duplicate_of;
  standard_model(contacts, enforced, duplicate_of);
  EXPECT_EQ(enforced, std::vector<int>{1});
  EXPECT_EQ(duplicate_of, (std::vector<int>{-1, -1}));
}

TEST(StandardModel, SamePhysicalContactNeedsSamePairPointGapAndNormalLine) {
  const Contact c = make_contact(0, 1, Vec3(0.5, 0.5, 1.0), Vec3::UnitZ(), 0.01);
  // The same contact seen from body 1: its point is c's point on body 1, its normal reversed.
  const Contact seen_from_b = make_contact(1, 0, c.point_b(), -Vec3::UnitZ(), 0.01);
  EXPECT_TRUE(same_physical_contact(c, seen_from_b));
  EXPECT_TRUE(same_physical_contact(seen_from_b, c));
  EXPECT_TRUE(same_physical_contact(c, c));
  // The reversed normal with the pair in the same order is another constraint.
  EXPECT_FALSE(same_physical_contact(c, make_contact(0, 1, c.point_a, -Vec3::UnitZ(), 0.01)));
  EXPECT_FALSE(same_physical_contact(c, make_contact(0, 2, c.point_a, Vec3::UnitZ(), 0.01)));
  EXPECT_FALSE(same_physical_contact(
      c, make_contact(0, 1, c.point_a + Vec3(1e-6, 0, 0), Vec3::UnitZ(), 0.01)));
  EXPECT_FALSE(same_physical_contact(c, make_contact(0, 1, c.point_a, Vec3::UnitZ(), 0.0101)));
  EXPECT_FALSE(same_physical_contact(c, make_contact(0, 1, c.point_a, Vec3(1e-3, 0, 1), 0.01)));
}

}  // namespace
}  // namespace pegsim
