#include "io/run_settings_row.hpp"

#include <cstring>
#include <sstream>
#include <string>

#include "io/hdf5_io.hpp"

namespace pegsim::run_layout {
namespace {

template <std::size_t N>
void put(char (&out)[N], const std::string& text, const char* field) {
  if (text.size() > N)
    throw h5::Failure(std::string("/settings_log ") + field + ": '" + text + "' is longer than " +
                      std::to_string(N) + " characters");
  std::memset(out, 0, N);
  std::memcpy(out, text.data(), text.size());
}

template <std::size_t N>
std::string get(const char (&in)[N]) {
  return std::string(in, strnlen(in, N));
}

h5::Handle fixed_string(std::size_t n) {
  h5::Handle t = h5::type(H5Tcopy(H5T_C_S1));
  H5Tset_size(t.get(), n);
  H5Tset_strpad(t.get(), H5T_STR_NULLPAD);
  return t;
}

}  // namespace

h5::Handle settings_type(bool with_joint_correction, bool with_sm_enforce, bool with_gyroscopic,
                         bool with_primaries, bool with_cone_orientation, bool with_time_budget,
                         bool with_iteration_budget, bool with_contacts_per_pair) {
  h5::Handle t = h5::type(H5Tcreate(H5T_COMPOUND, sizeof(SettingsRow)));
  const hsize_t three = 3;
  const h5::Handle v3 = h5::type(H5Tarray_create2(H5T_NATIVE_DOUBLE, 1, &three));
  const h5::Handle formulation = fixed_string(sizeof(SettingsRow::formulation));
  const h5::Handle on_failure = fixed_string(sizeof(SettingsRow::on_failure));
  const h5::Handle solver = fixed_string(sizeof(SettingsRow::solver));
  const h5::Handle fallbacks = fixed_string(sizeof(SettingsRow::fallbacks));
  const h5::Handle contact_model = fixed_string(sizeof(SettingsRow::contact_model));
  const h5::Handle sm_enforce = fixed_string(sizeof(SettingsRow::sm_enforce));
  const h5::Handle gyroscopic = fixed_string(sizeof(SettingsRow::gyroscopic));
  const h5::Handle primaries = fixed_string(sizeof(SettingsRow::primaries));
  const h5::Handle cone_orientation = fixed_string(sizeof(SettingsRow::cone_orientation));
  const hid_t id = t.get();
  H5Tinsert(id, "h", HOFFSET(SettingsRow, h), H5T_NATIVE_DOUBLE);
  H5Tinsert(id, "gravity", HOFFSET(SettingsRow, gravity), v3.get());
  H5Tinsert(id, "epsilon", HOFFSET(SettingsRow, epsilon), H5T_NATIVE_DOUBLE);
  H5Tinsert(id, "eps_theta", HOFFSET(SettingsRow, eps_theta), H5T_NATIVE_DOUBLE);
  H5Tinsert(id, "feasibility_depth", HOFFSET(SettingsRow, feasibility_depth), H5T_NATIVE_DOUBLE);
  H5Tinsert(id, "feasibility_angle", HOFFSET(SettingsRow, feasibility_angle), H5T_NATIVE_DOUBLE);
  H5Tinsert(id, "friction_directions", HOFFSET(SettingsRow, friction_directions), H5T_NATIVE_INT32);
  H5Tinsert(id, "formulation", HOFFSET(SettingsRow, formulation), formulation.get());
  H5Tinsert(id, "solver", HOFFSET(SettingsRow, solver), solver.get());
  H5Tinsert(id, "fallbacks", HOFFSET(SettingsRow, fallbacks), fallbacks.get());
  H5Tinsert(id, "tolerance", HOFFSET(SettingsRow, tolerance), H5T_NATIVE_DOUBLE);
  H5Tinsert(id, "max_iterations", HOFFSET(SettingsRow, max_iterations), H5T_NATIVE_INT32);
  H5Tinsert(id, "on_failure", HOFFSET(SettingsRow, on_failure), on_failure.get());
  H5Tinsert(id, "warm_start", HOFFSET(SettingsRow, warm_start), H5T_NATIVE_UINT8);
  H5Tinsert(id, "contact_model", HOFFSET(SettingsRow, contact_model), contact_model.get());
  if (with_joint_correction) {
    H5Tinsert(id, "joint_correction", HOFFSET(SettingsRow, joint_correction), H5T_NATIVE_UINT8);
    H5Tinsert(id, "joint_position_tolerance", HOFFSET(SettingsRow, joint_position_tolerance),
              H5T_NATIVE_DOUBLE);
    H5Tinsert(id, "joint_velocity_tolerance", HOFFSET(SettingsRow, joint_velocity_tolerance),
              H5T_NATIVE_DOUBLE);
  }
  if (with_sm_enforce)
    H5Tinsert(id, "sm_enforce", HOFFSET(SettingsRow, sm_enforce), sm_enforce.get());
  if (with_gyroscopic)
    H5Tinsert(id, "gyroscopic", HOFFSET(SettingsRow, gyroscopic), gyroscopic.get());
  if (with_primaries) H5Tinsert(id, "primaries", HOFFSET(SettingsRow, primaries), primaries.get());
  if (with_cone_orientation)
    H5Tinsert(id, "cone_orientation", HOFFSET(SettingsRow, cone_orientation),
              cone_orientation.get());
  if (with_time_budget)
    H5Tinsert(id, "time_budget", HOFFSET(SettingsRow, time_budget), H5T_NATIVE_DOUBLE);
  if (with_iteration_budget)
    H5Tinsert(id, "iteration_budget", HOFFSET(SettingsRow, iteration_budget), H5T_NATIVE_UINT8);
  if (with_contacts_per_pair)
    H5Tinsert(id, "contacts_per_pair", HOFFSET(SettingsRow, contacts_per_pair), H5T_NATIVE_INT32);
  return t;
}

SettingsRow to_row(const Settings& s) {
  SettingsRow r{};
  r.h = s.h;
  for (int k = 0; k < 3; ++k) r.gravity[k] = s.gravity[k];
  r.epsilon = s.epsilon;
  r.eps_theta = s.eps_theta;
  r.feasibility_depth = s.feasibility_depth;
  r.feasibility_angle = s.feasibility_angle;
  r.tolerance = s.tolerance;
  r.friction_directions = s.friction_directions;
  r.max_iterations = s.max_iterations;
  r.warm_start = s.warm_start ? 1 : 0;
  r.time_budget = s.time_budget;
  r.iteration_budget = s.iteration_budget ? 1 : 0;
  r.contacts_per_pair = s.contacts_per_pair;
  r.joint_correction = s.joint_correction ? 1 : 0;
  r.joint_position_tolerance = s.joint_position_tolerance;
  r.joint_velocity_tolerance = s.joint_velocity_tolerance;
  put(r.formulation, to_string(s.formulation), "formulation");
  put(r.on_failure, to_string(s.on_failure), "on_failure");
  put(r.solver, s.solver, "solver");
  put(r.contact_model, to_string(s.contact_model), "contact_model");
  put(r.sm_enforce, to_string(s.sm_enforce), "sm_enforce");
  put(r.gyroscopic, to_string(s.gyroscopic), "gyroscopic");
  put(r.primaries, to_string(s.primaries), "primaries");
  put(r.cone_orientation, to_string(s.cone_orientation), "cone_orientation");
  std::string fallbacks;
  for (const std::string& f : s.fallbacks) fallbacks += (fallbacks.empty() ? "" : ",") + f;
  put(r.fallbacks, fallbacks, "fallbacks");
  return r;
}

Settings from_row(const SettingsRow& r) {
  Settings s;
  s.h = r.h;
  s.gravity = Vec3(r.gravity[0], r.gravity[1], r.gravity[2]);
  s.epsilon = r.epsilon;
  s.eps_theta = r.eps_theta;
  s.feasibility_depth = r.feasibility_depth;
  s.feasibility_angle = r.feasibility_angle;
  s.tolerance = r.tolerance;
  s.friction_directions = r.friction_directions;
  s.max_iterations = r.max_iterations;
  s.warm_start = r.warm_start != 0;
  if (!(r.time_budget >= 0.0))
    throw h5::Failure("/settings_log time_budget: expected a time >= 0 in s, got " +
                      std::to_string(r.time_budget));
  s.time_budget = r.time_budget;
  s.iteration_budget = r.iteration_budget != 0;
  if (r.contacts_per_pair < 0)
    throw h5::Failure("/settings_log contacts_per_pair: expected an integer >= 0, got " +
                      std::to_string(r.contacts_per_pair));
  s.contacts_per_pair = r.contacts_per_pair;
  s.joint_correction = r.joint_correction != 0;
  // Zero in rows read without the fields: keep the defaults.
  if (r.joint_position_tolerance > 0.0) s.joint_position_tolerance = r.joint_position_tolerance;
  if (r.joint_velocity_tolerance > 0.0) s.joint_velocity_tolerance = r.joint_velocity_tolerance;
  const std::string formulation = get(r.formulation);
  if (!parse_formulation(formulation, s.formulation))
    throw h5::Failure("/settings_log formulation: unknown formulation '" + formulation + "'");
  const std::string policy = get(r.on_failure);
  if (!parse_failure_policy(policy, s.on_failure))
    throw h5::Failure("/settings_log on_failure: expected stop or continue, got '" + policy + "'");
  const std::string model = get(r.contact_model);
  if (!model.empty() && !parse_contact_model(model, s.contact_model))
    throw h5::Failure(
        "/settings_log contact_model: expected sm, lnc, peg, corrective or volumetric, got '" +
        model + "'");
  const std::string which = get(r.sm_enforce);
  if (!which.empty() && !parse_sm_enforce(which, s.sm_enforce))
    throw h5::Failure("/settings_log sm_enforce: expected primary or all, got '" + which + "'");
  const std::string gyroscopic = get(r.gyroscopic);
  s.gyroscopic = Gyroscopic::Explicit;  // rows written before the option
  if (!gyroscopic.empty() && !parse_gyroscopic(gyroscopic, s.gyroscopic))
    throw h5::Failure("/settings_log gyroscopic: expected midpoint, implicit or explicit, got '" +
                      gyroscopic + "'");
  const std::string cone = get(r.cone_orientation);
  s.cone_orientation = ConeOrientation::Fixed;  // rows written before the option
  if (!cone.empty() && !parse_cone_orientation(cone, s.cone_orientation))
    throw h5::Failure("/settings_log cone_orientation: expected motion or fixed, got '" + cone +
                      "'");
  const std::string primaries = get(r.primaries);
  if (!primaries.empty() && !parse_primaries(primaries, s.primaries))
    throw h5::Failure("/settings_log primaries: expected largest-gap or several, got '" +
                      primaries + "'");
  s.solver = get(r.solver);
  s.fallbacks.clear();
  std::stringstream list(get(r.fallbacks));
  for (std::string item; std::getline(list, item, ',');)
    if (!item.empty()) s.fallbacks.push_back(item);
  return s;
}

bool same_settings(const Settings& a, const Settings& b) {
  return a.h == b.h && a.gravity == b.gravity && a.epsilon == b.epsilon &&
         a.eps_theta == b.eps_theta && a.feasibility_depth == b.feasibility_depth &&
         a.feasibility_angle == b.feasibility_angle &&
         a.friction_directions == b.friction_directions && a.formulation == b.formulation &&
         a.contact_model == b.contact_model && a.sm_enforce == b.sm_enforce &&
         a.gyroscopic == b.gyroscopic && a.primaries == b.primaries &&
         a.cone_orientation == b.cone_orientation && a.solver == b.solver &&
         a.fallbacks == b.fallbacks && a.tolerance == b.tolerance &&
         a.max_iterations == b.max_iterations && a.on_failure == b.on_failure &&
         a.time_budget == b.time_budget && a.iteration_budget == b.iteration_budget &&
         a.contacts_per_pair == b.contacts_per_pair && a.warm_start == b.warm_start &&
         a.joint_correction == b.joint_correction &&
         a.joint_position_tolerance == b.joint_position_tolerance &&
         a.joint_velocity_tolerance == b.joint_velocity_tolerance;
}

}  // namespace pegsim::run_layout
