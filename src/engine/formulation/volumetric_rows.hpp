// The volumetric contact's resistance to rolling (seed 002 (3.7)), taken implicitly. A layer of
// stiffness k_v under a body turned by theta about an axis e across the normal pushes back with
// the moment k_v T theta (T = Contact::tilt: tr P - P under a flat face, P the patch's second
// moment; 0 under a ball or a cylinder rolling on its round side, whose surface only slides
// along itself), and its Hunt-Crossley damping a with k_v a J omega_t (J the common volume's
// inertia at unit density: (3.7) with k_n / h_n = k_v, a torque against the tangential angular
// velocity). The normal row places the force at the start of the step's centroid; over the step
// the turn grows by h omega, so the moment's change is an implicit damper
//   tau = -k_v (h T + a J) omega_t   across the normal (in the plane: about z),
// one compliant bilateral row per principal axis of that tensor, eliminated with the joints'
// rows (stewart_trinkle.cpp, as joint_damping.hpp's). Without it the explicit tilt stiffness
// of a stiff layer rocks a resting box unstably (h sqrt(k_v P / I) >> 2 at scene steps).
//
// A pair with a spin speed v_s > 0 (VolumetricLayer::spin_speed) resists spinning about the
// normal viscously instead of by Coulomb's law: the thesis' (3.8), tau_s = (F_n / V) I_g omega_n,
// is short of a factor in s/m; Gonthier's regularized Coulomb law, mu p |v| / v_s per unit area
// below the speed v_s, supplies it: summed over the common volume (p = k_v depth) it is
//   tau_s = -mu k_v J_n omega_n / v_s,   J_n = n^T J n,
// so (3.8) is this with mu / v_s = 1 s/m. One more damper row about the normal, as above.
#pragma once

#include <vector>

#include "engine/core/contact.hpp"
#include "engine/kinematics/joint_rows.hpp"

namespace pegsim {

// Appends the rolling rows (and viscous spin rows) of every enforced volumetric contact
// (stiffness > 0).
void volumetric_damper_rows(const Model& model, const std::vector<Contact>& contacts,
                            const std::vector<int>& enforced, double h,
                            std::vector<JointRow>& rows);

}  // namespace pegsim
