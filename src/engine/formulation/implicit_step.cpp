#include "engine/formulation/implicit_step.hpp"

#include <Eigen/Cholesky>
#include <unsupported/Eigen/AutoDiff>

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <type_traits>

namespace pegsim {
namespace {

// A pair's equations see at most two bodies' velocities (6 each) and its own unknowns: 16 for
// two pieces of one function each (the common case, kept small: the derivative vectors' size
// is most of the cost), up to 14 plus kMaxPairFunctions otherwise.
template <int MaxLocal>
using AdOf = Eigen::AutoDiffScalar<Eigen::Matrix<double, Eigen::Dynamic, 1, 0, MaxLocal, 1>>;
constexpr int kSmallLocal = 28;
constexpr int kLargeLocal = 26 + kMaxPairFunctions;

// exp([phi]x) by Rodrigues' formula, with the series of sin t / t and (1 - cos t) / t^2 near
// t = 0 so that the derivatives stay defined there.
template <typename S>
Eigen::Matrix<S, 3, 3> rotation_exp(const Eigen::Matrix<S, 3, 1>& phi) {
  using std::cos;
  using std::sin;
  using std::sqrt;
  const S t2 = phi.squaredNorm();
  S a, b;
  if (t2 < 1e-8) {
    a = 1.0 - t2 / 6.0;
    b = 0.5 - t2 / 24.0;
  } else {
    const S t = sqrt(t2);
    a = sin(t) / t;
    b = (1.0 - cos(t)) / t2;
  }
  Eigen::Matrix<S, 3, 3> K;
  const S zero = constant_like(0.0, phi(0));
  K << zero, -phi.z(), phi.y(), phi.z(), zero, -phi.x(), -phi.y(), phi.x(), zero;
  Eigen::Matrix<S, 3, 3> I;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) I(i, j) = constant_like(i == j ? 1.0 : 0.0, phi(0));
  return I + a * K + b * (K * K);
}

int body_dofs(int dimension) {
  return dimension == 2 ? 3 : 6;
}
int friction_rows(int dimension) {
  return dimension == 2 ? 1 : 3;
}
// A pair's unknowns, relative to its first: a1, a2, the friction impulses (p_t; p_o, p_r in
// 3D), on a quasi-rigid pair delta-bar_n and delta_n (on a tangential shell delta_t too, and
// delta_o in 3D), l1 (free when a's piece has several functions), then the complementarity
// variables: l1 (a's piece of one function), a's multipliers (m of them when m > 1), b's (n; l2
// when n = 1), p_n (on a quasi-rigid pair p_ns) and (quasi-rigid) p_nr. The slip measure sigma of
// (7) is no unknown: the projection form of the friction law does without it, and it follows from
// the answer (slip_measure).
struct PairRows {
  int a1 = 0, a2 = 0, friction = 0, offset = -1, deflection = -1, shear = -1;
  int l1 = 0, la = 0, lb = 0, p_n = 0, p_core = -1;
  int m = 1, n = 1;  // functions of a's piece and of b's
  int size = 0;
  int first_bounded = 0;  // l1 and everything after it are >= 0
};

PairRows pair_rows(int dimension, const QuasiRigidShell& shell, int m, int n) {
  const bool compliant = shell.compliant();
  PairRows r;
  r.m = m, r.n = n;
  int i = 0;
  r.a1 = i, i += dimension;
  r.a2 = i, i += dimension;
  r.friction = i, i += friction_rows(dimension);
  if (compliant) r.offset = i++, r.deflection = i++;
  if (compliant && shell.tangential()) r.shear = i, i += dimension - 1;
  if (m > 1) r.l1 = i++;
  r.first_bounded = i;
  if (m == 1) r.l1 = i++;
  r.la = i, i += m > 1 ? m : 0;
  r.lb = i, i += n;
  r.p_n = i++;
  if (compliant) r.p_core = i++;
  r.size = i;
  return r;
}

// Where everything lives in z (and in F: each unknown's row holds its equation).
struct Layout {
  int dimension = 3;
  std::vector<int> body;     // first row of each body's nu, -1 for a static body
  std::vector<int> support;  // first row of a planar body's support friction impulses, or -1
  std::vector<int> slide;    // first row of the impulses holding a body on its slide, or -1
  std::vector<int> pair;     // first row of each pair's unknowns
  std::vector<PairRows> rows;
  int size = 0;
};

Layout make_layout(const std::vector<ImplicitBody>& bodies, const std::vector<ImplicitPair>& pairs,
                   int dimension) {
  Layout l;
  l.dimension = dimension;
  for (const ImplicitBody& b : bodies) {
    l.body.push_back(b.is_static ? -1 : l.size);
    if (!b.is_static) l.size += body_dofs(dimension);
  }
  for (const ImplicitBody& b : bodies) {
    const bool supported = dimension == 2 && !b.is_static && b.support.active();
    l.support.push_back(supported ? l.size : -1);
    if (supported) l.size += 3;
  }
  for (const ImplicitBody& b : bodies) {
    const bool slides = !b.is_static && !b.slide_axis.isZero(0.0);
    l.slide.push_back(slides ? l.size : -1);
    if (slides) l.size += dimension == 2 ? 2 : 5;
  }
  for (const ImplicitPair& p : pairs) {
    l.pair.push_back(l.size);
    l.rows.push_back(pair_rows(dimension, p.shell,
                               int(piece_functions(bodies[std::size_t(p.a)], p.piece_a).size()),
                               int(piece_functions(bodies[std::size_t(p.b)], p.piece_b).size())));
    l.size += l.rows.back().size;
  }
  return l;
}

// nu's linear and angular parts (planar: (v_x, v_y, 0) and (0, 0, omega_z)).
template <typename S, typename V>
void split_velocity(const V& nu, int dimension, Eigen::Matrix<S, 3, 1>& v,
                    Eigen::Matrix<S, 3, 1>& w) {
  if (dimension == 2) {
    const S zero = constant_like(0.0, S(nu(0)));
    v << nu(0), nu(1), zero;
    w << zero, zero, nu(2);
  } else {
    v << nu(0), nu(1), nu(2);
    w << nu(3), nu(4), nu(5);
  }
}

// The pose at the end of the step, x + h v, exp(h [omega]) R.
template <typename S>
struct EndPose {
  Eigen::Matrix<S, 3, 1> x;
  Eigen::Matrix<S, 3, 3> R;
};

// The friction directions: planar t = z x n; in 3D t = (k x n) / |k x n| with k a fixed axis
// chosen at the start of the step (the axis least aligned with the starting normal), o = n x t.
Vec3 fixed_axis(const Vec3& n) {
  const Vec3 m = n.cwiseAbs();
  return m.x() <= m.y() && m.x() <= m.z() ? Vec3::UnitX()
         : m.y() <= m.z()                 ? Vec3::UnitY()
                                          : Vec3::UnitZ();
}

// A pair's local unknowns: nu_a (if dynamic), nu_b (if dynamic), then the pair's own; and its
// local equations: the generalized impulses on a and on b (same sizes), then the pair's rows.
struct PairMap {
  int na = 0, nb = 0, np = 0;
  std::vector<int> global;  // local index -> row of z (and of F)
};

PairMap pair_map(const Layout& l, const ImplicitPair& pair, const PairRows& rows) {
  PairMap m;
  const int dofs = body_dofs(l.dimension);
  m.na = l.body[std::size_t(pair.a)] < 0 ? 0 : dofs;
  m.nb = l.body[std::size_t(pair.b)] < 0 ? 0 : dofs;
  m.np = rows.size;
  for (int i = 0; i < m.na; ++i) m.global.push_back(l.body[std::size_t(pair.a)] + i);
  for (int i = 0; i < m.nb; ++i) m.global.push_back(l.body[std::size_t(pair.b)] + i);
  return m;
}

struct PairInputs {
  const ImplicitBody* a;
  const ImplicitBody* b;
  const ImplicitPair* pair;
  std::span<const ImplicitFunction> fa, fb;  // the functions of a's piece and of b's
  PairRows rows;
  Vec3 axis;     // k of the 3D friction directions, or the axis t is the projection of
  bool project;  // t the projection of `axis` on the contact plane (anisotropic friction)
  double h;
  int dimension;
  double deflection;  // delta_n at the start of the step (quasi-rigid pairs)
  Vec3 shear;         // delta_t t + delta_o o at the start of the step (tangential shells), world
  // > 0: the friction disc's edge rounded over this many N s per kg of the pair's reduced mass
  // (a restart's smoothing, see implicit_step); 0: the exact projection.
  double rounding = 0.0;
};

template <typename S>
EndPose<S> end_pose(const ImplicitBody& body, const Eigen::Matrix<S, Eigen::Dynamic, 1>& x,
                    int first, int dofs, double h, int dimension) {
  EndPose<S> p;
  const Mat3 R = body.orientation.toRotationMatrix();
  if (dofs == 0) {
    p.x = constant_like(body.position, x(0));
    for (int j = 0; j < 3; ++j) p.R.col(j) = constant_like(Vec3(R.col(j)), x(0));
    return p;
  }
  Eigen::Matrix<S, 3, 1> v, w;
  split_velocity<S>(x.segment(first, dofs), dimension, v, w);
  p.x = constant_like(body.position, x(0)) + h * v;
  if constexpr (std::is_same_v<S, double>) {
    p.R = rotation_exp<double>(Vec3(h * w)) * R;
  } else {
    // R+ depends on omega alone: its derivatives by the chain rule through dR+/d omega, taken
    // with derivative vectors of 3 (the pair's are 16 and more; this was most of the Jacobian's
    // cost).
    using Ad3 = Eigen::AutoDiffScalar<Vec3>;
    Eigen::Matrix<Ad3, 3, 1> phi;
    for (int k = 0; k < 3; ++k) phi(k) = Ad3(h * w(k).value(), Vec3(h * Vec3::Unit(k)));
    const Eigen::Matrix<Ad3, 3, 3> E = rotation_exp<Ad3>(phi);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        Ad3 r = E(i, 0) * R(0, j) + E(i, 1) * R(1, j) + E(i, 2) * R(2, j);
        p.R(i, j) = constant_like(r.value(), x(0));
        for (int k = 0; k < 3; ++k)
          p.R(i, j).derivatives() += r.derivatives()(k) * w(k).derivatives();
      }
  }
  return p;
}

