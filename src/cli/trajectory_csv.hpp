// Writes one CSV row per step: time and every body's position and quaternion (RPIsim sim_log).
#pragma once

#include <filesystem>
#include <fstream>

#include "engine/dynamics/simulator.hpp"

namespace pegsim::cli {

class TrajectoryCsv : public StepObserver {
 public:
  // Opens `file` for writing; throws std::runtime_error if it exists and !overwrite, or if it
  // cannot be created. Writes the header and the initial state (step 0).
  TrajectoryCsv(const std::filesystem::path& file, bool overwrite, const Model& model,
                const State& initial);
  // Each write is checked: a failed one (a full disk, /dev/full) throws std::runtime_error
  // naming the file and the system's reason, from the step that made it.
  void on_step(const Model& model, const State& state, const StepReport& report) override;
  // Flushes and closes the file; throws as above if that fails.
  void close();

 private:
  void write_row(const State& state);
  void check() const;
  std::filesystem::path file_;
  std::ofstream out_;
};

}  // namespace pegsim::cli
