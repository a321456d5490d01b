// Scene files that load: the shipped scenes and the meaning of each field.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <numbers>

#include "engine/core/settings_preset.hpp"
#include "engine/geometry/mass_properties.hpp"
#include "io/scene.hpp"

namespace pegsim {
namespace {

const std::filesystem::path kRoot(PEGSIM_SOURCE_DIR);

Scene parse(const std::string& text) {
  return parse_scene(text, "test.json", kRoot / "resources/meshes");
}

// A scene with one extra body (JSON object text) next to a ground plane.
Scene one_body(const std::string& body) {
  return parse(R"({"bodies": [{"name": "ground", "shape": {"type": "plane"}}, )" + body + "]}");
}

TEST(Scene, EveryShippedSceneLoads) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kRoot / "scenes")) {
    if (entry.path().extension() != ".json") continue;
    SCOPED_TRACE(entry.path().string());
    const Scene s = load_scene(entry.path());
    EXPECT_EQ(s.name, entry.path().stem().string());
    EXPECT_FALSE(s.description.empty());
    EXPECT_EQ(s.model.bodies.size(), s.initial.bodies.size());
    EXPECT_FALSE(s.source.empty());
    ++count;
  }
  EXPECT_GE(count, 8);
}

TEST(Scene, HelloWorldIsAThousandKilogramCubeOverAPlane) {
  const Scene s = load_scene(kRoot / "scenes/hello_world.json");
  ASSERT_EQ(s.model.bodies.size(), 2u);
  const Body& ground = s.model.bodies[0];
  const Body& cube = s.model.bodies[1];
  EXPECT_EQ(ground.shape.kind, ShapeKind::Plane);
  EXPECT_TRUE(ground.is_static);
  EXPECT_EQ(cube.shape.kind, ShapeKind::Polytope);
  EXPECT_FALSE(cube.is_static);
  EXPECT_NEAR(cube.mass, 1000.0, 1e-9);  // 1 m^3 at the default 1000 kg/m^3
  // Cube about its centre: m a^2 / 6 on the diagonal.
  EXPECT_TRUE(cube.inertia.isApprox(Mat3::Identity() * 1000.0 / 6.0, 1e-12));
  EXPECT_GT(s.initial.bodies[1].position.z(), 0.5);
  EXPECT_EQ(s.file, kRoot / "scenes/hello_world.json");
}

TEST(Scene, GivenMassScalesTheGeometricInertia) {
  const Scene s =
      one_body(R"({"name": "b", "shape": {"type": "box", "size": [1, 2, 3]}, "mass": 6})");
  const Body& b = s.model.bodies[1];
  EXPECT_DOUBLE_EQ(b.mass, 6.0);
  // Box: m (ly^2 + lz^2) / 12, ...
  EXPECT_NEAR(b.inertia(0, 0), 6.0 * (4 + 9) / 12.0, 1e-12);
  EXPECT_NEAR(b.inertia(1, 1), 6.0 * (1 + 9) / 12.0, 1e-12);
  EXPECT_NEAR(b.inertia(2, 2), 6.0 * (1 + 4) / 12.0, 1e-12);
}

TEST(Scene, DensityAndSphereMassProperties) {
  const Scene s =
      one_body(R"({"name": "b", "shape": {"type": "sphere", "radius": 0.5}, "density": 2})");
  const Body& b = s.model.bodies[1];
  const double m = 2.0 * 4.0 / 3.0 * std::numbers::pi * 0.125;
  EXPECT_NEAR(b.mass, m, 1e-12);
  EXPECT_NEAR(b.inertia(2, 2), 0.4 * m * 0.25, 1e-12);
}

