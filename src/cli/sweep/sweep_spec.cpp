#include "cli/sweep/sweep_spec.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include "io/json_node.hpp"
#include "io/scene.hpp"

namespace pegsim::cli {
namespace {

using nlohmann::json;

// A range's k-th value, written with 12 significant digits so that 0.001 * 3 is 0.003.
double range_value(double from, double step, long long k) {
  char text[40];
  std::snprintf(text, sizeof text, "%.12g", from + double(k) * step);
  return std::strtod(text, nullptr);
}

// The most points one sweep may have: far more than any study runs, and every index exact.
constexpr long long kMaxPoints = 100000000;

std::vector<json> parse_range(const JsonNode& node) {
  node.require_object("an object {\"from\": a, \"to\": b, \"step\": s} or with \"count\"");
  node.allow_only({"from", "to", "step", "count"});
  const double from = node.at("from", "a number").number("a number");
  const double to = node.at("to", "a number").number("a number");
  if (to < from) node.at("to", "").fail("a number >= \"from\"");
  if (node.has("step") && node.has("count")) node.fail("either \"step\" or \"count\", not both");
  std::vector<json> values;
  if (auto count = node.find("count")) {
    const int n = count->integer("an integer from 1 to 100000", 1, 100000);
    if (n == 1 && to != from) count->fail("a count >= 2 when \"to\" differs from \"from\"");
    for (int k = 0; k < n; ++k)
      values.push_back(n == 1 ? from : range_value(from, (to - from) / (n - 1), k));
    return values;
  }
  const double step = node.find("step") ? node.at("step", "").positive("a number > 0") : 1.0;
  const double n = std::floor((to - from) / step * (1 + 1e-12) + 1e-9);
  if (!(n < 100000)) node.fail("a range of at most 100000 values");
  // Whole numbers stay whole (seeds, counts): a range of integers gives integers.
  const bool whole = node.value()["from"].is_number_integer() &&
                     (!node.has("step") || node.value()["step"].is_number_integer()) &&
                     std::abs(from) <= 1e15 && std::abs(to) <= 1e15;
  for (long long k = 0; k <= static_cast<long long>(n); ++k)
    values.push_back(
        whole ? json(node.value()["from"].get<long long>() + k * static_cast<long long>(step))
              : json(range_value(from, step, k)));
  return values;
}

bool valid_target(const std::string& t, bool generated) {
  if (t == "duration") return true;
  if (t == "seed") return generated;
  if (t.rfind("settings.", 0) == 0) return t.size() > 9 && t.find('.', 9) == std::string::npos;
  if (t.rfind("body.", 0) == 0) {
    const std::size_t dot = t.find('.', 5);
    return dot != std::string::npos && dot > 5 && dot + 1 < t.size() && t.back() != '.';
  }
  return false;
}

SweepParameter parse_parameter(const JsonNode& node, bool generated) {
  node.require_object("an object with \"name\" and \"values\", \"range\" or \"uniform\"");
  node.allow_only({"name", "set", "values", "range", "uniform", "offset", "scale"});
  SweepParameter p;
  p.name = node.at("name", "a name").string("a non-empty name");
  if (p.name.empty() || p.name.find_first_of(",\"\n") != std::string::npos)
    node.at("name", "").fail("a non-empty name without commas, quotes or line breaks");
  if (auto set = node.find("set")) {
    const char* what = generated
                           ? "a target \"seed\", \"duration\", \"settings.FIELD\" or "
                             "\"body.NAME.FIELD\" (or an array of them)"
                           : "a target \"duration\", \"settings.FIELD\" or \"body.NAME.FIELD\" "
                             "(or an array of them; \"seed\" is a generator's)";
    auto add = [&](const JsonNode& t) {
      const std::string target = t.string(what);
      if (!valid_target(target, generated)) t.fail(what);
      p.targets.push_back(target);
    };
    if (set->value().is_array()) {
      if (set->size() == 0) set->fail(what);
      for (std::size_t i = 0; i < set->size(); ++i) add((*set)[i]);
    } else {
      add(*set);
    }
  }
  const int kinds = node.has("values") + node.has("range") + node.has("uniform");
  if (kinds != 1) node.fail("exactly one of \"values\", \"range\" and \"uniform\"");
  if (auto values = node.find("values")) {
    values->require_array("a non-empty array of numbers, strings or booleans");
    if (values->size() == 0) values->fail("a non-empty array of numbers, strings or booleans");
    for (std::size_t i = 0; i < values->size(); ++i) {
      const json& v = (*values)[i].value();
      if (!(v.is_number() || v.is_string() || v.is_boolean()) ||
          (v.is_number() && !std::isfinite(v.get<double>())))
        (*values)[i].fail("a finite number, a string or a boolean");
      p.values.push_back(v);
    }
  } else if (auto range = node.find("range")) {
    p.values = parse_range(*range);
  } else {
    const JsonNode u = node.at("uniform", "");
    u.require_array("[low, high]");
    if (u.size() != 2) u.fail("[low, high]");
    p.random = true;
    p.low = u[0].number("a number");
    p.high = u[1].number("a number");
    if (!(p.high > p.low)) u[1].fail("a number > low");
  }
  if (auto o = node.find("offset")) p.offset = o->boolean();
  if (auto s = node.find("scale")) p.scale = s->number("a number");
  if ((p.offset || p.scale != 1.0) && !p.numeric())
    node.fail("numbers when \"offset\" or \"scale\" is given");
  if (p.random && p.targets.empty()) node.fail("a \"set\" target for a random parameter");
  return p;
}

SweepMetric parse_metric(const JsonNode& node) {
  SweepMetric m;
  if (node.value().is_string()) {
    m.name = node.string("a figure name");
    if (!is_timing_figure(m.name)) {
      bool known = false;
      for (const auto& f : sweep_figures()) known = known || f.first == m.name;
      if (!known) {
        std::string names;
        for (const auto& f : sweep_figures()) names += (names.empty() ? "" : ", ") + f.first;
        node.fail("one of the figures " + names + ", or an object (final_pose, a predicate)");
      }
    }
    return m;
  }
  node.require_object("a figure name or an object (final_pose, a predicate, a grasp)");
  if (node.has("final_pose")) {
    node.allow_only({"final_pose"});
    m.kind = MetricKind::FinalPose;
    m.name = m.body = node.at("final_pose", "").string("a body's name");
    return m;
  }
  m.name = node.at("name", "a name").string("a non-empty name");
  if (m.name.empty() || m.name.find_first_of(",\"\n") != std::string::npos)
    node.at("name", "").fail("a non-empty name without commas, quotes or line breaks");
  if (node.has("held")) {
    node.allow_only({"name", "held", "by", "rest_speed"});
    m.kind = MetricKind::Held;
    m.body = node.at("held", "").string("a body's name");
    const JsonNode by = node.at("by", "an object {\"HOLDER\": [parts], ...}");
    by.require_object("an object {\"HOLDER\": [parts], ...}");
    for (const auto& [holder, parts] : by.value().items()) {
      const JsonNode list = by.at(holder, "");
      list.require_array("an array of part indices");
      std::vector<int> indices;
      for (std::size_t i = 0; i < list.size(); ++i)
        indices.push_back(list[i].integer("a part index >= 0", 0));
      m.holders.emplace_back(holder, indices);
    }
    if (m.holders.empty()) by.fail("at least one holder");
    if (auto r = node.find("rest_speed")) m.rest_speed = r->positive("a speed > 0 (m/s)");
    return m;
  }
  node.allow_only({"name", "body", "axis", "above", "below", "when"});
  m.kind = MetricKind::Predicate;
  m.body = node.at("body", "a body's name").string("a body's name");
  if (auto a = node.find("axis")) {
    const std::string axis = a->string("\"x\", \"y\" or \"z\"");
    if (axis != "x" && axis != "y" && axis != "z") a->fail("\"x\", \"y\" or \"z\"");
    m.axis = axis[0] - 'x';
  }
  if (auto a = node.find("above")) {
    m.has_above = true;
    m.above = a->number("a number");
  }
  if (auto b = node.find("below")) {
    m.has_below = true;
    m.below = b->number("a number");
  }
  if (!m.has_above && !m.has_below) node.fail("\"above\", \"below\" or both");
  if (auto w = node.find("when")) {
    const std::string when = w->string("\"end\", \"always\" or \"ever\"");
    if (when == "end")
      m.when = PredicateWhen::End;
    else if (when == "always")
      m.when = PredicateWhen::Always;
    else if (when == "ever")
      m.when = PredicateWhen::Ever;
    else
      w->fail("\"end\", \"always\" or \"ever\"");
  }
  return m;
}

const SweepParameter* parameter_named(const Sweep& s, const std::string& name) {
  for (const SweepParameter& p : s.parameters)
    if (p.name == name) return &p;
  return nullptr;
}

bool is_metric_column(const Sweep& s, const std::string& name) {
  for (const std::string& c : s.metric_columns(3))
    if (c == name) return true;
  for (const std::string& c : s.metric_columns(2))
    if (c == name) return true;
  return false;
}

SweepPlot parse_plot(const JsonNode& node, const Sweep& s) {
  node.require_object("an object {\"metric\": M, \"x\": P} (with \"y\": a heat map)");
  node.allow_only({"metric", "x", "y", "series", "log_x", "log_y"});
  SweepPlot p;
  const JsonNode metric = node.at("metric", "a metric column");
  p.metric = metric.string("a metric column");
  if (!is_metric_column(s, p.metric)) metric.fail("one of the sweep's metric columns");
  auto axis = [&](const char* key) {
    const JsonNode n = node.at(key, "a numeric axis parameter");
    const std::string name = n.string("a numeric axis parameter");
    const SweepParameter* q = parameter_named(s, name);
    if (!q || q->random || !q->numeric()) n.fail("the name of a numeric axis parameter");
    return name;
  };
  p.x = axis("x");
  if (node.has("y")) p.y = axis("y");
  if (auto series = node.find("series")) {
    p.series = series->string("an axis parameter");
    const SweepParameter* q = parameter_named(s, p.series);
    if (!q || q->random) series->fail("the name of an axis parameter");
    if (!p.y.empty()) series->fail("no series in a heat map");
  }
  if (auto l = node.find("log_x")) p.log_x = l->boolean();
  if (auto l = node.find("log_y")) p.log_y = l->boolean();
  return p;
}

// Without "plots": the first metric against the first numeric axis of two or more values
// (one line per value of the first other axis, if any), and a heat map over the first two.
std::vector<SweepPlot> default_plots(const Sweep& s) {
  std::vector<SweepPlot> plots;
  const std::vector<std::string> columns = s.metric_columns(3);
  if (s.metrics.empty()) return plots;
  const std::string metric = s.metrics.front().kind == MetricKind::FinalPose
                                 ? s.metrics.front().name + ".x"
                                 : s.metrics.front().name;
  std::vector<std::string> numeric, other;
  for (const SweepParameter& p : s.parameters) {
    // A generator's seed numbers replicates: their quartiles, not an axis to plot against.
    const bool replicates =
        std::find(p.targets.begin(), p.targets.end(), "seed") != p.targets.end();
    if (p.random || p.values.size() < 2 || replicates) continue;
    (p.numeric() ? numeric : other).push_back(p.name);
  }
  if (numeric.empty()) return plots;
  SweepPlot line;
  line.metric = metric;
  line.x = numeric[0];
  if (!other.empty())
    line.series = other[0];
  else if (numeric.size() > 1)
    line.series = numeric[1];
  plots.push_back(line);
  if (numeric.size() >= 2) {
    SweepPlot map;
    map.metric = metric;
    map.x = numeric[0];
    map.y = numeric[1];
    plots.push_back(map);
  }
  return plots;
}

}  // namespace

std::vector<std::string> SweepMetric::bodies() const {
  std::vector<std::string> names;
  if (kind != MetricKind::Figure) names.push_back(body);
  for (const auto& holder : holders) names.push_back(holder.first);
  return names;
}

bool SweepParameter::numeric() const {
  if (random) return true;
  for (const json& v : values)
    if (!v.is_number()) return false;
  return true;
}

long long Sweep::point_count() const {
  long long n = 1;
  for (const SweepParameter& p : parameters)
    if (!p.random) n *= static_cast<long long>(p.values.size());
  return n;
}

const std::vector<std::pair<std::string, std::string>>& sweep_figures() {
  static const std::vector<std::pair<std::string, std::string>> figures = {
      {"failed_steps", "steps no solver answered (0 or 1: a run stops at one)"},
      {"fallback_steps", "steps answered by a fallback solver"},
      {"unsolved_steps", "steps that went on unsolved (on_failure continue)"},
      {"approximate_steps", "steps that went on after the iteration budget"},
      {"max_residual", "largest accepted natural-map residual"},
      {"iterations", "solver iterations or pivots, summed over the steps"},
      {"mean_contacts", "contacts per step, mean"},
      {"max_contacts", "most contacts in one step"},
      {"max_problem_size", "largest LCP, rows"},
      {"max_penetration", "deepest enforced contact, m"},
      {"mean_overlap",
       "total overlap of all body pairs at the end of each step, mean (m^3; 2D m^2)"},
      {"max_overlap", "total overlap of all body pairs, largest over the steps"},
      {"max_pair_overlap", "largest overlap of one body pair (the run summary's)"},
      {"sm_traps", "SM traps summed over the steps"},
      {"sm_trap_steps", "steps with an SM trap"},
      {"max_sm_traps", "most SM traps in one step"},
      {"mean_problem_size", "LCP rows per step, mean"},
      {"mean_sm_traps", "SM traps per step, mean"},
      {"dropped_cross_steps", "steps solved only without their X-constraints"},
      {"cross_energy_steps", "of those, steps whose answer with them added too much energy"},
      {"cross_energy_ratio_kept", "the energy check's gain / need, largest over the answers kept"},
      {"cross_energy_ratio_refused", "the energy check's gain / need, smallest over those refused"},
      {"primaries_moved_steps", "steps whose answer moved an I-constraint's primary"},
      {"primaries_unresolved_steps", "steps whose primary search met (4.13) at no leaf"},
      {"energy_start", "mechanical energy at the start, J"},
      {"energy_end", "mechanical energy at the end, J"},
      {"energy_max", "largest mechanical energy, J"},
      {"max_speed", "fastest body's speed at the end of a step, largest over the run, m/s"},
      {"solve_ms", "solve time per step, mean, ms (wall clock: not reproducible)"},
      {"max_solve_ms", "solve time of the slowest step, ms (wall clock: not reproducible)"},
      {"wall_ms", "the run's wall-clock time, ms (not reproducible)"}};
  return figures;
}

bool is_timing_figure(const std::string& figure) {
  return figure == "solve_ms" || figure == "max_solve_ms" || figure == "wall_ms";
}

std::vector<std::string> Sweep::metric_columns(int dimension) const {
  std::vector<std::string> columns = {"finished", "steps", "end_time"};
  for (const SweepMetric& m : metrics) {
    if (m.kind != MetricKind::FinalPose) {
      columns.push_back(m.name);
      continue;
    }
    const std::vector<std::string> parts =
        dimension == 2 ? std::vector<std::string>{"x", "y", "angle"}
                       : std::vector<std::string>{"x", "y", "z", "qw", "qx", "qy", "qz"};
    for (const std::string& part : parts) columns.push_back(m.body + "." + part);
  }
  return columns;
}

bool Sweep::timed() const {
  for (const SweepMetric& m : metrics)
    if (m.kind == MetricKind::Figure && is_timing_figure(m.name)) return true;
  return false;
}

const std::vector<std::string>& sweep_generator_names() {
  static const std::vector<std::string> names = {"polygon_pour", "polyhedra_pour", "grasp_2d"};
  return names;
}

Sweep parse_sweep(const std::string& text, const std::filesystem::path& file) {
  const std::string origin = file.empty() ? std::string("sweep") : file.string();
  Sweep s;
  s.file = file;
  try {
    try {
      s.source = json::parse(text);
    } catch (const json::exception& e) {  // a syntax error, or a number past a double's range
      throw SweepError(origin + ": not JSON: " + e.what());
    }
    const JsonNode root(s.source, origin);
    root.require_object("a sweep object");
    root.allow_only({"name", "description", "scene", "generator", "seed", "duration", "steps",
                     "stop", "parameters", "metrics", "plots", "keep_runs"});
    s.name = root.find("name") ? root.at("name", "").string("a name")
                               : (file.empty() ? "sweep" : file.stem().string());
    if (s.name.empty()) root.at("name", "").fail("a non-empty name");
    if (auto d = root.find("description")) s.description = d->string("a string");
    if (root.has("scene") == root.has("generator"))
      root.fail("either \"scene\" (a scene file) or \"generator\", not both");
    if (auto scene = root.find("scene")) {
      const std::string path = scene->string("a scene file's path");
      if (path.empty()) scene->fail("a scene file's path");
      s.scene = std::filesystem::path(path).is_absolute() || file.empty()
                    ? std::filesystem::path(path)
                    : file.parent_path() / path;
    } else {
      const JsonNode g = root.at("generator", "");
      g.require_object("an object {\"name\": GENERATOR, ...options}");
      const JsonNode name = g.at("name", "a generator's name");
      s.generator = name.string("a generator's name");
      bool known = false;
      std::string names;
      for (const std::string& n : sweep_generator_names()) {
        known = known || n == s.generator;
        names += (names.empty() ? "" : ", ") + n;
      }
      if (!known) name.fail("one of the generators " + names);
      s.generator_options = g.value();
      s.generator_options.erase("name");
    }
    if (auto seed = root.find("seed")) s.seed = std::uint64_t(seed->integer("an integer >= 0", 0));
    if (root.has("duration") && root.has("steps")) root.fail("\"duration\" or \"steps\", not both");
    if (auto d = root.find("duration")) s.duration = d->positive("a number > 0 (s)");
    if (auto n = root.find("steps")) s.steps = n->integer("an integer >= 1", 1);
    if (auto stop = root.find("stop")) {
      stop->require_object("an object {\"speed_above\": v, \"below_static\": true}");
      stop->allow_only({"speed_above", "below_static"});
      if (auto v = stop->find("speed_above")) s.stop_speed = v->positive("a speed > 0 (m/s)");
      if (auto b = stop->find("below_static")) s.stop_below_static = b->boolean();
    }
    const JsonNode params = root.at("parameters", "an array of parameters");
    params.require_array("an array of parameters");
    std::set<std::string> names = {"point", "finished", "steps", "end_time", "stop_reason"};
    long double points = 1;
    for (std::size_t i = 0; i < params.size(); ++i) {
      SweepParameter p = parse_parameter(params[i], !s.generator.empty());
      if (!names.insert(p.name).second) params[i].at("name", "").fail("a name no other column has");
      if (!p.random) points *= static_cast<long double>(p.values.size());
      s.parameters.push_back(std::move(p));
    }
    if (points > kMaxPoints) params.fail("at most 100000000 points (the product of the axes)");
    if (auto metrics = root.find("metrics")) {
      metrics->require_array("an array of metrics");
      for (std::size_t i = 0; i < metrics->size(); ++i) {
        const std::size_t before3 = s.metric_columns(3).size(),
                          before2 = s.metric_columns(2).size();
        s.metrics.push_back(parse_metric((*metrics)[i]));
        const std::vector<std::string> c3 = s.metric_columns(3), c2 = s.metric_columns(2);
        std::vector<std::string> added(c3.begin() + std::ptrdiff_t(before3), c3.end());
        added.insert(added.end(), c2.begin() + std::ptrdiff_t(before2), c2.end());
        std::set<std::string> own;
        for (const std::string& c : added)
          if (names.count(c) && !own.count(c))
            (*metrics)[i].fail("a metric whose column '" + c + "' no other column has");
          else
            own.insert(c);
        names.insert(own.begin(), own.end());
      }
    }
    if (auto plots = root.find("plots")) {
      plots->require_array("an array of plots");
      for (std::size_t i = 0; i < plots->size(); ++i) s.plots.push_back(parse_plot((*plots)[i], s));
    } else {
      s.plots = default_plots(s);
    }
    if (auto k = root.find("keep_runs")) s.keep_runs = k->boolean();
  } catch (const SceneError& e) {
    throw SweepError(e.what());
  }
  return s;
}

Sweep load_sweep(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw SweepError(file.string() + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_sweep(text.str(), file);
}

}  // namespace pegsim::cli
