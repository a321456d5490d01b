#include "cli/sweep/sweep_results.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>

#include "cli/experiments/quartiles.hpp"
#include "cli/svg_chart.hpp"
#include "cli/svg_heat_map.hpp"
#include "io/table_file.hpp"

namespace pegsim::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A number in the fewest digits that read back to the same double ("0.1", not
// "0.10000000000000001"; a whole number without ".0"); "nan" where there is none.
std::string number(double v) {
  if (!std::isfinite(v)) return "nan";
  if (v == std::floor(v) && std::abs(v) < 1e15) return json(static_cast<long long>(v)).dump();
  return json(v).dump();
}

std::string csv_cell(const json& v) {
  if (v.is_number()) return number(v.get<double>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  const std::string s = v.get<std::string>();
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string quoted = "\"";
  for (char c : s) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string value_text(const json& v) {
  return v.is_string() ? v.get<std::string>() : v.dump();
}

std::size_t index_of(const std::vector<std::string>& names, const std::string& name) {
  return std::size_t(std::find(names.begin(), names.end(), name) - names.begin());
}

struct Rows {
  std::vector<SweepPoint> points;
  std::vector<const PointResult*> results;
};

// Whether a metric column takes only 0 and 1.
bool zero_one(const Sweep& s, const std::string& column) {
  if (column == "finished") return true;
  for (const SweepMetric& m : s.metrics)
    if (m.name == column) return m.kind == MetricKind::Predicate || m.kind == MetricKind::Held;
  return false;
}

std::string plot_svg(const Sweep& s, const SweepManifest& m, const SweepPlot& plot,
                     const Rows& rows) {
  std::vector<std::string> params;
  for (const SweepParameter& p : s.parameters) params.push_back(p.name);
  const std::size_t metric = index_of(m.columns, plot.metric);
  const std::size_t x = index_of(params, plot.x);
  if (!plot.y.empty()) {
    const std::size_t y = index_of(params, plot.y);
    HeatMap map;
    map.title = s.name + ": " + plot.metric + ", mean over the other parameters";
    map.x_label = plot.x;
    map.y_label = plot.y;
    for (const json& v : s.parameters[x].values) map.x.push_back(v.get<double>());
    for (const json& v : s.parameters[y].values) map.y.push_back(v.get<double>());
    std::vector<std::vector<double>> sum(map.y.size(), std::vector<double>(map.x.size(), 0.0));
    std::vector<std::vector<int>> count(map.y.size(), std::vector<int>(map.x.size(), 0));
    for (std::size_t r = 0; r < rows.points.size(); ++r) {
      const double v = rows.results[r]->values[metric];
      if (!std::isfinite(v)) continue;
      const std::size_t i = std::size_t(
          std::find(map.x.begin(), map.x.end(), rows.points[r].values[x].get<double>()) -
          map.x.begin());
      const std::size_t j = std::size_t(
          std::find(map.y.begin(), map.y.end(), rows.points[r].values[y].get<double>()) -
          map.y.begin());
      sum[j][i] += v;
      ++count[j][i];
    }
    map.value = sum;
    for (std::size_t j = 0; j < map.y.size(); ++j)
      for (std::size_t i = 0; i < map.x.size(); ++i)
        map.value[j][i] = count[j][i] ? sum[j][i] / count[j][i] : NAN;
    // A success map (of 0/1 columns: finished, predicates, grasps) on the scale 0 to 1; any
    // other metric's over its values.
    if (!zero_one(s, plot.metric)) map.lo = map.hi = 0.0;
    return heat_map_svg(map);
  }
  Chart chart;
  chart.title = s.name + ": " + plot.metric + " vs " + plot.x;
  chart.x.label = plot.x;
  chart.y.label = plot.metric + ": median, Q1-Q3";
  chart.x.log_base = plot.log_x ? 10 : 0;
  chart.y.log_base = plot.log_y ? 10 : 0;
  const std::size_t series = plot.series.empty() ? params.size() : index_of(params, plot.series);
  const std::vector<json> groups =
      plot.series.empty() ? std::vector<json>{json()} : s.parameters[series].values;
  for (const json& group : groups) {
    ChartSeries line;
    line.label = plot.series.empty() ? plot.metric : plot.series + " = " + value_text(group);
    line.markers = true;
    for (const json& at : s.parameters[x].values) {
      std::vector<double> values;
      for (std::size_t r = 0; r < rows.points.size(); ++r) {
        const SweepPoint& p = rows.points[r];
        if (p.values[x] != at || (!plot.series.empty() && p.values[series] != group)) continue;
        const double v = rows.results[r]->values[metric];
        if (std::isfinite(v)) values.push_back(v);
      }
      if (values.empty()) continue;
      const Quartiles q = quartiles(values);
      line.x.push_back(at.get<double>());
      line.y.push_back(q.median);
      line.low.push_back(q.q1);
      line.high.push_back(q.q3);
    }
    chart.series.push_back(std::move(line));
  }
  return chart_svg(chart);
}

}  // namespace

std::string plot_file_name(const SweepPlot& plot) {
  std::string name = plot.y.empty() ? plot.metric + "_vs_" + plot.x +
                                          (plot.series.empty() ? "" : "_by_" + plot.series)
                                    : plot.metric + "_over_" + plot.x + "_" + plot.y;
  for (char& c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) c = '_';
  return name + ".svg";
}

std::vector<fs::path> write_sweep_results(const Sweep& sweep, const SweepManifest& manifest,
                                          const std::map<long long, PointResult>& points,
                                          const fs::path& out) {
  Rows rows;
  for (const auto& [index, result] : points) {
    rows.points.push_back(sweep_point(sweep, index));
    rows.results.push_back(&result);
  }
  // The table: CSV and HDF5 columns alike.
  TableFile table;
  table.attributes = {{"sweep", sweep.name}, {"fingerprint", manifest.fingerprint}};
  TableColumn point{"point", false, {}, {}};
  for (const auto& [index, result] : points) point.numbers.push_back(double(index));
  table.columns.push_back(point);
  for (std::size_t p = 0; p < sweep.parameters.size(); ++p) {
    TableColumn c{sweep.parameters[p].name, !sweep.parameters[p].numeric(), {}, {}};
    for (const SweepPoint& sp : rows.points) {
      if (c.text)
        c.texts.push_back(value_text(sp.values[p]));
      else
        c.numbers.push_back(sp.values[p].get<double>());
    }
    table.columns.push_back(std::move(c));
  }
  for (std::size_t m = 0; m < manifest.columns.size(); ++m) {
    TableColumn c{manifest.columns[m], false, {}, {}};
    for (const PointResult* r : rows.results) c.numbers.push_back(r->values[m]);
    table.columns.push_back(std::move(c));
  }
  TableColumn reason{"stop_reason", true, {}, {}};
  for (const PointResult* r : rows.results) reason.texts.push_back(r->stop_reason);
  table.columns.push_back(reason);

  std::string csv;
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    if (c) csv += ',';
    csv += csv_cell(table.columns[c].name);
  }
  csv += '\n';
  for (std::size_t r = 0; r < rows.points.size(); ++r) {
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      const TableColumn& col = table.columns[c];
      csv += c ? "," : "";
      csv += col.text ? csv_cell(col.texts[r]) : number(col.numbers[r]);
    }
    csv += '\n';
  }
  std::vector<fs::path> files = {out / "results.csv", out / "results.h5"};
  write_atomically(files[0], csv);
  const fs::path h5_tmp = files[1].string() + ".tmp" + std::to_string(::getpid());
  try {
    write_table_file(h5_tmp, table);
  } catch (const std::runtime_error& e) {
    throw SweepError(e.what());
  }
  fs::rename(h5_tmp, files[1]);
  for (const SweepPlot& plot : sweep.plots) {
    files.push_back(out / plot_file_name(plot));
    write_atomically(files.back(), plot_svg(sweep, manifest, plot, rows));
  }
  return files;
}

}  // namespace pegsim::cli