// Smooth shapes: the tessellation to collide, the surface itself for the implicit formulation,
// and the surface's exact mass properties (not the tessellation's).
TEST(Scene, EllipsoidsAndSuperquadricsCarryTheirSurface) {
  const Scene s = parse_scene(R"({"bodies": [
      {"name": "egg", "shape": {"type": "ellipsoid", "semi_axes": [0.3, 0.2, 0.5]}, "density": 2},
      {"name": "puck", "shape": {"type": "superquadric", "semi_axes": [0.5, 0.5, 0.2],
                                 "exponent": 6, "segments": 16}, "mass": 3}]})",
                              "smooth.json", kRoot);
  const Body& egg = s.model.bodies[0];
  ASSERT_EQ(egg.shape.kind, ShapeKind::Polytope);
  ASSERT_TRUE(egg.shape.smooth);
  EXPECT_EQ(egg.shape.smooth->semi_axes, Vec3(0.3, 0.2, 0.5));
  EXPECT_EQ(egg.shape.smooth->exponent, 2.0);
  EXPECT_EQ(egg.shape.polytope->vertices.size(), 15u * 32u + 2u);  // 32 meridians, 16 bands
  EXPECT_GT(egg.shape.smooth->sagitta, 0.0);
  EXPECT_LT(egg.shape.smooth->sagitta, 0.01 * 0.5);
  const double m = 2.0 * 4.0 / 3.0 * std::numbers::pi * 0.3 * 0.2 * 0.5;
  EXPECT_NEAR(egg.mass, m, 1e-12);
  EXPECT_NEAR(egg.inertia(0, 0), m / 5.0 * (0.04 + 0.25), 1e-12);
  const Body& puck = s.model.bodies[1];
  ASSERT_TRUE(puck.shape.smooth);
  EXPECT_EQ(puck.shape.smooth->exponent, 6.0);
  EXPECT_EQ(puck.shape.polytope->vertices.size(), 7u * 16u + 2u);
  EXPECT_EQ(puck.mass, 3.0);
  for (const std::string bad :
       {R"({"type": "ellipsoid", "semi_axes": [1, 0, 1]})",
        R"({"type": "ellipsoid", "semi_axes": [1, 1, 1], "exponent": 4})",
        R"({"type": "superquadric", "semi_axes": [1, 1, 1]})",
        R"({"type": "superquadric", "semi_axes": [1, 1, 1], "exponent": 1.5})",
        R"({"type": "superquadric", "semi_axes": [1, 1, 1], "exponent": 1000})",
        R"({"type": "ellipsoid", "semi_axes": [1, 1, 1], "segments": 4})"}) {
    try {
      parse_scene(R"({"bodies": [{"name": "b", "shape": )" + bad + "}]}", "bad.json", kRoot);
      ADD_FAILURE() << bad;
    } catch (const SceneError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("bad.json: /bodies/0/shape/", 0), 0u) << e.what();
    }
  }
}

TEST(Scene, GivenInertiaIsKept) {
  const Scene diag = one_body(
      R"({"name": "b", "shape": {"type": "cube", "edge": 1}, "mass": 1, "inertia": [1, 2, 3]})");
  EXPECT_EQ(diag.model.bodies[1].inertia, Vec3(1, 2, 3).asDiagonal().toDenseMatrix());
  const Scene full = one_body(
      R"({"name": "b", "shape": {"type": "cube", "edge": 1}, "inertia": [[2, 0.5, 0], [0.5, 2, 0], [0, 0, 1]]})");
  EXPECT_DOUBLE_EQ(full.model.bodies[1].inertia(0, 1), 0.5);
  EXPECT_DOUBLE_EQ(full.model.bodies[1].mass, 1000.0);
}

TEST(Scene, AxisAngleEqualsTheQuaternion) {
  const double a = 0.7;
  const Vec3 axis = Vec3(1, 2, -2) / 3.0;
  const Scene s =
      parse(R"({"bodies": [
    {"name": "aa", "shape": {"type": "cube", "edge": 1}, "orientation": {"axis": [1, 2, -2], "angle": 0.7}},
    {"name": "q", "shape": {"type": "cube", "edge": 1}, "orientation": [)" +
            std::to_string(std::cos(a / 2)) + ", " + std::to_string(std::sin(a / 2) * axis.x()) +
            ", " + std::to_string(std::sin(a / 2) * axis.y()) + ", " +
            std::to_string(std::sin(a / 2) * axis.z()) + "]}]}");
  const Quat qa = s.initial.bodies[0].orientation;
  const Quat qq = s.initial.bodies[1].orientation;
  EXPECT_NEAR(qa.angularDistance(qq), 0.0, 1e-5);  // to_string keeps 6 decimals
  EXPECT_NEAR(qa.w(), std::cos(a / 2), 1e-12);
  EXPECT_NEAR(qa.vec().dot(axis), std::sin(a / 2), 1e-12);
}

TEST(Scene, QuaternionsAreNormalized) {
  const Scene s = one_body(
      R"({"name": "b", "shape": {"type": "cube", "edge": 1}, "orientation": [2, 0, 0, 2]})");
  const Quat q = s.initial.bodies[1].orientation;
  EXPECT_NEAR(q.norm(), 1.0, 1e-15);
  EXPECT_NEAR(q.w(), std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(q.z(), std::sqrt(0.5), 1e-15);
}

TEST(Scene, PlaneNormalOrientsBodyZ) {
  for (const Vec3& n : {Vec3(-1, 0, 1), Vec3(0, 0, -1), Vec3(0.2, -3, 0.5)}) {
    const Scene s = parse(R"({"bodies": [{"name": "p", "shape": {"type": "plane", "normal": [)" +
                          std::to_string(n.x()) + ", " + std::to_string(n.y()) + ", " +
                          std::to_string(n.z()) + R"(]}, "position": [0, 0, 1]}]})");
    const Vec3 z = s.initial.bodies[0].orientation * Vec3::UnitZ();
    EXPECT_NEAR((z - n.normalized()).norm(), 0.0, 1e-12) << n.transpose();
    EXPECT_TRUE(s.model.bodies[0].is_static);
    EXPECT_DOUBLE_EQ(s.initial.bodies[0].position.z(), 1.0);
  }
}

// Formulation ncp with a solver that takes the NCP and LCP-only fallbacks (skipped at run time).
TEST(Scene, NcpFormulationIsRead) {
  const Scene s = parse(R"({"settings": {"formulation": "ncp", "solver": "fischer-newton",
      "fallbacks": ["lemke", "path"]},
    "bodies": [{"name": "b", "shape": {"type": "sphere", "radius": 1}}]})");
  EXPECT_EQ(s.settings.formulation, Formulation::Ncp);
  EXPECT_EQ(s.settings.solver, "fischer-newton");
  EXPECT_EQ(s.settings.fallbacks, (std::vector<std::string>{"lemke", "path"}));
}

