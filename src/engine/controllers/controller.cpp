#include "engine/controllers/controller.hpp"

namespace pegsim {

void WrenchSink::add(int body, const Vec3& force, const Vec3& torque) {
  if (body < 0 || model_.bodies.at(body).is_static) return;
  bodies_.at(body).force += force;
  bodies_.at(body).torque += torque;
}

void WrenchSink::add_at(int body, const Vec3& force, const Vec3& world_point) {
  if (body < 0 || model_.bodies.at(body).is_static) return;
  add(body, force, (world_point - bodies_[body].position).cross(force));
}

}  // namespace pegsim
