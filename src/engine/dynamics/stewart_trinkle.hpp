// Stage 5: the Stewart–Trinkle LCP with a linearized friction cone, thesis (6.1)/(6.2).
#pragma once

#include <vector>

#include "engine/core/contact.hpp"
#include "engine/core/model.hpp"
#include "engine/core/settings.hpp"
#include "engine/core/state.hpp"
#include "engine/solvers/lcp.hpp"

namespace pegsim {

// The frictional contact problem of one step, for the contacts that are enforced.
// Unknowns per contact i, stored contiguously (one LCP block per contact):
//   [p_n,i ; p_f,i1 .. p_f,i n_d ; s_i]
// so the LCP is (6.1) with its rows permuted contact by contact.
struct ContactProblem {
  int directions = 0;                   // n_d
  std::vector<int> contact;             // index into the step's contact list, per block
  std::vector<double> mu;               // U = diag(mu_i)
  std::vector<Vec3> tangents;           // n_d unit directions d_ij per contact, row-major
  // Per column (normal and friction, (1 + n_d) per contact) and per body end (A, B):
  // the Jacobian column G (6-vector, [linear; angular]) and M^-1 G, 0 for static bodies.
  std::vector<Vec6> G_a, G_b, WG_a, WG_b;
  std::vector<int> body_a, body_b;      // per contact: dynamic state index or -1 if static
  VecX free_velocity;                   // nu + M^-1 p_ext, 6 per body
  Lcp lcp;

  int block_size() const { return directions + 2; }
  int contacts() const { return static_cast<int>(contact.size()); }
};

// Per-body velocity update that does not depend on contacts: p_ext = h (f + m g; tau - w x J w).
// Writes nu + M^-1 p_ext for every body into `free_velocity` (zero for static bodies).
void free_velocities(const Model& model, const State& state, const Settings& settings,
                     VecX& free_velocity);

// Builds (6.1) for the contacts listed in `enforced` (indices into `contacts`).
// `free_velocity` must come from free_velocities for the same state.
void assemble_stewart_trinkle(const Model& model, const State& state, const Settings& settings,
                              const std::vector<Contact>& contacts,
                              const std::vector<int>& enforced, ContactProblem& problem);

// (6.2): nu^{l+1} = free_velocity + M^-1 (G_n p_n + G_f p_f), 6 per body.
void contact_velocities(const ContactProblem& problem, const VecX& z, VecX& velocity);

}  // namespace pegsim