// The pair's local equations at local unknowns x (see PairMap), out sized na + nb + np; with
// slip_measure, also sigma at x.
template <typename S>
void pair_equations(const PairInputs& in, const PairMap& m,
                    const Eigen::Matrix<S, Eigen::Dynamic, 1>& x,
                    Eigen::Matrix<S, Eigen::Dynamic, 1>& out, S* slip_measure = nullptr) {
  using Vec3S = Eigen::Matrix<S, 3, 1>;
  using std::sqrt;
  const int D = in.dimension;
  const ImplicitPair& pair = *in.pair;
  const S zero = constant_like(0.0, x(0));  // every constant with x's derivative size
  const EndPose<S> A = end_pose<S>(*in.a, x, 0, m.na, in.h, D);
  const EndPose<S> B = end_pose<S>(*in.b, x, m.na, m.nb, in.h, D);
  // The pair's rows in x and out, at p0 + rows.*.
  const int p0 = m.na + m.nb;
  PairRows r = in.rows;
  for (int* row : {&r.a1, &r.a2, &r.friction, &r.l1, &r.la, &r.lb, &r.p_n}) *row += p0;
  const bool shell = pair.shell.compliant();
  if (shell)
    for (int* row : {&r.offset, &r.deflection, &r.p_core}) *row += p0;
  const bool shear = r.shear >= 0;
  if (shear) r.shear += p0;
  auto point = [&](int first) {
    Vec3S p;
    p << x(first), x(first + 1), D == 2 ? zero : x(first + 2);
    return p;
  };
  const Vec3S a1 = point(r.a1), a2 = point(r.a2);
  const int f0 = r.friction;
  const S p_t = x(f0), p_o = D == 2 ? zero : x(f0 + 1), p_r = D == 2 ? zero : x(f0 + 2);
  const S l1 = x(r.l1);
  // The normal impulse; on a quasi-rigid pair the shell's p_ns plus the core's p_nr (33).
  const S p_n = shell ? S(x(r.p_n) + x(r.p_core)) : x(r.p_n);
  const S offset = shell ? x(r.offset) : zero;

  // a1 and a2 in a's frame, a2 in b's; N = grad f(a1) (a's piece of one function) or
  // sum_i l_i grad f_i(a1) with sum_i l_i = 1 (several) and sum_j l_j grad g_j(a2), world.
  const Vec3S rho1 = A.R.transpose() * (a1 - A.x), rho12 = A.R.transpose() * (a2 - A.x);
  const Vec3S rho2 = B.R.transpose() * (a2 - B.x);
  Vec3S N_local = r.m == 1 ? implicit_gradient<S>(in.fa[0], rho1)
                           : Vec3S(x(r.la) * implicit_gradient<S>(in.fa[0], rho1));
  for (int i = 1; i < r.m; ++i)
    N_local += x(r.la + i) * implicit_gradient<S>(in.fa[std::size_t(i)], rho1);
  Vec3S G_local = x(r.lb) * implicit_gradient<S>(in.fb[0], rho2);
  for (int j = 1; j < r.n; ++j)
    G_local += x(r.lb + j) * implicit_gradient<S>(in.fb[std::size_t(j)], rho2);
  const Vec3S g1 = A.R * N_local;
  // |.| kept off 0 by 1e-150 (far below any gradient's size): where an iterate puts a1 at the
  // centre of a's sphere the gradient vanishes, and the normal must stay finite.
  constexpr double kTiny = 1e-300;
  const Vec3S n = g1 / sqrt(g1.squaredNorm() + kTiny);
  Vec3S t, o;
  if (D == 2) {
    t << -n.y(), n.x(), zero;
    o = constant_like(Vec3(Vec3::Zero()), zero);
  } else if (in.project) {
    const Vec3S d = constant_like(in.axis, zero);
    const Vec3S along = d - d.dot(n) * n;
    t = along / sqrt(along.squaredNorm() + kTiny);
    o = n.cross(t);
  } else {
    const Vec3S kn = constant_like(in.axis, zero).cross(n);
    t = kn / sqrt(kn.squaredNorm() + kTiny);
    o = n.cross(t);
  }

  // Velocities at the end of the step; the relative velocity of b's point over a's.
  const Vec3S none = constant_like(Vec3(Vec3::Zero()), zero);
  Vec3S va = none, wa = none, vb = none, wb = none;
  if (m.na) split_velocity<S>(x.segment(0, m.na), D, va, wa);
  if (m.nb) split_velocity<S>(x.segment(m.na, m.nb), D, vb, wb);
  const Vec3S ra = a1 - A.x, rb = a2 - B.x;
  const Vec3S u = vb + wb.cross(rb) - va - wa.cross(ra);

  // The impulse on b (on a: its opposite): force P at a2, and the torsional p_r about n.
  const Vec3S P = p_n * n + p_t * t + p_o * o;
  const Vec3S torque_b = rb.cross(P) + p_r * n, torque_a = -(ra.cross(P) + p_r * n);
  auto put_wrench = [&](int first, int dofs, const Vec3S& force, const Vec3S& torque) {
    if (dofs == 0) return;
    if (D == 2) {
      out(first) = force.x();
      out(first + 1) = force.y();
      out(first + 2) = torque.z();
    } else {
      out.segment(first, 3) = force;
      out.segment(first + 3, 3) = torque;
    }
  };
  out.resize(m.na + m.nb + m.np);
  for (int i = 0; i < out.size(); ++i) out(i) = zero;
  put_wrench(0, m.na, Vec3S(-P), torque_a);
  put_wrench(m.na, m.nb, P, torque_b);

  const Vec3S e1 = a1 - a2 + l1 * g1, e2 = g1 + B.R * G_local;  // (15), (16); (28), (29); (34)
  for (int i = 0; i < D; ++i) {
    out(r.a1 + i) = e1(i);
    out(r.a2 + i) = e2(i);
  }
  // (5) and (7) in their projection form. With q_i = p_i / e_i the ellipsoidal law is the disc
  // |q| <= mu p_n, and maximal dissipation puts q at the point of the disc nearest to
  // q - r E s (s = W^T nu+ per direction, E = diag(e), any r > 0; r the pair's reduced mass
  // keeps both terms impulses): sliding, q = -mu p_n E s / |E s|, the answer of (7) with
  // sigma = |E s|; sticking, E s = 0. Unlike (7), whose rows vanish at p_n = 0 (sigma then
  // undetermined, the Jacobian singular, Newton stalls when a contact opens or closes with
  // friction), these rows fix every unknown in every contact state. A direction without
  // friction (mu = 0, or e_r = 0: no torsional friction) has the row p = 0.
  const double mu = pair.mu;
  const double inverse_mass =
      (in.a->is_static ? 0.0 : 1.0 / in.a->mass) + (in.b->is_static ? 0.0 : 1.0 / in.b->mass);
  const double reduced_mass = inverse_mass > 0.0 ? 1.0 / inverse_mass : 1.0;
  const int directions = D == 2 ? 1 : 3;
  const S slip[3] = {t.dot(u), D == 2 ? zero : S(o.dot(u)), D == 2 ? zero : S(n.dot(wb - wa))};
  const S impulse[3] = {p_t, p_o, p_r};
  bool rough[3];  // the directions with friction
  S q[3] = {zero, zero, zero}, y[3] = {zero, zero, zero};
  S yy = zero, es2 = zero;
  for (int i = 0; i < directions; ++i) {
    rough[i] = mu > 0.0 && pair.e(i) > 0.0;
    if (!rough[i]) continue;
    q[i] = impulse[i] / pair.e(i);
    y[i] = q[i] - reduced_mass * pair.e(i) * slip[i];
    yy += y[i] * y[i];
    es2 += pair.e(i) * pair.e(i) * slip[i] * slip[i];
  }
  const S radius = p_n > 0.0 ? S(mu * p_n) : zero;
  S scale;  // Pi(y) = scale y
  if (in.rounding > 0.0) {
    // radius / max(|y|, radius) with the max rounded over d: continuous derivatives at the
    // disc's edge, which the exact projection has not, at the price of an error of order d.
    const double d = in.rounding * reduced_mass;
    const S norm = sqrt(yy + 1e-6 * d * d), excess = norm - radius;
    scale = radius / (0.5 * (norm + radius + sqrt(excess * excess + d * d)));
  } else {
    const bool inside = yy <= radius * radius;  // the disc's interior: sticking
    scale = inside ? constant_like(1.0, zero) : S(radius / sqrt(yy));
  }
  for (int i = 0; i < directions; ++i) out(f0 + i) = rough[i] ? S(q[i] - scale * y[i]) : impulse[i];
  // The slip measure sigma = |E s| of (7), for the report (0 without friction).
  if (slip_measure) *slip_measure = mu > 0.0 ? S(sqrt(es2)) : zero;
  // (17)-(19), the partners of l1, l2, p_n. On a quasi-rigid pair a2 lies on b's deformed
  // surface g + delta-bar_n = 0 (34) and outside a:
  // (36) with psi = f(a2), the form that fits (15) (l1 is a's multiplier; with psi = g(a1) +
  // delta-bar_n, a1 = a2 anywhere inside a would satisfy every condition).
  // On pieces of several functions (30)-(31): every function's multiplier with its own value;
  // l1's row is the normalization of a's.
  if (r.m == 1) {
    out(r.l1) = -implicit_value<S>(in.fa[0], rho1);
  } else {
    S sum = constant_like(-1.0, zero);
    for (int i = 0; i < r.m; ++i) {
      sum += x(r.la + i);
      out(r.la + i) = -implicit_value<S>(in.fa[std::size_t(i)], rho1);
    }
    out(r.l1) = sum;
  }
  for (int j = 0; j < r.n; ++j)
    out(r.lb + j) = -(implicit_value<S>(in.fb[std::size_t(j)], rho2) + offset);
  // p_n's partner, the gap: f(a2) (17)-(19), or on a's piece of several functions the distance
  // l1 |N| = |a1 - a2|, which also keeps l1 >= 0 (a2 on the outer side of N).
  out(r.p_n) = r.m == 1 ? implicit_value<S>(in.fa[0], rho12) : S(l1 * sqrt(g1.squaredNorm()));
  if (shell) {
    // (35): the deflection delta_n along b's normal at a2 reaches b's undeformed surface;
    // (37): (p_ns, p_t, p_o) = h K delta + C (delta - delta^l); (38): the core, delta_n <= max.
    // The start's tangential deflection is a world vector, taken along this step's t and o
    // (the pair's frame turns with its normal). A shell's body is one function (the stage sees
    // to it).
    const S delta = x(r.deflection);
    const Vec3S g2 = B.R * implicit_gradient<S>(in.fb[0], rho2);
    const Vec3S n2 = g2 / sqrt(g2.squaredNorm() + kTiny);
    const Vec3S undeformed = a2 + delta * n2;
    out(r.offset) = implicit_value<S>(in.fb[0], Vec3S(B.R.transpose() * (undeformed - B.x)));
    const QuasiRigidShell& s = pair.shell;
    Vec3S d, d0;  // delta and delta^l on (n, t, o)
    d << delta, shear ? x(r.shear) : zero, shear && D == 3 ? x(r.shear + 1) : zero;
    const Vec3S shear0 = constant_like(in.shear, zero);
    d0 << constant_like(in.deflection, zero), shear0.dot(t), shear0.dot(o);
    Vec3S spring;
    for (int i = 0; i < 3; ++i) {
      spring(i) = zero;
      for (int j = 0; j < 3; ++j)
        spring(i) += in.h * s.stiffness(i, j) * d(j) + s.damping(i, j) * (d(j) - d0(j));
    }
    out(r.deflection) = x(r.p_n) - spring(0);
    if (shear) {
      out(r.shear) = p_t - spring(1);
      if (D == 3) out(r.shear + 1) = p_o - spring(2);
    }
    out(r.p_core) =
        std::isfinite(s.max_deflection) ? S(s.max_deflection - delta) : constant_like(1.0, zero);
  }
}

