// Everything a user may change between two steps.
#pragma once

#include <string>
#include <vector>

#include "engine/core/math.hpp"

namespace pegsim {

// Time-stepping formulations (thesis §2.3.1).
enum class Formulation {
  StewartTrinkle,  // LCP (6.1)/(6.2): gap term psi_n/h restores penetration
  AnitescuPotra,   // the same LCP with psi_n/h + dpsi/dt replaced by 0
  MixedLcp,        // Stewart–Trinkle with the joints kept as free rows, (2.34)/(2.35): an MCP
                   // for solvers that take bounds (path), the Schur form (2.37) for the others
  Ncp,             // the quadratic (exact) Coulomb cone (2.18)-(2.20), PEG's (4.37)-(4.40): an
                   // NCP for the solvers that take one (Solver::supports_ncp); joints as in
                   // Stewart–Trinkle, friction_directions unused
  GeometricallyImplicit,  // seed 001 (21)-(22): the end-of-step closest points, impulses and
                          // velocities as one mixed NCP of smooth convex bodies, solved by its
                          // own semismooth Newton method (dynamics/implicit_stage.hpp); contact
                          // model, solver, fallbacks and friction_directions unused
};

// Contact models (stage 4): which constraints the step's contacts become (thesis Ch. 4).
enum class ContactModel {
  Standard,    // SM: every primary contact a unilateral constraint (4.7)
  Lnc,         // Nguyen's locally non-convex model (4.2)-(4.4): I-constraints per vertex
  Peg,         // polytope exact geometry, Alg. 12-17: U-, I- and X-constraints
  Corrective,  // §5.2: one U-constraint per overlapping pair, no look-ahead (corrective_model)
  Volumetric,  // seed 002: a compliant constraint per overlapping part pair, F = k_v V (1 + a v)
};

// Which contacts the standard model enforces. The narrow phase keeps every contact within
// epsilon and marks it primary (applicable (3.3)-(3.5) and feasible, §3.3) or secondary
// (Alg. 5). The thesis' SM of its experiments enforces them all (§5.2: "simply includes all
// contacts within the epsilon"), which is what traps its vertices (Fig. 4.1, 5.1, 5.8).
enum class SmEnforce {
  Primary,  // only primary contacts (secondary ones cannot carry force)
  All,      // every contact within epsilon, as in the thesis' experiments
};

// How the free velocity treats the gyroscopic torque -w x J w of Newton–Euler (2.7).
enum class Gyroscopic {
  Explicit,  // thesis (2.30): evaluated at the step's start; adds energy to a tumbling body
             // (by a factor 1 + O((h w)^2) per step) and can spin it up without bound
  Implicit,  // backward Euler on Euler's equations in the body frame (Newton's method):
             // kinetic energy and |L| of a torque-free body do not grow, whatever h w, but decay
  Midpoint,  // the midpoint Lie algorithm (formulation/free_rotation.hpp): a torque-free body
             // keeps its world angular momentum and kinetic energy, whatever h w
};

// How each contact's linearized friction cone (2.21) is turned about its normal.
enum class ConeOrientation {
  Motion,  // one direction against the slip of the free motion (formulation/friction_basis.hpp):
           // Coulomb's law whatever the heading
  Fixed,   // from the fixed tangent any_perpendicular(n), as RPIsim: the friction a sliding
           // body gets depends on its heading (up to 1 - cos(pi / n_d) less between directions)
};

// Which C_iota contact of an I-constraint may carry the constraint's impulse (thesis §4.2.2).
enum class Primaries {
  LargestGap,  // (4.14): one primary, the C_iota contact of largest gap at the step's start
               // (the thesis' choice, §4.7): the step is one LCP
  Several,     // (4.10)-(4.13): any C_iota contact, at most one at a time and only one the
               // step ends at (largest gap, which is 0): a linear program with complementarity
               // constraints, searched over single-primary LCPs (dynamics/primary_search.hpp)
};

// What the simulator does when every solver of the chain fails on a step.
enum class FailurePolicy {
  Stop,      // keep the state of the last good step and report the failure
  Continue,  // take the best (lowest-residual) answer, clamped to z >= 0, and go on
};

struct Settings {
  double h = 0.01;                    // time step, s
  Vec3 gravity{0.0, 0.0, -9.81};      // m/s^2
  double epsilon = 0.05;              // contact consideration distance, m (thesis eps)
  double eps_theta = -0.15;           // applicability relaxation -sin(theta), (3.3)-(3.5)
  double feasibility_depth = 0.0025;  // penetration allowed inside the Voronoi region, m
  double feasibility_angle = 0.4;     // phi outside the Voronoi region, rad (§3.3)
  int friction_directions = 7;        // n_d of the linearized cone (2.21)
  ConeOrientation cone_orientation = ConeOrientation::Motion;
  Formulation formulation = Formulation::StewartTrinkle;
  ContactModel contact_model = ContactModel::Standard;
  SmEnforce sm_enforce = SmEnforce::Primary;  // the standard model's contacts (and SM traps)
  // At most this many of the standard model's contacts per body pair and normal direction
  // (contact_models/contact_manifold.hpp); 0: every contact. The interactive preset's 4.
  int contacts_per_pair = 0;
  Gyroscopic gyroscopic = Gyroscopic::Midpoint;
  Primaries primaries = Primaries::LargestGap;  // of I-constraints (PEG, LNC)
  std::string solver = "lemke";
  std::vector<std::string> fallbacks{"pgs"};
  double tolerance = 1e-10;    // natural-map residual accepted as solved
  int max_iterations = 10000;  // per solve (pivots for Lemke, sweeps for PGS)
  FailurePolicy on_failure = FailurePolicy::Stop;
  // Wall-clock seconds each solve of a step may take (0: no limit, every step exact). Past
  // it each solver stops (the last of the chain gets a quarter of the budget of its own so that
  // an answer exists) and the step goes on with the best answer found, whatever on_failure says;
  // StepReport::time_budget_spent marks it. Steps then depend on the machine's speed: live play
  // in the desktop application, never a recording unless asked for.
  double time_budget = 0.0;
  // max_iterations as a budget rather than a limit: a solve that reaches it without the
  // tolerance (a fixed number of PGS sweeps) is not a failure; the step goes on with that
  // answer whatever on_failure says, and StepReport::iteration_budget_spent marks it
  // approximate (its residual in solve.residual). Steps stay deterministic. The interactive
  // preset turns it on (settings_preset.hpp).
  bool iteration_budget = false;
  bool warm_start = true;  // seed solvers with the previous step's impulses
  // Post-step joint correction, thesis Alg. 1: project positions until the joint violation
  // norm is <= the position tolerance (eps_p), then velocities until ||G^T nu|| <= eps_v.
  bool joint_correction = false;
  double joint_position_tolerance = 1e-5;  // eps_p (m and rad together, as in Fig. 2.6)
  double joint_velocity_tolerance = 1e-5;  // eps_v (m/s and rad/s)
};

const char* to_string(Formulation f);
const char* to_string(FailurePolicy p);
// Every formulation's name, in a stable order (for the CLI's and the GUI's lists).
std::vector<std::string> formulation_names();
// Parse a name ("stewart-trinkle", "anitescu-potra", "mixed-lcp", "ncp"); false if unknown.
bool parse_formulation(const std::string& name, Formulation& out);
const char* to_string(ContactModel m);
// Parse a contact model ("sm", "lnc", "peg", "corrective"); returns false if unknown.
bool parse_contact_model(const std::string& name, ContactModel& out);
// Every name parse_contact_model accepts, in a stable order.
std::vector<std::string> contact_model_names();
const char* to_string(SmEnforce e);
// Parse "primary" or "all"; returns false if unknown.
bool parse_sm_enforce(const std::string& name, SmEnforce& out);
const char* to_string(Gyroscopic g);
// Parse "explicit", "implicit" or "midpoint"; returns false if unknown.
bool parse_gyroscopic(const std::string& name, Gyroscopic& out);
const char* to_string(ConeOrientation c);
// Parse "motion" or "fixed"; returns false if unknown.
bool parse_cone_orientation(const std::string& name, ConeOrientation& out);
const char* to_string(Primaries p);
// Parse "largest-gap" or "several"; returns false if unknown.
bool parse_primaries(const std::string& name, Primaries& out);
// Parse a failure policy ("stop", "continue"); returns false if unknown.
bool parse_failure_policy(const std::string& name, FailurePolicy& out);

}  // namespace pegsim
