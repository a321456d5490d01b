#include "gui/render/scene_view.hpp"

#include <QEvent>
#include <QMouseEvent>
#include <QSurfaceFormat>
#include <QTimer>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <Qt3DCore/QEntity>
#include <Qt3DCore/QTransform>
#include <Qt3DExtras/QForwardRenderer>
#include <Qt3DExtras/QPhongAlphaMaterial>
#include <Qt3DExtras/QPhongMaterial>
#include <Qt3DExtras/QSphereMesh>
#include <Qt3DExtras/Qt3DWindow>
#include <Qt3DLogic/QFrameAction>
#include <Qt3DRender/QCamera>
#include <Qt3DRender/QCameraLens>
#include <Qt3DRender/QCameraSelector>
#include <Qt3DRender/QClearBuffers>
#include <Qt3DRender/QDirectionalLight>
#include <Qt3DRender/QFrustumCulling>
#include <Qt3DRender/QLayer>
#include <Qt3DRender/QLayerFilter>
#include <Qt3DRender/QMaterial>
#include <Qt3DRender/QRenderCapture>
#include <Qt3DRender/QRenderSettings>
#include <Qt3DRender/QRenderSurfaceSelector>
#include <Qt3DRender/QViewport>
#include <algorithm>
#include <cmath>

#include "gui/render/legend_image.hpp"
#include "gui/render/legend_quad.hpp"
#include "gui/render/mesh_2d.hpp"
#include "gui/render/picking.hpp"
#include "gui/render/qt3d_buffers.hpp"
#include "gui/render/screen_sketch.hpp"
#include "gui/render/software_gl.hpp"
#include "gui/render/texture_material.hpp"

