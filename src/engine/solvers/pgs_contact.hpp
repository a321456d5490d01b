// Projected Gauss–Seidel contact by contact, the friction polygon in closed form: the sweep of
// the game engines (Catto's sequential impulses, ODE's QuickStep) on the Stewart–Trinkle LCP
// (thesis (6.1)), in its body form (lcp.hpp). The interactive preset's solver.
#pragma once

#include <string>
#include <vector>

#include "engine/solvers/lemke.hpp"
#include "engine/solvers/nonsmooth_cg.hpp"
#include "engine/solvers/pgs.hpp"
#include "engine/solvers/solver.hpp"

namespace pegsim {

// A contact block of (6.1) is [p_n; beta_1..beta_nd; s] with
//   w_n = a p_n + k_nt . f + c_n,   w_k = d_k . u + s,   w_s = mu p_n - sum_k beta_k,
// where f = sum_k beta_k d_k is the friction impulse in the tangent plane and u = K f + k_tn p_n
// + c_t the slip velocity (K the block's tangential M, c the other blocks' share through the
// body form). For fixed p_n, the block's friction rows are the optimality conditions of
//   min 1/2 f^T K f + (c_t + k_tn p_n) . f   over the polygon conv{mu p_n d_k},
// (maximal dissipation over the linearized cone), a 2D QP solved exactly: the unconstrained
// minimum if it lies inside, else the best point of the polygon's edges. A sweep updates each
// contact's p_n in closed form, then its f, so a fixed point of the sweep is a solution of the
// LCP; z's beta and s are rebuilt from f at the end (the two directions spanning f's sector; s
// the largest -d_k . u on the polygon's boundary), and the report's residual is the LCP's.
// Per contact a sweep costs O(n_d) instead of a block Lemke solve. Each sweep is followed by the
// nonsmooth conjugate gradient step of nonsmooth_cg.hpp on the unknowns (p_n, f) (and the other
// blocks' rows), projected back onto p_n >= 0 and the polygon.
//
// Blocks of other shapes (a torsion row, a joint limit's or a frictionless contact's single
// row, whatever is not a plain contact) are solved exactly with the others fixed, as PgsSolver
// does; a problem without a body form (joints by their Schur complement, PEG), or with a block
// whose rows act on different body pairs, goes to PgsSolver.
// max_iterations is the number of sweeps. The residual history holds the LCP's natural residual
// where it is measured (it costs a sweep): after a sweep that changed no velocity by more than
// the tolerance, and at the end.
class PgsContactSolver final : public Solver {
 public:
  std::string_view name() const override { return "pgs-contact"; }
  bool takes_blocks_only() const override { return true; }
  SolveReport solve(const Lcp& lcp, VecX& z, const SolverOptions& options) override;

 private:
  enum class Kind { Row, Contact, Block };
  // One block of the LCP as the sweep sees it. For a contact: its normal row and the tangent
  // rows t_1, t_2 (P J_beta, P = (D D^T)^-1 D with D the directions' coordinates in the plane)
  // on the two bodies, and the block's in-block M in those coordinates.
  struct Block {
    Kind kind = Kind::Row;
    int start = 0, size = 0, body_a = -1, body_b = -1;
    int tangents = 0;    // 1 (planar: +-t) or 2
    int directions = 0;  // n_d
    int first = 0;       // its directions' coordinates in coords_
    double a = 0.0, mu = 0.0;
    double inner_squared = 0.0;  // the unit polygon's inscribed circle, its squared radius
    double lo = 0.0, hi = 0.0;   // planar: the unit impulses' segment along t_1
    Vec2 k_nt = Vec2::Zero(), k_tn = Vec2::Zero();
    Mat2 K = Mat2::Zero();
    Vec6 J_a[3], J_b[3], WJ_a[3], WJ_b[3];  // rows n, t_1, t_2 per end
    double q[3] = {0.0, 0.0, 0.0};
    double p_n = 0.0;
    Vec2 f = Vec2::Zero();
  };
  // Reads block k's rows; a contact's structure is checked, and anything else is a Block.
  void classify(const Lcp& lcp, int start, int size);
  void read_contact(const Lcp& lcp, Block& b);
  // c = q + J (dv - the block's own share) for a contact's rows n, t_1, t_2.
  void contact_offset(const Block& b, double c[3]) const;
  // c = q + J (dv - own) for a Row or Block's rows.
  void rows_offset(const Lcp& lcp, const Block& b, const VecX& z, VecX& c) const;
  // The friction impulse minimizing 1/2 f^T K f + g . f over conv{radius d_k}.
  Vec2 polygon_minimum(const Block& b, const Vec2& g, double radius) const;
  // z's rows of a contact from p_n and f (beta on f's sector, s from the slip velocity).
  void write_contact(const Block& b, VecX& z) const;
  // dv += W J^T of an impulse change (dn along n, df in the tangent plane).
  void push_contact(const Block& b, double dn, const Vec2& df);
  void push_row(const Lcp& lcp, int row, double dz);
  // One Gauss–Seidel sweep; returns the largest |M_ii dz_i| it made, or -1 (and `why`) if a
  // block had no solution.
  double sweep(const Lcp& lcp, VecX& z, std::string& why);
  // The LCP's natural residual of z (contacts rebuilt) from dv recomputed.
  double residual(const Lcp& lcp, VecX& z);
  void gather(const VecX& z, VecX& x) const;
  Vec2 into_polygon(const Block& b, const Vec2& f, double radius) const;
  void step_by(const Lcp& lcp, VecX& z, const VecX& step);
  int unknowns_ = 0;
  bool one_pair_ = true;  // every block's rows act on one body pair (else: general_)
  NonsmoothCg cg_;
  VecX before_, after_, step_;

  std::vector<Block> blocks_;
  std::vector<Vec2> coords_;     // the directions d_k in the tangent basis, per contact
  std::vector<Vec2> rows_of_p_;  // read_contact's P, column by column
  std::vector<MatX> block_M_;    // M_bb of the Block kind (by index in blocks_, else empty)
  VecX dv_, c_, x_, w_;
  MatX M_bb_;
  Lcp local_;
  LemkeSolver block_solver_;
  PgsSolver general_;  // problems without a body form
};

}  // namespace pegsim
