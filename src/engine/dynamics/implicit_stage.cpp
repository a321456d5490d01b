#include "engine/dynamics/implicit_stage.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include <Eigen/LU>

#include "engine/dynamics/scene_checks.hpp"
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

// The same shape: the same kind and radius and the same immutable geometry (its shared parts
// are never changed, and the kept copy keeps their addresses from being reused).
bool same_shape(const Shape& a, const Shape& b) {
  return a.kind == b.kind && a.radius == b.radius && a.polytope == b.polytope &&
         a.polygon == b.polygon && a.compound == b.compound && a.smooth == b.smooth;
}

// Two springs (or dampers) K_a, K_b in series: their compliances K^-1 add. A matrix of its (n, n)
// entry alone is rigid along t and o (compliance diag(1 / k_nn, 0, 0)); a zero or singular one
// (a missing damper) leaves none in series.
Mat3 in_series(const Mat3& a, const Mat3& b) {
  auto compliance = [](const Mat3& m, Mat3& out) {
    if (only_normal_entry(m)) {
      out = Mat3::Zero();
      out(0, 0) = 1.0 / m(0, 0);
      return m(0, 0) > 0.0;
    }
    const Eigen::FullPivLU<Mat3> lu(m);
    if (!lu.isInvertible()) return false;
    out = lu.inverse();
    return true;
  };
  Mat3 ca, cb;
  if (!compliance(a, ca) || !compliance(b, cb)) return Mat3::Zero();
  const Mat3 sum = ca + cb;
  if (!only_normal_entry(sum)) return sum.inverse();
  Mat3 k = Mat3::Zero();
  k(0, 0) = 1.0 / sum(0, 0);
  return k;
}

}  // namespace

