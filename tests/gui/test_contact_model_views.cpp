// What the window shows of the contact models, without a display: SM traps and constraint
// groups drawn from a frame (thesis §4.1-4.2), the inspector's group column, SM traps per
// step for the Plots (Fig. 5.13), and planar (2D) geometry: the camera down the z axis, flat
// shapes and their picking.
#include <gtest/gtest.h>

#include <QTemporaryDir>
#include <fstream>
#include <numbers>

#include "engine/contact_models/sm_traps.hpp"
#include "engine/dynamics/simulator.hpp"
#include "gui/plots/history_plot.hpp"
#include "gui/plots/run_plot_loader.hpp"
#include "gui/render/feature_geometry.hpp"
#include "gui/render/mesh_2d.hpp"
#include "gui/render/orbit_camera.hpp"
#include "gui/render/overlay.hpp"
#include "gui/render/picking.hpp"
#include "gui/ui/inspector_panel.hpp"
#include "io/run_header.hpp"
#include "io/run_writer.hpp"
#include "io/scene.hpp"
#include "qt_app.hpp"

namespace pegsim::gui {
namespace {

std::unique_ptr<Overlay> overlay(const std::string& key) {
  for (auto& o : standard_overlays())
    if (o->key() == key) return std::move(o);
  return nullptr;
}

// Cube a's corner vertex sits just beyond cube b's corner (thesis Fig. 4.1 in 3D): the
// vertex has primary contacts with b's three faces there, an SM trap; cube "sunk" rests in
// the ground. No gravity, so the configuration stays for a few steps.
Scene traps_scene(const QTemporaryDir& dir) {
  const std::string file = dir.filePath("traps.json").toStdString();
  std::ofstream(file) << R"({"name": "traps", "duration": 0.05,
    "settings": {"h": 0.01, "gravity": [0, 0, 0]},
    "bodies": [
      {"name": "ground", "shape": {"type": "plane"}, "position": [0, 0, 0]},
      {"name": "sunk", "shape": {"type": "cube", "edge": 1}, "position": [0, 0, 0.49], "mass": 1},
      {"name": "b", "shape": {"type": "cube", "edge": 1}, "position": [5, 0, 2], "static": true},
      {"name": "a", "shape": {"type": "cube", "edge": 1}, "position": [6.01, 1.01, 3.01], "mass": 1}
    ]})";
  return load_scene(file);
}

struct Stepped {
  Model model;
  FramePtr frame;
  StepReport report;
};
Stepped step_once(const Scene& scene, ContactModel model = ContactModel::Standard) {
  Settings s = scene.settings;
  s.contact_model = model;
  Simulator sim(scene.model, scene.initial, s);
  const StepReport& r = sim.step();
  return {sim.model(), make_snapshot(sim.model(), sim.state(), &r, &sim.settings()), r};
}

TEST(ContactModelOverlays, TheRegistryAddsTheContactModelsOverlaysOnTheirOwnShortcuts) {
  auto all = standard_overlays();
  ASSERT_EQ(all.size(), 9u);
  EXPECT_EQ(all[6]->key(), "traps");
  EXPECT_EQ(all[7]->key(), "groups");
  EXPECT_EQ(all[8]->key(), "volumes");
  EXPECT_EQ(all[6]->shortcut(), "Ctrl+7");
  EXPECT_EQ(all[7]->shortcut(), "Ctrl+8");
  EXPECT_EQ(all[8]->shortcut(), "Ctrl+9");
  EXPECT_FALSE(all[6]->on_by_default());
  EXPECT_FALSE(all[8]->on_by_default());
}

