#include "io/run_layout.hpp"

#include <cstddef>

#include "engine/core/constraint_set.hpp"
#include "engine/core/contact.hpp"
#include "engine/core/shape.hpp"
#include "engine/solvers/solver.hpp"

namespace pegsim::run_layout {
namespace {

// Enumerations are stored as HDF5 enum types so that h5dump and h5py show their names.
template <typename E>
h5::Handle enum_type(std::initializer_list<E> values, bool with_none) {
  h5::Handle t = h5::type(H5Tenum_create(H5T_NATIVE_INT8));
  if (with_none) {
    const std::int8_t none = -1;
    H5Tenum_insert(t.get(), "none", &none);
  }
  for (E e : values) {
    const std::int8_t v = static_cast<std::int8_t>(e);
    H5Tenum_insert(t.get(), to_string(e), &v);
  }
  return t;
}

h5::Handle vec3() {
  const hsize_t three = 3;
  return h5::type(H5Tarray_create2(H5T_NATIVE_DOUBLE, 1, &three));
}

}  // namespace

h5::Handle shape_kind_type() {
  return enum_type({ShapeKind::Sphere, ShapeKind::Plane, ShapeKind::Polytope, ShapeKind::Polygon,
                    ShapeKind::Circle, ShapeKind::HalfPlane, ShapeKind::Compound},
                   false);
}

h5::Handle feature_kind_type() {
  return enum_type({FeatureKind::Vertex, FeatureKind::Edge, FeatureKind::Face, FeatureKind::Sphere,
                    FeatureKind::Plane, FeatureKind::Circle, FeatureKind::HalfPlane},
                   false);
}

h5::Handle status_type() {
  return enum_type({SolveStatus::Solved, SolveStatus::MaxIterations, SolveStatus::Unsolvable,
                    SolveStatus::NumericalFailure, SolveStatus::TimeBudget},
                   true);
}

h5::Handle contact_type(bool with_duplicate_of, bool with_parts, bool with_friction_basis,
                        bool with_implicit, bool with_tangential_deflection, bool with_volume) {
  h5::Handle t = h5::type(H5Tcreate(H5T_COMPOUND, sizeof(ContactRow)));
  const h5::Handle kind = feature_kind_type();
  const h5::Handle v3 = vec3();
  const hid_t id = t.get();
  H5Tinsert(id, "body_a", HOFFSET(ContactRow, body_a), H5T_NATIVE_INT32);
  H5Tinsert(id, "body_b", HOFFSET(ContactRow, body_b), H5T_NATIVE_INT32);
  H5Tinsert(id, "feature_a", HOFFSET(ContactRow, kind_a), kind.get());
  H5Tinsert(id, "index_a", HOFFSET(ContactRow, index_a), H5T_NATIVE_INT32);
  H5Tinsert(id, "feature_b", HOFFSET(ContactRow, kind_b), kind.get());
  H5Tinsert(id, "index_b", HOFFSET(ContactRow, index_b), H5T_NATIVE_INT32);
  if (with_duplicate_of)
    H5Tinsert(id, "duplicate_of", HOFFSET(ContactRow, duplicate_of), H5T_NATIVE_INT32);
  H5Tinsert(id, "point", HOFFSET(ContactRow, point), v3.get());
  H5Tinsert(id, "normal", HOFFSET(ContactRow, normal), v3.get());
  H5Tinsert(id, "gap", HOFFSET(ContactRow, gap), H5T_NATIVE_DOUBLE);
  H5Tinsert(id, "applicability", HOFFSET(ContactRow, applicability), H5T_NATIVE_DOUBLE);
  H5Tinsert(id, "applicable", HOFFSET(ContactRow, applicable), H5T_NATIVE_UINT8);
  H5Tinsert(id, "feasible", HOFFSET(ContactRow, feasible), H5T_NATIVE_UINT8);
  H5Tinsert(id, "primary", HOFFSET(ContactRow, primary), H5T_NATIVE_UINT8);
  H5Tinsert(id, "enforced", HOFFSET(ContactRow, enforced), H5T_NATIVE_UINT8);
  H5Tinsert(id, "normal_impulse", HOFFSET(ContactRow, normal_impulse), H5T_NATIVE_DOUBLE);
  H5Tinsert(id, "friction_impulse", HOFFSET(ContactRow, friction_impulse), v3.get());
  H5Tinsert(id, "sliding", HOFFSET(ContactRow, sliding), H5T_NATIVE_UINT8);
  if (with_friction_basis)
    H5Tinsert(id, "friction_basis", HOFFSET(ContactRow, friction_basis), v3.get());
  if (with_parts) {
    H5Tinsert(id, "part_a", HOFFSET(ContactRow, part_a), H5T_NATIVE_INT32);
    H5Tinsert(id, "part_b", HOFFSET(ContactRow, part_b), H5T_NATIVE_INT32);
  }
  if (with_implicit) {
    const hsize_t two = 2;
    const h5::Handle v2 = h5::type(H5Tarray_create2(H5T_NATIVE_DOUBLE, 1, &two));
    H5Tinsert(id, "point_b", HOFFSET(ContactRow, point_b), v3.get());
    H5Tinsert(id, "multipliers", HOFFSET(ContactRow, multipliers), v2.get());
    H5Tinsert(id, "slip_measure", HOFFSET(ContactRow, slip_measure), H5T_NATIVE_DOUBLE);
    H5Tinsert(id, "torsional_impulse", HOFFSET(ContactRow, torsional_impulse), H5T_NATIVE_DOUBLE);
    H5Tinsert(id, "deflection", HOFFSET(ContactRow, deflection), H5T_NATIVE_DOUBLE);
    H5Tinsert(id, "core_impulse", HOFFSET(ContactRow, core_impulse), H5T_NATIVE_DOUBLE);
  }
  if (with_tangential_deflection)
    H5Tinsert(id, "tangential_deflection", HOFFSET(ContactRow, tangential_deflection), v3.get());
  if (with_volume) {
    H5Tinsert(id, "volume", HOFFSET(ContactRow, volume), H5T_NATIVE_DOUBLE);
    H5Tinsert(id, "volume_rate", HOFFSET(ContactRow, volume_rate), H5T_NATIVE_DOUBLE);
  }
  return t;
}

h5::Handle solver_type() {
  h5::Handle t = h5::type(H5Tcreate(H5T_COMPOUND, sizeof(SolverRow)));
  const h5::Handle status = status_type();
  const hid_t id = t.get();
  H5Tinsert(id, "problem_size", HOFFSET(SolverRow, problem_size), H5T_NATIVE_INT32);
  H5Tinsert(id, "solver", HOFFSET(SolverRow, solver), H5T_NATIVE_INT8);
  H5Tinsert(id, "status", HOFFSET(SolverRow, status), status.get());
  H5Tinsert(id, "iterations", HOFFSET(SolverRow, iterations), H5T_NATIVE_INT32);
  H5Tinsert(id, "residual", HOFFSET(SolverRow, residual), H5T_NATIVE_DOUBLE);
  H5Tinsert(id, "answer", HOFFSET(SolverRow, answer), H5T_NATIVE_INT32);
  H5Tinsert(id, "fell_back", HOFFSET(SolverRow, fell_back), H5T_NATIVE_UINT8);
  H5Tinsert(id, "failed", HOFFSET(SolverRow, failed), H5T_NATIVE_UINT8);
  H5Tinsert(id, "max_penetration", HOFFSET(SolverRow, max_penetration), H5T_NATIVE_DOUBLE);
  H5Tinsert(id, "detect_seconds", HOFFSET(SolverRow, detect_seconds), H5T_NATIVE_DOUBLE);
  H5Tinsert(id, "formulate_seconds", HOFFSET(SolverRow, formulate_seconds), H5T_NATIVE_DOUBLE);
  H5Tinsert(id, "solve_seconds", HOFFSET(SolverRow, solve_seconds), H5T_NATIVE_DOUBLE);
  H5Tinsert(id, "integrate_seconds", HOFFSET(SolverRow, integrate_seconds), H5T_NATIVE_DOUBLE);
  return t;
}

h5::Handle attempt_type() {
  h5::Handle t = h5::type(H5Tcreate(H5T_COMPOUND, sizeof(AttemptRow)));
  const h5::Handle status = status_type();
  const hid_t id = t.get();
  H5Tinsert(id, "solver", HOFFSET(AttemptRow, solver), H5T_NATIVE_INT8);
  H5Tinsert(id, "status", HOFFSET(AttemptRow, status), status.get());
  H5Tinsert(id, "iterations", HOFFSET(AttemptRow, iterations), H5T_NATIVE_INT32);
  H5Tinsert(id, "residual", HOFFSET(AttemptRow, residual), H5T_NATIVE_DOUBLE);
  H5Tinsert(id, "seconds", HOFFSET(AttemptRow, seconds), H5T_NATIVE_DOUBLE);
  return t;
}

h5::Handle entry_type() {
  h5::Handle t = h5::type(H5Tcreate(H5T_COMPOUND, sizeof(EntryRow)));
  const hid_t id = t.get();
  H5Tinsert(id, "row", HOFFSET(EntryRow, row), H5T_NATIVE_INT32);
  H5Tinsert(id, "col", HOFFSET(EntryRow, col), H5T_NATIVE_INT32);
  H5Tinsert(id, "value", HOFFSET(EntryRow, value), H5T_NATIVE_DOUBLE);
  return t;
}

h5::Handle sm_trap_type() {
  h5::Handle t = h5::type(H5Tcreate(H5T_COMPOUND, sizeof(SmTrapRow)));
  const h5::Handle kind = feature_kind_type();
  const hid_t id = t.get();
  H5Tinsert(id, "body", HOFFSET(SmTrapRow, body), H5T_NATIVE_INT32);
  H5Tinsert(id, "feature", HOFFSET(SmTrapRow, kind), kind.get());
  H5Tinsert(id, "index", HOFFSET(SmTrapRow, index), H5T_NATIVE_INT32);
  H5Tinsert(id, "other_body", HOFFSET(SmTrapRow, other_body), H5T_NATIVE_INT32);
  return t;
}

h5::Handle group_type() {
  h5::Handle t = h5::type(H5Tcreate(H5T_COMPOUND, sizeof(GroupRow)));
  const h5::Handle kind = enum_type(
      {ConstraintKind::Unilateral, ConstraintKind::InterContact, ConstraintKind::CrossContact},
      false);
  const hid_t id = t.get();
  H5Tinsert(id, "first", HOFFSET(GroupRow, first), H5T_NATIVE_INT32);
  H5Tinsert(id, "count", HOFFSET(GroupRow, count), H5T_NATIVE_INT32);
  H5Tinsert(id, "kind", HOFFSET(GroupRow, kind), kind.get());
  H5Tinsert(id, "impulse", HOFFSET(GroupRow, impulse), H5T_NATIVE_DOUBLE);
  return t;
}

}  // namespace pegsim::run_layout
