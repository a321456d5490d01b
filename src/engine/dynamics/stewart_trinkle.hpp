// Stage 5: the Stewart–Trinkle LCP with a linearized friction cone, thesis (6.1)/(6.2).
#pragma once

#include <Eigen/Cholesky>
#include <vector>

#include "engine/core/contact.hpp"
#include "engine/core/model.hpp"
#include "engine/core/settings.hpp"
#include "engine/core/state.hpp"
#include "engine/dynamics/joint_rows.hpp"
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
  // nu + M^-1 p_ext, 6 per body; with joints, plus the joints' own impulses M^-1 G_b p_b0.
  VecX free_velocity;
  Lcp lcp;

  // Joints, eliminated by their Schur complement (thesis (2.37)-(2.39)): with W = M^-1,
  // A = G_b^T W G_b and Y = G_b^T W G_c (G_c: the contact columns), the bilateral impulses are
  // p_b = A^-1 (r_b - Y z_c), r_b = -psi_b / h - G_b^T (nu + W p_ext); the contact LCP keeps
  // the form of (6.1) with W replaced by W - W G_b A^-1 G_b^T W.
  std::vector<JointRow> joint_rows;
  std::vector<Vec6> joint_WG_a, joint_WG_b;  // W G_b per row and body end
  Eigen::LDLT<MatX> joint_A;
  MatX joint_Y;
  VecX joint_impulse;                        // p_b of the answer (contact_velocities)
  // Workspaces reused from step to step: A before factorization, r_b and A^-1 Y z, the
  // contacts' coupling Y^T A^-1 Y, and the column impulses of z.
  MatX joint_gram, joint_coupling;
  VecX joint_rhs, joint_change, column_impulses;

  // Formulation mixed-lcp: the joints kept as free rows instead (thesis (2.34)/(2.35), with
  // nu^{l+1} = nu + M^-1 (p_ext + G_b p_b + G_c z_c) substituted: M is block diagonal, so this
  // elimination is exact and needs no factorization). Unknowns [p_b; contact blocks], as (2.34)
  // orders them and as run files expect (free rows first):
  //   [ A    Y   ] [p_b]   [ -r_b                  ]     joint rows free (equations (2.28))
  //   [ Y^T  M_c ] [z_c] + [ G_c^T nu_free + psi/h ]     contact rows on [0, inf)
  // with M_c the contact block of (6.1) before the Schur complement. Built by
  // assemble_mixed_lcp from the pieces above.
  Lcp mixed;
  MatX contact_block;              // M_c, kept before the Schur complement (mixed-lcp only)
  VecX unjointed_velocity;         // nu + M^-1 p_ext, before p_b0 is folded in
  std::vector<double> normal_offset;  // per contact: psi/h (0 for Anitescu–Potra)

  int block_size() const { return directions + 2; }
  int contacts() const { return static_cast<int>(contact.size()); }
};

// Per-body velocity update that does not depend on contacts: p_ext = h (f + m g; tau - w x J w).
// Writes nu + M^-1 p_ext for every body into `free_velocity` (zero for static bodies).
void free_velocities(const Model& model, const State& state, const Settings& settings,
                     VecX& free_velocity);

// Builds (6.1) for the contacts listed in `enforced` (indices into `contacts`), with the
// model's joints eliminated; `enforced` may be empty (then the LCP is empty).
void assemble_stewart_trinkle(const Model& model, const State& state, const Settings& settings,
                              const std::vector<Contact>& contacts,
                              const std::vector<int>& enforced, ContactProblem& problem);

// The mixed form of `problem` (see ContactProblem::mixed); needs joints and a problem
// assembled with Formulation::MixedLcp.
void assemble_mixed_lcp(ContactProblem& problem);

// nu^{l+1} from an answer z = [p_b; z_c] of the mixed form; sets problem.joint_impulse = p_b.
void mixed_velocities(ContactProblem& problem, const VecX& z, VecX& velocity);

// (6.2): nu^{l+1} = free_velocity + M^-1 (G_n p_n + G_f p_f - G_b A^-1 Y z), 6 per body; z may
// be empty when the LCP is. Also sets problem.joint_impulse.
void contact_velocities(ContactProblem& problem, const VecX& z, VecX& velocity);

}  // namespace pegsim