// A planar body's friction against its table, local unknowns x = (nu+ (3), p (3)): out = (the
// impulse on the body (3), the friction rows (3)). The rows are (5) and (7) in the projection
// form of the pairs': q = Pi(q - m E nu+) onto |q| <= mu m g h, q = p / E, E = (1, 1, e_r),
// the slip nu+ of the centre of mass (the centre of pressure); e_r = 0: p_z = 0.
template <typename S>
void support_equations(const ImplicitBody& b, double h, double rounding,
                       const Eigen::Matrix<S, Eigen::Dynamic, 1>& x,
                       Eigen::Matrix<S, Eigen::Dynamic, 1>& out) {
  using std::sqrt;
  const S zero = constant_like(0.0, x(0));
  const SupportFriction& s = b.support;
  const double e[3] = {1.0, 1.0, s.torsion_radius};
  const double radius = s.mu * b.mass * s.gravity * h;
  out.resize(6);
  S q[3], y[3], yy = zero;
  for (int i = 0; i < 3; ++i) {
    out(i) = x(3 + i);
    if (e[i] <= 0.0) continue;
    q[i] = x(3 + i) / e[i];
    y[i] = q[i] - b.mass * e[i] * x(i);
    yy += y[i] * y[i];
  }
  S scale;
  if (rounding > 0.0) {  // as the pairs' rounded edge (implicit_step's restart)
    const double d = rounding * b.mass;
    const S norm = sqrt(yy + 1e-6 * d * d), excess = norm - radius;
    scale = radius / (0.5 * (norm + radius + sqrt(excess * excess + d * d)));
  } else {
    scale = yy <= radius * radius ? constant_like(1.0, zero) : S(radius / sqrt(yy));
  }
  for (int i = 0; i < 3; ++i) out(3 + i) = e[i] > 0.0 ? S(q[i] - scale * y[i]) : x(3 + i);
}

