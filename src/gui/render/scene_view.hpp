// SceneView: the 3D view widget. Everything Qt3D lives behind this class (and the helpers in
// this folder); the rest of the GUI sees models, frames, overlay keys and camera commands.
#pragma once

#include <QImage>
#include <QStringList>
#include <QWidget>

class QWindow;
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gui/render/orbit_camera.hpp"
#include "gui/render/overlay.hpp"
#include "gui/sim/frame_snapshot.hpp"

namespace Qt3DExtras {
class Qt3DWindow;
class QPhongMaterial;
}  // namespace Qt3DExtras
namespace Qt3DCore {
class QEntity;
class QTransform;
}  // namespace Qt3DCore
namespace Qt3DRender {
class QRenderCapture;
class QLayer;
class QMaterial;
}  // namespace Qt3DRender

namespace pegsim::gui {

class ColoredEntity;
class LegendQuad;

// Opacity of the comparison run drawn over the first.
inline constexpr double kGhostAlpha = 0.45;

class SceneView : public QWidget {
  Q_OBJECT
 public:
  explicit SceneView(QWidget* parent = nullptr);
  ~SceneView() override;

  // A new model replaces every body; impulse_scale: metres of arrow per N s. A planar (2D)
  // model is seen down the z axis through an orthographic lens that only pans and zooms.
  void setModel(ModelPtr model, double impulse_scale);
  const ModelPtr& model() const { return model_; }
  double impulseScale() const { return impulse_scale_; }
  void showFrame(FramePtr frame);
  const FramePtr& frame() const { return frame_; }
  // A second run of the same model drawn translucent over the first (its moving bodies;
  // nullptr hides it): the side-by-side comparison of two contact models.
  // `redraw` false: the overlays are left for the showFrame that follows (one redraw a frame).
  void showGhost(FramePtr frame, bool redraw = true);
  const FramePtr& ghost() const { return ghost_; }

  const std::vector<std::unique_ptr<Overlay>>& overlays() const { return overlays_; }
  void setOverlayEnabled(const std::string& key, bool on);
  bool overlayEnabled(const std::string& key) const;
  // The sketch an overlay draws for the current frame (what the renderer shows).
  Sketch overlaySketch(const std::string& key) const;
  // What it draws for the comparison run (showGhost), under the first run's: paler, lines one
  // pixel wide, markers as rings. Empty without a comparison.
  Sketch comparisonSketch(const std::string& key) const;

  // The legend in the view's top-left corner (in every capture too): the colours of the
  // overlays that are on, the impulse arrows' scale, and `notes` (what a comparison shows).
  void setLegendVisible(bool on);
  bool legendVisible() const { return legend_visible_; }
  void setLegendNotes(const QStringList& notes);
  // The legend as drawn (null when hidden or empty), and where: window pixels.
  const QImage& legendImage() const { return legend_image_; }
  static constexpr int kLegendMargin = 8;

  void setSelectedBody(int body);
  int selectedBody() const { return selected_; }
  void setSelectedJoint(int joint);  // drawn highlighted by the joints overlay; -1: none
  int selectedJoint() const { return selected_joint_; }

  void fitAll();
  // Overlay markers, arrows, lines and the legend this many times their size (a projector).
  void setPresentationScale(double scale);
  double presentationScale() const { return presentation_scale_; }
  // Follow the moving bodies: every frame shown centres them and backs away until they fit.
  void setFollow(bool on);
  bool following() const { return follow_; }
  void setViewPreset(ViewPreset view);
  void setOrthographic(bool on);
  bool orthographic() const { return ortho_ || camera_.planar; }
  const OrbitCamera& camera() const { return camera_; }
  // Takes another view's camera (side-by-side views move together); nothing if it is the same.
  void setCamera(const OrbitCamera& camera);

