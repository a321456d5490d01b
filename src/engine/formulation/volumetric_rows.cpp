#include "engine/formulation/volumetric_rows.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>

namespace pegsim {
namespace {

void add_row(int a, int b, const Vec3& axis, double damping, std::vector<JointRow>& rows) {
  if (!(damping > 0.0) || (a < 0 && b < 0)) return;
  JointRow row;
  row.body_a = a;
  row.body_b = b;
  row.G_a << Vec3::Zero(), axis;  // G^T nu = axis . (omega_A - omega_B)
  row.G_b << Vec3::Zero(), -axis;
  row.damping = damping;
  rows.push_back(row);
}

}  // namespace

void volumetric_damper_rows(const Model& model, const std::vector<Contact>& contacts,
                            const std::vector<int>& enforced, double h,
                            std::vector<JointRow>& rows) {
  const bool planar = model.planar();
  for (int i : enforced) {
    const Contact& c = contacts[std::size_t(i)];
    if (!(c.stiffness > 0.0)) continue;
    const int a = dynamic_index(model, c.body_a), b = dynamic_index(model, c.body_b);
    const Mat3 C = c.stiffness * (h * c.tilt + c.damping * c.volume_inertia);
    if (planar) {
      add_row(a, b, Vec3::UnitZ(), C(2, 2), rows);
      continue;
    }
    const Vec3 t1 = any_perpendicular(c.normal), t2 = c.normal.cross(t1);
    Eigen::Matrix<double, 3, 2> T;
    T << t1, t2;
    const Eigen::Matrix2d across = T.transpose() * C * T;
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> principal(0.5 *
                                                                   (across + across.transpose()));
    for (int k = 0; k < 2; ++k)
      add_row(a, b, T * principal.eigenvectors().col(k), principal.eigenvalues()(k), rows);
    if (c.spin_speed > 0.0) {
      const double mu = pair_friction(model.bodies[c.body_a], model.bodies[c.body_b]);
      const double polar = c.normal.dot(c.volume_inertia * c.normal);  // J_n, m^5
      add_row(a, b, c.normal, mu * c.stiffness * polar / c.spin_speed, rows);
    }
  }
}

}  // namespace pegsim
