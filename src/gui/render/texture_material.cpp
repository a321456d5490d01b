#include "gui/render/texture_material.hpp"

#include <QPainter>
#include <Qt3DExtras/QDiffuseMapMaterial>
#include <Qt3DRender/QPaintedTextureImage>
#include <Qt3DRender/QTexture>

namespace pegsim::gui {
namespace {

// An image already in memory, handed to Qt3D by painting it.
class ImageInMemory : public Qt3DRender::QPaintedTextureImage {
 public:
  ImageInMemory(QImage image, Qt3DCore::QNode* parent)
      : Qt3DRender::QPaintedTextureImage(parent), image_(std::move(image)) {
    setSize(image_.size());
  }

 protected:
  void paint(QPainter* painter) override { painter->drawImage(0, 0, image_); }

 private:
  QImage image_;
};

}  // namespace

QImage decode_texture(const VisualTexture& texture) {
  return QImage::fromData(texture.encoded.data(), int(texture.encoded.size()));
}

Qt3DRender::QMaterial* make_texture_material(const QImage& image, Qt3DCore::QNode* parent) {
  auto* material = new Qt3DExtras::QDiffuseMapMaterial(parent);
  auto* texture = new Qt3DRender::QTexture2D(material);
  // Row 0 of a QImage is its top; texture coordinate v = 0 is the image's bottom row.
  texture->addTextureImage(new ImageInMemory(
      image.convertToFormat(QImage::Format_RGBA8888).mirrored(false, true), texture));
  texture->setMinificationFilter(Qt3DRender::QAbstractTexture::Linear);
  texture->setMagnificationFilter(Qt3DRender::QAbstractTexture::Linear);
  Qt3DRender::QTextureWrapMode repeat(Qt3DRender::QTextureWrapMode::Repeat);
  texture->setWrapMode(repeat);
  material->setDiffuse(texture);
  material->setAmbient(QColor(60, 60, 60));
  material->setSpecular(QColor(40, 40, 40));
  material->setShininess(20.0f);
  return material;
}

}  // namespace pegsim::gui
