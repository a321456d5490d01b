#include "engine/dynamics/implicit_stage.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "engine/geometry/smooth_shapes.hpp"

namespace pegsim {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

const char* shape_name(ShapeKind k) {
  switch (k) {
    case ShapeKind::Polytope:
      return "convex polytope";
    case ShapeKind::Polygon:
      return "polygon";
    case ShapeKind::Compound:
      return "compound";
    default:
      return "shape without an implicit function";
  }
}

}  // namespace

QuasiRigidShell pair_shell(const QuasiRigidShell& a, const QuasiRigidShell& b) {
  if (!a.compliant()) return b;
  if (!b.compliant()) return a;
  QuasiRigidShell s;
  s.stiffness = a.stiffness * b.stiffness / (a.stiffness + b.stiffness);
  s.damping =
      a.damping > 0.0 && b.damping > 0.0 ? a.damping * b.damping / (a.damping + b.damping) : 0.0;
  s.max_deflection = a.max_deflection + b.max_deflection;
  return s;
}

bool implicit_function_of(const Shape& shape, ImplicitFunction& out) {
  out = ImplicitFunction{};
  if (shape.smooth) {  // the surface a polytope or polygon tessellates, read in x-y in 2D
    out = smooth_function(*shape.smooth);
    return true;
  }
  switch (shape.kind) {
    case ShapeKind::Sphere:
    case ShapeKind::Circle:  // the sphere's function read in the x-y plane
      out.kind = ImplicitFunction::Kind::Sphere;
      out.radii = Vec3::Constant(shape.radius);
      return true;
    case ShapeKind::Plane:
      out.kind = ImplicitFunction::Kind::HalfSpace;
      out.normal = Vec3::UnitZ();
      return true;
    case ShapeKind::HalfPlane:
      out.kind = ImplicitFunction::Kind::HalfSpace;
      out.normal = Vec3::UnitY();
      return true;
    default:
      return false;
  }
}

double separation_bound(const ImplicitBody& a, const ImplicitBody& b) {
  // The gap along the world unit axis n from a onto b: n . (x_b - x_a) - h_a(n) - h_b(-n),
  // each support taken in its body's frame.
  auto along = [&](const Vec3& n) {
    return n.dot(b.position - a.position) -
           implicit_support(a.shape, a.orientation.conjugate() * n) -
           implicit_support(b.shape, b.orientation.conjugate() * -n);
  };
  using Kind = ImplicitFunction::Kind;
  if (a.shape.kind == Kind::HalfSpace) return along(a.orientation * a.shape.normal);
  if (b.shape.kind == Kind::HalfSpace) return along(-(b.orientation * b.shape.normal));
  // The line of the centres, and each body's axes oriented from a towards b.
  const Vec3 centres =
      (b.orientation * b.shape.center + b.position) - (a.orientation * a.shape.center + a.position);
  const double length = centres.norm();
  if (!(length > 0.0)) return -std::numeric_limits<double>::infinity();
  double bound = along(centres / length);
  for (const Quat* q : {&a.orientation, &b.orientation})
    for (int i = 0; i < 3; ++i) {
      const Vec3 axis = *q * Vec3::Unit(i);
      bound = std::max(bound, along(axis.dot(centres) >= 0.0 ? axis : Vec3(-axis)));
    }
  return bound;
}

double implicit_broad_margin(const Model& model, const Settings& settings) {
  double sagitta = 0.0;
  for (const Body& b : model.bodies)
    if (b.shape.smooth) sagitta = std::max(sagitta, b.shape.smooth->sagitta);
  return settings.epsilon + 2.0 * sagitta;
}

std::string implicit_step_defect(const Model& model) {
  if (!model.joints.empty())
    return "formulation geometrically-implicit takes no joints (the scene has " +
           std::to_string(model.joints.size()) + ")";
  ImplicitFunction f;
  for (const Body& b : model.bodies)
    if (!implicit_function_of(b.shape, f))
      return "formulation geometrically-implicit needs smooth convex shapes (sphere, "
             "ellipsoid, superquadric, plane; in 2D circle, ellipse, superellipse, "
             "half_plane): body '" +
             b.name + "' is a " + shape_name(b.shape.kind);
  return {};
}

