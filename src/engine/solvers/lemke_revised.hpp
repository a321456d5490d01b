// Revised Lemke with a factored basis: the fast path of LemkeSolver. The basis B of
//   w - M z - d z0 = q,   w, z, z0 >= 0,   w_i z_i = 0
// (Cottle, Pang & Stone, "The Linear Complementarity Problem", Algorithm 4.4.5), columns of
// [I, -M, -d], is kept as a factor of the basis last factored times product-form (eta)
// updates, one per pivot (Dantzig & Orchard-Hays' product form of the inverse): FTRAN gives the
// entering column B^-1 a, the ratio test runs over the maintained x = B^-1 q, and a lexicographic
// tie is broken on the two rows of B^-1 computed by BTRAN. The basis is refactored every
// kRefactor pivots and after a small pivot. The factor is a sparse LU of B's block on the z
// columns and the rows without a basic w only (refactor()): on pour20's resting pile that block
// is about 260 of B's 900 rows, which took a step from 11.2 to 7.2 ms (bench_scenes, pour20).
//
// M's columns are about 5 % full on a pile (pour20), so B is sparse where the dense tableau's
// B^-1 is not. This path never has the last word: it answers only when it ends on a solution,
// and LemkeSolver checks that answer; a ray, the pivot limit, a singular factor or a non-finite
// value end it as Doubtful and the dense tableau runs from the same start.
#pragma once

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <vector>

#include "engine/solvers/lemke_cover.hpp"
#include "engine/solvers/solver.hpp"

namespace pegsim {

class LemkeRevised {
 public:
  // Ray: no row blocks the entering column (the dense tableau from the same start takes the
  // same path to the same ray: test FastPathWarmAnswersSolveThePour20Problems).
  enum class End { Solution, Ray, Doubtful };

  // Binds the problem (M indexed by columns, nonzeros only); `tolerance` is the natural
  // residual accepted as a solution. False if M has a non-finite entry.
  bool bind(const Lcp& lcp, double tolerance);

  // Factors the complementary basis {z_i : i in Z} ∪ {w_i : i not in Z} with covering vector
  // d = B e (Z empty: the cold start B = I with lemke_cover.hpp's d of `cover`) and computes
  // x = B^-1 q. False if the factor is singular or x is not finite.
  bool start(const std::vector<int>& Z, Cover cover = Cover::Slip);
  // True if the started basis is feasible as it is (x >= 0): it then solves the LCP.
  bool feasible() const { return n_ == 0 || x_.minCoeff() >= 0.0; }

  // Harris' ratio test (lexicographic among equal pivots) until z0 leaves or reaches zero
  // (Solution), a ray (Ray), or `max_pivots` complementary pivots in all (report.iterations is
  // cumulative), a singular factor (Doubtful).
  End run(int max_pivots, SolveReport& report);
  // The wall-clock time after which run() stops as at its pivot limit (SolverOptions::deadline).
  void set_deadline(Deadline deadline) { deadline_ = deadline; }

  // After run() ended on Solution with z0 still basic (at z0 |d| <= tolerance): the last
  // variable to leave returns in z0's row, so the basis is complementary and its x = B^-1 q
  // solves the LCP with no z0 term. False (basis unchanged) if z0 is not basic or
  // the pivot is below kPivot of its column.
  bool drop_z0();
  // z from the final basis, its basic values refined twice against B taken afresh.
  void extract(VecX& z);
  // Natural residual ||min(z, M z + q)||_inf over M's nonzeros (O(nnz), not the dense O(n^2)).
  double residual(const VecX& z);
  // Per variable: 1 if z_i is basic.
  void basic_z(std::vector<char>& flags) const;

  // Pivots, refactorizations and lexicographic ties of the runs since bind (for tests).
  struct Counts {
    int refactorizations = 0;
    int ties = 0;
  };
  const Counts& counts() const { return counts_; }

 private:
  static constexpr double kPivot = 1e-9;     // as the dense tableau: smaller pivots are zero
  static constexpr double kTie = 1e-12;      // Harris' tolerance, relative to |q|
  static constexpr double kSmallEta = 1e-6;  // a pivot this small relative to its column refactors
  static constexpr int kRefactor = 64;       // etas kept before the basis is factored afresh

  bool coupled_blocks(const Lcp& lcp);  // false: no body form, bind reads all of M
  bool refactor();
  void column_of(int variable, VecX& column) const;  // column of B's variable in [I, -M, -d]
  void ftran(VecX& y);                               // y <- B^-1 y
  void solve_factor(VecX& y);                        // y <- B_0^-1 y
  void solve_factor_transposed(VecX& u);             // u <- B_0^-T u
  std::size_t btran_row(int r);  // slot of row r of B^-1 in cached_ (per ratio test)
  int leaving_row(const VecX& a);
  int lexicographic_row(const VecX& a, double threshold);
  bool lex_less(int r1, int r2, const VecX& a);
  bool pivot(int row, int variable, const VecX& a);
  void record_residual(SolveReport& report) const;

  const Lcp* lcp_ = nullptr;
  int n_ = 0;
  double tolerance_ = 0.0, x_floor_ = 0.0, lex_zero_ = 0.0;
  Deadline deadline_ = kNoDeadline;
  std::vector<int> col_start_, m_row_;  // M in compressed sparse columns
  // coupled_blocks(): per row its block, per body the blocks acting on it, per block the blocks
  // it may couple with (coupled_start_ indexes coupled_), and workspaces.
  int blocks_ = 0;
  std::vector<int> block_of_, body_start_, body_blocks_, coupled_start_, coupled_;
  std::vector<int> fill_, mark_, merged_;
  std::vector<double> m_value_;
  std::vector<int> basic_, row_of_;  // variables: w_i = i, z_i = n + i, z0 = 2n
  int last_leaving_ = -1;            // the variable the last pivot of run() took out
  VecX x_, d_, a_, res_, solved_, part_;
  VecX cover_;  // B^-1 d at the start: cold_covering_vector, or e from a warm basis
  // The factored block S of B_0 (refactor()): per equation the slot of its basic w_i or -1, the
  // slots of the basic z's (and z0), the rows R without a basic w and each row's place in R.
  std::vector<int> w_slot_, z_slot_, r_row_, r_index_;
  std::vector<int> wz_start_, wz_slot_;  // -B_WZ by z slot: the w slots of the W rows it touches
  std::vector<double> wz_value_;         // and their values
  Eigen::SparseMatrix<double> S_;
  std::vector<Eigen::Triplet<double>> triplets_;
  Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> lu_;
  // Etas since the last factorization: pivot row, pivot value and the column's other entries,
  // eta e's from eta_value_[eta_start_[e]]: n of them for a dense eta (the pivot row's 0), else
  // its nonzeros with their rows from eta_index_[eta_index_start_[e]].
  std::vector<int> eta_row_, eta_start_, eta_index_start_, eta_index_;
  std::vector<double> eta_pivot_, eta_value_;
  bool eta_dense(std::size_t e) const {
    return eta_index_start_[e + 1] == eta_index_start_[e] &&
           eta_start_[e + 1] - eta_start_[e] == n_;
  }
  std::vector<int> eligible_;  // leaving_row's rows with a pivot above the threshold
  // BTRAN rows of the current ratio test.
  std::vector<int> cached_row_;
  std::vector<VecX> cached_;
  VecX unit_;
  Counts counts_;
};

}  // namespace pegsim
