// URDF robots (docs/robots.md): the Franka Emika Panda shipped in scenes/robots against its
// URDF's numbers and against Franka's published kinematics; the urdf_tutorial series; package
// URIs; and what pegsim cannot represent, refused or warned about by name.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>

#include "engine/kinematics/joint_rows.hpp"
#include "io/package_uri.hpp"
#include "io/scene.hpp"
#include "io/urdf_file.hpp"

namespace pegsim {
namespace {

namespace fs = std::filesystem;
const fs::path kRobots = fs::path(PEGSIM_SOURCE_DIR) / "scenes/robots";
const fs::path kPanda = kRobots / "panda_description/urdf/panda.urdf";
const fs::path kTutorial = fs::path(PEGSIM_SOURCE_DIR) / "tests/data/robots/urdf_tutorial/urdf";

Scene panda_scene(const std::string& fields) {
  return parse_scene(R"({"robots": [{"file": ")" + kPanda.string() + "\"" + fields + "}]}",
                     "panda.json", kRobots);
}

std::string error_of(const std::string& text, const fs::path& base = kRobots) {
  try {
    parse_scene(text, "robot.json", base);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "no error";
}

fs::path fresh_file(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "pegsim_urdf_tests";
  fs::create_directories(dir);
  std::ofstream(dir / name) << text;
  return dir / name;
}

const Body& body_named(const Scene& s, const std::string& name) {
  const int k = s.model.body_index(name);
  EXPECT_GE(k, 0) << name;
  return s.model.bodies.at(std::size_t(k));
}

// The masses of panda.urdf's <inertial>s: link0 to link7, hand, the two fingers (link8 and the
// TCP carry mass 0). link0 is the fixed base (static); link7 carries link8 and the hand.
constexpr double kLinkMass[] = {0.629769, 4.970684, 0.646926, 3.228604, 3.587895, 1.225946,
                                1.666555, 0.735522, 0.73,     0.015,    0.015};

TEST(UrdfRobot, PandaHasTheUrdfsMassesAndInertias) {
  const Scene s = panda_scene("");
  ASSERT_EQ(s.model.bodies.size(), 10u);  // link0-7 (link8, hand, TCP welded to 7), 2 fingers
  ASSERT_EQ(s.model.joints.size(), 9u);
  double total = 0.0;
  for (const Body& b : s.model.bodies) total += b.mass;
  double urdf_total = 0.0;
  for (double m : kLinkMass) urdf_total += m;
  EXPECT_NEAR(total, urdf_total, 1e-12);
  EXPECT_TRUE(body_named(s, "panda_link0").is_static);
  EXPECT_NEAR(body_named(s, "panda_link7").mass, 0.735522 + 0.73, 1e-15);
  // Every link that is a body of its own keeps its <inertial>'s matrix (rpy 0 throughout, so
  // in the link frame's axes, about the CoM): ixx ixy ixz iyy iyz izz as panda.urdf gives them.
  const struct {
    const char* link;
    double i[6];
  } inertials[] = {{"panda_link1", {0.70337, -0.000139, 0.006772, 0.70661, 0.019169, 0.009117}},
                   {"panda_link2", {0.007962, -0.003925, 0.010254, 0.02811, 0.000704, 0.025995}},
                   {"panda_link3", {0.037242, -0.004761, -0.011396, 0.036155, -0.012805, 0.01083}},
                   {"panda_link4", {0.025853, 0.007796, -0.001332, 0.019552, 0.008641, 0.028323}},
                   {"panda_link5", {0.035549, -0.002117, -0.004037, 0.029474, 0.000229, 0.008627}},
                   {"panda_link6", {0.001964, 0.000109, -0.001158, 0.004354, 0.000341, 0.005433}},
                   {"panda_leftfinger", {2.375e-06, 0, 0, 2.375e-06, 0, 7.5e-07}},
                   {"panda_rightfinger", {2.375e-06, 0, 0, 2.375e-06, 0, 7.5e-07}}};
  for (const auto& e : inertials) {
    const double* i = e.i;
    const Mat3 expected =
        (Mat3() << i[0], i[1], i[2], i[1], i[3], i[4], i[2], i[4], i[5]).finished();
    EXPECT_LE((body_named(s, e.link).inertia - expected).cwiseAbs().maxCoeff(), 1e-15) << e.link;
  }
  // The body sits at the CoM: link1's is (0.003875, 0.002081, -0.04762) in its frame, which at
  // q = 0 is the world frame moved up 0.333 m.
  EXPECT_LE((s.initial.bodies[std::size_t(s.model.body_index("panda_link1"))].position -
             Vec3(0.003875, 0.002081, 0.333 - 0.04762))
                .norm(),
            1e-15);
}

// link7 + link8 + hand: the hand's inertial lies 0.107 m down link7's z (link8) and turned
// -45 degrees about it (panda_hand_joint); the sum about the common CoM by the parallel axes.
TEST(UrdfRobot, WeldedLinksSumTheirInertiasAboutTheCommonCentreOfMass) {
  const UrdfRobot r = read_urdf(kPanda, {});
  const UrdfBody& b = r.bodies[7];
  EXPECT_EQ(b.name, "panda_link7");
  EXPECT_EQ(b.links, (std::vector<std::string>{"panda_link7", "panda_link8", "panda_hand",
                                               "panda_hand_tcp"}));
  const double m7 = 0.735522, mh = 0.73;
  const Vec3 c7(0.010517, -0.004252, 0.061597), ch_local(-0.01, 0, 0.03);
  const Quat turn(Eigen::AngleAxisd(-std::numbers::pi / 4, Vec3::UnitZ()));
  const Vec3 ch = Vec3(0, 0, 0.107) + turn * ch_local;
  const Vec3 c = (m7 * c7 + mh * ch) / (m7 + mh);
  EXPECT_LE((b.com - c).norm(), 1e-15);
  const Mat3 I7 = (Mat3() << 0.012516, -0.000428, -0.001196, -0.000428, 0.010027, -0.000741,
                   -0.001196, -0.000741, 0.004815)
                      .finished();
  const Mat3 Ih = Vec3(0.001, 0.0025, 0.0017).asDiagonal();
  auto shifted = [](double m, const Vec3& d) {
    return Mat3(m * (d.squaredNorm() * Mat3::Identity() - d * d.transpose()));
  };
  const Mat3 R = turn.toRotationMatrix();
  const Mat3 expected = I7 + shifted(m7, c7 - c) + R * Ih * R.transpose() + shifted(mh, ch - c);
  EXPECT_LE((b.inertia - expected).cwiseAbs().maxCoeff(), 1e-15);
}

// Franka's published kinematics (modified Denavit-Hartenberg parameters, Craig's convention):
// the flange (link8) at an arbitrary configuration, from the placed bodies, to 1e-12 m; and
// every joint reports the position it was given, so pegsim's angles turn as URDF's axes do.
TEST(UrdfRobot, PandaFlangeMatchesFrankasDenavitHartenbergKinematics) {
  const double q[7] = {0.3, -0.4, 0.2, -2.0, 0.5, 1.9, -0.7};
  std::string positions;
  for (int k = 0; k < 7; ++k)
    positions += (k ? ", " : "") + std::string("\"panda_joint") + std::to_string(k + 1) +
                 "\": " + std::to_string(q[k]);
  const Scene s = panda_scene(R"(, "joint_positions": {)" + positions + "}");
  struct Row {
    double a, d, alpha;
  };
  const Row dh[8] = {{0, 0.333, 0},
                     {0, 0, -M_PI / 2},
                     {0, 0.316, M_PI / 2},
                     {0.0825, 0, M_PI / 2},
                     {-0.0825, 0.384, -M_PI / 2},
                     {0, 0, M_PI / 2},
                     {0.088, 0, M_PI / 2},
                     {0, 0.107, 0}};
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  for (int k = 0; k < 8; ++k) {
    const double theta = k < 7 ? std::stod(std::to_string(q[k])) : 0.0;
    T = T * Eigen::AngleAxisd(dh[k].alpha, Vec3::UnitX()) * Eigen::Translation3d(dh[k].a, 0, 0) *
        Eigen::AngleAxisd(theta, Vec3::UnitZ()) * Eigen::Translation3d(0, 0, dh[k].d);
  }
  // link7's body: its frame is link7's, its position the CoM (read_urdf's com in that frame).
  const UrdfRobot r = read_urdf(kPanda, {});
  const BodyState& b = s.initial.bodies[std::size_t(s.model.body_index("panda_link7"))];
  const Vec3 link7_origin = b.position - b.orientation * r.bodies[7].com;
  const Vec3 flange = link7_origin + b.orientation * Vec3(0, 0, 0.107);
  EXPECT_LE((flange - T.translation()).norm(), 1e-12);
  // The flange's axes: link8 is link7 moved along z, not turned.
  EXPECT_LE((b.orientation.toRotationMatrix() - T.linear()).cwiseAbs().maxCoeff(), 1e-12);
  for (int k = 0; k < 7; ++k)
    EXPECT_NEAR(joint_coordinates(s.initial, s.model.joints[std::size_t(k)]).angle,
                std::stod(std::to_string(q[k])), 1e-12)
        << k;
}

// Limits as the URDF gives them, also those not about zero (joint4 below it, joint6 beyond pi);
// the fingers' displacement; the joints' damping.
TEST(UrdfRobot, PandaKeepsItsJointLimits) {
  const Scene s = panda_scene("");
  const struct {
    const char* name;
    double lower, upper;
  } revolute[] = {{"panda_joint1", -2.8973, 2.8973}, {"panda_joint2", -1.7628, 1.7628},
                  {"panda_joint3", -2.8973, 2.8973}, {"panda_joint4", -3.0718, -0.0698},
                  {"panda_joint5", -2.8973, 2.8973}, {"panda_joint6", -0.0175, 3.7525},
                  {"panda_joint7", -2.8973, 2.8973}};
  for (const auto& r : revolute) {
    const Joint& j = s.model.joints[std::size_t(s.model.joint_index(r.name))];
    EXPECT_EQ(j.type, JointType::Revolute);
    EXPECT_EQ(j.angle_limit.lower, r.lower) << r.name;
    EXPECT_EQ(j.angle_limit.upper, r.upper) << r.name;
    EXPECT_EQ(j.angular_damping, 0.003) << r.name;
    // Without joint_positions a joint starts at 0, or at the limit nearer to it.
    const double start = std::clamp(0.0, r.lower, r.upper);
    EXPECT_NEAR(joint_coordinates(s.initial, j).angle, start, 1e-12) << r.name;
  }
  const Joint& finger = s.model.joints[std::size_t(s.model.joint_index("panda_finger_joint1"))];
  EXPECT_EQ(finger.type, JointType::Prismatic);
  EXPECT_EQ(finger.displacement_limit.lower, 0.0);
  EXPECT_EQ(finger.displacement_limit.upper, 0.04);
  // The mimic finger moves on its own, and the loader says so by name.
  bool warned = false;
  for (const std::string& w : s.warnings)
    warned |=
        w.find("panda_finger_joint2") != std::string::npos && w.find("mimic") != std::string::npos;
  EXPECT_TRUE(warned);
}

// Each link's collision hull lies where its drawn surface does: the two boxes that bound them
// in the body frame agree to the collision meshes' coarseness (they are simplified visuals).
TEST(UrdfRobot, PandaCollisionGeometryLiesUnderItsVisualSurface) {
  const Scene s = panda_scene(R"(, "joint_positions": {"panda_joint4": -1.5})");
  for (const Body& b : s.model.bodies) {
    ASSERT_TRUE(b.visual) << b.name;
    Eigen::AlignedBox3d drawn, collides;
    for (const auto& part : b.visual->parts)
      for (const Vec3& c : part.corners) drawn.extend(c);
    auto add = [&](const Polytope& p, const Quat& q, const Vec3& t) {
      for (const Vec3& v : p.vertices) collides.extend(q * v + t);
    };
    if (b.shape.kind == ShapeKind::Polytope)
      add(*b.shape.polytope, Quat::Identity(), Vec3::Zero());
    else
      for (const CompoundPart& p : b.shape.compound->parts)
        add(*p.shape.polytope, p.orientation, p.position);
    EXPECT_LE((drawn.min() - collides.min()).cwiseAbs().maxCoeff(), 0.012) << b.name;
    EXPECT_LE((drawn.max() - collides.max()).cwiseAbs().maxCoeff(), 0.012) << b.name;
  }
}

// The tutorial series loads from the plain files (01-07): single links drawn and collided as
// their <visual> shapes, fixed joints welded, a moving robot with inertials (07). Each link
// without <collision> is named in a warning.
TEST(UrdfRobot, TheUrdfTutorialSeriesLoads) {
  const struct {
    const char* file;
    std::size_t bodies, joints;
  } expected[] = {{"01-myfirst.urdf", 1, 0}, {"02-multipleshapes.urdf", 1, 0},
                  {"03-origins.urdf", 1, 0}, {"04-materials.urdf", 1, 0},
                  {"05-visual.urdf", 1, 0},  {"06-flexible.urdf", 9, 8},
                  {"07-physics.urdf", 9, 8}};
  for (const auto& e : expected) {
    const Scene s = load_scene(kTutorial / e.file);
    EXPECT_EQ(s.model.bodies.size(), e.bodies) << e.file;
    EXPECT_EQ(s.model.joints.size(), e.joints) << e.file;
    EXPECT_TRUE(s.model.bodies[0].is_static) << e.file;
    ASSERT_TRUE(s.model.bodies[0].visual) << e.file;
    const bool no_collision = std::string(e.file) < "07";
    bool named = false;
    for (const std::string& w : s.warnings)
      named |= w.find("link 'base_link' has no <collision>") != std::string::npos;
    EXPECT_EQ(named, no_collision) << e.file;
  }
  // 04's materials: base_link's blue cylinder.
  const Scene s = load_scene(kTutorial / "04-materials.urdf");
  const auto& color = s.model.bodies[0].visual->parts[0].color;
  EXPECT_EQ(color[0], 0.0f);
  EXPECT_EQ(color[1], 0.0f);
  EXPECT_EQ(color[2], 0.8f);
  EXPECT_EQ(color[3], 1.0f);
}

// A xacro file, and what URDF has but pegsim does not model, are refused naming the element.
TEST(UrdfRobot, WhatCannotBeRepresentedIsRefusedByName) {
  try {
    load_scene(kTutorial / "08-macroed.urdf.xacro");
    ADD_FAILURE() << "a xacro file loaded";
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("xacro FILE.urdf.xacro > robot.urdf"), std::string::npos)
        << e.what();
  }
  const std::string links = R"(<link name="a"><inertial><mass value="1"/>
      <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
      <collision><geometry><box size="1 1 1"/></geometry></collision></link>
    <link name="b"><inertial><mass value="1"/>
      <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
      <collision><geometry><sphere radius="0.5"/></geometry></collision></link>)";
  for (const char* type : {"planar", "floating"}) {
    const fs::path file =
        fresh_file(std::string(type) + ".urdf",
                   "<robot name=\"r\">" + links + "<joint name=\"slide\" type=\"" + type +
                       "\"><parent link=\"a\"/><child link=\"b\"/></joint></robot>");
    try {
      load_scene(file);
      ADD_FAILURE() << type;
    } catch (const SceneError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(file.string()), std::string::npos) << what;
      EXPECT_NE(what.find(std::string("no ") + type + " joint (joint 'slide')"), std::string::npos)
          << what;
    }
  }
  const fs::path broken = fresh_file("broken.urdf", "<robot name=\"r\"><link name=\"a\">");
  EXPECT_NE(error_of(R"({"robots": [{"file": ")" + broken.string() + "\"}]}")
                .find("broken.urdf: expected a URDF <robot>"),
            std::string::npos);
  const fs::path missing = fresh_file("missing_mesh.urdf",
                                      R"(<robot name="r"><link name="a"><visual><geometry>
         <mesh filename="package://nowhere/meshes/part.stl"/></geometry></visual></link></robot>)");
  const std::string why = error_of(R"({"robots": [{"file": ")" + missing.string() + "\"}]}");
  EXPECT_NE(why.find("link 'a' <visual>: \"package://nowhere/meshes/part.stl\" was not found"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("--package-path"), std::string::npos) << why;
}

