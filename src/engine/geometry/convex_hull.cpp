// Convex hull of a point set with qhull (reentrant library). qhull's default pre-merging
// (C-0) joins coplanar triangles into polygonal facets, so a hull of cube corners has 6 faces.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/geometry/builders.hpp"
#include "engine/geometry/polytope.hpp"
#include "engine/geometry/random_points.hpp"

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

namespace pegsim {
namespace {

// Owns one qhull run: its state and the stream that collects qhull's error text.
class QhullRun {
 public:
  QhullRun() {
    errors_ = open_memstream(&error_text_, &error_size_);
    qh_zero(&qh_, errors_);
  }
  ~QhullRun() {
    qh_freeqhull(&qh_, !qh_ALL);
    int curlong = 0, totlong = 0;
    qh_memfreeshort(&qh_, &curlong, &totlong);
    if (errors_) std::fclose(errors_);
    std::free(error_text_);
  }
  QhullRun(const QhullRun&) = delete;
  QhullRun& operator=(const QhullRun&) = delete;

  qhT* qh() { return &qh_; }
  FILE* errors() { return errors_; }
  std::string error_text() {
    if (errors_) std::fflush(errors_);
    std::string text = error_text_ ? std::string(error_text_, error_size_) : std::string();
    const auto end = text.find('\n');
    return end == std::string::npos ? text : text.substr(0, end);
  }

 private:
  qhT qh_;
  FILE* errors_ = nullptr;
  char* error_text_ = nullptr;
  std::size_t error_size_ = 0;
};

// Orders a facet's vertices counter-clockwise about its outward normal.
std::vector<int> ccw_order(const std::vector<Vec3>& points, std::vector<int> face,
                           const Vec3& normal) {
  Vec3 centre = Vec3::Zero();
  for (int i : face) centre += points[i];
  centre /= static_cast<double>(face.size());
  const Vec3 u = any_perpendicular(normal), w = normal.cross(u);
  auto angle = [&](int i) {
    const Vec3 d = points[i] - centre;
    return std::atan2(d.dot(w), d.dot(u));
  };
  std::sort(face.begin(), face.end(), [&](int a, int b) { return angle(a) < angle(b); });
  return face;
}

}  // namespace

Polytope make_convex_hull(const std::vector<Vec3>& points) {
  if (points.size() < 4)
    throw GeometryError("a convex hull needs at least 4 points, got " +
                        std::to_string(points.size()));
  std::vector<coordT> coords;
  coords.reserve(3 * points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!points[i].allFinite())
      throw GeometryError("hull point " + std::to_string(i) + " is not finite");
    coords.insert(coords.end(), {points[i].x(), points[i].y(), points[i].z()});
  }

  QhullRun run;
  qhT* qh = run.qh();
  char options[] = "qhull";
  const int status = qh_new_qhull(qh, 3, static_cast<int>(points.size()), coords.data(), False,
                                  options, nullptr, run.errors());
  if (status != 0)
    throw GeometryError("cannot build a convex hull (points coplanar or degenerate?): " +
                        run.error_text());

  // Compact the hull's vertices, then read every facet as a CCW polygon.
  std::vector<int> remap(points.size(), -1);
  std::vector<Vec3> vertices;
  std::vector<std::vector<int>> faces;
  facetT* facet;
  vertexT *vertex, **vertexp;
  FORALLfacets {
    std::vector<int> face;
    FOREACHvertex_(facet->vertices) {
      const int id = qh_pointid(qh, vertex->point);
      if (remap[id] < 0) {
        remap[id] = static_cast<int>(vertices.size());
        vertices.push_back(points[id]);
      }
      face.push_back(remap[id]);
    }
    const Vec3 normal(facet->normal[0], facet->normal[1], facet->normal[2]);
    faces.push_back(ccw_order(vertices, std::move(face), normal));
  }
  return make_polytope(std::move(vertices), std::move(faces));
}

Polytope make_random_polyhedron(std::uint64_t seed, int count, double extent) {
  if (count < 4) throw GeometryError("a random polyhedron needs at least 4 points");
  return make_convex_hull(random_points_3d(seed, count, extent));
}

}  // namespace pegsim
