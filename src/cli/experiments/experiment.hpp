// `pegsim-cli experiment NAME`: the thesis' Chapter 5 experiments, each writing its figures
// (CSV rows, a JSON summary beside the thesis' numbers, SVG plots) into one folder.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/core/settings.hpp"

namespace pegsim::cli {

struct ExperimentOptions {
  std::filesystem::path out_dir;                // where the files go (created if missing)
  std::filesystem::path scenes_dir;             // the shipped scenes
  bool reduced = false;                         // the CI form: one seed, three step sizes
  bool full = false;                            // a sweep's full grid (Experiment::has_full)
  bool force = false;                           // allow replacing files of an earlier run
  std::vector<std::string> models;              // contact models to compare (empty: every model)
  Primaries primaries = Primaries::LargestGap;  // of the compared models' I-constraints
  int jobs = 1;  // worker threads of the experiments that run their trials as a sweep
};

// Bad experiment input (unknown name, unusable option): one line naming what was expected.
struct ExperimentError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Experiment {
  std::string name;
  std::string section;      // where the thesis describes it, e.g. "thesis §5.4, Fig. 5.27"
  std::string description;  // one line
  // Runs the experiment, writes its files and returns the JSON summary (also written).
  std::function<nlohmann::json(const ExperimentOptions&)> run;
  // Experiments on generated scenes: the scene (docs/scene-format.md) of the trial with this
  // seed and step size, for `--write-scene`; empty for experiments on shipped scenes.
  std::function<nlohmann::json(std::uint64_t seed, double h)> scene = {};
  // A parameter sweep whose default is a reduced grid and whose full grid `--full` asks for.
  bool has_full = false;
};

// Every experiment, in the thesis' order.
const std::vector<Experiment>& experiments();
const Experiment* find_experiment(const std::string& name);

// Runs one experiment: checks the options, runs it, writes <out>/<name>.json and returns it.
nlohmann::json run_experiment(const Experiment& experiment, const ExperimentOptions& options);

}  // namespace pegsim::cli
