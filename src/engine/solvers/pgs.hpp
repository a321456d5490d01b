// Projected Gauss–Seidel, block-wise (Cottle, Pang & Stone §5.2; one block per contact as in
// Erleben's "Numerical methods for linear complementarity problems in physics-based animation").
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "engine/solvers/lemke.hpp"
#include "engine/solvers/nonsmooth_cg.hpp"
#include "engine/solvers/solver.hpp"

namespace pegsim {

// The projected splitting methods of thesis (2.46)/(2.47), block-wise. Each sweep solves every
// block's LCP exactly (a 1x1 block in closed form, a larger one by Lemke) with the other
// blocks held fixed, and moves the block by `relaxation` times that change, projected on z >= 0:
//   Gauss–Seidel: blocks in order, each using the others' newest values (pgs: relaxation 1;
//                 psor: over-relaxation);
//   Jacobi:       every block from the values at the start of the sweep (projected Jacobi;
//                 thesis §2.4: relaxation about 0.5 converges where 1 does not).
// With Acceleration::Nncg each sweep is followed by the nonsmooth conjugate gradient step of
// nonsmooth_cg.hpp (nncg: Gauss–Seidel, relaxation 1).
class PgsSolver final : public Solver {
 public:
  enum class Sweep { GaussSeidel, Jacobi };
  enum class Acceleration { None, Nncg };
  explicit PgsSolver(Sweep sweep = Sweep::GaussSeidel, double relaxation = 1.0,
                     Acceleration acceleration = Acceleration::None)
      : sweep_(sweep), relaxation_(relaxation), acceleration_(acceleration) {}
  std::string_view name() const override {
    if (acceleration_ == Acceleration::Nncg) return "nncg";
    if (sweep_ == Sweep::Jacobi) return "projected-jacobi";
    return relaxation_ == 1.0 ? "pgs" : "psor";
  }
  // The residual history has one entry per sweep. A run whose best residual, still over 1000
  // times the tolerance, falls so slowly over the last max(100, max_iterations / 20) sweeps
  // that even ten times that rate would not reach the tolerance within the sweep limit stops
  // there (MaxIterations, "stalled"): PGS converges linearly at best, and on a pile it does not
  // solve (pile80's steps that Lemke leaves to it) its residual hovers for all 10 000 sweeps, a
  // minute a step. Gauss–Seidel sweeps in the body form of M when the problem has one
  // (Lcp::body_form; pgs_bodies.cpp), over the dense M otherwise.
  SolveReport solve(const Lcp& lcp, VecX& z, const SolverOptions& options) override;

 private:
  // The blocks of the body form: consecutive blocks acting on the same two bodies (the
  // contacts between two bodies) merged into one group, solved exactly together.
  struct Group {
    int start = 0, size = 0, body_a = -1, body_b = -1;
  };
  // Groups the blocks by body pair and copies their diagonal blocks of M; false when a block's
  // rows act on different body pairs (then the dense sweep is used).
  bool group_blocks(const Lcp& lcp);
  // q_g + J_g^T (dv - the group's own share): the group's LCP is M_gg z_g + c_g.
  void group_offset(const Lcp& lcp, const Group& g, const VecX& z, VecX& c) const;
  // Exact solution x of the group's LCP (M_gg, c), from z_g's active set if it holds, else by
  // Lemke; false (with `why`) if there is none.
  bool solve_group(int k, const VecX& c, const VecX& start, double tolerance, VecX& x,
                   std::string& why);
  // Gauss–Seidel over the groups, keeping dv = W J^T z per body (O(nnz(J)) per sweep).
  SolveReport solve_body_form(const Lcp& lcp, VecX& z, const SolverOptions& options,
                              SolveReport report, std::chrono::steady_clock::time_point t0);
  // The exact natural residual of z from dv (O(nnz(J))).
  double body_form_residual(const Lcp& lcp, const VecX& z);

  // The exact solution of block [s, s + m) (M_bb its diagonal block of M) with the others
  // fixed, as a change dz of z_b.
  bool solve_block(const Lcp& lcp, const MatX& M_bb, const VecX& z, const VecX& w, int s, int m,
                   SolverOptions& options, VecX& dz, std::string& why);

  // Records a sweep's residual; true when the run has stalled (see solve()).
  bool stalled(double residual, double tolerance, int limit);
  static std::string stall_message(double residual, int sweep);

  Sweep sweep_;
  double relaxation_;
  Acceleration acceleration_;
  NonsmoothCg cg_;
  VecX before_, step_;        // the iterate before a sweep, the conjugate gradient step after it
  std::vector<double> best_;  // the best residual up to each sweep of this solve
  LemkeSolver block_solver_;
  Lcp block_;
  VecX block_z_, w_, change_;
  std::vector<int> bounds_;
  std::vector<MatX> block_M_;  // M_bb per block of the dense sweep (empty for a single row)
  std::vector<Group> groups_;
  std::vector<MatX> group_M_;  // M_gg per group
  VecX dv_, c_, x_, start_, w_group_;
  MatX active_M_;
  VecX active_c_;
  std::vector<int> active_;
  SolverOptions group_options_ = inner_solve_options();
};

}  // namespace pegsim