QuasiRigidShell pair_shell(const QuasiRigidShell& a, const QuasiRigidShell& b) {
  if (!a.compliant()) return b;
  if (!b.compliant()) return a;
  QuasiRigidShell s;
  s.stiffness = in_series(a.stiffness, b.stiffness);
  s.damping = in_series(a.damping, b.damping);
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

bool implicit_body_shape(const Shape& shape, ImplicitBody& body) {
  body.pieces.clear();
  if (implicit_function_of(shape, body.shape)) return true;
  switch (shape.kind) {
    case ShapeKind::Polytope:
    case ShapeKind::Polygon:
      body.pieces.push_back(polytope_convex(shape));
      return true;
    case ShapeKind::Compound:
      // A union of convex parts (§6.4's gear): one piece per part, in the body frame.
      for (const CompoundPart& part : shape.compound->parts) {
        ImplicitBody one;
        if (!implicit_body_shape(part.shape, one)) return false;
        ImplicitConvex piece = piece_convex(one, 0);
        const Mat3 R = part.orientation.toRotationMatrix();
        for (ImplicitFunction& f : piece.functions) {
          f.center = part.position + R * f.center;
          f.normal = R * f.normal;
          if (f.kind == ImplicitFunction::Kind::Ellipsoid ||
              f.kind == ImplicitFunction::Kind::Superquadric) {
            f.axes = R * f.axes;
            f.turned = !f.axes.isIdentity(1e-15);
          }
        }
        piece.inside = part.position + R * piece.inside;
        body.pieces.push_back(std::move(piece));
      }
      return true;
    default:
      return false;
  }
}

ImplicitConvex polytope_convex(const Shape& shape) {
  ImplicitConvex c;
  ImplicitFunction f;
  f.kind = ImplicitFunction::Kind::HalfSpace;
  if (shape.kind == ShapeKind::Polytope) {
    for (const Polytope::Face& face : shape.polytope->faces) {
      f.normal = face.normal;
      f.center = face.offset * face.normal;
      c.functions.push_back(f);
    }
  } else {
    const Polygon& p = *shape.polygon;
    for (int e = 0; e < p.size(); ++e) {
      f.normal = Vec3(p.normals[std::size_t(e)].x(), p.normals[std::size_t(e)].y(), 0.0);
      f.center = Vec3(p.vertices[std::size_t(e)].x(), p.vertices[std::size_t(e)].y(), 0.0);
      c.functions.push_back(f);
    }
  }
  // The mean of the vertices, strictly inside, and the ball about it.
  const int count = shape.kind == ShapeKind::Polytope ? int(shape.polytope->vertices.size())
                                                      : shape.polygon->size();
  auto vertex = [&](int i) {
    if (shape.kind == ShapeKind::Polytope) return shape.polytope->vertices[std::size_t(i)];
    const Vec2 v = shape.polygon->vertices[std::size_t(i)];
    return Vec3(v.x(), v.y(), 0.0);
  };
  c.inside.setZero();
  for (int i = 0; i < count; ++i) c.inside += vertex(i) / double(count);
  c.radius = 0.0;
  for (int i = 0; i < count; ++i) c.radius = std::max(c.radius, (vertex(i) - c.inside).norm());
  return c;
}

double separation_bound(const ImplicitBody& a, const ImplicitBody& b, int piece_a, int piece_b) {
  const ImplicitConvex A = piece_convex(a, piece_a), B = piece_convex(b, piece_b);
  // The gap along the world unit axis n from a onto b: n . (x_b - x_a) - h_a(n) - h_b(-n),
  // each support taken in its body's frame.
  auto along = [&](const Vec3& n) {
    return n.dot(b.position - a.position) - convex_support(A, a.orientation.conjugate() * n) -
           convex_support(B, b.orientation.conjugate() * -n);
  };
  double bound = -std::numeric_limits<double>::infinity();
  // The half-spaces' normals: a's outward, b's inward (a polytope's faces, a plane).
  for (const ImplicitFunction& f : A.functions)
    if (f.kind == ImplicitFunction::Kind::HalfSpace)
      bound = std::max(bound, along(a.orientation * f.normal));
  for (const ImplicitFunction& f : B.functions)
    if (f.kind == ImplicitFunction::Kind::HalfSpace)
      bound = std::max(bound, along(-(b.orientation * f.normal)));
  const bool plane = [](const ImplicitConvex& x, const ImplicitConvex& y) {
    return (x.functions.size() == 1 && x.functions[0].kind == ImplicitFunction::Kind::HalfSpace) ||
           (y.functions.size() == 1 && y.functions[0].kind == ImplicitFunction::Kind::HalfSpace);
  }(A, B);
  if (plane) return bound;  // against a half-space its normal is the separating axis
  // The line of the centres, and each body's axes oriented from a towards b.
  auto centre = [](const ImplicitBody& body, const ImplicitConvex& c) {
    const Vec3 local = c.functions.size() == 1 ? c.functions[0].center : c.inside;
    return Vec3(body.orientation * local + body.position);
  };
  const Vec3 centres = centre(b, B) - centre(a, A);
  const double length = centres.norm();
  if (!(length > 0.0)) return bound;
  bound = std::max(bound, along(centres / length));
  for (const Quat* q : {&a.orientation, &b.orientation})
    for (int i = 0; i < 3; ++i) {
      const Vec3 axis = *q * Vec3::Unit(i);
      bound = std::max(bound, along(axis.dot(centres) >= 0.0 ? axis : Vec3(-axis)));
    }
  return bound;
}

double implicit_reach(const Model& model, const State& state, std::size_t i, double h) {
  const Body& b = model.bodies[i];
  if (b.is_static || !b.present_at(state.time)) return 0.0;
  // The smooth surfaces reach beyond their tessellations by the sagitta.
  const Shape& s = b.shape;
  double r = shape_radius(s);
  if (s.compound)
    for (const CompoundPart& part : s.compound->parts)
      if (part.shape.smooth) r = std::max(r, shape_radius(s) + part.shape.smooth->sagitta);
  if (s.smooth) r += s.smooth->sagitta;
  const BodyState& x = state.bodies[i];
  return h * (x.velocity.norm() + x.angular_velocity.norm() * r);
}

double implicit_reach_margin(const Model& model, const State& state, double h) {
  double most = 0.0;
  for (std::size_t i = 0; i < model.bodies.size(); ++i)
    most = std::max(most, implicit_reach(model, state, i, h));
  return 2.0 * most;
}

double implicit_broad_margin(const Model& model, const Settings& settings) {
  double sagitta = 0.0;
  for (const Body& b : model.bodies) {
    if (b.shape.smooth) sagitta = std::max(sagitta, b.shape.smooth->sagitta);
    if (b.shape.compound)
      for (const CompoundPart& part : b.shape.compound->parts)
        if (part.shape.smooth) sagitta = std::max(sagitta, part.shape.smooth->sagitta);
  }
  return settings.epsilon + 2.0 * sagitta;
}

bool is_world_slide(const Joint& j) {
  return j.type == JointType::Prismatic && j.body_a < 0 && j.body_b >= 0 &&
         !j.displacement_limit.any() && j.linear_damping == 0.0;
}

std::string implicit_step_defect(const Model& model) {
  for (const Joint& j : model.joints)
    if (!is_world_slide(j))
      return "formulation geometrically-implicit takes no joints but prismatic joints to the "
             "world without limits or damping (the gripper fingers of seed 001 §6.4); joint '" +
             j.name + "' is a " + to_string(j.type) + " joint" +
             (j.body_a >= 0 ? " between two bodies" : "") +
             (j.displacement_limit.any() ? " with limits" : "") +
             (j.linear_damping != 0.0 ? " with damping" : "");
  // An implicit drive is a row of the LCP's joint block, which this formulation has not; an
  // explicit one is a wrench like any other.
  for (const PdJointSpec& pd : model.controllers.pd_joints)
    if (pd.implicit)
      return "formulation geometrically-implicit takes explicit pd controllers only: the one "
             "on joint '" +
             model.joints[std::size_t(pd.joint)].name + "' is implicit (set \"implicit\": false)";
  std::vector<int> slides(model.bodies.size(), 0);
  for (const Joint& j : model.joints)
    if (++slides[std::size_t(j.body_b)] > 1)
      return "formulation geometrically-implicit takes one prismatic joint per body: body '" +
             model.bodies[std::size_t(j.body_b)].name + "' has more";
  ImplicitBody body;
  for (const Body& b : model.bodies)
    if (b.support.active() && !model.planar())
      return "support_friction is the table under a planar (2D) model: body '" + b.name +
             "' is in a 3D one";
  for (const Body& b : model.bodies)
    if (!implicit_body_shape(b.shape, body))
      return "formulation geometrically-implicit needs convex shapes described by implicit "
             "functions (sphere, ellipsoid, superquadric, plane, convex polytope; in 2D "
             "circle, ellipse, superellipse, half_plane, convex polygon): body '" +
             b.name + "' is a " + shape_name(b.shape.kind);
    else if (b.shell.compliant() && !body.pieces.empty())
      return "formulation geometrically-implicit gives a quasi-rigid shell to bodies of one "
             "smooth function only (sphere, ellipsoid, superquadric; circle, ellipse, "
             "superellipse): body '" +
             b.name + "' is a " + shape_name(b.shape.kind);
  return {};
}

void ImplicitStage::step(const Model& model, const Settings& settings,
                         const std::vector<BodyPair>& candidates, State& state, StepReport& r) {
  const auto t0 = Clock::now();
  // The bodies at the start of the step, with the wrenches applied for it.
  bodies_.resize(model.bodies.size());
  // A compound without parts is no body's shape: every form is built on the first step.
  Shape no_shape;
  no_shape.kind = ShapeKind::Compound;
  shapes_.resize(model.bodies.size(), no_shape);
  reach_.resize(model.bodies.size());
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
    x.support = b.support;
    x.slide_axis.setZero();
    // Its function or pieces, built again only when the body's shape is another one.
    if (!same_shape(shapes_[i], b.shape)) {
      implicit_body_shape(b.shape, x);
      shapes_[i] = b.shape;
    }
    reach_[i] = implicit_reach(model, state, i, settings.h);
  }
  // A body on a prismatic joint to the world translates along the joint's z axis only.
  for (const Joint& j : model.joints)
    bodies_[std::size_t(j.body_b)].slide_axis = j.frame_a * Vec3::UnitZ();
  // One pair per candidate whose surfaces may be within epsilon, in the broad phase's order
  // (normal from the lower body index onto the higher), each with its unknowns of the last
  // step if it had any. Pairs are few: a linear search finds last step's answers, and the
  // vectors keep their storage from step to step.
  // A body with a quasi-rigid shell is the pair's body b (the paper's flexible body, §5.1).
  auto find = [](const std::vector<ImplicitPair>& in, const ImplicitPair& q) {
    return std::find_if(in.begin(), in.end(), [&](const ImplicitPair& p) {
      return p.a == q.a && p.b == q.b && p.piece_a == q.piece_a && p.piece_b == q.piece_b;
    });
  };
  pairs_.clear();
  contacts_.clear();
  for (const BodyPair& c : candidates) {
    const ImplicitBody &x = bodies_[std::size_t(c.a)], &y = bodies_[std::size_t(c.b)];
    if (x.is_static && y.is_static) continue;
    const Body &a = model.bodies[std::size_t(c.a)], &b = model.bodies[std::size_t(c.b)];
    // The ellipsoidal law (5): Coulomb's in the tangent plane (e_t = e_o = 1) unless a body has
    // a friction ellipse (the first body's, else the second's), torsion up to e_r mu p_n.
    const bool first = a.friction_ellipse.anisotropic();
    const FrictionEllipse& ellipse = first ? a.friction_ellipse : b.friction_ellipse;
    const Vec3 e(ellipse.e_t, ellipse.e_o, std::max(a.torsion_radius, b.torsion_radius));
    const Vec3 tangent_axis =
        ellipse.anisotropic()
            ? Vec3(state.bodies[std::size_t(first ? c.a : c.b)].orientation * ellipse.axis)
            : Vec3::Zero();
    // One pair per two convex pieces within reach: epsilon, and how far the two bodies can
    // travel towards each other in the step.
    const double reach = settings.epsilon + reach_[std::size_t(c.a)] + reach_[std::size_t(c.b)];
    for (int i = 0; i < piece_count(x); ++i)
      for (int j = 0; j < piece_count(y); ++j) {
        if (separation_bound(x, y, i, j) > reach) continue;
        // Body a is the one whose piece is a single function where the other's is not, so that
        // k1 is known (the paper's case, §7).
        const std::size_t ma = piece_functions(x, i).size(), mb = piece_functions(y, j).size();
        const bool swap =
            a.shell.compliant() != b.shell.compliant() ? a.shell.compliant() : ma > 1 && mb == 1;
        ImplicitPair pair{swap ? c.b : c.a,
                          swap ? c.a : c.b,
                          std::sqrt(a.mu * b.mu),
                          e,
                          pair_shell(a.shell, b.shell),
                          swap ? j : i,
                          swap ? i : j,
                          tangent_axis};
        pairs_.push_back(pair);
        const auto w = find(warm_pairs_, pair);
        contacts_.push_back(w != warm_pairs_.end()
                                ? warm_contacts_[std::size_t(w - warm_pairs_.begin())]
                                : ImplicitContact{});
      }
  }
  ImplicitStepOptions o;
  o.dimension = model.planar() ? 2 : 3;
  o.h = settings.h;
  o.gravity = settings.gravity;
  o.solver.tolerance = settings.tolerance;
  o.solver.max_iterations = std::min(settings.max_iterations, 200);
  // An iteration budget (the interactive preset) takes Newton's best iterate too, marked.
  o.take_best = settings.on_failure == FailurePolicy::Continue || settings.iteration_budget;
  r.timings.formulate = seconds_since(t0);
  const auto t1 = Clock::now();
  const ImplicitStepReport solve = implicit_step(bodies_, pairs_, contacts_, o);
  r.timings.solve = seconds_since(t1);

  SolveReport& report = r.solve;
  report.solver = kImplicitSolver;
  report.iterations = solve.iterations;
  report.residual = solve.residual;
  report.status = solve.solved ? SolveStatus::Solved : SolveStatus::NumericalFailure;
  report.message = solve.failure;
  report.seconds = r.timings.solve;
  r.substeps = solve.substeps;
  if (solve.substeps > 1) {
    r.fell_back = true;
    report.message = "Newton found no answer at h; the step was taken as " +
                     std::to_string(solve.substeps) + " shorter steps (h/2 to h/" +
                     std::to_string(1 << o.max_halvings) + ")";
  }
  if (solve.took_best) {
    r.fell_back = true;
    r.iteration_budget_spent = settings.iteration_budget;
    report.message = std::string("no answer at h nor in shorter steps; ") +
                     (settings.iteration_budget ? "iteration budget" : "on_failure continue") +
                     ": the step ends at the iterate of least residual (" + solve.failure + ")";
  }
  r.attempts = {report};
  r.problem_size = implicit_problem_size(bodies_, pairs_, o.dimension);
  if (!solve.solved && !solve.took_best) {
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
