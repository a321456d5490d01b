// Triangle soups for the renderer: polytopes with flat per-face normals (faces are fanned,
// each vertex repeated per face so edges stay sharp), and a Sketch's segments as lines.
#pragma once

#include <vector>

#include "engine/core/shape.hpp"
#include "engine/core/visual_mesh.hpp"
#include "gui/render/sketch.hpp"

namespace pegsim::gui {

struct FlatMesh {
  std::vector<float> positions;  // xyz per vertex, 3 vertices per triangle
  std::vector<float> normals;    // xyz per vertex: the face normal
  std::vector<float> uv;         // (u, v) per vertex for a textured part; empty: none
  int vertex_count() const { return int(positions.size() / 3); }
};

FlatMesh flat_mesh(const Polytope& polytope);
// A model file's part as drawn: its corners, their normals and texture coordinates as given.
FlatMesh flat_mesh(const VisualMesh::Part& part);

// The polytope's feature edges (faces meeting at more than `min_angle` radians; a tessellated
// cylinder's sides are not outlined) as segments just outside its surface, so that drawn with
// a depth test they lie over the faces they bound and behind the faces that hide them.
Sketch feature_edges(const Polytope& polytope, const Rgb& color, double min_angle = 0.35);

// Vertex streams of coloured primitives: xyz positions and rgb colours, per vertex.
struct ColoredVertices {
  std::vector<float> positions;
  std::vector<float> colors;
  int vertex_count() const { return int(positions.size() / 3); }
  void add(const Vec3& p, const Rgb& c);
};

// Segments as one-pixel line pairs (the ground grid, planar bodies' edges; overlays are drawn
// by screen_triangles instead).
ColoredVertices sketch_lines(const Sketch& sketch);

}  // namespace pegsim::gui
