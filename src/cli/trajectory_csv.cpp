#include "cli/trajectory_csv.hpp"

#include <stdexcept>

namespace pegsim::cli {

TrajectoryCsv::TrajectoryCsv(const std::filesystem::path& file, bool overwrite,
                             const Model& model, const State& initial) {
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

void TrajectoryCsv::write_row(const State& s) {
  out_ << s.step << ',' << s.time;
  for (const BodyState& b : s.bodies) {
    const Quat& q = b.orientation;
    out_ << ',' << b.position.x() << ',' << b.position.y() << ',' << b.position.z() << ','
         << q.w() << ',' << q.x() << ',' << q.y() << ',' << q.z();
  }
  out_ << '\n';
}

}  // namespace pegsim::cli
