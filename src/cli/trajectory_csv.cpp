#include "cli/trajectory_csv.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace pegsim::cli {

TrajectoryCsv::TrajectoryCsv(const std::filesystem::path& file, bool overwrite, const Model& model,
                             const State& initial)
    : file_(file) {
  if (!overwrite && std::filesystem::exists(file))
    throw std::runtime_error(file.string() + ": exists; not overwriting it (use --force)");
  out_.open(file, std::ios::out | std::ios::trunc);
  if (!out_) throw std::runtime_error(file.string() + ": cannot be created");
  out_.precision(17);
  out_ << "step,time";
  for (const Body& b : model.bodies)
    for (const char* c : {"x", "y", "z", "qw", "qx", "qy", "qz"}) out_ << ',' << b.name << '.' << c;
  out_ << '\n';
  write_row(initial);
}

void TrajectoryCsv::on_step(const Model&, const State& state, const StepReport& report) {
  if (!report.failed) write_row(state);
}

void TrajectoryCsv::close() {
  if (!out_.is_open()) return;
  out_.flush();
  check();
  out_.close();
  if (out_.fail())
    throw std::runtime_error(file_.string() + ": cannot be written (closing failed)");
}

void TrajectoryCsv::check() const {
  if (out_) return;
  const int error = errno;
  throw std::runtime_error(file_.string() + ": cannot be written (" +
                           (error ? std::strerror(error) : "write failed") + ")");
}

void TrajectoryCsv::write_row(const State& s) {
  out_ << s.step << ',' << s.time;
  for (const BodyState& b : s.bodies) {
    const Quat& q = b.orientation;
    out_ << ',' << b.position.x() << ',' << b.position.y() << ',' << b.position.z() << ',' << q.w()
         << ',' << q.x() << ',' << q.y() << ',' << q.z();
  }
  out_ << '\n';
  check();
}

}  // namespace pegsim::cli
