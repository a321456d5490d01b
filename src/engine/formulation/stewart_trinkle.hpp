// Stage 5: the Stewart–Trinkle LCP with a linearized friction cone, thesis (6.1)/(6.2).
#pragma once

#include <Eigen/Cholesky>
#include <vector>

#include "engine/core/contact.hpp"
#include "engine/core/model.hpp"
#include "engine/core/settings.hpp"
#include "engine/core/state.hpp"
#include "engine/formulation/joint_limits.hpp"
#include "engine/kinematics/joint_rows.hpp"
#include "engine/solvers/lcp.hpp"
#include "engine/solvers/ncp.hpp"

namespace pegsim {

// The frictional contact problem of one step, for the contacts that are enforced.
// Unknowns per contact i, stored contiguously (one LCP block per contact):
//   [p_n,i ; p_f,i1 .. p_f,i n_d ; s_i]
// or [p_n,i] alone when every enforced contact is frictionless (directions = 0).
// so the LCP is (6.1) with its rows permuted contact by contact. For the NCP (Formulation::Ncp)
// the block is [p_n ; p_t ; p_o ; sigma] (2D: [p_n ; p_t ; sigma]) and the LCP holds only its
// linear part (coulomb_ncp.hpp).
// Jacobian columns of one body end on consecutive rows of M: `count` columns from `column`
// (a contact's normal and friction columns, or a joint limit's), acting through end `side`
// (0: A, 1: B).
struct ColumnRun {
  int column = 0, count = 0;
  char side = 0;
};
using ColumnRunsOfBody = std::vector<std::vector<ColumnRun>>;

struct ContactProblem {
  int directions = 0;  // n_d
  // The last `spin` of the n_d friction columns (0 or 2) are torques +-r_s n about the normal:
  // volumetric contacts' Coulomb friction about the normal (seed 002's spinning friction), in
  // the same linearized cone as the force, sum p_f <= mu p_n (a polytope with the force's
  // vertices mu p_n d_j and the torque's +-mu p_n r_s n). Their tangents are 0.
  int spin = 0;
  std::vector<int> contact;  // index into the step's contact list, per block
  std::vector<double> mu;    // U = diag(mu_i)
  // Per contact, the normal row's compliance (volumetric contacts; 0 for a rigid contact).
  std::vector<double> compliance;
  // Per contact, its stiction bristle (seed 002 (3.4)-(3.6)): the compliance c = 1 / (h (h k_s
  // + c_s)) of its friction rows (by d_j . d_k; a torque column's d is 0) and the pull
  // ds / (h + c_s / k_s) of its stretch ds. The
  // rows d_j^T (v_t + c p_t + pull) + s >= 0 stick where the bristle's spring-damper holds,
  // p_t = -h (k_s (ds + h v_t) + c_s v_t), and slide at the cone's limit; 0 and 0 without one.
  std::vector<double> stick_compliance;
  std::vector<Vec3> stick_pull;
  std::vector<Vec3> tangents;  // n_d unit directions d_ij per contact, row-major
  // Per column (normal and friction, (1 + n_d) per contact) and per body end (A, B):
  // the Jacobian column G (6-vector, [linear; angular]) and M^-1 G, 0 for static bodies.
  std::vector<Vec6> G_a, G_b, WG_a, WG_b;
  std::vector<int> body_a, body_b;  // per contact: dynamic state index or -1 if static
  // nu + M^-1 p_ext, 6 per body; with joints, plus the joints' own impulses M^-1 G_b p_b0.
  VecX free_velocity;
  // The LCP, its M held by its nonzeros (lcp.S). PEG's slack rows and columns are added to it
  // from m_entries (row, column, term), summed in the order written.
  Lcp lcp;
  // Set by the simulator: its solver reads M only in its diagonal blocks (takes_blocks_only),
  // so assemble_constraint_problem may skip the rest (assemble_stewart_trinkle's blocks_only).
  bool want_blocks_only = false;
  std::vector<Eigen::Triplet<double>> m_entries;
  // Formulation mixed-lcp with joints: M_c, M of the LCP without the joints' Schur complement
  // (see `mixed`), and PEG's terms of it (m_entries less the joints' share); else empty.
  SparseMatX contact_m;
  std::vector<Eigen::Triplet<double>> contact_m_entries;
  SparseMatX grown_m;            // workspace of add_m_entries
  std::vector<int> column_rows;  // workspace: the LCP row of each Jacobian column
  // Workspace: per body, its Jacobian columns ascending with the end (0: A, 1: B) they act on.
  std::vector<std::vector<std::pair<int, char>>> columns_of_body;
  // Workspace: the same as runs of consecutive rows (fill_m's merge without joints).
  ColumnRunsOfBody column_runs;
  // Workspace: (cos, sin) of the turn of each friction direction from the first about n.
  std::vector<Vec2> direction_turns;

  // Joints, eliminated by their Schur complement (thesis (2.37)-(2.39)): with W = M^-1,
  // A = G_b^T W G_b and Y = G_b^T W G_c (G_c: the contact columns), the bilateral impulses are
  // p_b = A^-1 (r_b - Y z_c), r_b = -psi_b / h - G_b^T (nu + W p_ext); the contact LCP keeps
  // the form of (6.1) with W replaced by W - W G_b A^-1 G_b^T W.
  std::vector<JointRow> joint_rows;
  std::vector<Vec6> joint_WG_a, joint_WG_b;  // W G_b per row and body end
  // Factored from an empty A at construction: Eigen leaves a default-constructed LDLT's info
  // unset, and copying a problem without joints would read it.
  Eigen::LDLT<MatX> joint_A{MatX()};
  MatX joint_Y;
  VecX joint_impulse;  // p_b of the answer (contact_velocities)
  // Workspaces reused from step to step: A before factorization, r_b and A^-1 Y z, the
  // contacts' coupling Y^T A^-1 Y, and the column impulses of z.
  MatX joint_gram, joint_coupling;
  VecX joint_rhs, joint_change, column_impulses;

