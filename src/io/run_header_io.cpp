#include "io/run_header_io.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>

#include "io/hdf5_io.hpp"
#include "io/run_layout.hpp"

namespace pegsim {
namespace {

using h5::Failure;

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ",") + s;
  return out;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

h5::Handle make_group(hid_t file, const char* name) {
  h5::Handle g = h5::group(H5Gcreate2(file, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  if (!g) throw Failure(std::string("cannot create group ") + name);
  return g;
}

h5::Handle open_group(hid_t file, const char* name) {
  if (H5Lexists(file, name, H5P_DEFAULT) <= 0) {
    H5Eclear2(H5E_DEFAULT);
    throw Failure(std::string("missing group ") + name);
  }
  h5::Handle g = h5::group(H5Gopen2(file, name, H5P_DEFAULT));
  if (!g) throw Failure(std::string("cannot open group ") + name);
  return g;
}

void write_settings(hid_t file, const Settings& s) {
  h5::Handle g = make_group(file, "/settings");
  const hid_t id = g.get();
  h5::write_attribute(id, "h", std::vector<double>{s.h});
  h5::write_attribute(id, "gravity",
                      std::vector<double>{s.gravity.x(), s.gravity.y(), s.gravity.z()});
  h5::write_attribute(id, "epsilon", std::vector<double>{s.epsilon});
  h5::write_attribute(id, "eps_theta", std::vector<double>{s.eps_theta});
  h5::write_attribute(id, "feasibility_depth", std::vector<double>{s.feasibility_depth});
  h5::write_attribute(id, "feasibility_angle", std::vector<double>{s.feasibility_angle});
  h5::write_attribute(id, "friction_directions", std::int64_t{s.friction_directions});
  h5::write_attribute(id, "formulation", std::string(to_string(s.formulation)));
  h5::write_attribute(id, "contact_model", std::string(to_string(s.contact_model)));
  h5::write_attribute(id, "sm_enforce", std::string(to_string(s.sm_enforce)));
  h5::write_attribute(id, "contacts_per_pair", std::int64_t{s.contacts_per_pair});
  h5::write_attribute(id, "gyroscopic", std::string(to_string(s.gyroscopic)));
  h5::write_attribute(id, "primaries", std::string(to_string(s.primaries)));
  h5::write_attribute(id, "cone_orientation", std::string(to_string(s.cone_orientation)));
  h5::write_attribute(id, "solver", s.solver);
  h5::write_attribute(id, "fallbacks", join(s.fallbacks));
  h5::write_attribute(id, "tolerance", std::vector<double>{s.tolerance});
  h5::write_attribute(id, "max_iterations", std::int64_t{s.max_iterations});
  h5::write_attribute(id, "on_failure", std::string(to_string(s.on_failure)));
  h5::write_attribute(id, "time_budget", std::vector<double>{s.time_budget});
  h5::write_attribute(id, "iteration_budget", std::int64_t{s.iteration_budget ? 1 : 0});
  h5::write_attribute(id, "warm_start", std::int64_t{s.warm_start ? 1 : 0});
  h5::write_attribute(id, "joint_correction", std::int64_t{s.joint_correction ? 1 : 0});
  h5::write_attribute(id, "joint_position_tolerance",
                      std::vector<double>{s.joint_position_tolerance});
  h5::write_attribute(id, "joint_velocity_tolerance",
                      std::vector<double>{s.joint_velocity_tolerance});
}

double one_double(hid_t g, const char* name) {
  const std::vector<double> v = h5::read_doubles_attribute(g, name);
  if (v.size() != 1) throw Failure(std::string("/settings ") + name + ": expected one number");
  return v[0];
}

Settings read_settings(hid_t file) {
  h5::Handle g = open_group(file, "/settings");
  const hid_t id = g.get();
  Settings s;
  s.h = one_double(id, "h");
  const std::vector<double> gravity = h5::read_doubles_attribute(id, "gravity");
  if (gravity.size() != 3) throw Failure("/settings gravity: expected 3 numbers");
  s.gravity = Vec3(gravity[0], gravity[1], gravity[2]);
  s.epsilon = one_double(id, "epsilon");
  s.eps_theta = one_double(id, "eps_theta");
  s.feasibility_depth = one_double(id, "feasibility_depth");
  s.feasibility_angle = one_double(id, "feasibility_angle");
  s.friction_directions = static_cast<int>(h5::read_int_attribute(id, "friction_directions"));
  const std::string formulation = h5::read_string_attribute(id, "formulation");
  if (!parse_formulation(formulation, s.formulation))
    throw Failure("/settings formulation: unknown formulation '" + formulation + "'");
  // Files written before contact models existed ran the standard model.
  if (h5::has_attribute(id, "contact_model")) {
    const std::string model = h5::read_string_attribute(id, "contact_model");
    if (!parse_contact_model(model, s.contact_model))
      throw Failure(
          "/settings contact_model: expected sm, lnc, peg, corrective or volumetric, got '" +
          model + "'");
  }
  // Files written before the option enforced primary contacts only.
  if (h5::has_attribute(id, "sm_enforce")) {
    const std::string which = h5::read_string_attribute(id, "sm_enforce");
    if (!parse_sm_enforce(which, s.sm_enforce))
      throw Failure("/settings sm_enforce: expected primary or all, got '" + which + "'");
  }
  // Files written before the option kept every contact.
  if (h5::has_attribute(id, "contacts_per_pair")) {
    const std::int64_t limit = h5::read_int_attribute(id, "contacts_per_pair");
    if (limit < 0 || limit > std::numeric_limits<int>::max())
      throw Failure("/settings contacts_per_pair: expected an integer >= 0, got " +
                    std::to_string(limit));
    s.contacts_per_pair = static_cast<int>(limit);
  }
  // Files written before the option ran the explicit term of (2.30).
  s.gyroscopic = Gyroscopic::Explicit;
  if (h5::has_attribute(id, "gyroscopic")) {
    const std::string which = h5::read_string_attribute(id, "gyroscopic");
    if (!parse_gyroscopic(which, s.gyroscopic))
      throw Failure("/settings gyroscopic: expected midpoint, implicit or explicit, got '" + which +
                    "'");
  }
  // Files written before the option turned every friction cone from a fixed tangent.
  s.cone_orientation = ConeOrientation::Fixed;
  if (h5::has_attribute(id, "cone_orientation")) {
    const std::string which = h5::read_string_attribute(id, "cone_orientation");
    if (!parse_cone_orientation(which, s.cone_orientation))
      throw Failure("/settings cone_orientation: expected motion or fixed, got '" + which + "'");
  }
  // Files written before the option used the largest gap (4.14).
  if (h5::has_attribute(id, "primaries")) {
    const std::string which = h5::read_string_attribute(id, "primaries");
    if (!parse_primaries(which, s.primaries))
      throw Failure("/settings primaries: expected largest-gap or several, got '" + which + "'");
  }
  s.solver = h5::read_string_attribute(id, "solver");
  s.fallbacks = split(h5::read_string_attribute(id, "fallbacks"));
  s.tolerance = one_double(id, "tolerance");
  s.max_iterations = static_cast<int>(h5::read_int_attribute(id, "max_iterations"));
  const std::string policy = h5::read_string_attribute(id, "on_failure");
  if (!parse_failure_policy(policy, s.on_failure))
    throw Failure("/settings on_failure: expected stop or continue, got '" + policy + "'");
  s.warm_start = h5::read_int_attribute(id, "warm_start") != 0;
  // Absent from files written before the option: every step exact.
  if (h5::has_attribute(id, "time_budget")) {
    s.time_budget = one_double(id, "time_budget");
    if (!(s.time_budget >= 0.0))
      throw Failure("/settings time_budget: expected a time >= 0 in s, got " +
                    std::to_string(s.time_budget));
  }
  // Absent from files written before the option: max_iterations a limit.
  if (h5::has_attribute(id, "iteration_budget"))
    s.iteration_budget = h5::read_int_attribute(id, "iteration_budget") != 0;
  // Added within version 1: absent from older files (correction off, default tolerances).
  if (h5::has_attribute(id, "joint_correction")) {
    s.joint_correction = h5::read_int_attribute(id, "joint_correction") != 0;
    s.joint_position_tolerance = one_double(id, "joint_position_tolerance");
    s.joint_velocity_tolerance = one_double(id, "joint_velocity_tolerance");
  }
  return s;
}

// Compound parts (only in files with a compound body): body i owns parts [part_offset[i],
// part_offset[i + 1]); part k its polytope's vertices [part_vertex_offset[k], ...+1) of
// part_vertices and its faces [part_face_offset[k], ...+1) of part_face_vertex_offset, whose
// vertex indices count within the part.
void write_parts(hid_t id, const std::vector<RunBody>& bodies) {
  bool any = false;
  for (const RunBody& b : bodies) any |= !b.parts.empty();
  if (!any) return;
  std::vector<std::int64_t> part_offset{0}, vertex_offset{0}, face_offset{0}, fv_offset{0};
  std::vector<std::int8_t> kind;
  std::vector<double> radius, pose, vertices;
  std::vector<std::int32_t> face_vertices;
  for (const RunBody& b : bodies) {
    for (const RunPart& p : b.parts) {
      kind.push_back(static_cast<std::int8_t>(p.kind));
      radius.push_back(p.radius);
      const Quat& q = p.orientation;
      pose.insert(pose.end(),
                  {p.position.x(), p.position.y(), p.position.z(), q.w(), q.x(), q.y(), q.z()});
      for (const Vec3& v : p.vertices) vertices.insert(vertices.end(), {v.x(), v.y(), v.z()});
      vertex_offset.push_back(vertex_offset.back() + static_cast<std::int64_t>(p.vertices.size()));
      for (const std::vector<int>& f : p.faces) {
        face_vertices.insert(face_vertices.end(), f.begin(), f.end());
        fv_offset.push_back(static_cast<std::int64_t>(face_vertices.size()));
      }
      face_offset.push_back(face_offset.back() + static_cast<std::int64_t>(p.faces.size()));
    }
    part_offset.push_back(part_offset.back() + static_cast<std::int64_t>(b.parts.size()));
  }
  const hsize_t n = bodies.size(), np = kind.size();
  const h5::Handle shape = run_layout::shape_kind_type();
  h5::write_dataset(id, "part_offset", H5T_NATIVE_INT64, H5T_STD_I64LE, {n + 1},
                    part_offset.data());
  h5::write_dataset(id, "part_shape", shape.get(), shape.get(), {np}, kind.data());
  h5::write_dataset(id, "part_radius", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {np}, radius.data());
  h5::write_dataset(id, "part_pose", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {np, 7}, pose.data());
  h5::write_dataset(id, "part_vertex_offset", H5T_NATIVE_INT64, H5T_STD_I64LE, {np + 1},
                    vertex_offset.data());
  h5::write_dataset(id, "part_vertices", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE,
                    {vertices.size() / 3, 3}, vertices.data());
  h5::write_dataset(id, "part_face_offset", H5T_NATIVE_INT64, H5T_STD_I64LE, {np + 1},
                    face_offset.data());
  h5::write_dataset(id, "part_face_vertex_offset", H5T_NATIVE_INT64, H5T_STD_I64LE,
                    {fv_offset.size()}, fv_offset.data());
  h5::write_dataset(id, "part_face_vertices", H5T_NATIVE_INT32, H5T_STD_I32LE,
                    {face_vertices.size()}, face_vertices.data());
}

// The textures of model files' surfaces (only in files with one): the distinct images as their
// files' bytes, image t in visual_textures[visual_texture_offset[t], ...+1) named
// visual_texture_name[t]; part k painted with image visual_part_texture[k] (-1: none) at the
// (u, v) of its corners in visual_uv.
void write_textures(hid_t id, const std::vector<RunBody>& bodies, hsize_t corner_count) {
  std::vector<const VisualTexture*> images;
  std::vector<std::int32_t> part_texture;
  std::vector<double> uv;
  for (const RunBody& b : bodies) {
    if (!b.visual) continue;
    for (const VisualMesh::Part& p : b.visual->parts) {
      std::int32_t t = -1;
      if (p.texture && p.uv.size() == p.corners.size()) {
        // Bodies loaded from the same file hold equal images apart: each image is stored once.
        auto found = std::find_if(images.begin(), images.end(), [&](const VisualTexture* t) {
          return t == p.texture.get() ||
                 (t->name == p.texture->name && t->encoded == p.texture->encoded);
        });
        t = std::int32_t(found - images.begin());
        if (found == images.end()) images.push_back(p.texture.get());
      }
      part_texture.push_back(t);
      for (std::size_t c = 0; c < p.corners.size(); ++c)
        uv.insert(uv.end(), {t >= 0 ? p.uv[c].x() : 0.0, t >= 0 ? p.uv[c].y() : 0.0});
    }
  }
  if (images.empty()) return;
  std::vector<std::int64_t> offset{0};
  std::vector<std::uint8_t> bytes;
  std::vector<std::string> names;
  for (const VisualTexture* t : images) {
    bytes.insert(bytes.end(), t->encoded.begin(), t->encoded.end());
    offset.push_back(std::int64_t(bytes.size()));
    names.push_back(t->name);
  }
  const hsize_t np = part_texture.size(), nt = images.size();
  h5::write_dataset(id, "visual_part_texture", H5T_NATIVE_INT32, H5T_STD_I32LE, {np},
                    part_texture.data());
  h5::write_dataset(id, "visual_uv", H5T_NATIVE_DOUBLE, H5T_IEEE_F32LE, {corner_count, 2},
                    uv.data());
  h5::write_dataset(id, "visual_texture_offset", H5T_NATIVE_INT64, H5T_STD_I64LE, {nt + 1},
                    offset.data());
  h5::write_dataset(id, "visual_textures", H5T_NATIVE_UINT8, H5T_STD_U8LE, {bytes.size()},
                    bytes.data());
  h5::write_strings_dataset(id, "visual_texture_name", names);
}

// Model files' surfaces (only in files with a body that has one): body i owns visual parts
// [visual_part_offset[i], ...+1); part k its corners [visual_corner_offset[k], ...+1) of
// visual_corners (three per triangle) and visual_normals, its colour visual_color[k].
void write_visuals(hid_t id, const std::vector<RunBody>& bodies) {
  bool any = false;
  for (const RunBody& b : bodies) any |= b.visual != nullptr;
  if (!any) return;
  std::vector<std::int64_t> part_offset{0}, corner_offset{0};
  std::vector<double> corners, normals;
  std::vector<float> color;
  for (const RunBody& b : bodies) {
    const std::size_t parts = b.visual ? b.visual->parts.size() : 0;
    for (std::size_t k = 0; k < parts; ++k) {
      const VisualMesh::Part& p = b.visual->parts[k];
      for (std::size_t c = 0; c < p.corners.size(); ++c) {
        corners.insert(corners.end(), {p.corners[c].x(), p.corners[c].y(), p.corners[c].z()});
        normals.insert(normals.end(), {p.normals[c].x(), p.normals[c].y(), p.normals[c].z()});
      }
      corner_offset.push_back(corner_offset.back() + static_cast<std::int64_t>(p.corners.size()));
      color.insert(color.end(), p.color.begin(), p.color.end());
    }
    part_offset.push_back(part_offset.back() + static_cast<std::int64_t>(parts));
  }
  const hsize_t n = bodies.size(), np = color.size() / 4, nc = corners.size() / 3;
  h5::write_dataset(id, "visual_part_offset", H5T_NATIVE_INT64, H5T_STD_I64LE, {n + 1},
                    part_offset.data());
  h5::write_dataset(id, "visual_corner_offset", H5T_NATIVE_INT64, H5T_STD_I64LE, {np + 1},
                    corner_offset.data());
  // Drawn, never simulated, and read from model files in single precision: stored as such.
  h5::write_dataset(id, "visual_corners", H5T_NATIVE_DOUBLE, H5T_IEEE_F32LE, {nc, 3},
                    corners.data());
  h5::write_dataset(id, "visual_normals", H5T_NATIVE_DOUBLE, H5T_IEEE_F32LE, {nc, 3},
                    normals.data());
  h5::write_dataset(id, "visual_color", H5T_NATIVE_FLOAT, H5T_IEEE_F32LE, {np, 4}, color.data());
  write_textures(id, bodies, nc);
}

void write_bodies(hid_t file, const std::vector<RunBody>& bodies) {
  h5::Handle g = make_group(file, "/bodies");
  const hid_t id = g.get();
  const hsize_t n = bodies.size();
  std::vector<std::string> names;
  std::vector<std::int8_t> kind;
  std::vector<double> radius, mass, mu, inertia, vertices, appear_time, shell, torsion, ellipse,
      support, shell_matrices, layer;
  std::vector<float> color;
  std::vector<std::uint8_t> is_static, visible;
  std::vector<std::int64_t> vertex_offset{0}, face_offset{0}, face_vertex_offset{0};
  std::vector<std::int32_t> face_vertices, no_collide;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const RunBody& b = bodies[i];
    names.push_back(b.name);
    kind.push_back(static_cast<std::int8_t>(b.kind));
    radius.push_back(b.radius);
    mass.push_back(b.mass);
    mu.push_back(b.mu);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) inertia.push_back(b.inertia(r, c));
    color.insert(color.end(), b.color.begin(), b.color.end());
    is_static.push_back(b.is_static);
    visible.push_back(b.visible);
    appear_time.push_back(b.appear_time);
    shell.insert(shell.end(),
                 {b.shell.stiffness(0, 0), b.shell.damping(0, 0), b.shell.max_deflection});
    for (const Mat3* m : {&b.shell.stiffness, &b.shell.damping})
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) shell_matrices.push_back((*m)(r, c));
    torsion.push_back(b.torsion_radius);
    const FrictionEllipse& e = b.friction_ellipse;
    ellipse.insert(ellipse.end(), {e.axis.x(), e.axis.y(), e.axis.z(), e.e_t, e.e_o});
    support.insert(support.end(), {b.support.mu, b.support.torsion_radius, b.support.gravity});
    layer.insert(layer.end(), {b.layer.stiffness, b.layer.damping, b.layer.spin_speed,
                               b.layer.stick_stiffness, b.layer.stick_damping});
    for (const Vec3& v : b.vertices) vertices.insert(vertices.end(), {v.x(), v.y(), v.z()});
    vertex_offset.push_back(vertex_offset.back() + static_cast<std::int64_t>(b.vertices.size()));
    for (const std::vector<int>& f : b.faces) {
      face_vertices.insert(face_vertices.end(), f.begin(), f.end());
      face_vertex_offset.push_back(static_cast<std::int64_t>(face_vertices.size()));
    }
    face_offset.push_back(face_offset.back() + static_cast<std::int64_t>(b.faces.size()));
    for (int other : b.no_collide) no_collide.insert(no_collide.end(), {int(i), other});
  }
  h5::write_strings_dataset(id, "name", names);
  const h5::Handle shape = run_layout::shape_kind_type();
  h5::write_dataset(id, "shape", shape.get(), shape.get(), {n}, kind.data());
  h5::write_dataset(id, "radius", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {n}, radius.data());
  h5::write_dataset(id, "mass", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {n}, mass.data());
  h5::write_dataset(id, "inertia", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {n, 3, 3}, inertia.data());
  h5::write_dataset(id, "static", H5T_NATIVE_UINT8, H5T_STD_U8LE, {n}, is_static.data());
  h5::write_dataset(id, "visible", H5T_NATIVE_UINT8, H5T_STD_U8LE, {n}, visible.data());
  h5::write_dataset(id, "mu", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {n}, mu.data());
  h5::write_dataset(id, "colour", H5T_NATIVE_FLOAT, H5T_IEEE_F32LE, {n, 4}, color.data());
  h5::write_dataset(id, "vertex_offset", H5T_NATIVE_INT64, H5T_STD_I64LE, {n + 1},
                    vertex_offset.data());
  h5::write_dataset(id, "vertices", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {vertices.size() / 3, 3},
                    vertices.data());
  h5::write_dataset(id, "face_offset", H5T_NATIVE_INT64, H5T_STD_I64LE, {n + 1},
                    face_offset.data());
  h5::write_dataset(id, "face_vertex_offset", H5T_NATIVE_INT64, H5T_STD_I64LE,
                    {face_vertex_offset.size()}, face_vertex_offset.data());
  h5::write_dataset(id, "face_vertices", H5T_NATIVE_INT32, H5T_STD_I32LE, {face_vertices.size()},
                    face_vertices.data());
  h5::write_dataset(id, "no_collide", H5T_NATIVE_INT32, H5T_STD_I32LE, {no_collide.size() / 2, 2},
                    no_collide.data());
  write_parts(id, bodies);
  write_visuals(id, bodies);
  h5::write_dataset(id, "appear_time", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {n}, appear_time.data());
  h5::write_dataset(id, "shell", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {n, 3}, shell.data());
  h5::write_dataset(id, "shell_matrices", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {n, 18},
                    shell_matrices.data());
  h5::write_dataset(id, "torsion_radius", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {n}, torsion.data());
  h5::write_dataset(id, "friction_ellipse", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {n, 5},
                    ellipse.data());
  h5::write_dataset(id, "support_friction", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {n, 3},
                    support.data());
  h5::write_dataset(id, "volumetric_layer", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {n, 5},
                    layer.data());
}

