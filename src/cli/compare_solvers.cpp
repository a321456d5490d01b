#include "cli/compare_solvers.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <ostream>

#include "cli/args.hpp"
#include "cli/complementarity_metrics.hpp"
#include "cli/performance_profile.hpp"
#include "engine/solvers/solver.hpp"
#include "io/fclib_problem.hpp"
#include "io/run_reader.hpp"
#include "io/sds_reader.hpp"
#include "io/siconos_mlcp.hpp"

namespace pegsim::cli {
namespace {

namespace fs = std::filesystem;

// One recorded problem and what the recording said about it.
struct Problem {
  std::int64_t frame = 0;
  RecordedProblem data;
  std::string recorded_solver, recorded_status;
};

struct Source {
  std::vector<Problem> problems;
  SolverOptions options;
  std::int64_t frames_total = 0;  // frame numbers available: [0, frames_total)
};

std::int64_t parse_index(const std::string& text, const std::string& whole) {
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < 0)
    throw UsageError("--frames: expected a:b with frame numbers >= 0, got '" + whole + "'");
  return v;
}

void check_range(const CompareOptions& o, std::int64_t frames_total) {
  const std::int64_t first = o.first.value_or(0), end = o.end.value_or(frames_total);
  if (first >= end || end > frames_total)
    throw UsageError(
        "--frames: " + std::to_string(first) + ":" + std::to_string(end) +
        " is not a non-empty range within the file's frames 0:" + std::to_string(frames_total));
}

bool in_range(const CompareOptions& o, std::int64_t k) {
  return k >= o.first.value_or(0) && (!o.end || k < *o.end);
}

// A problem file holds one problem, frame 0: Siconos .dat (an MLCP when the name says "mlcp",
// as Siconos' own files do) or an FCLib local problem (HDF5, linearized cone with 8 directions).
bool load_problem_file(const CompareOptions& o, Source& src) {
  Problem p;
  p.recorded_solver = p.recorded_status = "none";
  const fs::path path(o.file);
  if (path.extension() == ".dat") {
    const bool mlcp = path.filename().string().find("mlcp") != std::string::npos;
    p.data.lcp = mlcp ? read_siconos_mlcp(path) : read_siconos_lcp(path);
  } else if (is_fclib_file(path)) {
    p.data.lcp = read_fclib_local(path).lcp;
  } else {
    return false;
  }
  src.frames_total = 1;
  check_range(o, src.frames_total);
  src.problems.push_back(std::move(p));
  return true;
}

Source load(const CompareOptions& o) {
  Source src;
  src.options.warm_start = false;
  std::error_code ec;
  if (!fs::exists(o.file, ec)) throw RunFileError(o.file + ": does not exist");
  if (load_problem_file(o, src)) return src;
  if (is_sds_file(o.file)) {
    SdsReader reader(o.file);
    src.frames_total = reader.frames().back() + 1;
    check_range(o, src.frames_total);
    src.options.tolerance = reader.tolerance();
    src.options.max_iterations = reader.max_iterations();
    for (std::int64_t k : reader.frames()) {
      if (!in_range(o, k)) continue;
      SdsProblem p = reader.problem(k);
      if (p.problem.lcp.size() > 0)
        src.problems.push_back({k, std::move(p.problem), p.solver, p.status});
    }
    return src;
  }
  RunReader reader(o.file);
  if (!reader.has_problems())
    throw RunFileError(o.file +
                       ": holds no complementarity problems (record the run with "
                       "--record-problems, or give an SDS file)");
  src.frames_total = reader.frame_count();
  check_range(o, src.frames_total);
  src.options.tolerance = reader.header().settings.tolerance;
  src.options.max_iterations = reader.header().settings.max_iterations;
  const std::vector<RecordedSolve> solves = reader.solver_reports();
  for (std::int64_t k = o.first.value_or(0); k < o.end.value_or(src.frames_total); ++k) {
    RecordedProblem p = reader.problem(k);
    if (p.lcp.size() == 0) continue;
    const RecordedSolve& s = solves[k];
    src.problems.push_back(
        {k, std::move(p), s.solver, s.status ? to_string(*s.status) : std::string("none")});
  }
  return src;
}

struct Outcome {
  SolveReport report;
  VecX z;
  CckMetrics metrics;
};

// A recorded problem's free rows (the first data.free_rows, e.g. mixed-lcp's joints) as MCP
// bounds; a problem read with bounds gets its count of free rows.
void make_bounds(RecordedProblem& data) {
  Lcp& lcp = data.lcp;
  if (lcp.has_bounds()) {
    data.free_rows = lcp.free_rows();
    return;
  }
  if (data.free_rows == 0) return;
  lcp.lower.setZero(lcp.size());
  lcp.upper.setConstant(lcp.size(), INFINITY);
  lcp.lower.head(data.free_rows).setConstant(-INFINITY);
}

// Cold start. A solver without bounds gets an MCP's free rows eliminated (thesis (2.37)/(2.38)):
// it solves the reduced LCP and its answer is expanded, the report's residual that of the MCP.
SolveReport solve_with(Solver& solver, const Lcp& lcp, const FreeRowReduction* reduction,
                       const char* why, const SolverOptions& options, VecX& z) {
  if (!lcp.has_bounds() || solver.supports_bounds()) {
    z = VecX::Zero(lcp.size());
    return solver.solve(lcp, z, options);
  }
  if (!reduction) {
    z = VecX::Zero(lcp.size());
    SolveReport r = solver.solve(lcp, z, options);  // refuses: says it takes no free rows
    r.message += std::string(" (no Schur reduction either: ") + (why ? why : "") + ")";
    return r;
  }
  VecX zc = VecX::Zero(reduction->lcp.size());
  SolveReport r = solver.solve(reduction->lcp, zc, options);
  z = reduction->expand(zc);
  r.residual = natural_residual(lcp, z);
  if (!r.residual_history.empty()) r.residual_history.back() = r.residual;
  if (r.solved() && !(r.residual <= options.tolerance * (1.0 + lcp.q.cwiseAbs().maxCoeff()))) {
    r.status = SolveStatus::NumericalFailure;
    r.message = "the reduced LCP's answer does not solve the MCP to the tolerance";
  }
  return r;
}

void refuse_existing(const std::string& file, bool force, const char* option) {
  std::error_code ec;
  if (!file.empty() && !force && fs::exists(file, ec))
    throw UsageError(std::string(option) + " " + file +
                     ": exists; not overwriting it (use --force)");
}

void write_text(const std::string& file, const std::string& text) {
  std::ofstream f(file, std::ios::out | std::ios::trunc);
  f << text;
  f.close();
  if (!f) throw std::runtime_error(file + ": cannot be written");
}

std::string format(const char* spec, double v) {
  char b[64];
  std::snprintf(b, sizeof b, spec, v);
  return b;
}

}  // namespace

