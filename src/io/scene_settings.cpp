// Settings objects of scene files (schema: docs/scene-format.md, "settings").
#include "io/scene_settings.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "engine/core/settings_preset.hpp"
#include "engine/solvers/solver.hpp"
#include "io/scene_limits.hpp"

namespace pegsim {
namespace {

std::string solver_list() {
  std::string out;
  for (const std::string& n : solver_names()) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string solver_name(const JsonNode& node) {
  const std::string what = "a solver name: one of " + solver_list();
  const std::string name = node.string(what.c_str());
  if (!make_solver(name)) node.fail(what);
  return name;
}

Formulation formulation(const JsonNode& node) {
  const char* what =
      "a formulation: \"stewart-trinkle\", \"anitescu-potra\", \"mixed-lcp\" or \"ncp\"";
  Formulation f{};
  if (!parse_formulation(node.string(what), f)) node.fail(what);
  return f;
}

ContactModel contact_model(const JsonNode& node) {
  const char* what = "a contact model: \"sm\", \"lnc\", \"peg\", \"corrective\" or \"volumetric\"";
  ContactModel m{};
  if (!parse_contact_model(node.string(what), m)) node.fail(what);
  return m;
}

SmEnforce sm_enforce(const JsonNode& node) {
  const char* what = "which contacts the standard model enforces: \"primary\" or \"all\"";
  SmEnforce e{};
  if (!parse_sm_enforce(node.string(what), e)) node.fail(what);
  return e;
}

Gyroscopic gyroscopic(const JsonNode& node) {
  const char* what = "the gyroscopic term's treatment: \"midpoint\", \"implicit\" or \"explicit\"";
  Gyroscopic g{};
  if (!parse_gyroscopic(node.string(what), g)) node.fail(what);
  return g;
}

ConeOrientation cone_orientation(const JsonNode& node) {
  const char* what = "how the friction cone is turned: \"motion\" or \"fixed\"";
  ConeOrientation c{};
  if (!parse_cone_orientation(node.string(what), c)) node.fail(what);
  return c;
}

Primaries primaries(const JsonNode& node) {
  const char* what =
      "which contacts of an I-constraint may carry its force: \"largest-gap\" or "
      "\"several\"";
  Primaries p{};
  if (!parse_primaries(node.string(what), p)) node.fail(what);
  return p;
}

FailurePolicy failure_policy(const JsonNode& node) {
  const char* what = "a failure policy: \"stop\" or \"continue\"";
  FailurePolicy p;
  if (!parse_failure_policy(node.string(what), p)) node.fail(what);
  return p;
}

std::vector<std::string> fallbacks(const JsonNode& node) {
  node.require_array("an array of solver names");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < node.size(); ++i) out.push_back(solver_name(node[i]));
  return out;
}

}  // namespace

bool friction_directions_allowed(long long n, int dimension) {
  return dimension == 2 ? n == 2 : n >= 3 && n <= kMaxFrictionDirections;
}

const char* friction_directions_expected(int dimension) {
  return dimension == 2 ? "2 in a 2D scene (+-t is the exact friction cone)"
                        : "an integer number of directions from 3 to 64 (with 1 or 2 the "
                          "linearized friction cone lies along one line: no friction across it)";
}

Settings default_settings(int dimension) {
  Settings out;
  if (dimension == 2) {
    out.gravity = Vec3(0.0, -9.81, 0.0);
    out.friction_directions = 2;
  }
  return out;
}

Settings parse_settings(const JsonNode& s, int dimension) {
  s.require_object("a settings object");
  s.allow_only({"h",
                "gravity",
                "epsilon",
                "eps_theta",
                "feasibility_depth",
                "feasibility_angle",
                "friction_directions",
                "formulation",
                "contact_model",
                "solver",
                "fallbacks",
                "tolerance",
                "max_iterations",
                "on_failure",
                "time_budget",
                "iteration_budget",
                "preset",
                "warm_start",
                "joint_correction",
                "joint_position_tolerance",
                "joint_velocity_tolerance",
                "sm_enforce",
                "contacts_per_pair",
                "gyroscopic",
                "primaries",
                "cone_orientation"});
  Settings out = default_settings(dimension);
  // A preset first: the fields written beside it override its own.
  if (auto n = s.find("preset")) {
    std::string what = "a preset name:";
    for (const std::string& name : preset_names()) what += " \"" + name + "\"";
    if (!apply_preset(n->string(what.c_str()), out)) n->fail(what);
  }
  const bool planar = dimension == 2;
  if (auto n = s.find("h")) out.h = n->positive("a positive time step in s");
  if (auto n = s.find("gravity")) {
    if (planar) {
      const Vec2 g = n->vec2("an array of 2 numbers [x, y] in m/s^2 (2D scene)");
      out.gravity = Vec3(g.x(), g.y(), 0.0);
    } else {
      out.gravity = n->vec3("an array of 3 numbers in m/s^2");
    }
  }
  if (auto n = s.find("epsilon")) out.epsilon = n->non_negative("a distance >= 0 in m");
  if (auto n = s.find("eps_theta")) {
    const char* what = "a number in [-1, 1] (minus the sine of the relaxation angle)";
    out.eps_theta = n->number(what);
    if (std::abs(out.eps_theta) > 1.0) n->fail(what);
  }
  if (auto n = s.find("feasibility_depth"))
    out.feasibility_depth = n->non_negative("a depth >= 0 in m");
  if (auto n = s.find("feasibility_angle"))
    out.feasibility_angle = n->non_negative("an angle >= 0 in rad");
  if (auto n = s.find("friction_directions")) {
    const char* what = friction_directions_expected(dimension);
    out.friction_directions = n->integer(what, 1);
    if (!friction_directions_allowed(out.friction_directions, dimension)) n->fail(what);
  }
  if (auto n = s.find("formulation")) out.formulation = formulation(*n);
  if (auto n = s.find("contact_model")) out.contact_model = contact_model(*n);
  if (auto n = s.find("sm_enforce")) out.sm_enforce = sm_enforce(*n);
  if (auto n = s.find("contacts_per_pair"))
    out.contacts_per_pair = n->integer(
        "an integer >= 0: the standard model's contacts kept per body pair and normal "
        "direction (0: all)",
        0);
  if (auto n = s.find("gyroscopic")) out.gyroscopic = gyroscopic(*n);
  if (auto n = s.find("cone_orientation")) out.cone_orientation = cone_orientation(*n);
  if (auto n = s.find("primaries")) out.primaries = primaries(*n);
  if (auto n = s.find("solver")) out.solver = solver_name(*n);
  if (auto n = s.find("fallbacks")) out.fallbacks = fallbacks(*n);
  if (auto n = s.find("tolerance")) out.tolerance = n->positive("a positive residual tolerance");
  if (auto n = s.find("max_iterations"))
    out.max_iterations = n->integer("an integer iteration limit >= 1", 1);
  if (auto n = s.find("on_failure")) out.on_failure = failure_policy(*n);
  if (auto n = s.find("time_budget"))
    out.time_budget = n->non_negative("a time >= 0 in s a step's solve may take (0: no limit)");
  if (auto n = s.find("iteration_budget")) out.iteration_budget = n->boolean();
  if (auto n = s.find("warm_start")) out.warm_start = n->boolean();
  if (auto n = s.find("joint_correction")) out.joint_correction = n->boolean();
  if (auto n = s.find("joint_position_tolerance"))
    out.joint_position_tolerance = n->positive("a positive joint error tolerance (m and rad)");
  if (auto n = s.find("joint_velocity_tolerance"))
    out.joint_velocity_tolerance = n->positive("a positive joint rate tolerance (m/s and rad/s)");
  // Formulation ncp: the chain's first solver must take the NCP (LCP-only fallbacks are skipped).
  if (out.formulation == Formulation::Ncp && !make_solver(out.solver)->supports_ncp()) {
    const std::string what =
        "a solver that takes the NCP of formulation \"ncp\": one of " + ncp_solver_list();
    if (auto n = s.find("solver")) n->fail(what);
    s.find("formulation")
        ->fail("with /settings/solver " + what + " (the default \"" + out.solver +
               "\" solves only LCPs)");
  }
  return out;
}

}  // namespace pegsim
