// Small parts of the application: command line, camera, live history, kinetic energy,
// the display check.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include <cmath>
#include <cstdlib>
#include <numbers>

#include "gui/app/command_line.hpp"
#include "gui/app/display_check.hpp"
#include "gui/render/mesh_data.hpp"
#include "gui/render/orbit_camera.hpp"
#include "gui/render/texture_material.hpp"
#include "gui/sim/frame_source.hpp"
#include "gui/ui/inspector_panel.hpp"
#include "io/scene.hpp"
#include "qt_app.hpp"

namespace pegsim::gui {
namespace {

// A model file's texture: Qt decodes its bytes (PNG here; nothing from bytes that are no
// image, and the part is then drawn in its colour), and a textured part hands the renderer one
// (u, v) per vertex.
TEST(TextureMaterial, ImagesDecodeAndTexturedPartsCarryTheirCoordinates) {
  std::ifstream png(std::filesystem::path(PEGSIM_SOURCE_DIR) /
                        "tests/data/robots/urdf_tutorial/meshes/l_finger_color.png",
                    std::ios::binary);
  auto texture = std::make_shared<VisualTexture>();
  texture->name = "l_finger_color.png";
  texture->encoded.assign(std::istreambuf_iterator<char>(png), {});
  const QImage image = decode_texture(*texture);
  EXPECT_EQ(image.width(), 1024);
  EXPECT_EQ(image.height(), 1024);
  EXPECT_TRUE(decode_texture(VisualTexture{"junk", {1, 2, 3, 4}}).isNull());

  VisualMesh::Part part;
  part.corners = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
  part.normals.assign(3, Vec3::UnitZ());
  EXPECT_TRUE(flat_mesh(part).uv.empty());
  part.texture = texture;
  part.uv = {Vec2(0, 0), Vec2(1, 0), Vec2(0, 1)};
  EXPECT_EQ(flat_mesh(part).uv, (std::vector<float>{0, 0, 1, 0, 0, 1}));
}

const QStringList kKeys{"contacts", "normals", "impulses", "aabbs", "frames"};

TEST(CommandLine, ParsesFileStepsOverlaysAndScreenshot) {
  const CommandLine c = parse_command_line({"scene.json", "--steps", "40", "--overlays",
                                            "contacts,aabbs", "--screenshot=out.png", "--quit"},
                                           kKeys);
  ASSERT_TRUE(c.error.isEmpty()) << c.error.toStdString();
  EXPECT_EQ(c.file, "scene.json");
  EXPECT_EQ(c.steps, 40);
  EXPECT_FALSE(c.frame);
  EXPECT_EQ(*c.overlays, (QStringList{"contacts", "aabbs"}));
  EXPECT_EQ(c.screenshot, "out.png");
  EXPECT_TRUE(c.quit);
  EXPECT_EQ(
      parse_command_line({"run.h5", "--frame", "7", "--overlays", "none"}, kKeys).overlays->size(),
      0);
  const CommandLine p = parse_command_line({"--plots", "--select", "ball"}, kKeys);
  EXPECT_TRUE(p.plots);
  EXPECT_EQ(p.select, "ball");
  EXPECT_FALSE(p.benchmark);
  EXPECT_TRUE(parse_command_line({"--benchmark"}, kKeys).benchmark);
  EXPECT_EQ(parse_command_line({"r.urdf", "--package-path", "/a:/b"}, kKeys).package_path, "/a:/b");
  EXPECT_EQ(parse_command_line({"a.h5", "--compare", "b.h5"}, kKeys).compare, "b.h5");
  EXPECT_TRUE(
      parse_command_line({"a.h5", "--compare", "b.h5", "--side-by-side"}, kKeys).side_by_side);
  // A contact model: a scene runs under it too, a run file is re-simulated under it.
  EXPECT_EQ(parse_command_line({"a.json", "--compare", "peg"}, kKeys).compare, "peg");
  const CommandLine resim = parse_command_line({"a.h5", "--compare=lnc", "--side-by-side"}, kKeys);
  EXPECT_TRUE(resim.error.isEmpty()) << resim.error.toStdString();
  EXPECT_EQ(resim.compare, "lnc");
  EXPECT_EQ(parse_command_line({"a.json", "--preset", "interactive"}, kKeys).preset, "interactive");
}

TEST(CommandLine, RejectsBadInputWithAReason) {
  auto error = [](const QStringList& a) {
    return parse_command_line(a, kKeys).error.toStdString();
  };
  EXPECT_NE(error({"--steps", "-3"}).find("--steps"), std::string::npos);
  EXPECT_NE(error({"--steps", "3", "--frame", "2"}).find("exclude"), std::string::npos);
  EXPECT_NE(error({"--overlays", "contacts,bogus"}).find("bogus"), std::string::npos);
  EXPECT_NE(error({"--quit"}).find("--screenshot"), std::string::npos);
  EXPECT_NE(error({"a.json", "b.json"}).find("one file"), std::string::npos);
  EXPECT_NE(error({"--wat"}).find("--wat"), std::string::npos);
  EXPECT_NE(error({"--select"}).find("body or joint name"), std::string::npos);
  EXPECT_NE(error({"--package-path"}).find("--package-path: expected folders"), std::string::npos);
  EXPECT_NE(error({"--benchmark", "a.json"}).find("--benchmark takes no file"), std::string::npos);
  EXPECT_NE(error({"a.json", "--compare", "b.h5"}).find("open a run file"), std::string::npos);
  EXPECT_NE(error({"a.h5", "--compare"}).find("--compare: expected"), std::string::npos);
  EXPECT_NE(error({"a.h5", "--compare", "pegg"})
                .find("neither a run file (.h5) nor a contact "
                      "model (sm, lnc, peg, corrective, volumetric)"),
            std::string::npos);
  EXPECT_NE(error({"a.h5", "--side-by-side"}).find("needs --compare"), std::string::npos);
  EXPECT_NE(error({"a.json", "--preset", "fast"}).find("not a preset (exact, interactive)"),
            std::string::npos);
  EXPECT_NE(error({"a.h5", "--preset", "exact"}).find("a run file replays its own"),
            std::string::npos);
  EXPECT_TRUE(parse_command_line({}, kKeys).error.isEmpty());
}

TEST(DisplayCheck, NoDisplayGivesAMessageUnlessThePlatformIsHeadless) {
  const char* saved[3] = {std::getenv("DISPLAY"), std::getenv("WAYLAND_DISPLAY"),
                          std::getenv("QT_QPA_PLATFORM")};
  const std::string keep[3] = {saved[0] ? saved[0] : "", saved[1] ? saved[1] : "",
                               saved[2] ? saved[2] : ""};
  unsetenv("DISPLAY");
  unsetenv("WAYLAND_DISPLAY");
  unsetenv("QT_QPA_PLATFORM");
  char prog[] = "pegsim", opt[] = "-platform", off[] = "offscreen";
  char* plain[] = {prog, nullptr};
  char* headless[] = {prog, opt, off, nullptr};
  EXPECT_NE(missing_display_message(1, plain).indexOf("pegsim-cli"), -1);
  EXPECT_TRUE(missing_display_message(3, headless).isEmpty());
  setenv("DISPLAY", ":99", 1);
  EXPECT_TRUE(missing_display_message(1, plain).isEmpty());
  const char* names[3] = {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"};
  for (int i = 0; i < 3; ++i) {
    if (saved[i])
      setenv(names[i], keep[i].c_str(), 1);
    else
      unsetenv(names[i]);
  }
}

TEST(OrbitCamera, PresetsLookAlongTheExpectedAxes) {
  OrbitCamera c;
  c.preset(ViewPreset::Front);
  EXPECT_TRUE(c.forward().isApprox(Vec3(0, 1, 0), 1e-9));
  c.preset(ViewPreset::Side);
  EXPECT_TRUE(c.forward().isApprox(Vec3(-1, 0, 0), 1e-9));
  c.preset(ViewPreset::Top);
  EXPECT_LT(c.forward().z(), -0.9999);
  c.preset(ViewPreset::Iso);
  EXPECT_TRUE(c.forward().isApprox(-Vec3(1, -1, 1).normalized(), 1e-9));
  EXPECT_NEAR(c.up().dot(c.forward()), 0.0, 1e-12);
}

TEST(OrbitCamera, FitFramesTheBoxAndOrbitPanZoomMoveAsExpected) {
  OrbitCamera c;
  c.fit(Vec3(-1, -1, 0), Vec3(1, 1, 2));
  EXPECT_TRUE(c.target.isApprox(Vec3(0, 0, 1)));
  // The bounding sphere (radius sqrt 3) fits in the vertical field of view.
  EXPECT_GE(std::asin(std::sqrt(3.0) / c.distance), 0.0);
  EXPECT_LE(std::asin(std::sqrt(3.0) / c.distance), 0.5 * c.fov_degrees * std::numbers::pi / 180.0);
  const double d = c.distance;
  c.zoom(0.5);
  EXPECT_DOUBLE_EQ(c.distance, 0.5 * d);
  c.orbit(0, 10.0);
  EXPECT_LT(c.elevation, 0.5 * std::numbers::pi);  // clamped short of the pole
  const Vec3 before = c.target;
  c.pan(0.1, 0.0);
  EXPECT_NEAR((c.target - before).dot(c.right()), -0.2 * c.half_height(), 1e-12);
}

TEST(OrbitCamera, ProjectIsTheInverseOfTheRayThroughAPixel) {
  OrbitCamera c;
  c.fit(Vec3(-1, -1, 0), Vec3(1, 1, 2));
  c.orbit(0.3, 0.2);
  for (bool ortho : {false, true}) {
    const auto ray = c.ray(0.4, -0.7, 1.6, ortho);
    double x = 0.0, y = 0.0;
    ASSERT_TRUE(c.project(ray.origin + 3.0 * ray.dir, 1.6, ortho, x, y));
    EXPECT_NEAR(x, 0.4, 1e-12);
    EXPECT_NEAR(y, -0.7, 1e-12);
  }
  double x = 0.0, y = 0.0;
  EXPECT_FALSE(c.project(c.eye() - c.forward(), 1.6, false, x, y)) << "behind the eye";
}

// The wheel zooms about the cursor: the point under it stays under it, in 3D and in 2D.
TEST(OrbitCamera, ZoomAboutAPointKeepsThatPointOnScreen) {
  for (const bool planar : {false, true}) {
    OrbitCamera c;
    c.planar = planar;
    c.fit(Vec3(-1, -1, 0), Vec3(1, 1, 2), 1.6);
    for (const bool ortho : {false, true}) {
      const OrbitCamera::Ray ray = c.ray(0.5, -0.3, 1.6, ortho);
      const Vec3 q = ray.origin + ray.dir * ((c.target - ray.origin).dot(c.forward()) /
                                             ray.dir.dot(c.forward()));
      OrbitCamera zoomed = c;
      zoomed.zoom_about(0.5, ray);
      EXPECT_NEAR(zoomed.distance, 0.5 * c.distance, 1e-12);
      double x = 0.0, y = 0.0;
      ASSERT_TRUE(zoomed.project(q, 1.6, ortho, x, y));
      EXPECT_NEAR(x, 0.5, 1e-9) << planar << ortho;
      EXPECT_NEAR(y, -0.3, 1e-9) << planar << ortho;
    }
  }
}

// Following moving bodies centres them and widens the view when they spread, never narrows.
TEST(OrbitCamera, FollowCentresTheBoxAndOnlyBacksAway) {
  OrbitCamera c;
  c.fit(Vec3(-1, -1, 0), Vec3(1, 1, 2));
  const double d = c.distance;
  c.follow(Vec3(4, 0, 0), Vec3(4.2, 0.2, 0.2));
  EXPECT_TRUE(c.target.isApprox(Vec3(4.1, 0.1, 0.1)));
  EXPECT_DOUBLE_EQ(c.distance, d) << "a small box does not pull the camera in";
  c.follow(Vec3(-10, -10, 0), Vec3(10, 10, 2));
  EXPECT_GT(c.distance, 2.0 * d);
}

TEST(LiveHistory, KeepsTheLastCapacityFrames) {
  LiveHistory h(3);
  for (int k = 0; k < 5; ++k) {
    auto f = std::make_shared<FrameSnapshot>();
    f->step = k;
    h.append(f);
  }
  ASSERT_EQ(h.count(), 3);
  EXPECT_EQ(h.frame(0)->step, 2);
  EXPECT_EQ(h.frame(2)->step, 4);
  h.set_capacity(1);
  ASSERT_EQ(h.count(), 1);
  EXPECT_EQ(h.frame(0)->step, 4);
}

// A model file's part is drawn as the file gives it: its corners in order, each with its normal.
TEST(FlatMesh, AModelFilesPartKeepsItsCornersAndNormals) {
  const Scene s = parse_scene(
      R"({"bodies": [{"name": "l", "shape": {"type": "mesh", "file": "l_two_objects.obj"}}]})",
      "l.json", std::filesystem::path(PEGSIM_SOURCE_DIR) / "tests" / "io" / "data" / "meshes");
  const VisualMesh::Part& part = s.model.bodies[0].visual->parts.at(1);
  const FlatMesh m = flat_mesh(part);
  ASSERT_EQ(m.vertex_count(), int(part.corners.size()));
  for (int i = 0; i < m.vertex_count(); ++i)
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(m.positions[std::size_t(3 * i + k)], float(part.corners[std::size_t(i)][k]));
      EXPECT_EQ(m.normals[std::size_t(3 * i + k)], float(part.normals[std::size_t(i)][k]));
    }
}

TEST(FlatMesh, EveryTriangleCarriesItsOutwardFaceNormal) {
  const Scene s = load_scene(test::scene_path("cascading_polyhedra"));
  const Polytope& cube = *s.model.bodies[1].shape.polytope;
  const FlatMesh m = flat_mesh(cube);
  ASSERT_EQ(m.vertex_count(), 6 * 2 * 3);  // 6 square faces, 2 triangles each
  for (int t = 0; t < m.vertex_count(); t += 3) {
    auto v = [&](int i) {
      return Vec3(m.positions[3 * i], m.positions[3 * i + 1], m.positions[3 * i + 2]);
    };
    const Vec3 n(m.normals[3 * t], m.normals[3 * t + 1], m.normals[3 * t + 2]);
    const Vec3 winding = (v(t + 1) - v(t)).cross(v(t + 2) - v(t)).normalized();
    EXPECT_TRUE(winding.isApprox(n, 1e-6)) << "triangle " << t / 3;
    EXPECT_GT(n.dot(v(t)), 0.0);  // outward: the centre is at the origin
  }
}

TEST(KineticEnergy, TranslationAndRotation) {
  Body b;
  b.mass = 2.0;
  b.inertia = Vec3(1, 2, 3).asDiagonal();
  BodyState s;
  s.velocity = Vec3(3, 0, 0);
  s.angular_velocity = Vec3(0, 0, 2);
  EXPECT_DOUBLE_EQ(kinetic_energy(b, s), 0.5 * 2 * 9 + 0.5 * 3 * 4);
  b.is_static = true;
  EXPECT_EQ(kinetic_energy(b, s), 0.0);
}

}  // namespace
}  // namespace pegsim::gui