// Offsets must start at 0, never decrease and end at `total`.
void check_offsets(const std::vector<std::int64_t>& offset, std::size_t entries, std::int64_t total,
                   const char* name) {
  bool ok =
      offset.size() == entries && !offset.empty() && offset.front() == 0 && offset.back() == total;
  for (std::size_t i = 1; ok && i < offset.size(); ++i) ok = offset[i] >= offset[i - 1];
  if (!ok)
    throw Failure(std::string("/bodies/") + name + ": expected " + std::to_string(entries) +
                  " non-decreasing offsets from 0 to " + std::to_string(total));
}

// The datasets of write_parts, when the file has them.
void read_parts(hid_t id, std::vector<RunBody>& bodies) {
  if (H5Lexists(id, "part_offset", H5P_DEFAULT) <= 0) return;
  const std::size_t n = bodies.size();
  std::vector<hsize_t> shape;
  const auto part_offset = h5::read_all<std::int64_t>(id, "part_offset", H5T_NATIVE_INT64, 1);
  const auto kind = h5::read_all<std::int8_t>(id, "part_shape", H5T_NATIVE_INT8, 1);
  const std::size_t np = kind.size();
  check_offsets(part_offset, n + 1, static_cast<std::int64_t>(np), "part_offset");
  const auto radius = h5::read_all<double>(id, "part_radius", H5T_NATIVE_DOUBLE, 1);
  const auto pose = h5::read_all<double>(id, "part_pose", H5T_NATIVE_DOUBLE, 2, &shape);
  if (radius.size() != np || pose.size() != 7 * np)
    throw Failure("/bodies/part_radius, part_pose: expected one row per part");
  const auto vertices = h5::read_all<double>(id, "part_vertices", H5T_NATIVE_DOUBLE, 2, &shape);
  if (shape[1] != 3) throw Failure("/bodies/part_vertices: expected 3 columns");
  const auto vertex_offset =
      h5::read_all<std::int64_t>(id, "part_vertex_offset", H5T_NATIVE_INT64, 1);
  check_offsets(vertex_offset, np + 1, static_cast<std::int64_t>(vertices.size() / 3),
                "part_vertex_offset");
  const auto face_vertices =
      h5::read_all<std::int32_t>(id, "part_face_vertices", H5T_NATIVE_INT32, 1);
  const auto fv_offset =
      h5::read_all<std::int64_t>(id, "part_face_vertex_offset", H5T_NATIVE_INT64, 1);
  if (fv_offset.empty()) throw Failure("/bodies/part_face_vertex_offset: expected F + 1 offsets");
  check_offsets(fv_offset, fv_offset.size(), static_cast<std::int64_t>(face_vertices.size()),
                "part_face_vertex_offset");
  const auto face_offset = h5::read_all<std::int64_t>(id, "part_face_offset", H5T_NATIVE_INT64, 1);
  check_offsets(face_offset, np + 1, static_cast<std::int64_t>(fv_offset.size() - 1),
                "part_face_offset");
  for (std::size_t i = 0; i < n; ++i)
    for (std::int64_t k = part_offset[i]; k < part_offset[i + 1]; ++k) {
      RunPart p;
      if (kind[k] < 0 || kind[k] > static_cast<int>(ShapeKind::Compound))
        throw Failure("/bodies/part_shape: unknown shape kind " + std::to_string(kind[k]));
      p.kind = static_cast<ShapeKind>(kind[k]);
      p.radius = radius[k];
      const double* x = &pose[7 * k];
      p.position = Vec3(x[0], x[1], x[2]);
      p.orientation = Quat(x[3], x[4], x[5], x[6]);
      for (std::int64_t v = vertex_offset[k]; v < vertex_offset[k + 1]; ++v)
        p.vertices.emplace_back(vertices[3 * v], vertices[3 * v + 1], vertices[3 * v + 2]);
      for (std::int64_t f = face_offset[k]; f < face_offset[k + 1]; ++f) {
        std::vector<int> face(face_vertices.begin() + fv_offset[f],
                              face_vertices.begin() + fv_offset[f + 1]);
        for (int v : face)
          if (v < 0 || v >= static_cast<int>(p.vertices.size()))
            throw Failure("/bodies/part_face_vertices: vertex index " + std::to_string(v) +
                          " out of range for part " + std::to_string(k));
        p.faces.push_back(std::move(face));
      }
      bodies[i].parts.push_back(std::move(p));
    }
}

