// libFuzzer target: .poly meshes (io/poly_file.hpp). Promise under test: any bytes either give
// a closed convex polytope with a consistent topology, or are refused with one SceneError.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

#include "engine/core/shape.hpp"
#include "input_file.hpp"
#include "io/poly_file.hpp"
#include "io/scene.hpp"

namespace {

// The topology the contact code indexes without checks: every index in range, Euler's formula
// V - E + F = 2 of a closed convex surface, unit outward normals, every vertex behind every face.
std::string topology_defect(const pegsim::Polytope& p) {
  const int nv = static_cast<int>(p.vertices.size());
  const int ne = static_cast<int>(p.edges.size());
  const int nf = static_cast<int>(p.faces.size());
  if (nv < 4 || nf < 4) return "fewer than 4 vertices or faces";
  if (nv - ne + nf != 2) return "V - E + F != 2";
  for (const auto& e : p.edges)
    if (e.tail < 0 || e.tail >= nv || e.head < 0 || e.head >= nv || e.face_left < 0 ||
        e.face_left >= nf || e.face_right < 0 || e.face_right >= nf)
      return "an edge index out of range";
  double scale = 0.0;
  for (const auto& v : p.vertices) {
    if (!v.allFinite()) return "a non-finite vertex";
    scale = std::max(scale, v.norm());
  }
  for (const auto& f : p.faces) {
    if (f.vertices.size() < 3) return "a face of fewer than 3 vertices";
    if (!f.normal.allFinite() || std::abs(f.normal.norm() - 1.0) > 1e-9)
      return "a face normal that is not a unit vector";
    for (int v : f.vertices)
      if (v < 0 || v >= nv) return "a face vertex out of range";
    for (const auto& v : p.vertices)
      if (f.normal.dot(v) - f.offset > 1e-6 * (1.0 + scale)) return "a vertex outside a face";
  }
  if (static_cast<int>(p.vertex_neighbours.size()) != nv ||
      static_cast<int>(p.vertex_faces.size()) != nv ||
      static_cast<int>(p.vertex_edges.size()) != nv)
    return "per-vertex lists of the wrong size";
  return {};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pegsim;
  static const std::filesystem::path file = fuzz::input_path(".poly");
  fuzz::write_input(file, data, size);
  try {
    const Polytope p = read_poly_file(file);
    if (const std::string why = topology_defect(p); !why.empty())
      fuzz::defect("read_poly_file returned a polytope with " + why);
  } catch (const SceneError&) {
    return 0;
  } catch (const std::exception& e) {
    fuzz::defect(std::string("read_poly_file threw a non-SceneError: ") + e.what());
  }
  return 0;
}