// The trap overlay draws what find_sm_traps found: the trapped vertex of a, b's faces that
// trap it, and each contact's half-space normal (trap_plane_normal) from the facet onto a.
TEST(ContactModelOverlays, SmTrapsDrawTheTrappedVertexItsFacetsAndTheirHalfSpaceNormals) {
  QTemporaryDir dir;
  const Scene scene = traps_scene(dir);
  const Stepped s = step_once(scene);
  const FrameSnapshot& f = *s.frame;
  ASSERT_FALSE(f.sm_traps.empty()) << "a's corner vertex is trapped at b's corner";
  EXPECT_EQ(f.sm_traps.size(), s.report.sm_traps.size());
  EXPECT_EQ(f.sm_trap_contacts, s.report.sm_trap_contacts);
  Sketch sketch;
  overlay("traps")->draw({s.model, f, 4.0, 1.0}, sketch);
  std::size_t facet_markers = 0, facet_segments = 0, contacts = 0;
  std::vector<Vec3> trapped;
  for (const SmTrap& t : f.sm_traps) {
    contacts += std::size_t(t.count);
    const std::vector<Vec3> p = feature_points(s.model.bodies[std::size_t(t.body)],
                                               f.bodies[std::size_t(t.body)], t.feature);
    if (p.size() == 1) trapped.push_back(p[0]);
    for (int k = t.first; k < t.first + t.count; ++k) {
      const Contact& c = s.report.contacts[std::size_t(s.report.sm_trap_contacts[std::size_t(k)])];
      const Feature& facet = c.body_a == t.body ? c.feature_b : c.feature_a;
      const std::size_t n =
          feature_points(s.model.bodies[std::size_t(c.body_a == t.body ? c.body_b : c.body_a)],
                         f.bodies[std::size_t(c.body_a == t.body ? c.body_b : c.body_a)], facet)
              .size();
      facet_markers += n == 1;
      facet_segments += n == 2 ? 1 : n > 2 ? n : 0;
    }
  }
  EXPECT_EQ(sketch.markers.size(), trapped.size() + facet_markers);
  EXPECT_EQ(sketch.segments.size(), facet_segments);
  ASSERT_EQ(sketch.arrows.size(), contacts);
  std::size_t red = 0;
  for (const auto& m : sketch.markers)
    if (m.color == kSmTrapFeature) {
      ++red;
      bool found = false;
      for (const Vec3& v : trapped) found |= v.isApprox(m.at, 1e-12);
      EXPECT_TRUE(found) << "a red marker at a trapped vertex";
    }
  EXPECT_EQ(red, trapped.size());
  // The arrows are the engine's half-space normals, in trap order.
  std::size_t a = 0;
  for (const SmTrap& t : f.sm_traps)
    for (int k = t.first; k < t.first + t.count; ++k, ++a) {
      const Contact& c = s.report.contacts[std::size_t(s.report.sm_trap_contacts[std::size_t(k)])];
      const Vec3 d = (sketch.arrows[a].to - sketch.arrows[a].from).normalized();
      EXPECT_TRUE(d.isApprox(trap_plane_normal(c, t.body), 1e-12)) << "arrow " << a;
    }
  // At least two of them differ: that is what makes it a trap.
  bool differ = false;
  for (std::size_t i = 1; i < sketch.arrows.size(); ++i)
    differ |= (sketch.arrows[i].to - sketch.arrows[i].from)
                  .normalized()
                  .dot((sketch.arrows[0].to - sketch.arrows[0].from).normalized()) < 1.0 - 1e-6;
  EXPECT_TRUE(differ);
}

