// Names of the core enumerations, used by reports, the CLI and scene files.
#include "engine/core/constraint_set.hpp"
#include "engine/core/contact.hpp"
#include "engine/core/joint.hpp"
#include "engine/core/model.hpp"
#include "engine/core/settings.hpp"
#include "engine/core/shape.hpp"

#include <algorithm>
#include <initializer_list>

namespace pegsim {
namespace {

// The value among `all` whose to_string is `name`, into `out`; false if none is.
template <class E, class Values>
bool parse_name(const std::string& name, const Values& all, E& out) {
  for (E e : all) {
    if (name == to_string(e)) {
      out = e;
      return true;
    }
  }
  return false;
}

}  // namespace

const char* to_string(ShapeKind kind) {
  switch (kind) {
    case ShapeKind::Sphere:
      return "sphere";
    case ShapeKind::Plane:
      return "plane";
    case ShapeKind::Polytope:
      return "polytope";
    case ShapeKind::Polygon:
      return "polygon";
    case ShapeKind::Circle:
      return "circle";
    case ShapeKind::HalfPlane:
      return "half_plane";
    case ShapeKind::Compound:
      return "compound";
  }
  return "?";
}

const char* to_string(FeatureKind k) {
  switch (k) {
    case FeatureKind::Vertex:
      return "vertex";
    case FeatureKind::Edge:
      return "edge";
    case FeatureKind::Face:
      return "face";
    case FeatureKind::Sphere:
      return "sphere";
    case FeatureKind::Plane:
      return "plane";
    case FeatureKind::Circle:
      return "circle";
    case FeatureKind::HalfPlane:
      return "half_plane";
  }
  return "?";
}

const char* to_string(Formulation f) {
  switch (f) {
    case Formulation::StewartTrinkle:
      return "stewart-trinkle";
    case Formulation::AnitescuPotra:
      return "anitescu-potra";
    case Formulation::MixedLcp:
      return "mixed-lcp";
    case Formulation::Ncp:
      return "ncp";
    case Formulation::GeometricallyImplicit:
      return "geometrically-implicit";
  }
  return "?";
}

const char* to_string(ContactModel m) {
  switch (m) {
    case ContactModel::Standard:
      return "sm";
    case ContactModel::Lnc:
      return "lnc";
    case ContactModel::Peg:
      return "peg";
    case ContactModel::Corrective:
      return "corrective";
    case ContactModel::Volumetric:
      return "volumetric";
  }
  return "?";
}

constexpr ContactModel kContactModels[] = {ContactModel::Standard, ContactModel::Lnc,
                                           ContactModel::Peg, ContactModel::Corrective,
                                           ContactModel::Volumetric};

std::vector<std::string> contact_model_names() {
  std::vector<std::string> out;
  for (ContactModel m : kContactModels) out.push_back(to_string(m));
  return out;
}

bool parse_contact_model(const std::string& name, ContactModel& out) {
  return parse_name(name, kContactModels, out);
}

const char* to_string(SmEnforce e) {
  switch (e) {
    case SmEnforce::Primary:
      return "primary";
    case SmEnforce::All:
      return "all";
  }
  return "?";
}

bool parse_sm_enforce(const std::string& name, SmEnforce& out) {
  return parse_name(name, std::initializer_list<SmEnforce>{SmEnforce::Primary, SmEnforce::All},
                    out);
}

const char* to_string(Gyroscopic g) {
  switch (g) {
    case Gyroscopic::Explicit:
      return "explicit";
    case Gyroscopic::Implicit:
      return "implicit";
    case Gyroscopic::Midpoint:
      return "midpoint";
  }
  return "?";
}

bool parse_gyroscopic(const std::string& name, Gyroscopic& out) {
  return parse_name(name,
                    std::initializer_list<Gyroscopic>{Gyroscopic::Explicit, Gyroscopic::Implicit,
                                                      Gyroscopic::Midpoint},
                    out);
}

const char* to_string(ConeOrientation c) {
  switch (c) {
    case ConeOrientation::Motion:
      return "motion";
    case ConeOrientation::Fixed:
      return "fixed";
  }
  return "?";
}

bool parse_cone_orientation(const std::string& name, ConeOrientation& out) {
  return parse_name(
      name, std::initializer_list<ConeOrientation>{ConeOrientation::Motion, ConeOrientation::Fixed},
      out);
}

const char* to_string(Primaries p) {
  switch (p) {
    case Primaries::LargestGap:
      return "largest-gap";
    case Primaries::Several:
      return "several";
  }
  return "?";
}

bool parse_primaries(const std::string& name, Primaries& out) {
  return parse_name(
      name, std::initializer_list<Primaries>{Primaries::LargestGap, Primaries::Several}, out);
}

const char* to_string(ConstraintKind k) {
  switch (k) {
    case ConstraintKind::Unilateral:
      return "unilateral";
    case ConstraintKind::InterContact:
      return "inter-contact";
    case ConstraintKind::CrossContact:
      return "cross-contact";
  }
  return "?";
}

bool parse_constraint_kind(const std::string& name, ConstraintKind& out) {
  return parse_name(
      name,
      std::initializer_list<ConstraintKind>{
          ConstraintKind::Unilateral, ConstraintKind::InterContact, ConstraintKind::CrossContact},
      out);
}

const char* to_string(FailurePolicy p) {
  switch (p) {
    case FailurePolicy::Stop:
      return "stop";
    case FailurePolicy::Continue:
      return "continue";
  }
  return "?";
}

namespace {
constexpr Formulation kFormulations[] = {Formulation::StewartTrinkle, Formulation::AnitescuPotra,
                                         Formulation::MixedLcp, Formulation::Ncp,
                                         Formulation::GeometricallyImplicit};
}

bool parse_formulation(const std::string& name, Formulation& out) {
  return parse_name(name, kFormulations, out);
}

std::vector<std::string> formulation_names() {
  std::vector<std::string> out;
  for (Formulation f : kFormulations) out.push_back(to_string(f));
  return out;
}

const char* to_string(JointType t) {
  switch (t) {
    case JointType::Fixed:
      return "fixed";
    case JointType::Revolute:
      return "revolute";
    case JointType::Prismatic:
      return "prismatic";
    case JointType::Cylindrical:
      return "cylindrical";
    case JointType::Spherical:
      return "spherical";
  }
  return "?";
}

bool parse_joint_type(const std::string& name, JointType& out) {
  return parse_name(
      name,
      std::initializer_list<JointType>{JointType::Fixed, JointType::Revolute, JointType::Prismatic,
                                       JointType::Cylindrical, JointType::Spherical},
      out);
}

bool parse_failure_policy(const std::string& name, FailurePolicy& out) {
  return parse_name(
      name, std::initializer_list<FailurePolicy>{FailurePolicy::Stop, FailurePolicy::Continue},
      out);
}

bool Model::may_collide(int a, int b) const {
  const Body& A = bodies[a];
  const Body& B = bodies[b];
  if (A.is_static && B.is_static) return false;
  auto excluded = [](const Body& x, int other) {
    return std::find(x.no_collide.begin(), x.no_collide.end(), other) != x.no_collide.end();
  };
  return !excluded(A, b) && !excluded(B, a);
}

bool Model::planar() const {
  return !bodies.empty() &&
         std::all_of(bodies.begin(), bodies.end(), [](const Body& b) { return b.shape.planar(); });
}

}  // namespace pegsim
