#include "engine/geometry/triangle_mesh.hpp"

#include <algorithm>
#include <utility>

namespace pegsim {

MeshClosure mesh_closure(const TriangleMesh& mesh) {
  // Directed edges (from, to), sorted: an undirected edge is the run of its two directions.
  std::vector<std::pair<int, int>> edges;
  edges.reserve(3 * mesh.triangles.size());
  for (const auto& t : mesh.triangles)
    for (int k = 0; k < 3; ++k) edges.emplace_back(t[k], t[(k + 1) % 3]);
  std::vector<std::pair<int, int>> undirected(edges.size());
  std::transform(edges.begin(), edges.end(), undirected.begin(), [](const auto& e) {
    return std::make_pair(std::min(e.first, e.second), std::max(e.first, e.second));
  });
  std::vector<std::size_t> order(edges.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return undirected[a] < undirected[b]; });
  MeshClosure c;
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j < order.size() && undirected[order[j]] == undirected[order[i]]) ++j;
    const std::size_t count = j - i;
    if (count == 1) ++c.open_edges;
    if (count > 2) ++c.shared_edges;
    if (count == 2 && edges[order[i]] == edges[order[i + 1]]) ++c.misoriented_edges;
    i = j;
  }
  return c;
}

namespace {

struct Moments {
  double volume = 0.0;
  Vec3 first = Vec3::Zero();   // int (x - r) dV
  Mat3 second = Mat3::Zero();  // int (x - r)(x - r)^T dV
};

// The tetrahedra (r, a, b, c): second moment det(A) A C A^T, C = (1/120)[[2,1,1],[1,2,1],[1,1,2]].
void add_moments(const TriangleMesh& mesh, const Vec3& r, Moments& m) {
  Mat3 canonical;
  canonical << 2, 1, 1, 1, 2, 1, 1, 1, 2;
  canonical /= 120.0;
  for (const auto& t : mesh.triangles) {
    Mat3 A;
    for (int k = 0; k < 3; ++k) A.col(k) = mesh.vertices[std::size_t(t[k])] - r;
    const double det = A.determinant();
    m.volume += det / 6.0;
    m.first += det / 24.0 * (A.col(0) + A.col(1) + A.col(2));
    m.second += det * A * canonical * A.transpose();
  }
}

MassProperties from_moments(const Moments& m, const Vec3& r) {
  MassProperties out;
  out.volume = m.volume;
  const Vec3 c = m.first / m.volume;
  out.centroid = r + c;
  const Mat3 about_centroid = m.second - m.volume * c * c.transpose();
  out.inertia = about_centroid.trace() * Mat3::Identity() - about_centroid;
  out.inertia = 0.5 * (out.inertia + out.inertia.transpose());
  return out;
}

}  // namespace

MassProperties mesh_mass_properties(const TriangleMesh& mesh) {
  return mesh_mass_properties(std::vector<TriangleMesh>{mesh});
}

MassProperties mesh_mass_properties(const std::vector<TriangleMesh>& meshes) {
  Vec3 r = Vec3::Zero();  // a vertex of the object: reduces cancellation against the origin
  for (const TriangleMesh& m : meshes)
    if (!m.vertices.empty()) {
      r = m.vertices.front();
      break;
    }
  Moments m;
  for (const TriangleMesh& mesh : meshes) add_moments(mesh, r, m);
  return from_moments(m, r);
}

}  // namespace pegsim
