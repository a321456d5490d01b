#include <system_error>

#include "cli/experiments/experiment.hpp"
#include "cli/experiments/experiment_files.hpp"
#include "cli/experiments/experiment_list.hpp"

namespace pegsim::cli {

const std::vector<Experiment>& experiments() {
  static const std::vector<Experiment> all = {triangle_drop_experiment(),
                                              box_stack_2d_experiment(),
                                              polygon_pour_experiment(),
                                              polyhedra_pour_experiment(),
                                              grasp_2d_experiment(),
                                              rotation_error_experiment(),
                                              momentum_row_experiment(),
                                              friction_heading_experiment(),
                                              free_rotation_experiment(),
                                              rolling_disc_experiment(),
                                              sphere_on_spheres_experiment(),
                                              quasi_rigid_disc_experiment(),
                                              gear_grasp_experiment(),
                                              volumetric_incline_experiment(),
                                              volumetric_spin_experiment(),
                                              volumetric_rolling_experiment(),
                                              volumetric_conforming_experiment()};
  return all;
}

const Experiment* find_experiment(const std::string& name) {
  for (const Experiment& e : experiments())
    if (e.name == name) return &e;
  return nullptr;
}

nlohmann::json run_experiment(const Experiment& experiment, const ExperimentOptions& options) {
  if (options.full && !experiment.has_full)
    throw ExperimentError("--full: " + experiment.name + " has no full grid (only sweeps do)");
  if (options.full && options.reduced) throw ExperimentError("--full and --reduced: choose one");
  std::error_code ec;
  std::filesystem::create_directories(options.out_dir, ec);
  if (ec || !std::filesystem::is_directory(options.out_dir))
    throw ExperimentError(options.out_dir.string() + ": cannot create the output folder");
  nlohmann::json summary = experiment.run(options);
  summary["experiment"] = experiment.name;
  summary["section"] = experiment.section;
  summary["reduced"] = options.reduced;
  if (experiment.has_full) summary["full"] = options.full;
  summary["primaries"] = to_string(options.primaries);
  write_experiment_file(options, experiment.name + ".json", summary.dump(2) + "\n");
  return summary;
}

}  // namespace pegsim::cli