// The datasets of write_visuals, when the file has them.
void read_visuals(hid_t id, std::vector<RunBody>& bodies) {
  if (H5Lexists(id, "visual_part_offset", H5P_DEFAULT) <= 0) return;
  std::vector<hsize_t> shape;
  const auto part_offset =
      h5::read_all<std::int64_t>(id, "visual_part_offset", H5T_NATIVE_INT64, 1);
  const auto color = h5::read_all<float>(id, "visual_color", H5T_NATIVE_FLOAT, 2, &shape);
  if (shape[1] != 4) throw Failure("/bodies/visual_color: expected 4 columns (RGBA)");
  const std::size_t np = color.size() / 4;
  check_offsets(part_offset, bodies.size() + 1, static_cast<std::int64_t>(np),
                "visual_part_offset");
  const auto corners = h5::read_all<double>(id, "visual_corners", H5T_NATIVE_DOUBLE, 2, &shape);
  if (shape[1] != 3) throw Failure("/bodies/visual_corners: expected 3 columns");
  const auto normals = h5::read_all<double>(id, "visual_normals", H5T_NATIVE_DOUBLE, 2, &shape);
  if (normals.size() != corners.size())
    throw Failure("/bodies/visual_normals: expected one row per corner of visual_corners");
  const auto corner_offset =
      h5::read_all<std::int64_t>(id, "visual_corner_offset", H5T_NATIVE_INT64, 1);
  check_offsets(corner_offset, np + 1, static_cast<std::int64_t>(corners.size() / 3),
                "visual_corner_offset");
  for (std::size_t k = 0; k < np; ++k)
    if ((corner_offset[k + 1] - corner_offset[k]) % 3 != 0)
      throw Failure("/bodies/visual_corner_offset: expected three corners per triangle (part " +
                    std::to_string(k) + ")");
  // Textures, in files that have them (an addition within version 1).
  std::vector<std::shared_ptr<const VisualTexture>> images;
  std::vector<std::int32_t> part_texture(np, -1);
  std::vector<double> uv;
  if (H5Lexists(id, "visual_part_texture", H5P_DEFAULT) > 0) {
    part_texture = h5::read_all<std::int32_t>(id, "visual_part_texture", H5T_NATIVE_INT32, 1);
    uv = h5::read_all<double>(id, "visual_uv", H5T_NATIVE_DOUBLE, 2, &shape);
    const auto offset =
        h5::read_all<std::int64_t>(id, "visual_texture_offset", H5T_NATIVE_INT64, 1);
    const auto bytes = h5::read_all<std::uint8_t>(id, "visual_textures", H5T_NATIVE_UINT8, 1);
    const std::vector<std::string> names = h5::read_strings_dataset(id, "visual_texture_name");
    if (part_texture.size() != np)
      throw Failure("/bodies/visual_part_texture: expected one entry per visual part");
    if (shape[1] != 2 || uv.size() != 2 * (corners.size() / 3))
      throw Failure("/bodies/visual_uv: expected one (u, v) row per corner of visual_corners");
    check_offsets(offset, names.size() + 1, static_cast<std::int64_t>(bytes.size()),
                  "visual_texture_offset");
    for (std::size_t t = 0; t < names.size(); ++t) {
      auto image = std::make_shared<VisualTexture>();
      image->name = names[t];
      image->encoded.assign(bytes.begin() + offset[t], bytes.begin() + offset[t + 1]);
      images.push_back(std::move(image));
    }
    for (std::int32_t t : part_texture)
      if (t < -1 || t >= std::int32_t(images.size()))
        throw Failure("/bodies/visual_part_texture: texture index " + std::to_string(t) +
                      " out of range");
  }
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    if (part_offset[i] == part_offset[i + 1]) continue;
    auto visual = std::make_shared<VisualMesh>();
    for (std::int64_t k = part_offset[i]; k < part_offset[i + 1]; ++k) {
      VisualMesh::Part p;
      const std::int32_t t = part_texture[std::size_t(k)];
      for (std::int64_t c = corner_offset[k]; c < corner_offset[k + 1]; ++c) {
        p.corners.emplace_back(corners[3 * c], corners[3 * c + 1], corners[3 * c + 2]);
        p.normals.emplace_back(normals[3 * c], normals[3 * c + 1], normals[3 * c + 2]);
        if (t >= 0) p.uv.emplace_back(uv[2 * c], uv[2 * c + 1]);
      }
      if (t >= 0) p.texture = images[std::size_t(t)];
      for (int j = 0; j < 4; ++j) p.color[std::size_t(j)] = color[4 * k + j];
      visual->parts.push_back(std::move(p));
    }
    bodies[i].visual = std::move(visual);
  }
}

