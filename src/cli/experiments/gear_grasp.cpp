// Seed 001 §6.4 (Example 4): the grasp of a lock gear after Brost and Christiansen (1996), in
// the 2.5D model, under the geometrically implicit formulation. The gear of
// scenes/gear_grasp.json (a disc of radius 10.375 mm and six superelliptic teeth, the paper's
// (56)-(57), 5 g, on a table) lies between the two fingers of a parallel-jaw gripper (the
// paper's (58)-(61): their top inner corners, the fingertips, on y = 0), which close
// symmetrically at 30 mm/s under PD control limited to 1 N each. A trial starts the fingertips'
// midpoint at (x, y) from the gear's centre and runs the scene's second; it succeeds when the
// gripper then holds the gear by its two outermost teeth (235 and 305 degrees) and nothing else,
// the gear at rest, as the paper's "held by its outer-most teeth". The map is the fraction of
// successes per cell of a grid of (x, y) (the paper's Fig. 10, 1 mm cells over 20 mm x 20 mm,
// its friction coefficients random within bounds it does not give).
#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "cli/experiments/experiment_files.hpp"
#include "cli/experiments/experiment_list.hpp"
#include "cli/svg_heat_map.hpp"
#include "cli/sweep/held_body.hpp"
#include "engine/dynamics/implicit_stage.hpp"
#include "engine/dynamics/simulator.hpp"
#include "io/scene.hpp"