// The directions of a sliding body's generalized velocity that its prismatic joint holds at 0:
// the translations across the axis and every rotation (planar: one and one).
std::vector<VecX> held_directions(const Vec3& axis, int dimension) {
  std::vector<VecX> out;
  if (dimension == 2) {
    VecX across(3), turn(3);
    across << -axis.y(), axis.x(), 0.0;
    turn << 0.0, 0.0, 1.0;
    return {across.normalized(), turn};
  }
  const Vec3 u = axis.normalized();
  const Vec3 p = fixed_axis(u).cross(u).normalized(), q = u.cross(p);
  for (const Vec3& d : {p, q}) {
    VecX row = VecX::Zero(6);
    row.head<3>() = d;
    out.push_back(row);
  }
  for (int i = 0; i < 3; ++i) {
    VecX row = VecX::Zero(6);
    row(3 + i) = 1.0;
    out.push_back(row);
  }
  return out;
}

// Generalized mass matrix of a body at the start of the step (planar: m, m, I_zz).
MatX mass_matrix(const ImplicitBody& b, int dimension) {
  const int dofs = body_dofs(dimension);
  MatX M = MatX::Zero(dofs, dofs);
  if (dimension == 2) {
    M.diagonal() << b.mass, b.mass, b.inertia(2, 2);
  } else {
    const Mat3 R = b.orientation.toRotationMatrix();
    M.topLeftCorner<3, 3>() = b.mass * Mat3::Identity();
    M.bottomRightCorner<3, 3>() = R * b.inertia * R.transpose();
  }
  return M;
}

// h (f_app + f_vp) of a body: gravity, the applied force and torque, the gyroscopic torque
// -omega x I omega (explicit, as the paper's lambda_vp).
VecX applied_impulse(const ImplicitBody& b, const MatX& M, const ImplicitStepOptions& o) {
  const Vec3 force = b.mass * o.gravity + b.force;
  if (o.dimension == 2) {
    VecX p(3);
    p << force.x(), force.y(), b.torque.z();
    return o.h * p;
  }
  const Mat3 I = M.bottomRightCorner<3, 3>();
  VecX p(6);
  p << force, b.torque - b.angular_velocity.cross(I * b.angular_velocity);
  return o.h * p;
}