// "preset" sets the solver fields of the named preset; fields written beside it override them.
TEST(Scene, APresetSetsItsFieldsAndExplicitOnesOverrideIt) {
  const Scene s = parse(R"({"settings": {"preset": "interactive", "max_iterations": 40},
    "bodies": [{"name": "b", "shape": {"type": "sphere", "radius": 1}}]})");
  EXPECT_EQ(s.settings.solver, "pgs-contact");
  EXPECT_TRUE(s.settings.fallbacks.empty());
  EXPECT_TRUE(s.settings.iteration_budget);
  EXPECT_EQ(s.settings.max_iterations, 40);
  EXPECT_EQ(s.settings.contacts_per_pair, kInteractiveContactsPerPair);
  const Scene exact = parse(R"({"settings": {"preset": "exact", "iteration_budget": true},
    "bodies": [{"name": "b", "shape": {"type": "sphere", "radius": 1}}]})");
  EXPECT_EQ(exact.settings.solver, "lemke");
  EXPECT_TRUE(exact.settings.iteration_budget);
  EXPECT_FALSE(Settings{}.iteration_budget);
  EXPECT_EQ(exact.settings.contacts_per_pair, 0);
  const Scene six = parse(R"({"settings": {"preset": "interactive", "contacts_per_pair": 6},
    "bodies": [{"name": "b", "shape": {"type": "sphere", "radius": 1}}]})");
  EXPECT_EQ(six.settings.contacts_per_pair, 6);
}

TEST(Scene, SettingsFieldsAreRead) {
  const Scene s = parse(R"({"duration": 2.5, "settings": {
      "h": 0.005, "gravity": [0, -1, -9], "epsilon": 0.02, "eps_theta": -0.3,
      "feasibility_depth": 0.001, "feasibility_angle": 0.2, "friction_directions": 4,
      "formulation": "anitescu-potra", "solver": "pgs", "fallbacks": ["lemke"],
      "tolerance": 1e-8, "max_iterations": 50, "on_failure": "continue", "warm_start": false, "time_budget": 0.05,
      "gyroscopic": "explicit", "primaries": "several", "cone_orientation": "fixed"},
    "bodies": [{"name": "b", "shape": {"type": "sphere", "radius": 1}}]})");
  const Settings& t = s.settings;
  EXPECT_DOUBLE_EQ(s.duration, 2.5);
  EXPECT_DOUBLE_EQ(t.h, 0.005);
  EXPECT_EQ(t.gravity, Vec3(0, -1, -9));
  EXPECT_DOUBLE_EQ(t.epsilon, 0.02);
  EXPECT_DOUBLE_EQ(t.eps_theta, -0.3);
  EXPECT_DOUBLE_EQ(t.feasibility_depth, 0.001);
  EXPECT_DOUBLE_EQ(t.feasibility_angle, 0.2);
  EXPECT_EQ(t.friction_directions, 4);
  EXPECT_EQ(t.formulation, Formulation::AnitescuPotra);
  EXPECT_EQ(t.solver, "pgs");
  EXPECT_EQ(t.fallbacks, std::vector<std::string>{"lemke"});
  EXPECT_DOUBLE_EQ(t.tolerance, 1e-8);
  EXPECT_EQ(t.max_iterations, 50);
  EXPECT_EQ(t.on_failure, FailurePolicy::Continue);
  EXPECT_EQ(t.time_budget, 0.05);
  EXPECT_EQ(Settings{}.time_budget, 0.0);
  EXPECT_FALSE(t.warm_start);
  EXPECT_EQ(t.gyroscopic, Gyroscopic::Explicit);
  EXPECT_EQ(Settings{}.gyroscopic, Gyroscopic::Midpoint);
  EXPECT_EQ(t.cone_orientation, ConeOrientation::Fixed);
  EXPECT_EQ(Settings{}.cone_orientation, ConeOrientation::Motion);
  EXPECT_EQ(t.primaries, Primaries::Several);
  EXPECT_EQ(Settings{}.primaries, Primaries::LargestGap);
  EXPECT_EQ(s.name, "test");  // no "name": the origin's stem
}