namespace pegsim::cli {
namespace {

using nlohmann::json;

// The gear's parts in the scene: 0 the disc, 1..6 the teeth at the paper's theta_1..theta_6.
constexpr int kOuterLeft = 1, kOuterRight = 6;
// Random friction of the full sweep (the paper's bounds are not given): table and gripper.
constexpr double kSupportMu[2] = {0.1, 0.3}, kGripperMu[2] = {0.2, 0.4};
// The gear counts as at rest below this speed (m/s).
constexpr double kRest = 1e-3;

enum class Outcome { OuterTeeth, OtherTeeth, Disc, Missed, Failed };
const char* const kOutcomeNames[] = {"outer_teeth", "other_teeth", "disc", "missed", "failed"};

struct Grid {
  std::vector<double> x, y;  // mm
  int trials = 1;            // per cell
  bool random_friction = false;
};

std::vector<double> range(double from, double to, double step) {
  std::vector<double> v;
  for (double t = from; t <= to + 1e-9; t += step) v.push_back(std::round(t * 1e6) / 1e6);
  return v;
}

// The CI form: the sweet spot, the diametric grasp and a miss; the default: half of the
// symmetric map at 2 mm; the full map: the paper's 1 mm cells over x in [-10, 10] mm, four
// trials per cell with random friction.
Grid grid_for(const ExperimentOptions& options) {
  Grid g;
  if (options.reduced) {
    g.x = {0.0};
    g.y = {-12.0, -4.0, 0.0};
  } else if (options.full) {
    g.x = range(-10.0, 10.0, 1.0);
    g.y = range(-14.0, 6.0, 1.0);
    g.trials = 4;
    g.random_friction = true;
  } else {
    g.x = range(0.0, 10.0, 2.0);
    g.y = range(-14.0, 6.0, 2.0);
  }
  return g;
}

struct Trial {
  Outcome outcome = Outcome::Missed;
  double mu_support = 0.0, mu_gripper = 0.0;
  Vec3 gear_end = Vec3::Zero();  // m
  std::set<int> left_parts, right_parts;
  std::string failure;
};

Trial run_trial(const Scene& scene, double x_mm, double y_mm, double mu_support,
                double mu_gripper) {
  const Model& base = scene.model;
  const int gear = base.body_index("gear"), left = base.body_index("left"),
            right = base.body_index("right");
  Model model = base;
  State state = scene.initial;
  // The fingertips' midpoint is the origin: the gear starts at minus the offset.
  state.bodies[std::size_t(gear)].position = Vec3(-x_mm, -y_mm, 0.0) * 1e-3;
  model.bodies[std::size_t(gear)].support.mu = mu_support;
  for (int b : {gear, left, right}) model.bodies[std::size_t(b)].mu = mu_gripper;
  Trial t;
  t.mu_support = mu_support;
  t.mu_gripper = mu_gripper;
  Simulator sim(model, state, scene.settings);
  const long steps = std::lround(scene.duration / scene.settings.h);
  const StepReport* last = nullptr;
  for (long k = 0; k < steps; ++k) {
    last = &sim.step();
    if (last->failed) {
      t.outcome = Outcome::Failed;
      t.failure = "step " + std::to_string(k + 1) + ": " + last->failure;
      return t;
    }
  }
  const BodyState& g = sim.state().bodies[std::size_t(gear)];
  t.gear_end = g.position;
  std::map<int, std::set<int>> parts = parts_touched(sim.model(), sim.state(), *last, gear);
  t.left_parts = parts[left];
  t.right_parts = parts[right];
  const bool held = !t.left_parts.empty() && !t.right_parts.empty() && g.velocity.norm() < kRest;
  if (!held)
    t.outcome = Outcome::Missed;
  else if (t.left_parts == std::set<int>{kOuterLeft} && t.right_parts == std::set<int>{kOuterRight})
    t.outcome = Outcome::OuterTeeth;
  else if (t.left_parts.count(0) || t.right_parts.count(0))
    t.outcome = Outcome::Disc;
  else
    t.outcome = Outcome::OtherTeeth;
  return t;
}

std::string parts_text(const std::set<int>& parts) {
  std::string s;
  for (int p : parts) {
    if (!s.empty()) s += ' ';
    s += std::to_string(p);
  }
  return s;
}

json run_gear_grasp(const ExperimentOptions& options) {
  const std::filesystem::path file = options.scenes_dir / "gear_grasp.json";
  const Scene scene = load_scene(file);
  ImplicitBody gear_shape;
  const int gear = scene.model.body_index("gear");
  const bool usable =
      gear >= 0 && scene.model.body_index("left") >= 0 && scene.model.body_index("right") >= 0 &&
      implicit_body_shape(scene.model.bodies[std::size_t(gear)].shape, gear_shape) &&
      piece_count(gear_shape) == 7 && scene.dimension == 2;
  if (!usable)
    throw ExperimentError("gear_grasp: " + file.string() +
                          " is not seed 001's Example 4 (a planar gear of a disc and six teeth, "
                          "bodies \"gear\", \"left\" and \"right\")");
  const Grid grid = grid_for(options);
  const Body& g = scene.model.bodies[std::size_t(gear)];
  std::mt19937_64 rng(20070101);
  std::uniform_real_distribution<double> support(kSupportMu[0], kSupportMu[1]),
      gripper(kGripperMu[0], kGripperMu[1]);

  CsvTable cells({"x_mm", "y_mm", "trials", "successes", "probability", "outer_teeth",
                  "other_teeth", "disc", "missed", "failed"});
  CsvTable trials({"x_mm", "y_mm", "mu_support", "mu_gripper", "outcome", "left_parts",
                   "right_parts", "gear_end_x_mm", "gear_end_y_mm", "failure"});
  HeatMap map{"Seed 001 Example 4: success of the grasp by the outermost teeth",
              "x: fingertips' midpoint from the gear's centre (mm)",
              "y (mm)",
              grid.x,
              grid.y,
              {}};
  json table = json::array();
  int counts[5] = {0, 0, 0, 0, 0};
  for (double y : grid.y) {
    map.value.emplace_back();
    for (double x : grid.x) {
      int outcome_counts[5] = {0, 0, 0, 0, 0};
      for (int k = 0; k < grid.trials; ++k) {
        const double mu_s = grid.random_friction ? support(rng) : g.support.mu;
        const double mu_g = grid.random_friction ? gripper(rng) : g.mu;
        const Trial t = run_trial(scene, x, y, mu_s, mu_g);
        ++outcome_counts[int(t.outcome)];
        ++counts[int(t.outcome)];
        trials.add({CsvTable::number(x), CsvTable::number(y), CsvTable::number(mu_s),
                    CsvTable::number(mu_g), kOutcomeNames[int(t.outcome)], parts_text(t.left_parts),
                    parts_text(t.right_parts), CsvTable::number(t.gear_end.x() * 1e3),
                    CsvTable::number(t.gear_end.y() * 1e3), t.failure});
      }
      const int successes = outcome_counts[int(Outcome::OuterTeeth)];
      const double p = double(successes) / double(grid.trials);
      map.value.back().push_back(p);
      std::vector<std::string> row{CsvTable::number(x), CsvTable::number(y),
                                   std::to_string(grid.trials), std::to_string(successes),
                                   CsvTable::number(p)};
      json outcomes;
      for (int o = 0; o < 5; ++o) {
        row.push_back(std::to_string(outcome_counts[o]));
        outcomes[kOutcomeNames[o]] = outcome_counts[o];
      }
      cells.add(row);
      table.push_back({{"x_mm", x}, {"y_mm", y}, {"probability", p}, {"outcomes", outcomes}});
    }
  }
  // The plateau: cells where nearly every grasp succeeds; the sweet spot its centroid. A half
  // grid (x >= 0) stands for the symmetric map: its cells off x = 0 count twice, and x = 0.
  const bool half = grid.x.front() >= 0.0;
  int plateau = 0;
  double weight = 0.0, cx = 0.0, cy = 0.0;
  for (const json& c : table)
    if (c["probability"].get<double>() >= 0.9) {
      const double x = c["x_mm"].get<double>(), w = half && x > 0.0 ? 2.0 : 1.0;
      ++plateau;
      weight += w;
      cx += half ? 0.0 : x;
      cy += w * c["y_mm"].get<double>();
    }
  json summary;
  summary["setup"] =
      "gear: disc r = 10.375 mm + six superelliptic teeth (p = 4, 1.15 x 0.55 mm) centred on the "
      "rim at 235-305 deg, 5 g, table support friction; fingers: 30 mm squares on prismatic "
      "joints, fingertips on y = 0, 48 mm apart, closing at 30 mm/s under PD control limited to "
      "1 N; h = 1 ms, 1 s per trial; success: held by the two outermost teeth and nothing else, "
      "at rest";
  summary["paper"] =
      "Fig. 10: a plateau of success near 1 around the sweet spot (0, -11) mm of the fingertips' "
      "centre, about +-3 mm wide; low areas behind it (small y) where the jaws grasp nearly "
      "diametrically opposite points";
  summary["grid"] = {
      {"x_mm", grid.x},
      {"y_mm", grid.y},
      {"trials_per_cell", grid.trials},
      {"friction", grid.random_friction ? "random: table mu in [0.1, 0.3], gripper mu in [0.2, 0.4]"
                                        : "the scene's: table mu 0.2, gripper mu 0.3"}};
  json outcome_totals;
  for (int o = 0; o < 5; ++o) outcome_totals[kOutcomeNames[o]] = counts[o];
  summary["outcomes"] = outcome_totals;
  summary["plateau_cells"] = plateau;
  summary["sweet_spot_mm"] = plateau > 0 ? json::array({cx / weight, cy / weight}) : json();
  summary["table"] = table;
  summary["files"] = {
      write_experiment_file(options, "gear_grasp.csv", cells.text()).string(),
      write_experiment_file(options, "gear_grasp_trials.csv", trials.text()).string(),
      write_experiment_file(options, "gear_grasp.svg", heat_map_svg(map)).string()};
  return summary;
}

}  // namespace

Experiment gear_grasp_experiment() {
  Experiment e{"gear_grasp", "seed 001 §6.4 (Example 4), Fig. 10",
               "the parallel-jaw grasp of a lock gear: the map of grasps by the outermost teeth "
               "over the fingertips' start (--full: the paper's 1 mm grid, random friction)",
               run_gear_grasp};
  e.has_full = true;
  return e;
}

}  // namespace pegsim::cli
