// Thesis §5.2.2 (Fig. 5.8, 5.9): ten unit squares, each 0.25 m above the one below with a
// horizontal offset in +-0.1 m, the bottom one static, frictionless, h = 0.005 s,
// epsilon = 0.07 m (scenes/box_stack_2d.json). The thesis: under PEG all boxes are in contact
// by step 130 with zero gaps at every active contact and the stack stands for thousands of
// steps; under its standard model (every contact within epsilon enforced) a quadruple SM trap
// forms at step 120 between the top two boxes, shifts the second box from the top left, and by
// step 130 the top six boxes are in quadruple traps with a neighbour. Each model runs the same
// scene; the standard model runs twice, as the thesis' (sm_enforce "all") and as ours
// (sm_enforce "primary").
#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "cli/experiments/contact_model_choice.hpp"
#include "cli/experiments/experiment_files.hpp"
#include "cli/experiments/experiment_list.hpp"
#include "cli/experiments/step_size_rules.hpp"
#include "cli/svg_chart.hpp"
#include "engine/dynamics/simulator.hpp"
#include "engine/metrics/overlap.hpp"
#include "io/scene.hpp"

namespace pegsim::cli {
namespace {

constexpr int kBoxes = 10;
constexpr int kReducedSteps = 400;  // 2 s: the landing (steps 40-130) and 270 steps at rest
constexpr int kFullSteps = 4000;    // 20 s: "thousands of steps later" (Fig. 5.9)
constexpr int kWindowFirst = 120, kWindowLast = 130;  // Fig. 5.8's second and third frames
// Box i rests on box i - 1 when the lowest vertex of i is within this of the highest of i - 1.
constexpr double kTouching = 1e-6;  // m

struct Variant {
  std::string label;  // the key in the JSON, the CSV and the charts
  std::string model;
  SmEnforce enforce = SmEnforce::Primary;
};

std::vector<Variant> variants(const std::vector<std::string>& models) {
  std::vector<Variant> out;
  for (const std::string& m : models) {
    if (m == "sm") {
      out.push_back({"sm-all", m, SmEnforce::All});  // the thesis' standard model
      out.push_back({"sm-primary", m, SmEnforce::Primary});
    } else {
      out.push_back({m, m, SmEnforce::Primary});
    }
  }
  return out;
}

// Per step, what the figures count.
struct StepFigures {
  int contacts = 0, enforced = 0, traps = 0;
  int boxes_in_traps = 0;         // boxes that own a trapped vertex or whose edges trap one
  int quadruple_pairs = 0;        // pairs of boxes each with a vertex trapped by the other's edges
  int boxes_resting = 0;          // dynamic boxes resting on the box below (kTouching)
  double max_penetration = 0.0;   // StepReport::max_penetration (gaps at the step's start), m
  double max_active_gap = 0.0;    // largest |gap| of a contact carrying force, m
  double overlap = 0.0;           // exact overlap area of all pairs at the step's end, m^2
  double max_drift = 0.0;         // largest |x - x0| of a box at the step's end, m
  double second_drift = 0.0;      // x - x0 of the second box from the top, m
  double first_drift = 0.0;       // x - x0 of the lowest dynamic box, m
  double max_height_error = 0.0;  // largest |y - (0.5 + i)| of a resting box, m
};

void count_traps(const StepReport& r, StepFigures& f) {
  std::set<int> boxes;
  std::set<std::pair<int, int>> one_way;
  for (const SmTrap& t : r.sm_traps) {
    boxes.insert(t.body);
    boxes.insert(t.other_body);
    one_way.insert({t.body, t.other_body});
  }
  f.boxes_in_traps = static_cast<int>(boxes.size());
  for (const auto& [a, b] : one_way) f.quadruple_pairs += a < b && one_way.count({b, a});
}

// Lowest and highest world y of a polygon body.
std::pair<double, double> y_range(const Model& model, const State& state, int body) {
  const BodyState& s = state.bodies[body];
  double lo = INFINITY, hi = -INFINITY;
  for (const Vec2& v : model.bodies[body].shape.polygon->vertices) {
    const double y = (s.position + s.orientation * Vec3(v.x(), v.y(), 0.0)).y();
    lo = std::min(lo, y);
    hi = std::max(hi, y);
  }
  return {lo, hi};
}

struct Run {
  std::vector<StepFigures> steps;  // steps[k]: after step k + 1
  std::string failure;             // the step no solver answered (the run stops there)
  std::vector<double> final_x_drift, final_height_error;  // per dynamic box, bottom up
};

// Runs `steps` steps; box[i] is the body index of box i (box[0] static, at the bottom).
Run simulate(const Scene& scene, const Settings& settings, const std::vector<int>& box, int steps) {
  Simulator sim(scene.model, scene.initial, settings);
  const Model& model = sim.model();
  Run run;
  run.steps.reserve(steps);
  for (int k = 0; k < steps; ++k) {
    const StepReport& r = sim.step();
    if (r.failed) {
      // As the thesis' runs stopped where PATH found no answer (§5.2).
      run.failure = "step " + std::to_string(k + 1) + ": " + r.failure;
      break;
    }
    const State& s = sim.state();
    StepFigures f;
    f.contacts = static_cast<int>(r.contacts.size());
    f.enforced = static_cast<int>(std::count(r.enforced.begin(), r.enforced.end(), 1));
    f.traps = static_cast<int>(r.sm_traps.size());
    count_traps(r, f);
    f.max_penetration = r.max_penetration;
    for (std::size_t c = 0; c < r.contacts.size(); ++c)
      if (r.normal_impulse[c] > 0.0)
        f.max_active_gap = std::max(f.max_active_gap, std::abs(r.contacts[c].gap));
    f.overlap = total_overlap(model, s).volume;  // m^2 in 2D
    for (int i = 1; i < kBoxes; ++i) {
      const double drift =
          s.bodies[box[i]].position.x() - scene.initial.bodies[box[i]].position.x();
      f.max_drift = std::max(f.max_drift, std::abs(drift));
      if (i == kBoxes - 2) f.second_drift = drift;
      if (i == 1) f.first_drift = drift;
      const bool resting =
          y_range(model, s, box[i]).first - y_range(model, s, box[i - 1]).second <= kTouching;
      if (!resting) continue;
      ++f.boxes_resting;
      f.max_height_error =
          std::max(f.max_height_error, std::abs(s.bodies[box[i]].position.y() - (0.5 + i)));
    }
    run.steps.push_back(f);
  }
  for (int i = 1; i < kBoxes; ++i) {
    const BodyState& b = sim.state().bodies[box[i]];
    run.final_x_drift.push_back(b.position.x() - scene.initial.bodies[box[i]].position.x());
    run.final_height_error.push_back(b.position.y() - (0.5 + i));
  }
  return run;
}

// The figures the thesis reports, from one run.
nlohmann::json summarize(const Run& run) {
  const int n = static_cast<int>(run.steps.size());
  int first_trap = -1, trap_steps = 0, total_traps = 0, all_resting = -1;
  int window_boxes = 0, window_pairs = 0, max_pairs = 0, max_boxes = 0;
  double window_second_drift = 0.0, max_second_drift = 0.0, max_first_drift = 0.0;
  double max_overlap = 0.0;
  double settled_penetration = 0.0, settled_active_gap = 0.0, settled_drift = 0.0;
  double settled_height_error = 0.0;
  for (int k = 0; k < n; ++k) {
    const StepFigures& f = run.steps[k];
    const int step = k + 1;
    if (f.traps > 0 && first_trap < 0) first_trap = step;
    trap_steps += f.traps > 0;
    total_traps += f.traps;
    max_pairs = std::max(max_pairs, f.quadruple_pairs);
    max_boxes = std::max(max_boxes, f.boxes_in_traps);
    max_overlap = std::max(max_overlap, f.overlap);
    if (std::abs(f.second_drift) > std::abs(max_second_drift)) max_second_drift = f.second_drift;
    if (std::abs(f.first_drift) > std::abs(max_first_drift)) max_first_drift = f.first_drift;
    if (step >= kWindowFirst && step <= kWindowLast) {
      window_boxes = std::max(window_boxes, f.boxes_in_traps);
      window_pairs = std::max(window_pairs, f.quadruple_pairs);
      if (std::abs(f.second_drift) > std::abs(window_second_drift))
        window_second_drift = f.second_drift;
    }
    // "All boxes in contact" from the first step after which every box stays resting.
    if (f.boxes_resting == kBoxes - 1) {
      if (all_resting < 0) all_resting = step;
    } else {
      all_resting = -1;
    }
  }
  if (all_resting > 0) {
    // From the step after: the gaps of step k are those at its start, the end of step k - 1.
    for (int k = all_resting; k < n; ++k) {
      const StepFigures& f = run.steps[k];
      settled_penetration = std::max(settled_penetration, f.max_penetration);
      settled_active_gap = std::max(settled_active_gap, f.max_active_gap);
      settled_drift = std::max(settled_drift, f.max_drift);
      settled_height_error = std::max(settled_height_error, f.max_height_error);
    }
  }
  double final_drift = 0.0, final_height = 0.0;
  for (double d : run.final_x_drift) final_drift = std::max(final_drift, std::abs(d));
  for (double d : run.final_height_error) final_height = std::max(final_height, std::abs(d));
  const StepFigures none;
  const StepFigures& at_130 = n >= kWindowLast ? run.steps[kWindowLast - 1] : none;
  return {{"steps", n},
          {"failure", run.failure},
          {"first_sm_trap_step", first_trap},
          {"steps_with_sm_traps", trap_steps},
          {"sm_traps_total", total_traps},
          {"max_quadruple_trap_pairs", max_pairs},
          {"max_boxes_in_traps", max_boxes},
          {"boxes_in_traps_steps_120_130", window_boxes},
          {"quadruple_trap_pairs_steps_120_130", window_pairs},
          {"second_from_top_drift_steps_120_130", window_second_drift},
          {"second_from_top_largest_drift", max_second_drift},
          {"lowest_box_largest_drift", max_first_drift},
          {"boxes_resting_at_step_130", at_130.boxes_resting},
          {"all_resting_from_step", all_resting},
          {"max_penetration_after_all_resting", settled_penetration},
          {"max_active_gap_after_all_resting", settled_active_gap},
          {"max_x_drift_after_all_resting", settled_drift},
          {"max_height_error_after_all_resting", settled_height_error},
          {"max_overlap", max_overlap},
          {"final_x_drift", run.final_x_drift},
          {"final_height_error", run.final_height_error},
          {"final_max_x_drift", final_drift},
          {"final_max_height_error", final_height}};
}

nlohmann::json run_box_stack(const ExperimentOptions& options) {
  const Scene scene = load_scene(options.scenes_dir / "box_stack_2d.json");
  std::vector<int> box;
  for (int i = 0; i < kBoxes; ++i) {
    const std::string name = "box" + std::to_string(i);
    const int b = scene.model.body_index(name);
    if (b < 0 || scene.model.bodies[b].shape.kind != ShapeKind::Polygon)
      throw ExperimentError("box_stack_2d.json: no polygon body named '" + name + "'");
    box.push_back(b);
  }
  const int steps = options.reduced ? kReducedSteps : kFullSteps;

  CsvTable csv({"model", "step", "time", "contacts", "enforced", "sm_traps", "boxes_in_traps",
                "quadruple_trap_pairs", "boxes_resting", "max_penetration", "max_active_gap",
                "overlap", "max_x_drift", "second_from_top_drift", "max_height_error"});
  Chart drift;
  drift.title = "Box stack: horizontal drift of the second box from the top (thesis Fig. 5.8)";
  drift.x.label = "step";
  drift.y.label = "x - x0 (m)";
  Chart traps;
  traps.title = "Box stack: SM traps per step (thesis Fig. 5.8)";
  traps.x.label = "step";
  traps.y.label = "SM traps";
  nlohmann::json summary;
  summary["thesis"] = {
      {"sm",
       "step 110 fine; step 120 a quadruple SM trap between the top two boxes shifts the "
       "second box from the top to the left; step 130 the top six boxes are in quadruple "
       "traps with a neighbour; the stack does not topple"},
      {"peg",
       "step 110 eight of ten boxes in contact; step 130 all in contact, zero gaps (to "
       "machine precision) at all active contacts; steady and stable thousands of steps "
       "later"}};
  for (const Variant& v : variants(chosen_models(options.models))) {
    Settings settings = scene.settings;
    use_contact_model(settings, v.model, options.primaries);
    settings.sm_enforce = v.enforce;
    settings.feasibility_depth = feasibility_allowance(settings.h);  // as in the pours
    const Run run = simulate(scene, settings, box, steps);
    ChartSeries d, t;
    d.label = t.label = v.label;
    for (int k = 0; k < static_cast<int>(run.steps.size()); ++k) {
      const StepFigures& f = run.steps[k];
      const int step = k + 1;
      csv.add({v.label, std::to_string(step), CsvTable::number(step * settings.h),
               std::to_string(f.contacts), std::to_string(f.enforced), std::to_string(f.traps),
               std::to_string(f.boxes_in_traps), std::to_string(f.quadruple_pairs),
               std::to_string(f.boxes_resting), CsvTable::number(f.max_penetration),
               CsvTable::number(f.max_active_gap), CsvTable::number(f.overlap),
               CsvTable::number(f.max_drift), CsvTable::number(f.second_drift),
               CsvTable::number(f.max_height_error)});
      d.x.push_back(step);
      d.y.push_back(f.second_drift);
      t.x.push_back(step);
      t.y.push_back(f.traps);
    }
    drift.series.push_back(std::move(d));
    traps.series.push_back(std::move(t));
    nlohmann::json figures = summarize(run);
    figures["model"] = v.model;
    figures["sm_enforce"] = to_string(v.enforce);
    figures["feasibility_depth"] = settings.feasibility_depth;
    summary["models"][v.label] = std::move(figures);
  }
  summary["files"] = {
      write_experiment_file(options, "box_stack_2d.csv", csv.text()).string(),
      write_experiment_file(options, "box_stack_2d.svg", chart_svg(drift)).string(),
      write_experiment_file(options, "box_stack_2d_traps.svg", chart_svg(traps)).string()};
  return summary;
}

}  // namespace

Experiment box_stack_2d_experiment() {
  return {"box_stack_2d", "thesis §5.2.2, Fig. 5.8-5.9",
          "ten staggered squares fall onto a static one: SM traps, gaps and drift per model "
          "(the standard model as the thesis' and as ours)",
          run_box_stack};
}

}  // namespace pegsim::cli
