#include "engine/formulation/constraint_problem.hpp"

namespace pegsim {
namespace {

// A row of gap rates as Jacobian columns on at most four body ends, summed per body.
struct GapRow {
  int count = 0;
  int body[4];
  Vec6 g[4];
  void add(int b, const Vec6& v) {
    if (b < 0) return;  // static body
    for (int k = 0; k < count; ++k)
      if (body[k] == b) {
        g[k] += v;
        return;
      }
    body[count] = b;
    g[count++] = v;
  }
};

// d psi / dt of a contact as G^T nu (thesis (2.25), (2.26)): A is pushed along -n at p_a,
// B along +n at p_b; `sign` = -1 subtracts it.
void add_gap_rate(const Model& model, const State& state, const Contact& c, double sign,
                  GapRow& row) {
  const Vec3 r_a = c.point_a - state.bodies[c.body_a].position;
  const Vec3 r_b = c.point_b() - state.bodies[c.body_b].position;
  Vec6 ga, gb;
  ga << -c.normal, r_a.cross(-c.normal);
  gb << c.normal, r_b.cross(c.normal);
  if (!model.bodies[c.body_a].is_static) row.add(c.body_a, sign * ga);
  if (!model.bodies[c.body_b].is_static) row.add(c.body_b, sign * gb);
}

}  // namespace

double end_gap_rate(const Model& model, const State& state, const Settings& settings,
                    const Contact& contact, const VecX& velocity) {
  GapRow G;
  add_gap_rate(model, state, contact, 1.0, G);
  double rate = settings.formulation != Formulation::AnitescuPotra ? contact.gap / settings.h : 0.0;
  for (int k = 0; k < G.count; ++k) rate += G.g[k].dot(velocity.segment<6>(6 * G.body[k]));
  return rate;
}

int slack_rows(const ConstraintSet& set) {
  int n = 0;
  for (const ConstraintGroup& g : set.groups) n += g.count - 1;
  return n;
}

void assemble_constraint_problem(const Model& model, const State& state, const Settings& settings,
                                 const std::vector<Contact>& contacts, const ConstraintSet& set,
                                 std::vector<int>& primaries, ContactProblem& p) {
  primaries.clear();
  for (const ConstraintGroup& g : set.groups) primaries.push_back(set.primary(g));
  const int ns = slack_rows(set);
  // The slack rows couple groups through M itself (4.45): M in full then.
  assemble_stewart_trinkle(model, state, settings, contacts, primaries, p,
                           p.want_blocks_only && ns == 0);
  if (ns == 0) return;

  Lcp& lcp = p.lcp;
  lcp.body_form.clear();  // the slack rows couple groups through (4.45), not through bodies
  const int n0 = lcp.size();
  const int n = n0 + ns;
  p.m_entries.clear();
  p.contact_m_entries.clear();
  // A term of M's slack rows and columns; of M_c too (the mixed form's) unless it is the
  // joints' share.
  const bool mixed = p.contact_m.rows() > 0;
  auto term = [&](int r, int c, double v) {
    p.m_entries.emplace_back(r, c, v);
    if (mixed) p.contact_m_entries.emplace_back(r, c, v);
  };
  lcp.q.conservativeResize(n);
  const int m = static_cast<int>(p.joint_rows.size());
  p.row_joint_coupling.conservativeResize(n, m);
  const int block = p.block_size();
  const int cols_per_contact = 1 + p.directions;
  const int ncols = p.contacts() * cols_per_contact;
  const bool gap_term = settings.formulation != Formulation::AnitescuPotra;
  MatX joint_AinvY;  // over every column, the contacts' then the limits'
  if (m > 0 && ncols > 0) joint_AinvY = p.joint_A.solve(p.joint_Y);

  int row = n0;
  for (int gi = 0; gi < static_cast<int>(set.groups.size()); ++gi) {
    const ConstraintGroup& g = set.groups[gi];
    if (g.count < 2) continue;
    const int first_slack = row;
    lcp.block_starts.push_back(first_slack);  // the group's slacks: lower triangular E_I1
    const Contact& primary = contacts[set.primary(g)];
    for (int j = 1; j < g.count; ++j, ++row) {
      const Contact& other = contacts[set.members[g.first + j]];
      GapRow D;  // (4.29): G_1 - G_j
      add_gap_rate(model, state, primary, 1.0, D);
      add_gap_rate(model, state, other, -1.0, D);

      double q = gap_term ? (primary.gap - other.gap) / settings.h : 0.0;
      for (int k = 0; k < D.count; ++k) q += D.g[k].dot(p.free_velocity.segment<6>(6 * D.body[k]));
      lcp.q(row) = q;

      // D^T W G over every force column sharing a body with the row.
      for (int i = 0; i < p.contacts(); ++i) {
        for (int k = 0; k < D.count; ++k) {
          const bool on_a = p.body_a[i] == D.body[k], on_b = p.body_b[i] == D.body[k];
          if (!on_a && !on_b) continue;
          for (int c = 0; c < cols_per_contact; ++c) {
            const int col = i * cols_per_contact + c;
            double v = 0.0;
            if (on_a) v += D.g[k].dot(p.WG_a[col]);
            if (on_b) v += D.g[k].dot(p.WG_b[col]);
            term(row, i * block + c, v);
          }
        }
      }
      // D^T W G over the joint-limit columns: a stop's impulse moves the group's gaps too.
      for (int k = 0; k < static_cast<int>(p.limit_rows.size()); ++k) {
        const LimitRow& limit = p.limit_rows[k];
        const int col = p.limit_column_start() + k;
        double v = 0.0;
        for (int d = 0; d < D.count; ++d) {
          if (limit.body_a == D.body[d]) v += D.g[d].dot(p.WG_a[col]);
          if (limit.body_b == D.body[d]) v += D.g[d].dot(p.WG_b[col]);
        }
        term(row, p.limit_row_start() + k, v);
      }
      // Joints: the effective inverse mass W - W G_b A^-1 G_b^T W (stewart_trinkle.hpp), and
      // y = G_b^T W D for the mixed form.
      VecX yd = VecX::Zero(m);
      for (int r = 0; r < m; ++r) {
        const JointRow& jr = p.joint_rows[r];
        for (int k = 0; k < D.count; ++k) {
          if (jr.body_a == D.body[k]) yd(r) += D.g[k].dot(p.joint_WG_a[r]);
          if (jr.body_b == D.body[k]) yd(r) += D.g[k].dot(p.joint_WG_b[r]);
        }
      }
      if (m > 0) p.row_joint_coupling.row(row) = yd.transpose();  // (Eigen: no row of n x 0)
      if (m > 0 && ncols > 0) {
        const VecX correction = joint_AinvY.transpose() * yd;
        for (int col = 0; col < ncols; ++col)
          p.m_entries.emplace_back(row, (col / cols_per_contact) * block + col % cols_per_contact,
                                   -correction(col));
        for (int col = ncols; col < correction.size(); ++col)  // the limit columns
          p.m_entries.emplace_back(row, p.limit_row_start() + (col - ncols), -correction(col));
      }
      // (4.44): E_I1, lower triangular ones over the group's slacks.
      for (int k = first_slack; k <= row; ++k) term(row, k, 1.0);
      // (4.45): E_I2, the primary's normal row sums the group's slacks.
      term(gi * block, row, 1.0);
    }
  }
  add_m_entries(p, n);
}

}  // namespace pegsim