namespace pegsim::gui {

namespace {

QVector3D qvec(const Vec3& v) {
  return QVector3D(float(v.x()), float(v.y()), float(v.z()));
}

QQuaternion qquat(const Quat& q) {
  return QQuaternion(float(q.w()), float(q.x()), float(q.y()), float(q.z()));
}

// Deletes `node` and its descendants, children first. A node made in this turn of the event
// loop waits in Qt3D's queue for its backend, and leaves it when deleted only while it still
// has its scene; deleting an ancestor first takes the scene from the whole subtree, and the
// queued node stayed behind, dangling (a crash when the loop turned).
void delete_tree(Qt3DCore::QNode* node) {
  for (Qt3DCore::QNode* child : node->childNodes()) delete_tree(child);
  delete node;
}

QColor body_color(const Body& b) {
  return QColor::fromRgbF(b.color[0], b.color[1], b.color[2], b.color[3]);
}

void add_light(Qt3DCore::QEntity* root, const QVector3D& direction, float intensity) {
  auto* e = new Qt3DCore::QEntity(root);
  auto* light = new Qt3DRender::QDirectionalLight(e);
  light->setWorldDirection(direction);
  light->setIntensity(intensity);
  e->addComponent(light);
}

// A polytope's feature edges drawn dark on it (a child entity: it moves with the body), so
// that faces of one colour are told apart.
void outline(Qt3DCore::QEntity* body, const Polytope& polytope, const QColor& color) {
  const QColor edge = color.darker(250);
  const Rgb rgb{float(edge.redF()), float(edge.greenF()), float(edge.blueF())};
  (new ColoredEntity(ColoredEntity::Kind::Lines, body))
      ->set(sketch_lines(feature_edges(polytope, rgb)));
}

// A round grid spacing (1, 2 or 5 times a power of ten) near `approx`.
double nice_step(double approx) {
  const double p = std::pow(10.0, std::floor(std::log10(approx)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * p >= approx) return m * p;
  return 10.0 * p;
}

}  // namespace

SceneView::SceneView(QWidget* parent)
    : QWidget(parent), window_(new Qt3DExtras::Qt3DWindow), overlays_(standard_overlays()) {
  if (software_opengl()) {
    // 4x multisampling (Qt3DWindow's default) under llvmpipe: 38 ms of CPU per stack10
    // frame instead of 25. Qt3D's renderer takes the default format, the window its own.
    QSurfaceFormat format = window_->format();
    format.setSamples(0);
    window_->setFormat(format);
    QSurfaceFormat::setDefaultFormat(format);
  }
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  QWidget* container = QWidget::createWindowContainer(window_, this);
  container->setMinimumSize(200, 150);
  container->setFocusPolicy(Qt::StrongFocus);
  layout->addWidget(container);

  // On demand: Qt3D draws only when the scene changed (a frame shown, the camera moved, an
  // overlay toggled), so a paused window costs no frames; captureImage asks for frames until
  // its capture is done.
  window_->renderSettings()->setRenderPolicy(Qt3DRender::QRenderSettings::OnDemand);
  // The frame graph draws in three passes, in this order: the scene (clearing colour and
  // depth), then the overlays over it, then the legend over everything. The capture node sits
  // on the last pass only, so a capture holds all three; Qt3D works on the passes' views in
  // parallel, and a capture node shared by all three was touched by three jobs at once (an
  // intermittent heap corruption in its request list).
  overlay_layer_ = new Qt3DRender::QLayer;
  legend_layer_ = new Qt3DRender::QLayer;
  auto* surface = new Qt3DRender::QRenderSurfaceSelector;
  surface->setSurface(window_);
  auto* viewport = new Qt3DRender::QViewport(surface);
  auto* lens = new Qt3DRender::QCameraSelector(viewport);
  lens->setCamera(window_->camera());
  auto* clear = new Qt3DRender::QClearBuffers(lens);
  clear->setBuffers(Qt3DRender::QClearBuffers::ColorDepthBuffer);
  clear->setClearColor(QColor(0xe8, 0xec, 0xf0));
  auto* scene = new Qt3DRender::QLayerFilter(new Qt3DRender::QFrustumCulling(clear));
  scene->addLayer(overlay_layer_);
  scene->addLayer(legend_layer_);
  scene->setFilterMode(Qt3DRender::QLayerFilter::DiscardAnyMatchingLayers);
  (new Qt3DRender::QLayerFilter(lens))->addLayer(overlay_layer_);
  capture_ = new Qt3DRender::QRenderCapture(lens);
  (new Qt3DRender::QLayerFilter(capture_))->addLayer(legend_layer_);
  window_->setActiveFrameGraph(surface);

  root_ = new Qt3DCore::QEntity;
  // A key light from above, in front and a little to the left of the default view, and a
  // weak fill from the other side: the top, front and side faces of a box differ in shade.
  add_light(root_, QVector3D(-0.25f, 0.55f, -0.8f), 0.85f);
  add_light(root_, QVector3D(0.5f, -0.4f, -0.3f), 0.3f);
  // Drawn in the order of the entity tree (the frame graph sorts nothing): bodies, then the
  // overlays over them, then the legend over everything.
  bodies_root_ = new Qt3DCore::QEntity(root_);
  overlay_root_ = new Qt3DCore::QEntity(root_);
  overlay_root_->addComponent(overlay_layer_);
  overlay_layer_->setRecursive(true);
  for (const bool background : {true, false})  // entities draw in the order they are made
    for (const auto& o : overlays_) {
      if (o->background() != background) continue;
      enabled_[o->key()] = o->on_by_default();
      overlay_entities_[o->key()] =
          new ColoredEntity(ColoredEntity::Kind::Triangles, overlay_root_, true);
    }
  legend_ = new LegendQuad(root_);
  legend_->addComponent(legend_layer_);
  // Qt3D's logic aspect ticks once per processed frame, and a frame is rendered per tick.
  auto* tick = new Qt3DLogic::QFrameAction;
  connect(tick, &Qt3DLogic::QFrameAction::triggered, this, [this] { ++rendered_frames_; });
  root_->addComponent(tick);
  window_->setRootEntity(root_);
  window_->installEventFilter(this);
  applyCamera();
}

SceneView::~SceneView() = default;

void SceneView::setModel(ModelPtr model, double impulse_scale) {
  model_ = std::move(model);
  impulse_scale_ = impulse_scale;
  frame_.reset();
  ghost_.reset();
  selected_ = -1;
  selected_joint_ = -1;
  if (model_root_) delete_tree(model_root_);  // every body entity, and the ghosts
  model_root_ = new Qt3DCore::QEntity(bodies_root_);
  ghost_root_ = nullptr;
  ghost_transforms_.clear();
  visuals_.assign(model_ ? model_->bodies.size() : 0, {});
  textured_.clear();  // their materials were the old model's entities' components
  camera_.planar = model_ && model_->planar();
  applyCamera();
  updateLegend();
}

double SceneView::sceneSize() const {
  return scene_size_;
}

QWindow* SceneView::renderWindow() const {
  return window_;
}

double SceneView::aspect() const {
  return window_->height() > 0 ? double(window_->width()) / double(window_->height()) : 1.0;
}

void SceneView::showFrame(FramePtr frame) {
  ++shown_frames_;
  const bool first = !frame_ && frame;
  frame_ = std::move(frame);
  if (!model_ || !frame_) return;
  if (first) {
    // Size the scene from its bounded bodies once, so arrows keep their length while playing.
    Vec3 lo = Vec3::Constant(1e300), hi = Vec3::Constant(-1e300);
    for (const Aabb& b : frame_->aabbs)
      if (b.lo.allFinite() && b.hi.allFinite()) {
        lo = lo.cwiseMin(b.lo);
        hi = hi.cwiseMax(b.hi);
      }
    scene_size_ = (hi.array() >= lo.array()).all() ? std::max((hi - lo).norm(), 0.1) : 1.0;
    buildBodies();
    fitAll();
  }
  updateBodies();
  if (follow_ && followMoving()) return;  // applyCamera drew the overlays
  updateOverlays();
}

bool SceneView::followMoving() {
  Vec3 lo = Vec3::Constant(1e300), hi = Vec3::Constant(-1e300);
  for (std::size_t i = 0; i < frame_->aabbs.size() && i < model_->bodies.size(); ++i) {
    const Aabb& b = frame_->aabbs[i];
    if (model_->bodies[i].is_static || !frame_->present(int(i)) || !b.lo.allFinite() ||
        !b.hi.allFinite())
      continue;
    lo = lo.cwiseMin(b.lo);
    hi = hi.cwiseMax(b.hi);
  }
  if ((hi.array() < lo.array()).any()) return false;  // nothing moves
  camera_.follow(lo, hi, aspect());
  applyCamera();
  return true;
}

void SceneView::setFollow(bool on) {
  follow_ = on;
  if (on && model_ && frame_) followMoving();
}

void SceneView::buildBodies() {
  // Planar shapes lie just below the plane z = 0 where the overlays are drawn, static ones
  // lowest, so a moving body is drawn over the one it touches.
  const double lift = 2e-3 * scene_size_;
  for (std::size_t i = 0; i < model_->bodies.size(); ++i) {
    const Body& body = model_->bodies[i];
    auto* e = new Qt3DCore::QEntity(model_root_);
    BodyVisual& v = visuals_[i];
    v.transform = new Qt3DCore::QTransform(e);
    v.material = new Qt3DExtras::QPhongMaterial(e);
    v.color = body_color(body);
    v.material->setDiffuse(v.color);
    // A flat face seen from straight above shows a specular highlight as a white smear.
    v.material->setSpecular(body.shape.planar() ? QColor(0, 0, 0) : QColor(40, 40, 40));
    v.material->setShininess(20.0f);
    e->addComponent(v.transform);
    e->addComponent(v.material);
    e->setEnabled(body.visible);
    buildShape(e, body, v.color, body.is_static ? -2.0 * lift : -lift);
  }
}

Qt3DRender::QMaterial* SceneView::texturedMaterial(const VisualTexture& texture) {
  const auto found = textured_.find(&texture);
  if (found != textured_.end()) return found->second;
  const QImage image = decode_texture(texture);
  Qt3DRender::QMaterial* material =
      image.isNull() ? nullptr : make_texture_material(image, model_root_);
  textured_[&texture] = material;
  return material;
}

void SceneView::buildShape(Qt3DCore::QEntity* e, const Body& body, const QColor& color, double z) {
  const DrawnExtent extent = drawn_extent(scene_size_);  // of unbounded shapes, as picked
  const double tile = 2.0 * extent.half_width;
  if (body.visual && !body.shape.planar()) {
    // A model file's own surface, each part in the file's texture, or its colour, or else the
    // body's.
    for (const VisualMesh::Part& part : body.visual->parts) {
      auto* child = new Qt3DCore::QEntity(e);
      const FlatMesh mesh = flat_mesh(part);
      child->addComponent(make_flat_mesh_renderer(mesh, child));
      if (Qt3DRender::QMaterial* painted =
              mesh.uv.empty() ? nullptr : texturedMaterial(*part.texture)) {
        child->addComponent(painted);
      } else if (part.color[3] > 0.0f) {
        auto* material = new Qt3DExtras::QPhongMaterial(child);
        material->setDiffuse(QColor::fromRgbF(part.color[0], part.color[1], part.color[2]));
        material->setSpecular(QColor(40, 40, 40));
        material->setShininess(20.0f);
        child->addComponent(material);
      } else {
        const auto materials = e->componentsOfType<Qt3DRender::QMaterial>();
        if (!materials.isEmpty()) child->addComponent(materials.first());
      }
    }
    return;
  }
  switch (body.shape.kind) {
    case ShapeKind::Sphere: {
      auto* mesh = new Qt3DExtras::QSphereMesh(e);
      mesh->setRadius(float(body.shape.radius));
      mesh->setRings(24);
      mesh->setSlices(36);
      e->addComponent(mesh);
      break;
    }
    case ShapeKind::Polytope:
      e->addComponent(make_flat_mesh_renderer(flat_mesh(*body.shape.polytope), e));
      outline(e, *body.shape.polytope, color);
      break;
    case ShapeKind::Compound: {
      // Each convex part, placed by its pose in the body frame, with the body's material.
      const auto materials = e->componentsOfType<Qt3DRender::QMaterial>();
      for (const CompoundPart& part : body.shape.compound->parts) {
        auto* child = new Qt3DCore::QEntity(e);
        auto* placed = new Qt3DCore::QTransform(child);
        placed->setTranslation(QVector3D(float(part.position.x()), float(part.position.y()),
                                         float(part.position.z())));
        const Quat& q = part.orientation;
        placed->setRotation(QQuaternion(float(q.w()), float(q.x()), float(q.y()), float(q.z())));
        child->addComponent(placed);
        if (!materials.isEmpty()) child->addComponent(materials.first());
        if (part.shape.planar()) {  // a polygon or circle part, drawn as planar bodies are
          Body piece;
          piece.shape = part.shape;
          buildShape(child, piece, color, z);
        } else if (part.shape.kind == ShapeKind::Sphere) {
          auto* mesh = new Qt3DExtras::QSphereMesh(child);
          mesh->setRadius(float(part.shape.radius));
          mesh->setRings(24);
          mesh->setSlices(36);
          child->addComponent(mesh);
        } else {
          child->addComponent(make_flat_mesh_renderer(flat_mesh(*part.shape.polytope), child));
          outline(child, *part.shape.polytope, color);
        }
      }
      break;
    }
    case ShapeKind::Polygon:
    case ShapeKind::Circle:
    case ShapeKind::HalfPlane: {
      // A flat face (a half-plane: a strip below its boundary) with a darker outline on it.
      const std::vector<Vec2> outline = planar_outline(body.shape, extent.half_width, extent.depth);
      e->addComponent(make_flat_mesh_renderer(flat_face(outline, z), e));
      const QColor edge = color.darker(170);
      const Rgb rgb{float(edge.redF()), float(edge.greenF()), float(edge.blueF())};
      (new ColoredEntity(ColoredEntity::Kind::Lines, e))
          ->set(sketch_lines(planar_edges(body.shape, outline, z + 1e-3 * scene_size_, rgb)));
      break;
    }
    case ShapeKind::Plane: {
      // A large tile, unlit: a lit (Phong) quad covering half the view cost a software
      // rasterizer (llvmpipe) about 26 ms a frame, twice the rest of the scene.
      const double half = 0.5 * tile;
      const Rgb floor{float(color.redF() * 0.85), float(color.greenF() * 0.85),
                      float(color.blueF() * 0.85)};
      ColoredVertices quad;
      for (const auto& [x, y] : {std::pair{-1, -1}, {1, -1}, {1, 1}, {-1, -1}, {1, 1}, {-1, 1}})
        quad.add(Vec3(x * half, y * half, 0.0), floor);
      (new ColoredEntity(ColoredEntity::Kind::Triangles, e))->set(quad);
      // The grid, a hair above the tile so it does not z-fight with it.
      Sketch grid;
      const double step = nice_step(tile / 40.0);
      const double lift = 1e-3 * scene_size_;
      const Rgb c{float(color.redF() * 0.7), float(color.greenF() * 0.7),
                  float(color.blueF() * 0.7)};
      for (double x = -std::floor(half / step) * step; x <= half; x += step) {
        grid.segments.push_back({Vec3(x, -half, lift), Vec3(x, half, lift), c});
        grid.segments.push_back({Vec3(-half, x, lift), Vec3(half, x, lift), c});
      }
      (new ColoredEntity(ColoredEntity::Kind::Lines, e))->set(sketch_lines(grid));
      break;
    }
  }
}

void SceneView::buildGhosts() {
  // After the bodies in the entity tree, so drawn after them (no sort policy): blended over
  // what is behind. Static bodies are the same in both runs: not repeated.
  ghost_root_ = new Qt3DCore::QEntity(model_root_);
  ghost_transforms_.assign(model_->bodies.size(), nullptr);
  for (std::size_t i = 0; i < model_->bodies.size(); ++i) {
    const Body& body = model_->bodies[i];
    if (body.is_static || !body.visible) continue;
    auto* e = new Qt3DCore::QEntity(ghost_root_);
    auto* transform = new Qt3DCore::QTransform(e);
    auto* material = new Qt3DExtras::QPhongAlphaMaterial(e);
    const QColor color = body_color(body).lighter(140);
    material->setDiffuse(color);
    material->setAmbient(color.darker(250));
    material->setAlpha(float(kGhostAlpha));
    if (body.shape.planar()) material->setSpecular(QColor(0, 0, 0));
    e->addComponent(transform);
    e->addComponent(material);
    buildShape(e, body, color, 1e-3 * scene_size_);  // planar: over the first run's faces
    ghost_transforms_[i] = transform;
  }
}

void SceneView::showGhost(FramePtr frame, bool redraw) {
  const bool had = ghost_ != nullptr;
  ghost_ = std::move(frame);
  if (!model_ || !frame_) return;
  if (redraw && (ghost_ || had)) updateOverlays();  // the comparison's overlays come and go
  if (!ghost_) {
    if (ghost_root_) ghost_root_->setEnabled(false);
    return;
  }
  if (!ghost_root_) buildGhosts();
  ghost_root_->setEnabled(true);
  for (std::size_t i = 0; i < ghost_transforms_.size() && i < ghost_->bodies.size(); ++i) {
    if (!ghost_transforms_[i]) continue;
    ghost_transforms_[i]->setTranslation(qvec(ghost_->bodies[i].position));
    ghost_transforms_[i]->setRotation(qquat(ghost_->bodies[i].orientation));
  }
}

void SceneView::updateBodies() {
  for (std::size_t i = 0; i < visuals_.size() && i < frame_->bodies.size(); ++i) {
    BodyVisual& v = visuals_[i];
    if (!v.transform) continue;
    v.transform->setTranslation(qvec(frame_->bodies[i].position));
    v.transform->setRotation(qquat(frame_->bodies[i].orientation));
    // A body that has not appeared yet (appear_time) is not drawn.
    for (Qt3DCore::QEntity* e : v.transform->entities())
      e->setEnabled(model_->bodies[i].visible && frame_->present(int(i)));
    // The selection glows yellow through the ambient term; others get a soft ambient.
    v.material->setAmbient(int(i) == selected_ ? QColor(200, 170, 20) : v.color.darker(300));
  }
}

Sketch SceneView::overlaySketch(const std::string& key) const {
  Sketch sketch;
  if (!model_ || !frame_) return sketch;
  OverlayContext ctx{*model_, *frame_, scene_size_, impulse_scale_, selected_joint_};
  for (const auto& o : overlays_)
    if (o->key() == key) o->draw(ctx, sketch);
  return sketch;
}

void SceneView::updateOverlays() {
  // Sized in pixels (times the presentation scale): drawn anew for every frame and camera move.
  const PixelScale scale =
      camera_.pixel_scale(window_->height() / presentation_scale_, orthographic());
  for (const auto& o : overlays_) {
    Sketch sketch;
    if (enabled_[o->key()]) {
      // The comparison run's first, paler and thinner, under the first run's.
      sketch = comparisonSketch(o->key());
      const Sketch own = overlaySketch(o->key());
      sketch.segments.insert(sketch.segments.end(), own.segments.begin(), own.segments.end());
      sketch.arrows.insert(sketch.arrows.end(), own.arrows.begin(), own.arrows.end());
      sketch.markers.insert(sketch.markers.end(), own.markers.begin(), own.markers.end());
    }
    overlay_entities_[o->key()]->set(screen_triangles(sketch, scale));
  }
  updateLegend();
}

Sketch SceneView::comparisonSketch(const std::string& key) const {
  Sketch sketch;
  if (!model_ || !ghost_) return sketch;
  OverlayContext ctx{*model_, *ghost_, scene_size_, impulse_scale_, -1};
  for (const auto& o : overlays_)
    if (o->key() == key) o->draw(ctx, sketch);
  auto pale = [](Rgb& c) {
    for (float& v : c) v = 0.45f * v + 0.55f;
  };
  for (Sketch::Segment& g : sketch.segments) {
    pale(g.color);
    g.width = 1.0;
  }
  for (Sketch::Arrow& a : sketch.arrows) pale(a.color);
  for (Sketch::Marker& m : sketch.markers) {
    pale(m.color);
    m.ring = true;  // hollow: the first run's marker at the same place shows through
  }
  return sketch;
}

void SceneView::updateLegend() {
  std::vector<LegendSection> sections;
  QStringList notes, contents;
  if (legend_visible_ && model_) {
    for (const auto& o : overlays_)
      if (enabled_[o->key()] && o->applies(*model_)) {
        sections.push_back({o->label(), o->legend()});
        contents << QString::fromStdString(o->key());
      }
    if (enabled_["impulses"])
      notes << QString("impulse arrows: 1 m = %1 N s").arg(1.0 / impulse_scale_, 0, 'g', 3);
    notes << legend_notes_;
  }
  contents << notes;
  if (!contents.isEmpty()) contents << QString::number(presentation_scale_);
  if (contents == legend_contents_) return;
  legend_contents_ = contents;  // painted again only when it changes, not every frame
  legend_image_ = legend_image(sections, notes, presentation_scale_);
  legend_->setImage(legend_image_);
  placeLegend();
}

void SceneView::placeLegend() {
  legend_->place(camera_, window_->size(), orthographic(), QPoint(kLegendMargin, kLegendMargin));
}

void SceneView::setPresentationScale(double scale) {
  presentation_scale_ = std::clamp(scale, 0.5, 4.0);
  if (model_ && frame_) updateOverlays();
  updateLegend();
}

void SceneView::setLegendVisible(bool on) {
  legend_visible_ = on;
  updateLegend();
}

void SceneView::setLegendNotes(const QStringList& notes) {
  legend_notes_ = notes;
  updateLegend();
}

void SceneView::setOverlayEnabled(const std::string& key, bool on) {
  if (!enabled_.count(key)) return;
  enabled_[key] = on;
  if (model_ && frame_) updateOverlays();
}

bool SceneView::overlayEnabled(const std::string& key) const {
  auto it = enabled_.find(key);
  return it != enabled_.end() && it->second;
}

void SceneView::setSelectedBody(int body) {
  selected_ = body;
  if (model_ && frame_) updateBodies();
}

void SceneView::setSelectedJoint(int joint) {
  selected_joint_ = joint;
  if (model_ && frame_) updateOverlays();
}

void SceneView::fitAll() {
  if (!frame_) return;
  Vec3 lo = Vec3::Constant(1e300), hi = Vec3::Constant(-1e300);
  for (const Aabb& b : frame_->aabbs)
    if (b.lo.allFinite() && b.hi.allFinite()) {
      lo = lo.cwiseMin(b.lo);
      hi = hi.cwiseMax(b.hi);
    }
  if ((hi.array() < lo.array()).any()) {
    lo = Vec3::Constant(-1);
    hi = Vec3::Constant(1);
  }
  camera_.fit(lo, hi, aspect());
  applyCamera();
}

void SceneView::setViewPreset(ViewPreset view) {
  camera_.preset(view);
  applyCamera();
}

void SceneView::setOrthographic(bool on) {
  ortho_ = on;
  applyCamera();
}

void SceneView::applyCamera() {
  Qt3DRender::QCamera* cam = window_->camera();
  const float aspect = float(this->aspect());
  const float near = float(camera_.distance * 0.01), far = float(camera_.distance * 100.0 + 100.0);
  if (orthographic()) {
    const float hh = float(camera_.half_height());
    cam->lens()->setOrthographicProjection(-hh * aspect, hh * aspect, -hh, hh, near, far);
  } else {
    cam->lens()->setPerspectiveProjection(float(camera_.fov_degrees), aspect, near, far);
  }
  cam->setUpVector(qvec(camera_.up()));
  cam->setPosition(qvec(camera_.eye()));
  cam->setViewCenter(qvec(camera_.target));
  if (model_ && frame_) updateOverlays();
  placeLegend();
  emit cameraMoved();
}

void SceneView::setCamera(const OrbitCamera& c) {
  const OrbitCamera& o = camera_;
  if (c.target == o.target && c.distance == o.distance && c.azimuth == o.azimuth &&
      c.elevation == o.elevation && c.planar == o.planar)
    return;
  camera_ = c;
  applyCamera();
}

int SceneView::bodyAt(const QPoint& pos) const {
  if (!model_ || !frame_ || window_->width() <= 0 || window_->height() <= 0) return -1;
  const double w = window_->width(), h = window_->height();
  const auto ray = camera_.ray(2.0 * (pos.x() + 0.5) / w - 1.0, 1.0 - 2.0 * (pos.y() + 0.5) / h,
                               w / h, orthographic());
  return pick_body(*model_, *frame_, ray.origin, ray.dir, drawn_extent(scene_size_));
}

bool SceneView::project(const Vec3& point, QPointF& pos) const {
  const double w = window_->width(), h = window_->height();
  double x = 0.0, y = 0.0;
  if (w <= 0 || h <= 0 || !camera_.project(point, w / h, orthographic(), x, y)) return false;
  pos = QPointF(0.5 * (x + 1.0) * w - 0.5, 0.5 * (1.0 - y) * h - 0.5);  // bodyAt's pixel centres
  return true;
}

int SceneView::jointAt(const QPoint& pos, double radius) const {
  if (!model_ || !frame_ || !overlayEnabled("joints")) return -1;
  int best = -1;
  double best_d = radius;
  for (std::size_t k = 0; k < frame_->joints.size(); ++k) {
    QPointF at;
    if (!project(frame_->joints[k].frames.origin_a, at)) continue;
    const double d = std::hypot(at.x() - pos.x(), at.y() - pos.y());
    if (d <= best_d) {
      best_d = d;
      best = int(k);
    }
  }
  return best;
}

void SceneView::captureImage(std::function<void(const QImage&)> done) {
  // A capture is taken from a rendered frame: render continuously until every pending one is.
  if (pending_captures_++ == 0)
    window_->renderSettings()->setRenderPolicy(Qt3DRender::QRenderSettings::Always);
  requestCapture(std::make_shared<Capture>(Capture{std::move(done)}));
}

void SceneView::requestCapture(const std::shared_ptr<Capture>& job) {
  Qt3DRender::QRenderCaptureReply* reply = capture_->requestCapture();
  connect(reply, &Qt3DRender::QRenderCaptureReply::completed, this, [this, reply, job] {
    // Qt3D's OpenGL backend reads the framebuffer back bottom row first.
    const QImage image = reply->image().mirrored(false, true);
    reply->deleteLater();
    if (job->answered) return;  // a repeated request answered too
    job->answered = true;
    if (--pending_captures_ == 0)
      window_->renderSettings()->setRenderPolicy(Qt3DRender::QRenderSettings::OnDemand);
    job->done(image);
  });
  // Should Qt3D drop a request (never answered), ask again.
  QTimer::singleShot(2000, this, [this, job] {
    if (!job->answered) requestCapture(job);
  });
}

bool SceneView::eventFilter(QObject* watched, QEvent* event) {
  if (watched != window_) return QWidget::eventFilter(watched, event);
  switch (event->type()) {
    case QEvent::MouseButtonPress: {
      auto* e = static_cast<QMouseEvent*>(event);
      press_pos_ = last_pos_ = e->position().toPoint();
      drag_button_ = e->button();
      dragged_ = false;
      return true;
    }
    case QEvent::MouseMove: {
      auto* e = static_cast<QMouseEvent*>(event);
      const QPoint p = e->position().toPoint(), d = p - last_pos_;
      last_pos_ = p;
      if (drag_button_ == Qt::NoButton) return false;
      if ((p - press_pos_).manhattanLength() > 3) dragged_ = true;
      const double h = std::max(1, window_->height());
      // Left drag orbits (shift: pans), right or middle drag pans; a 2D view only pans.
      if (drag_button_ == Qt::LeftButton && !(e->modifiers() & Qt::ShiftModifier) &&
          !camera_.planar)
        camera_.orbit(-d.x() * 0.01, d.y() * 0.01);
      else
        camera_.pan(d.x() / h, d.y() / h);
      applyCamera();
      return true;
    }
    case QEvent::MouseButtonRelease: {
      auto* e = static_cast<QMouseEvent*>(event);
      if (e->button() == drag_button_ && e->button() == Qt::LeftButton && !dragged_) {
        const QPoint p = e->position().toPoint();
        if (const int joint = jointAt(p); joint >= 0)
          emit jointClicked(joint);
        else
          emit bodyClicked(bodyAt(p));
      }
      drag_button_ = Qt::NoButton;
      return true;
    }
    case QEvent::Wheel: {
      // About the cursor: the point under it stays under it.
      auto* e = static_cast<QWheelEvent*>(event);
      const double w = std::max(1, window_->width()), h = std::max(1, window_->height());
      const QPointF p = e->position();
      camera_.zoom_about(
          std::pow(0.999, e->angleDelta().y()),
          camera_.ray(2.0 * p.x() / w - 1.0, 1.0 - 2.0 * p.y() / h, w / h, orthographic()));
      applyCamera();
      return true;
    }
    case QEvent::Resize:
    case QEvent::Expose:
      applyCamera();  // the aspect ratio follows the window
      return false;
    default:
      return false;
  }
}

}  // namespace pegsim::gui
