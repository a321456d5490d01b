// A PATH-style solver for a general (nonlinear) mixed complementarity problem: find z with
//   free rows:    F_i(z) = 0
//   bounded rows: 0 <= z_i  _|_  F_i(z) >= 0
// for a smooth F given with its Jacobian. The geometrically implicit step (seed 001, (21)-(22))
// is such a problem, solved once per step as the paper does with PATH (Ferris & Munson): here
// semismooth Newton on the Fischer-Burmeister reformulation, Phi_i = F_i on free rows and
// phi(z_i, F_i) = z_i + F_i - sqrt(z_i^2 + F_i^2) on bounded ones, with a non-monotone Armijo
// search on |Phi|^2 / 2 (Ralph's path search in PATH plays the same part; its reference turns
// monotone after a few iterations without progress), a proximal term on the rows of unknowns
// that redundant constraints leave undetermined, a regularized direction where the Newton one is
// no descent direction, and steepest descent as the last resort. The Jacobian comes sparse (a
// pile's couples each contact with its two bodies only); the Newton systems are solved densely
// below `sparse_from` unknowns.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <Eigen/SparseCore>

#include "engine/core/math.hpp"

namespace pegsim {

using SparseMatrix = Eigen::SparseMatrix<double>;

struct NonlinearMcp {
  int size = 0;
  std::vector<char> bounded;  // per row: 1 for 0 <= z_i _|_ F_i >= 0, 0 for F_i = 0
  // Per row, or empty: 1 where the unknown may be undetermined at a solution (a contact impulse
  // among redundant constraints); the Newton systems give these rows a proximal term, positive
  // on their diagonal: their F must increase with their unknown, as a constraint row's does.
  std::vector<char> proximal;
  // Disjoint blocks of unknowns whose rows reach no other block's unknowns (a contact pair's
  // closest points and multipliers), eliminated before the sparse LU of a Newton system; empty:
  // none.
  std::vector<std::vector<int>> local_blocks;
  // F(z) and, when J is not null, its Jacobian dF/dz (size x size) with every diagonal entry
  // present (zero or not) and the same pattern at every z.
  std::function<void(const VecX& z, VecX& F, SparseMatrix* J)> evaluate;
};

struct McpNewtonOptions {
  double tolerance = 1e-10;  // on the natural residual |z - mid(l, u, z - F)|_inf
  int max_iterations = 100;
  // Newton steps taken even from a start within the tolerance: a warm start near the answer
  // is refined to it (quadratically) rather than accepted as it is.
  int min_iterations = 0;
  // From this many unknowns the Newton systems are solved by sparse LU, below by dense LU.
  int sparse_from = 120;
};

struct McpNewtonReport {
  bool solved = false;
  int iterations = 0;
  double residual = 0.0;  // natural residual of the returned z
  std::string failure;    // why not solved
};

// Natural residual of z: |F_i| on free rows, |min(z_i, F_i)| on bounded ones (max over rows).
double natural_residual(const NonlinearMcp& mcp, const VecX& z, const VecX& F);

// Solves from z (the start; resized to mcp.size if it is not); on failure z is the iterate of
// least merit.
McpNewtonReport solve_mcp_newton(const NonlinearMcp& mcp, VecX& z,
                                 const McpNewtonOptions& options = {});

}  // namespace pegsim