std::vector<RunBody> read_bodies(hid_t file) {
  h5::Handle g = open_group(file, "/bodies");
  const hid_t id = g.get();
  const std::vector<std::string> names = h5::read_strings_dataset(id, "name");
  const std::size_t n = names.size();
  std::vector<hsize_t> shape;
  auto sized = [&](auto values, std::size_t expected, const char* name) {
    if (values.size() != expected)
      throw Failure(std::string("/bodies/") + name + ": expected " + std::to_string(expected) +
                    " values, found " + std::to_string(values.size()));
    return values;
  };
  const auto kind = sized(h5::read_all<std::int8_t>(id, "shape", H5T_NATIVE_INT8, 1), n, "shape");
  const auto radius = sized(h5::read_all<double>(id, "radius", H5T_NATIVE_DOUBLE, 1), n, "radius");
  const auto mass = sized(h5::read_all<double>(id, "mass", H5T_NATIVE_DOUBLE, 1), n, "mass");
  const auto inertia =
      sized(h5::read_all<double>(id, "inertia", H5T_NATIVE_DOUBLE, 3), 9 * n, "inertia");
  const auto is_static =
      sized(h5::read_all<std::uint8_t>(id, "static", H5T_NATIVE_UINT8, 1), n, "static");
  const auto visible =
      sized(h5::read_all<std::uint8_t>(id, "visible", H5T_NATIVE_UINT8, 1), n, "visible");
  const auto mu = sized(h5::read_all<double>(id, "mu", H5T_NATIVE_DOUBLE, 1), n, "mu");
  const auto color = sized(h5::read_all<float>(id, "colour", H5T_NATIVE_FLOAT, 2), 4 * n, "colour");
  const auto vertices = h5::read_all<double>(id, "vertices", H5T_NATIVE_DOUBLE, 2, &shape);
  if (shape[1] != 3) throw Failure("/bodies/vertices: expected 3 columns");
  const auto vertex_offset = h5::read_all<std::int64_t>(id, "vertex_offset", H5T_NATIVE_INT64, 1);
  check_offsets(vertex_offset, n + 1, static_cast<std::int64_t>(vertices.size() / 3),
                "vertex_offset");
  const auto face_vertices = h5::read_all<std::int32_t>(id, "face_vertices", H5T_NATIVE_INT32, 1);
  const auto face_vertex_offset =
      h5::read_all<std::int64_t>(id, "face_vertex_offset", H5T_NATIVE_INT64, 1);
  if (face_vertex_offset.empty())
    throw Failure("/bodies/face_vertex_offset: expected F + 1 offsets");
  check_offsets(face_vertex_offset, face_vertex_offset.size(),
                static_cast<std::int64_t>(face_vertices.size()), "face_vertex_offset");
  const auto face_offset = h5::read_all<std::int64_t>(id, "face_offset", H5T_NATIVE_INT64, 1);
  check_offsets(face_offset, n + 1, static_cast<std::int64_t>(face_vertex_offset.size() - 1),
                "face_offset");
  const auto no_collide = h5::read_all<std::int32_t>(id, "no_collide", H5T_NATIVE_INT32, 2, &shape);
  if (shape[1] != 2) throw Failure("/bodies/no_collide: expected 2 columns");
  // Added within version 1: files written before it have every body present from t = 0.
  const auto appear_time =
      H5Lexists(id, "appear_time", H5P_DEFAULT) > 0
          ? sized(h5::read_all<double>(id, "appear_time", H5T_NATIVE_DOUBLE, 1), n, "appear_time")
          : std::vector<double>(n, 0.0);
  // Added within version 1 (stiffness, damping, max deflection per body): files written before
  // it have rigid bodies only.
  std::vector<double> shell;
  if (H5Lexists(id, "shell", H5P_DEFAULT) > 0)
    shell = sized(h5::read_all<double>(id, "shell", H5T_NATIVE_DOUBLE, 2), 3 * n, "shell");
  else
    for (std::size_t i = 0; i < n; ++i)
      shell.insert(shell.end(), {0.0, 0.0, QuasiRigidShell{}.max_deflection});
  // Likewise: the full K and C of (37), row by row; files without it have normal shells only.
  std::vector<double> shell_matrices;
  if (H5Lexists(id, "shell_matrices", H5P_DEFAULT) > 0)
    shell_matrices = sized(h5::read_all<double>(id, "shell_matrices", H5T_NATIVE_DOUBLE, 2), 18 * n,
                           "shell_matrices");

  // Added within version 1: files written before it have no torsional friction.
  const auto torsion = H5Lexists(id, "torsion_radius", H5P_DEFAULT) > 0
                           ? sized(h5::read_all<double>(id, "torsion_radius", H5T_NATIVE_DOUBLE, 1),
                                   n, "torsion_radius")
                           : std::vector<double>(n, 0.0);
  // Likewise: files without it have isotropic friction (a zero axis, e_t = e_o = 1).
  std::vector<double> ellipse;
  if (H5Lexists(id, "friction_ellipse", H5P_DEFAULT) > 0)
    ellipse = sized(h5::read_all<double>(id, "friction_ellipse", H5T_NATIVE_DOUBLE, 2), 5 * n,
                    "friction_ellipse");
  else
    for (std::size_t i = 0; i < n; ++i) ellipse.insert(ellipse.end(), {0.0, 0.0, 0.0, 1.0, 1.0});
  // Likewise: files without it have no support friction.
  std::vector<double> support;
  if (H5Lexists(id, "support_friction", H5P_DEFAULT) > 0)
    support = sized(h5::read_all<double>(id, "support_friction", H5T_NATIVE_DOUBLE, 2), 3 * n,
                    "support_friction");
  else
    for (std::size_t i = 0; i < n; ++i) support.insert(support.end(), {0.0, 0.0, 9.81});
  // Likewise: files without it have the default layers (the run used no volumetric contact),
  // and files with fewer columns (stiffness, damping; then spin speed) the defaults of the rest.
  std::vector<double> layer;
  const VolumetricLayer d;
  const double defaults[5] = {d.stiffness, d.damping, d.spin_speed, d.stick_stiffness,
                              d.stick_damping};
  constexpr std::size_t kLayerColumns = 5;
  if (H5Lexists(id, "volumetric_layer", H5P_DEFAULT) > 0) {
    layer = h5::read_all<double>(id, "volumetric_layer", H5T_NATIVE_DOUBLE, 2);
    for (std::size_t columns : {std::size_t{2}, std::size_t{3}})
      if (n > 0 && layer.size() == columns * n) {
        std::vector<double> widened;
        for (std::size_t i = 0; i < n; ++i)
          for (std::size_t k = 0; k < kLayerColumns; ++k)
            widened.push_back(k < columns ? layer[columns * i + k] : defaults[k]);
        layer.swap(widened);
      }
    layer = sized(std::move(layer), kLayerColumns * n, "volumetric_layer");
  } else {
    for (std::size_t i = 0; i < n; ++i) layer.insert(layer.end(), defaults, defaults + 5);
  }

  std::vector<RunBody> bodies(n);
  for (std::size_t i = 0; i < n; ++i) {
    RunBody& b = bodies[i];
    b.name = names[i];
    if (kind[i] < 0 || kind[i] > static_cast<int>(ShapeKind::Compound))
      throw Failure("/bodies/shape: unknown shape kind " + std::to_string(kind[i]));
    b.kind = static_cast<ShapeKind>(kind[i]);
    b.radius = radius[i];
    b.mass = mass[i];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) b.inertia(r, c) = inertia[9 * i + 3 * r + c];
    b.is_static = is_static[i] != 0;
    b.visible = visible[i] != 0;
    b.mu = mu[i];
    b.appear_time = appear_time[i];
    if (!(b.appear_time >= 0.0))
      throw Failure("/bodies/appear_time: expected times >= 0 in s, found " +
                    std::to_string(b.appear_time) + " for body " + std::to_string(i));
    b.shell = QuasiRigidShell::normal(shell[3 * i], shell[3 * i + 1], shell[3 * i + 2]);
    if (!(shell[3 * i] >= 0.0 && shell[3 * i + 1] >= 0.0 && b.shell.max_deflection > 0.0))
      throw Failure(
          "/bodies/shell: expected stiffness >= 0, damping >= 0 and max deflection > 0"
          " in N/m, N s/m and m for body " +
          std::to_string(i));
    if (!shell_matrices.empty()) {
      const double* m = &shell_matrices[18 * i];
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
          b.shell.stiffness(r, c) = m[3 * r + c];
          b.shell.damping(r, c) = m[9 + 3 * r + c];
        }
      if (!b.shell.stiffness.allFinite() || !b.shell.damping.allFinite() ||
          b.shell.stiffness(0, 0) != shell[3 * i] || b.shell.damping(0, 0) != shell[3 * i + 1])
        throw Failure(
            "/bodies/shell_matrices: expected finite K and C whose (n, n) entries are "
            "/bodies/shell's stiffness and damping for body " +
            std::to_string(i));
    }
    if (!b.shell.compliant()) b.shell = QuasiRigidShell{};  // also a file without /bodies/shell
    b.torsion_radius = torsion[i];
    if (!(b.torsion_radius >= 0.0))
      throw Failure("/bodies/torsion_radius: expected radii >= 0 in m, found " +
                    std::to_string(b.torsion_radius) + " for body " + std::to_string(i));
    FrictionEllipse& e = b.friction_ellipse;
    e.axis = Vec3(ellipse[5 * i], ellipse[5 * i + 1], ellipse[5 * i + 2]);
    e.e_t = ellipse[5 * i + 3];
    e.e_o = ellipse[5 * i + 4];
    if (!(e.axis.allFinite() && e.e_t > 0.0 && e.e_o > 0.0 && std::isfinite(e.e_t) &&
          std::isfinite(e.e_o)))
      throw Failure("/bodies/friction_ellipse: expected a finite axis and e_t, e_o > 0 for body " +
                    std::to_string(i));
    b.support = {support[3 * i], support[3 * i + 1], support[3 * i + 2]};
    if (!(b.support.mu >= 0.0 && b.support.torsion_radius >= 0.0 && b.support.gravity > 0.0 &&
          std::isfinite(b.support.mu + b.support.torsion_radius + b.support.gravity)))
      throw Failure(
          "/bodies/support_friction: expected mu >= 0, a torsion radius >= 0 in m and gravity "
          "> 0 in m/s^2 for body " +
          std::to_string(i));
    b.layer = {layer[5 * i], layer[5 * i + 1], layer[5 * i + 2], layer[5 * i + 3],
               layer[5 * i + 4]};
    const VolumetricLayer& l = b.layer;
    if (!(l.stiffness > 0.0 && l.damping >= 0.0 && l.spin_speed >= 0.0 &&
          l.stick_stiffness >= 0.0 && l.stick_damping >= 0.0 &&
          std::isfinite(l.stiffness + l.damping + l.spin_speed + l.stick_stiffness +
                        l.stick_damping)))
      throw Failure(
          "/bodies/volumetric_layer: expected a stiffness > 0 in N/m^3 (planar N/m^2), a "
          "damping >= 0 in s/m, a spin speed >= 0 in m/s and a bristle stiffness >= 0 in N/m "
          "and damping >= 0 in N s/m for body " +
          std::to_string(i));
    for (int c = 0; c < 4; ++c) b.color[c] = color[4 * i + c];
    for (std::int64_t v = vertex_offset[i]; v < vertex_offset[i + 1]; ++v)
      b.vertices.emplace_back(vertices[3 * v], vertices[3 * v + 1], vertices[3 * v + 2]);
    for (std::int64_t f = face_offset[i]; f < face_offset[i + 1]; ++f) {
      std::vector<int> face(face_vertices.begin() + face_vertex_offset[f],
                            face_vertices.begin() + face_vertex_offset[f + 1]);
      for (int v : face)
        if (v < 0 || v >= static_cast<int>(b.vertices.size()))
          throw Failure("/bodies/face_vertices: vertex index " + std::to_string(v) +
                        " out of range for body " + std::to_string(i));
      b.faces.push_back(std::move(face));
    }
  }
  for (std::size_t p = 0; p + 1 < no_collide.size(); p += 2) {
    const int a = no_collide[p], c = no_collide[p + 1];
    if (a < 0 || c < 0 || a >= int(n) || c >= int(n))
      throw Failure("/bodies/no_collide: body index out of range");
    bodies[a].no_collide.push_back(c);
  }
  read_parts(id, bodies);
  read_visuals(id, bodies);
  return bodies;
}