VecX velocity_of(const ImplicitBody& b, int dimension) {
  VecX nu(body_dofs(dimension));
  if (dimension == 2)
    nu << b.velocity.x(), b.velocity.y(), b.angular_velocity.z();
  else
    nu << b.velocity, b.angular_velocity;
  return nu;
}

// A world point in the body's frame (where its functions are evaluated).
Vec3 to_body(const ImplicitBody& b, const Vec3& x) {
  return b.orientation.conjugate() * (x - b.position);
}

// A pair of pieces with several functions (Prop. 3) keeps a multiplier per function.
bool several(const PairRows& r) {
  return r.m > 1 || r.n > 1;
}

// A new pair's start: each piece's surface point towards the other (on a body of one function:
// towards the other's centre, a half-space's projected on its plane), all of a's weight on the
// function active at a1 (l_k = 1), l1 the distance between the points over |grad f_k|, the
// multiplier of b's active function |grad f_k| / |grad g_j| (so that (29) holds along the line
// of the points), no impulse.
ImplicitContact first_guess(const ImplicitBody& a, int piece_a, const ImplicitBody& b, int piece_b,
                            int dimension) {
  const ImplicitConvex A = piece_convex(a, piece_a), B = piece_convex(b, piece_b);
  const bool single_a = A.functions.size() == 1, single_b = B.functions.size() == 1;
  auto reference = [](const ImplicitBody& body, const ImplicitConvex& c) {
    const Vec3 local = c.functions.size() == 1 ? c.functions[0].center : c.inside;
    return Vec3(body.position + body.orientation * local);
  };
  auto towards = [&](const ImplicitBody& body, const ImplicitConvex& c, const Vec3& target) {
    const Vec3 local = to_body(body, target);
    if (c.functions.size() > 1)
      return Vec3(body.position + body.orientation * convex_surface_point(c, local));
    const ImplicitFunction& f = c.functions[0];
    const Vec3 dir = f.kind == ImplicitFunction::Kind::HalfSpace ? local : Vec3(local - f.center);
    return Vec3(body.position + body.orientation * implicit_surface_point(f, dir));
  };
  ImplicitContact c;
  c.a1 = towards(a, A, reference(b, B));
  c.a2 = towards(b, B, reference(a, A));
  if (dimension == 2) c.a1.z() = c.a2.z() = 0.0;
  const int k = single_a ? 0 : active_function(A, to_body(a, c.a1));
  const double grad_a =
      implicit_gradient<double>(A.functions[std::size_t(k)], to_body(a, c.a1)).norm();
  c.l1 = (c.a1 - c.a2).norm() / std::max(grad_a, 1e-12);
  c.l2 = 1.0;
  if (!single_a || !single_b) {
    const int j = single_b ? 0 : active_function(B, to_body(b, c.a2));
    const double grad_b =
        implicit_gradient<double>(B.functions[std::size_t(j)], to_body(b, c.a2)).norm();
    c.l_a.assign(A.functions.size(), 0.0);
    c.l_a[std::size_t(k)] = 1.0;
    c.l_b.assign(B.functions.size(), 0.0);
    c.l2 = c.l_b[std::size_t(j)] = grad_a / std::max(grad_b, 1e-12);
  }
  return c;
}

// N at a1 (a's frame): grad f(a1), or sum_i l_i grad f_i(a1) on a piece of several functions.
Vec3 pair_normal(std::span<const ImplicitFunction> fa, const ImplicitContact& c, const Vec3& rho) {
  if (fa.size() == 1) return implicit_gradient<double>(fa[0], rho);
  Vec3 N = Vec3::Zero();
  for (std::size_t i = 0; i < fa.size(); ++i) N += c.l_a[i] * implicit_gradient<double>(fa[i], rho);
  return N;
}

}  // namespace

int piece_count(const ImplicitBody& b) {
  return b.pieces.empty() ? 1 : int(b.pieces.size());
}

std::span<const ImplicitFunction> piece_functions(const ImplicitBody& b, int piece) {
  if (b.pieces.empty()) return {&b.shape, 1};
  return b.pieces[std::size_t(piece)].functions;
}

ImplicitConvex piece_convex(const ImplicitBody& b, int piece) {
  return b.pieces.empty() ? single_convex(b.shape) : b.pieces[std::size_t(piece)];
}

int implicit_problem_size(const std::vector<ImplicitBody>& bodies,
                          const std::vector<ImplicitPair>& pairs, int dimension) {
  return make_layout(bodies, pairs, dimension).size;
}

double implicit_kinetic_energy(const std::vector<ImplicitBody>& bodies) {
  double e = 0.0;
  for (const ImplicitBody& b : bodies) {
    if (b.is_static) continue;
    const Mat3 R = b.orientation.toRotationMatrix();
    e += 0.5 * b.mass * b.velocity.squaredNorm() +
         0.5 * b.angular_velocity.dot(R * b.inertia * R.transpose() * b.angular_velocity);
  }
  return e;
}

