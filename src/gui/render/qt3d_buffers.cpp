#include "gui/render/qt3d_buffers.hpp"

#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QBuffer>
#include <Qt3DExtras/QPerVertexColorMaterial>
#include <Qt3DRender/QCullFace>
#include <Qt3DRender/QDepthTest>
#include <Qt3DRender/QEffect>
#include <Qt3DRender/QNoDepthMask>
#include <Qt3DRender/QRenderPass>
#include <Qt3DRender/QTechnique>

#include <cmath>

namespace pegsim::gui {

namespace {

QByteArray bytes(const std::vector<float>& v) {
  return QByteArray(reinterpret_cast<const char*>(v.data()), qsizetype(v.size() * sizeof(float)));
}

Qt3DCore::QAttribute* vec3_attribute(Qt3DCore::QBuffer* buffer, const QString& name, int count,
                                     Qt3DCore::QGeometry* geometry) {
  return float_attribute(buffer, name, 3, count, geometry);
}

}  // namespace

Qt3DRender::QGeometryRenderer* make_flat_mesh_renderer(const FlatMesh& mesh,
                                                       Qt3DCore::QNode* parent) {
  auto* renderer = new Qt3DRender::QGeometryRenderer(parent);
  auto* geometry = new Qt3DCore::QGeometry(renderer);
  auto* pos = new Qt3DCore::QBuffer(geometry);
  pos->setData(bytes(mesh.positions));
  auto* nrm = new Qt3DCore::QBuffer(geometry);
  nrm->setData(bytes(mesh.normals));
  vec3_attribute(pos, Qt3DCore::QAttribute::defaultPositionAttributeName(), mesh.vertex_count(),
                 geometry);
  vec3_attribute(nrm, Qt3DCore::QAttribute::defaultNormalAttributeName(), mesh.vertex_count(),
                 geometry);
  if (!mesh.uv.empty()) {
    auto* uv = new Qt3DCore::QBuffer(geometry);
    uv->setData(bytes(mesh.uv));
    float_attribute(uv, Qt3DCore::QAttribute::defaultTextureCoordinateAttributeName(), 2,
                    mesh.vertex_count(), geometry);
  }
  renderer->setGeometry(geometry);
  renderer->setPrimitiveType(Qt3DRender::QGeometryRenderer::Triangles);
  renderer->setVertexCount(mesh.vertex_count());
  return renderer;
}

Qt3DCore::QAttribute* float_attribute(Qt3DCore::QBuffer* buffer, const QString& name, int size,
                                      int count, Qt3DCore::QGeometry* geometry) {
  auto* a = new Qt3DCore::QAttribute(geometry);
  a->setName(name);
  a->setAttributeType(Qt3DCore::QAttribute::VertexAttribute);
  a->setVertexBaseType(Qt3DCore::QAttribute::Float);
  a->setVertexSize(uint(size));
  a->setByteStride(uint(size) * sizeof(float));
  a->setBuffer(buffer);
  a->setCount(uint(count));
  geometry->addAttribute(a);
  return a;
}

void draw_on_top(Qt3DRender::QMaterial* material) {
  for (Qt3DRender::QTechnique* technique : material->effect()->techniques())
    for (Qt3DRender::QRenderPass* pass : technique->renderPasses()) {
      auto* always = new Qt3DRender::QDepthTest(pass);
      always->setDepthFunction(Qt3DRender::QDepthTest::Always);
      pass->addRenderState(always);
      pass->addRenderState(new Qt3DRender::QNoDepthMask(pass));
      // Flat shapes facing the viewer either way round: none is a back face.
      auto* both_sides = new Qt3DRender::QCullFace(pass);
      both_sides->setMode(Qt3DRender::QCullFace::NoCulling);
      pass->addRenderState(both_sides);
    }
}

ColoredEntity::ColoredEntity(Kind kind, Qt3DCore::QNode* parent, bool on_top)
    : Qt3DCore::QEntity(parent) {
  renderer_ = new Qt3DRender::QGeometryRenderer(this);
  auto* geometry = new Qt3DCore::QGeometry(renderer_);
  positions_ = new Qt3DCore::QBuffer(geometry);
  colors_ = new Qt3DCore::QBuffer(geometry);
  position_attr_ =
      vec3_attribute(positions_, Qt3DCore::QAttribute::defaultPositionAttributeName(), 0, geometry);
  color_attr_ =
      vec3_attribute(colors_, Qt3DCore::QAttribute::defaultColorAttributeName(), 0, geometry);
  normals_ = new Qt3DCore::QBuffer(geometry);
  normal_attr_ =
      vec3_attribute(normals_, Qt3DCore::QAttribute::defaultNormalAttributeName(), 0, geometry);
  renderer_->setGeometry(geometry);
  renderer_->setPrimitiveType(kind == Kind::Lines ? Qt3DRender::QGeometryRenderer::Lines
                                                  : Qt3DRender::QGeometryRenderer::Triangles);
  addComponent(renderer_);
  auto* material = new Qt3DExtras::QPerVertexColorMaterial(this);
  if (on_top) draw_on_top(material);
  addComponent(material);
  clear();
}

void ColoredEntity::set(const ColoredVertices& v) {
  if (v.vertex_count() == 0) {
    clear();
    return;
  }
  positions_->setData(bytes(v.positions));
  // Qt3D's per-vertex colour material is lit, c (1 + diffuse), and its RHI shader then draws
  // c as c squared (measured: 0.55 comes out as 77 of 255). Normals facing away from every
  // light (they all shine downwards) make the diffuse term zero, and the square root of a
  // colour comes out as the colour asked for, the one the legend shows.
  std::vector<float> shown(v.colors.size());
  for (std::size_t k = 0; k < shown.size(); ++k) shown[k] = std::sqrt(v.colors[k]);
  colors_->setData(bytes(shown));
  std::vector<float> down(v.positions.size(), 0.0f);
  for (std::size_t k = 2; k < down.size(); k += 3) down[k] = -1.0f;
  normals_->setData(bytes(down));
  count(v.vertex_count());
}

void ColoredEntity::clear() {
  // A disabled overlay stays empty frame after frame: no upload for it.
  if (count_ == 0) return;
  // An empty buffer makes the backend warn on every frame: keep one unused vertex instead.
  static const std::vector<float> kPlaceholder(3, 0.0f);
  positions_->setData(bytes(kPlaceholder));
  colors_->setData(bytes(kPlaceholder));
  normals_->setData(bytes(kPlaceholder));
  count(0);
}

void ColoredEntity::count(int vertices) {
  count_ = vertices;
  position_attr_->setCount(uint(vertices));
  color_attr_->setCount(uint(vertices));
  normal_attr_->setCount(uint(vertices));
  renderer_->setVertexCount(vertices);
  setEnabled(vertices > 0);  // an empty draw call is skipped altogether
}

}  // namespace pegsim::gui
