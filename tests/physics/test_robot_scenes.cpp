// URDF robots in motion: the Panda's PD hold against the gravity torques its URDF implies (with
// and without gravity compensation), the shipped push scene against invariants, and the
// shipped double pendulum against the small-angle normal modes of its URDF's numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>

#include "engine/dynamics/simulator.hpp"
#include "engine/kinematics/joint_rows.hpp"
#include "io/scene.hpp"
#include "io/urdf_file.hpp"
#include "shipped_scenes.hpp"

namespace pegsim {
namespace {

namespace fs = std::filesystem;
using test::kScenes;

// A pose away from the singular upright one, within every limit.
constexpr double kPose[7] = {0.2, -0.5, 0.1, -2.0, 0.3, 1.5, 0.8};

Scene panda_holding(bool compensated, double kp, double kd) {
  std::string positions, drives;
  for (int k = 0; k < 7; ++k) {
    const std::string joint = "\"panda_joint" + std::to_string(k + 1) + "\"";
    positions += (k ? ", " : "") + joint + ": " + std::to_string(kPose[k]);
    drives += std::string(k ? ", " : "") + R"({"type": "pd", "implicit": true, "joint": )" + joint +
              ", \"kp\": " + std::to_string(kp) + ", \"kd\": " + std::to_string(kd) +
              ", \"target\": " + std::to_string(kPose[k]) + "}";
  }
  for (const char* f : {"panda_finger_joint1", "panda_finger_joint2"})
    drives += std::string(R"(, {"type": "pd", "implicit": true, "joint": ")") + f +
              R"(", "kp": 100, "kd": 2, "target": 0.02})";
  const std::string text =
      R"({"settings": {"h": 0.005}, "robots": [{"file": "robots/panda_description/urdf/panda.urdf",
       "gravity_compensation": )" +
      std::string(compensated ? "true" : "false") + R"(, "joint_positions": {)" + positions +
      R"(, "panda_finger_joint1": 0.02, "panda_finger_joint2": 0.02}}], "controllers": [)" +
      drives + "]}";
  return parse_scene(text, "panda_hold.json", kScenes);
}

// The torque gravity exerts about joint k's axis: the weights of every body beyond it (the
// Panda is a chain, its bodies listed root to tip) about the joint's origin.
double gravity_torque(const Model& model, const State& state, int k, const Vec3& g) {
  const Joint& j = model.joints[std::size_t(k)];
  const JointFrames f = joint_frames(state, j);
  double tau = 0.0;
  for (std::size_t b = std::size_t(j.body_b); b < model.bodies.size(); ++b)
    tau += f.axes_a.col(2).dot(
        (state.bodies[b].position - f.origin_a).cross(model.bodies[b].mass * g));
  return tau;
}

// Without compensation the drives settle where they balance gravity: kp (target - q) + tau_g(q)
// = 0, so each joint sags by tau_g / kp, tau_g summed from the URDF's masses independently of
// the step. With compensation the pose is held exactly.
TEST(RobotScenes, PandaDrivesBalanceTheGravityTorquesOfItsUrdf) {
  const double kp = 5000.0, kd = 400.0;
  for (bool compensated : {false, true}) {
    const Scene scene = panda_holding(compensated, kp, kd);
    Simulator sim(scene.model, scene.initial, scene.settings);
    for (int n = 0; n < 800; ++n) ASSERT_FALSE(sim.step().failed) << n;  // 4 s: settled
    double largest = 0.0;
    for (int k = 0; k < 7; ++k) {
      const double q = joint_coordinates(sim.state(), sim.model().joints[std::size_t(k)]).angle;
      const double tau = gravity_torque(sim.model(), sim.state(), k, scene.settings.gravity);
      largest = std::max(largest, std::abs(tau));
      if (compensated)
        EXPECT_NEAR(q, kPose[k], 1e-9) << k;
      else  // to 1e-5 of the shoulder's 21.6 N m (the joints' rows settle to ~1e-7 m)
        EXPECT_NEAR(kp * (q - kPose[k]), tau, 2e-4) << k;
    }
    if (!compensated) {
      EXPECT_GT(largest, 10.0);  // the check has teeth: the shoulder carries tens of N m
    }
  }
}

