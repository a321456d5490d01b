// An image shown pixel for pixel at a fixed place of the view (the legend): a textured quad
// kept facing the camera at the target's depth, drawn over everything, placed anew whenever
// the camera or the viewport changes. Being part of the 3D scene, it is in every capture.
#pragma once

#include <QImage>
#include <QPoint>
#include <QSize>
#include <Qt3DCore/QEntity>

#include "gui/render/orbit_camera.hpp"

namespace Qt3DCore {
class QBuffer;
}

namespace pegsim::gui {

class ImageTexture;

class LegendQuad : public Qt3DCore::QEntity {
 public:
  explicit LegendQuad(Qt3DCore::QNode* parent);
  // A null image hides the quad.
  void setImage(const QImage& image);
  QSize imageSize() const { return size_; }
  // The image's top-left pixel at window pixel `top_left` of a `viewport`-sized window.
  void place(const OrbitCamera& camera, QSize viewport, bool orthographic, QPoint top_left);

 private:
  ImageTexture* texture_image_;
  Qt3DCore::QBuffer* positions_;
  QSize size_;
};

}  // namespace pegsim::gui