TEST(Scene, BodyFieldsAreRead) {
  const Scene s = parse(R"({"bodies": [
    {"name": "a", "shape": {"type": "icosahedron", "radius": 0.3}, "position": [1, 2, 3],
     "velocity": [4, 5, 6], "angular_velocity": [7, 8, 9], "mu": 0.25, "color": "#ff8000",
     "visible": false, "no_collide": ["c"]},
    {"name": "b", "shape": {"type": "cylinder", "radius": 0.2, "height": 1, "sides": 8},
     "static": true, "color": [0, 0.5, 1, 0.25]},
    {"name": "c", "shape": {"type": "hull", "points": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]]}}]})");
  const Body& a = s.model.bodies[0];
  EXPECT_EQ(s.initial.bodies[0].position, Vec3(1, 2, 3));
  EXPECT_EQ(s.initial.bodies[0].velocity, Vec3(4, 5, 6));
  EXPECT_EQ(s.initial.bodies[0].angular_velocity, Vec3(7, 8, 9));
  EXPECT_DOUBLE_EQ(a.mu, 0.25);
  EXPECT_FLOAT_EQ(a.color[0], 1.0f);
  EXPECT_FLOAT_EQ(a.color[1], 128.0f / 255.0f);
  EXPECT_FLOAT_EQ(a.color[2], 0.0f);
  EXPECT_FALSE(a.visible);
  EXPECT_EQ(a.no_collide, std::vector<int>{2});
  EXPECT_FALSE(s.model.may_collide(0, 2));
  const Body& b = s.model.bodies[1];
  EXPECT_TRUE(b.is_static);
  EXPECT_EQ(b.shape.polytope->vertices.size(), 16u);
  EXPECT_FLOAT_EQ(b.color[3], 0.25f);
  EXPECT_DOUBLE_EQ(b.mu, 0.5);  // default
}

// §5.2.4's random polyhedron: the hull of `points` (default 10) random points in +-extent
// (default 0.25 m), re-centred, the same for the same seed.
TEST(Scene, RandomPolyhedraAreSeededHullsRecentred) {
  const Scene s = parse(R"({"bodies": [
    {"name": "a", "shape": {"type": "random_polyhedron", "seed": 5}},
    {"name": "b", "shape": {"type": "random_polyhedron", "seed": 5}},
    {"name": "c", "shape": {"type": "random_polyhedron", "seed": 6, "points": 30, "extent": 1}}]})");
  const Polytope& a = *s.model.bodies[0].shape.polytope;
  EXPECT_EQ(a.vertices, s.model.bodies[1].shape.polytope->vertices);
  EXPECT_LE(a.vertices.size(), 10u);
  EXPECT_LT(polytope_mass_properties(a).centroid.norm(), 1e-12);  // re-centred
  const Polytope& c = *s.model.bodies[2].shape.polytope;
  double reach = 0.0;
  for (const Vec3& v : c.vertices) reach = std::max(reach, v.cwiseAbs().maxCoeff());
  EXPECT_GT(reach, 0.5);  // extent 1: wider than the default box
}

