// A sweep file (docs/sweeps.md): a base scene or a scene generator, the parameters to vary,
// the run length and stop rules, the metrics to collect per run and the plots to draw. Parsed
// and checked here without loading the scene, so that `sweep merge` reads it on a machine that
// has only the results.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pegsim::cli {

// Bad sweep input: one line "<file>: <json pointer>: expected <what>" or naming the point.
struct SweepError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One varied quantity. Axis parameters (`values`) span the grid, the first varying slowest;
// a random parameter is drawn anew for every point (sweep_random.hpp).
struct SweepParameter {
  std::string name;                  // its column in the results
  std::vector<std::string> targets;  // "seed", "duration", "settings.F", "body.NAME.F[.i]"
  std::vector<nlohmann::json> values;
  bool random = false;
  double low = 0.0, high = 0.0;  // a random parameter's uniform range
  bool offset = false;           // add the value to the scene's own
  double scale = 1.0;            // the value written is scale * value
  bool numeric() const;          // every value a number (random ones are)
};

enum class MetricKind { Figure, FinalPose, Predicate, Held };
enum class PredicateWhen { End, Always, Ever };

struct SweepMetric {
  MetricKind kind = MetricKind::Figure;
  std::string name;  // a figure's name, or the column (FinalPose: the body's name)
  // Predicate: body `body`'s centre along `axis` (0 x, 1 y, 2 z) above `above` and below
  // `below` (either may be absent), at the end, after every step or after some step.
  std::string body;
  int axis = 2;
  bool has_above = false, has_below = false;
  double above = 0.0, below = 0.0;
  PredicateWhen when = PredicateWhen::End;
  // Held: body `body` slower than `rest_speed` at the end, each holder touching it through the
  // contacts that carry force on exactly its listed parts (held_body.hpp).
  std::vector<std::pair<std::string, std::vector<int>>> holders;
  double rest_speed = 1e-3;
  std::vector<std::string> bodies() const;  // the bodies it names: `body`, then the holders
};

struct SweepPlot {
  std::string metric;  // a metric column
  std::string x;       // a numeric parameter
  std::string y;       // a numeric parameter: a heat map over (x, y); empty: a line chart
  std::string series;  // a parameter splitting a line chart into one line per value
  bool log_x = false, log_y = false;
};

struct Sweep {
  std::filesystem::path file;  // the sweep file ("" when parsed from text)
  nlohmann::json source;       // its JSON, as read
  std::string name;
  std::string description;
  // The base: a scene file (relative to the sweep file), or a generator with its options.
  std::filesystem::path scene;
  std::string generator;
  nlohmann::json generator_options = nlohmann::json::object();
  std::uint64_t seed = 0;          // of the random parameters
  double duration = 0.0;           // s; 0: the scene's
  long long steps = 0;             // instead of a duration; 0: from the duration
  double stop_speed = 0.0;         // stop a run once a body is faster (m/s); 0: never
  bool stop_below_static = false;  // stop once a body's centre is below every static body
  std::vector<SweepParameter> parameters;
  std::vector<SweepMetric> metrics;
  std::vector<SweepPlot> plots;
  bool keep_runs = false;

  long long point_count() const;  // product of the axes' lengths
  // The result columns after the parameters: finished, steps, end_time, then every metric's.
  std::vector<std::string> metric_columns(int dimension) const;
  // Whether some metric is a wall-clock time (not reproducible from run to run).
  bool timed() const;
};

// The figures a metric may name, with their meaning (docs/sweeps.md lists them).
const std::vector<std::pair<std::string, std::string>>& sweep_figures();
bool is_timing_figure(const std::string& figure);

// Reads and checks a sweep file; throws SweepError naming the file, the JSON pointer and what
// was expected.
Sweep load_sweep(const std::filesystem::path& file);
Sweep parse_sweep(const std::string& text, const std::filesystem::path& file);

// The generators a sweep may start from (sweep_generators.hpp).
const std::vector<std::string>& sweep_generator_names();

}  // namespace pegsim::cli
