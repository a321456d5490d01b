// A contact written out by hand, for the contact-model stages' tests.
#pragma once

#include "engine/core/contact.hpp"

namespace pegsim::test {

// A primary contact of body a on body b at `point` (on a), normal from a onto b, gap psi.
inline Contact make_contact(int a, int b, const Vec3& point, const Vec3& normal, double gap) {
  Contact c;
  c.body_a = a;
  c.body_b = b;
  c.point_a = point;
  c.normal = normal.normalized();
  c.gap = gap;
  return c;
}

}  // namespace pegsim::test