// /joints: one row per joint; frames as (w, x, y, z), anchors in the body frame (the world's
// for body -1).
void write_joints(hid_t file, const std::vector<Joint>& joints) {
  if (joints.empty()) return;
  h5::Handle g = make_group(file, "/joints");
  const hid_t id = g.get();
  const hsize_t n = joints.size();
  std::vector<std::string> names;
  std::vector<std::int8_t> type;
  std::vector<std::int32_t> bodies;
  std::vector<double> anchors, frames, limits, damping, angle_offset;
  for (const Joint& j : joints) {
    angle_offset.push_back(j.angle_offset);
    limits.insert(limits.end(), {j.angle_limit.lower, j.angle_limit.upper,
                                 j.displacement_limit.lower, j.displacement_limit.upper});
    damping.insert(damping.end(), {j.angular_damping, j.linear_damping});
    names.push_back(j.name);
    type.push_back(static_cast<std::int8_t>(j.type));
    bodies.insert(bodies.end(), {j.body_a, j.body_b});
    for (const Vec3* a : {&j.anchor_a, &j.anchor_b})
      anchors.insert(anchors.end(), {a->x(), a->y(), a->z()});
    for (const Quat* q : {&j.frame_a, &j.frame_b})
      frames.insert(frames.end(), {q->w(), q->x(), q->y(), q->z()});
  }
  h5::write_strings_dataset(id, "name", names);
  h5::write_dataset(id, "type", H5T_NATIVE_INT8, H5T_STD_I8LE, {n}, type.data());
  h5::write_dataset(id, "bodies", H5T_NATIVE_INT32, H5T_STD_I32LE, {n, 2}, bodies.data());
  h5::write_dataset(id, "anchor", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {n, 2, 3}, anchors.data());
  h5::write_dataset(id, "frame", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {n, 2, 4}, frames.data());
  h5::write_dataset(id, "limits", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {n, 4}, limits.data());
  h5::write_dataset(id, "damping", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {n, 2}, damping.data());
  h5::write_dataset(id, "angle_offset", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {n},
                    angle_offset.data());
}

