#include "cli/sweep/sweep_store.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

namespace pegsim::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kFormat = "pegsim sweep 1";

std::uint64_t fnv1a(const std::string& text, std::uint64_t h = 0xcbf29ce484222325ULL) {
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

json manifest_json(const SweepManifest& m) {
  return {{"format", kFormat},    {"fingerprint", m.fingerprint}, {"points", m.points},
          {"columns", m.columns}, {"sweep_file", m.sweep_file},   {"sweep", m.sweep}};
}

}  // namespace

void write_atomically(const fs::path& file, const std::string& text) {
  const fs::path tmp = file.string() + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) throw SweepError(file.string() + ": cannot be written");
  }
  fs::rename(tmp, file);
}

SweepManifest make_manifest(const Sweep& sweep, const SweepBase& base, int dimension) {
  SweepManifest m;
  m.sweep = sweep.source;
  m.sweep_file = sweep.file.empty() ? std::string() : fs::absolute(sweep.file).string();
  m.columns = sweep.metric_columns(dimension);
  m.points = sweep.point_count();
  std::uint64_t h = fnv1a(sweep.source.dump());
  h = fnv1a(base.scene_text, h);
  h = fnv1a(PEGSIM_VERSION, h);
  char text[20];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  m.fingerprint = text;
  return m;
}

void open_sweep_dir(const fs::path& dir, const SweepManifest& manifest) {
  const fs::path file = dir / "sweep.json";
  std::error_code ec;
  if (fs::exists(file)) {
    const SweepManifest old = read_manifest(dir);
    if (old.fingerprint != manifest.fingerprint)
      throw SweepError(dir.string() +
                       ": holds the results of another sweep (or of another version of this "
                       "sweep file, its scene or the program); use another --out folder");
  } else {
    if (fs::exists(dir) && !fs::is_directory(dir))
      throw SweepError(dir.string() + ": exists and is not a folder");
    if (fs::is_directory(dir) && !fs::is_empty(dir))
      throw SweepError(dir.string() +
                       ": is a folder of other files, not a sweep's (no sweep.json); use a new "
                       "or empty --out folder");
    fs::create_directories(dir, ec);
    if (ec) throw SweepError(dir.string() + ": cannot be created: " + ec.message());
    write_atomically(file, manifest_json(manifest).dump(2) + "\n");
  }
  fs::create_directories(dir / "points", ec);
  if (ec) throw SweepError((dir / "points").string() + ": cannot be created: " + ec.message());
}

SweepManifest read_manifest(const fs::path& dir) {
  const fs::path file = dir / "sweep.json";
  if (!fs::exists(file)) throw SweepError(dir.string() + ": not a sweep folder (no sweep.json)");
  SweepManifest m;
  try {
    const json j = json::parse(read_text(file));
    if (j.value("format", "") != kFormat)
      throw SweepError(file.string() + ": /format: expected \"" + kFormat + "\"");
    m.fingerprint = j.at("fingerprint").get<std::string>();
    m.columns = j.at("columns").get<std::vector<std::string>>();
    m.points = j.at("points").get<long long>();
    m.sweep_file = j.at("sweep_file").get<std::string>();
    m.sweep = j.at("sweep");
  } catch (const json::exception& e) {
    throw SweepError(file.string() + ": not a sweep manifest: " + e.what());
  }
  return m;
}

Sweep manifest_sweep(const SweepManifest& manifest) {
  return parse_sweep(manifest.sweep.dump(), manifest.sweep_file);
}

std::string point_line(const PointResult& r) {
  json values = json::array();
  for (double v : r.values) values.push_back(std::isfinite(v) ? json(v) : json());
  json line = {{"point", r.point}, {"values", values}};
  if (!r.stop_reason.empty()) line["stop_reason"] = r.stop_reason;
  return line.dump() + "\n";
}

bool parse_point_line(const std::string& line, std::size_t columns, PointResult& out) {
  try {
    const json j = json::parse(line);
    out.point = j.at("point").get<long long>();
    const json& values = j.at("values");
    if (!values.is_array() || values.size() != columns) return false;
    out.values.clear();
    for (const json& v : values) out.values.push_back(v.is_null() ? NAN : v.get<double>());
    out.stop_reason = j.value("stop_reason", "");
    return true;
  } catch (const json::exception&) {
    return false;
  }
}

std::map<long long, PointResult> read_points(const fs::path& dir, std::size_t columns) {
  std::vector<fs::path> logs;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir / "points", ec))
    if (entry.path().extension() == ".jsonl") logs.push_back(entry.path());
  std::sort(logs.begin(), logs.end());
  std::map<long long, PointResult> points;
  for (const fs::path& log : logs) {
    const std::string text = read_text(log);
    std::size_t start = 0;
    for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
      PointResult r;
      if (parse_point_line(text.substr(start, end - start), columns, r))
        points.emplace(r.point, std::move(r));
    }
  }
  return points;
}

PointLog::PointLog(const fs::path& dir, const std::string& tag)
    : file_(dir / "points" / (tag + ".jsonl")) {
  fd_ = ::open(file_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw SweepError(file_.string() + ": cannot be opened: " + std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd_);
    throw SweepError(file_.string() +
                     ": another sweep process is writing it (the same folder and shard)");
  }
  // A line cut short by an interruption is dropped, so the next one starts on its own line.
  const std::string text = read_text(file_);
  const std::size_t keep = text.empty() || text.back() == '\n' ? text.size() : text.rfind('\n') + 1;
  if ((keep != text.size() && ::ftruncate(fd_, off_t(keep == std::string::npos ? 0 : keep)) != 0) ||
      ::lseek(fd_, 0, SEEK_END) < 0)
    throw SweepError(file_.string() + ": cannot be written: " + std::strerror(errno));
}

PointLog::~PointLog() {
  if (fd_ >= 0) ::close(fd_);
}

void PointLog::append(const PointResult& result) {
  const std::string line = point_line(result);
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw SweepError(file_.string() + ": cannot be written: " + std::strerror(errno));
    done += std::size_t(n);
  }
}

}  // namespace pegsim::cli
