// Stewart–Trinkle time stepping with a linearized friction cone (thesis §2.3.1, (6.1)/(6.2)).
#include "engine/formulation/stewart_trinkle.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "engine/formulation/free_rotation.hpp"
#include "engine/formulation/friction_basis.hpp"
#include "engine/formulation/joint_damping.hpp"
#include "engine/formulation/joint_drives.hpp"
#include "engine/formulation/volumetric_rows.hpp"

namespace pegsim {
namespace {

// World-frame inverse inertia R J^-1 R^T (thesis (2.6)).
Mat3 world_inverse_inertia(const Body& body, const BodyState& s) {
  const Mat3 R = s.orientation.toRotationMatrix();
  return R * body.inertia.inverse() * R.transpose();
}

// Jacobian column of a unit force along `dir` applied at lever `r` (thesis (2.8), (2.22)).
Vec6 wrench_column(const Vec3& dir, const Vec3& r) {
  Vec6 g;
  g << dir, r.cross(dir);
  return g;
}

// M^-1 g for one body: [g_lin / m; J^-1 g_ang]. A planar body keeps the 6-vector layout but
// has 3 DOF: its inverse mass is zero on v_z, omega_x and omega_y (so nothing moves it out of
// the x-y plane and those components stay exactly 0) and 1 / I_zz on omega_z.
Vec6 apply_inverse_mass(const Body& body, const Mat3& inv_inertia, const Vec6& g) {
  Vec6 w;
  if (body.shape.planar()) {
    w << g(0) * body.inv_mass(), g(1) * body.inv_mass(), 0.0, 0.0, 0.0, g(5) / body.inertia(2, 2);
    return w;
  }
  w << g.head<3>() * body.inv_mass(), inv_inertia * g.tail<3>();
  return w;
}

// The in-plane tangent of a planar contact, z x n: with -t it spans the whole 2D friction
// cone, so the linearized cone (2.21) is exact with n_d = 2.
Vec3 planar_tangent(const Vec3& n) {
  return Vec3(-n.y(), n.x(), 0.0);
}

// Relative size of the diagonal added to A = G_b^T W G_b: redundant joint rows (a closed loop,
// two joints between the same bodies) make A singular, and a compliance this small keeps the
// factorization defined without a visible effect on the motion.
constexpr double kJointRegularization = 1e-12;

// Joint rows, A = G_b^T W G_b (factorized), Y = G_b^T W G_c, and the joints' own impulses
// p_b0 = A^-1 r_b folded into the free velocity (thesis (2.37)-(2.39) with z = 0).
template <typename InverseInertia, typename ColumnsOfBody>
void eliminate_joints(const Model& model, const State& state, double h,
                      const std::vector<Contact>& contacts, InverseInertia& inverse_inertia,
                      const ColumnsOfBody& columns_of_body, ContactProblem& p) {
  joint_rows(model, state, p.joint_rows);
  joint_damping_rows(model, state, p.joint_rows);
  joint_drive_rows(model, state, h, p.joint_rows);
  volumetric_damper_rows(model, contacts, p.contact, h, p.joint_rows);
  const int m = static_cast<int>(p.joint_rows.size());
  p.joint_WG_a.resize(m);
  p.joint_WG_b.resize(m);
  if (m == 0) return;
  for (int r = 0; r < m; ++r) {
    const JointRow& row = p.joint_rows[r];
    p.joint_WG_a[r] = row.body_a < 0 ? Vec6::Zero()
                                     : apply_inverse_mass(model.bodies[row.body_a],
                                                          inverse_inertia(row.body_a), row.G_a);
    p.joint_WG_b[r] = row.body_b < 0 ? Vec6::Zero()
                                     : apply_inverse_mass(model.bodies[row.body_b],
                                                          inverse_inertia(row.body_b), row.G_b);
  }
  // Pairs of rows (and row-column pairs) couple through the dynamic bodies they share.
  auto row_on = [&](const JointRow& row, int body, const Vec6*& g, int r, const Vec6*& wg) {
    if (row.body_a == body) {
      g = &row.G_a;
      wg = &p.joint_WG_a[r];
      return true;
    }
    if (row.body_b == body) {
      g = &row.G_b;
      wg = &p.joint_WG_b[r];
      return true;
    }
    return false;
  };
  MatX& A = p.joint_gram;
  A.setZero(m, m);
  const int ncols = static_cast<int>(p.G_a.size());
  p.joint_Y.setZero(m, ncols);
  for (int r1 = 0; r1 < m; ++r1) {
    const JointRow& row1 = p.joint_rows[r1];
    for (int body : {row1.body_a, row1.body_b}) {
      if (body < 0 || (body == row1.body_b && row1.body_a == row1.body_b)) continue;
      const Vec6 *g1 = nullptr, *wg1 = nullptr;
      row_on(row1, body, g1, r1, wg1);
      for (int r2 = 0; r2 < m; ++r2) {
        const Vec6 *g2 = nullptr, *wg2 = nullptr;
        if (row_on(p.joint_rows[r2], body, g2, r2, wg2)) A(r1, r2) += g1->dot(*wg2);
      }
      for (const auto& [col, end] : columns_of_body[body])
        p.joint_Y(r1, col) += g1->dot(end == 0 ? p.WG_a[col] : p.WG_b[col]);
    }
  }
  A.diagonal().array() += kJointRegularization * (1.0 + A.diagonal().maxCoeff());
  // A damper's or an implicit drive's compliance 1 / (c h) (joint_damping.hpp,
  // joint_drives.hpp).
  for (int k = 0; k < m; ++k)
    if (p.joint_rows[k].damping > 0.0) A(k, k) += 1.0 / (p.joint_rows[k].damping * h);
  p.joint_A.compute(A);

  // r_b = -psi_b / h - G_b^T nu_free (2.28), then nu_free += W G_b A^-1 r_b.
  VecX& r = p.joint_rhs;
  r.resize(m);
  for (int k = 0; k < m; ++k) {
    const JointRow& row = p.joint_rows[k];
    double v = 0.0;
    if (row.body_a >= 0) v += row.G_a.dot(p.free_velocity.segment<6>(6 * row.body_a));
    if (row.body_b >= 0) v += row.G_b.dot(p.free_velocity.segment<6>(6 * row.body_b));
    r(k) = -row.violation / h - v;
  }
  p.joint_impulse = p.joint_A.solve(r);
  for (int k = 0; k < m; ++k) {
    const JointRow& row = p.joint_rows[k];
    const double p0 = p.joint_impulse(k);
    if (row.body_a >= 0) p.free_velocity.segment<6>(6 * row.body_a) += p0 * p.joint_WG_a[k];
    if (row.body_b >= 0) p.free_velocity.segment<6>(6 * row.body_b) += p0 * p.joint_WG_b[k];
  }
}

// The LCP's body form (lcp.hpp): between blocks, M = G^T W G over the shared bodies, exactly
// as accumulated above; not with the joints' Schur complement (it couples through the joints)
// nor for the NCP (its friction rows are not linear).
void set_body_form(ContactProblem& p, int bodies, bool ncp) {
  LcpBodyForm& f = p.lcp.body_form;
  f.clear();
  if (ncp || !p.joint_rows.empty()) return;
  const int n = p.lcp.size();
  f.bodies = bodies;
  f.body_a.assign(n, -1);
  f.body_b.assign(n, -1);
  f.J_a.assign(n, Vec6::Zero());
  f.J_b.assign(n, Vec6::Zero());
  f.WJ_a.assign(n, Vec6::Zero());
  f.WJ_b.assign(n, Vec6::Zero());
  auto set_row = [&](int row, int col, int a, int b) {
    f.body_a[row] = a;
    f.body_b[row] = b;
    if (a >= 0) {
      f.J_a[row] = p.G_a[col];
      f.WJ_a[row] = p.WG_a[col];
    }
    if (b >= 0) {
      f.J_b[row] = p.G_b[col];
      f.WJ_b[row] = p.WG_b[col];
    }
  };
  const int cols_per_contact = 1 + p.directions;
  for (int i = 0; i < p.contacts(); ++i)
    for (int k = 0; k < cols_per_contact; ++k)  // the slip row keeps -1: it moves no body
      set_row(i * p.block_size() + k, i * cols_per_contact + k, p.body_a[i], p.body_b[i]);
  for (int k = 0; k < static_cast<int>(p.limit_rows.size()); ++k)
    set_row(p.limit_row_start() + k, p.limit_column_start() + k, p.limit_rows[k].body_a,
            p.limit_rows[k].body_b);
}

}  // namespace

int tangent_directions(const Model& model, const Settings& settings) {
  if (settings.formulation == Formulation::Ncp) return model.planar() ? 1 : 2;
  return settings.friction_directions;
}

int spin_directions(const Model& model, const Settings& settings) {
  const bool volumetric = settings.contact_model == ContactModel::Volumetric;
  return volumetric && !model.planar() && settings.formulation != Formulation::Ncp ? 2 : 0;
}

void free_velocities(const Model& model, const State& state, const Settings& settings,
                     VecX& free_velocity) {
  const int n = static_cast<int>(model.bodies.size());
  free_velocity.setZero(6 * n);
  const double h = settings.h;
  for (int i = 0; i < n; ++i) {
    const Body& body = model.bodies[i];
    if (body.is_static) continue;
    const BodyState& s = state.bodies[i];
    if (body.shape.planar()) {
      // 3 DOF: the out-of-plane components stay 0; omega x J omega = 0 for omega along the
      // principal axis z of a lamina.
      free_velocity.segment<2>(6 * i) =
          s.velocity.head<2>() +
          h * (settings.gravity.head<2>() + s.force.head<2>() * body.inv_mass());
      free_velocity(6 * i + 5) = s.angular_velocity.z() + h * s.torque.z() / body.inertia(2, 2);
      continue;
    }
    // Newton–Euler (2.7); the gyroscopic term as Settings::gyroscopic says ((2.30): explicit).
    free_velocity.segment<3>(6 * i) =
        s.velocity + h * (settings.gravity + s.force * body.inv_mass());
    free_velocity.segment<3>(6 * i + 3) =
        free_rotation(body, s, h, settings.gyroscopic).angular_velocity;
  }
}

namespace {
// Per body, the runs of its Jacobian columns that lie on consecutive rows of M: a contact's
// 1 + n_d columns (normal and friction), or one joint limit's column; ascending, each with the
// end (0: A, 1: B) it acts on. Two bodies' runs are merged run by run, not column by column.
void column_runs_of_body(const ContactProblem& p, int bodies, ColumnRunsOfBody& out) {
  out.resize(static_cast<std::size_t>(bodies));
  for (auto& runs : out) runs.clear();
  const int cols_per_contact = 1 + p.directions;
  for (int i = 0; i < p.contacts(); ++i) {
    if (p.body_a[i] >= 0) out[p.body_a[i]].push_back({i * cols_per_contact, cols_per_contact, 0});
    if (p.body_b[i] >= 0) out[p.body_b[i]].push_back({i * cols_per_contact, cols_per_contact, 1});
  }
  const int limit_col = p.limit_column_start();
  for (int k = 0; k < static_cast<int>(p.limit_rows.size()); ++k) {
    const LimitRow& row = p.limit_rows[k];
    if (row.body_a >= 0) out[row.body_a].push_back({limit_col + k, 1, 0});
    if (row.body_b >= 0) out[row.body_b].push_back({limit_col + k, 1, 1});
  }
}

// M of (6.1) straight into compressed columns. Column row_of(c2) of a Jacobian column c2 holds,
// for every column c1 sharing a dynamic body with it, g_c1^T W g_c2 summed over the shared
// bodies in ascending body index; with joints, every c1's row, less -Y^T A^-1 Y (the joints'
// share of the effective inverse mass); and the slip row's U or -E^T. A slip column holds E.
// Each entry's terms add in the order of the dense M(r, c) += ... (starting from 0), so M has
// the same bits as a dense assembly would; exact zeros are not stored. columns_of_body and
// p.column_runs list a body's columns ascending, so the rows come out ascending as the two
// bodies' lists are merged. S is lcp.S (joint_schur: with the joints' share) or contact_m
// (without, for the mixed form).
void fill_m(ContactProblem& p,
            const std::vector<std::vector<std::pair<int, char>>>& columns_of_body,
            bool slip_constants, bool joint_schur, SparseMatX& S) {
  const int n = p.lcp.size();
  const int ncols = static_cast<int>(p.G_a.size());
  const int nd = p.directions, block = p.block_size(), cols_per_contact = 1 + nd;
  const int limit_row = p.limit_row_start(), limit_col = p.limit_column_start();
  const bool joints = joint_schur && !p.joint_rows.empty() && ncols > 0;
  S.resize(n, n);  // keeps the storage of the step before
  auto& data = S.data();
  int* outer = S.outerIndexPtr();
  static const std::vector<std::pair<int, char>> none;
  static const std::vector<ColumnRun> no_runs;
  // Room for every entry a column may hold (its bodies' columns, its slip entry; all columns
  // under joints), so that a column's entries are written without a branch and then compacted
  // to the nonzeros: the zero test mispredicts on contact problems, where many products are
  // exactly zero, and testing as each entry is written would chain every entry's store to the
  // previous entry's product.
  std::size_t room =
      static_cast<std::size_t>(n) * static_cast<std::size_t>(joints ? ncols + 1 : nd + 1);
  for (const auto& columns : columns_of_body) room += 2 * columns.size() * columns.size();
  data.resize(static_cast<Eigen::Index>(room));
  double* value = data.valuePtr();
  int* index = data.indexPtr();
  std::size_t size = 0, written = 0;
  auto put = [&](int r, double v) {
    value[written] = v;
    index[written] = r;
    ++written;
  };
  auto keep_nonzeros = [&] {
    for (std::size_t k = size; k < written; ++k) {
      value[size] = value[k];
      index[size] = index[k];
      size += value[k] != 0.0;
    }
    written = size;
  };
  std::vector<int>& row_of = p.column_rows;
  row_of.resize(static_cast<std::size_t>(ncols));
  for (int c = 0; c < ncols; ++c) row_of[static_cast<std::size_t>(c)] = p.row_of_column(c);
  for (int j = 0; j < n; ++j) {
    outer[j] = static_cast<int>(size);
    const int i = j < limit_row ? j / block : -1;  // the contact of a contact block's row
    if (i >= 0 && j - i * block == nd + 1) {       // a slip column: E
      if (slip_constants)
        for (int k = 1; k <= nd; ++k) put(i * block + k, 1.0);
      keep_nonzeros();
      continue;
    }
    const int c2 = i >= 0 ? i * cols_per_contact + (j - i * block) : limit_col + (j - limit_row);
    int b1 = i >= 0 ? p.body_a[i] : p.limit_rows[c2 - limit_col].body_a;
    int b2 = i >= 0 ? p.body_b[i] : p.limit_rows[c2 - limit_col].body_b;
    const Vec6* wg1 = &p.WG_a[c2];
    const Vec6* wg2 = &p.WG_b[c2];
    if (b1 < 0 || (b2 >= 0 && b2 < b1)) {  // the bodies ascending, a static one dropped
      std::swap(b1, b2);
      std::swap(wg1, wg2);
    }
    const auto& L1 = b1 >= 0 ? columns_of_body[b1] : none;
    const auto& L2 = b2 >= 0 ? columns_of_body[b2] : none;
    // The slip row's entry in this column: U (mu) under p_n, -1 under each p_f.
    int slip_row = -1;
    double slip_value = 0.0;
    if (slip_constants && i >= 0) {
      slip_row = i * block + nd + 1;
      slip_value = j == i * block ? p.mu[i] : -1.0;
    }
    std::size_t k1 = 0, k2 = 0;
    // Read once per column (the entries' stores could alias them for the compiler): the normal
    // row's compliance on the diagonal, a bristle's stiffness.
    const int compliant = i >= 0 && j == i * block ? c2 : -1;
    const double compliance = compliant >= 0 ? p.compliance[i] : 0.0;
    const double stick = i >= 0 ? p.stick_compliance[i] : 0.0;
    const int d2 = c2 - i * cols_per_contact;  // a friction column's direction, 1..nd
    auto entry = [&](int c1) {
      double v = 0.0;
      if (k1 < L1.size() && L1[k1].first == c1) {
        v += (L1[k1].second == 0 ? p.G_a[c1] : p.G_b[c1]).dot(*wg1);
        ++k1;
      }
      if (k2 < L2.size() && L2[k2].first == c1) {
        v += (L2[k2].second == 0 ? p.G_a[c1] : p.G_b[c1]).dot(*wg2);
        ++k2;
      }
      if (joints) v -= p.joint_coupling(c1, c2);
      if (c1 == compliant) v += compliance;
      // A bristle couples its contact's friction rows by c d_j . d_k (a torque column's d is 0).
      const int d1 = c1 - i * cols_per_contact;
      if (stick > 0.0 && d1 > 0 && d2 > 0 && d1 <= nd && d2 <= nd)
        v += stick *
             p.tangents[std::size_t(i * nd + d1 - 1)].dot(p.tangents[std::size_t(i * nd + d2 - 1)]);
      const int r = row_of[static_cast<std::size_t>(c1)];
      if (slip_row >= 0 && slip_row < r) {
        put(slip_row, slip_value);
        slip_row = -1;
      }
      put(r, v);
    };
    if (joints) {
      for (int c1 = 0; c1 < ncols; ++c1) entry(c1);
    } else {
      // Without joints, run by run: a run's rows are consecutive and hold its products with
      // this column (both bodies' when the run's contact joins the same two); the column's own
      // contact's run then takes its compliance and bristle terms, in the order entry() adds
      // them. Each entry is written where the next one goes unless it is nonzero (no second
      // pass to drop the zeros).
      auto emit = [&](int r, double v) {
        value[size] = v;
        index[size] = r;
        size += v != 0.0;
      };
      const int own_run = i >= 0 ? i * cols_per_contact : -1;
      const auto& R1 = b1 >= 0 ? p.column_runs[b1] : no_runs;
      const auto& R2 = b2 >= 0 ? p.column_runs[b2] : no_runs;
      std::size_t r1 = 0, r2 = 0;
      while (r1 < R1.size() || r2 < R2.size()) {
        const int next1 = r1 < R1.size() ? R1[r1].column : ncols;
        const int next2 = r2 < R2.size() ? R2[r2].column : ncols;
        const int c1 = std::min(next1, next2);
        const ColumnRun* in1 = next1 == c1 ? &R1[r1++] : nullptr;
        const ColumnRun* in2 = next2 == c1 ? &R2[r2++] : nullptr;
        const int count = in1 ? in1->count : in2->count;
        const int r = row_of[static_cast<std::size_t>(c1)];
        if (slip_row >= 0 && slip_row < r) {
          emit(slip_row, slip_value);
          slip_row = -1;
        }
        const Vec6* g1 =
            in1 ? &(in1->side == 0 ? p.G_a : p.G_b)[static_cast<std::size_t>(c1)] : nullptr;
        const Vec6* g2 =
            in2 ? &(in2->side == 0 ? p.G_a : p.G_b)[static_cast<std::size_t>(c1)] : nullptr;
        if (c1 != own_run) {
          if (g1 && g2)
            for (int t = 0; t < count; ++t) emit(r + t, g1[t].dot(*wg1) + g2[t].dot(*wg2));
          else if (g1)
            for (int t = 0; t < count; ++t) emit(r + t, g1[t].dot(*wg1));
          else
            for (int t = 0; t < count; ++t) emit(r + t, g2[t].dot(*wg2));
          continue;
        }
        double* v = value + size;
        for (int t = 0; t < count; ++t) {
          v[t] = 0.0;
          if (g1) v[t] += g1[t].dot(*wg1);
          if (g2) v[t] += g2[t].dot(*wg2);
          index[size + static_cast<std::size_t>(t)] = r + t;
        }
        if (compliant >= 0) v[compliant - c1] += compliance;
        if (stick > 0.0 && d2 > 0 && d2 <= nd)
          for (int d1 = 1; d1 <= nd; ++d1)
            v[d1] += stick * p.tangents[std::size_t(i * nd + d1 - 1)].dot(
                                 p.tangents[std::size_t(i * nd + d2 - 1)]);
        written = size + static_cast<std::size_t>(count);
        keep_nonzeros();
      }
      written = size;
    }
    if (slip_row >= 0) put(slip_row, slip_value);
    keep_nonzeros();
  }
  outer[n] = static_cast<int>(size);
  data.resize(static_cast<Eigen::Index>(size));
}

// M's diagonal blocks alone (Lcp::blocks_only): per contact its columns' g_c1^T W g_c2 over its
// two bodies (ascending, as fill_m sums them), the normal row's compliance, a bristle's
// stiffness, U and E; per joint limit its diagonal entry. No joints (their Schur complement
// couples every column).
void fill_diagonal_blocks(ContactProblem& p, bool slip_constants, SparseMatX& S) {
  const int n = p.lcp.size();
  const int nd = p.directions, block = p.block_size(), cols_per_contact = 1 + nd;
  const int limit_row = p.limit_row_start(), limit_col = p.limit_column_start();
  S.resize(n, n);
  auto& data = S.data();
  data.resize(static_cast<Eigen::Index>(static_cast<std::size_t>(n) * (nd + 2)));
  double* value = data.valuePtr();
  int* index = data.indexPtr();
  int* outer = S.outerIndexPtr();
  int size = 0;
  auto put = [&](int r, double v) {
    value[size] = v;
    index[size] = r;
    size += v != 0.0;
  };
  // g_c1^T W g_c2 for two columns on the same bodies a, b (-1: static), the lower index first.
  auto coupling = [&](int c1, int c2, int a, int b) {
    const bool b_first = a < 0 || (b >= 0 && b < a);
    double v = 0.0;
    if (b_first) {
      if (b >= 0) v += p.G_b[c1].dot(p.WG_b[c2]);
      if (a >= 0) v += p.G_a[c1].dot(p.WG_a[c2]);
    } else {
      if (a >= 0) v += p.G_a[c1].dot(p.WG_a[c2]);
      if (b >= 0) v += p.G_b[c1].dot(p.WG_b[c2]);
    }
    return v;
  };
  for (int j = 0; j < n; ++j) {
    outer[j] = size;
    if (j >= limit_row) {
      const int c = limit_col + (j - limit_row);
      const LimitRow& row = p.limit_rows[c - limit_col];
      put(j, coupling(c, c, row.body_a, row.body_b));
      continue;
    }
    const int i = j / block, k2 = j - i * block, base = i * block;
    if (k2 == nd + 1) {  // a slip column: E
      if (slip_constants)
        for (int k = 1; k <= nd; ++k) put(base + k, 1.0);
      continue;
    }
    const int c2 = i * cols_per_contact + k2;
    const double stick = p.stick_compliance[i];
    for (int k1 = 0; k1 < cols_per_contact; ++k1) {
      const int c1 = i * cols_per_contact + k1;
      double v = coupling(c1, c2, p.body_a[i], p.body_b[i]);
      if (k1 == 0 && k2 == 0) v += p.compliance[i];
      if (stick > 0.0 && k1 > 0 && k2 > 0)
        v += stick *
             p.tangents[std::size_t(i * nd + k1 - 1)].dot(p.tangents[std::size_t(i * nd + k2 - 1)]);
      put(base + k1, v);
    }
    if (slip_constants) put(base + nd + 1, k2 == 0 ? p.mu[i] : -1.0);
  }
  outer[n] = size;
  data.resize(size);
}
}  // namespace

namespace {

// World-frame inverse inertias of the bodies that appear, each computed once per assembly.
class InverseInertias {
 public:
  InverseInertias(const Model& model, const State& state)
      : model_(model),
        state_(state),
        inv_(model.bodies.size(), Mat3::Zero()),
        have_(model.bodies.size(), 0) {}
  const Mat3& operator()(int b) {
    if (!have_[b]) {
      inv_[b] = world_inverse_inertia(model_.bodies[b], state_.bodies[b]);
      have_[b] = 1;
    }
    return inv_[b];
  }