// Damaged robot files: each refused with the file and what is wrong, never half read.
TEST(UrdfRobot, DamagedFilesAreRefusedNamingTheElement) {
  const std::string two_links =
      R"(<link name="a"><collision><geometry><box size="1 1 1"/></geometry></collision></link>
         <link name="b"><inertial><mass value="MASS"/>
           <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
           <collision><geometry><sphere radius="0.1"/></geometry></collision></link>)";
  auto robot = [&](const std::string& mass, const std::string& joint) {
    std::string links = two_links;
    links.replace(links.find("MASS"), 4, mass);
    return "<robot name=\"r\">" + links + joint + "</robot>";
  };
  const std::string hinge =
      R"(<joint name="j" type="continuous"><parent link="a"/><child link="b"/>
         <axis xyz="0 0 1"/>ORIGIN</joint>)";
  auto with_origin = [&](const std::string& origin) {
    std::string j = hinge;
    return j.replace(j.find("ORIGIN"), 6, origin);
  };
  const struct {
    const char* name;
    std::string text, expected;
  } cases[] = {
      {"empty.urdf", "", "expected a URDF <robot> (Error document empty.)"},
      {"no_links.urdf", "<robot name=\"r\"/>", "expected a URDF <robot> (No link elements"},
      {"bad_mass.urdf", robot("abc", with_origin("")),
       "expected a URDF <robot> (Could not parse inertial element for Link [b])"},
      {"negative_inertia.urdf",
       robot("1", with_origin("")).replace(robot("1", "").find("ixx=\"1\""), 7, "ixx=\"-1\""),
       "expected a positive definite inertia (link 'b'"},
      {"far.urdf", robot("1", with_origin("<origin xyz=\"1e300 0 0\"/>")),
       "expected a link placed within +-1e9 m of the origin (link 'b'"},
      {"flat_box.urdf",
       R"(<robot name="r"><link name="a"><collision><geometry><box size="-1 1 1"/></geometry>
          </collision></link></robot>)",
       "expected a solid shape (link 'a': box length x must be a positive number)"}};
  for (const auto& c : cases) {
    const fs::path file = fresh_file(c.name, c.text);
    const std::string what = error_of(R"({"robots": [{"file": ")" + file.string() + "\"}]}");
    EXPECT_NE(what.find(c.name), std::string::npos) << what;
    EXPECT_NE(what.find(c.expected), std::string::npos) << c.name << ": " << what;
  }
}