namespace {

// One solve at options.h; `moved`: whether the bodies were moved to the end of the step (an
// answer, or the best iterate under take_best).
McpNewtonReport step_once(std::vector<ImplicitBody>& bodies, const std::vector<ImplicitPair>& pairs,
                          std::vector<ImplicitContact>& contacts,
                          const ImplicitStepOptions& options, bool* moved = nullptr) {
  const int D = options.dimension;
  const Layout layout = make_layout(bodies, pairs, D);
  const int n = layout.size;
  contacts.resize(pairs.size());

  // Per body: M (and its factors), M nu + h (f_app + f_vp); the start: the free motion.
  std::vector<MatX> mass(bodies.size());
  std::vector<Eigen::LDLT<MatX>> mass_factors(bodies.size());
  std::vector<VecX> momentum(bodies.size());
  VecX z(n);
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const int first = layout.body[i];
    if (first < 0) continue;
    mass[i] = mass_matrix(bodies[i], D);
    momentum[i] =
        mass[i] * velocity_of(bodies[i], D) + applied_impulse(bodies[i], mass[i], options);
    mass_factors[i].compute(mass[i]);
    z.segment(first, body_dofs(D)) = mass_factors[i].solve(momentum[i]);
    if (layout.support[i] >= 0) z.segment(layout.support[i], 3).setZero();
    if (layout.slide[i] >= 0) z.segment(layout.slide[i], D == 2 ? 2 : 5).setZero();
  }
  // The sliding bodies' held directions (joint impulses lambda: M (nu+ - nu) gets sum_k a_k
  // lambda_k, and a_k . nu+ = 0).
  std::vector<std::vector<VecX>> held(bodies.size());
  for (std::size_t i = 0; i < bodies.size(); ++i)
    if (layout.slide[i] >= 0) held[i] = held_directions(bodies[i].slide_axis, D);
  std::vector<PairMap> maps;
  std::vector<PairInputs> inputs;
  // A pair's unknowns from its contact (the warm start) into z, and back.
  auto pack = [&](std::size_t k) {
    const ImplicitContact& c = contacts[k];
    const int first = layout.pair[k];
    const PairRows& r = layout.rows[k];
    for (int i = 0; i < D; ++i) {
      z(first + r.a1 + i) = c.a1(i);
      z(first + r.a2 + i) = c.a2(i);
    }
    z(first + r.friction) = c.p_t;
    if (D == 3) {
      z(first + r.friction + 1) = c.p_o;
      z(first + r.friction + 2) = c.p_r;
    }
    z(first + r.l1) = c.l1;
    for (int i = 0; i < (r.m > 1 ? r.m : 0); ++i) z(first + r.la + i) = c.l_a[std::size_t(i)];
    for (int j = 0; j < r.n; ++j) z(first + r.lb + j) = several(r) ? c.l_b[std::size_t(j)] : c.l2;
    z(first + r.p_n) = c.p_n - c.p_core;
    if (pairs[k].shell.compliant()) {
      z(first + r.offset) = c.offset;
      z(first + r.deflection) = c.deflection;
      z(first + r.p_core) = c.p_core;
    }
    if (r.shear >= 0) {
      z(first + r.shear) = c.deflection_t;
      if (D == 3) z(first + r.shear + 1) = c.deflection_o;
    }
  };
  auto unpack_multipliers = [&](std::size_t k, const VecX& x) {
    ImplicitContact& c = contacts[k];
    const int first = layout.pair[k];
    const PairRows& r = layout.rows[k];
    c.l1 = x(first + r.l1);
    for (int i = 0; i < D; ++i) c.a1(i) = x(first + r.a1 + i);
    if (!several(r)) {
      c.l2 = x(first + r.lb);
      return;
    }
    for (int i = 0; i < (r.m > 1 ? r.m : 0); ++i) c.l_a[std::size_t(i)] = x(first + r.la + i);
    c.l2 = 0.0;
    for (int j = 0; j < r.n; ++j)
      c.l2 = std::max(c.l2, c.l_b[std::size_t(j)] = x(first + r.lb + j));
  };
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const ImplicitPair& pair = pairs[k];
    const ImplicitBody &a = bodies[std::size_t(pair.a)], &b = bodies[std::size_t(pair.b)];
    ImplicitContact& c = contacts[k];
    const PairRows& r = layout.rows[k];
    if (!c.started || (several(r) && (int(c.l_a.size()) != r.m || int(c.l_b.size()) != r.n)))
      c = first_guess(a, pair.piece_a, b, pair.piece_b, D);
    const std::span<const ImplicitFunction> fa = piece_functions(a, pair.piece_a),
                                            fb = piece_functions(b, pair.piece_b);
    pack(k);
    PairMap m = pair_map(layout, pair, r);
    for (int i = 0; i < m.np; ++i) m.global.push_back(layout.pair[k] + i);
    maps.push_back(std::move(m));
    const Vec3 n0 = (a.orientation * pair_normal(fa, c, to_body(a, c.a1))).normalized();
    // Anisotropic friction needs an axis off the normal (within a step, far enough off the
    // starting normal).
    const bool project = D == 3 && pair.tangent_axis.cross(n0).norm() > 1e-3;
    inputs.push_back({&a, &b, &pair, fa, fb, r, project ? pair.tangent_axis : fixed_axis(n0),
                      project, options.h, D, c.deflection, c.tangential_deflection(), 0.0});
  }

  NonlinearMcp mcp;
  mcp.size = n;
  mcp.bounded.assign(std::size_t(n), 0);
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const PairRows& r = layout.rows[k];
    for (int i = r.first_bounded; i < r.size; ++i) mcp.bounded[std::size_t(layout.pair[k] + i)] = 1;
  }
  // The impulses that redundant constraints can leave undetermined (a pile's sticking contacts,
  // a finger's slide pressing on a held body): the contacts' and the slides'. Not a quasi-rigid
  // core's p_nr: its row delta_max - delta_n constrains the pair's own deflection, not the
  // bodies' velocities, and a proximal term there stalls Newton where a disc reaches the core.
  // Each pair's other unknowns (closest points, multipliers, deflections) are local to its rows
  // and its bodies' velocities: a block eliminated before the LU of each Newton system.
  mcp.proximal.assign(std::size_t(n), 0);
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const PairRows& r = layout.rows[k];
    std::vector<int>& block = mcp.local_blocks.emplace_back();
    for (int i = 0; i < r.size; ++i) {
      const int row = layout.pair[k] + i;
      if ((i >= r.friction && i < r.friction + friction_rows(D)) || i == r.p_n)
        mcp.proximal[std::size_t(row)] = 1;
      else if (i != r.p_core)
        block.push_back(row);
    }
  }
  for (std::size_t i = 0; i < bodies.size(); ++i)
    for (std::size_t k = 0; layout.slide[i] >= 0 && k < held[i].size(); ++k)
      mcp.proximal[std::size_t(layout.slide[i]) + k] = 1;
  // The Jacobian's entries, gathered as triplets (repeats add up) with its whole diagonal
  // present: each pair touches its own rows and its two bodies' only.
  std::vector<Eigen::Triplet<double>> entries;
  double rounding = 0.0;  // the supports' share of the restart with the disc's edge rounded
  auto add_pair = [&]<typename Ad>(std::size_t k, const VecX& x, VecX& F, Ad) {
    const PairMap& m = maps[k];
    const int local = int(m.global.size());
    Eigen::Matrix<Ad, Eigen::Dynamic, 1> xl(local), out;
    for (int i = 0; i < local; ++i) xl(i) = Ad(x(m.global[std::size_t(i)]), local, i);
    pair_equations<Ad>(inputs[k], m, xl, out);
    for (int i = 0; i < local; ++i) {
      const int row = m.global[std::size_t(i)];
      F(row) += out(i).value();
      if (out(i).derivatives().size() == 0) continue;  // a constant (0) row
      for (int j = 0; j < local; ++j)
        entries.emplace_back(row, m.global[std::size_t(j)], out(i).derivatives()(j));
    }
  };
  mcp.evaluate = [&](const VecX& x, VecX& F, SparseMatrix* J) {
    F.setZero(n);
    entries.clear();
    if (J)
      for (int i = 0; i < n; ++i) entries.emplace_back(i, i, 0.0);
    // Newton-Euler: -M nu+ + M nu + h (f_app + f_vp), the pairs' impulses added below.
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      const int first = layout.body[i];
      if (first < 0) continue;
      const int dofs = body_dofs(D);
      F.segment(first, dofs) = momentum[i] - mass[i] * x.segment(first, dofs);
      if (J)
        for (int r = 0; r < dofs; ++r)
          for (int c = 0; c < dofs; ++c) entries.emplace_back(first + r, first + c, -mass[i](r, c));
    }
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      const int first = layout.slide[i];
      if (first < 0) continue;
      const int dofs = body_dofs(D);
      for (std::size_t k = 0; k < held[i].size(); ++k) {
        const int row = first + int(k);
        const VecX& a = held[i][k];
        F(row) = a.dot(x.segment(layout.body[i], dofs));
        F.segment(layout.body[i], dofs) += a * x(row);
        if (J)
          for (int j = 0; j < dofs; ++j) {
            if (a(j) == 0.0) continue;
            entries.emplace_back(row, layout.body[i] + j, a(j));
            entries.emplace_back(layout.body[i] + j, row, a(j));
          }
      }
    }
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      const int p = layout.support[i];
      if (p < 0) continue;
      const int rows[6] = {layout.body[i], layout.body[i] + 1, layout.body[i] + 2, p, p + 1, p + 2};
      if (!J) {
        VecX xl(6), out;
        for (int r = 0; r < 6; ++r) xl(r) = x(rows[r]);
        support_equations<double>(bodies[i], options.h, rounding, xl, out);
        for (int r = 0; r < 6; ++r) F(rows[r]) += out(r);
        continue;
      }
      using Ad = AdOf<kSmallLocal>;
      Eigen::Matrix<Ad, Eigen::Dynamic, 1> xl(6), out;
      for (int r = 0; r < 6; ++r) xl(r) = Ad(x(rows[r]), 6, r);
      support_equations<Ad>(bodies[i], options.h, rounding, xl, out);
      for (int r = 0; r < 6; ++r) {
        F(rows[r]) += out(r).value();
        if (out(r).derivatives().size() == 0) continue;
        for (int c = 0; c < 6; ++c) entries.emplace_back(rows[r], rows[c], out(r).derivatives()(c));
      }
    }
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      const PairMap& m = maps[k];
      const int local = int(m.global.size());
      if (!J) {
        VecX xl(local), out;
        for (int i = 0; i < local; ++i) xl(i) = x(m.global[std::size_t(i)]);
        pair_equations<double>(inputs[k], m, xl, out);
        for (int i = 0; i < local; ++i) F(m.global[std::size_t(i)]) += out(i);
      } else if (local <= kSmallLocal) {
        add_pair(k, x, F, AdOf<kSmallLocal>{});
      } else {
        add_pair(k, x, F, AdOf<kLargeLocal>{});
      }
    }
    if (J) {
      J->resize(n, n);
      J->setFromTriplets(entries.begin(), entries.end());
    }
  };

  // Newton from the warm start (the pairs' answers of the last step), with restarts where it
  // ends in a local minimum of the merit.
  auto solve = [&]() {
    const VecX start = z;
    // First from velocities that are the last step's impulses' too: M nu = M nu^l + h (f_app +
    // f_vp) + sum W p^l, the Newton-Euler rows met at the start. A resting pile then starts at
    // rest, near its answer, rather than falling freely for a step; at least one Newton step
    // refines such a start. The restarts below start from the free motion.
    VecX F;
    mcp.evaluate(z, F, nullptr);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      const int first = layout.body[i];
      if (first < 0) continue;
      const int dofs = body_dofs(D);
      z.segment(first, dofs) += mass_factors[i].solve(VecX(F.segment(first, dofs)));
    }
    McpNewtonOptions refine = options.solver;
    refine.min_iterations = 1;
    McpNewtonReport report = solve_mcp_newton(mcp, z, refine);
    // The exact problem's attempts' iterate of least residual, for take_best.
    VecX best = z;
    double best_residual = report.residual;
    auto keep = [&](const McpNewtonReport& r) {
      if (r.residual < best_residual) best = z, best_residual = r.residual;
    };
    // Mostly at the friction disc's edge, where the projection has no derivative (a contact
    // sliding at a slip speed near 0): first the problem with the edge rounded over 1e-8 N s per
    // kg of reduced mass, then the exact one from its answer.
    if (!report.solved) {
      for (PairInputs& p : inputs) p.rounding = 1e-8;
      rounding = 1e-8;
      z = start;
      const int spent = report.iterations;
      const McpNewtonReport rounded = solve_mcp_newton(mcp, z, options.solver);
      for (PairInputs& p : inputs) p.rounding = 0.0;
      rounding = 0.0;
      if (rounded.solved) {
        report = solve_mcp_newton(mcp, z, options.solver);
        keep(report);
        report.iterations += spent + rounded.iterations;
      }
    }
    // Where it fails still (an impact with friction), again from the same step's frictionless
    // answer: its closest points, velocities and normal impulses.
    if (!report.solved) {
      std::vector<ImplicitPair> frictionless(pairs.begin(), pairs.end());
      for (std::size_t k = 0; k < pairs.size(); ++k) {
        frictionless[k].mu = 0.0;
        inputs[k].pair = &frictionless[k];
      }
      z = start;
      const int spent = report.iterations;
      const McpNewtonReport without = solve_mcp_newton(mcp, z, options.solver);
      for (std::size_t k = 0; k < pairs.size(); ++k) inputs[k].pair = &pairs[k];
      if (without.solved) {
        report = solve_mcp_newton(mcp, z, options.solver);
        keep(report);
        report.iterations += spent + without.iterations;
      }
    }
    if (!report.solved && options.take_best) {
      z = best;
      report.residual = best_residual;
    }
    return report;
  };
  const McpNewtonReport report = solve();
  if (!report.solved && !(options.take_best && z.allFinite())) return report;
  if (moved) *moved = true;

  // The slip measures, from the answer (before the bodies move to the end of the step).
  std::vector<double> sigma(pairs.size());
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const PairMap& m = maps[k];
    VecX xl(Eigen::Index(m.global.size())), out;
    for (std::size_t i = 0; i < m.global.size(); ++i) xl(Eigen::Index(i)) = z(m.global[i]);
    pair_equations<double>(inputs[k], m, xl, out, &sigma[k]);
  }

  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const int first = layout.body[i];
    if (first < 0) continue;
    ImplicitBody& b = bodies[i];
    Vec3 v, w;
    split_velocity<double>(z.segment(first, body_dofs(D)), D, v, w);
    const Mat3 R = rotation_exp<double>(Vec3(options.h * w)) * b.orientation.toRotationMatrix();
    b.position += options.h * v;
    b.orientation = Quat(R).normalized();
    b.velocity = v;
    b.angular_velocity = w;
  }
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    ImplicitContact& c = contacts[k];
    const int first = layout.pair[k];
    const PairRows& r = layout.rows[k];
    unpack_multipliers(k, z);
    c.a2.setZero();
    for (int i = 0; i < D; ++i) c.a2(i) = z(first + r.a2 + i);
    const int f0 = first + r.friction;
    c.p_t = z(f0);
    c.p_o = D == 3 ? z(f0 + 1) : 0.0;
    c.p_r = D == 3 ? z(f0 + 2) : 0.0;
    c.sigma = sigma[k];
    const bool shell = pairs[k].shell.compliant();
    c.p_core = shell ? z(first + r.p_core) : 0.0;
    c.p_n = z(first + r.p_n) + c.p_core;
    c.offset = shell ? z(first + r.offset) : 0.0;
    c.deflection = shell ? z(first + r.deflection) : 0.0;
    c.deflection_t = r.shear >= 0 ? z(first + r.shear) : 0.0;
    c.deflection_o = r.shear >= 0 && D == 3 ? z(first + r.shear + 1) : 0.0;
    const ImplicitBody& a = bodies[std::size_t(pairs[k].a)];
    const std::span<const ImplicitFunction> fa = inputs[k].fa;
    c.normal = (a.orientation * pair_normal(fa, c, to_body(a, c.a1))).normalized();
    const Vec3 rho12 = to_body(a, c.a2);
    const Vec3 d = inputs[k].axis;
    c.tangent = D == 2              ? Vec3(-c.normal.y(), c.normal.x(), 0.0)
                : inputs[k].project ? Vec3(d - d.dot(c.normal) * c.normal).normalized()
                                    : d.cross(c.normal).normalized();
    c.gap = -std::numeric_limits<double>::infinity();
    for (const ImplicitFunction& f : fa) c.gap = std::max(c.gap, implicit_value<double>(f, rho12));
    c.started = true;
  }
  return report;
}

