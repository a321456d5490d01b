// Lemke's method for tiny problems (n <= kMaxRows): the cold start of LemkeTableau (B = I,
// d = e, Harris' ratio test; Cottle, Pang & Stone Algorithm 4.4.5) on fixed-size arrays, so
// that a solve allocates nothing and binds nothing. On a problem of a few rows (Siconos' test
// set, a single contact's block) the method is a handful of pivots and the general tableau's
// set-up (binding M, indexing its columns, refining the answer with an LU of M_ZZ) would cost
// more than the pivots. LemkeSolver runs it first on a cold tiny problem and falls back to the
// general runs whenever it does not answer within the tolerance.
#pragma once

#include <vector>

#include "engine/solvers/lcp.hpp"
#include "engine/solvers/solver.hpp"

namespace pegsim {

class LemkeSmall {
 public:
  static constexpr int kMaxRows = 16;

  // Copies (M, q) of n <= kMaxRows rows; false if an entry is not finite.
  bool bind(const Lcp& lcp);
  // Lemke from B = I, d = e on the bound problem. True with z (its natural residual in
  // `residual`) and the basic z_i in `basis` when the run ends on a complementary basis whose z
  // is within `tolerance`; false otherwise (a ray, the pivot limit, the deadline, a basis that
  // misses the tolerance), with z unspecified. report.iterations counts the complementary
  // pivots; the report's history (if kept) gets the residual of each.
  bool solve(double tolerance, int max_pivots, Deadline deadline, VecX& z, double& residual,
             std::vector<char>& basis, SolveReport& report);
  // Whether the last solve ended on a secondary ray (no row blocked the entering variable).
  bool ended_on_ray() const { return ray_; }
  // Whether that ray was reached with every choice on the way clear of rounding (clear_choice):
  // the long double lexicographic run would take the same pivots to the same ray.
  bool ray_is_clear() const { return ray_ && clear_ray_; }

 private:
  // Every step below for N rows known when compiled (N = 0: n_ rows), so that the loops of the
  // smallest problems unroll; solve() picks N.
  template <int N>
  int rows() const {
    return N > 0 ? N : n_;
  }
  template <int N>
  bool run(double tolerance, int max_pivots, Deadline deadline, VecX& z, double& residual,
           std::vector<char>& basis, SolveReport& report);
  // Row leaving for the entering column a_ (Harris' two-pass ratio test, as the tableau's);
  // -1 for a ray.
  template <int N>
  int leaving_row() const;
  // max(1, max_r |a_r|): the scale of the entering column's pivot threshold.
  template <int N>
  double column_largest() const;
  template <int N>
  bool lex_less(int r1, int r2) const;
  template <int N>
  bool clear_choice(int row) const;
  template <int N>
  bool clear_ray() const;
  template <int N>
  void pivot(int row, int variable);
  template <int N>
  double pivot_residual() const;
  template <int N>
  double extract(VecX& z);
  template <int N>
  double residual_of(const VecX& z) const;

  static constexpr double kPivot = 1e-9;
  static constexpr double kTie = 1e-12;
  static constexpr double kClear = 1e-8;  // margin of a clear choice, relative to its scale
  static constexpr double kGrowth = 1e6;  // largest |B^-1| entry at a clear ray

  int n_ = 0;
  bool ray_ = false;
  bool clear_ray_ = false;        // every choice of the run so far clear (clear_choice)
  double lex_zero_ = 0.0;         // |M| eps: lexicographic entries below it count as zero
  double q_norm_ = 0.0;           // |q|, the scale of the basic values
  double x_floor_ = 0.0;          // kTie |q|: Harris' allowance below zero
  double M_[kMaxRows][kMaxRows];  // M(i, j) as M_[j][i]: column-wise
  double q_[kMaxRows];
  double Binv_[kMaxRows][kMaxRows];  // B^-1(i, k) as Binv_[k][i]
  double x_[kMaxRows];               // basic values
  double a_[kMaxRows];               // the entering column B^-1 (column of the variable)
  int basic_[kMaxRows];              // variable of each row: w_i = i, z_i = n + i, z0 = 2 n
  int row_of_[2 * kMaxRows + 1];     // row of each variable, -1 if nonbasic
};

}  // namespace pegsim
