// The results of a complete sweep, written from its points alone (so a single run and a merge
// of shards write the same bytes): results.csv and results.h5 (one row per point: its index,
// its parameters, its metric columns, why it stopped), and the plots as SVG: a metric against
// one parameter (median and quartile band over the other parameters, one line per value of a
// series parameter) or a heat map of its mean over two.
#pragma once

#include <filesystem>
#include <map>
#include <vector>

#include "cli/sweep/sweep_store.hpp"

namespace pegsim::cli {

std::vector<std::filesystem::path> write_sweep_results(
    const Sweep& sweep, const SweepManifest& manifest,
    const std::map<long long, PointResult>& points, const std::filesystem::path& out);

// The SVG file name of a plot: "<metric>_vs_<x>[_by_<series>].svg", "<metric>_over_<x>_<y>.svg".
std::string plot_file_name(const SweepPlot& plot);

}  // namespace pegsim::cli
