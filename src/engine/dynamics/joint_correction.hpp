// Post-step joint correction, thesis §2.4.2 Algorithm 1: after the step, impulses along the
// joint rows move the positions until the violation C has norm <= eps_p, then change the
// velocities until ||C'|| = ||G^T nu|| <= eps_v. C and G are the rows of joint_rows.hpp (Table
// 2.1 with the violation psi_b of (2.28)); Alg. 1's Tables 2.2/2.3 parameterize the rotation
// rows by points on the axes instead, which gives the same zero set.
#pragma once

#include <Eigen/Cholesky>
#include <vector>

#include "engine/core/model.hpp"
#include "engine/core/settings.hpp"
#include "engine/core/state.hpp"
#include "engine/kinematics/joint_rows.hpp"

namespace pegsim {

struct JointCorrectionReport {
  int position_iterations = 0;
  int velocity_iterations = 0;
  double position_error = 0.0;  // ||C|| after the correction
  double velocity_error = 0.0;  // ||G^T nu|| after the correction
};

// Reused from step to step.
struct JointCorrectionWorkspace {
  std::vector<JointRow> rows;
  std::vector<Vec6> WG_a, WG_b;
  MatX A;
  Eigen::LDLT<MatX> A_factor{MatX()};  // factored when empty: see ContactProblem::joint_A
  VecX rhs, impulse, velocity_change;
};

// Iterations of each loop of Alg. 1 before it gives up (the report says how far it got).
inline constexpr int kJointCorrectionMaxIterations = 25;

// Runs Alg. 1 on `state` (the state at the end of a step).
JointCorrectionReport correct_joints(const Model& model, const Settings& settings, State& state,
                                     JointCorrectionWorkspace& work);

// ||C|| and ||G^T nu|| over the joint rows of `state`, per joint (`position`, `velocity`
// resized to the joint count) and in total (returned in the report's error fields).
JointCorrectionReport joint_violations(const Model& model, const State& state,
                                       std::vector<JointRow>& rows, std::vector<double>& position,
                                       std::vector<double>& velocity);

}  // namespace pegsim