// The scene's robot fields: joint names and positions checked against the robot.
TEST(UrdfRobot, SceneFieldsAreChecked) {
  const std::string panda = R"({"robots": [{"file": ")" + kPanda.string() + "\", ";
  EXPECT_NE(error_of(panda + R"("joint_positions": {"elbow": 1}}]})")
                .find("/robots/0/joint_positions/elbow: expected the name of a moving joint of "
                      "robot 'panda' (panda_joint1,"),
            std::string::npos);
  EXPECT_NE(error_of(panda + R"("joint_positions": {"panda_joint4": 0}}]})")
                .find("/robots/0/joint_positions/panda_joint4: expected a position within the "
                      "joint's limits [-3.071800, -0.069800]"),
            std::string::npos);
  EXPECT_NE(error_of(panda + R"("base": "floating", "gravity_compensation": true}]})")
                .find("/robots/0/gravity_compensation: expected false on a floating base"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"bodies": [{"name": "panda_link3", "shape": {"type": "sphere",
      "radius": 1}}], "robots": [{"file": ")" +
                     kPanda.string() + "\"}]}")
                .find("give the robot a \"name_prefix\""),
            std::string::npos);
  // Two Pandas side by side, told apart by their prefixes; a floating one has no static link.
  const Scene two = parse_scene(panda + R"("name_prefix": "left_"}, {"file": ")" + kPanda.string() +
                                    R"(", "name_prefix": "right_", "base": "floating",
                                    "position": [0, 1, 0]}]})",
                                "two.json", kRobots);
  ASSERT_EQ(two.model.bodies.size(), 20u);
  EXPECT_TRUE(two.model.bodies[std::size_t(two.model.body_index("left_panda_link0"))].is_static);
  EXPECT_FALSE(two.model.bodies[std::size_t(two.model.body_index("right_panda_link0"))].is_static);
  EXPECT_GE(two.model.joint_index("right_panda_joint4"), 0);
  EXPECT_NEAR(
      two.initial.bodies[std::size_t(two.model.body_index("right_panda_link1"))].position.y(),
      1.002081, 1e-12);
}

