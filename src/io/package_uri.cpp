#include "io/package_uri.hpp"

#include <cstdlib>
#include <sstream>
#include <system_error>

namespace pegsim {
namespace {

bool is_file(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec);
}

}  // namespace

std::vector<std::filesystem::path> package_search_path(
    const std::vector<std::filesystem::path>& given, const std::filesystem::path& robot_file) {
  std::vector<std::filesystem::path> out = given;
  if (const char* ros = std::getenv("ROS_PACKAGE_PATH")) {
    std::stringstream list(ros);
    for (std::string dir; std::getline(list, dir, ':');)
      if (!dir.empty()) out.emplace_back(dir);
  }
  std::filesystem::path dir = std::filesystem::absolute(robot_file).parent_path();
  for (int level = 0; level < 5 && !dir.empty(); ++level) {
    out.push_back(dir);
    if (dir == dir.parent_path()) break;
    dir = dir.parent_path();
  }
  return out;
}

std::optional<std::filesystem::path> resolve_package_uri(
    const std::string& uri, const std::filesystem::path& robot_file,
    const std::vector<std::filesystem::path>& search_path) {
  const std::string package = "package://", file = "file://";
  if (uri.rfind(package, 0) != 0) {
    std::filesystem::path p = uri.rfind(file, 0) == 0 ? uri.substr(file.size()) : uri;
    if (p.is_relative()) p = robot_file.parent_path() / p;
    return is_file(p) ? std::optional(p) : std::nullopt;
  }
  const std::filesystem::path rest = uri.substr(package.size());
  for (const auto& dir : search_path)
    if (is_file(dir / rest)) return dir / rest;
  std::vector<std::filesystem::path> components(rest.begin(), rest.end());
  for (std::size_t drop = 1; drop + 2 <= components.size(); ++drop) {
    std::filesystem::path tail;
    for (std::size_t k = drop; k < components.size(); ++k) tail /= components[k];
    for (const auto& dir : search_path)
      if (is_file(dir / tail)) return dir / tail;
  }
  return std::nullopt;
}

}  // namespace pegsim