// PEG on cascading_polyhedra makes I- and X-constraints while the tetrahedron reaches the
// rim (tests/physics/test_peg_scenes.cpp): each group a primary marker in its kind's colour
// and links from it to its other contacts; the inspector names the group of a contact.
TEST(ContactModelOverlays, ConstraintGroupsLinkTheirContactsFromThePrimaryInTheirKindsColour) {
  const Scene scene = load_scene(test::scene_path("cascading_polyhedra"));
  Settings settings = scene.settings;
  settings.contact_model = ContactModel::Peg;
  Simulator sim(scene.model, scene.initial, settings);
  FramePtr frame;
  for (int k = 0; k < 60 && !frame; ++k) {
    const StepReport& r = sim.step();
    bool inter = false;
    for (const ConstraintGroup& g : r.constraints.groups)
      inter |= g.kind == ConstraintKind::InterContact && g.count > 1;
    if (inter) frame = make_snapshot(sim.model(), sim.state(), &r, &sim.settings());
  }
  ASSERT_TRUE(frame) << "an I-constraint within 60 steps";
  const ConstraintSet& set = frame->constraints;
  Sketch sketch;
  overlay("groups")->draw({sim.model(), *frame, 4.0, 1.0}, sketch);
  std::size_t links = 0;
  for (const ConstraintGroup& g : set.groups) links += std::size_t(g.count - 1);
  EXPECT_EQ(sketch.segments.size(), links);
  EXPECT_EQ(sketch.markers.size(), set.members.size());
  std::size_t m = 0;
  for (std::size_t g = 0; g < set.groups.size(); ++g) {
    const ConstraintGroup& group = set.groups[g];
    const Rgb& color = group_color(group.kind);
    const int primary = set.primary(group);
    EXPECT_TRUE(sketch.markers[m].at.isApprox(frame->contacts[std::size_t(primary)].point_a));
    EXPECT_EQ(sketch.markers[m].color, color);
    EXPECT_DOUBLE_EQ(sketch.markers[m].size, kPrimaryMarker) << "the primary is the larger marker";
    for (int k = 1; k < group.count; ++k)
      EXPECT_DOUBLE_EQ(sketch.markers[m + std::size_t(k)].size, kMemberMarker);
    m += std::size_t(group.count);
    const QString text = group_text(*frame, primary);
    const char* kind = group.kind == ConstraintKind::Unilateral     ? "U"
                       : group.kind == ConstraintKind::InterContact ? "I"
                                                                    : "X";
    const QString expected =
        QString("%1 #%2%3").arg(kind).arg(g).arg(group.count > 1 ? " primary" : "");
    EXPECT_TRUE(text.split(", ").contains(expected))
        << text.toStdString() << " lacks " << expected.toStdString();
  }
  EXPECT_NE(kUnilateralGroup, kInterContactGroup);
  EXPECT_NE(kInterContactGroup, kCrossContactGroup);
  EXPECT_NE(kUnilateralGroup, kCrossContactGroup);
  // A contact no model enforces is in no group.
  for (std::size_t i = 0; i < frame->contacts.size(); ++i)
    if (frame->groups_of(int(i)).empty()) {
      EXPECT_EQ(group_text(*frame, int(i)), "—");
    }
}

// Fig. 5.13 plots contacts and SM traps per step: the live history and a run file give the
// Plots the traps the steps found.
TEST(ContactModelPlots, SmTrapsPerStepComeFromTheFramesAndFromTheRunFile) {
  test::qt_app();  // the loader reads on the event loop
  QTemporaryDir dir;
  const Scene scene = traps_scene(dir);
  const std::string run = dir.filePath("traps.h5").toStdString();
  LiveHistory history(100);
  std::vector<double> traps{0.0};
  {
    Simulator sim(scene.model, scene.initial, scene.settings);
    RunWriter writer(run, make_run_header(scene, sim.model(), sim.settings(), "test"), sim.state());
    sim.add_observer(&writer);
    history.append(make_snapshot(sim.model(), sim.state(), nullptr));
    for (int k = 0; k < 5; ++k) {
      const StepReport& r = sim.step();
      history.append(make_snapshot(sim.model(), sim.state(), &r, &sim.settings()));
      traps.push_back(double(r.sm_traps.size()));
    }
    writer.close();
  }
  ASSERT_GT(traps[1], 0.0);
  const PlotData live = plot_history(scene.model, scene.settings.gravity, history, 100);
  ASSERT_EQ(live.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(live.steps[i].sm_traps, traps[i]) << "frame " << i;
  const RunFileSource source(run);
  RunPlotLoader loader(source, scene.settings.gravity, 100);
  ASSERT_TRUE(test::wait_until([&] { return loader.done(); }));
  ASSERT_EQ(loader.data().size(), 6u);
  for (std::size_t i = 0; i < 6; ++i)
    EXPECT_EQ(loader.data().steps[i].sm_traps, traps[i]) << "frame " << i;
  // A bucket of several frames keeps the most traps among them.
  const PlotData two = plot_history(scene.model, scene.settings.gravity, history, 2);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two.steps[0].sm_traps, *std::max_element(traps.begin(), traps.begin() + 3));
}