std::vector<Joint> read_joints(hid_t file) {
  if (H5Lexists(file, "/joints", H5P_DEFAULT) <= 0) {
    H5Eclear2(H5E_DEFAULT);
    return {};
  }
  h5::Handle g = open_group(file, "/joints");
  const hid_t id = g.get();
  const std::vector<std::string> names = h5::read_strings_dataset(id, "name");
  const std::size_t n = names.size();
  const auto type = h5::read_all<std::int8_t>(id, "type", H5T_NATIVE_INT8, 1);
  const auto bodies = h5::read_all<std::int32_t>(id, "bodies", H5T_NATIVE_INT32, 2);
  const auto anchors = h5::read_all<double>(id, "anchor", H5T_NATIVE_DOUBLE, 3);
  const auto frames = h5::read_all<double>(id, "frame", H5T_NATIVE_DOUBLE, 3);
  if (type.size() != n || bodies.size() != 2 * n || anchors.size() != 6 * n ||
      frames.size() != 8 * n)
    throw Failure("/joints: expected " + std::to_string(n) +
                  " rows in type, bodies [J,2], anchor [J,2,3] and frame [J,2,4]");
  std::vector<Joint> joints(n);
  for (std::size_t k = 0; k < n; ++k) {
    Joint& j = joints[k];
    j.name = names[k];
    if (type[k] < 0 || type[k] > static_cast<int>(JointType::Spherical))
      throw Failure("/joints/type: unknown joint type " + std::to_string(type[k]));
    j.type = static_cast<JointType>(type[k]);
    j.body_a = bodies[2 * k];
    j.body_b = bodies[2 * k + 1];
    const double* a = &anchors[6 * k];
    j.anchor_a = Vec3(a[0], a[1], a[2]);
    j.anchor_b = Vec3(a[3], a[4], a[5]);
    const double* f = &frames[8 * k];
    j.frame_a = Quat(f[0], f[1], f[2], f[3]);
    j.frame_b = Quat(f[4], f[5], f[6], f[7]);
  }
  // Added within version 1: files without them have no limits and no damping.
  if (H5Lexists(id, "limits", H5P_DEFAULT) > 0 && H5Lexists(id, "damping", H5P_DEFAULT) > 0) {
    const auto limits = h5::read_all<double>(id, "limits", H5T_NATIVE_DOUBLE, 2);
    const auto damping = h5::read_all<double>(id, "damping", H5T_NATIVE_DOUBLE, 2);
    if (limits.size() != 4 * n || damping.size() != 2 * n)
      throw Failure("/joints: expected limits [J,4] and damping [J,2] for " + std::to_string(n) +
                    " joints");
    for (std::size_t k = 0; k < n; ++k) {
      joints[k].angle_limit = {limits[4 * k], limits[4 * k + 1]};
      joints[k].displacement_limit = {limits[4 * k + 2], limits[4 * k + 3]};
      joints[k].angular_damping = damping[2 * k];
      joints[k].linear_damping = damping[2 * k + 1];
    }
  }
  // Added within version 1: files without it measure every angle from where the frames meet.
  if (H5Lexists(id, "angle_offset", H5P_DEFAULT) > 0) {
    const auto offset = h5::read_all<double>(id, "angle_offset", H5T_NATIVE_DOUBLE, 1);
    if (offset.size() != n)
      throw Failure("/joints/angle_offset: expected " + std::to_string(n) + " values");
    for (std::size_t k = 0; k < n; ++k) joints[k].angle_offset = offset[k];
  }
  H5Eclear2(H5E_DEFAULT);
  return joints;
}