void ImplicitStage::step(const Model& model, const Settings& settings,
                         const std::vector<BodyPair>& candidates, State& state, StepReport& r) {
  const auto t0 = Clock::now();
  // The bodies at the start of the step, with the wrenches applied for it.
  bodies_.resize(model.bodies.size());
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    const BodyState& s = state.bodies[i];
    ImplicitBody& x = bodies_[i];
    x.mass = b.mass;
    x.inertia = b.inertia;
    x.is_static = b.is_static || !b.present_at(state.time);  // a body yet to appear waits
    x.position = s.position;
    x.orientation = s.orientation;
    x.velocity = s.velocity;
    x.angular_velocity = s.angular_velocity;
    x.force = s.force;
    x.torque = s.torque;
    implicit_function_of(b.shape, x.shape);
  }
  // One pair per candidate whose surfaces may be within epsilon, in the broad phase's order
  // (normal from the lower body index onto the higher), each with its unknowns of the last
  // step if it had any. Pairs are few: a linear search finds last step's answers, and the
  // vectors keep their storage from step to step.
  // A body with a quasi-rigid shell is the pair's body b (the paper's flexible body, §5.1).
  auto find = [](const std::vector<ImplicitPair>& in, int a, int b) {
    return std::find_if(in.begin(), in.end(), [&](const ImplicitPair& p) {
      return (p.a == a && p.b == b) || (p.a == b && p.b == a);
    });
  };
  pairs_.clear();
  contacts_.clear();
  for (const BodyPair& c : candidates) {
    const ImplicitBody &x = bodies_[std::size_t(c.a)], &y = bodies_[std::size_t(c.b)];
    if (x.is_static && y.is_static) continue;
    if (separation_bound(x, y) > settings.epsilon) continue;
    const Body &a = model.bodies[std::size_t(c.a)], &b = model.bodies[std::size_t(c.b)];
    const bool swap = a.shell.compliant() && !b.shell.compliant();
    // Coulomb's law in the tangent plane (e_t = e_o = 1), torsion up to e_r mu p_n (5).
    const Vec3 e(1.0, 1.0, std::max(a.torsion_radius, b.torsion_radius));
    ImplicitPair pair{swap ? c.b : c.a, swap ? c.a : c.b, std::sqrt(a.mu * b.mu), e,
                      pair_shell(a.shell, b.shell)};
    pairs_.push_back(pair);
    const auto w = find(warm_pairs_, c.a, c.b);
    const bool warm = w != warm_pairs_.end() && w->a == pair.a;  // a1 on the same body
    contacts_.push_back(warm ? warm_contacts_[std::size_t(w - warm_pairs_.begin())]
                             : ImplicitContact{});
  }
  ImplicitStepOptions o;
  o.dimension = model.planar() ? 2 : 3;
  o.h = settings.h;
  o.gravity = settings.gravity;
  o.solver.tolerance = settings.tolerance;
  o.solver.max_iterations = std::min(settings.max_iterations, 200);
  r.timings.formulate = seconds_since(t0);
  const auto t1 = Clock::now();
  const McpNewtonReport solve = implicit_step(bodies_, pairs_, contacts_, o);
  r.timings.solve = seconds_since(t1);

  SolveReport& report = r.solve;
  report.solver = kImplicitSolver;
  report.iterations = solve.iterations;
  report.residual = solve.residual;
  report.status = solve.solved ? SolveStatus::Solved : SolveStatus::NumericalFailure;
  report.message = solve.failure;
  report.seconds = r.timings.solve;
  r.attempts = {report};
  r.problem_size = implicit_problem_size(bodies_, pairs_, o.dimension);
  if (!solve.solved) {
    r.failed = true;
    r.failure = std::string("no solver answered: ") + kImplicitSolver + " " + solve.failure;
    return;
  }

  // The end of the step, and one contact per pair at its end-of-step closest points.
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    if (bodies_[i].is_static) continue;
    BodyState& s = state.bodies[i];
    s.position = bodies_[i].position;
    s.orientation = bodies_[i].orientation;
    s.velocity = bodies_[i].velocity;
    s.angular_velocity = bodies_[i].angular_velocity;
  }
  for (BodyState& s : state.bodies) {
    s.force.setZero();
    s.torque.setZero();
  }
  state.time += settings.h;
  ++state.step;
  const std::size_t n = pairs_.size();
  r.contacts.resize(n);
  r.enforced.assign(n, 1);
  r.duplicate_of.assign(n, -1);
  r.normal_impulse.resize(n);
  r.friction_impulse.resize(n);
  r.sliding.resize(n);
  r.friction_basis.resize(n);
  r.max_penetration = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    const ImplicitContact& x = contacts_[k];
    Contact& c = r.contacts[k];
    c = Contact{};
    c.body_a = pairs_[k].a;
    c.body_b = pairs_[k].b;
    c.point_a = x.a1;
    c.normal = x.normal;
    c.gap = x.gap;
    r.normal_impulse[k] = x.p_n;
    r.friction_impulse[k] = x.p_t * x.tangent + x.p_o * x.normal.cross(x.tangent);
    r.sliding[k] = x.sigma > 0.0 && x.p_n > 0.0;
    r.friction_basis[k] = x.tangent;
    r.max_penetration = std::max(r.max_penetration, -x.gap);
  }
  r.constraints = ConstraintSet{};
  r.implicit.assign(contacts_.begin(), contacts_.end());
  // This step's answers start the next step's solve.
  warm_pairs_.swap(pairs_);
  warm_contacts_.swap(contacts_);
}

}  // namespace pegsim
