// pegsim-cli: the headless front end (run, validate, and inspect or export run files).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <vector>

#include "cli/args.hpp"
#include "cli/compare_solvers.hpp"
#include "cli/experiments/experiment.hpp"
#include "cli/progress_bar.hpp"
#include "cli/run_export.hpp"
#include "cli/run_info.hpp"
#include "cli/run_overlap.hpp"
#include "cli/run_summary.hpp"
#include "cli/sweep/sweep_command.hpp"
#include "cli/sweep/sweep_runner.hpp"
#include "cli/sweep/sweep_spec.hpp"
#include "cli/trajectory_csv.hpp"
#include "engine/core/settings_preset.hpp"
#include "engine/dynamics/scene_checks.hpp"
#include "engine/dynamics/simulator.hpp"
#include "engine/solvers/solver.hpp"
#include "io/run_header.hpp"
#include "io/run_reader.hpp"
#include "io/run_writer.hpp"
#include "io/scene.hpp"
#include "io/scene_settings.hpp"
#include "io/sds_writer.hpp"

namespace pegsim::cli {
namespace {

// The most steps one `run` takes: 10^9 steps are hours of work at a microsecond each, and every
// count below it is exact in a double and in the step counter.
constexpr long long kMaxRunSteps = 1000000000;

// Whether two paths name one file (the second may not exist yet).
bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (std::filesystem::equivalent(a, b, ec)) return true;
  return std::filesystem::weakly_canonical(a, ec) == std::filesystem::weakly_canonical(b, ec);
}

// The files a run creates, removed again unless it ends well (keep()). A file that existed
// before (replaced under --force) is left as the run wrote it.
class CreatedFiles {
 public:
  void add(const std::string& file) {
    if (!std::filesystem::exists(file)) files_.push_back(file);
  }
  void keep() { files_.clear(); }
  ~CreatedFiles() {
    std::error_code ec;
    for (const std::string& f : files_) std::filesystem::remove(f, ec);
  }

 private:
  std::vector<std::string> files_;
};

// SIGINT and SIGTERM while a run steps: noted, so that the run ends after the step under way
// with its files flushed and closed and its summary printed, instead of dying mid-write.
class StopSignals {
 public:
  StopSignals() {
    received_ = 0;
    previous_int_ = std::signal(SIGINT, note);
    previous_term_ = std::signal(SIGTERM, note);
  }
  ~StopSignals() {
    std::signal(SIGINT, previous_int_);
    std::signal(SIGTERM, previous_term_);
  }
  int received() const { return received_; }

