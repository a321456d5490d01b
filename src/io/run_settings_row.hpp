// One row of a run file's settings log (/settings_log, docs/run-format.md): the full
// Settings as a fixed-size compound, so that rows can be appended under SWMR (no new
// objects, no variable-length strings). Private to src/io.
#pragma once

#include <cstdint>

#include "engine/core/settings.hpp"
#include "io/hdf5_handle.hpp"

namespace pegsim::run_layout {

struct SettingsRow {
  double h;           // s
  double gravity[3];  // m/s^2
  double epsilon, eps_theta, feasibility_depth, feasibility_angle, tolerance;
  std::int32_t friction_directions, max_iterations;
  std::uint8_t warm_start;
  // Thesis Alg. 1 (added within version 1; rows of older files read as off, default tolerances).
  std::uint8_t joint_correction;
  double joint_position_tolerance, joint_velocity_tolerance;
  // Null-padded names, as /settings holds them.
  char formulation[24];
  char on_failure[16];
  char solver[32];
  char fallbacks[128];  // comma-separated
  // Empty in files written before contact models: "sm". 8 characters in files written before
  // "corrective" (HDF5 converts the narrower column on reading).
  char contact_model[16];
  char sm_enforce[8];              // empty in files written before the option: "primary"
  char gyroscopic[16];             // empty in files written before the option: "explicit"
  char primaries[16];              // empty in files written before the option: "largest-gap"
  char cone_orientation[8];        // empty in files written before the option: "fixed"
  double time_budget;              // s; 0 in files written before the option (no limit)
  std::uint8_t iteration_budget;   // 0 in files written before the option
  std::int32_t contacts_per_pair;  // 0 in files written before the option (every contact)
};

// The row's compound type; without the joint-correction fields, sm_enforce, gyroscopic,
// primaries, cone_orientation, time_budget, iteration_budget or contacts_per_pair for files
// written before them.
h5::Handle settings_type(bool with_joint_correction = true, bool with_sm_enforce = true,
                         bool with_gyroscopic = true, bool with_primaries = true,
                         bool with_cone_orientation = true, bool with_time_budget = true,
                         bool with_iteration_budget = true, bool with_contacts_per_pair = true);

// Throws h5::Failure naming the field if a name does not fit its column.
SettingsRow to_row(const Settings& s);
// Throws h5::Failure naming the field if a name is not one the engine knows.
Settings from_row(const SettingsRow& row);

// Field by field: whether a step ran with other settings than the last recorded ones.
bool same_settings(const Settings& a, const Settings& b);

}  // namespace pegsim::run_layout