 private:
  const Model& model_;
  const State& state_;
  std::vector<Mat3> inv_;
  std::vector<char> have_;
};

// W g for a column g acting on body b (-1: static, nothing moves).
Vec6 weighted(const Model& model, InverseInertias& inverse_inertia, int b, const Vec6& g) {
  return b < 0 ? Vec6::Zero() : apply_inverse_mass(model.bodies[b], inverse_inertia(b), g);
}

// Frictionless contacts need only their normal rows (thesis Ch. 5's problems): with U = 0 the
// slip row of (6.1) forces E^T p_f <= 0, so p_f = 0 and the friction and slip rows carry
// nothing but degenerate, zero-diagonal rows for the solver to pivot through.
bool all_frictionless(const Model& model, const std::vector<Contact>& contacts,
                      const std::vector<int>& enforced) {
  return std::all_of(enforced.begin(), enforced.end(), [&](int c) {
    const Contact& k = contacts[c];
    return pair_friction(model.bodies[k.body_a], model.bodies[k.body_b]) == 0.0;
  });
}

// t0, the first friction direction of contact c: the planar cone is exact (+-t) and the NCP's
// quadratic cone isotropic, so only the linearized 3D cone is turned to serve the motion
// (friction_basis.hpp), by the bodies' free velocities at the contact.
Vec3 first_tangent(const Model& model, const Settings& settings, const ContactProblem& p,
                   const Contact& c, const Vec3& r_a, const Vec3& r_b, bool planar,
                   bool frictionless) {
  if (planar) return planar_tangent(c.normal);
  if (settings.formulation == Formulation::Ncp || frictionless ||
      settings.cone_orientation == ConeOrientation::Fixed)
    return any_perpendicular(c.normal);
  auto free_point_velocity = [&](int b, const Vec3& r) -> Vec3 {
    if (model.bodies[b].is_static) return Vec3::Zero();
    const auto v = p.free_velocity.segment<6>(6 * b);
    return v.head<3>() + v.tail<3>().cross(r);
  };
  return friction_basis(c.normal,
                        free_point_velocity(c.body_b, r_b) - free_point_velocity(c.body_a, r_a));
}

// Columns of G_n and G_f (2.26), (2.22) of every enforced contact, with W G: body A is pushed
// along -n, body B along +n. Needs p.free_velocity (the cones' orientation).
void contact_columns(const Model& model, const State& state, const Settings& settings,
                     const std::vector<Contact>& contacts, bool frictionless,
                     InverseInertias& inverse_inertia, ContactProblem& p) {
  const bool ncp = settings.formulation == Formulation::Ncp;
  const int nd = p.directions, cols_per_contact = 1 + nd;
  // d_k = t0 turned by 2 pi (k - 1) / (n_d - spin) about n (2.21), the same turns for every
  // contact: their cosines and sines once.
  p.direction_turns.resize(static_cast<std::size_t>(nd));
  for (int k = 1; k <= nd - p.spin; ++k) {
    const double angle = 2.0 * M_PI * (k - 1) / (nd - p.spin);
    p.direction_turns[std::size_t(k - 1)] = Vec2(std::cos(angle), std::sin(angle));
  }
  for (int i = 0; i < static_cast<int>(p.contact.size()); ++i) {
    const Contact& c = contacts[p.contact[i]];
    const Body& A = model.bodies[c.body_a];
    const Body& B = model.bodies[c.body_b];
    p.body_a[i] = A.is_static ? -1 : c.body_a;
    p.body_b[i] = B.is_static ? -1 : c.body_b;
    p.mu[i] = pair_friction(A, B);
    const Vec3 r_a = c.point_a - state.bodies[c.body_a].position;
    const Vec3 r_b = c.point_b() - state.bodies[c.body_b].position;
    const bool planar = A.shape.planar() && B.shape.planar();
    if (planar && !ncp && !frictionless && nd != 2)
      throw std::invalid_argument("a planar contact needs friction_directions = 2 (+-t)");
    const Vec3 t0 = first_tangent(model, settings, p, c, r_a, r_b, planar, frictionless);
    for (int k = 0; k < cols_per_contact; ++k) {
      const int col = i * cols_per_contact + k;
      const int spin = k - (nd - p.spin);  // 1, 2: the torsional columns
      if (spin > 0 && c.spin_radius > 0.0 && c.spin_speed == 0.0) {
        // A torque +-r_s n on B (its opposite on A): Coulomb's limit mu p_n r_s about n.
        const Vec3 torque = (spin == 1 ? 1.0 : -1.0) * c.spin_radius * c.normal;
        p.tangents[static_cast<std::size_t>(i) * nd + (k - 1)] = Vec3::Zero();
        p.G_a[col] << Vec3::Zero(), -torque;
        p.G_b[col] << Vec3::Zero(), torque;
        p.WG_a[col] = weighted(model, inverse_inertia, p.body_a[i], p.G_a[col]);
        p.WG_b[col] = weighted(model, inverse_inertia, p.body_b[i], p.G_b[col]);
        continue;
      }
      // A contact without Coulomb spin (viscous, or no patch) repeats d_0 there, which leaves
      // its cone as it is and keeps every column's diagonal nonzero.
      Vec3 dir;
      if (spin > 0) {
        dir = t0;
      } else if (k == 0) {
        dir = c.normal;
      } else if (ncp) {  // the orthonormal t, o of (2.16): t = t0, o = n x t0
        dir = k == 1 ? t0 : Vec3(c.normal.cross(t0));
      } else if (planar) {
        dir = k == 1 ? t0 : Vec3(-t0);
      } else {  // Rodrigues' rotation of t0 about the unit normal
        const Vec2& turn = p.direction_turns[std::size_t(k - 1)];
        dir = turn.x() * t0 + turn.y() * c.normal.cross(t0) +
              (1.0 - turn.x()) * c.normal.dot(t0) * c.normal;
      }
      if (k > 0) p.tangents[static_cast<std::size_t>(i) * nd + (k - 1)] = dir;
      p.G_a[col] = wrench_column(-dir, r_a);
      p.G_b[col] = wrench_column(dir, r_b);
      p.WG_a[col] = weighted(model, inverse_inertia, p.body_a[i], p.G_a[col]);
      p.WG_b[col] = weighted(model, inverse_inertia, p.body_b[i], p.G_b[col]);
    }
  }
}

// Joint limit columns, after the contacts' (joint_limits.hpp).
void limit_columns(const Model& model, InverseInertias& inverse_inertia, ContactProblem& p) {
  const int limit_col = p.limit_column_start();
  for (int k = 0; k < static_cast<int>(p.limit_rows.size()); ++k) {
    const LimitRow& row = p.limit_rows[k];
    const int col = limit_col + k;
    p.G_a[col] = row.G_a;
    p.G_b[col] = row.G_b;
    p.WG_a[col] = weighted(model, inverse_inertia, row.body_a, row.G_a);
    p.WG_b[col] = weighted(model, inverse_inertia, row.body_b, row.G_b);
  }
}

// G^T M^-1 G couples only columns that share a dynamic body: per body, its columns ascending,
// each with the side (0: body A, 1: body B) it acts on.
using ColumnsOfBody = std::vector<std::vector<std::pair<int, char>>>;
// Into `out`, whose lists keep their storage from step to step.
const ColumnsOfBody& columns_of_body(const ContactProblem& p, int bodies, ColumnsOfBody& out) {
  out.resize(static_cast<std::size_t>(bodies));
  for (auto& columns : out) columns.clear();
  const int cols_per_contact = 1 + p.directions;
  for (int i = 0; i < static_cast<int>(p.contact.size()); ++i) {
    for (int k = 0; k < cols_per_contact; ++k) {
      const int col = i * cols_per_contact + k;
      if (p.body_a[i] >= 0) out[p.body_a[i]].push_back({col, 0});
      if (p.body_b[i] >= 0) out[p.body_b[i]].push_back({col, 1});
    }
  }
  const int limit_col = p.limit_column_start();
  for (int k = 0; k < static_cast<int>(p.limit_rows.size()); ++k) {
    const LimitRow& row = p.limit_rows[k];
    if (row.body_a >= 0) out[row.body_a].push_back({limit_col + k, 0});
    if (row.body_b >= 0) out[row.body_b].push_back({limit_col + k, 1});
  }
  return out;
}

// G^T nu_free of one column (both bodies' shares).
double column_velocity(const ContactProblem& p, int col, int body_a, int body_b) {
  double v = 0.0;
  if (body_a >= 0) v += p.G_a[col].dot(p.free_velocity.segment<6>(6 * body_a));
  if (body_b >= 0) v += p.G_b[col].dot(p.free_velocity.segment<6>(6 * body_b));
  return v;
}

// A volumetric contact's normal row (seed 002 (3.1), implicit): the impulse is h F at the end of
// the step, F = k V+ (1 + a v), with V+ = V - h A u (A = -dV/dd, u = n^T (v_B - v_A) the parting
// speed after the step, v = -u) and the product's h a A u^2 dropped:
//   p = h k (V - (h A + a V) u)  while positive, else 0,
// which is 0 <= p  _|_  u + p / (h k (h A + a V)) - d / (h + a d) >= 0, d = V / A the mean depth
// (the gap is -d). So the row is the rigid one, u + gap / h >= 0, with the compliance
// 1 / (h k (h A + a V)) on the diagonal and h + a d for h; a stiff layer tends to the corrective
// model's row (overlap_contacts.hpp) with the mean depth.
double volumetric_compliance(const Contact& c, double h) {
  if (!(c.stiffness > 0.0)) return 0.0;
  return 1.0 / (h * c.stiffness * (h * c.volume_rate + c.damping * c.volume));
}
double gap_time(const Contact& c, double h) {
  return c.stiffness > 0.0 ? h - c.damping * c.gap : h;
}

// q of (6.1) and the blocks' starts: per contact G^T nu_free, plus psi / h on the normal row,
// which makes the gap at the end of the step non-negative (2.27) (Anitescu–Potra drops it);
// the friction rows' + E s and the slip row U p_n - E^T p_f (2.21) add nothing to q, and the
// NCP's friction rows are nonlinear, (2.18)-(2.20) (coulomb_ncp.hpp). A joint limit's row is
// like a frictionless contact's normal row.
void fill_q(const std::vector<Contact>& contacts, const Settings& settings, ContactProblem& p) {
  const int nc = static_cast<int>(p.contact.size());
  const int nl = static_cast<int>(p.limit_rows.size());
  const int block = p.block_size(), cols_per_contact = 1 + p.directions;
  const bool gap_term = settings.formulation != Formulation::AnitescuPotra;
  Lcp& lcp = p.lcp;
  lcp.q.setZero(nc * block + nl);
  lcp.block_starts.resize(nc + nl);
  for (int i = 0; i < nc; ++i) {
    const int base = i * block;
    lcp.block_starts[i] = base;
    for (int k = 0; k < cols_per_contact; ++k)
      lcp.q(base + k) = column_velocity(p, i * cols_per_contact + k, p.body_a[i], p.body_b[i]);
    const Contact& c = contacts[p.contact[i]];
    if (gap_term) lcp.q(base) += c.gap / gap_time(c, settings.h);
    if (p.stick_compliance[i] > 0.0)
      for (int k = 1; k <= p.directions; ++k)
        lcp.q(base + k) += p.tangents[std::size_t(i * p.directions + k - 1)].dot(p.stick_pull[i]);
  }
  const int limit_col = p.limit_column_start();
  for (int k = 0; k < nl; ++k) {
    const LimitRow& row = p.limit_rows[k];
    const int r = nc * block + k;
    lcp.block_starts[nc + k] = r;
    lcp.q(r) = row.gap / settings.h + column_velocity(p, limit_col + k, row.body_a, row.body_b);
  }
}

}  // namespace

void assemble_stewart_trinkle(const Model& model, const State& state, const Settings& settings,
                              const std::vector<Contact>& contacts,
                              const std::vector<int>& enforced, ContactProblem& p,
                              bool blocks_only) {
  const bool ncp = settings.formulation == Formulation::Ncp;
  const bool frictionless = !ncp && all_frictionless(model, contacts, enforced);
  const int nc = static_cast<int>(enforced.size());
  p.spin = frictionless ? 0 : spin_directions(model, settings);
  const int nd = frictionless ? 0 : tangent_directions(model, settings) + p.spin;
  p.directions = nd;
  joint_limit_rows(model, state, p.limit_rows);
  const int ncols = nc * (1 + nd) + static_cast<int>(p.limit_rows.size());
  p.contact = enforced;
  p.mu.resize(nc);
  p.compliance.resize(nc);
  p.stick_compliance.assign(nc, 0.0);
  p.stick_pull.assign(nc, Vec3::Zero());
  for (int i = 0; i < nc; ++i) {
    const Contact& c = contacts[enforced[i]];
    p.compliance[i] = volumetric_compliance(c, settings.h);
    if (c.stick_stiffness > 0.0 && nd > 0 && !ncp) {
      const double h = settings.h, k = c.stick_stiffness, damping = c.stick_damping;
      p.stick_compliance[i] = 1.0 / (h * (h * k + damping));
      const Vec3 stretch = c.anchor - c.normal * c.normal.dot(c.anchor);
      p.stick_pull[i] = stretch / (h + damping / k);
    }
  }
  p.tangents.resize(static_cast<std::size_t>(nc) * nd);
  p.G_a.resize(ncols);
  p.G_b.resize(ncols);
  p.WG_a.resize(ncols);
  p.WG_b.resize(ncols);
  p.body_a.resize(nc);
  p.body_b.resize(nc);

  // nu + M^-1 p_ext before the joints' impulses: it orients the friction cones.
  free_velocities(model, state, settings, p.free_velocity);
  InverseInertias inverse_inertia(model, state);
  contact_columns(model, state, settings, contacts, frictionless, inverse_inertia, p);
  limit_columns(model, inverse_inertia, p);

  const int nb = static_cast<int>(model.bodies.size());
  const ColumnsOfBody& by_body = columns_of_body(p, nb, p.columns_of_body);
  eliminate_joints(model, state, settings.h, contacts, inverse_inertia, by_body, p);
  // -Y^T A^-1 Y: what the joints take from the contacts' effective inverse mass.
  if (!p.joint_rows.empty() && ncols > 0)
    p.joint_coupling.noalias() = p.joint_Y.transpose() * p.joint_A.solve(p.joint_Y);
  fill_q(contacts, settings, p);
  const bool slip_constants = !ncp && !frictionless;
  p.lcp.M.resize(0, 0);
  p.lcp.blocks_only = blocks_only && !ncp && p.joint_rows.empty();
  if (p.lcp.blocks_only) {
    fill_diagonal_blocks(p, slip_constants, p.lcp.S);
  } else {  // the mixed form has joints, so it is never blocks_only: the runs serve both fills
    column_runs_of_body(p, nb, p.column_runs);
    fill_m(p, by_body, slip_constants, true, p.lcp.S);
  }
  if (settings.formulation == Formulation::MixedLcp && !p.joint_rows.empty())
    fill_m(p, by_body, slip_constants, false, p.contact_m);
  else
    p.contact_m.resize(0, 0);
  set_joint_coupling_rows(p);
  set_body_form(p, nb, ncp);
}

namespace {
// S grown to n x n with `entries` (rows and columns past S's size only), via `grown`.
void grow(SparseMatX& S, const std::vector<Eigen::Triplet<double>>& entries, int n,
          SparseMatX& grown) {
  const int n0 = static_cast<int>(S.cols());
  // Duplicates add in the order given (Eigen's collapseDuplicates), 0 + a = a: the dense sums.
  SparseMatX added(n, n);
  added.setFromTriplets(entries.begin(), entries.end());
  grown.resize(n, n);
  auto& data = grown.data();
  int* outer = grown.outerIndexPtr();
  for (int j = 0; j < n; ++j) {
    outer[j] = static_cast<int>(data.size());
    if (j < n0)
      for (SparseMatX::InnerIterator it(S, j); it; ++it) data.append(it.value(), it.row());
    for (SparseMatX::InnerIterator it(added, j); it; ++it)  // rows below the old ones
      if (it.value() != 0.0) data.append(it.value(), it.row());
  }
  outer[n] = static_cast<int>(data.size());
  S.swap(grown);
}
}  // namespace

void add_m_entries(ContactProblem& p, int n) {
  grow(p.lcp.S, p.m_entries, n, p.grown_m);
  if (p.contact_m.rows() > 0) grow(p.contact_m, p.contact_m_entries, n, p.grown_m);
}

namespace {
// The impulses of the Jacobian columns (normal and friction, no slip speeds; then the joint
// limits) in column order.
void contact_column_impulses(const ContactProblem& p, const VecX& z, VecX& x) {
  const int cols_per_contact = 1 + p.directions;
  const int nl = static_cast<int>(p.limit_rows.size());
  x.resize(p.limit_column_start() + nl);
  for (int i = 0; i < p.contacts(); ++i)
    x.segment(i * cols_per_contact, cols_per_contact) =
        z.segment(i * p.block_size(), cols_per_contact);
  x.tail(nl) = z.tail(nl);
}
}  // namespace

namespace {
// velocity += M^-1 (G_n p_n + G_f p_f + G_l p_l) for the LCP's answer z (contact blocks, then
// joint limits); slack rows carry no force.
void add_force_impulses(const ContactProblem& p, const Eigen::Ref<const VecX>& z, VecX& velocity) {
  const int cols_per_contact = 1 + p.directions;
  for (int i = 0; i < p.contacts(); ++i) {
    for (int k = 0; k < cols_per_contact; ++k) {
      const int col = i * cols_per_contact + k;
      const double impulse = z(i * p.block_size() + k);
      if (impulse == 0.0) continue;
      if (p.body_a[i] >= 0) velocity.segment<6>(6 * p.body_a[i]) += impulse * p.WG_a[col];
      if (p.body_b[i] >= 0) velocity.segment<6>(6 * p.body_b[i]) += impulse * p.WG_b[col];
    }
  }
  for (std::size_t k = 0; k < p.limit_rows.size(); ++k) {
    const LimitRow& row = p.limit_rows[k];
    const int col = p.limit_column_start() + static_cast<int>(k);
    const double impulse = z(p.limit_row_start() + static_cast<int>(k));
    if (impulse == 0.0) continue;
    if (row.body_a >= 0) velocity.segment<6>(6 * row.body_a) += impulse * p.WG_a[col];
    if (row.body_b >= 0) velocity.segment<6>(6 * row.body_b) += impulse * p.WG_b[col];
  }
}
}  // namespace

void set_joint_coupling_rows(ContactProblem& p) {
  const int m = static_cast<int>(p.joint_rows.size());
  const int n = p.lcp.size();
  p.row_joint_coupling.setZero(n, m);
  if (m == 0) return;
  const int ncols = static_cast<int>(p.G_a.size());
  for (int col = 0; col < ncols; ++col)
    p.row_joint_coupling.row(p.row_of_column(col)) = p.joint_Y.col(col).transpose();
}

void assemble_mixed_lcp(ContactProblem& p) {
  // Every row r of the Schur form reads g_r^T nu^{l+1} + c_r, with nu^{l+1} = nu_free +
  // W G_b (p_b - p_b0) + W G z (nu_free holds W G_b p_b0). Keeping p_b as unknowns: the row
  // gains y_r^T p_b (y_r = G_b^T W g_r, row_joint_coupling), loses y_r^T p_b0 from q, and its
  // M is M_c, without the Schur complement (contact_m).
  const int m = static_cast<int>(p.joint_rows.size());
  const int n = p.lcp.size();
  const int ncols = static_cast<int>(p.G_a.size());
  Lcp& mixed = p.mixed;
  std::vector<Eigen::Triplet<double>> entries;
  auto put = [&](int r, int c, double v) {
    if (v != 0.0) entries.emplace_back(r, c, v);
  };
  for (int c = 0; c < m; ++c) {
    for (int r = 0; r < m; ++r)  // A, with regularization and damper compliance
      put(r, c, p.joint_gram(r, c));
    for (int r = 0; r < n; ++r) put(m + r, c, p.row_joint_coupling(r, c));  // Y_r
  }
  for (int col = 0; col < ncols; ++col)  // Y over the force columns
    for (int r = 0; r < m; ++r) put(r, m + p.row_of_column(col), p.joint_Y(r, col));
  for (int c = 0; c < p.contact_m.outerSize(); ++c)
    for (SparseMatX::InnerIterator it(p.contact_m, c); it; ++it)
      entries.emplace_back(m + static_cast<int>(it.row()), m + c, it.value());
  mixed.M.resize(0, 0);
  mixed.S.resize(m + n, m + n);
  mixed.S.setFromTriplets(entries.begin(), entries.end());
  mixed.S.makeCompressed();
  mixed.q.resize(m + n);
  // q: -r_b (2.28) for the joints' rows (2.34)/(2.35).
  mixed.q.head(m) = -p.joint_rhs;
  mixed.q.tail(n) = p.lcp.q - p.row_joint_coupling * p.joint_impulse;
  mixed.lower.resize(m + n);
  mixed.upper.setConstant(m + n, INFINITY);
  mixed.lower.head(m).setConstant(-INFINITY);
  mixed.lower.tail(n).setZero();
  mixed.block_starts.resize(m);
  for (int k = 0; k < m; ++k) mixed.block_starts[k] = k;
  for (int start : p.lcp.block_starts) mixed.block_starts.push_back(m + start);
}

void mixed_velocities(ContactProblem& p, const VecX& z, VecX& velocity) {
  const int m = static_cast<int>(p.joint_rows.size());
  // nu_free already holds W G_b p_b0 (p.joint_impulse until now): add W G_b (p_b - p_b0).
  velocity = p.free_velocity;
  for (int k = 0; k < m; ++k) {
    const JointRow& row = p.joint_rows[k];
    const double dp = z(k) - p.joint_impulse(k);
    if (row.body_a >= 0) velocity.segment<6>(6 * row.body_a) += dp * p.joint_WG_a[k];
    if (row.body_b >= 0) velocity.segment<6>(6 * row.body_b) += dp * p.joint_WG_b[k];
  }
  p.joint_impulse = z.head(m);
  add_force_impulses(p, z.tail(z.size() - m), velocity);
}

void contact_velocities(ContactProblem& p, const VecX& z, VecX& velocity) {
  velocity = p.free_velocity;
  // The joints answer the contact impulses: p_b = p_b0 - A^-1 Y z (the p_b0 part is already in
  // the free velocity).
  const int m = static_cast<int>(p.joint_rows.size());
  if (m > 0 && z.size() > 0) {
    contact_column_impulses(p, z, p.column_impulses);
    p.joint_change.noalias() = p.joint_Y * p.column_impulses;
    p.joint_change = -p.joint_A.solve(p.joint_change);
    const VecX& dp = p.joint_change;
    for (int k = 0; k < m; ++k) {
      const JointRow& row = p.joint_rows[k];
      if (row.body_a >= 0) velocity.segment<6>(6 * row.body_a) += dp(k) * p.joint_WG_a[k];
      if (row.body_b >= 0) velocity.segment<6>(6 * row.body_b) += dp(k) * p.joint_WG_b[k];
    }
    p.joint_impulse += dp;
  }
  if (z.size() == 0) return;
  add_force_impulses(p, z, velocity);
}

}  // namespace pegsim