  // Joint limits: one complementary row each after the contact blocks (joint_limits.hpp), with
  // Jacobian columns after the contacts' in G_a, G_b, WG_a, WG_b.
  std::vector<LimitRow> limit_rows;

  // Formulation mixed-lcp: the joints kept as free rows instead (thesis (2.34)/(2.35)).
  // Unknowns [p_b; z], free rows first as (2.34) orders them and as run files expect:
  //   [ A    Y_r^T ] [p_b]   [ -r_b                   ]     joint rows free (2.28)
  //   [ Y_r  M_c   ] [ z ] + [ q - Y_r p_b0           ]     the LCP's rows on [0, inf)
  // where Y_r (row_joint_coupling) holds y_r = G_b^T W g_r for every LCP row r whose value is
  // a gap rate g_r^T nu (contact and limit columns: Y's columns; PEG's slack rows: their
  // Jacobian difference), and M_c (contact_m) is the LCP's M without the Schur complement
  // -Y_r A^-1 Y: sparse, where the Schur form's M couples every pair of force rows through the
  // joints. M is block diagonal, so nu^{l+1} = nu + W (p_ext + G_b p_b + G z) is exact and this
  // form needs no factorization. Built by assemble_mixed_lcp, held by its nonzeros.
  Lcp mixed;
  MatX row_joint_coupling;  // n x m, set whenever there are joints

  // Formulation ncp: the NCP with the quadratic cone over the same rows (coulomb_ncp.hpp).
  Ncp ncp;

  // A frictionless problem (directions = 0) has the normal row alone, no slip row.
  int block_size() const { return directions == 0 ? 1 : directions + 2; }
  int contacts() const { return static_cast<int>(contact.size()); }
  // First LCP row (and first column of G) of the joint limits.
  int limit_row_start() const { return contacts() * block_size(); }
  int limit_column_start() const { return contacts() * (directions + 1); }
  // The LCP row of a Jacobian column (normal, friction or limit).
  int row_of_column(int col) const {
    const int limit_col = limit_column_start();
    if (col >= limit_col) return limit_row_start() + (col - limit_col);
    return (col / (directions + 1)) * block_size() + col % (directions + 1);
  }
};

// Grows lcp.S to n x n with the terms p.m_entries (rows and columns past the old size only),
// summed in their order; exact zeros are not stored. The same for contact_m from
// contact_m_entries when the mixed form is kept.
void add_m_entries(ContactProblem& p, int n);

// The friction columns per contact: settings.friction_directions for the linearized cone; for
// the NCP (Formulation::Ncp) the orthonormal tangents t, o of (2.18)-(2.20), 2 in 3D, 1 (t) in
// a planar model.
int tangent_directions(const Model& model, const Settings& settings);

// The torsional friction columns of a problem (ContactProblem::spin): 2 for volumetric contacts
// in 3D under the linearized cone, else 0.
int spin_directions(const Model& model, const Settings& settings);

// Per-body velocity update that does not depend on contacts: p_ext = h (f + m g; tau - w x J w).
// Writes nu + M^-1 p_ext for every body into `free_velocity` (zero for static bodies).
void free_velocities(const Model& model, const State& state, const Settings& settings,
                     VecX& free_velocity);

// Planar bodies (Shape::planar) keep the 6-vector layout of the generalized velocities, with
// 3 DOF: their inverse mass is zero on v_z, omega_x, omega_y, so the formulation and solvers
// need nothing of their own. A contact between two planar bodies has the friction directions
// +-t, t = z x n, the exact 2D cone: it needs settings.friction_directions = 2.
//
// Builds (6.1) for the contacts listed in `enforced` (indices into `contacts`) and the joint
// limits, with the model's joints eliminated; the LCP is empty when both are. With
// `blocks_only`, M's diagonal blocks alone where the body form holds the rest (no joints, not
// the NCP): lcp.blocks_only says whether it was done.
void assemble_stewart_trinkle(const Model& model, const State& state, const Settings& settings,
                              const std::vector<Contact>& contacts,
                              const std::vector<int>& enforced, ContactProblem& problem,
                              bool blocks_only = false);

// Y_r for the rows of the Schur form assembled so far (one per Jacobian column).
void set_joint_coupling_rows(ContactProblem& problem);

// The mixed form of `problem` (see ContactProblem::mixed), from its finished Schur form; needs
// joints. Call it before the LCP is solved: it reads p_b0 from problem.joint_impulse.
void assemble_mixed_lcp(ContactProblem& problem);

// nu^{l+1} from an answer z = [p_b; z_c] of the mixed form; sets problem.joint_impulse = p_b.
void mixed_velocities(ContactProblem& problem, const VecX& z, VecX& velocity);

// (6.2): nu^{l+1} = free_velocity + M^-1 (G_n p_n + G_f p_f - G_b A^-1 Y z), 6 per body; z may
// be empty when the LCP is. Also sets problem.joint_impulse.
void contact_velocities(ContactProblem& problem, const VecX& z, VecX& velocity);

}  // namespace pegsim
