// Topology of a convex polyhedron from its vertices and CCW faces (thesis §3.1).
#include "engine/geometry/polytope.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

namespace pegsim {
namespace {

std::string edge_name(int a, int b) {
  return std::to_string(a) + "-" + std::to_string(b);
}

// Newell's method: robust normal of a (possibly slightly non-planar) polygon, scaled by
// twice its area.
Vec3 newell_normal(const std::vector<Vec3>& v, const std::vector<int>& face) {
  Vec3 n = Vec3::Zero();
  for (std::size_t i = 0; i < face.size(); ++i)
    n += v[face[i]].cross(v[face[(i + 1) % face.size()]]);
  return n;
}

void check_face_indices(const std::vector<Vec3>& vertices, const std::vector<int>& face,
                        std::size_t f) {
  if (face.size() < 3)
    throw GeometryError("face " + std::to_string(f) + " has " + std::to_string(face.size()) +
                        " vertices, expected at least 3");
  for (int i : face)
    if (i < 0 || i >= static_cast<int>(vertices.size()))
      throw GeometryError("face " + std::to_string(f) + " refers to vertex " + std::to_string(i) +
                          ", expected an index in [0, " + std::to_string(vertices.size()) + ")");
  std::vector<int> sorted = face;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    throw GeometryError("face " + std::to_string(f) + " repeats a vertex");
}

// Every undirected edge must be used exactly twice, once in each direction: that makes the
// surface closed, 2-manifold and consistently oriented.
void build_edges(Polytope& p) {
  std::map<std::pair<int, int>, int> index;  // (min, max) -> edge
  for (std::size_t f = 0; f < p.faces.size(); ++f) {
    const auto& fv = p.faces[f].vertices;
    for (std::size_t i = 0; i < fv.size(); ++i) {
      const int u = fv[i], w = fv[(i + 1) % fv.size()];
      const auto key = std::minmax(u, w);
      auto it = index.find(key);
      if (it == index.end()) {
        index.emplace(key, static_cast<int>(p.edges.size()));
        p.edges.push_back({u, w, static_cast<int>(f), -1});
        continue;
      }
      Polytope::Edge& e = p.edges[it->second];
      if (e.face_right != -1)
        throw GeometryError("edge " + edge_name(u, w) + " belongs to more than 2 faces");
      if (e.tail == u)
        throw GeometryError("edge " + edge_name(u, w) +
                            " runs the same way in two faces: faces are not consistently "
                            "oriented (expected counter-clockwise seen from outside)");
      e.face_right = static_cast<int>(f);
    }
  }
  for (const Polytope::Edge& e : p.edges)
    if (e.face_right == -1)
      throw GeometryError("edge " + edge_name(e.tail, e.head) +
                          " belongs to only one face: the mesh is not closed");
}

void build_adjacency(Polytope& p) {
  const std::size_t n = p.vertices.size();
  p.vertex_neighbours.assign(n, {});
  p.vertex_faces.assign(n, {});
  p.vertex_edges.assign(n, {});
  for (std::size_t e = 0; e < p.edges.size(); ++e) {
    const auto& edge = p.edges[e];
    p.vertex_neighbours[edge.tail].push_back(edge.head);
    p.vertex_neighbours[edge.head].push_back(edge.tail);
    p.vertex_edges[edge.tail].push_back(static_cast<int>(e));
    p.vertex_edges[edge.head].push_back(static_cast<int>(e));
  }
  for (std::size_t f = 0; f < p.faces.size(); ++f)
    for (int v : p.faces[f].vertices) p.vertex_faces[v].push_back(static_cast<int>(f));
  for (std::size_t v = 0; v < n; ++v)
    if (p.vertex_faces[v].empty())
      throw GeometryError("vertex " + std::to_string(v) + " belongs to no face");
}

void update_planes(Polytope& p) {
  for (std::size_t f = 0; f < p.faces.size(); ++f) {
    Polytope::Face& face = p.faces[f];
    const Vec3 n = newell_normal(p.vertices, face.vertices);
    if (!(n.norm() > 0.0)) throw GeometryError("face " + std::to_string(f) + " has zero area");
    face.normal = n.normalized();
    Vec3 centre = Vec3::Zero();
    for (int v : face.vertices) centre += p.vertices[v];
    face.offset = face.normal.dot(centre / static_cast<double>(face.vertices.size()));
  }
  p.bounding_radius = 0.0;
  for (const Vec3& v : p.vertices) p.bounding_radius = std::max(p.bounding_radius, v.norm());
}

// Convex and outward oriented: every vertex on or behind every face plane. Planar faces: every
// face vertex on its own plane. Both to a tolerance relative to the size of the body.
void check_convex(const Polytope& p) {
  double size = 0.0;
  for (const Vec3& v : p.vertices) size = std::max(size, v.lpNorm<Eigen::Infinity>());
  const double tol = 1e-9 * std::max(size, 1e-300);
  for (std::size_t f = 0; f < p.faces.size(); ++f) {
    const Polytope::Face& face = p.faces[f];
    for (int v : face.vertices)
      if (std::abs(face.normal.dot(p.vertices[v]) - face.offset) > tol)
        throw GeometryError("face " + std::to_string(f) + " is not planar (vertex " +
                            std::to_string(v) + " is off its plane)");
    for (std::size_t v = 0; v < p.vertices.size(); ++v)
      if (face.normal.dot(p.vertices[v]) - face.offset > tol)
        throw GeometryError("vertex " + std::to_string(v) + " lies in front of face " +
                            std::to_string(f) +
                            ": the polytope is not convex or its faces are not outward "
                            "(expected counter-clockwise seen from outside)");
  }
}

}  // namespace

Polytope make_polytope(std::vector<Vec3> vertices, std::vector<std::vector<int>> faces) {
  if (vertices.size() < 4) throw GeometryError("expected at least 4 vertices");
  if (faces.size() < 4) throw GeometryError("expected at least 4 faces");
  for (std::size_t i = 0; i < vertices.size(); ++i)
    if (!vertices[i].allFinite())
      throw GeometryError("vertex " + std::to_string(i) + " is not finite");
  Polytope p;
  p.vertices = std::move(vertices);
  p.faces.resize(faces.size());
  for (std::size_t f = 0; f < faces.size(); ++f) {
    check_face_indices(p.vertices, faces[f], f);
    p.faces[f].vertices = std::move(faces[f]);
  }
  build_edges(p);
  build_adjacency(p);
  // Euler's formula V - E + F = 2 holds for every closed genus-0 surface.
  const long euler = static_cast<long>(p.vertices.size()) - static_cast<long>(p.edges.size()) +
                     static_cast<long>(p.faces.size());
  if (euler != 2)
    throw GeometryError("V - E + F = " + std::to_string(euler) +
                        ", expected 2 for a closed convex polyhedron");
  update_planes(p);
  check_convex(p);
  return p;
}

void translate(Polytope& p, const Vec3& offset) {
  for (Vec3& v : p.vertices) v -= offset;
  update_planes(p);
}

}  // namespace pegsim