// /joint_drives: one row per implicit PD drive; the target's parameters as in Trajectory, the
// waypoints of drive d in rows [waypoint_start[d], waypoint_start[d + 1]) of `waypoints`.
void write_joint_drives(hid_t file, const std::vector<PdJointSpec>& drives) {
  if (drives.empty()) return;
  h5::Handle g = make_group(file, "/joint_drives");
  const hid_t id = g.get();
  const hsize_t n = drives.size();
  std::vector<std::int32_t> joint;
  std::vector<std::int8_t> coordinate, kind;
  std::vector<double> gains, target, waypoints;
  std::vector<std::int64_t> start{0};
  for (const PdJointSpec& d : drives) {
    joint.push_back(d.joint);
    coordinate.push_back(d.displacement ? 1 : 0);
    gains.insert(gains.end(), {d.kp, d.kd});
    const Trajectory& t = d.target;
    kind.push_back(static_cast<std::int8_t>(t.kind));
    target.insert(target.end(), {t.value, t.offset, t.amplitude, t.angular_frequency, t.phase});
    for (const auto& [time, value] : t.waypoints) waypoints.insert(waypoints.end(), {time, value});
    start.push_back(static_cast<std::int64_t>(waypoints.size() / 2));
  }
  const hsize_t w = waypoints.size() / 2;
  h5::write_dataset(id, "joint", H5T_NATIVE_INT32, H5T_STD_I32LE, {n}, joint.data());
  h5::write_dataset(id, "coordinate", H5T_NATIVE_INT8, H5T_STD_I8LE, {n}, coordinate.data());
  h5::write_dataset(id, "gains", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {n, 2}, gains.data());
  h5::write_dataset(id, "target_kind", H5T_NATIVE_INT8, H5T_STD_I8LE, {n}, kind.data());
  h5::write_dataset(id, "target", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {n, 5}, target.data());
  h5::write_dataset(id, "waypoint_start", H5T_NATIVE_INT64, H5T_STD_I64LE, {n + 1}, start.data());
  h5::write_dataset(id, "waypoints", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {w, 2}, waypoints.data());
}

