// Where a robot file's package://PACKAGE/PATH URI (or a relative path) points (docs/robots.md,
// "Packages").
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace pegsim {

// The directories searched, in order: `given` (a --package-path or a scene's "package_path"),
// then those of the ROS_PACKAGE_PATH variable, then the robot file's own directory and its
// parents up to four levels.
std::vector<std::filesystem::path> package_search_path(
    const std::vector<std::filesystem::path>& given, const std::filesystem::path& robot_file);

// A package://PACKAGE/PATH URI: the first existing DIR/PACKAGE/PATH over the search path, else
// the first existing DIR/S for S the ever shorter tails of PACKAGE/PATH that keep its last two
// components (a package copied without its enclosing folders, e.g. PATH's own package folder
// under DIR). A file:// URI or a path: itself, relative to the robot file's directory.
// nullopt when nothing exists.
std::optional<std::filesystem::path> resolve_package_uri(
    const std::string& uri, const std::filesystem::path& robot_file,
    const std::vector<std::filesystem::path>& search_path);

}  // namespace pegsim
