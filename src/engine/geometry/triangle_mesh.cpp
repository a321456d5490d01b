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

MassProperties mesh_mass_properties(const TriangleMesh& mesh) {
  return mesh_mass_properties(std::vector<TriangleMesh>{mesh});
}

MassProperties mesh_mass_properties(const std::vector<TriangleMesh>& meshes) {
  Vec3 apex = Vec3::Zero();  // a vertex of the object
  for (const TriangleMesh& m : meshes)
    if (!m.vertices.empty()) {
      apex = m.vertices.front();
      break;
    }
  TetrahedralMoments m(apex);
  for (const TriangleMesh& mesh : meshes)
    for (const auto& t : mesh.triangles)
      m.add(mesh.vertices[std::size_t(t[0])], mesh.vertices[std::size_t(t[1])],
            mesh.vertices[std::size_t(t[2])]);
  return m.properties();
}

}  // namespace pegsim