// Adds `earlier`'s impulses (an earlier part of the step) to `c`'s as world vectors, expressed
// in c's frame (normal, tangent, normal x tangent): the contact may have turned between them.
void add_impulses(const ImplicitContact& earlier, ImplicitContact& c) {
  auto frame = [](const ImplicitContact& x) {
    Mat3 F;
    F << x.normal, x.tangent, x.normal.cross(x.tangent);
    return F;
  };
  const Vec3 force = frame(earlier) * Vec3(earlier.p_n, earlier.p_t, earlier.p_o);
  const Vec3 local = frame(c).transpose() * force;
  c.p_n += local(0);
  c.p_t += local(1);
  c.p_o += local(2);
  c.p_r += earlier.p_r * earlier.normal.dot(c.normal);
  c.p_core += earlier.p_core * earlier.normal.dot(c.normal);
}

// A step found no answer: with options.take_best, the step at h again, ended at its attempts'
// iterate of least residual (the bodies then move); else `failed` as it is.
ImplicitStepReport take_best(std::vector<ImplicitBody>& bodies,
                             const std::vector<ImplicitPair>& pairs,
                             std::vector<ImplicitContact>& contacts,
                             const ImplicitStepOptions& options, const ImplicitStepReport& failed) {
  if (!options.take_best) return failed;
  ImplicitStepReport report = failed;
  const McpNewtonReport best = step_once(bodies, pairs, contacts, options, &report.took_best);
  report.iterations += best.iterations;
  report.solved = best.solved;  // as at the first try: the step is deterministic
  report.took_best = report.took_best && !best.solved;
  if (report.took_best) report.residual = best.residual;
  return report;
}

