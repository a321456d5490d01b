// Crossover for the NCP with the quadratic cone (ncp.hpp, thesis (2.18)-(2.20)): what PATH does
// once its iterates are close (and what path.cpp's active_set_polish does for the LCP). From an
// iterate z near a solution, each row's side of the complementarity is read off mid(l, inf,
// z - F) and held: a row at its bound keeps z_i = 0, the others F_i = 0; per contact this is
//   no load  (p_n = 0):          p_t = 0,          sigma = |u_t|
//   stick    (sigma at 0):       w_n = 0,  u_t = 0,  sigma = 0
//   slide    (sigma > 0):        w_n = 0,  mu p_n u_t + p_t sigma = 0,  mu p_n - |p_t| = 0
// and the resulting square system E(z) = 0 (smooth near z while no contact changes mode) is
// solved by Gauss–Newton with regularized least-squares steps, near the minimum-norm ones
// (sparse_direction.hpp). Why: on a pile M is singular (four corners of
// a face on a face give 12 rows for 6 degrees of freedom) and the Newton methods' iterates creep
// at residuals 1e-9..1e-7 (pour20; docs/solvers.md); the held system is consistent there, and
// minimum-norm steps move z least, so the inequalities that held with a margin keep holding.
// The answer counts only if the NCP's own natural residual meets the tolerance.
#pragma once

#include <vector>

#include "engine/solvers/ncp.hpp"
#include "engine/solvers/sparse_direction.hpp"

namespace pegsim {

class NcpCrossover {
 public:
  // Holds z's sides and runs Gauss–Newton, releasing rows while the held system is inconsistent;
  // z becomes the answer (bounds clamped) and true is returned when its natural residual is
  // <= tolerance, else z is left as given.
  bool solve(const Ncp& ncp, VecX& z, double tolerance);

 private:
  enum class Row : char { AtBound, Equation, StickTangent, SlipSpeed };
  void classify(const Ncp& ncp, const VecX& z);
  // E(z) over the held rows (into E_) and, if J is non-null, its Jacobian over the free columns.
  // Rows and columns are the same indices (columns_): the system is square.
  void equations(const Ncp& ncp, const VecX& z, SparseRowsX* J);

  // The sides read at x (released_ overriding), Gauss–Newton from x; true if x now solves.
  bool held_solve(const Ncp& ncp, VecX& x);
  std::vector<Row> rows_;
  std::vector<char> released_;  // per row: how it was released (0: not)
  std::vector<int> cone_of_row_;
  double tolerance_ = 0.0;
  std::vector<int> columns_;    // the variables not held at their bound
  std::vector<int> column_of_;  // per row, its place in columns_ (-1: held at its bound)
  VecX x_, w_, F_, E_, dx_, rhs_, trial_;
  SparseRowsX m_rows_;  // M by rows
  JacobianRows JF_;     // dF/dz
  SparseRowsX J_;       // the held system's Jacobian
  std::vector<Eigen::Triplet<double>> entries_;
  SparseDirection direction_;
};

}  // namespace pegsim