TEST(Scene, HullsAndMeshesAreRecentredOnTheirCentroid) {
  const Scene s = parse(R"({"bodies": [
    {"name": "hull", "shape": {"type": "hull", "points": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]]}},
    {"name": "wedge", "shape": {"type": "mesh", "file": "wedge.poly"}, "mass": 2}]})");
  // Tetrahedron (0,0,0),(1,0,0),(0,1,0),(0,0,1): centroid (1/4, 1/4, 1/4), now at the origin.
  const auto& hull = s.model.bodies[0].shape.polytope->vertices;
  Vec3 lowest = hull[0];
  for (const Vec3& v : hull) lowest = lowest.cwiseMin(v);
  EXPECT_NEAR((lowest - Vec3::Constant(-0.25)).norm(), 0.0, 1e-12);
  // Wedge: right triangle legs 1 (x) and 0.5 (z): centroid x = 1/3, z = 1/6, mid-depth y = 0.
  const auto& wedge = s.model.bodies[1].shape.polytope->vertices;
  Vec3 wlow = wedge[0];
  for (const Vec3& v : wedge) wlow = wlow.cwiseMin(v);
  EXPECT_NEAR((wlow - Vec3(-1.0 / 3.0, -0.5, -1.0 / 6.0)).norm(), 0.0, 1e-12);
  EXPECT_DOUBLE_EQ(s.model.bodies[1].mass, 2.0);
}

}  // namespace
}  // namespace pegsim

namespace pegsim {
namespace {

// Moving bodies without a colour of their own are told apart by a palette; static ones stay
// grey, and a colour given is kept.
TEST(SceneColors, UncolouredMovingBodiesGetDistinctColours) {
  const Scene s = parse_scene(R"({"name": "c", "bodies": [
    {"name": "ground", "shape": {"type": "plane"}, "static": true},
    {"name": "a", "shape": {"type": "cube", "edge": 1}, "position": [0, 0, 1]},
    {"name": "b", "shape": {"type": "cube", "edge": 1}, "position": [0, 0, 3]},
    {"name": "c", "shape": {"type": "cube", "edge": 1}, "position": [0, 0, 5], "color": "#ff0000"},
    {"name": "d", "shape": {"type": "cube", "edge": 1}, "position": [0, 0, 7]}]})",
                              "colors.json", ".");
  const auto& b = s.model.bodies;
  const std::array<float, 4> grey = Body{}.color;
  EXPECT_EQ(b[0].color, grey);
  EXPECT_EQ(b[3].color, (std::array<float, 4>{1.0f, 0.0f, 0.0f, 1.0f}));
  for (int i : {1, 2, 4}) {
    EXPECT_NE(b[i].color, grey) << b[i].name;
    EXPECT_EQ(b[i].color[3], 1.0f);
  }
  EXPECT_NE(b[1].color, b[2].color);
  EXPECT_NE(b[2].color, b[4].color);
  EXPECT_NE(b[1].color, b[4].color);
}

}  // namespace
}  // namespace pegsim

namespace pegsim {
namespace {

// A shell's stiffness and damping: a number is the normal entry alone; a matrix is K or C on
// (n, t, o) (seed 001 (37)), the same along every tangent unless a friction ellipse fixes t.
TEST(SceneShells, ShellMatricesAreReadOnTheContactFrame) {
  const Scene s = parse_scene(R"({"bodies": [
    {"name": "ground", "shape": {"type": "plane"}, "static": true,
     "shell": {"stiffness": 1000, "damping": 4, "max_deflection": 0.01}},
    {"name": "pad", "shape": {"type": "sphere", "radius": 0.5}, "position": [0, 0, 1],
     "shell": {"stiffness": [[1000, 0, 0], [0, 300, 20], [0, -20, 300]],
               "damping": [[5, 0, 0], [0, 1, 0], [0, 0, 1]]}},
    {"name": "skid", "shape": {"type": "sphere", "radius": 0.5}, "position": [2, 0, 1],
     "friction_ellipse": {"axis": [1, 0, 0], "e_o": 0.5},
     "shell": {"stiffness": [[1000, 100, 0], [100, 400, 0], [0, 0, 200]]}}]})",
                              "shells.json", ".");
  const auto& b = s.model.bodies;
  EXPECT_EQ(b[0].shell.stiffness, Mat3(Vec3(1000.0, 0.0, 0.0).asDiagonal()));
  EXPECT_EQ(b[0].shell.damping, Mat3(Vec3(4.0, 0.0, 0.0).asDiagonal()));
  EXPECT_EQ(b[0].shell.max_deflection, 0.01);
  EXPECT_FALSE(b[0].shell.tangential());
  EXPECT_TRUE(b[1].shell.tangential());
  EXPECT_EQ(b[1].shell.stiffness(1, 2), 20.0);
  EXPECT_EQ(b[1].shell.stiffness(2, 1), -20.0);
  EXPECT_EQ(b[1].shell.damping(2, 2), 1.0);
  EXPECT_EQ(b[2].shell.stiffness(0, 1), 100.0);
  EXPECT_EQ(b[2].shell.damping, Mat3::Zero());
}

}  // namespace
}  // namespace pegsim
