// One contact of a step as a row of /frames/contacts, and back (docs/run-format.md): the one
// place that says which of a step's per-contact fields a run file keeps. Private to src/io.
#pragma once

#include <cstddef>

#include "engine/dynamics/step_report.hpp"
#include "io/run_data.hpp"
#include "io/run_layout.hpp"

namespace pegsim {

// The row of contact i of the step: the contact, and its impulses and flags from the report.
run_layout::ContactRow contact_row(const StepReport& report, std::size_t i);

// Which optional fields the file's rows hold (files written before them lack them; a missing
// field reads as RecordedContact's default).
struct ContactRowFields {
  bool duplicate_of = true;
  bool parts = true;
  bool friction_basis = true;
  bool implicit = true;  // point_b, multipliers, slip_measure, ... (seed 001's unknowns)
  bool tangential_deflection = true;
  bool volume = true;  // volume, volume_rate (the volumetric model)
};

RecordedContact recorded_contact(const run_layout::ContactRow& row, const ContactRowFields& has);

}  // namespace pegsim