  // Body under a point of this widget (-1: none), by a ray through the current camera.
  int bodyAt(const QPoint& pos) const;
  // Where a world point is drawn in this widget (false: behind the eye).
  bool project(const Vec3& point, QPointF& pos) const;
  // The joint whose anchor is drawn within `radius` pixels of pos, the nearest (-1: none, or
  // the joints overlay is off).
  int jointAt(const QPoint& pos, double radius = 10.0) const;
  // Renders the next frame into an image and calls done with it (on the GUI thread).
  void captureImage(std::function<void(const QImage&)> done);

  // Counters for the responsiveness benchmark: Qt3D's frames (its aspect engine's ticks; under
  // the on-demand render policy a tick draws only when the scene changed) and frames given to
  // showFrame.
  qint64 renderedFrames() const { return rendered_frames_; }
  qint64 shownFrames() const { return shown_frames_; }
  // The OpenGL window inside the widget (where keys go when the view has the focus).
  QWindow* renderWindow() const;

 signals:
  void bodyClicked(int body);    // -1: clicked on empty space
  void jointClicked(int joint);  // a click on a joint's anchor (it wins over the body under it)
  void cameraMoved();            // orbit, pan, zoom, fit, preset, follow

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void applyCamera();
  void updateBodies();
  void updateOverlays();
  void buildBodies();
  void buildShape(Qt3DCore::QEntity* entity, const Body& body, const QColor& color, double z);
  // The material painting a model file's texture, made once per image per model; null where
  // the image cannot be decoded (the part is drawn in its colour).
  Qt3DRender::QMaterial* texturedMaterial(const VisualTexture& texture);
  void buildGhosts();
  void updateLegend();
  bool followMoving();  // false when nothing moves
  struct Capture {
    std::function<void(const QImage&)> done;
    bool answered = false;
  };
  void requestCapture(const std::shared_ptr<Capture>& job);

  void placeLegend();
  double aspect() const;
  double sceneSize() const;

  Qt3DExtras::Qt3DWindow* window_;
  Qt3DCore::QEntity* root_;
  Qt3DCore::QEntity* bodies_root_;           // drawn first: the model's bodies, then ghosts
  Qt3DCore::QEntity* model_root_ = nullptr;  // this model's entities, under bodies_root_
  Qt3DCore::QEntity* overlay_root_;          // drawn after the bodies, over them
  Qt3DRender::QRenderCapture* capture_;
  Qt3DRender::QLayer* overlay_layer_;  // the frame graph's second pass
  Qt3DRender::QLayer* legend_layer_;   // its third
  struct BodyVisual {
    Qt3DCore::QTransform* transform = nullptr;
    Qt3DExtras::QPhongMaterial* material = nullptr;
    QColor color;
  };
  std::vector<BodyVisual> visuals_;
  Qt3DCore::QEntity* ghost_root_ = nullptr;              // after the bodies: drawn over them
  std::vector<Qt3DCore::QTransform*> ghost_transforms_;  // per body; null for static ones
  FramePtr ghost_;
  std::vector<std::unique_ptr<Overlay>> overlays_;
  std::map<std::string, bool> enabled_;
  std::map<const VisualTexture*, Qt3DRender::QMaterial*> textured_;  // under model_root_
  std::map<std::string, ColoredEntity*> overlay_entities_;
  LegendQuad* legend_;
  bool legend_visible_ = true;
  QStringList legend_notes_;
  QStringList legend_contents_;  // what legend_image_ shows: overlay keys and notes
  QImage legend_image_;
  ModelPtr model_;
  FramePtr frame_;
  double impulse_scale_ = 1.0;
  double scene_size_ = 1.0;
  int selected_ = -1;
  int selected_joint_ = -1;
  OrbitCamera camera_;
  bool ortho_ = false;
  bool follow_ = false;
  double presentation_scale_ = 1.0;
  QPoint press_pos_;
  QPoint last_pos_;
  Qt::MouseButton drag_button_ = Qt::NoButton;
  bool dragged_ = false;
  qint64 rendered_frames_ = 0;
  int pending_captures_ = 0;  // captureImage's requests not yet answered
  qint64 shown_frames_ = 0;
};

}  // namespace pegsim::gui
