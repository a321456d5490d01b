// Qt3D entities fed from plain vertex arrays: a flat-shaded mesh, and coloured lines or
// triangles whose buffers are replaced every frame (overlays, the ground grid).
#pragma once

#include <Qt3DCore/QEntity>
#include <Qt3DCore/QGeometry>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QMaterial>

#include "gui/render/mesh_data.hpp"

namespace pegsim::gui {

// A float attribute of `size` components per vertex (3: positions, normals, colours; 2: texture
// coordinates), tightly packed in `buffer`, added to `geometry`.
Qt3DCore::QAttribute* float_attribute(Qt3DCore::QBuffer* buffer, const QString& name, int size,
                                      int count, Qt3DCore::QGeometry* geometry);

// A geometry renderer for a FlatMesh (position + normal, and texture coordinates where it has
// them), to use with a lit material.
Qt3DRender::QGeometryRenderer* make_flat_mesh_renderer(const FlatMesh& mesh,
                                                       Qt3DCore::QNode* parent);

// Makes every pass of the material ignore the depth buffer (neither test nor write it) and
// draw both sides of its triangles: what it draws lies over whatever was drawn before it.
void draw_on_top(Qt3DRender::QMaterial* material);

// An entity drawing per-vertex coloured lines or triangles (unlit); set() replaces its data.
// On top: drawn over what was drawn before it (draw_on_top), as overlays are.
class ColoredEntity : public Qt3DCore::QEntity {
 public:
  enum class Kind { Lines, Triangles };
  ColoredEntity(Kind kind, Qt3DCore::QNode* parent, bool on_top = false);
  void set(const ColoredVertices& vertices);
  void clear();

 private:
  void count(int vertices);

  Qt3DCore::QBuffer* positions_;
  Qt3DCore::QBuffer* colors_;
  Qt3DCore::QAttribute* position_attr_;
  Qt3DCore::QAttribute* color_attr_;
  Qt3DCore::QBuffer* normals_;
  Qt3DCore::QAttribute* normal_attr_;
  Qt3DRender::QGeometryRenderer* renderer_;
  int count_ = -1;  // vertices drawn; -1 before the first set
};

}  // namespace pegsim::gui
