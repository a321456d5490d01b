// Lemke's complementary pivoting method (Cottle, Pang & Stone, "The Linear Complementarity
// Problem", §4.4), with a stable ratio test for speed and the lexicographic one (§4.9), in
// extended precision, as the last word.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "engine/solvers/lemke_revised.hpp"
#include "engine/solvers/lemke_small.hpp"
#include "engine/solvers/lemke_tableau.hpp"
#include "engine/solvers/solver.hpp"

namespace pegsim {

class LemkeSolver final : public Solver {
 public:
  std::string_view name() const override { return "lemke"; }
  // In order, until one gives a z within the tolerance:
  //  1. warm start (options.warm_start): the complementary basis {z_i basic where the
  //     previous basis had z_i (options.warm_basis) or z_i > 0, w_i elsewhere} as it is, then
  //     Lemke from that basis (covering vector d = B e);
  //  2. the cold start with Harris' ratio test, in double: on problems of LemkeSmall::kMaxRows
  //     rows or fewer first on lemke_small.hpp's fixed arrays; on problems of kFastPathRows and
  //     more first through the fast path from each covering vector of lemke_cover.hpp (Slip, Unit,
  //     Diagonal), then the tableau with d = e;
  //  3. the cold start with the lexicographic ratio test, which cannot cycle, in double and
  //     then in long double: only a ray of the long double run is reported as Unsolvable.
  // Past options.deadline it stops with SolveStatus::TimeBudget and the warm start (or zero).
  // Iterations count the complementary pivots of every run. options.max_iterations bounds their
  // sum, except that each covering vector's run of the fast path has min(max_iterations,
  // 2 n + 100) pivots of its own.
  SolveReport solve(const Lcp& lcp, VecX& z, const SolverOptions& options) override;
  const std::vector<char>* final_basis() const override {
    return basis_.empty() ? nullptr : &basis_;
  }

 private:
  // How a run answered: through the fast path (its residual in fast_residual_), through a
  // tableau, or not at all.
  enum class Answer { None, Fast, Dense };
  Answer warm_start(const Lcp& lcp, const SolverOptions& options, VecX& z, SolveReport& report);
  Answer cold_start(const Lcp& lcp, VecX& z, SolveReport& report);
  std::pair<SolveStatus, std::string> exact_lexicographic(const Lcp& lcp, VecX& z,
                                                          SolveReport& report);
  LemkeTableau<double>& dense(const Lcp& lcp);
  // z from the tableau's basis, kept (with basis_) if within the tolerance.
  template <typename T>
  bool accept(LemkeTableau<T>& tableau, VecX& z);
  template <typename T>
  bool restart_from(const Lcp& lcp, LemkeTableau<T>& tableau, VecX& z, SolveReport& report);
  bool dense_solved(const Lcp& lcp, LemkeTableau<double>::End end, VecX& z, SolveReport& report);
  bool try_basis(const Lcp& lcp, const std::vector<int>& Z, VecX& z, double tolerance);
  // The fast path's answer from the basis of Z; `ended_on_ray`, if given, tells a run that
  // ended on a ray.
  bool fast_solved_from(const Lcp& lcp, const std::vector<int>& Z, int max_pivots, VecX& z,
                        SolveReport& report, bool* ended_on_ray = nullptr,
                        Cover cover = Cover::Slip);

  // Smaller problems skip the fast path: dense is faster there (stack10, 360 rows: 0.3 ms per
  // step dense, 1.1 ms through the sparse LU).
  static constexpr int kFastPathRows = 400;
  LemkeRevised revised_;    // the fast path, bound to problems of kFastPathRows rows and more;
                            // the tableaus below are the verified fallback
  double tolerance_ = 0.0;  // of this call: options.tolerance (1 + |q|_inf)
  int budget_ = 0;          // of this call: options.max_iterations pivots
  Deadline deadline_ = kNoDeadline;  // of this call: options.deadline
  bool dense_bound_ = false;         // fast_ is bound to this call's problem
  double fast_residual_ = 0.0;       // natural residual of the fast path's last candidate
  double accepted_residual_ = 0.0;   // natural residual of the last Dense answer

  LemkeSmall small_;  // cold runs of tiny problems
  LemkeTableau<double> fast_;
  LemkeTableau<long double> exact_;
  std::vector<int> Z_;       // indices of the basic z_i of the warm start
  std::vector<char> basis_;  // final basis of the last solved call (empty otherwise)
  MatX MZZ_;                 // warm-basis workspaces
  VecX qZ_, zZ_, candidate_, polished_;
  VecX start_;  // the warm start, returned when the time budget is spent
};

}  // namespace pegsim
