// The NCP with the quadratic Coulomb cone (ncp.hpp, thesis (2.18)-(2.20)): F and its Jacobian,
// the solvers that take it against hand-solved contacts and against Lemke on LCPs, and the
// solvers that refuse it.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "engine/solvers/ncp_linearized.hpp"
#include "lcp_testing.hpp"

namespace pegsim {
namespace {

const std::vector<std::string> kNcpSolvers{"fischer-newton", "minmap-newton", "fixed-point",
                                           "path"};

// An NCP with every row on [0, inf) and no cone: the LCP (M, q).
Ncp as_ncp(const Lcp& lcp) {
  Ncp ncp;
  ncp.linear = lcp;
  ncp.linear.lower.setZero(lcp.size());
  ncp.linear.upper.setConstant(lcp.size(), INFINITY);
  return ncp;
}

// Contacts of a point mass m on a plane, one 3D block [p_n, p_t, p_o, sigma] each (M = I / m on
// the force rows: the contacts of independent particles), then one linear row (a joint limit's).
Ncp particles(double m, double mu, const std::vector<Vec3>& free_velocity, double limit_q) {
  const int nc = static_cast<int>(free_velocity.size());
  const int n = 4 * nc + 1;
  Lcp lcp;
  lcp.M.setZero(n, n);
  lcp.q.setZero(n);
  Ncp ncp;
  for (int i = 0; i < nc; ++i) {
    for (int k = 0; k < 3; ++k) {
      lcp.M(4 * i + k, 4 * i + k) = 1.0 / m;
      lcp.q(4 * i + k) = free_velocity[i](k);  // (v_n, v_t, v_o) before contact
    }
    ncp.cones.push_back({4 * i, 2, mu});
  }
  lcp.M(n - 1, n - 1) = 2.0;
  lcp.q(n - 1) = limit_q;
  ncp.linear = lcp;
  ncp.linear.lower.setZero(n);
  ncp.linear.upper.setConstant(n, INFINITY);
  for (int i = 0; i < nc; ++i) ncp.linear.lower.segment(4 * i + 1, 2).setConstant(-INFINITY);
  return ncp;
}

VecX solve_with(const std::string& solver, const Ncp& ncp, SolveReport& report,
                double tolerance = 1e-12) {
  SolverOptions options;
  options.tolerance = tolerance;
  options.max_iterations = 100000;
  VecX z;
  report = make_solver(solver)->solve_ncp(ncp, z, options);
  return z;
}

// dF/dz of Ncp::jacobian against central differences of Ncp::evaluate at random points with
// p_n, sigma > 0, on a random symmetric positive definite linear part with a 3D and a 2D cone.
TEST(Ncp, JacobianMatchesFiniteDifferences) {
  std::mt19937 rng(7);
  const Lcp base = test::random_spd(9, rng);
  Ncp ncp = as_ncp(base);
  ncp.cones = {{0, 2, 0.4}, {4, 1, 0.9}};  // rows 0-3 and 4-6; rows 7, 8 linear
  ncp.linear.lower.segment(1, 2).setConstant(-INFINITY);
  ncp.linear.lower(5) = -INFINITY;
  ASSERT_EQ(ncp_defect(ncp), nullptr);
  for (int trial = 0; trial < 5; ++trial) {
    const VecX z = test::uniform(9, 1, rng, 0.1, 1.0);
    VecX w, F, Fp, Fm;
    ncp.evaluate(z, w, F);
    const MatX J = test::ncp_jacobian(ncp, z, w);
    const double eps = 1e-6;
    for (int j = 0; j < 9; ++j) {
      VecX zp = z, zm = z;
      zp(j) += eps;
      zm(j) -= eps;
      ncp.evaluate(zp, w, Fp);
      ncp.evaluate(zm, w, Fm);
      const VecX column = (Fp - Fm) / (2 * eps);
      EXPECT_LE((column - J.col(j)).cwiseAbs().maxCoeff(), 1e-8) << "column " << j;
    }
  }
}

// A point mass pressed on a plane by gravity (v_n = -g h) with a tangential free velocity v_f
// in every direction: p_n = m g h; it sticks with p_t = -m v_f when m |v_f| <= mu p_n, else it
// slides with p_t = -mu p_n v_f / |v_f| and sigma = |v_f| - mu p_n / m, (2.18)-(2.20). The
// exact cone answers the same in every direction.
TEST(Ncp, PointContactSticksOrSlidesInEveryDirection) {
  const double m = 2.0, mu = 0.4, g = 9.81, h = 0.01;
  const double pn = m * g * h, limit = mu * pn / m;  // the largest |v_f| that sticks
  for (const std::string& solver : kNcpSolvers) {
    double worst = 0.0;
    for (int k = 0; k < 12; ++k) {
      const double angle = 2.0 * M_PI * k / 12.0 + 0.1;
      const Vec3 d(0.0, std::cos(angle), std::sin(angle));  // (n, t, o) components
      const std::vector<Vec3> v{Vec3(-g * h, 0, 0) + 0.5 * limit * d,
                                Vec3(-g * h, 0, 0) + 3.0 * limit * d};
      const Ncp ncp = particles(m, mu, v, -0.3);
      SolveReport report;
      const VecX z = solve_with(solver, ncp, report);
      ASSERT_TRUE(report.solved()) << solver << " angle " << angle << ": " << report.message;
      VecX expected(9);
      expected << pn, -m * 0.5 * limit * d.tail<2>(), 0.0,  // sticks
          pn, -mu * pn * d.tail<2>(), 3.0 * limit - limit,  // slides
          0.15;                                             // 2 z - 0.3 = 0
      worst = std::max(worst, (z - expected).cwiseAbs().maxCoeff());
      EXPECT_LE(report.residual, 1e-12 * (1.0 + ncp.linear.q.cwiseAbs().maxCoeff()));
    }
    EXPECT_LE(worst, 1e-10) << solver;
  }
}

// SolverOptions::history off on the NCP: no residual per iteration, the same answer bit for bit.
TEST(Ncp, WithoutHistoryEverySolverAnswersTheSame) {
  const Ncp ncp = particles(2.0, 0.4, {Vec3(-0.1, 0.02, 0.01), Vec3(-0.1, 0.3, -0.2)}, -0.3);
  for (const std::string& solver : kNcpSolvers) {
    SolverOptions options;
    options.tolerance = 1e-12;
    VecX kept, bare;
    const SolveReport with = make_solver(solver)->solve_ncp(ncp, kept, options);
    options.history = false;
    const SolveReport without = make_solver(solver)->solve_ncp(ncp, bare, options);
    ASSERT_TRUE(with.solved()) << solver << ": " << with.message;
    EXPECT_FALSE(with.residual_history.empty()) << solver;
    EXPECT_TRUE(without.residual_history.empty()) << solver;
    EXPECT_EQ(without.status, with.status) << solver;
    EXPECT_EQ(without.iterations, with.iterations) << solver;
    EXPECT_EQ(without.residual, with.residual) << solver;
    EXPECT_EQ(bare, kept) << solver;
  }
}

// The polygonal cone turned (ncp_linearized.hpp, `rotation`): a sliding particle's friction on
// the polygon is the vertex nearest the direction against the slip, -d. Turned so that a vertex
// points along -d (angle a + pi), the polygon's answer is the round cone's, -mu p_n d; unturned,
// with d at 0.3 of a sector (2 pi / 16) from a vertex, it is that vertex: off by the chord
// 2 mu p_n sin(0.3 pi / 16).
TEST(Ncp, TurnedPolygonHasAVertexWhereItIsTurned) {
  const double m = 2.0, mu = 0.4, g = 9.81, h = 0.01;
  const double pn = m * g * h, limit = mu * pn / m;
  const double a = 0.3 * 2.0 * M_PI / 16;
  const Vec3 d(0.0, std::cos(a), std::sin(a));
  const Ncp ncp = particles(m, mu, {Vec3(-g * h, 0, 0) + 3.0 * limit * d}, -0.3);
  for (const double rotation : {0.0, a + M_PI}) {
    LinearizedNcp polygon;
    linearize_ncp(ncp, 16, polygon, rotation);
    // Column 1 is the first direction, d_0 = cos(rotation) t + sin(rotation) o.
    EXPECT_NEAR(polygon.P.coeff(1, 1), std::cos(rotation), 1e-15);
    EXPECT_NEAR(polygon.P.coeff(2, 1), std::sin(rotation), 1e-15);
    const test::Run lemke = test::run("lemke", polygon.lcp);
    ASSERT_TRUE(lemke.report.solved()) << rotation << ": " << test::describe(lemke);
    VecX z;
    ncp_point(ncp, polygon, lemke.z, z);
    const Vec2 friction = z.segment<2>(1), exact = -mu * pn * d.tail<2>();
    const double off = rotation == 0.0 ? 2.0 * mu * pn * std::sin(0.3 * M_PI / 16) : 0.0;
    EXPECT_NEAR((friction - exact).norm(), off, 1e-12) << rotation;
    EXPECT_NEAR(z(0), pn, 1e-12) << rotation;
  }
}

// One contact of a rigid body on a fixed plane, rows [p_n, p_t, p_o, sigma]: the body has unit
// mass and the inertia I / 6 of a unit cube (M^-1 = diag(1, 1, 1, 6, 6, 6)), the contact point
// lies at r from its centre, the plane's normal is `normal`, and nu is the body's twist at the
// step's end without contact. M = W^T M^-1 W and q = W^T nu with W's columns the wrenches
// (d, r x d) of n, t, o, thesis (2.27) with psi = 0, (2.18)-(2.20) on the cone.
Ncp body_contact(const Vec3& normal, const Vec3& r, const VecX& nu, double mu) {
  const Vec3 n = normal.normalized(), t = n.unitOrthogonal(), o = n.cross(t);
  const Vec3 d[3] = {n, t, o};
  MatX W = MatX::Zero(6, 4);  // sigma's column stays zero
  for (int j = 0; j < 3; ++j) {
    W.block<3, 1>(0, j) = d[j];
    W.block<3, 1>(3, j) = r.cross(d[j]);
  }
  VecX inverse_mass(6);
  inverse_mass << 1, 1, 1, 6, 6, 6;
  Ncp ncp;
  ncp.linear.M = W.transpose() * inverse_mass.asDiagonal() * W;
  ncp.linear.q = W.transpose() * nu;
  ncp.linear.lower.setZero(4);
  ncp.linear.lower.segment(1, 2).setConstant(-INFINITY);
  ncp.linear.upper.setConstant(4, INFINITY);
  ncp.cones = {{0, 2, mu}};
  return ncp;
}

// path's fallbacks on the NCP (path_ncp.cpp): a cube's corner-side point driven into a tilted
// plane while it spins, where Fischer–Newton alone stops at a local minimum of its merit
// (residual 5e-2 after 79 steps, both slip pairings), and what follows it in `path` (the
// proximal Newton on Alart–Curnier's equations, before it the fixed-point sweeps) finishes.
// The contact sticks: u = 0 with |p_t| < mu p_n, (2.18)-(2.20) (to the solve's tolerance,
// 1e-10 scaled by 1 + |q|); fixed-point and minmap-newton find the same impulses.
TEST(Ncp, PathFallsBackWhereFischerNewtonStalls) {
  VecX nu(6);
  nu << -0.5, -0.1, -0.8, 0.9, 0.2, 0.7;
  const Ncp ncp = body_contact(Vec3(0.3, 0.2, 1.0), Vec3(-0.1, -1.0, -0.4), nu, 0.9);
  ASSERT_EQ(ncp_defect(ncp), nullptr);
  SolveReport fischer, path, fixed_point, minmap;
  solve_with("fischer-newton", ncp, fischer);
  const VecX z = solve_with("path", ncp, path);
  EXPECT_FALSE(fischer.solved()) << "the premise: Fischer–Newton alone stalls here";
  EXPECT_GT(fischer.residual, 1e-3);
  ASSERT_TRUE(path.solved()) << path.message;
  // path runs the same Fischer–Newton first; what it spends beyond that run's steps are its
  // fallbacks' steps.
  EXPECT_GT(path.iterations, fischer.iterations);
  EXPECT_GT(path.residual_history.size(), fischer.residual_history.size());
  EXPECT_LE(path.residual, 1e-12 * (1.0 + ncp.linear.q.cwiseAbs().maxCoeff()));
  const VecX u = ncp.linear.M * z + ncp.linear.q;
  EXPECT_GT(z(0), 0.1);                                 // loaded,
  EXPECT_NEAR(u(0), 0.0, 1e-10);                        // resting on the plane,
  EXPECT_LE(u.segment(1, 2).norm(), 1e-10);             // sticking,
  EXPECT_LT(z.segment(1, 2).norm(), 0.9 * 0.9 * z(0));  // inside the cone
  EXPECT_LE(z(3), 1e-12);
  for (const auto& [name, report] :
       {std::pair{"fixed-point", &fixed_point}, std::pair{"minmap-newton", &minmap}}) {
    const VecX other = solve_with(name, ncp, *report);
    ASSERT_TRUE(report->solved()) << name << ": " << report->message;
    EXPECT_LE((other.head(3) - z.head(3)).cwiseAbs().maxCoeff(), 1e-9) << name;
  }
}

// The kinks' devices (ncp.hpp): a frictionless cone's tangent rows are F_t = p_t (Jacobian e_t)
// and the slip partner a = sigma - |u_t| has the gradient e_sigma - (u_t / |u_t|)^T M_t, both
// against central differences at random points with u_t != 0.
TEST(Ncp, FrictionlessRowsAndSlipPartnerMatchFiniteDifferences) {
  std::mt19937 rng(5);
  Ncp ncp = as_ncp(test::random_spd(8, rng));
  ncp.cones = {{0, 2, 0.0}, {4, 2, 0.6}};
  for (int row : {1, 2, 5, 6}) ncp.linear.lower(row) = -INFINITY;
  ASSERT_EQ(ncp_defect(ncp), nullptr);
  std::vector<int> cone_of_row;
  slip_rows(ncp, cone_of_row);
  EXPECT_EQ(cone_of_row, (std::vector<int>{-1, -1, -1, 0, -1, -1, -1, 1}));
  for (int trial = 0; trial < 5; ++trial) {
    const VecX z = test::uniform(8, 1, rng, 0.1, 1.0);
    VecX w, F, a, wp, wm, ap, am;
    ncp.evaluate(z, w, F);
    EXPECT_EQ(F.segment(1, 2), z.segment(1, 2));  // mu = 0: F_t = p_t
    const MatX J = test::ncp_jacobian(ncp, z, w);
    complementarity_partners(ncp, z, w, a);
    SparseRowsX m;
    m_by_rows(ncp.linear, m);
    JacobianRows partners;  // rows of da/dz on the slip rows 3 and 7
    ncp_jacobian_pattern(ncp, m, partners);
    for (const FrictionCone& c : ncp.cones) {
      EXPECT_DOUBLE_EQ(a(c.slip()), z(c.slip()) - w.segment(c.normal + 1, 2).norm());
      partners.add(c.slip(), c.slip(), 1.0);
      add_slip_speed_gradient(c, w, -1.0, c.slip(), partners);
    }
    const MatX A(partners.matrix());
    const double eps = 1e-6;
    for (int j = 0; j < 8; ++j) {
      VecX zp = z, zm = z, Fp, Fm;
      zp(j) += eps;
      zm(j) -= eps;
      ncp.evaluate(zp, wp, Fp);
      ncp.evaluate(zm, wm, Fm);
      EXPECT_LE(((Fp - Fm) / (2 * eps) - J.col(j)).cwiseAbs().maxCoeff(), 1e-8) << j;
      complementarity_partners(ncp, zp, wp, ap);
      complementarity_partners(ncp, zm, wm, am);
      for (int s : {3, 7}) EXPECT_NEAR((ap(s) - am(s)) / (2 * eps), A(s, j), 1e-8) << j;
    }
  }
}

// Without cones the NCP is the LCP: the NCP solvers find Lemke's (unique: M is positive definite)
// solution of seeded random problems.
TEST(Ncp, WithoutConesItIsTheLcp) {
  std::mt19937 rng(11);
  for (int n : {4, 9, 16}) {
    const Lcp lcp = test::random_spd(n, rng);
    const test::Run lemke = test::run("lemke", lcp);
    ASSERT_TRUE(lemke.report.solved());
    for (const std::string& solver : kNcpSolvers) {
      SolveReport report;
      const VecX z = solve_with(solver, as_ncp(lcp), report);
      ASSERT_TRUE(report.solved()) << solver << " n = " << n << ": " << report.message;
      EXPECT_LE((z - lemke.z).cwiseAbs().maxCoeff(), 1e-9) << solver << " n = " << n;
      EXPECT_TRUE(test::is_solution(lcp, z)) << solver;
    }
  }
}

// The solvers that take only LCPs refuse the NCP with a status and a message naming those that
// take it; the NCP solvers report a malformed NCP the same way.
TEST(Ncp, LcpSolversRefuseItAndMalformedProblemsAreReported) {
  EXPECT_EQ(ncp_solver_list(), "fixed-point, minmap-newton, fischer-newton, path");
  const Ncp ncp = particles(1.0, 0.5, {Vec3(-0.1, 0.2, 0.0)}, 0.1);
  for (const std::string& name : solver_names()) {
    const auto solver = make_solver(name);
    const bool takes = solver->supports_ncp();
    EXPECT_EQ(takes, name == "fixed-point" || name == "minmap-newton" || name == "fischer-newton" ||
                         name == "path")
        << name;
    SolveReport report;
    const VecX z = solve_with(name, ncp, report);
    EXPECT_EQ(z.size(), ncp.size()) << name;
    if (takes) {
      EXPECT_TRUE(report.solved()) << name << ": " << report.message;
      continue;
    }
    EXPECT_EQ(report.status, SolveStatus::NumericalFailure) << name;
    EXPECT_NE(report.message.find("fischer-newton"), std::string::npos) << report.message;
  }
  Ncp tangent_bounded = ncp;
  tangent_bounded.linear.lower(1) = 0.0;  // p_t must be free
  Ncp nan_q = ncp;
  nan_q.linear.q(0) = NAN;
  for (const Ncp* bad : {&tangent_bounded, &nan_q})
    for (const std::string& name : kNcpSolvers) {
      SolveReport report;
      const VecX z = solve_with(name, *bad, report);
      EXPECT_EQ(report.status, SolveStatus::NumericalFailure) << name;
      EXPECT_FALSE(report.message.empty());
      EXPECT_EQ(z.size(), bad->size());
      EXPECT_TRUE(z.allFinite());
    }
}

}  // namespace
}  // namespace pegsim
