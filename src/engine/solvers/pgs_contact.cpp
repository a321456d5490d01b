// Projected Gauss–Seidel contact by contact on the Stewart–Trinkle LCP (thesis (6.1)), the
// friction polygon of (2.21) solved in closed form (pgs_contact.hpp).
#include "engine/solvers/pgs_contact.hpp"

#include <algorithm>
#include <cmath>

#include "engine/solvers/lcp_matrix.hpp"

namespace pegsim {
namespace {

double cross(const Vec2& a, const Vec2& b) {
  return a.x() * b.y() - a.y() * b.x();
}

// A row's direction in the world: the linear part of its Jacobian on body B (on A reversed when
// B is static), the unit normal or tangent a contact column pushes B along (thesis (2.22)).
Vec3 row_direction(const LcpBodyForm& f, int row) {
  return f.body_b[row] >= 0 ? Vec3(f.J_b[row].head<3>()) : Vec3(-f.J_a[row].head<3>());
}

}  // namespace

void PgsContactSolver::classify(const Lcp& lcp, int start, int size) {
  const LcpBodyForm& f = lcp.body_form;
  Block b;
  b.start = start;
  b.size = size;
  bool have_pair = false;
  for (int r = start; r < start + size; ++r) {
    if (f.body_a[r] < 0 && f.body_b[r] < 0) continue;
    if (!have_pair) {
      b.body_a = f.body_a[r];
      b.body_b = f.body_b[r];
      have_pair = true;
    } else if (f.body_a[r] != b.body_a || f.body_b[r] != b.body_b) {
      one_pair_ = false;  // a block's own share is taken per body pair
    }
  }
  b.kind = size == 1 ? Kind::Row : Kind::Block;
  const std::size_t k = blocks_.size();
  if (block_M_.size() <= k) block_M_.resize(k + 1);
  diagonal_block_m(lcp, start, size, block_M_[k]);
  if (size >= 4 && block_M_[k].allFinite()) read_contact(lcp, b);
  blocks_.push_back(b);
}

void PgsContactSolver::read_contact(const Lcp& lcp, Block& b) {
  const LcpBodyForm& form = lcp.body_form;
  const MatX& M = block_M_[blocks_.size()];
  const int nd = b.size - 2, s = b.size - 1;  // the slip row, last
  // (6.1)'s contact block: the slip row moves no body, reads U p_n - E^T beta, and adds s to
  // every friction row; the friction and normal rows act on the block's two bodies.
  const int slip = b.start + s;
  if (form.body_a[slip] >= 0 || form.body_b[slip] >= 0) return;
  if (M(s, s) != 0.0 || M(0, s) != 0.0 || !(M(s, 0) >= 0.0)) return;
  for (int k = 1; k <= nd; ++k)
    if (M(s, k) != -1.0 || M(k, s) != 1.0) return;
  for (int r = b.start; r < slip; ++r)
    if (form.body_a[r] != b.body_a || form.body_b[r] != b.body_b) return;
  if (b.body_a < 0 && b.body_b < 0) return;
  // The directions in the tangent basis t_1 = d_1, t_2 = n x t_1: unit, in the plane, turning
  // counter-clockwise about n (a torsion row has no linear part and fails here).
  const Vec3 n = row_direction(form, b.start);
  if (std::abs(n.norm() - 1.0) > 1e-9) return;
  const Vec3 t1 = row_direction(form, b.start + 1), t2 = n.cross(t1);
  b.first = static_cast<int>(coords_.size());
  b.directions = nd;
  double across = 0.0;
  for (int k = 1; k <= nd; ++k) {
    const Vec3 d = row_direction(form, b.start + k);
    if (std::abs(d.norm() - 1.0) > 1e-9 || std::abs(d.dot(n)) > 1e-9) {
      coords_.resize(static_cast<std::size_t>(b.first));
      return;
    }
    coords_.emplace_back(d.dot(t1), d.dot(t2));
    across = std::max(across, std::abs(coords_.back().y()));
  }
  b.tangents = across > 1e-6 ? 2 : 1;  // a planar contact's +-t span a line
  const Vec2* c = &coords_[static_cast<std::size_t>(b.first)];
  auto fail = [&] { coords_.resize(static_cast<std::size_t>(b.first)); };
  if (b.tangents == 2) {
    // The inscribed circle of the unit polygon (shrunk by a rounding margin, so that a point
    // inside it passes every edge test too): its squared radius.
    double inner = INFINITY;
    for (int k = 0; k < nd; ++k) {
      const Vec2 edge = c[(k + 1) % nd] - c[k];
      if (!(cross(c[k], c[(k + 1) % nd]) > 0.0)) return fail();
      inner = std::min(inner, cross(c[k], c[(k + 1) % nd]) / edge.norm());
    }
    b.inner_squared = (1.0 - 1e-9) * inner * inner;
  } else {  // the segment [lo, hi] of the unit friction impulses along t_1
    b.lo = b.hi = 0.0;
    for (int k = 0; k < nd; ++k) {
      b.lo = std::min(b.lo, c[k].x());
      b.hi = std::max(b.hi, c[k].x());
    }
    if (!(b.lo < 0.0)) return fail();  // +t without -t: no polygon about 0
  }
  // P = (D D^T)^-1 D: tangent rows from the friction rows (every friction row is d_k . t rows,
  // its Jacobian and W J linear in d_k), and M's tangential block K = P M_ff P^T.
  Mat2 G = Mat2::Zero();
  for (int k = 0; k < nd; ++k) G += c[k] * c[k].transpose();
  if (b.tangents == 1) G(1, 1) = 1.0;
  const Mat2 Ginv = G.inverse();
  for (int j = 0; j < 3; ++j) {
    b.J_a[j].setZero();
    b.J_b[j].setZero();
    b.WJ_a[j].setZero();
    b.WJ_b[j].setZero();
    b.q[j] = 0.0;
  }
  b.J_a[0] = form.J_a[b.start];
  b.J_b[0] = form.J_b[b.start];
  b.WJ_a[0] = form.WJ_a[b.start];
  b.WJ_b[0] = form.WJ_b[b.start];
  b.q[0] = lcp.q(b.start);
  b.K.setZero();
  b.k_nt.setZero();
  b.k_tn.setZero();
  rows_of_p_.resize(static_cast<std::size_t>(nd));
  for (int k = 0; k < nd; ++k) {
    rows_of_p_[std::size_t(k)] = Ginv * c[k];
    if (b.tangents == 1) rows_of_p_[std::size_t(k)].y() = 0.0;
  }
  for (int k = 0; k < nd; ++k) {
    const Vec2& p = rows_of_p_[std::size_t(k)];
    const int r = b.start + 1 + k;
    for (int j = 0; j < 2; ++j) {
      b.J_a[1 + j] += p(j) * form.J_a[r];
      b.J_b[1 + j] += p(j) * form.J_b[r];
      b.WJ_a[1 + j] += p(j) * form.WJ_a[r];
      b.WJ_b[1 + j] += p(j) * form.WJ_b[r];
      b.q[1 + j] += p(j) * lcp.q(r);
    }
    b.k_tn += p * M(1 + k, 0);
    b.k_nt += p * M(0, 1 + k);
    Vec2 row = Vec2::Zero();  // (M_ff P^T)'s row k
    for (int l = 0; l < nd; ++l) row += M(1 + k, 1 + l) * rows_of_p_[std::size_t(l)];
    b.K += p * row.transpose();
  }
  if (b.tangents == 1) b.K(1, 1) = 1.0;  // t_2 carries nothing
  b.a = M(0, 0);
  b.mu = M(s, 0);
  if (!(b.a > 0.0) || !(b.K(0, 0) > 0.0) || !(b.K.determinant() > 0.0) || !b.K.allFinite())
    return fail();
  b.kind = Kind::Contact;
}

void PgsContactSolver::contact_offset(const Block& b, double c[3]) const {
  // The two bodies' dv without the contact's own impulses.
  Vec6 da = Vec6::Zero(), db = Vec6::Zero();
  if (b.body_a >= 0)
    da = dv_.segment<6>(6 * b.body_a) - b.p_n * b.WJ_a[0] - b.f.x() * b.WJ_a[1] -
         b.f.y() * b.WJ_a[2];
  if (b.body_b >= 0)
    db = dv_.segment<6>(6 * b.body_b) - b.p_n * b.WJ_b[0] - b.f.x() * b.WJ_b[1] -
         b.f.y() * b.WJ_b[2];
  for (int j = 0; j < 3; ++j) c[j] = b.q[j] + b.J_a[j].dot(da) + b.J_b[j].dot(db);
}

void PgsContactSolver::rows_offset(const Lcp& lcp, const Block& b, const VecX& z, VecX& c) const {
  const LcpBodyForm& f = lcp.body_form;
  // The block's own share of dv on each body any of its rows acts on.
  Vec6 own_a = Vec6::Zero(), own_b = Vec6::Zero();
  for (int s = b.start; s < b.start + b.size; ++s) {
    for (int end = 0; end < 2; ++end) {
      const int body = end == 0 ? f.body_a[s] : f.body_b[s];
      if (body < 0) continue;
      const Vec6& wj = end == 0 ? f.WJ_a[s] : f.WJ_b[s];
      if (body == b.body_a) own_a += z(s) * wj;
      if (body == b.body_b) own_b += z(s) * wj;
    }
  }
  c.resize(b.size);
  for (int r = b.start; r < b.start + b.size; ++r) {
    double v = lcp.q(r);
    for (int end = 0; end < 2; ++end) {
      const int body = end == 0 ? f.body_a[r] : f.body_b[r];
      if (body < 0) continue;
      Vec6 dv = dv_.segment<6>(6 * body);
      if (body == b.body_a) dv -= own_a;
      if (body == b.body_b) dv -= own_b;
      v += (end == 0 ? f.J_a[r] : f.J_b[r]).dot(dv);
    }
    c(r - b.start) = v;
  }
}

Vec2 PgsContactSolver::polygon_minimum(const Block& b, const Vec2& g, double radius) const {
  if (!(radius > 0.0)) return Vec2::Zero();
  const Vec2* c = &coords_[static_cast<std::size_t>(b.first)];
  const int nd = b.directions;
  if (b.tangents == 1)
    return Vec2(std::clamp(-g.x() / b.K(0, 0), radius * b.lo, radius * b.hi), 0.0);
  // The unconstrained minimum -K^-1 g, if inside every edge (counter-clockwise); at once if
  // inside the polygon's inscribed circle (a sticking contact's usual case).
  const double det = b.K(0, 0) * b.K(1, 1) - b.K(0, 1) * b.K(1, 0);
  const Vec2 free((b.K(0, 1) * g.y() - b.K(1, 1) * g.x()) / det,
                  (b.K(1, 0) * g.x() - b.K(0, 0) * g.y()) / det);
  if (free.squaredNorm() <= radius * radius * b.inner_squared) return free;
  // Else the minimum lies on an edge that sees it (the K-metric projection is a Euclidean one
  // after a linear map, which keeps which side of an edge's line a point is on): the best point
  // of each such edge, a 1D clamp.
  Vec2 best = Vec2::Zero();
  double lowest = INFINITY;
  bool inside = true;
  for (int k = 0; k < nd; ++k) {
    const Vec2 p0 = radius * c[k], e = radius * (c[(k + 1) % nd] - c[k]);
    if (cross(e, free - p0) >= 0.0) continue;
    inside = false;
    const Vec2 Ke = b.K * e;
    const double t = std::clamp(-e.dot(b.K * p0 + g) / e.dot(Ke), 0.0, 1.0);
    const Vec2 p = p0 + t * e;
    const double value = p.dot(0.5 * (b.K * p) + g);
    if (value < lowest) {
      lowest = value;
      best = p;
    }
  }
  return inside ? free : best;
}

void PgsContactSolver::push_contact(const Block& b, double dn, const Vec2& df) {
  if (b.body_a >= 0)
    dv_.segment<6>(6 * b.body_a) += dn * b.WJ_a[0] + df.x() * b.WJ_a[1] + df.y() * b.WJ_a[2];
  if (b.body_b >= 0)
    dv_.segment<6>(6 * b.body_b) += dn * b.WJ_b[0] + df.x() * b.WJ_b[1] + df.y() * b.WJ_b[2];
}

void PgsContactSolver::push_row(const Lcp& lcp, int row, double dz) {
  const LcpBodyForm& f = lcp.body_form;
  if (dz == 0.0) return;
  if (f.body_a[row] >= 0) dv_.segment<6>(6 * f.body_a[row]) += dz * f.WJ_a[row];
  if (f.body_b[row] >= 0) dv_.segment<6>(6 * f.body_b[row]) += dz * f.WJ_b[row];
}

void PgsContactSolver::write_contact(const Block& b, VecX& z) const {
  const Vec2* c = &coords_[static_cast<std::size_t>(b.first)];
  const int nd = b.directions;
  z.segment(b.start, b.size).setZero();
  z(b.start) = b.p_n;
  auto beta = [&](int k) -> double& { return z(b.start + 1 + k); };
  if (b.f.squaredNorm() > 0.0) {
    if (b.tangents == 1) {  // the direction along f
      int best = 0;
      for (int k = 1; k < nd; ++k)
        if (c[k].x() * b.f.x() > c[best].x() * b.f.x()) best = k;
      beta(best) = std::abs(b.f.x() / c[best].x());
    } else {  // the two directions of f's sector: f = alpha d_k + gamma d_k+1
      for (int k = 0; k < nd; ++k) {
        const Vec2 &d0 = c[k], &d1 = c[(k + 1) % nd];
        const double det = cross(d0, d1);
        const double alpha = cross(b.f, d1) / det, gamma = cross(d0, b.f) / det;
        if (alpha >= 0.0 && gamma >= 0.0) {
          beta(k) = alpha;
          beta((k + 1) % nd) = gamma;
          break;
        }
      }
    }
  }
  // The slip speed s: 0 inside the polygon (sticking, u = 0 at the solution); on its boundary
  // max_k -d_k . u, which makes every w_k >= 0 and zero on the directions f uses.
  double used = 0.0;
  for (int k = 0; k < nd; ++k) used += beta(k);
  if (used >= b.mu * b.p_n * (1.0 - 1e-12)) {
    double c_rows[3];
    contact_offset(b, c_rows);
    const Vec2 u = b.K * b.f + b.k_tn * b.p_n + Vec2(c_rows[1], c_rows[2]);
    double s = 0.0;
    for (int k = 0; k < nd; ++k) s = std::max(s, -c[k].dot(u));
    z(b.start + b.size - 1) = s;
  }
}

double PgsContactSolver::sweep(const Lcp& lcp, VecX& z, std::string& why) {
  double moved = 0.0;
  for (std::size_t i = 0; i < blocks_.size(); ++i) {
    Block& b = blocks_[i];
    if (b.kind == Kind::Contact) {
      double c[3];
      contact_offset(b, c);
      // p_n from w_n = a p_n + k_nt . f + c_n = 0, projected; then f for that p_n.
      const double p_n = std::max(0.0, -(c[0] + b.k_nt.dot(b.f)) / b.a);
      const Vec2 f = polygon_minimum(b, Vec2(c[1], c[2]) + b.k_tn * p_n, b.mu * p_n);
      const double dn = p_n - b.p_n;
      const Vec2 df = f - b.f;
      push_contact(b, dn, df);
      b.p_n = p_n;
      b.f = f;
      moved = std::max(
          {moved, std::abs(dn) * b.a, std::abs(df.x()) * b.K(0, 0), std::abs(df.y()) * b.K(1, 1)});
      continue;
    }
    const MatX& M = block_M_[i];
    rows_offset(lcp, b, z, c_);
    if (b.kind == Kind::Row) {  // closed form of the 1x1 LCP
      if (!(M(0, 0) > 0.0)) {
        why = "row " + std::to_string(b.start) + " has a non-positive diagonal and no block";
        return -1.0;
      }
      const double x = std::max(0.0, -c_(0) / M(0, 0)), dz = x - z(b.start);
      push_row(lcp, b.start, dz);
      z(b.start) = x;
      moved = std::max(moved, std::abs(dz) * M(0, 0));
      continue;
    }
    // Any other block exactly, by Lemke from its current impulses.
    local_.M = M;
    local_.q = c_;
    x_ = z.segment(b.start, b.size);
    SolverOptions options = inner_solve_options();
    options.tolerance = 1e-12;
    options.warm_start = true;
    options.max_iterations = 50 * b.size;
    if (!block_solver_.solve(local_, x_, options).solved()) {
      why = "the block at row " + std::to_string(b.start) + " has no solution";
      return -1.0;
    }
    for (int r = 0; r < b.size; ++r) {
      const double dz = x_(r) - z(b.start + r);
      push_row(lcp, b.start + r, dz);
      moved = std::max(moved, std::abs(dz) * M(r, r));
    }
    z.segment(b.start, b.size) = x_;
  }
  return moved;
}

void PgsContactSolver::gather(const VecX& z, VecX& x) const {
  x.resize(unknowns_);
  int k = 0;
  for (const Block& b : blocks_) {
    if (b.kind == Kind::Contact) {
      x(k++) = b.p_n;
      x(k++) = b.f.x();
      x(k++) = b.f.y();
    } else {
      x.segment(k, b.size) = z.segment(b.start, b.size);
      k += b.size;
    }
  }
}

Vec2 PgsContactSolver::into_polygon(const Block& b, const Vec2& f, double radius) const {
  if (!(radius > 0.0)) return Vec2::Zero();
  const Vec2* c = &coords_[static_cast<std::size_t>(b.first)];
  const int nd = b.directions;
  if (b.tangents == 1) return Vec2(std::clamp(f.x(), radius * b.lo, radius * b.hi), 0.0);
  if (f.squaredNorm() <= radius * radius * b.inner_squared) return f;
  // Scaled toward 0 until inside every edge: t cross(e_k, f) >= radius cross(e_k, d_k).
  double t = 1.0;
  for (int k = 0; k < nd; ++k) {
    const Vec2 edge = c[(k + 1) % nd] - c[k];
    const double across = cross(edge, f);
    if (across < 0.0) t = std::min(t, radius * cross(edge, c[k]) / across);
  }
  return std::max(t, 0.0) * f;
}

void PgsContactSolver::step_by(const Lcp& lcp, VecX& z, const VecX& step) {
  int k = 0;
  for (Block& b : blocks_) {
    if (b.kind == Kind::Contact) {
      const double p_n = std::max(0.0, b.p_n + step(k));
      const Vec2 f = into_polygon(b, b.f + Vec2(step(k + 1), step(k + 2)), b.mu * p_n);
      push_contact(b, p_n - b.p_n, f - b.f);
      b.p_n = p_n;
      b.f = f;
      k += 3;
      continue;
    }
    for (int r = 0; r < b.size; ++r, ++k) {
      const double x = std::max(0.0, z(b.start + r) + step(k));
      push_row(lcp, b.start + r, x - z(b.start + r));
      z(b.start + r) = x;
    }
  }
}

double PgsContactSolver::residual(const Lcp& lcp, VecX& z) {
  for (const Block& b : blocks_)
    if (b.kind == Kind::Contact) write_contact(b, z);
  // dv afresh from z (the running one accumulates rounding), then each block's w.
  dv_.setZero(6 * lcp.body_form.bodies);
  for (int r = 0; r < z.size(); ++r) push_row(lcp, r, z(r));
  double worst = 0.0;
  for (std::size_t i = 0; i < blocks_.size(); ++i) {
    const Block& b = blocks_[i];
    rows_offset(lcp, b, z, c_);
    w_.noalias() = block_M_[i] * z.segment(b.start, b.size);
    w_ += c_;
    worst = std::max(worst, block_residual(z.segment(b.start, b.size), w_));
  }
  return worst;
}

SolveReport PgsContactSolver::solve(const Lcp& lcp, VecX& z, const SolverOptions& options) {
  if (lcp.body_form.empty()) {  // no body form: the block-wise PGS over M
    SolveReport general = general_.solve(lcp, z, options);
    general.solver = std::string(name());
    return general;
  }
  const auto t0 = solve_start(options);
  SolveReport report = open_report(options);
  report.solver = std::string(name());
  const int n = lcp.size();
  if (const char* defect = body_form_defect(lcp)) {
    z.setZero(n);
    return finish_report(std::move(report), SolveStatus::NumericalFailure, defect, 0.0, t0);
  }
  // The blocks, ascending from row 0 (one row each without a structure).
  blocks_.clear();
  coords_.clear();
  one_pair_ = true;
  const auto& starts = lcp.block_starts;
  if (!starts.empty() && starts.front() != 0) {
    z.setZero(n);
    return finish_report(std::move(report), SolveStatus::NumericalFailure,
                         "block_starts is not ascending from row 0", 0.0, t0);
  }
  const int blocks = starts.empty() ? n : static_cast<int>(starts.size());
  for (int k = 0; k < blocks; ++k) {
    const int s = starts.empty() ? k : starts[k];
    const int e = k + 1 < blocks ? (starts.empty() ? k + 1 : starts[k + 1]) : n;
    if (e <= s || e > n) {
      z.setZero(n);
      return finish_report(std::move(report), SolveStatus::NumericalFailure,
                           "block_starts is not ascending from row 0", 0.0, t0);
    }
    classify(lcp, s, e - s);
  }
  if (!one_pair_) {  // a block on several body pairs: the sweep over M, which must be whole
    if (lcp.blocks_only) {
      z.setZero(n);
      return finish_report(std::move(report), SolveStatus::NumericalFailure,
                           "a block's rows act on several body pairs and M holds only its "
                           "diagonal blocks",
                           0.0, t0);
    }
    report = general_.solve(lcp, z, options);
    report.solver = std::string(name());
    return report;
  }
  for (std::size_t k = 0; k < blocks_.size(); ++k) {
    if (block_M_[k].allFinite()) continue;
    z.setZero(n);
    return finish_report(std::move(report), SolveStatus::NumericalFailure,
                         "M has a non-finite entry in a diagonal block", 0.0, t0);
  }

  if (!(options.warm_start && z.size() == n && z.allFinite())) z.setZero(n);
  z = z.cwiseMax(0.0);
  // The contacts' p_n and f from the start's impulses, and dv = W J^T z.
  dv_.setZero(6 * lcp.body_form.bodies);
  for (int r = 0; r < n; ++r) push_row(lcp, r, z(r));
  for (Block& b : blocks_) {
    if (b.kind != Kind::Contact) continue;
    b.p_n = z(b.start);
    b.f.setZero();
    for (int k = 0; k < b.directions; ++k)
      b.f += z(b.start + 1 + k) * coords_[static_cast<std::size_t>(b.first + k)];
    if (b.tangents == 1) b.f.y() = 0.0;
  }
  const double tolerance = options.tolerance * (1.0 + lcp.q.cwiseAbs().maxCoeff());
  std::string why;
  auto finish = [&](SolveStatus status, std::string message) {
    const double r = residual(lcp, z);
    if (r <= tolerance) {  // the last sweep may have answered
      status = SolveStatus::Solved;
      message.clear();
    }
    report.record(r);
    return finish_report(std::move(report), status, std::move(message), r, t0);
  };
  unknowns_ = 0;
  for (const Block& b : blocks_) unknowns_ += b.kind == Kind::Contact ? 3 : b.size;
  cg_.restart();
  for (int sweep_count = 1; sweep_count <= options.max_iterations; ++sweep_count) {
    gather(z, before_);
    const double moved = sweep(lcp, z, why);
    // The nonsmooth conjugate gradient step after the sweep (nonsmooth_cg.hpp), projected back
    // onto p_n >= 0 and the polygon: stack20 stands within 20 sweeps a step with it, not
    // without.
    gather(z, after_);
    if (cg_.momentum(before_, after_, step_)) step_by(lcp, z, step_);
    report.iterations = sweep_count;
    if (moved < 0.0) {
      z.setZero(n);
      return finish_report(std::move(report), SolveStatus::NumericalFailure, why, 0.0, t0);
    }
    if (!dv_.allFinite()) {
      z.setZero(n);
      return finish_report(std::move(report), SolveStatus::NumericalFailure,
                           "the iterates became non-finite (diverged)", 0.0, t0);
    }
    // A sweep that changed no velocity beyond the tolerance: confirm on the LCP's residual.
    if (moved <= tolerance) {
      const double r = residual(lcp, z);
      if (r <= tolerance) {
        report.record(r);
        return finish_report(std::move(report), SolveStatus::Solved, "", r, t0);
      }
      report.record(r);
    }
    if (options.out_of_time() && sweep_count < options.max_iterations)
      return finish(SolveStatus::TimeBudget, time_budget_message(sweep_count));
  }
  return finish(SolveStatus::MaxIterations,
                "sweep limit " + std::to_string(options.max_iterations) + " reached");
}

}  // namespace pegsim
