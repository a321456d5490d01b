#include "engine/formulation/free_rotation.hpp"

#include <cmath>

#include <Eigen/LU>

namespace pegsim {
namespace {

// Newton converges quadratically from w_b; 2-4 steps reach roundoff even at h|w| = 2.
constexpr int kMaxNewtonSteps = 8;
// The midpoint rule's damped Newton: 3-5 steps at h |w| <= 1, more where it must damp first.
constexpr int kMaxMidpointSteps = 50;

// exp([phi]x), the rotation by |phi| about phi.
Mat3 rotation(const Vec3& phi) {
  const double angle = phi.norm();
  if (angle == 0.0) return Mat3::Identity();
  return Eigen::AngleAxisd(angle, phi / angle).toRotationMatrix();
}

// The right Jacobian of the exponential map: exp([phi + d]x) = exp([phi]x) exp([J_r d]x) to
// first order in d. J_r = I - (1 - cos a) / a^2 [phi]x + (a - sin a) / a^3 [phi]x^2, a = |phi|.
Mat3 right_jacobian(const Vec3& phi) {
  const double a = phi.norm();
  const Mat3 K = skew(phi);
  if (a < 1e-4)  // the series, to O(a^4)
    return Mat3::Identity() - (0.5 - a * a / 24.0) * K + (1.0 / 6.0 - a * a / 120.0) * K * K;
  return Mat3::Identity() - (1.0 - std::cos(a)) / (a * a) * K +
         (a - std::sin(a)) / (a * a * a) * K * K;
}

// Backward Euler in the body frame: f(x) = J_b (x - w_b) + h (x x J_b x - tau_b), a quadratic
// with Jacobian J_b + h (skew(x) J_b - skew(J_b x)). Newton from w_b: one step is enough while
// h|w| is small; at h|w| ~ 1 the first step alone still adds energy (x1.5 per step at
// h|w| = 2), so iterate to the root, where T and |L| cannot grow.
Vec3 backward_euler(const Mat3& Jb, const Vec3& wb, const Vec3& tau_b, double h) {
  Vec3 x = wb;
  for (int k = 0; k < kMaxNewtonSteps; ++k) {
    const Vec3 L = Jb * x;
    const Vec3 f = Jb * (x - wb) + h * (x.cross(L) - tau_b);
    const Vec3 dx = (Jb + h * (skew(x) * Jb - skew(L))).partialPivLu().solve(f);
    x -= dx;
    if (!(dx.norm() > 1e-15 * x.norm())) break;  // converged (or not finite: the step fails)
  }
  return x;
}

// The midpoint rate w_{1/2} of the midpoint Lie algorithm: the root of
// F(x) = x - J_b^-1 (L + exp(-h [x]x) L) / 2. With d/dx exp(-h [x]x) L = h exp(-h [x]x) [L]x
// J_r(-h x) (from the right Jacobian), F' = I - h/2 J_b^-1 exp(-h [x]x) [L]x J_r(-h x).
// Past h |w| ~ 1 a full Newton step can overshoot to where exp turns the other way: the step
// is halved until |F| falls (Armijo), which reaches the root from w_b at h |w| = 2.
Vec3 midpoint_rate(const Mat3& Jb, const Mat3& Jb_inv, const Vec3& wb, double h) {
  const Vec3 L = Jb * wb;
  const Mat3 Lx = skew(L);
  auto residual = [&](const Vec3& x) -> Vec3 {
    return x - 0.5 * Jb_inv * (L + rotation(-h * x) * L);
  };
  Vec3 x = wb;
  Vec3 F = residual(x);
  for (int k = 0; k < kMaxMidpointSteps && F.norm() > 1e-15 * x.norm(); ++k) {
    const Mat3 dF =
        Mat3::Identity() - 0.5 * h * Jb_inv * rotation(-h * x) * Lx * right_jacobian(-h * x);
    const Vec3 dx = dF.partialPivLu().solve(F);
    if (!dx.allFinite()) break;  // the step fails on the non-finite rate
    double t = 1.0;
    Vec3 next = x - dx, F_next = residual(next);
    while (F_next.norm() > (1.0 - 1e-4 * t) * F.norm() && t > 1e-6) {
      t *= 0.5;
      next = x - t * dx;
      F_next = residual(next);
    }
    x = next;
    F = F_next;
  }
  return x;
}

}  // namespace

FreeRotation free_rotation(const Body& body, const BodyState& s, double h, Gyroscopic g) {
  const Mat3 R = s.orientation.toRotationMatrix();
  const Vec3& w = s.angular_velocity;
  const Mat3& Jb = body.inertia;
  FreeRotation out;
  if (g == Gyroscopic::Explicit) {
    const Mat3 J = R * Jb * R.transpose();
    out.angular_velocity = w + h * (R * Jb.inverse() * R.transpose()) * (s.torque - w.cross(J * w));
    return out;
  }
  const Vec3 wb = R.transpose() * w;
  if (g == Gyroscopic::Implicit) {
    out.angular_velocity = R * backward_euler(Jb, wb, R.transpose() * s.torque, h);
    return out;
  }
  // The end's body frame R' = R exp(h [w_{1/2}]x) carries the body rates to the world.
  const Mat3 Jb_inv = Jb.inverse();
  const Vec3 half = midpoint_rate(Jb, Jb_inv, wb, h);
  const Mat3 R_end = R * rotation(h * half);
  const Vec3 w_gyro = Jb_inv * (rotation(-h * half) * (Jb * wb));  // J_b^-1 L'
  out.angular_velocity = R_end * (w_gyro + h * Jb_inv * (R_end.transpose() * s.torque));
  out.rotation_correction = R * half - R_end * w_gyro;
  return out;
}

}  // namespace pegsim
