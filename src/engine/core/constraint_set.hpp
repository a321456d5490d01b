// The contact model's answer (stage 4): which of the step's contacts enter the problem, and as
// which of the three fundamental constraints of thesis §4.2. Plain data for the recorder and
// the GUI.
#pragma once

#include <string>
#include <vector>

namespace pegsim {

enum class ConstraintKind {
  Unilateral,    // U(C_i), (4.7)-(4.8): 0 <= psi_i  _|_  lambda_i >= 0
  InterContact,  // I(C_iota, C_kappa), (4.9)-(4.14): one feature against several of one body
  CrossContact,  // X(C_a, C_b), (4.15): sets that must not be violated together
};

// One constraint over `count` contacts: ConstraintSet::members[first .. first + count).
// The first member is the primary contact, the one whose normal carries the group's impulse
// (the single-primary form (4.14); an X-constraint is written as an I-constraint, §4.2.3).
// For a U-constraint count is 1. Every other member only enters through its gap.
struct ConstraintGroup {
  ConstraintKind kind = ConstraintKind::Unilateral;
  int first = 0;
  int count = 1;
  double impulse = 0.0;  // normal impulse of the primary, N s (filled after the solve)
};

struct ConstraintSet {
  std::vector<ConstraintGroup> groups;
  std::vector<int> members;  // indices into the step's contact list

  void clear() {
    groups.clear();
    members.clear();
  }
  int primary(const ConstraintGroup& g) const { return members[g.first]; }
  // Appends a group over `contacts`, the primary first.
  void add(ConstraintKind kind, const std::vector<int>& contacts) {
    groups.push_back({kind, static_cast<int>(members.size()), static_cast<int>(contacts.size())});
    members.insert(members.end(), contacts.begin(), contacts.end());
  }
};

const char* to_string(ConstraintKind k);
bool parse_constraint_kind(const std::string& name, ConstraintKind& out);

}  // namespace pegsim