// The shipped push: the pose held while the drives hold it, the block pushed 0.2 m along y on
// the table, never sunk into the table or a finger, and the joints kept.
TEST(RobotScenes, PandaPushesTheBlockAlongTheTable) {
  const Scene scene = load_scene(kScenes / "panda_push.json");
  Simulator sim(scene.model, scene.initial, scene.settings);
  const int block = scene.model.body_index("block");
  const Vec3 start = scene.initial.bodies[std::size_t(block)].position;
  std::vector<double> ready;
  for (int k = 0; k < 7; ++k)
    ready.push_back(joint_coordinates(scene.initial, scene.model.joints[std::size_t(k)]).angle);
  const int steps = int(std::lround(scene.duration / scene.settings.h));
  double deepest = 0.0, joint_error = 0.0;
  for (int n = 0; n < steps; ++n) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << n;
    deepest = std::max(deepest, r.max_penetration);
    for (const auto& j : r.joints) joint_error = std::max(joint_error, j.position_error);
    if (n == int(std::lround(0.9 / scene.settings.h)) - 1) {  // the hold: 0 to 1 s
      for (int k = 0; k < 7; ++k)
        EXPECT_NEAR(r.joints[std::size_t(k)].angle, ready[std::size_t(k)], 1e-9) << k;
    }
  }
  const BodyState& b = sim.state().bodies[std::size_t(block)];
  EXPECT_NEAR(b.position.y() - start.y(), 0.2, 0.01);
  EXPECT_NEAR(b.position.x(), start.x(), 0.01);
  EXPECT_NEAR(b.position.z(), 0.03, 1e-6);  // on the table, upright
  EXPECT_NEAR((b.orientation * Vec3::UnitZ()).z(), 1.0, 1e-9);
  EXPECT_LE(deepest, 1e-6);
  EXPECT_LE(joint_error, 1e-4);
}

// The shipped double pendulum, from its URDF's inertials and joint origins: for small angles
// M q'' + K q = 0 with (axis x, positions in the y-z plane, hanging, g = 9.81)
//   M = [I1 + m1 |r1|^2 + I2 + m2 |d + r2|^2,  I2 + m2 (d + r2) . r2;  ..., I2 + m2 |r2|^2],
//   K = -g [m1 r1_z + m2 (d + r2)_z, m2 r2_z; m2 r2_z, m2 r2_z]
// (r_i a link's centre of mass from its joint, d the elbow from the shoulder, in the world at
// rest). Started in each normal mode, the joints swing at its period to 0.1 %.
TEST(RobotScenes, UrdfDoublePendulumSwingsInItsSmallAngleNormalModes) {
  const fs::path file = kScenes /
                        "robots/double_pendulum_description/urdf/"
                        "double_pendulum_continuous.urdf";
  const UrdfRobot robot = read_urdf(file, {});
  ASSERT_EQ(robot.bodies.size(), 3u);
  // Hung upside down (turned pi about x): a vector v of a link frame is (v_x, -v_y, -v_z).
  auto world = [](const Vec3& v) { return Vec3(0.0, -v.y(), -v.z()); };  // in the y-z plane
  const UrdfBody &l1 = robot.bodies[1], &l2 = robot.bodies[2];
  const Vec3 r1 = world(l1.com), r2 = world(l2.com), d = world(robot.joints[1].position);
  const double m1 = l1.mass, m2 = l2.mass, I1 = l1.inertia(0, 0), I2 = l2.inertia(0, 0);
  const double g = 9.81;
  Eigen::Matrix2d M, K;
  M << I1 + m1 * r1.squaredNorm() + I2 + m2 * (d + r2).squaredNorm(), I2 + m2 * (d + r2).dot(r2),
      I2 + m2 * (d + r2).dot(r2), I2 + m2 * r2.squaredNorm();
  K << -g * (m1 * r1.z() + m2 * (d + r2).z()), -g * m2 * r2.z(), -g * m2 * r2.z(), -g * m2 * r2.z();
  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::Matrix2d> modes(K, M);
  ASSERT_EQ(modes.info(), Eigen::Success);
  for (int mode = 0; mode < 2; ++mode) {
    const double omega = std::sqrt(modes.eigenvalues()[mode]);
    Eigen::Vector2d shape = modes.eigenvectors().col(mode);
    shape *= 0.01 / shape.cwiseAbs().maxCoeff();  // 0.01 rad at the larger joint
    const std::string text =
        R"({"settings": {"h": 0.0005}, "robots": [{"file": ")" + file.string() +
        R"(", "orientation": {"axis": [1, 0, 0], "angle": )" + std::to_string(std::numbers::pi) +
        R"(}, "joint_damping": {"joint1": 0, "joint2": 0},
        "joint_positions": {"joint1": )" +
        std::to_string(shape[0]) + R"(, "joint2": )" + std::to_string(shape[1]) + "}}]}";
    const Scene scene = parse_scene(text, "modes.json", kScenes);
    Simulator sim(scene.model, scene.initial, scene.settings);
    const int big = std::abs(shape[0]) >= std::abs(shape[1]) ? 0 : 1;
    // Upward zero crossings of the larger joint, interpolated within the step.
    std::vector<double> crossings;
    double previous = joint_coordinates(sim.state(), sim.model().joints[std::size_t(big)]).angle;
    const double period = 2.0 * std::numbers::pi / omega;
    while (sim.state().time < 5.5 * period) {
      ASSERT_FALSE(sim.step().failed);
      const double q = joint_coordinates(sim.state(), sim.model().joints[std::size_t(big)]).angle;
      if (previous < 0.0 && q >= 0.0)
        crossings.push_back(sim.state().time - scene.settings.h * q / (q - previous));
      previous = q;
    }
    ASSERT_GE(crossings.size(), 4u) << mode;
    const double measured = (crossings.back() - crossings.front()) / double(crossings.size() - 1);
    EXPECT_NEAR(measured / period, 1.0, 1e-3) << "mode " << mode << ": period " << period;
  }
}

}  // namespace
}  // namespace pegsim
