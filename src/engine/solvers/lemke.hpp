// Lemke's complementary pivoting method with a lexicographic ratio test (Cottle, Pang & Stone,
// "The Linear Complementarity Problem", §4.4 and §4.9), on a revised tableau B^-1.
#pragma once

#include <vector>

#include "engine/solvers/solver.hpp"

namespace pegsim {

class LemkeSolver final : public Solver {
 public:
  std::string_view name() const override { return "lemke"; }
  // Warm start (options.warm_start): the complementary basis {z_i basic where z_i > 0, w_i basic
  // elsewhere} is tried first; if it is not feasible, Lemke runs from that basis (covering
  // vector d = B e). Then the classical cold start (d = e), first with Harris' stable ratio
  // test, last with the lexicographic one; iterations count the pivots of every run.
  SolveReport solve(const Lcp& lcp, VecX& z, const SolverOptions& options) override;

 private:
  enum class End { Solution, Ray, IterationLimit, Singular };

  bool try_basis(const Lcp& lcp, const VecX& guess, VecX& z, double tolerance);
  bool start_from_basis(const Lcp& lcp, const VecX& guess);
  void start_cold(const Lcp& lcp);
  End pivot_until_done(const Lcp& lcp, int max_pivots, SolveReport& report);
  void entering_column(const Lcp& lcp, int variable, VecX& a) const;
  int leaving_row(const VecX& a) const;
  int lexicographic_row(const VecX& a, double threshold) const;
  bool lex_less(int r1, int r2, const VecX& a) const;
  void pivot(int row, int variable, const VecX& a);
  void record_residual(SolveReport& report) const;
  void extract(const Lcp& lcp, VecX& z);

  // Variables: w_i = i, z_i = n + i, the artificial z0 = 2n.
  int n_ = 0;
  MatX Binv_;                // inverse of the basis matrix, columns of [I, -M, -d]
  VecX x_;                   // values of the basic variables, row by row
  VecX d_;                   // covering vector
  double x_floor_ = 0.0;     // how far below zero the ratio test lets a basic value go
  double lex_zero_ = 0.0;    // |M| eps: smaller tableau entries count as zero
  double tolerance_ = 0.0;   // natural residual accepted as a solution
  bool lexicographic_ = false;  // ratio test: lexicographic (anti-cycling) or Harris (stable)
  std::vector<int> basic_;   // variable basic in each row
  std::vector<int> row_of_;  // row of each variable, -1 when nonbasic
  VecX a_;                   // entering column workspace
  Eigen::RowVectorXd row_;   // pivot row workspace
};

}  // namespace pegsim