// Where Newton finds no answer at h (mostly an impact: the end-of-step geometry far from the
// start's), the step as two of h / 2 from the same start, each split again down to h / 2^halvings:
// the same scheme (6) at a finer step, so that each solve starts nearer its answer. The
// impulses of the halves add up to the step's (as vectors: the pair's frame may turn within the
// step); closest points, normal, sigma and deflection are the last half's, at the end of the step.
ImplicitStepReport step_halving(std::vector<ImplicitBody>& bodies,
                                const std::vector<ImplicitPair>& pairs,
                                std::vector<ImplicitContact>& contacts,
                                const ImplicitStepOptions& options, int halvings) {
  ImplicitStepOptions exact = options;
  exact.take_best = false;
  ImplicitStepReport report;
  static_cast<McpNewtonReport&>(report) = step_once(bodies, pairs, contacts, exact);
  if (report.solved) return report;
  if (halvings == 0) return take_best(bodies, pairs, contacts, options, report);
  const std::vector<ImplicitBody> start_bodies = bodies;
  const std::vector<ImplicitContact> start_contacts = contacts;
  ImplicitStepOptions half = exact;
  half.h = 0.5 * options.h;
  const ImplicitStepReport first = step_halving(bodies, pairs, contacts, half, halvings - 1);
  ImplicitStepReport second;
  if (first.solved) {
    const std::vector<ImplicitContact> middle = contacts;
    second = step_halving(bodies, pairs, contacts, half, halvings - 1);
    for (std::size_t k = 0; second.solved && k < contacts.size(); ++k)
      add_impulses(middle[k], contacts[k]);
  }
  if (!second.solved) {  // the failure at h is the one to report
    bodies = start_bodies;
    contacts = start_contacts;
    return take_best(bodies, pairs, contacts, options, report);
  }
  second.iterations += report.iterations + first.iterations;
  second.substeps += first.substeps;
  return second;
}

}  // namespace

ImplicitStepReport implicit_step(std::vector<ImplicitBody>& bodies,
                                 const std::vector<ImplicitPair>& pairs,
                                 std::vector<ImplicitContact>& contacts,
                                 const ImplicitStepOptions& options) {
  for (const ImplicitPair& p : pairs) {
    const std::size_t m = piece_functions(bodies[std::size_t(p.a)], p.piece_a).size() +
                          piece_functions(bodies[std::size_t(p.b)], p.piece_b).size();
    if (m > std::size_t(kMaxPairFunctions)) {
      ImplicitStepReport report;
      report.failure = "a contact pair's pieces have " + std::to_string(m) +
                       " functions together, more than " + std::to_string(kMaxPairFunctions);
      return report;
    }
  }
  return step_halving(bodies, pairs, contacts, options, options.max_halvings);
}

}  // namespace pegsim
