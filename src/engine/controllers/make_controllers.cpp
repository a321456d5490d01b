#include "engine/controllers/make_controllers.hpp"

#include "engine/controllers/pd_joint_controller.hpp"
#include "engine/controllers/wrench_schedule.hpp"

namespace pegsim {

std::vector<std::unique_ptr<Controller>> make_controllers(const ControllerSpecs& specs) {
  std::vector<std::unique_ptr<Controller>> out;
  // Implicit drives are rows of the step's problem (joint_drives.hpp), not wrenches.
  for (const PdJointSpec& s : specs.pd_joints)
    if (!s.implicit) out.push_back(std::make_unique<PdJointController>(s));
  for (const WrenchSpec& s : specs.wrenches) out.push_back(std::make_unique<WrenchSchedule>(s));
  return out;
}

}  // namespace pegsim