void parse_frame_range(const std::string& text, CompareOptions& o) {
  const auto colon = text.find(':');
  if (colon == std::string::npos) {
    o.first = parse_index(text, text);
    o.end = *o.first + 1;
    return;
  }
  const std::string a = text.substr(0, colon), b = text.substr(colon + 1);
  if (!a.empty()) o.first = parse_index(a, text);
  if (!b.empty()) o.end = parse_index(b, text);
  if (o.first && o.end && *o.first >= *o.end)
    throw UsageError("--frames: '" + text + "' is an empty range (a:b holds frames a to b - 1)");
}

int compare_solvers(const CompareOptions& o, std::ostream& out) {
  // Refuse before the (possibly long) solving, so nothing is computed in vain.
  refuse_existing(o.csv, o.force, "--csv");
  refuse_existing(o.svg, o.force, "--plot");
  Source src = load(o);
  if (src.problems.empty())
    throw UsageError(o.file + ": no recorded problem in frames " +
                     std::to_string(o.first.value_or(0)) + ":" +
                     std::to_string(o.end.value_or(src.frames_total)) +
                     " (no step there had an enforced contact)");

  const std::vector<std::string> names = solver_names();
  std::vector<std::unique_ptr<Solver>> solvers;
  for (const std::string& n : names) solvers.push_back(make_solver(n));
  std::vector<std::vector<Outcome>> results(src.problems.size());
  for (std::size_t p = 0; p < src.problems.size(); ++p) {
    RecordedProblem& data = src.problems[p].data;
    make_bounds(data);
    FreeRowReduction reduction;
    const char* why = nullptr;
    const bool reduced = data.lcp.has_bounds() && reduce_free_rows(data.lcp, reduction, why);
    for (auto& solver : solvers) {
      Outcome r;
      r.report =
          solve_with(*solver, data.lcp, reduced ? &reduction : nullptr, why, src.options, r.z);
      r.metrics = cck_metrics(data.lcp, r.z, data.free_rows);
      results[p].push_back(std::move(r));
    }
  }

  // The table: per solver, counts, iterations, the worst value of each metric, time.
  out << o.file << ": " << src.problems.size() << " problems in frames " << o.first.value_or(0)
      << ":" << o.end.value_or(src.frames_total) << ", cold start, tolerance "
      << src.options.tolerance << ", at most " << src.options.max_iterations << " iterations\n";
  std::map<std::string, int> recorded;
  for (const Problem& p : src.problems)
    if (p.recorded_status == "solved") ++recorded[p.recorded_solver];
  out << "recorded answers:";
  for (const auto& [solver, count] : recorded) out << ' ' << solver << " solved " << count << ';';
  out << (recorded.empty() ? " none solved\n" : "\n");
  int width = 6;  // the solver column fits the longest name
  for (const std::string& name : names) width = std::max(width, static_cast<int>(name.size()));
  out << std::string("solver") + std::string(width - 6, ' ') +
             "  solved    iter mean   iter max  max norm_CCK  max square_CCK  max norm_mCCK  "
             "max square_mCCK  time mean (ms)  time total (ms)\n";
  std::vector<std::vector<double>> times(src.problems.size());
  for (std::size_t s = 0; s < names.size(); ++s) {
    int solved = 0, iter_max = 0;
    double iter_sum = 0, seconds = 0;
    CckMetrics worst;
    for (std::size_t p = 0; p < src.problems.size(); ++p) {
      const Outcome& r = results[p][s];
      solved += r.report.solved();
      iter_sum += r.report.iterations;
      iter_max = std::max(iter_max, r.report.iterations);
      seconds += r.report.seconds;
      worst.norm_cck = std::max(worst.norm_cck, r.metrics.norm_cck);
      worst.square_cck = std::max(worst.square_cck, r.metrics.square_cck);
      worst.norm_mcck = std::max(worst.norm_mcck, r.metrics.norm_mcck);
      worst.square_mcck = std::max(worst.square_mcck, r.metrics.square_mcck);
      times[p].push_back(r.report.solved() ? r.report.seconds
                                           : std::numeric_limits<double>::infinity());
    }
    const double n = static_cast<double>(src.problems.size());
    char line[256];
    std::snprintf(line, sizeof line,
                  "%-*s  %3d/%-4zu  %9.1f  %9d  %12.3e  %14.3e  %13.3e  %15.3e  %14.4f  %15.3f\n",
                  width, names[s].c_str(), solved, src.problems.size(), iter_sum / n, iter_max,
                  worst.norm_cck, worst.square_cck, worst.norm_mcck, worst.square_mcck,
                  1e3 * seconds / n, 1e3 * seconds);
    out << line;
  }

  if (!o.csv.empty()) {
    std::string csv =
        "frame,size,solver,status,iterations,norm_CCK,square_CCK,norm_mCCK,square_mCCK,"
        "natural_residual,seconds,recorded_solver,recorded_status\n";
    for (std::size_t p = 0; p < src.problems.size(); ++p)
      for (std::size_t s = 0; s < names.size(); ++s) {
        const Outcome& r = results[p][s];
        const Problem& pr = src.problems[p];
        csv += std::to_string(pr.frame) + ',' + std::to_string(pr.data.lcp.size()) + ',' +
               names[s] + ',' + to_string(r.report.status) + ',' +
               std::to_string(r.report.iterations) + ',' + format("%.17g", r.metrics.norm_cck) +
               ',' + format("%.17g", r.metrics.square_cck) + ',' +
               format("%.17g", r.metrics.norm_mcck) + ',' + format("%.17g", r.metrics.square_mcck) +
               ',' + format("%.17g", r.report.residual) + ',' + format("%.9g", r.report.seconds) +
               ',' + pr.recorded_solver + ',' + pr.recorded_status + '\n';
      }
    write_text(o.csv, csv);
    out << "wrote " << o.csv << '\n';
  }
  if (!o.svg.empty()) {
    write_text(o.svg, profile_svg(performance_profile(names, times),
                                  "Performance profile: " + fs::path(o.file).filename().string() +
                                      " (" + std::to_string(src.problems.size()) + " problems)"));
    out << "wrote " << o.svg << '\n';
  }
  return 0;
}

}  // namespace pegsim::cli
