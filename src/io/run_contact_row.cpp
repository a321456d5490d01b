#include "io/run_contact_row.hpp"

namespace pegsim {

namespace L = run_layout;

L::ContactRow contact_row(const StepReport& r, std::size_t i) {
  const Contact& c = r.contacts[i];
  L::ContactRow row{};
  row.body_a = c.body_a;
  row.body_b = c.body_b;
  row.kind_a = static_cast<std::int8_t>(c.feature_a.kind);
  row.index_a = c.feature_a.index;
  row.kind_b = static_cast<std::int8_t>(c.feature_b.kind);
  row.index_b = c.feature_b.index;
  row.part_a = c.part_a;
  row.part_b = c.part_b;
  row.duplicate_of = i < r.duplicate_of.size() ? r.duplicate_of[i] : -1;
  for (int k = 0; k < 3; ++k) row.point[k] = c.point_a[k], row.normal[k] = c.normal[k];
  row.gap = c.gap;
  row.volume = c.volume;
  row.volume_rate = c.volume_rate;
  row.applicability = c.applicability;
  row.applicable = c.applicable;
  row.feasible = c.feasible;
  row.primary = c.primary();
  row.enforced = i < r.enforced.size() && r.enforced[i];
  row.normal_impulse = i < r.normal_impulse.size() ? r.normal_impulse[i] : 0.0;
  const Vec3 f = i < r.friction_impulse.size() ? r.friction_impulse[i] : Vec3::Zero();
  for (int k = 0; k < 3; ++k) row.friction_impulse[k] = f[k];
  row.sliding = i < r.sliding.size() && r.sliding[i];
  const Vec3 t0 = i < r.friction_basis.size() ? r.friction_basis[i] : Vec3::Zero();
  for (int k = 0; k < 3; ++k) row.friction_basis[k] = t0[k];
  if (i < r.implicit.size()) {
    const ImplicitContact& x = r.implicit[i];
    for (int k = 0; k < 3; ++k) row.point_b[k] = x.a2[k];
    row.multipliers[0] = x.l1;
    row.multipliers[1] = x.l2;
    row.slip_measure = x.sigma;
    row.torsional_impulse = x.p_r;
    row.deflection = x.deflection;
    row.core_impulse = x.p_core;
    const Vec3 shear = x.tangential_deflection();
    for (int k = 0; k < 3; ++k) row.tangential_deflection[k] = shear[k];
  } else {
    const Vec3 b = c.point_a + c.gap * c.normal;
    for (int k = 0; k < 3; ++k) row.point_b[k] = b[k];
    row.torsional_impulse = i < r.torsional_impulse.size() ? r.torsional_impulse[i] : 0.0;
    // A volumetric contact's bristle stretch is its tangential deflection.
    if (i < r.stick_stretch.size())
      for (int k = 0; k < 3; ++k) row.tangential_deflection[k] = r.stick_stretch[i][k];
  }
  return row;
}

RecordedContact recorded_contact(const L::ContactRow& r, const ContactRowFields& has) {
  RecordedContact c;
  c.contact.body_a = r.body_a;
  c.contact.body_b = r.body_b;
  c.contact.feature_a = {static_cast<FeatureKind>(r.kind_a), r.index_a};
  c.contact.feature_b = {static_cast<FeatureKind>(r.kind_b), r.index_b};
  c.contact.point_a = Vec3(r.point[0], r.point[1], r.point[2]);
  c.contact.normal = Vec3(r.normal[0], r.normal[1], r.normal[2]);
  c.contact.gap = r.gap;
  if (has.volume) c.contact.volume = r.volume, c.contact.volume_rate = r.volume_rate;
  c.contact.applicability = r.applicability;
  c.contact.applicable = r.applicable != 0;
  c.contact.feasible = r.feasible != 0;
  c.enforced = r.enforced != 0;
  if (has.duplicate_of) c.duplicate_of = r.duplicate_of;
  if (has.parts) c.contact.part_a = r.part_a, c.contact.part_b = r.part_b;
  c.normal_impulse = r.normal_impulse;
  c.friction_impulse = Vec3(r.friction_impulse[0], r.friction_impulse[1], r.friction_impulse[2]);
  c.sliding = r.sliding != 0;
  if (has.friction_basis)
    c.friction_basis = Vec3(r.friction_basis[0], r.friction_basis[1], r.friction_basis[2]);
  if (has.implicit) {
    c.point_b = Vec3(r.point_b[0], r.point_b[1], r.point_b[2]);
    c.multipliers = Vec2(r.multipliers[0], r.multipliers[1]);
    c.slip_measure = r.slip_measure;
    c.torsional_impulse = r.torsional_impulse;
    c.deflection = r.deflection;
    c.core_impulse = r.core_impulse;
    if (has.tangential_deflection)
      c.tangential_deflection =
          Vec3(r.tangential_deflection[0], r.tangential_deflection[1], r.tangential_deflection[2]);
  } else {
    c.point_b = c.contact.point_a + c.contact.gap * c.contact.normal;
  }
  return c;
}

}  // namespace pegsim