std::vector<PdJointSpec> read_joint_drives(hid_t file) {
  if (H5Lexists(file, "/joint_drives", H5P_DEFAULT) <= 0) {
    H5Eclear2(H5E_DEFAULT);
    return {};
  }
  h5::Handle g = open_group(file, "/joint_drives");
  const hid_t id = g.get();
  const auto joint = h5::read_all<std::int32_t>(id, "joint", H5T_NATIVE_INT32, 1);
  const auto coordinate = h5::read_all<std::int8_t>(id, "coordinate", H5T_NATIVE_INT8, 1);
  const auto gains = h5::read_all<double>(id, "gains", H5T_NATIVE_DOUBLE, 2);
  const auto kind = h5::read_all<std::int8_t>(id, "target_kind", H5T_NATIVE_INT8, 1);
  const auto target = h5::read_all<double>(id, "target", H5T_NATIVE_DOUBLE, 2);
  const auto start = h5::read_all<std::int64_t>(id, "waypoint_start", H5T_NATIVE_INT64, 1);
  const auto waypoints = h5::read_all<double>(id, "waypoints", H5T_NATIVE_DOUBLE, 2);
  const std::size_t n = joint.size();
  if (coordinate.size() != n || gains.size() != 2 * n || kind.size() != n ||
      target.size() != 5 * n || start.size() != n + 1)
    throw Failure("/joint_drives: expected " + std::to_string(n) +
                  " rows in coordinate, gains [D,2], target_kind, target [D,5] and " +
                  std::to_string(n + 1) + " in waypoint_start");
  std::vector<PdJointSpec> drives(n);
  for (std::size_t k = 0; k < n; ++k) {
    PdJointSpec& d = drives[k];
    d.joint = joint[k];
    d.displacement = coordinate[k] == 1;
    d.kp = gains[2 * k];
    d.kd = gains[2 * k + 1];
    d.implicit = true;
    if (!(d.kp >= 0.0) || !(d.kd >= 0.0))
      throw Failure("/joint_drives/gains: expected gains >= 0 in row " + std::to_string(k));
    if (kind[k] < 0 || kind[k] > static_cast<int>(Trajectory::Kind::Waypoints))
      throw Failure("/joint_drives/target_kind: unknown kind " + std::to_string(kind[k]));
    Trajectory& t = d.target;
    t.kind = static_cast<Trajectory::Kind>(kind[k]);
    const double* p = &target[5 * k];
    t.value = p[0], t.offset = p[1], t.amplitude = p[2], t.angular_frequency = p[3], t.phase = p[4];
    if (start[k] < 0 || start[k] > start[k + 1] ||
        static_cast<std::size_t>(2 * start[k + 1]) > waypoints.size())
      throw Failure("/joint_drives/waypoint_start: rows " + std::to_string(k) + " and " +
                    std::to_string(k + 1) + " do not bound a range of /joint_drives/waypoints");
    for (std::int64_t r = start[k]; r < start[k + 1]; ++r)
      t.waypoints.emplace_back(waypoints[2 * r], waypoints[2 * r + 1]);
  }
  H5Eclear2(H5E_DEFAULT);
  return drives;
}

}  // namespace

void write_run_header(hid_t file, const RunHeader& h) {
  h5::write_attribute(file, "format", std::string(run_layout::kFormatName));
  h5::write_attribute(file, "format_version", std::int64_t{run_layout::kFormatVersion});
  h5::write_attribute(file, "program", h.program);
  h5::write_attribute(file, "created", h.created);
  h5::write_attribute(file, "scene_name", h.scene_name);
  h5::write_attribute(file, "dimension", std::int64_t{h.dimension});
  {
    h5::Handle g = make_group(file, "/scene");
    h5::write_string_dataset(g.get(), "source", h.scene_json);
    h5::write_attribute(g.get(), "directory", h.scene_directory);
  }
  write_settings(file, h.settings);
  write_bodies(file, h.bodies);
  write_joints(file, h.joints);
  write_joint_drives(file, h.drives);
}

RunHeader read_run_header(hid_t file) {
  RunHeader h;
  if (!h5::has_attribute(file, "format") ||
      h5::read_string_attribute(file, "format") != run_layout::kFormatName)
    throw Failure(std::string("not a pegsim run file (no attribute format = \"") +
                  run_layout::kFormatName + "\" on /)");
  h.format_version = static_cast<int>(h5::read_int_attribute(file, "format_version"));
  if (h.format_version != run_layout::kFormatVersion)
    throw Failure("format_version " + std::to_string(h.format_version) + ", expected " +
                  std::to_string(run_layout::kFormatVersion) +
                  " (written by a different pegsim version)");
  h.program = h5::read_string_attribute(file, "program");
  h.created = h5::read_string_attribute(file, "created");
  h.scene_name = h5::read_string_attribute(file, "scene_name");
  if (h5::has_attribute(file, "dimension")) {
    h.dimension = static_cast<int>(h5::read_int_attribute(file, "dimension"));
    if (h.dimension != 2 && h.dimension != 3)
      throw Failure("dimension " + std::to_string(h.dimension) + ": expected 2 or 3");
  }
  {
    h5::Handle g = open_group(file, "/scene");
    h.scene_json = h5::read_string_dataset(g.get(), "source");
    h.scene_directory = h5::read_string_attribute(g.get(), "directory");
  }
  h.settings = read_settings(file);
  h.bodies = read_bodies(file);
  // A damaged dimension would draw and replay 3D bodies as 2D ones (or the reverse).
  for (const RunBody& b : h.bodies) {
    auto planar = [](ShapeKind k) {
      return k == ShapeKind::Polygon || k == ShapeKind::Circle || k == ShapeKind::HalfPlane;
    };
    bool is_planar = planar(b.kind);
    if (b.kind == ShapeKind::Compound) is_planar = !b.parts.empty() && planar(b.parts.front().kind);
    if (is_planar != (h.dimension == 2))
      throw Failure("dimension " + std::to_string(h.dimension) + ", but body " + b.name + " is a " +
                    (is_planar ? "2D" : "3D") + " shape");
  }
  h.joints = read_joints(file);
  h.drives = read_joint_drives(file);
  return h;
}

}  // namespace pegsim
