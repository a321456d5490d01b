#include "engine/dynamics/free_rotation.hpp"

#include <Eigen/LU>

namespace pegsim {
namespace {

// Newton converges quadratically from w_b; 2-3 steps reach roundoff even at h|w| = 2.
constexpr int kMaxNewtonSteps = 8;

}  // namespace

Vec3 free_angular_velocity(const Body& body, const BodyState& s, double h, Gyroscopic g) {
  const Mat3 R = s.orientation.toRotationMatrix();
  const Vec3& w = s.angular_velocity;
  if (g == Gyroscopic::Explicit) {
    const Mat3 J = R * body.inertia * R.transpose();
    return w + h * (R * body.inertia.inverse() * R.transpose()) * (s.torque - w.cross(J * w));
  }
  // Body frame: J_b is constant there, so f(x) = J_b (x - w_b) + h (x x J_b x - tau_b) is a
  // quadratic in x alone, with Jacobian J_b + h (skew(x) J_b - skew(J_b x)). Newton from w_b:
  // one step is enough while h|w| is small; at h|w| ~ 1 the first step alone still adds
  // energy (x1.5 per step at h|w| = 2), so iterate to the root, where T and |L| cannot grow.
  const Mat3& Jb = body.inertia;
  const Vec3 wb = R.transpose() * w;
  const Vec3 tau_b = R.transpose() * s.torque;
  Vec3 x = wb;
  for (int k = 0; k < kMaxNewtonSteps; ++k) {
    const Vec3 L = Jb * x;
    const Vec3 f = Jb * (x - wb) + h * (x.cross(L) - tau_b);
    const Vec3 dx = (Jb + h * (skew(x) * Jb - skew(L))).partialPivLu().solve(f);
    x -= dx;
    if (!(dx.norm() > 1e-15 * x.norm())) break;  // converged (or not finite: the step fails)
  }
  return R * x;
}

}  // namespace pegsim
