// SM traps (thesis §4.1, Fig. 4.1; §5.1, Fig. 5.1-5.3; §5.2.3, Fig. 5.12) on hand-built
// configurations: 3D ones through the real narrow phase, 2D ones from vertex-edge contacts
// built with the thesis' (3.7)-(3.8).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "../collision/collision_world.hpp"
#include "engine/collision/detect_contacts.hpp"
#include "engine/contact_models/sm_traps.hpp"

namespace pegsim {
namespace {

struct Found {
  std::vector<Contact> contacts;
  std::vector<SmTrap> traps;
  std::vector<int> trap_contacts;
};

Found find_in(std::vector<Contact> contacts) {
  Found f;
  f.contacts = std::move(contacts);
  SmTrapWorkspace ws;
  find_sm_traps(f.contacts, ws, f.traps, f.trap_contacts);
  return f;
}

Found find(const test::CollisionWorld& w) {
  BroadPhase broad;
  std::vector<Contact> contacts;
  detect_contacts(w.model, w.state, w.settings, broad, contacts);
  return find_in(std::move(contacts));
}

// The facets (features of the other body) of trap t, sorted by index.
std::vector<int> facet_indices(const Found& f, const SmTrap& t, FeatureKind kind) {
  std::vector<int> out;
  for (int k = 0; k < t.count; ++k) {
    const Contact& c = f.contacts[f.trap_contacts[t.first + k]];
    const Feature facet = c.body_a == t.body ? c.feature_b : c.feature_a;
    EXPECT_EQ(facet.kind, kind);
    out.push_back(facet.index);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Index of the face of a posed polytope whose world normal is n.
int face_with_normal(const test::CollisionWorld& w, int body, const Vec3& n) {
  const Polytope& p = *w.model.bodies[body].shape.polytope;
  for (std::size_t f = 0; f < p.faces.size(); ++f)
    if ((w.state.bodies[body].orientation * p.faces[f].normal - n).norm() < 1e-9)
      return static_cast<int>(f);
  return -1;
}

// Cube A's vertex with edges along +x, +y, +z sits diagonally off cube B's corner
// (1/2, 1/2, 1/2), delta from each of B's three faces there (distance delta sqrt(3) < epsilon):
// three primary vertex-face contacts whose constraints keep it in the octant x, y, z >= 1/2,
// though it could pass along any of the faces — the 3D form of Fig. 4.1. B's corner vertex is
// trapped the same way by A's three faces: the dual trap of Fig. 5.2.
TEST(SmTraps, VertexOffACubeCornerIsTrappedByItsThreeFaces) {
  test::CollisionWorld w;
  const int b = w.add_cube(1.0, Vec3::Zero(), Quat::Identity(), true);
  const double delta = 0.01;
  const int a = w.add_cube(1.0, Vec3::Constant(1.0 + delta));
  const Found f = find(w);
  ASSERT_EQ(f.traps.size(), 2u);
  for (const SmTrap& t : f.traps) {
    const int other = t.body == a ? b : a;
    EXPECT_EQ(t.other_body, other);
    EXPECT_EQ(t.feature.kind, FeatureKind::Vertex);
    const Vec3 x = to_world(w.state.bodies[t.body],
                            w.model.bodies[t.body].shape.polytope->vertices[t.feature.index]);
    const Vec3 expected = t.body == a ? Vec3::Constant(0.5 + delta) : Vec3::Constant(0.5);
    EXPECT_NEAR((x - expected).norm(), 0.0, 1e-12);
    const double s = t.body == a ? 1.0 : -1.0;  // B's outward faces at the corner, or A's
    std::vector<int> faces{face_with_normal(w, other, s * Vec3::UnitX()),
                           face_with_normal(w, other, s * Vec3::UnitY()),
                           face_with_normal(w, other, s * Vec3::UnitZ())};
    std::sort(faces.begin(), faces.end());
    EXPECT_EQ(facet_indices(f, t, FeatureKind::Face), faces);
  }
}

// A cube balanced on a vertex (body diagonal vertical) over the middle of another cube's top
// face: its lowest vertex is near one face only — one constraint, no trap.
TEST(SmTraps, VertexAboveTheMiddleOfAFaceIsNotTrapped) {
  test::CollisionWorld w;
  w.add_cube(1.0, Vec3::Zero(), Quat::Identity(), true);
  const Quat tip = Quat::FromTwoVectors(Vec3(1, 1, 1).normalized(), Vec3::UnitZ());
  const double half_diagonal = std::sqrt(3.0) / 2.0;
  w.add_cube(1.0, Vec3(0.1, -0.05, 0.5 + half_diagonal + 0.01), tip);
  const Found f = find(w);
  int primary = 0;
  for (const Contact& c : f.contacts) primary += c.primary();
  EXPECT_EQ(primary, 1);
  EXPECT_TRUE(f.traps.empty());
}

// A rod of square section (one long edge e facing the cube) cuts across a corner of a unit cube:
// e passes 2 mm inside the corner c = (1/2, 1/2, -1/2) (within the feasibility depth, 2.5 mm,
// that edge-edge contacts are held to like vertex-face ones), whose two ridges seen from e (the
// silhouette edges along x and y) it crosses. Both edge-edge contacts are primary and their
// planes differ, so e may leave through neither: it is trapped (the 3D edge form of Fig. 5.1
// and 5.12). The cube's third edge at c is no silhouette edge: not applicable, not a facet.
TEST(SmTraps, EdgeAcrossACubeCornerIsTrappedByTheTwoRidgesThere) {
  test::CollisionWorld w;
  const int cube = w.add_cube(1.0, Vec3::Zero(), Quat::Identity(), true);
  const Vec3 c(0.5, 0.5, -0.5);
  const Vec3 d = Vec3(1.0, 1.1, 0.9).normalized();  // the rod's axis, off symmetry
  const Vec3 u = (c - c.dot(d) * d).normalized();   // away from the cube, across d
  const Vec3 v = d.cross(u);
  const Vec3 a1 = (u + v).normalized(), a2 = (u - v).normalized();
  Mat3 r;
  r << d, a2, a1;  // right-handed: a2 x a1 = d
  const Quat q(r);
  const double inside = 0.002, width = 0.3;
  const int rod =
      w.add(Shape::convex(std::make_shared<const Polytope>(make_box(4.0, width, width))),
            c - inside * u + q * Vec3(0, width / 2, width / 2), q);
  const Found f = find(w);
  ASSERT_EQ(f.traps.size(), 1u);
  const SmTrap& t = f.traps[0];
  EXPECT_EQ(t.body, rod);
  EXPECT_EQ(t.other_body, cube);
  EXPECT_EQ(t.feature.kind, FeatureKind::Edge);
  ASSERT_EQ(t.count, 2);
  const Polytope& cp = *w.model.bodies[cube].shape.polytope;
  for (int k = 0; k < 2; ++k) {
    const Contact& ct = f.contacts[f.trap_contacts[k]];
    EXPECT_LT(ct.gap, 0.0);
    const Polytope::Edge& e = cp.edges[ct.feature_a.index];
    const bool at_c =
        (cp.vertices[e.tail] - c).norm() < 1e-12 || (cp.vertices[e.head] - c).norm() < 1e-12;
    EXPECT_TRUE(at_c);
    EXPECT_NEAR((cp.vertices[e.head] - cp.vertices[e.tail]).z(), 0.0, 1e-12);  // along x or y
  }
}

// The same rod turned so that one edge lies across the cube's top face, 5 mm above it: the
// edge crosses the two parallel top edges along x, and both edge-edge planes are the top
// face's plane — one constraint, which is right (the edge cannot go down), so no trap.
TEST(SmTraps, EdgeAcrossAFaceIsNotTrapped) {
  test::CollisionWorld w;
  w.add_cube(1.0, Vec3::Zero(), Quat::Identity(), true);
  const Quat q(Eigen::AngleAxisd(M_PI / 4, Vec3::UnitY()));  // long axis y, an edge pointing down
  const double width = 0.3;
  w.add(Shape::convex(std::make_shared<const Polytope>(make_box(width, 4.0, width))),
        Vec3(0.1, 0.0, 0.5 + 0.005 + width / std::sqrt(2.0)), q);
  const Found f = find(w);
  int edge_edge = 0;
  for (const Contact& c : f.contacts)
    edge_edge += c.primary() && c.feature_a.kind == FeatureKind::Edge;
  EXPECT_EQ(edge_edge, 2);
  EXPECT_TRUE(f.traps.empty());
}

// 2D (plain data): the vertex-edge contacts of a point c against the edges of a CCW polygon
// within epsilon, by (3.7) psi = (c - a) . n with n = [[0, 1], [-1, 0]] (b - a) / |b - a|, the
// nearest point on the segment by the corrected Alg. 3. The polygon is body 0, c is vertex 0
// of body 1; the plane of the 2D world is z = 0.
std::vector<Contact> vertex_edge_contacts(const std::vector<Vec2>& polygon, const Vec2& c,
                                          double eps) {
  std::vector<Contact> out;
  for (std::size_t i = 0; i < polygon.size(); ++i) {
    const Vec2 a = polygon[i], b = polygon[(i + 1) % polygon.size()];
    const Vec2 n = Vec2(b.y() - a.y(), a.x() - b.x()).normalized();
    const double psi = (c - a).dot(n);
    const double t = std::clamp((c - a).dot(b - a) / (b - a).squaredNorm(), 0.0, 1.0);
    if (std::abs(psi) > eps || (c - (a + t * (b - a))).norm() > eps) continue;
    Contact k;
    k.body_a = 0;
    k.body_b = 1;
    k.feature_a = {FeatureKind::Edge, static_cast<int>(i)};
    k.feature_b = {FeatureKind::Vertex, 0};
    const Vec2 p = c - psi * n;  // (3.8)
    k.point_a = Vec3(p.x(), p.y(), 0.0);
    k.normal = Vec3(n.x(), n.y(), 0.0);
    k.gap = psi;
    out.push_back(k);
  }
  return out;
}

// The unit square [-1, 0]^2: its corner at the origin joins the top edge (index 2, from (0, 0)
// to (-1, 0)) and the right edge (index 1, from (0, -1) to (0, 0)).
const std::vector<Vec2> kSquare{{-1, -1}, {0, -1}, {0, 0}, {-1, 0}};

// Fig. 4.1: v near the corner, within epsilon of both edges: trapped by e1 and e2.
TEST(SmTraps2D, VertexNearASquaresCornerIsTrapped) {
  const Found f = find_in(vertex_edge_contacts(kSquare, Vec2(0.01, 0.02), 0.05));
  ASSERT_EQ(f.traps.size(), 1u);
  EXPECT_EQ(f.traps[0].body, 1);
  EXPECT_EQ(f.traps[0].other_body, 0);
  EXPECT_EQ(f.traps[0].feature.kind, FeatureKind::Vertex);
  EXPECT_EQ(facet_indices(f, f.traps[0], FeatureKind::Edge), (std::vector<int>{1, 2}));
}

// Fig. 5.1: v approaching the corner from behind (inside the top edge's half-plane, just
// outside the right edge): still both contacts, still trapped.
TEST(SmTraps2D, VertexApproachingTheCornerFromBehindIsTrapped) {
  const Found f = find_in(vertex_edge_contacts(kSquare, Vec2(0.01, -0.03), 0.05));
  ASSERT_EQ(f.contacts.size(), 2u);
  EXPECT_LT(f.contacts[0].gap * f.contacts[1].gap, 0.0);  // one penetrating, one not
  EXPECT_EQ(f.traps.size(), 1u);
}

// Over the middle of the top edge, or farther than epsilon from the corner's other edge: one
// contact, no trap.
TEST(SmTraps2D, VertexOverAnEdgeIsNotTrapped) {
  EXPECT_TRUE(find_in(vertex_edge_contacts(kSquare, Vec2(-0.5, 0.01), 0.05)).traps.empty());
  EXPECT_TRUE(find_in(vertex_edge_contacts(kSquare, Vec2(-0.06, 0.01), 0.05)).traps.empty());
}

// Contacts that the standard model would not enforce trap nothing; nor do coplanar facets
// or a plane.
TEST(SmTraps2D, OnlyPrimaryContactsOnDistinctPlanesTrap) {
  std::vector<Contact> contacts = vertex_edge_contacts(kSquare, Vec2(0.01, 0.02), 0.05);
  ASSERT_EQ(contacts.size(), 2u);
  contacts[0].applicable = false;
  EXPECT_TRUE(find_in(contacts).traps.empty());
  contacts[0].applicable = true;
  contacts[1].normal = contacts[0].normal;  // two collinear edges: one line
  EXPECT_TRUE(find_in(contacts).traps.empty());
  contacts[1].normal = Vec3(1, 0, 0);
  contacts[1].feature_a = {FeatureKind::Plane, -1};
  EXPECT_TRUE(find_in(contacts).traps.empty());
}

}  // namespace
}  // namespace pegsim
