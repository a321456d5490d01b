#include "gui/render/orbit_camera.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace pegsim::gui {

namespace {
// Stop short of the poles: the up vector (+z) would be parallel to the view direction.
constexpr double kMaxElevation = 0.4999 * std::numbers::pi;
}  // namespace

Vec3 OrbitCamera::eye() const {
  if (planar) return target + distance * Vec3::UnitZ();
  const Vec3 dir(std::cos(elevation) * std::cos(azimuth), std::cos(elevation) * std::sin(azimuth),
                 std::sin(elevation));
  return target + distance * dir;
}

Vec3 OrbitCamera::right() const {
  return planar ? Vec3::UnitX() : Vec3(forward().cross(Vec3::UnitZ()).normalized());
}

Vec3 OrbitCamera::up() const {
  return planar ? Vec3::UnitY() : Vec3(right().cross(forward()));
}

double OrbitCamera::half_height() const {
  return distance * std::tan(0.5 * fov_degrees * std::numbers::pi / 180.0);
}

void OrbitCamera::orbit(double d_azimuth, double d_elevation) {
  if (planar) return;
  azimuth += d_azimuth;
  elevation = std::clamp(elevation + d_elevation, -kMaxElevation, kMaxElevation);
}

void OrbitCamera::pan(double dx_fraction, double dy_fraction) {
  const double h = 2.0 * half_height();
  target += -dx_fraction * h * right() + dy_fraction * h * up();
}

void OrbitCamera::zoom(double factor) {
  distance = std::clamp(distance * factor, 1e-3, 1e6);
}

void OrbitCamera::zoom_about(double factor, const Ray& through) {
  const double before = distance;
  zoom(factor);
  const double applied = distance / before;  // zoom() clamps the distance
  const double along = through.dir.dot(forward());
  if (std::abs(along) < 1e-9) return;
  // q stays put on screen when the target moves towards it in proportion to the distance.
  const Vec3 q = through.origin + through.dir * ((target - through.origin).dot(forward()) / along);
  target = q + applied * (target - q);
}

void OrbitCamera::follow(const Vec3& lo, const Vec3& hi, double aspect) {
  const double kept = distance;
  fit(lo, hi, aspect);
  distance = std::max(distance, kept);
}

void OrbitCamera::fit(const Vec3& lo, const Vec3& hi, double aspect) {
  target = 0.5 * (lo + hi);
  if (planar) {
    // The rectangle with a 10 % margin: half its height, or half its width over the aspect.
    const Vec3 half = 0.5 * (hi - lo);
    const double hh = std::max({1.1 * half.y(), 1.1 * half.x() / std::max(aspect, 1e-3), 1e-3});
    distance = hh / std::tan(0.5 * fov_degrees * std::numbers::pi / 180.0);
    return;
  }
  const double radius = std::max(0.5 * (hi - lo).norm(), 1e-3);
  distance = 1.15 * radius / std::sin(0.5 * fov_degrees * std::numbers::pi / 180.0);
}

void OrbitCamera::preset(ViewPreset view) {
  if (planar) return;
  switch (view) {
    case ViewPreset::Front:
      azimuth = -0.5 * std::numbers::pi;
      elevation = 0.0;
      break;
    case ViewPreset::Top:
      azimuth = -0.5 * std::numbers::pi;
      elevation = kMaxElevation;
      break;
    case ViewPreset::Side:
      azimuth = 0.0;
      elevation = 0.0;
      break;
    case ViewPreset::Iso:
      azimuth = -0.25 * std::numbers::pi;
      elevation = std::atan(1.0 / std::sqrt(2.0));
      break;
  }
}

double PixelScale::at(const Vec3& point) const {
  if (orthographic) return metres;
  // Never zero: a point at the eye still gets a finite marker.
  return metres * std::max((point - eye).dot(forward), 1e-6);
}

PixelScale OrbitCamera::pixel_scale(double viewport_height, bool orthographic) const {
  const double pixels = std::max(viewport_height, 1.0);
  // The viewport spans 2 half_height() at the target's distance.
  const double at_target = 2.0 * half_height() / pixels;
  return {eye(), forward(),    right(),
          up(),  orthographic, orthographic ? at_target : at_target / distance};
}

OrbitCamera::Ray OrbitCamera::ray(double ndc_x, double ndc_y, double aspect,
                                  bool orthographic) const {
  const double hh = half_height();
  const Vec3 offset = ndc_x * hh * aspect * right() + ndc_y * hh * up();
  if (orthographic) return {eye() + offset, forward()};
  // The offset at the target's distance, seen from the eye.
  return {eye(), (distance * forward() + offset).normalized()};
}

bool OrbitCamera::project(const Vec3& point, double aspect, bool orthographic, double& ndc_x,
                          double& ndc_y) const {
  const Vec3 rel = point - eye();
  const double depth = rel.dot(forward());
  if (!orthographic && depth <= 0.0) return false;
  // ray() scales the offset at the target's distance; a point at `depth` scales with it.
  const double scale = orthographic ? 1.0 : distance / depth;
  const double hh = half_height();
  ndc_x = rel.dot(right()) * scale / (hh * aspect);
  ndc_y = rel.dot(up()) * scale / hh;
  return true;
}

}  // namespace pegsim::gui