// package://PACKAGE/PATH: through the folders given, ROS_PACKAGE_PATH, then the robot file's
// own folders; a copy without its enclosing folders is found by the path's tail.
TEST(UrdfRobot, PackageUrisResolveThroughTheSearchPath) {
  const fs::path root = fs::temp_directory_path() / "pegsim_packages";
  fs::remove_all(root);
  fs::create_directories(root / "shelf/my_robot/meshes");
  fs::create_directories(root / "elsewhere/robot/urdf");
  std::ofstream(root / "shelf/my_robot/meshes/arm.stl") << "solid";
  const fs::path urdf = root / "elsewhere/robot/urdf/r.urdf";
  const std::string uri = "package://my_robot/meshes/arm.stl";
  EXPECT_FALSE(resolve_package_uri(uri, urdf, package_search_path({}, urdf)));
  EXPECT_EQ(resolve_package_uri(uri, urdf, package_search_path({root / "shelf"}, urdf)),
            root / "shelf/my_robot/meshes/arm.stl");
  const std::string ros = (root / "nothing").string() + ":" + (root / "shelf").string();
  ::setenv("ROS_PACKAGE_PATH", ros.c_str(), 1);
  EXPECT_EQ(resolve_package_uri(uri, urdf, package_search_path({}, urdf)),
            root / "shelf/my_robot/meshes/arm.stl");
  ::unsetenv("ROS_PACKAGE_PATH");
  // The tail: package://example-robot-data/robots/my_robot/meshes/arm.stl under shelf/.
  EXPECT_EQ(resolve_package_uri("package://example-robot-data/robots/my_robot/meshes/arm.stl", urdf,
                                package_search_path({root / "shelf"}, urdf)),
            root / "shelf/my_robot/meshes/arm.stl");
  // Plain and file:// paths are the robot file's neighbours.
  std::ofstream(root / "elsewhere/robot/urdf/near.stl") << "solid";
  EXPECT_EQ(resolve_package_uri("near.stl", urdf, {}), root / "elsewhere/robot/urdf/near.stl");
  EXPECT_EQ(
      resolve_package_uri("file://" + (root / "shelf/my_robot/meshes/arm.stl").string(), urdf, {}),
      root / "shelf/my_robot/meshes/arm.stl");
  fs::remove_all(root);
}

}  // namespace
}  // namespace pegsim
