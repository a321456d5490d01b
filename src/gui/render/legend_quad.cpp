#include "gui/render/legend_quad.hpp"

#include <QPainter>
#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QGeometry>
#include <Qt3DExtras/QTextureMaterial>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QPaintedTextureImage>
#include <Qt3DRender/QTexture>
#include <array>

#include "gui/render/qt3d_buffers.hpp"

namespace pegsim::gui {

class ImageTexture : public Qt3DRender::QPaintedTextureImage {
 public:
  using QPaintedTextureImage::QPaintedTextureImage;
  void setImage(const QImage& image) {
    image_ = image;
    setSize(image.size());
    update();
  }

 protected:
  void paint(QPainter* painter) override {
    painter->setCompositionMode(QPainter::CompositionMode_Source);
    painter->drawImage(0, 0, image_);
  }

 private:
  QImage image_;
};

namespace {

// Two triangles over the corners top-left, top-right, bottom-right, bottom-left.
constexpr std::array<int, 6> kCorners{0, 1, 2, 0, 2, 3};

}  // namespace

LegendQuad::LegendQuad(Qt3DCore::QNode* parent) : Qt3DCore::QEntity(parent) {
  auto* renderer = new Qt3DRender::QGeometryRenderer(this);
  auto* geometry = new Qt3DCore::QGeometry(renderer);
  positions_ = new Qt3DCore::QBuffer(geometry);
  positions_->setData(QByteArray(6 * 3 * sizeof(float), '\0'));
  auto* uv = new Qt3DCore::QBuffer(geometry);
  // The image's first row is the texture's t = 0: the top corners get t = 0.
  const float corner_uv[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  std::array<float, 12> uvs{};
  for (std::size_t k = 0; k < 6; ++k) {
    uvs[2 * k] = corner_uv[kCorners[k]][0];
    uvs[2 * k + 1] = corner_uv[kCorners[k]][1];
  }
  uv->setData(QByteArray(reinterpret_cast<const char*>(uvs.data()), sizeof uvs));
  float_attribute(positions_, Qt3DCore::QAttribute::defaultPositionAttributeName(), 3, 6, geometry);
  float_attribute(uv, Qt3DCore::QAttribute::defaultTextureCoordinateAttributeName(), 2, 6,
                  geometry);
  renderer->setGeometry(geometry);
  renderer->setPrimitiveType(Qt3DRender::QGeometryRenderer::Triangles);
  renderer->setVertexCount(6);
  addComponent(renderer);

  auto* texture = new Qt3DRender::QTexture2D(this);
  texture->setMinificationFilter(Qt3DRender::QAbstractTexture::Nearest);
  texture->setMagnificationFilter(Qt3DRender::QAbstractTexture::Nearest);
  texture_image_ = new ImageTexture(texture);
  // Never an empty texture: Qt3D's RHI renderer crashes on a texture image of no size.
  QImage pixel(1, 1, QImage::Format_ARGB32);
  pixel.fill(Qt::transparent);
  texture_image_->setImage(pixel);
  texture->addTextureImage(texture_image_);
  auto* material = new Qt3DExtras::QTextureMaterial(this);
  material->setTexture(texture);
  draw_on_top(material);
  addComponent(material);
  setEnabled(false);
}

void LegendQuad::setImage(const QImage& image) {
  size_ = image.isNull() ? QSize() : image.size();
  if (!image.isNull()) texture_image_->setImage(image);
  setEnabled(!image.isNull());
}

void LegendQuad::place(const OrbitCamera& camera, QSize viewport, bool orthographic,
                       QPoint top_left) {
  if (size_.isEmpty() || viewport.width() <= 0 || viewport.height() <= 0) return;
  const double w = viewport.width(), h = viewport.height();
  const QPoint corner[4] = {top_left, top_left + QPoint(size_.width(), 0),
                            top_left + QPoint(size_.width(), size_.height()),
                            top_left + QPoint(0, size_.height())};
  std::array<float, 18> xyz{};
  for (std::size_t k = 0; k < 6; ++k) {
    const QPoint& c = corner[kCorners[k]];
    // The pixel edge's ray, met at the target's depth (within the lens' near and far planes).
    const OrbitCamera::Ray ray =
        camera.ray(2.0 * c.x() / w - 1.0, 1.0 - 2.0 * c.y() / h, w / h, orthographic);
    const Vec3 p = ray.origin + ray.dir * (camera.distance / ray.dir.dot(camera.forward()));
    for (int i = 0; i < 3; ++i) xyz[3 * k + std::size_t(i)] = float(p(i));
  }
  positions_->setData(QByteArray(reinterpret_cast<const char*>(xyz.data()), sizeof xyz));
}

}  // namespace pegsim::gui
