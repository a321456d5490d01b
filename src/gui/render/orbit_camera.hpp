// Camera placement as plain numbers: a target, a distance and two angles about the world z
// axis (scenes are z-up). Orbit, pan, zoom, fit-all and the preset views act on these.
// A planar camera (2D scenes) looks down the z axis at the x-y plane, x right and y up; it
// only pans and zooms.
#pragma once

#include "engine/core/math.hpp"

namespace pegsim::gui {

enum class ViewPreset { Front, Top, Side, Iso };

// Screen pixels as world lengths for one camera and viewport: overlays are sized in pixels,
// so a marker keeps its size on screen as the view zooms.
struct PixelScale {
  Vec3 eye, forward, right, up;  // screen right and up, world frame
  bool orthographic = false;
  double metres = 1.0;  // one pixel's world length: everywhere (orthographic), else at depth 1 m
  double at(const Vec3& point) const;  // one pixel's world length at `point`
};

struct OrbitCamera {
  Vec3 target = Vec3::Zero();
  double distance = 10.0;     // m, eye to target
  double azimuth = -1.0;      // rad about +z, 0: eye on +x
  double elevation = 0.45;    // rad above the xy plane
  double fov_degrees = 45.0;  // vertical field of view (perspective)
  bool planar = false;        // looks down -z, x right, y up; orbit and presets do nothing

  Vec3 eye() const;
  Vec3 forward() const { return (target - eye()).normalized(); }
  Vec3 right() const;  // screen right, world frame
  Vec3 up() const;     // screen up, world frame
  // Half the visible height at the target: what an orthographic lens must show.
  double half_height() const;

  void orbit(double d_azimuth, double d_elevation);
  // Moves the target by a screen offset given as fractions of the viewport height.
  void pan(double dx_fraction, double dy_fraction);
  void zoom(double factor);  // < 1 moves closer
  // Zooms keeping where `through` (a ray through a viewport point, from ray()) meets the plane
  // of the target in the same place on screen: the wheel zooms about the cursor.
  struct Ray;
  void zoom_about(double factor, const Ray& through);
  // Follows a box (the moving bodies): the target at its centre, the distance grown (never
  // shrunk) until it fits as fit() would frame it.
  void follow(const Vec3& lo, const Vec3& hi, double aspect = 1.0);
  // Frames the box [lo, hi] (a bounding sphere of it) in view; a planar camera frames its
  // x-y rectangle in a viewport of width / height `aspect`.
  void fit(const Vec3& lo, const Vec3& hi, double aspect = 1.0);
  void preset(ViewPreset view);

  PixelScale pixel_scale(double viewport_height, bool orthographic) const;

  // The ray through a viewport point in normalized device coordinates ([-1, 1], y up).
  struct Ray {
    Vec3 origin, dir;
  };
  Ray ray(double ndc_x, double ndc_y, double aspect, bool orthographic) const;
  // The inverse: where a world point appears, in normalized device coordinates; false when it
  // is behind the eye (perspective).
  bool project(const Vec3& point, double aspect, bool orthographic, double& ndc_x,
               double& ndc_y) const;
};

}  // namespace pegsim::gui
