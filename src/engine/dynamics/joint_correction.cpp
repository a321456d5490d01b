#include "engine/dynamics/joint_correction.hpp"

#include <cmath>

namespace pegsim {
namespace {

// M^-1 g for one dynamic body (world-frame inverse inertia R J^-1 R^T, (2.6)).
Vec6 inverse_mass_times(const Body& body, const BodyState& s, const Vec6& g) {
  const Mat3 R = s.orientation.toRotationMatrix();
  Vec6 w;
  w << g.head<3>() * body.inv_mass(), R * body.inertia.inverse() * R.transpose() * g.tail<3>();
  return w;
}

double row_rate(const JointRow& row, const State& state) {
  double v = 0.0;
  const auto twist = [&](int b) {
    Vec6 nu;
    nu << state.bodies[b].velocity, state.bodies[b].angular_velocity;
    return nu;
  };
  if (row.body_a >= 0) v += row.G_a.dot(twist(row.body_a));
  if (row.body_b >= 0) v += row.G_b.dot(twist(row.body_b));
  return v;
}

double violation_norm(const std::vector<JointRow>& rows) {
  double s = 0.0;
  for (const JointRow& r : rows) s += r.violation * r.violation;
  return std::sqrt(s);
}

double rate_norm(const std::vector<JointRow>& rows, const State& state) {
  double s = 0.0;
  for (const JointRow& r : rows) s += row_rate(r, state) * row_rate(r, state);
  return std::sqrt(s);
}

// W G and A = G^T W G of the current rows, factorized (regularized like the step's Schur
// block, so redundant rows keep it defined).
void factorize(const Model& model, const State& state, JointCorrectionWorkspace& w) {
  const int m = static_cast<int>(w.rows.size());
  w.WG_a.resize(m);
  w.WG_b.resize(m);
  for (int r = 0; r < m; ++r) {
    const JointRow& row = w.rows[r];
    w.WG_a[r] = row.body_a < 0 ? Vec6::Zero()
                               : inverse_mass_times(model.bodies[row.body_a],
                                                    state.bodies[row.body_a], row.G_a);
    w.WG_b[r] = row.body_b < 0 ? Vec6::Zero()
                               : inverse_mass_times(model.bodies[row.body_b],
                                                    state.bodies[row.body_b], row.G_b);
  }
  w.A.setZero(m, m);
  for (int r1 = 0; r1 < m; ++r1) {
    const JointRow& a = w.rows[r1];
    for (int r2 = 0; r2 < m; ++r2) {
      const JointRow& b = w.rows[r2];
      double v = 0.0;
      for (int body : {a.body_a, a.body_b}) {
        if (body < 0 || (body == a.body_b && a.body_a == a.body_b)) continue;
        const Vec6& g = body == a.body_a ? a.G_a : a.G_b;
        if (b.body_a == body) v += g.dot(w.WG_a[r2]);
        if (b.body_b == body) v += g.dot(w.WG_b[r2]);
      }
      w.A(r1, r2) = v;
    }
  }
  w.A.diagonal().array() += 1e-12 * (1.0 + w.A.diagonal().maxCoeff());
  w.A_factor.compute(w.A);
}

// nu += M^-1 G p over the rows; with `h` > 0 also q += V M^-1 G p h (the position update of
// (2.36) with the velocity change, exponential map for the orientation).
void apply_impulse(const Model& model, JointCorrectionWorkspace& w, double h, State& state) {
  const int nb = static_cast<int>(model.bodies.size());
  VecX& dv = w.velocity_change;
  dv.setZero(6 * nb);
  for (std::size_t r = 0; r < w.rows.size(); ++r) {
    const JointRow& row = w.rows[r];
    if (row.body_a >= 0) dv.segment<6>(6 * row.body_a) += w.impulse(r) * w.WG_a[r];
    if (row.body_b >= 0) dv.segment<6>(6 * row.body_b) += w.impulse(r) * w.WG_b[r];
  }
  for (int i = 0; i < nb; ++i) {
    if (model.bodies[i].is_static) continue;
    BodyState& s = state.bodies[i];
    const Vec3 dl = dv.segment<3>(6 * i), da = dv.segment<3>(6 * i + 3);
    s.velocity += dl;
    s.angular_velocity += da;
    if (h > 0.0) {
      s.position += h * dl;
      const double angle = da.norm() * h;
      if (angle > 0.0)
        s.orientation = Quat(Eigen::AngleAxisd(angle, da / da.norm())) * s.orientation;
      s.orientation.normalize();
    }
  }
}

}  // namespace

JointCorrectionReport correct_joints(const Model& model, const Settings& settings, State& state,
                                     JointCorrectionWorkspace& w) {
  JointCorrectionReport report;
  const double h = settings.h;
  joint_rows(model, state, w.rows);
  if (w.rows.empty()) return report;
  // Positions: p = -(G^T M^-1 G)^-1 C / h, dnu = M^-1 G p, q += V dnu h, nu += dnu.
  while (violation_norm(w.rows) > settings.joint_position_tolerance &&
         report.position_iterations < kJointCorrectionMaxIterations) {
    factorize(model, state, w);
    w.rhs.resize(static_cast<int>(w.rows.size()));
    for (std::size_t r = 0; r < w.rows.size(); ++r) w.rhs(r) = -w.rows[r].violation / h;
    w.impulse = w.A_factor.solve(w.rhs);
    apply_impulse(model, w, h, state);
    joint_rows(model, state, w.rows);  // recalculate C (and G, a Newton step)
    ++report.position_iterations;
  }
  // Velocities: p = -(G^T M^-1 G)^-1 C', nu += M^-1 G p, at the corrected configuration.
  factorize(model, state, w);
  while (rate_norm(w.rows, state) > settings.joint_velocity_tolerance &&
         report.velocity_iterations < kJointCorrectionMaxIterations) {
    w.rhs.resize(static_cast<int>(w.rows.size()));
    for (std::size_t r = 0; r < w.rows.size(); ++r) w.rhs(r) = -row_rate(w.rows[r], state);
    w.impulse = w.A_factor.solve(w.rhs);
    apply_impulse(model, w, 0.0, state);
    ++report.velocity_iterations;
  }
  report.position_error = violation_norm(w.rows);
  report.velocity_error = rate_norm(w.rows, state);
  return report;
}

JointCorrectionReport joint_violations(const Model& model, const State& state,
                                       std::vector<JointRow>& rows, std::vector<double>& position,
                                       std::vector<double>& velocity) {
  joint_rows(model, state, rows);
  position.assign(model.joints.size(), 0.0);
  velocity.assign(model.joints.size(), 0.0);
  for (const JointRow& r : rows) {
    position[r.joint] += r.violation * r.violation;
    const double v = row_rate(r, state);
    velocity[r.joint] += v * v;
  }
  for (double& x : position) x = std::sqrt(x);
  for (double& x : velocity) x = std::sqrt(x);
  JointCorrectionReport total;
  total.position_error = violation_norm(rows);
  total.velocity_error = rate_norm(rows, state);
  return total;
}

}  // namespace pegsim
