// Body objects of scene files (schema: docs/scene-format.md, "bodies").
#include "io/scene_body.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "io/scene_limits.hpp"
#include "io/scene_shape.hpp"

namespace pegsim {
namespace {}  // namespace

Quat parse_orientation(const JsonNode& node) {
  const char* what = "a unit quaternion [w, x, y, z] or {\"axis\": [x, y, z], \"angle\": rad}";
  if (node.value().is_array() && node.size() == 4) {
    Eigen::Vector4d q;
    for (std::size_t k = 0; k < 4; ++k) q[k] = node[k].number(what);
    if (!(q.norm() > 0.0)) node.fail(what);
    q.normalize();
    return Quat(q[0], q[1], q[2], q[3]);
  }
  if (!node.value().is_object()) node.fail(what);
  node.allow_only({"axis", "angle"});
  const char* axis_what = "a non-zero rotation axis [x, y, z]";
  const JsonNode axis_node = node.at("axis", axis_what);
  const Vec3 axis = axis_node.vec3(axis_what);
  if (!(axis.norm() > 0.0)) axis_node.fail(axis_what);
  const double angle = node.at("angle", "an angle in rad").number("an angle in rad");
  return Quat(Eigen::AngleAxisd(angle, axis.normalized()));
}

namespace {

// [Ixx, Iyy, Izz] (principal axes = body axes) or a full symmetric positive definite 3x3.
Mat3 inertia(const JsonNode& node) {
  const char* what =
      "an inertia in kg m^2: [Ixx, Iyy, Izz] > 0 or a symmetric positive definite 3x3 matrix";
  node.require_array(what);
  if (node.size() == 3 && !node[0].value().is_array()) {
    const Vec3 d = node.vec3(what);
    if (!(d.minCoeff() > 0.0)) node.fail(what);
    return d.asDiagonal();
  }
  if (node.size() != 3) node.fail(what);
  Mat3 m;
  for (std::size_t r = 0; r < 3; ++r) m.row(r) = node[r].vec3(what).transpose();
  const bool symmetric = (m - m.transpose()).norm() <= 1e-9 * m.norm();
  if (!symmetric || Eigen::LLT<Mat3>(m).info() != Eigen::Success) node.fail(what);
  return m;
}

std::array<float, 4> color(const JsonNode& node) {
  const char* what = "a colour [r, g, b], [r, g, b, a] in [0, 1] or \"#rrggbb\"";
  std::array<float, 4> c{0.0f, 0.0f, 0.0f, 1.0f};
  if (node.value().is_string()) {
    const std::string s = node.value().get<std::string>();
    if (s.size() != 7 || s[0] != '#' ||
        s.find_first_not_of("0123456789abcdefABCDEF", 1) != std::string::npos)
      node.fail(what);
    for (int k = 0; k < 3; ++k) c[k] = std::stoi(s.substr(1 + 2 * k, 2), nullptr, 16) / 255.0f;
    return c;
  }
  if (!node.value().is_array() || (node.size() != 3 && node.size() != 4)) node.fail(what);
  for (std::size_t k = 0; k < node.size(); ++k) {
    const double x = node[k].number(what);
    if (x < 0.0 || x > 1.0) node.fail(what);
    c[k] = static_cast<float>(x);
  }
  return c;
}

void reject(const JsonNode& body, const char* key, const char* what) {
  if (auto n = body.find(key)) n->fail(what);
}

// A planar body's inertia: I_zz about the out-of-plane axis, the only one it uses; the
// in-plane moments are those of a lamina with polar moment I_zz and equal axes.
Mat3 planar_inertia(const JsonNode& node) {
  const double izz = node.positive("an inertia I_zz > 0 in kg m^2 (a number in a 2D scene)");
  return Vec3(izz / 2, izz / 2, izz).asDiagonal();
}

// Mass and inertia from "mass" or "density" (default 1000 kg/m^3, kg/m^2 in 2D) and the
// shape's geometry, unless "inertia" is given.
void mass_properties(const JsonNode& b, const SceneShape& shape, Body& body) {
  const auto mass = b.find("mass");
  const auto density = b.find("density");
  // A mesh that bounds no volume gives no mass properties of its own: a static body needs none,
  // and one given its mass and inertia takes those about the collision geometry's centroid.
  if (!shape.mass_defect.empty() && !body.is_static && !(mass && b.find("inertia")))
    b.at("shape", "")
        .fail("a closed mesh for the body's mass properties (" + shape.mass_defect +
              "; close the mesh, or give the body \"mass\" and \"inertia\"; a "
              "static body needs neither)");
  if (mass && density) density->fail("either \"mass\" or \"density\", not both");
  const double volume = shape.unit.volume;
  body.mass = mass
                  ? mass->positive("a positive mass in kg")
                  : volume * (density ? density->positive("a positive density in kg/m^3") : 1000.0);
  const auto given = b.find("inertia");
  body.inertia = !given                 ? Mat3(shape.unit.inertia * (body.mass / volume))
                 : shape.shape.planar() ? planar_inertia(*given)
                                        : inertia(*given);
}

std::vector<std::pair<std::string, JsonNode>> no_collide(const JsonNode& node) {
  const char* what = "an array of body names";
  node.require_array(what);
  std::vector<std::pair<std::string, JsonNode>> out;
  for (std::size_t i = 0; i < node.size(); ++i)
    out.emplace_back(node[i].string("a body name"), node[i]);
  return out;
}

}  // namespace

// The planar forms: [x, y] vectors in the x-y plane, angles and spins about z.
void planar_state(const JsonNode& b, const SceneShape& shape, BodyState& state) {
  if (auto n = b.find("position")) {
    const Vec2 p = n->vec2("a position [x, y] in m (2D scene)");
    state.position = Vec3(p.x(), p.y(), 0.0);
  }
  if (auto n = b.find("orientation")) {
    if (shape.plane_normal) n->fail("no orientation when the half-plane's shape has a \"normal\"");
    const double angle = n->number("an angle about z in rad (2D scene)");
    state.orientation = Quat(Eigen::AngleAxisd(angle, Vec3::UnitZ()));
  }
  if (shape.plane_normal) state.orientation = *shape.plane_normal;
  if (auto n = b.find("velocity")) {
    const Vec2 v = n->vec2("a velocity [x, y] in m/s (2D scene)");
    state.velocity = Vec3(v.x(), v.y(), 0.0);
  }
  if (auto n = b.find("angular_velocity"))
    state.angular_velocity.z() = n->number("an angular velocity about z in rad/s (2D scene)");
}

// One of a shell's matrices (37) on (n, t, o) in 3D, (n, t) in 2D: a number (its (n, n)
// entry alone) or a square matrix of the scene's dimension whose symmetric part is positive
// definite (stiffness) or semi-definite (damping).
Mat3 shell_matrix(const JsonNode& node, int dimension, bool definite, const char* what) {
  Mat3 m = Mat3::Zero();
  if (!node.value().is_array()) {
    m(0, 0) = definite ? node.positive(what) : node.non_negative(what);
    return m;
  }
  node.require_array(what);
  const std::size_t n = std::size_t(dimension);
  if (node.size() != n) node.fail(what);
  for (std::size_t r = 0; r < n; ++r) {
    const JsonNode row = node[r];
    row.require_array(what);
    if (row.size() != n) row.fail(what);
    for (std::size_t c = 0; c < n; ++c) m(Eigen::Index(r), Eigen::Index(c)) = row[c].number(what);
  }
  const Eigen::MatrixXd block = m.topLeftCorner(dimension, dimension);
  const Eigen::MatrixXd symmetric = 0.5 * (block + block.transpose());
  const Eigen::VectorXd eigen =
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(symmetric, Eigen::EigenvaluesOnly)
          .eigenvalues();
  if (!(definite ? eigen.minCoeff() > 0.0
                 : eigen.minCoeff() >= -1e-12 * eigen.cwiseAbs().maxCoeff()))
    node.fail(what);
  return m;
}

// A matrix on (n, t, o) that turning t and o about n leaves unchanged.
bool same_about_normal(const Mat3& m) {
  return m(0, 1) == 0.0 && m(0, 2) == 0.0 && m(1, 0) == 0.0 && m(2, 0) == 0.0 &&
         m(1, 1) == m(2, 2) && m(1, 2) == -m(2, 1);
}

// A quasi-rigid shell (seed 001 §5): stiffness K, damping C (numbers for the normal alone, or
// matrices on (n, t, o), 3D, or (n, t), 2D) and max_deflection > 0 (the shell's thickness over
// the rigid core; without it the core is never reached). A shell that deflects tangentially
// needs a stiffness matrix: its tangential rows are h K delta + C (delta - delta^l) = p_t.
// {"stiffness": k_v, "damping": a, "spin_speed": v_s, "stick_stiffness": k_s,
// "stick_damping": c_s}: the body's layer under the volumetric contact model. A planar body's
// stiffness is per unit of common area, with its own default.
VolumetricLayer volumetric_layer(const JsonNode& node, int dimension) {
  node.require_object(
      "a volumetric layer object {\"stiffness\": k_v, \"damping\": a, \"spin_speed\": v_s}");
  node.allow_only({"stiffness", "damping", "spin_speed", "stick_stiffness", "stick_damping"});
  VolumetricLayer layer;
  if (dimension == 2) layer.stiffness = kPlanarLayerStiffness;
  if (auto n = node.find("stiffness"))
    layer.stiffness =
        n->positive(dimension == 2 ? "a stiffness k_v > 0 in N/m^2 (of common area)"
                                   : "a stiffness k_v > 0 in N/m^3 (of common volume)");
  if (auto n = node.find("damping")) layer.damping = n->non_negative("a damping a >= 0 in s/m");
  if (auto n = node.find("spin_speed"))
    layer.spin_speed = n->non_negative(
        "a spin speed v_s >= 0 in m/s (0: Coulomb friction about the normal, > 0: viscous)");
  if (auto n = node.find("stick_stiffness"))
    layer.stick_stiffness =
        n->non_negative("a bristle stiffness k_s >= 0 in N/m (0: rigid stiction)");
  if (auto n = node.find("stick_damping"))
    layer.stick_damping = n->non_negative("a bristle damping c_s >= 0 in N s/m");
  return layer;
}

QuasiRigidShell shell(const JsonNode& node, int dimension) {
  node.require_object("a shell object {\"stiffness\": K, \"damping\": C, \"max_deflection\": d}");
  node.allow_only({"stiffness", "damping", "max_deflection"});
  const char* stiffness =
      dimension == 2 ? "a stiffness in N/m: k > 0, or a 2x2 matrix K on (n, t) whose symmetric "
                       "part is positive definite"
                     : "a stiffness in N/m: k > 0, or a 3x3 matrix K on (n, t, o) whose symmetric "
                       "part is positive definite";
  const char* damping =
      dimension == 2 ? "a damping in N s/m: c >= 0, or a 2x2 matrix C on (n, t) whose symmetric "
                       "part is positive semi-definite"
                     : "a damping in N s/m: c >= 0, or a 3x3 matrix C on (n, t, o) whose "
                       "symmetric part is positive semi-definite";
  QuasiRigidShell s;
  const JsonNode k = node.at("stiffness", stiffness);
  s.stiffness = shell_matrix(k, dimension, true, stiffness);
  if (auto n = node.find("damping")) {
    s.damping = shell_matrix(*n, dimension, false, damping);
    if (s.tangential() && !k.value().is_array())
      n->fail("a number (a tangential damping matrix needs a stiffness matrix beside it)");
  }
  if (auto n = node.find("max_deflection"))
    s.max_deflection = n->positive("a shell thickness > 0 in m");
  return s;
}

// {"axis": [x, y, z], "e_t": ..., "e_o": ...} (3D): seed 001's anisotropic friction.
FrictionEllipse friction_ellipse(const JsonNode& node) {
  node.require_object(
      "a friction ellipse object {\"axis\": [x, y, z], \"e_t\": e_t, \"e_o\": e_o}");
  node.allow_only({"axis", "e_t", "e_o"});
  FrictionEllipse e;
  const JsonNode& axis = node.at("axis", "a non-zero axis [x, y, z] in the body frame");
  e.axis = axis.vec3("a non-zero axis [x, y, z] in the body frame");
  if (!(e.axis.norm() > 0.0)) axis.fail("a non-zero axis [x, y, z] in the body frame");
  e.axis.normalize();
  if (auto n = node.find("e_t")) e.e_t = n->positive("a friction weight e_t > 0 along the axis");
  if (auto n = node.find("e_o")) e.e_o = n->positive("a friction weight e_o > 0 across the axis");
  return e;
}

// {"mu": ..., "torsion_radius": ..., "gravity": ...} (2D): friction against a supporting table.
SupportFriction support_friction(const JsonNode& node) {
  node.require_object(
      "a support friction object {\"mu\": mu, \"torsion_radius\": r, \"gravity\": g}");
  node.allow_only({"mu", "torsion_radius", "gravity"});
  SupportFriction s;
  s.mu = node.at("mu", "a friction coefficient > 0 against the table")
             .positive("a friction coefficient > 0 against the table");
  if (auto n = node.find("torsion_radius"))
    s.torsion_radius = n->non_negative("a torsional friction radius >= 0 in m");
  if (auto n = node.find("gravity"))
    s.gravity = n->positive("an acceleration > 0 in m/s^2 pressing the body on the table");
  return s;
}

SceneBody parse_body(const JsonNode& b, const std::filesystem::path& base_dir, int dimension) {
  b.require_object("a body object");
  b.allow_only({"name",
                "shape",
                "position",
                "orientation",
                "velocity",
                "angular_velocity",
                "mass",
                "density",
                "inertia",
                "mu",
                "color",
                "static",
                "visible",
                "no_collide",
                "appear_time",
                "shell",
                "torsion_radius",
                "friction_ellipse",
                "support_friction",
                "volumetric"});
  SceneBody out;
  Body& body = out.body;
  BodyState& state = out.state;
  body.name = b.at("name", "a non-empty body name").string("a non-empty body name");
  const SceneShape shape = parse_shape(b.at("shape", "a shape object"), base_dir, dimension);
  body.shape = shape.shape;
  body.visual = shape.visual;
  out.warnings = shape.warnings;
  const bool plane =
      shape.shape.kind == ShapeKind::Plane || shape.shape.kind == ShapeKind::HalfPlane;

  if (auto n = b.find("static")) {
    body.is_static = n->boolean();
    if (plane && !body.is_static) n->fail("true: a plane is always static");
  }
  body.is_static = body.is_static || plane;
  if (plane) {
    const char* what = "no mass properties on a plane (planes are static)";
    reject(b, "mass", what);
    reject(b, "density", what);
    reject(b, "inertia", what);
  } else {
    mass_properties(b, shape, body);
  }

  if (dimension == 2) {
    planar_state(b, shape, state);
  } else {
    if (auto n = b.find("position")) state.position = n->vec3("a position [x, y, z] in m");
    if (auto n = b.find("orientation")) {
      if (shape.plane_normal) n->fail("no orientation when the plane's shape has a \"normal\"");
      state.orientation = parse_orientation(*n);
    }
    if (shape.plane_normal) state.orientation = *shape.plane_normal;
    if (auto n = b.find("velocity")) state.velocity = n->vec3("a velocity [x, y, z] in m/s");
    if (auto n = b.find("angular_velocity"))
      state.angular_velocity = n->vec3("an angular velocity [x, y, z] in rad/s");
  }
  // Past these, a step's arithmetic overflows or loses every digit of a motion long before the
  // numbers mean anything physical (docs/scene-format.md, "Limits").
  const auto bounded = [&](const char* field, const Vec3& v, const char* what) {
    if (!(v.cwiseAbs().maxCoeff() <= kMaxStateMagnitude)) b.at(field, what).fail(what);
  };
  bounded("position", state.position, "each coordinate within +-1e9 m");
  bounded("velocity", state.velocity, "each component within +-1e9 m/s");
  bounded("angular_velocity", state.angular_velocity, "each component within +-1e9 rad/s");
  if (body.is_static) {
    const char* what = "no motion on a static body";
    if (!state.velocity.isZero(0.0)) b.at("velocity", what).fail(what);
    if (!state.angular_velocity.isZero(0.0)) b.at("angular_velocity", what).fail(what);
  }

  if (auto n = b.find("mu")) body.mu = n->non_negative("a friction coefficient >= 0");
  if (auto n = b.find("torsion_radius"))
    body.torsion_radius = n->non_negative("a torsional friction radius >= 0 in m");
  if (auto n = b.find("color")) {
    body.color = color(*n);
    // The scene's colour wins over the model file's materials.
    if (body.visual) {
      auto plain = std::make_shared<VisualMesh>(*body.visual);
      for (VisualMesh::Part& part : plain->parts) {
        part.color[3] = 0.0f;
        part.texture = nullptr;
        part.uv.clear();
      }
      body.visual = std::move(plain);
    }
  }
  if (auto n = b.find("visible")) body.visible = n->boolean();
  if (auto n = b.find("no_collide")) out.no_collide = no_collide(*n);
  if (auto n = b.find("appear_time")) body.appear_time = n->non_negative("a time >= 0 in s");
  if (auto n = b.find("shell")) body.shell = shell(*n, dimension);
  if (dimension == 2) body.layer.stiffness = kPlanarLayerStiffness;
  if (auto n = b.find("volumetric")) body.layer = volumetric_layer(*n, dimension);
  if (auto n = b.find("friction_ellipse")) {
    const char* what = "no friction_ellipse in a 2D scene (its contacts have one tangent)";
    if (dimension == 2) n->fail(what);
    body.friction_ellipse = friction_ellipse(*n);
  }
  // K's t and o are the contact's friction directions: the friction ellipse's axis where the
  // body has one, else any pair of the tangent plane, so that a shell must look the same along
  // all of them.
  if (dimension == 3 && body.shell.compliant() && !body.friction_ellipse.anisotropic() &&
      !(same_about_normal(body.shell.stiffness) && same_about_normal(body.shell.damping)))
    b.at("shell", "")
        .fail(
            "a shell the same along every tangent (K_tt = K_oo, K_to = -K_ot, no n-t or n-o "
            "coupling, C likewise), or a friction_ellipse on the body whose axis fixes t");
  if (auto n = b.find("support_friction")) {
    const char* what = "no support_friction in a 3D scene (it is the table under a 2D scene)";
    if (dimension != 2) n->fail(what);
    body.support = support_friction(*n);
  }
  return out;
}

}  // namespace pegsim