TEST(PlanarView, TheCameraLooksDownZWithXRightAndYUpAndOnlyPansAndZooms) {
  OrbitCamera c;
  c.planar = true;
  c.fit(Vec3(-2, 0, 0), Vec3(2, 1, 0), 2.0);
  EXPECT_TRUE(c.forward().isApprox(Vec3(0, 0, -1)));
  EXPECT_TRUE(c.right().isApprox(Vec3(1, 0, 0)));
  EXPECT_TRUE(c.up().isApprox(Vec3(0, 1, 0)));
  // 4 m wide in a 2:1 viewport: half the width over the aspect, plus 10 %.
  EXPECT_NEAR(c.half_height(), 1.1, 1e-12);
  double x = 0, y = 0;
  ASSERT_TRUE(c.project(Vec3(2, 1, 0), 2.0, true, x, y));
  EXPECT_NEAR(x, 1.0 / 1.1, 1e-12);
  EXPECT_NEAR(y, 0.5 / 1.1, 1e-12);
  const double azimuth = c.azimuth, elevation = c.elevation;
  c.orbit(0.5, 0.5);
  c.preset(ViewPreset::Iso);
  EXPECT_EQ(c.azimuth, azimuth);
  EXPECT_EQ(c.elevation, elevation);
  EXPECT_TRUE(c.forward().isApprox(Vec3(0, 0, -1))) << "rotation is locked";
  c.pan(0.5, 0.0);
  EXPECT_NEAR(c.target.x(), -1.1, 1e-12) << "dragging right by half the height moves the view left";
}

TEST(PlanarView, FlatShapesAreTheirOutlinesAndPickingHitsInsideOnly) {
  auto square = std::make_shared<Polygon>();
  square->vertices = {Vec2(-1, -1), Vec2(1, -1), Vec2(1, 1), Vec2(-1, 1)};
  square->normals = {Vec2(0, -1), Vec2(1, 0), Vec2(0, 1), Vec2(-1, 0)};
  square->bounding_radius = std::sqrt(2.0);
  Body box;
  box.shape = Shape::convex_polygon(square);
  BodyState s;
  s.position = Vec3(3, 0, 0);
  s.orientation = Quat(Eigen::AngleAxisd(std::numbers::pi / 4, Vec3::UnitZ()));
  const Vec3 down(0, 0, -1);
  // Turned 45 degrees, its corner reaches sqrt 2 along x; a square of half-side 1 does not.
  EXPECT_TRUE(ray_hit(box, s, Vec3(3 + 1.4, 0, 5), down));
  EXPECT_FALSE(ray_hit(box, s, Vec3(3 + 1.0, 1.0, 5), down));
  EXPECT_NEAR(*ray_hit(box, s, Vec3(3, 0, 5), down), 5.0, 1e-12);
  Body disc;
  disc.shape = Shape::circle(0.5);
  EXPECT_TRUE(ray_hit(disc, BodyState{}, Vec3(0.49, 0, 1), down));
  EXPECT_FALSE(ray_hit(disc, BodyState{}, Vec3(0.36, 0.36, 1), down));
  Body ground;
  ground.shape = Shape::half_plane();
  EXPECT_TRUE(ray_hit(ground, BodyState{}, Vec3(100, -0.1, 1), down));
  EXPECT_FALSE(ray_hit(ground, BodyState{}, Vec3(0, 0.1, 1), down));
  // The drawn face: n - 2 triangles of the outline, normal +z, at the given height.
  const FlatMesh face = flat_face(planar_outline(box.shape, 0, 0), -0.01);
  EXPECT_EQ(face.vertex_count(), 6);
  for (int v = 0; v < face.vertex_count(); ++v) {
    EXPECT_FLOAT_EQ(face.positions[std::size_t(3 * v + 2)], -0.01f);
    EXPECT_FLOAT_EQ(face.normals[std::size_t(3 * v + 2)], 1.0f);
  }
  EXPECT_EQ(planar_outline(disc.shape, 0, 0, 48).size(), 48u);
  EXPECT_EQ(
      planar_edges(disc.shape, planar_outline(disc.shape, 0, 0, 48), 0, kAabbIdle).segments.size(),
      49u)
      << "the rim and a spoke";
  const std::vector<Vec2> strip = planar_outline(ground.shape, 50, 2);
  EXPECT_EQ(strip.front(), Vec2(-50, -2));
  EXPECT_EQ(strip.back(), Vec2(-50, 0));
}

}  // namespace
}  // namespace pegsim::gui
