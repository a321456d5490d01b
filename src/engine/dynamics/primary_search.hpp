// Several primaries per I-constraint, thesis (4.10)-(4.13) (Settings::primaries = several).
//
// In I(C_iota, C_kappa) every C_iota contact may carry a force lambda_j, but (4.12)-(4.13)
// let at most one be non-zero, and only at a contact the step ends at: with S = max_j psi_j
// (the slack sums of (4.10)) and d_j = max(0, -psi_j) (4.12), lambda_j > 0 needs
// S + d_j = 0, and as (4.11) keeps S >= 0 that is S = 0 = psi_j. (4.11) has no complementary
// variable, so the set is a linear program with complementarity constraints, not an LCP.
//
// It is solved over leaves: one primary per group, each leaf the single-primary LCP (4.14)
// with the other C_iota contacts' forces at 0. A leaf's answer solves (4.10)-(4.13) exactly
// when every primary that carries an impulse ends at its group's largest gap: then S = 0 =
// psi_p gives d_p = 0 and (4.13) for p; d_j = max(0, -psi_j) gives (4.12) and, with lambda_j =
// 0, (4.13) for j != p; (4.11) is (4.14)'s row S >= 0. Conversely a solution with at most one
// force per group is the answer of the leaf whose primaries carry them. The search starts at
// the thesis' choice (largest gap at the step's start), moves each group that breaks (4.13)
// to the C_iota contact that ended at its largest gap, and when that leaf was tried takes the
// next untried one in order, for at most kMaxPrimaryLeaves LCPs per step. A group with one
// C_iota contact keeps (4.14), the thesis' reduction for |C_iota| = 1: nothing to search.
#pragma once

#include <vector>

#include "engine/core/constraint_set.hpp"
#include "engine/core/contact.hpp"
#include "engine/core/math.hpp"

namespace pegsim {

inline constexpr int kMaxPrimaryLeaves = 16;
// Two end gaps closer than this are a tie (m): the primary ends at the largest gap.
inline constexpr double kGapTie = 1e-9;

struct PrimarySearch {
  ConstraintSet base;           // the step's set with the thesis' primaries (the first leaf)
  std::vector<int> groups;      // the I-constraints with two or more C_iota contacts
  std::vector<int> cand_first;  // per searched group: its candidates in `cand`
  std::vector<int> cand;        // offsets within the group of its C_iota members (0 first)
  std::vector<int> choice;      // per searched group: index into its candidates
  std::vector<int> visited;     // the leaves tried, groups.size() choices each
};

// Fills search.groups and the candidates from `set` (taken as the first leaf, copied to
// search.base); false if no group has a primary to move.
bool begin_primary_search(const std::vector<Contact>& contacts, const ConstraintSet& set,
                          PrimarySearch& search);

// (4.13) for one group of a solved leaf: how far (m, as h times the rate) the primary ends
// below the group's largest gap if it carries an impulse above `impulse_floor`, else 0.
// `end_rate` holds end_gap_rate per contact.
double primary_violation(const ConstraintSet& set, const ConstraintGroup& group,
                         const std::vector<double>& end_rate, double h, double impulse_floor);

// Chooses the next leaf after the current one (search.choice), whose per-group violations
// (aligned with search.groups) and end rates (per contact) are given; false when every leaf
// was tried.
bool next_primary_leaf(const std::vector<double>& violation, const std::vector<double>& end_rate,
                       PrimarySearch& search);

// The set of the current leaf: search.base with each searched group's chosen candidate
// moved to the front.
void leaf_constraints(const PrimarySearch& search, ConstraintSet& set);

// Records search.choice as tried.
void mark_leaf_visited(PrimarySearch& search);

}  // namespace pegsim