 private:
  static void note(int signal) { received_ = signal; }
  static volatile std::sig_atomic_t received_;
  void (*previous_int_)(int);
  void (*previous_term_)(int);
};
volatile std::sig_atomic_t StopSignals::received_ = 0;

// A number for a message: 1e+300, 0.01.
std::string format_seconds(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", x);
  return text;
}

// --package-path DIR[:DIR...]: where robots' package:// URIs are looked for first.
std::vector<std::filesystem::path> package_path(const Args& a) {
  std::vector<std::filesystem::path> dirs;
  if (auto v = a.value("package-path")) {
    std::stringstream list(*v);
    for (std::string dir; std::getline(list, dir, ':');)
      if (!dir.empty()) dirs.emplace_back(dir);
    if (dirs.empty()) throw UsageError("--package-path: expected folders separated by ':'");
  }
  return dirs;
}

constexpr const char* kUsage = R"(usage: pegsim-cli <command> [options]

commands:
  run SCENE.json      simulate a scene and print a summary (with the largest overlap of any
                      body pair and the SM-trap count); a robot file (ROBOT.urdf) is the
                      robot alone on a fixed base, its joints at 0, under gravity
      --package-path DIRS          folders holding robots' packages (package:// URIs),
                                   ':'-separated, searched before ROS_PACKAGE_PATH
      --duration T | --steps N     how long (default: the scene's duration)
      --preset exact|interactive   the solver settings of a preset, before the options
                                   below: interactive = pgs-contact alone, 20 sweeps a
                                   step as a budget, 4 contacts per body pair and normal
                                   (approximate, bounded cost)
      --h H                        step size in s
      --solver NAME                @SOLVERS@
      --fallbacks A,B | none       solvers tried when the first fails
      --formulation NAME           @FORMULATIONS@
                                   ncp (the quadratic cone) takes the solvers
                                   @NCP_SOLVERS@
      --contact-model NAME         sm | lnc | peg | corrective | volumetric (thesis Ch. 4,
                                   §5.2; volumetric: seed 002)
      --sm-enforce primary|all     contacts the standard model enforces: primary ones, or
                                   every one within epsilon (the thesis' experiments)
      --contacts-per-pair N        at most N of the standard model's contacts per body
                                   pair and normal direction: the deepest and those
                                   spanning the largest area (default 0: all)
      --gyroscopic midpoint|implicit|explicit  the gyroscopic term: the midpoint Lie
                                   rule (default; keeps a free body's L and energy),
                                   backward Euler, or explicit as thesis (2.30)
      --primaries largest-gap|several  which contact of an I-constraint carries its force:
                                   the largest gap at the start (4.14), or any, searched
                                   so that it is one the step ends at (4.10)-(4.13)
      --epsilon E                  contact distance in m
      --eps-theta X                applicability relaxation (-sin theta)
      --friction-directions N      directions of the linearized cone (>= 3; 2 in 2D)
      --cone-orientation motion|fixed  one friction direction against each contact's
                                   slip (default: Coulomb's law at any heading), or
                                   from a fixed tangent as RPIsim
      --tolerance T                solver tolerance on the natural-map residual
      --max-iterations N           solver iteration / pivot limit
      --on-failure stop|continue   what a step no solver answers does
      --time-budget S              wall-clock seconds a step's solve may take; past it
                                   the step goes on with the best answer found
                                   (approximate, and no longer reproducible; default 0:
                                   no limit)
      --iteration-budget           --max-iterations is a budget: a step whose solver
                                   reaches it goes on with its answer (approximate,
                                   reproducible)
      --csv FILE                   write the trajectory (one row per step)
      --record RUN.h5              record the run to an HDF5 run file (docs/run-format.md)
      --record-problems            with --record: also each step's LCP (M, q, z)
      --force                      allow --csv / --record to replace an existing file
      --json                       print the summary as one JSON object
      --quiet                      no progress bar
  validate SCENE.json  check a scene (or ROBOT.urdf) without running it; warn of what will
                       spoil a run (initial overlaps, joints apart, a step too long for the
                       scene, what a robot file has that pegsim does not model)
      --package-path DIRS          as for run
  info RUN.h5          statistics of a recorded run: frames, settings and their changes,
                       solver, contacts, largest body-pair overlap
      --json                       print them as one JSON object
  export RUN.h5 --csv DIR          write DIR/<body>.csv trajectories, DIR/contacts.csv and
                                   DIR/sm_traps.csv
  export RUN.h5 --sds OUT.h5       write the RPIsim Simulation Data Standard (docs/sds.md)
      --force                      allow replacing existing files
  overlap RUN.h5       exact overlap volume (2D: area) of all body pairs in every frame, and
                       its maximum
      --csv FILE                   one row per frame there instead of on the terminal
      --force                      allow replacing FILE
  compare-solvers FILE             re-solve recorded problems (run file recorded with
                                   --record-problems, or SDS file) with every solver;
                                   also a Siconos LCP/MLCP .dat file or an FCLib local
                                   problem (HDF5)
      --frames a:b                 frames a to b - 1 only (a: or :b open-ended)
      --csv OUT.csv                one row per problem per solver
      --plot OUT.svg               Dolan-More performance profile
      --force                      allow replacing OUT.csv / OUT.svg
  experiment list      the thesis' experiments this program reproduces
  experiment NAME      run one; writes NAME.csv, NAME.json (with the thesis' figures), NAME.svg
      --out DIR                    output folder (default: ./experiments/NAME)
      --reduced                    the short form CI runs (one seed, three step sizes)
      --full                       a sweep's full grid (gear_grasp: 1 mm cells, 4 trials each)
      --models A,B                 contact models to compare (default: every model)
      --primaries largest-gap|several  the models' I-constraint primaries (as for run)
      --jobs N                     worker threads of the pours' trials (default:
                                   SLURM_CPUS_PER_TASK, else the machine's cores); an
                                   interrupted pour resumes
      --scenes DIR                 the shipped scenes (default: found beside the program)
      --force                      allow replacing the files of an earlier run
      --write-scene FILE           write one trial's generated scene instead (polygon_pour,
                                   polyhedra_pour, grasp_2d): --seed N (default 0), --h H
                                   (default 0.01)
  sweep SWEEP.json --out DIR      run every point of a parameter sweep (docs/sweeps.md) on
                                   the local cores, resuming the points DIR lacks; writes
                                   DIR/results.csv, results.h5 and the plots
      --jobs N                     worker threads (default: SLURM_CPUS_PER_TASK, else the
                                   machine's cores)
      --shard i/N                  only the points whose index % N is i (default under a
                                   Slurm array: SLURM_ARRAY_TASK_ID of SLURM_ARRAY_TASK_COUNT)
      --quiet                      no progress
      --list                       print the points (index and parameters, CSV) instead of
                                   running them; no --out needed
  sweep merge DIR... --out DIR     combine shards' folders into the results of the whole
                                   sweep (the same files a single run writes)
  sweep slurm SWEEP.json --array N --out DIR
                                   write DIR/slurm/sweep.sbatch (an array job of N shards),
                                   merge.sbatch (after all of them) and submit.sh
      --cpus-per-task C            each shard's workers (default 1)
      --partition P, --time T      the jobs' partition and time limit
  help                 this text
  --version            the program's version

exit status: 0 success, 1 the run stopped on a failed step, 2 bad input or usage,
3 out of memory (the input was valid; what it asked for did not fit)
)";

// `names` joined by `separator`; with `wrap`, broken before 90 columns onto lines indented to
// the usage text's option column.
std::string name_list(const std::vector<std::string>& names, const std::string& separator,
                      bool wrap = true) {
  const std::string indent(35, ' ');
  std::string out, line;
  for (std::size_t k = 0; k < names.size(); ++k) {
    const std::string item = names[k] + (k + 1 < names.size() ? separator : "");
    if (wrap && !line.empty() && indent.size() + line.size() + item.size() > 90) {
      while (line.back() == ' ') line.pop_back();
      out += line + "\n" + indent;
      line.clear();
    }
    line += item;
  }
  return out + line;
}

// The usage text, with the solver and formulation names from the engine's registries.
std::string usage() {
  std::string text = kUsage;
  auto fill = [&](const std::string& key, const std::string& value) {
    text.replace(text.find(key), key.size(), value);
  };
  fill("@SOLVERS@", name_list(solver_names(), ", "));
  fill("@FORMULATIONS@", name_list(formulation_names(), " | "));
  fill("@NCP_SOLVERS@", name_list(ncp_solver_names(), ", "));
  return text;
}

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  if (s == "none") return out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

// `dimension`: the scene's (3, or 2 for a planar scene), for what friction_directions takes.
void apply_overrides(const Args& a, Settings& s, int dimension) {
  // The preset first: the options beside it override its fields.
  if (auto v = a.value("preset")) {
    if (!apply_preset(*v, s))
      throw UsageError("--preset: expected one of " + name_list(preset_names(), ", ", false) +
                       ", got '" + *v + "'");
  }
  if (auto h = a.positive_number("h")) s.h = *h;
  if (auto v = a.value("solver")) s.solver = *v;
  if (auto v = a.value("fallbacks")) s.fallbacks = split_list(*v);
  if (auto v = a.value("formulation")) {
    if (!parse_formulation(*v, s.formulation))
      throw UsageError("--formulation: expected one of " +
                       name_list(formulation_names(), ", ", false) + ", got '" + *v + "'");
  }
  if (auto v = a.value("contact-model")) {
    if (!parse_contact_model(*v, s.contact_model))
      throw UsageError("--contact-model: expected sm, lnc, peg, corrective or volumetric, got '" +
                       *v + "'");
  }
  if (auto v = a.value("sm-enforce")) {
    if (!parse_sm_enforce(*v, s.sm_enforce))
      throw UsageError("--sm-enforce: expected primary or all, got '" + *v + "'");
  }
  if (auto v = a.value("contacts-per-pair")) {
    char* end = nullptr;
    const long long n = std::strtoll(v->c_str(), &end, 10);
    if (v->empty() || *end != '\0' || n < 0 || n > std::numeric_limits<int>::max())
      throw UsageError("--contacts-per-pair: expected an integer >= 0 (0: every contact), got '" +
                       *v + "'");
    s.contacts_per_pair = int(n);
  }
  if (auto v = a.value("gyroscopic")) {
    if (!parse_gyroscopic(*v, s.gyroscopic))
      throw UsageError("--gyroscopic: expected midpoint, implicit or explicit, got '" + *v + "'");
  }
  if (auto v = a.value("cone-orientation")) {
    if (!parse_cone_orientation(*v, s.cone_orientation))
      throw UsageError("--cone-orientation: expected motion or fixed, got '" + *v + "'");
  }
  if (auto v = a.value("primaries")) {
    if (!parse_primaries(*v, s.primaries))
      throw UsageError("--primaries: expected largest-gap or several, got '" + *v + "'");
  }
  if (auto e = a.non_negative_number("epsilon")) s.epsilon = *e;
  if (auto v = a.value("eps-theta")) {
    char* end = nullptr;
    s.eps_theta = std::strtod(v->c_str(), &end);
    if (v->empty() || *end != '\0' || s.eps_theta < -1.0 || s.eps_theta > 1.0)
      throw UsageError("--eps-theta: expected a number in [-1, 1], got '" + *v + "'");
  }
  if (auto v = a.value("friction-directions")) {
    // The rule and the message of the scene file's /settings/friction_directions.
    char* end = nullptr;
    const long long n = std::strtoll(v->c_str(), &end, 10);
    if (v->empty() || *end != '\0' || !friction_directions_allowed(n, dimension))
      throw UsageError(std::string("--friction-directions: expected ") +
                       friction_directions_expected(dimension) + ", got '" + *v + "'");
    s.friction_directions = int(n);
  }
  if (auto t = a.positive_number("tolerance")) s.tolerance = *t;
  if (auto n = a.positive_integer("max-iterations")) s.max_iterations = int(*n);
  if (auto v = a.value("on-failure")) {
    if (!parse_failure_policy(*v, s.on_failure))
      throw UsageError("--on-failure: expected stop or continue, got '" + *v + "'");
  }
  if (auto t = a.non_negative_number("time-budget")) s.time_budget = *t;
  if (a.flag("iteration-budget")) s.iteration_budget = true;
  if (std::string why = check_settings(s); !why.empty()) throw UsageError(why);
}

int run(const std::vector<std::string>& argv) {
  Args a(argv, {"json", "quiet", "force", "record-problems", "iteration-budget"},
         {"duration",
          "steps",
          "preset",
          "h",
          "solver",
          "fallbacks",
          "formulation",
          "contact-model",
          "sm-enforce",
          "contacts-per-pair",
          "gyroscopic",
          "primaries",
          "cone-orientation",
          "epsilon",
          "eps-theta",
          "friction-directions",
          "tolerance",
          "max-iterations",
          "on-failure",
          "time-budget",
          "csv",
          "record",
          "package-path"});
  if (a.positional().size() != 1) throw UsageError("run: expected one scene file");
  if (a.flag("record-problems") && !a.value("record"))
    throw UsageError("--record-problems needs --record RUN.h5");
  if (a.value("duration") && a.value("steps"))
    throw UsageError("--duration and --steps exclude each other");

  Scene scene = load_scene(a.positional()[0], package_path(a));
  apply_overrides(a, scene.settings, scene.dimension);
  if (std::string why = check_settings(scene.settings, scene.model); !why.empty())
    throw UsageError(why);
  long long steps = 0;
  if (auto n = a.positive_integer("steps")) {
    steps = *n;
    if (steps > kMaxRunSteps)
      throw UsageError("--steps: at most " + std::to_string(kMaxRunSteps) + " steps can run, got " +
                       std::to_string(steps));
  } else {
    const double duration = a.positive_number("duration").value_or(scene.duration);
    const double count = std::round(duration / scene.settings.h);
    // Checked as a double: past 2^63 the conversion itself would be undefined.
    if (!(count <= static_cast<double>(kMaxRunSteps)))
      throw UsageError("a duration of " + format_seconds(duration) +
                       " at h = " + format_seconds(scene.settings.h) + " is " +
                       format_seconds(count) + " steps; at most " + std::to_string(kMaxRunSteps) +
                       " can run (a shorter duration or a longer h)");
    steps = static_cast<long long>(count);
  }

  // Every output is checked before any is created, and what this run created is removed if it
  // fails: a failed run leaves no half-written file behind, and never one file written twice.
  const auto csv_file = a.value("csv"), record_file = a.value("record");
  if (csv_file && record_file && same_file(*csv_file, *record_file))
    throw UsageError("--csv and --record name the same file " + *csv_file);
  for (const auto& file : {csv_file, record_file})
    if (file && !a.flag("force") && std::filesystem::exists(*file))
      throw UsageError(*file + ": exists; not overwriting it (use --force)");
  CreatedFiles created;

  Simulator sim(scene.model, scene.initial, scene.settings);
  RunSummary summary;
  summary.start(sim.model(), sim.state(), sim.settings());
  summary.warnings.insert(summary.warnings.begin(), scene.warnings.begin(), scene.warnings.end());
  sim.add_observer(&summary);
  std::optional<TrajectoryCsv> csv;
  if (csv_file) {
    created.add(*csv_file);
    csv.emplace(*csv_file, a.flag("force"), sim.model(), sim.state());
    sim.add_observer(&*csv);
  }
  std::optional<RunWriter> recorder;
  if (record_file) {
    RunWriterOptions options;
    options.overwrite = a.flag("force");
    options.record_problems = a.flag("record-problems");
    created.add(*record_file);
    recorder.emplace(*record_file,
                     make_run_header(scene, sim.model(), sim.settings(), "pegsim-cli"), sim.state(),
                     options);
    sim.add_observer(&*recorder);
    if (options.record_problems) sim.set_full_problems(true);
  }
  const StopSignals signals;  // SIGINT and SIGTERM end the run after the step under way

  const bool progress = !a.flag("quiet") && isatty(STDERR_FILENO);
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  double last_draw = -1.0;
  for (long long k = 0; k < steps; ++k) {
    if (const int signal = signals.received()) {
      summary.stop_reason =
          std::string("interrupted by ") + (signal == SIGINT ? "SIGINT" : "SIGTERM");
      break;
    }
    if (sim.step().failed) break;
    if (progress && elapsed() - last_draw > 0.1) {
      last_draw = elapsed();
      draw_progress_bar("step", k + 1, steps, last_draw);
    }
  }
  if (recorder) recorder->close();
  if (csv) csv->close();
  created.keep();
  RunInfo info{scene.name, elapsed(), steps};
  if (progress) {
    draw_progress_bar("step", summary.steps, steps, info.wall_seconds);
    std::fputc('\n', stderr);
  }
  if (a.flag("json"))
    std::cout << summary_json(info, summary, sim).dump(2) << '\n';
  else
    print_summary(std::cout, info, summary, sim);
  if (const int signal = signals.received()) return 128 + signal;
  return summary.stop_reason.empty() ? 0 : 1;
}

int validate(const std::vector<std::string>& argv) {
  Args a(argv, {}, {"package-path"});
  if (a.positional().size() != 1) throw UsageError("validate: expected one scene file");
  Scene scene = load_scene(a.positional()[0], package_path(a));
  Simulator check(scene.model, scene.initial, scene.settings);
  std::cout << a.positional()[0] << ": ok (" << scene.model.bodies.size()
            << " bodies, h = " << scene.settings.h << " s, duration " << scene.duration << " s)\n";
  for (const std::string& w : scene.warnings) std::cout << "  warning: " << w << '\n';
  for (const std::string& w : scene_warnings(scene.model, scene.initial, scene.settings))
    std::cout << "  warning: " << w << '\n';
  return 0;
}

int info(const std::vector<std::string>& argv) {
  Args a(argv, {"json"}, {});
  if (a.positional().size() != 1) throw UsageError("info: expected one run file");
  RunReader reader(a.positional()[0]);
  const RunFileStats stats = run_file_stats(reader);
  if (a.flag("json"))
    std::cout << stats_json(stats).dump(2) << '\n';
  else
    print_stats(std::cout, a.positional()[0], stats);
  return 0;
}

int export_run(const std::vector<std::string>& argv) {
  Args a(argv, {"force"}, {"csv", "sds"});
  if (a.positional().size() != 1) throw UsageError("export: expected one run file");
  const auto dir = a.value("csv");
  const auto sds = a.value("sds");
  if (!dir == !sds) throw UsageError("export: expected either --csv DIR or --sds OUT.h5");
  RunReader reader(a.positional()[0]);
  if (sds) {
    const SdsExport e = export_sds(reader, *sds, a.flag("force"));
    std::cout << "wrote " << *sds << ": " << e.frames << " frames, " << e.problems
              << " with their complementarity problem\n";
    return 0;
  }
  const auto files = export_csv(reader, *dir, a.flag("force"));
  std::cout << "wrote " << files.size() << " files (" << reader.frame_count() << " frames) to "
            << *dir << '\n';
  return 0;
}

int overlap(const std::vector<std::string>& argv) {
  Args a(argv, {"force"}, {"csv"});
  if (a.positional().size() != 1) throw UsageError("overlap: expected one run file");
  RunReader reader(a.positional()[0]);
  const std::vector<FrameOverlap> frames = run_overlap(reader);
  report_overlap(std::cout, a.positional()[0], frames, a.value("csv").value_or(""),
                 a.flag("force"));
  return 0;
}

int compare(const std::vector<std::string>& argv) {
  Args a(argv, {"force"}, {"frames", "csv", "plot"});
  if (a.positional().size() != 1)
    throw UsageError(
        "compare-solvers: expected one run file, SDS file, Siconos .dat file or FCLib file");
  CompareOptions o;
  o.file = a.positional()[0];
  if (auto v = a.value("frames")) parse_frame_range(*v, o);
  o.csv = a.value("csv").value_or("");
  o.svg = a.value("plot").value_or("");
  o.force = a.flag("force");
  return compare_solvers(o, std::cout);
}

// The shipped scenes: installed beside the program, else in the source tree it was built from.
std::filesystem::path default_scenes_directory() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto installed = exe.parent_path() / ".." / "share" / "pegsim" / "scenes";
    if (std::filesystem::is_directory(installed)) return installed;
  }
  return PEGSIM_SOURCE_SCENES;
}

// `experiment NAME --write-scene FILE`: the generated scene of one trial, to open or run.
int write_scene(const Experiment& e, const Args& a, const std::string& file) {
  if (!e.scene)
    throw UsageError("experiment " + e.name +
                     ": --write-scene: this experiment runs shipped "
                     "scenes, it generates none");
  std::uint64_t seed = 0;
  if (auto v = a.value("seed")) {
    if (v->empty() || v->find_first_not_of("0123456789") != std::string::npos || v->size() > 9)
      throw UsageError("--seed: expected an integer from 0 to 999999999, got '" + *v + "'");
    seed = std::stoull(*v);
  }
  const double h = a.positive_number("h").value_or(0.01);
  if (std::filesystem::exists(file) && !a.flag("force"))
    throw UsageError(file + ": exists (pass --force to replace it)");
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << e.scene(seed, h).dump(2) << '\n';
  if (!out.flush()) throw UsageError(file + ": cannot be written");
  std::cout << "wrote " << file << '\n';
  return 0;
}

int experiment(const std::vector<std::string>& argv) {
  Args a(argv, {"reduced", "full", "force"},
         {"out", "models", "scenes", "write-scene", "seed", "h", "primaries", "jobs"});
  if (a.positional().size() != 1)
    throw UsageError("experiment: expected 'list' or one experiment name");
  const std::string name = a.positional()[0];
  if (name == "list") {
    for (const Experiment& e : experiments())
      std::cout << e.name << "  (" << e.section << ")\n    " << e.description << '\n';
    return 0;
  }
  const Experiment* e = find_experiment(name);
  if (!e) throw UsageError("experiment: unknown experiment '" + name + "' (try 'experiment list')");
  if (auto file = a.value("write-scene")) return write_scene(*e, a, *file);
  ExperimentOptions o;
  o.out_dir = a.value("out").value_or("experiments/" + name);
  o.scenes_dir = a.value("scenes").value_or(default_scenes_directory().string());
  o.reduced = a.flag("reduced");
  o.full = a.flag("full");
  o.force = a.flag("force");
  try {
    o.jobs = worker_count(a.positive_integer("jobs"));
  } catch (const SweepError& e) {
    throw UsageError(e.what());
  }
  if (auto v = a.value("models")) o.models = split_list(*v);
  if (auto v = a.value("primaries")) {
    if (!parse_primaries(*v, o.primaries))
      throw UsageError("--primaries: expected largest-gap or several, got '" + *v + "'");
  }
  try {
    const nlohmann::json summary = run_experiment(*e, o);
    std::cout << summary.dump(2) << '\n';
  } catch (const ExperimentError& error) {
    throw UsageError(error.what());
  }
  return 0;
}

int sweep(const std::vector<std::string>& argv) {
  const StopSignals signals;  // SIGINT and SIGTERM abandon the points under way; a rerun resumes
  try {
    return sweep_command(
        argv, [&] { return signals.received() != 0; }, std::cout);
  } catch (const SweepError& e) {
    throw UsageError(e.what());
  }
}

}  // namespace
}  // namespace pegsim::cli

int main(int argc, char** argv) {
  using namespace pegsim::cli;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    std::cout << usage();
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--version" || args[0] == "version") {
    std::cout << "pegsim-cli " << PEGSIM_VERSION << '\n';
    return 0;
  }
  const std::string command = args[0];
  args.erase(args.begin());
  // `pegsim-cli run --help` and the like: the one usage text has every command's options.
  const std::vector<std::string> commands = {"run",     "validate",        "info",       "export",
                                             "overlap", "compare-solvers", "experiment", "sweep"};
  const bool known = std::find(commands.begin(), commands.end(), command) != commands.end();
  if (known && (std::find(args.begin(), args.end(), "--help") != args.end() ||
                std::find(args.begin(), args.end(), "-h") != args.end())) {
    std::cout << usage();
    return 0;
  }
  try {
    if (command == "run") return run(args);
    if (command == "validate") return validate(args);
    if (command == "info") return info(args);
    if (command == "export") return export_run(args);
    if (command == "overlap") return overlap(args);
    if (command == "compare-solvers") return compare(args);
    if (command == "experiment") return experiment(args);
    if (command == "sweep") return sweep(args);
    throw UsageError("unknown command '" + command + "' (try 'pegsim-cli help')");
  } catch (const UsageError& e) {
    std::cerr << "pegsim-cli: " << e.what() << '\n';
    return 2;
  } catch (const std::bad_alloc&) {
    // Not bad input: the input asked for more memory than the machine has (e.g. a pile whose
    // complementarity problem outgrew it). Say so, and what was being done.
    std::cerr << "pegsim-cli: out of memory while running '" << command
              << (args.empty() ? std::string() : " " + args.front()) << "'\n";
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "pegsim-cli: " << e.what() << '\n';
    return 2;
  }
}
