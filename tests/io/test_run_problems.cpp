// Recorded complementarity problems (docs/run-format.md, "Complementarity problems"): M, q,
// z and the block structure come back exactly; a file without them says so.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>

#include "engine/dynamics/simulator.hpp"
#include "engine/solvers/lcp_matrix.hpp"
#include "io/run_header.hpp"
#include "io/run_reader.hpp"
#include "io/run_writer.hpp"
#include "io/scene.hpp"

namespace {

using namespace pegsim;
namespace fs = std::filesystem;

fs::path fresh(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("pegsim-problem-test-" + std::to_string(::getpid()));
  fs::create_directories(d);
  fs::remove(d / name);
  return d / name;
}

// Copies each step's problem while it is valid (the report points into the simulator).
struct ProblemTape : StepObserver {
  std::vector<RecordedProblem> problems;
  void on_step(const Model&, const State&, const StepReport& r) override {
    RecordedProblem p;
    if (r.lcp) {
      p.lcp = *r.lcp;
      p.z = *r.solution;
    }
    problems.push_back(std::move(p));
  }
};

ProblemTape record(const fs::path& file, int steps, bool problems) {
  Scene sc = load_scene(fs::path(PEGSIM_SOURCE_DIR) / "scenes" / "cascading_polyhedra.json");
  Simulator sim(sc.model, sc.initial, sc.settings);
  RunWriterOptions o;
  o.record_problems = problems;
  RunWriter writer(file, make_run_header(sc, sim.model(), sim.settings(), "test"), sim.state(), o);
  ProblemTape tape;
  sim.add_observer(&writer);
  sim.add_observer(&tape);
  for (int k = 0; k < steps; ++k) sim.step();
  writer.close();
  return tape;
}

TEST(RunProblems, StepReportExposesTheSolvedLcp) {
  ProblemTape tape = record(fresh("exposed.h5"), 60, false);
  int solved = 0;
  for (const RecordedProblem& p : tape.problems) {
    if (p.lcp.size() == 0) continue;
    ++solved;
    ASSERT_EQ(p.z.size(), p.lcp.size());
    EXPECT_LE(natural_residual(p.lcp, p.z), 1e-8 * (1 + p.lcp.q.lpNorm<Eigen::Infinity>()));
  }
  EXPECT_GT(solved, 10);  // the polyhedra land within 60 steps
}

TEST(RunProblems, MqzAndBlocksRoundTripExactly) {
  const fs::path file = fresh("problems.h5");
  ProblemTape tape = record(file, 120, true);
  RunReader reader(file);
  ASSERT_TRUE(reader.has_problems());
  ASSERT_EQ(reader.frame_count(), 121);
  EXPECT_EQ(reader.problem(0).lcp.size(), 0);  // frame 0: the initial state, no step
  int nonempty = 0;
  for (std::int64_t k = 1; k < reader.frame_count(); ++k) {
    const RecordedProblem got = reader.problem(k);
    const RecordedProblem& want = tape.problems[k - 1];
    ASSERT_EQ(got.lcp.size(), want.lcp.size()) << "frame " << k;
    EXPECT_EQ(got.lcp.size(), reader.frame(k).solve.problem_size);
    EXPECT_EQ(got.free_rows, 0);
    if (want.lcp.size() == 0) continue;
    ++nonempty;
    ASSERT_TRUE(m_is_sparse(got.lcp) && m_is_sparse(want.lcp)) << "frame " << k;
    EXPECT_TRUE(MatX(got.lcp.S) == MatX(want.lcp.S)) << "frame " << k;
    EXPECT_EQ(got.lcp.S.nonZeros(), want.lcp.S.nonZeros()) << "frame " << k;
    EXPECT_TRUE(got.lcp.q == want.lcp.q) << "frame " << k;
    EXPECT_TRUE(got.z == want.z) << "frame " << k;
    EXPECT_EQ(got.lcp.block_starts, want.lcp.block_starts) << "frame " << k;
  }
  EXPECT_GT(nonempty, 50);
  EXPECT_THROW(reader.problem(reader.frame_count()), std::out_of_range);
}

TEST(RunProblems, AFileWithoutProblemsSaysSo) {
  const fs::path file = fresh("plain.h5");
  record(file, 5, false);
  RunReader reader(file);
  EXPECT_FALSE(reader.has_problems());
  try {
    reader.problem(1);
    FAIL() << "expected RunFileError";
  } catch (const RunFileError& e) {
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--record-problems"), std::string::npos) << e.what();
  }
}

}  // namespace
