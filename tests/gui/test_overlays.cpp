// Overlays draw what a frame holds: contact points coloured by primary/secondary, normals,
// impulses scaled by magnitude, AABBs blue or red, body frames.
#include <gtest/gtest.h>

#include "engine/dynamics/simulator.hpp"
#include "engine/geometry/builders.hpp"
#include "engine/kinematics/joint_rows.hpp"
#include "gui/render/mesh_data.hpp"
#include "gui/render/overlay.hpp"
#include "gui/render/screen_sketch.hpp"
#include "gui/ui/inspector_panel.hpp"
#include "io/scene.hpp"
#include "qt_app.hpp"

namespace pegsim::gui {
namespace {

std::unique_ptr<Overlay> overlay(const std::string& key) {
  for (auto& o : standard_overlays())
    if (o->key() == key) return std::move(o);
  return nullptr;
}

// A frame with two contacts on body 1 of a two-body model (a cube on a plane).
struct Fixture {
  Scene scene = load_scene(test::scene_path("cascading_polyhedra"));
  FrameSnapshot frame;
  Fixture() {
    frame = *make_snapshot(scene.model, scene.initial, nullptr);
    ContactSnapshot a;
    a.body_a = 2;
    a.body_b = 1;
    a.point_a = Vec3(0, 0, 2);
    a.normal = Vec3(0, 0, -1);
    a.gap = 0.01;
    a.primary = true;
    a.enforced = true;
    a.normal_impulse = 0.2;
    a.friction_impulse = Vec3(0.05, 0, 0);
    ContactSnapshot b = a;
    b.point_a = Vec3(0.3, 0, 2);
    b.primary = false;
    b.enforced = false;
    b.normal_impulse = 0;
    b.friction_impulse = Vec3::Zero();
    frame.contacts = {a, b};
  }
  OverlayContext ctx() const { return {scene.model, frame, 4.0, 2.0}; }
};

TEST(Overlays, TheRegistryHasTheNineOverlaysWithDistinctKeysAndShortcuts) {
  auto all = standard_overlays();
  ASSERT_EQ(all.size(), 9u);
  std::set<std::string> keys, shortcuts;
  for (auto& o : all) {
    keys.insert(o->key());
    shortcuts.insert(o->shortcut());
  }
  EXPECT_EQ(keys, (std::set<std::string>{"contacts", "normals", "impulses", "aabbs", "frames",
                                         "joints", "traps", "groups", "volumes"}));
  EXPECT_EQ(shortcuts.size(), 9u);
}

// One step of the volumetric model on `body` sunk in the ground: the volumes overlay's sketch,
// and the frame it drew.
std::pair<Sketch, FramePtr> volumes_of(
    const std::string& body,
    const std::string& ground = R"({"name": "ground", "shape": {"type": "plane"}})") {
  const Scene scene =
      parse_scene(R"({"bodies": [)" + ground + ", " + body +
                      R"(], "settings": {"contact_model": "volumetric", "h": 0.001}})",
                  "volumes.json", ".");
  Simulator sim(scene.model, scene.initial, scene.settings);
  const StepReport& r = sim.step();
  EXPECT_FALSE(r.failed);
  FramePtr frame = make_snapshot(sim.model(), scene.initial, &r, &sim.settings());
  Sketch s;
  overlay("volumes")->draw({scene.model, *frame, 4.0, 1.0}, s);
  return {s, frame};
}

// A cube sunk 0.01 in the ground shows its common volume (a slab of 6 faces, 4 edges each), the
// centroid marker midway between the contact's points, 0.005 down, and the force arrow along
// the normal; a ball sunk 0.05 its cap's rim, of radius sqrt(2 R d - d^2).
TEST(Overlays, CommonVolumesDrawTheSolidItsCentroidAndTheForce) {
  const auto [cube, frame] = volumes_of(
      R"({"name": "cube", "shape": {"type": "box", "size": [1, 1, 1]}, "position": [0, 0, 0.49], "mass": 1})");
  ASSERT_EQ(frame->contacts.size(), 1u);
  ASSERT_EQ(cube.segments.size(), 24u);
  for (const Sketch::Segment& e : cube.segments) {
    EXPECT_EQ(e.color, kVolumeOutline);
    EXPECT_LE(std::abs(e.a.z() + 0.005), 0.0051);
    EXPECT_LE(e.a.head<2>().cwiseAbs().maxCoeff(), 0.5 + 1e-12);
  }
  const ContactSnapshot& k = frame->contacts[0];
  ASSERT_EQ(cube.markers.size(), 1u);
  EXPECT_TRUE(cube.markers[0].at.isApprox(k.point_a + 0.5 * k.gap * k.normal));
  EXPECT_NEAR(cube.markers[0].at.z(), -0.005, 1e-9);
  ASSERT_EQ(cube.arrows.size(), 1u);
  EXPECT_TRUE((cube.arrows[0].to - cube.arrows[0].from).normalized().isApprox(Vec3::UnitZ()));
  EXPECT_NEAR((cube.arrows[0].to - cube.arrows[0].from).norm(), k.normal_impulse, 1e-12);

  // The inspector's text for the pair: volume, depth, centroid and the force p_n / h.
  const QString text = contact_text(k, frame->h);
  EXPECT_TRUE(text.contains("common volume 0.01, depth 0.01 m")) << text.toStdString();
  EXPECT_TRUE(text.contains("centroid (0.0000, 0.0000, -0.0050)")) << text.toStdString();
  EXPECT_TRUE(text.contains(QString("force %1 N").arg(k.normal_impulse / 0.001, 0, 'g', 4)))
      << text.toStdString();
  EXPECT_FALSE(text.contains("bristle"));
  ContactSnapshot held = k;  // a contact whose bristle is stretched (3, 4, 0) mm
  held.tangential_deflection = Vec3(0.003, 0.004, 0.0);
  EXPECT_TRUE(contact_text(held, 0.001).contains("bristle stretch 0.005 m"));

  const auto [ball, ball_frame] = volumes_of(
      R"({"name": "ball", "shape": {"type": "sphere", "radius": 0.5}, "position": [3, 0, 0.45], "mass": 1})");
  EXPECT_EQ(ball.segments.size(), 48u);
  const double rim = std::sqrt(2 * 0.5 * 0.05 - 0.05 * 0.05);
  for (const Sketch::Segment& e : ball.segments)
    EXPECT_NEAR((e.a - Vec3(3, 0, 0)).norm(), rim, 1e-12);

  // The same ball on a block's top face: that face's disc inside the ball; over the block's edge
  // the disc's part on the face, closed by the edge's chord.
  const std::string block =
      R"({"name": "block", "shape": {"type": "box", "size": [2, 2, 1]}, "position": [0, 0, 0.5], "static": true})";
  const auto [on_face, face_frame] = volumes_of(
      R"({"name": "ball", "shape": {"type": "sphere", "radius": 0.5}, "position": [0, 0, 1.45], "mass": 1})",
      block);
  ASSERT_EQ(face_frame->contacts.size(), 1u);
  EXPECT_EQ(on_face.segments.size(), 48u);
  for (const Sketch::Segment& e : on_face.segments)
    EXPECT_NEAR((e.a - Vec3(0, 0, 1)).norm(), rim, 1e-12);
  const auto [over_edge, edge_frame] = volumes_of(
      R"({"name": "ball", "shape": {"type": "sphere", "radius": 0.5}, "position": [1.0, 0, 1.45], "mass": 1})",
      block);
  ASSERT_EQ(edge_frame->contacts.size(), 1u);
  std::size_t on_edge = 0;
  for (const Sketch::Segment& e : over_edge.segments) {
    EXPECT_LE(e.a.x(), 1.0 + 1e-12);
    on_edge += std::abs(e.a.x() - 1.0) < 1e-12 && std::abs(e.b.x() - 1.0) < 1e-12;
  }
  EXPECT_GE(on_edge, 1u);
}

TEST(Overlays, ContactPointsUsePrimaryAndSecondaryColours) {
  Fixture f;
  Sketch s;
  overlay("contacts")->draw(f.ctx(), s);
  ASSERT_EQ(s.markers.size(), 2u);
  EXPECT_EQ(s.markers[0].color, kPrimaryContact);
  EXPECT_EQ(s.markers[1].color, kSecondaryContact);
  EXPECT_TRUE(s.markers[1].at == Vec3(0.3, 0, 2));
  ASSERT_EQ(s.segments.size(), 2u);  // the gaps
  EXPECT_TRUE(s.segments[0].b.isApprox(Vec3(0, 0, 1.99)));
}

// Geometrically implicit contacts: a1 and a2 are both marked, a2 in its own colour, with the
// segment between them; the impulse arrow ends at a2.
TEST(Overlays, ImplicitContactsMarkBothClosestPoints) {
  Fixture f;
  ContactSnapshot& k = f.frame.contacts[0];
  k.implicit = true;
  k.point_b = Vec3(0.0, 0.02, 1.98);  // not along the normal: a2 is drawn where it is
  Sketch s;
  overlay("contacts")->draw(f.ctx(), s);
  ASSERT_EQ(s.markers.size(), 3u);
  EXPECT_EQ(s.markers[1].at, k.point_b);
  EXPECT_EQ(s.markers[1].color, kClosestPointB);
  ASSERT_FALSE(s.segments.empty());
  EXPECT_EQ(s.segments[0].a, k.point_a);
  EXPECT_EQ(s.segments[0].b, k.point_b);
  Sketch arrows;
  overlay("impulses")->draw(f.ctx(), arrows);
  ASSERT_EQ(arrows.arrows.size(), 1u);
  EXPECT_EQ(arrows.arrows[0].to, k.point_b);
}

// A frame of the geometrically implicit formulation carries a2 and a shell's deflection,
// live and from a recorded frame alike.
TEST(Overlays, ImplicitFramesCarryTheClosestPointOnBAndTheDeflection) {
  Scene sc = load_scene(test::scene_path("quasi_rigid_disc"));
  Simulator sim(sc.model, sc.initial, sc.settings);
  for (int k = 0; k < 3300; ++k) ASSERT_FALSE(sim.step().failed);  // on the shell at 0.33 s
  const StepReport& r = sim.last_report();
  ASSERT_EQ(r.implicit.size(), 1u);
  const FramePtr live = make_snapshot(sim.model(), sim.state(), &r, &sim.settings());
  ASSERT_EQ(live->contacts.size(), 1u);
  const ContactSnapshot& c = live->contacts[0];
  EXPECT_TRUE(c.implicit);
  EXPECT_EQ(c.point_b, r.implicit[0].a2);
  EXPECT_GT(c.deflection, 0.01);
  EXPECT_NEAR(c.point_on_b().y(), -c.deflection, 1e-9) << "a2 on the deformed ground";

  RunFrame recorded;
  recorded.bodies = sim.state().bodies;
  RecordedContact rc;
  rc.contact = r.contacts[0];
  rc.point_b = r.implicit[0].a2;
  rc.deflection = r.implicit[0].deflection;
  recorded.contacts = {rc};
  const FramePtr replayed = make_snapshot(sim.model(), recorded, &sim.settings());
  EXPECT_TRUE(replayed->contacts[0].implicit);
  EXPECT_EQ(replayed->contacts[0].point_b, c.point_b);
  EXPECT_EQ(replayed->contacts[0].deflection, c.deflection);
  Settings st = sim.settings();
  st.formulation = Formulation::StewartTrinkle;
  EXPECT_FALSE(make_snapshot(sim.model(), recorded, &st)->contacts[0].implicit);
}

TEST(Overlays, NormalsAreArrowsAlongTheNormal) {
  Fixture f;
  Sketch s;
  overlay("normals")->draw(f.ctx(), s);
  ASSERT_EQ(s.arrows.size(), 2u);
  const Vec3 d = s.arrows[0].to - s.arrows[0].from;
  EXPECT_NEAR(d.normalized().dot(Vec3(0, 0, -1)), 1.0, 1e-12);
}

TEST(Overlays, ImpulseArrowsScaleWithTheImpulseAndSkipUnenforcedContacts) {
  Fixture f;
  Sketch s;
  overlay("impulses")->draw(f.ctx(), s);
  ASSERT_EQ(s.arrows.size(), 1u);
  const Vec3 expected = 2.0 * (0.2 * Vec3(0, 0, -1) + Vec3(0.05, 0, 0));  // impulse_scale 2
  EXPECT_TRUE((s.arrows[0].to - s.arrows[0].from).isApprox(expected));
  // Pushing body B: the tip on B's contact point (the gap away from A's), the tail outside B.
  EXPECT_TRUE(s.arrows[0].to.isApprox(Vec3(0, 0, 2) + 0.01 * Vec3(0, 0, -1)));
  f.frame.contacts[0].normal_impulse = 0.4;
  Sketch twice;
  overlay("impulses")->draw(f.ctx(), twice);
  EXPECT_GT((twice.arrows[0].to - twice.arrows[0].from).norm(),
            1.9 * (s.arrows[0].to - s.arrows[0].from).norm());
}

TEST(Overlays, AabbsAreRedForBodiesWithEnforcedContactsAndPlanesAreSkipped) {
  Fixture f;
  Sketch s;
  overlay("aabbs")->draw(f.ctx(), s);
  // ground (plane) skipped; pedestal, tetrahedron, octahedron: 12 edges each.
  ASSERT_EQ(s.segments.size(), 36u);
  EXPECT_EQ(s.segments[0].color, kAabbActive);   // pedestal: body 1, enforced contact
  EXPECT_EQ(s.segments[12].color, kAabbActive);  // tetrahedron: body 2
  EXPECT_EQ(s.segments[24].color, kAabbIdle);    // octahedron
  // The pedestal's box spans its 2 m cube.
  Vec3 lo = s.segments[0].a, hi = s.segments[0].a;
  for (int k = 0; k < 12; ++k) {
    lo = lo.cwiseMin(s.segments[k].a).cwiseMin(s.segments[k].b);
    hi = hi.cwiseMax(s.segments[k].a).cwiseMax(s.segments[k].b);
  }
  EXPECT_TRUE(lo.isApprox(Vec3(-1, -1, 0), 1e-9));
  EXPECT_TRUE(hi.isApprox(Vec3(1, 1, 2), 1e-9));
}

TEST(Overlays, BodyFramesAreThreeAxesPerBoundedBodyFollowingItsOrientation) {
  Fixture f;
  Sketch s;
  overlay("frames")->draw(f.ctx(), s);
  ASSERT_EQ(s.arrows.size(), 9u);
  const BodyState& tet = f.frame.bodies[2];
  const Vec3 x_axis = (s.arrows[3].to - s.arrows[3].from).normalized();
  EXPECT_TRUE(x_axis.isApprox(tet.orientation * Vec3::UnitX(), 1e-12));
}

// The joints overlay draws the engine's joint frames (thesis §2.2.3): the hinge of the
// pendulum scene is anchored at (0, 0, 2) in the world with its axis along x.
TEST(Overlays, JointsAreDrawnAtTheirFramesWithTheAxisAndLinks) {
  const Scene scene = load_scene(test::scene_path("pendulum"));
  Simulator sim(scene.model, scene.initial, scene.settings);
  for (int k = 0; k < 40; ++k) sim.step();
  const FramePtr frame =
      make_snapshot(sim.model(), sim.state(), &sim.last_report(), &sim.settings());
  ASSERT_EQ(frame->joints.size(), 1u);
  const JointFrames expected = joint_frames(sim.state(), sim.model().joints[0]);
  EXPECT_TRUE(frame->joints[0].frames.origin_a.isApprox(Vec3(0, 0, 2), 1e-12));
  const JointError error = joint_error(sim.state(), sim.model().joints[0]);
  EXPECT_EQ(frame->joints[0].error.position, error.position);
  EXPECT_EQ(frame->joints[0].coordinates.angle,
            joint_coordinates(sim.state(), sim.model().joints[0]).angle);
  Sketch s;
  OverlayContext ctx{sim.model(), *frame, 2.0, 1.0};
  overlay("joints")->draw(ctx, s);
  ASSERT_EQ(s.markers.size(), 1u);
  EXPECT_TRUE(s.markers[0].at.isApprox(Vec3(0, 0, 2), 1e-12));
  EXPECT_EQ(s.markers[0].color, kJointColor);
  ASSERT_EQ(s.arrows.size(), 3u);  // the axes of J_a
  for (int a = 0; a < 3; ++a)
    EXPECT_TRUE((s.arrows[std::size_t(a)].to - s.arrows[std::size_t(a)].from)
                    .normalized()
                    .isApprox(expected.axes_a.col(a), 1e-12));
  EXPECT_NEAR(std::abs(s.arrows[2].to.x() - s.arrows[2].from.x()), 0.2, 1e-12)
      << "z_a is the hinge axis x, 0.1 x scene size";
  // J_b's three axes, the hinge axis line, one link (the world has no centre); the error
  // segment only if the two origins are apart.
  const bool apart = (expected.origin_b - expected.origin_a).norm() > 1e-9;
  EXPECT_EQ(s.segments.size(), 3u + 1u + 1u + (apart ? 1u : 0u));
  EXPECT_TRUE(s.segments[3].a.isApprox(Vec3(0, 0, 2) - 0.4 * expected.axes_a.col(2), 1e-12));
  EXPECT_TRUE(s.segments[4].a.isApprox(sim.state().bodies[0].position, 1e-12))
      << "rod centre to J_b";
  // The selected joint is drawn yellow.
  ctx.selected_joint = 0;
  Sketch selected;
  overlay("joints")->draw(ctx, selected);
  EXPECT_EQ(selected.markers[0].color, kJointSelected);
}

// Overlays are sized in pixels (screen_sketch.hpp): a marker's corner lies its size in pixels
// from its centre, whatever the zoom; in perspective a pixel grows with the depth.
TEST(ScreenSketch, MarkersKeepTheirPixelSizeAtAnyZoom) {
  OrbitCamera camera;
  camera.target = Vec3::Zero();
  Sketch s;
  s.markers.push_back({Vec3::Zero(), kPrimaryContact, 6.0});
  for (const double distance : {2.0, 20.0})
    for (const bool ortho : {false, true}) {
      camera.distance = distance;
      const PixelScale scale = camera.pixel_scale(500.0, ortho);
      const ColoredVertices v = screen_triangles(s, scale);
      ASSERT_EQ(v.vertex_count(), 2 * 2 * 3) << "outline and fill: two triangles each";
      double reach = 0.0;  // the fill's farthest corner, in pixels
      for (int k = 6; k < 12; ++k)
        reach = std::max(
            reach, Vec3(v.positions[3 * k], v.positions[3 * k + 1], v.positions[3 * k + 2]).norm() /
                       scale.at(Vec3::Zero()));
      EXPECT_NEAR(reach, 6.0, 1e-4) << distance << (ortho ? " ortho" : " perspective");
      EXPECT_NEAR(scale.at(Vec3::Zero()), 2.0 * camera.half_height() / 500.0, 1e-12);
      EXPECT_EQ(v.colors[0], kOutlineColor[0]) << "the outline is drawn first";
    }
}

TEST(ScreenSketch, ArrowsSegmentsAndRingsBecomeOutlinedTriangles) {
  OrbitCamera camera;
  const PixelScale scale = camera.pixel_scale(800.0, false);
  Sketch s;
  s.segments.push_back({Vec3::Zero(), Vec3(1, 0, 0), kAabbIdle});
  ColoredVertices v = screen_triangles(s, scale);
  EXPECT_EQ(v.vertex_count(), 2 * 6);  // a strip: outline and fill
  s.arrows.push_back({Vec3::Zero(), Vec3(0, 0, 1), kNormalColor});
  v = screen_triangles(s, scale);
  EXPECT_EQ(v.vertex_count(), 2 * 6 + 2 * (6 + 3));  // + shaft and head, each outlined
  s.markers.push_back({Vec3(1, 1, 1), kSmTrapFeature, 10.0, true});
  v = screen_triangles(s, scale);
  EXPECT_EQ(v.vertex_count(), 2 * 6 + 2 * 9 + 2 * 4 * 6);  // + a ring: four trapezoids twice
  EXPECT_EQ(v.colors.size(), v.positions.size());
  // An arrow seen end-on becomes a diamond at its tip.
  Sketch end_on;
  end_on.arrows.push_back({camera.eye() + camera.forward(), camera.target, kNormalColor});
  EXPECT_EQ(screen_triangles(end_on, scale).vertex_count(), 2 * 6);
}

// Bodies are outlined along their feature edges only: a cube's 12, a 32-sided cylinder's two
// rims (64) but not its 32 side seams, each just outside the surface.
TEST(MeshData, FeatureEdgesOutlineCornersNotTessellation) {
  const Polytope cube = make_cube(1.0);
  const Sketch c = feature_edges(cube, kOutlineColor);
  EXPECT_EQ(c.segments.size(), 12u);
  for (const Sketch::Segment& g : c.segments)
    EXPECT_GT(g.a.cwiseAbs().maxCoeff(), 0.5) << "outside the faces it lies on";
  EXPECT_EQ(feature_edges(make_cylinder(32, 0.5, 1.0), kOutlineColor).segments.size(), 64u);
}

// Every overlay says what each of its colours marks, and no two of its colours are the same.
TEST(Overlays, EachHasALegendOfDistinctColours) {
  for (const auto& o : standard_overlays()) {
    const std::vector<LegendEntry> legend = o->legend();
    EXPECT_FALSE(legend.empty()) << o->key();
    for (std::size_t i = 0; i < legend.size(); ++i) {
      EXPECT_FALSE(legend[i].meaning.empty()) << o->key();
      for (std::size_t j = i + 1; j < legend.size(); ++j)
        EXPECT_NE(legend[i].color, legend[j].color) << o->key() << " " << legend[i].meaning;
    }
  }
}

}  // namespace
}  // namespace pegsim::gui
