// pegsim-cli --record-problems, export --sds and compare-solvers end to end: counts against
// the recorded statuses, metrics against a hand computation, bad input, file safety.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>

#include "cli_runner.hpp"
#include "engine/dynamics/simulator.hpp"
#include "io/run_header.hpp"
#include "io/run_writer.hpp"
#include "io/scene.hpp"

namespace {

using namespace pegsim;
namespace fs = std::filesystem;

using Result = pegsim::test::CliResult;
using pegsim::test::cli;

fs::path dir() {
  fs::path d = fs::temp_directory_path() / ("pegsim-compare-test-" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

fs::path fresh(const std::string& name) {
  fs::remove(dir() / name);
  return dir() / name;
}

std::string scene(const std::string& name) {
  return std::string(PEGSIM_SOURCE_DIR) + "/scenes/" + name + ".json";
}

// CSV rows as field vectors, header first.
std::vector<std::vector<std::string>> read_csv(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> row;
    std::stringstream ss(line);
    for (std::string f; std::getline(ss, f, ',');) row.push_back(f);
    rows.push_back(row);
  }
  return rows;
}

// The index of the column `name` in a CSV header row.
std::size_t column(const std::vector<std::string>& head, const std::string& name) {
  return static_cast<std::size_t>(std::find(head.begin(), head.end(), name) - head.begin());
}

// A recorded hello_world run with problems, shared by the tests below.
const fs::path& recorded_run() {
  static const fs::path file = [] {
    const fs::path f = fresh("hello.h5");
    const Result r = cli("run " + scene("hello_world") + " --steps 40 --quiet --record " +
                         f.string() + " --record-problems");
    EXPECT_EQ(r.status, 0) << r.out;
    return f;
  }();
  return file;
}

TEST(CompareSolvers, SolvedCountsMatchTheRecordedStatuses) {
  const fs::path csv = fresh("cmp.csv"), svg = fresh("cmp.svg");
  const Result r = cli("compare-solvers " + recorded_run().string() + " --csv " + csv.string() +
                       " --plot " + svg.string());
  ASSERT_EQ(r.status, 0) << r.out;
  const auto rows = read_csv(csv);
  ASSERT_GT(rows.size(), 1u);
  const auto col = [&](const std::string& name) { return column(rows[0], name); };
  int recorded_lemke = 0, lemke_solved = 0, lemke_rows = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    if (rows[i][col("solver")] != "lemke") continue;
    ++lemke_rows;
    const bool rec =
        rows[i][col("recorded_solver")] == "lemke" && rows[i][col("recorded_status")] == "solved";
    const bool now = rows[i][col("status")] == "solved";
    recorded_lemke += rec;
    lemke_solved += now;
    // A problem Lemke answered when recorded, it answers again from a cold start.
    if (rec) {
      EXPECT_TRUE(now) << "frame " << rows[i][col("frame")];
    }
    if (now) {
      EXPECT_LT(std::stod(rows[i][col("norm_CCK")]), 1e-6);
    }
  }
  EXPECT_GT(lemke_rows, 10);  // hello_world rests on the ground
  EXPECT_EQ(rows.size() - 1, solver_names().size() * lemke_rows);  // a row per problem per solver
  EXPECT_EQ(lemke_solved, recorded_lemke);
  // The table says the same.
  EXPECT_NE(r.out.find("lemke solved " + std::to_string(recorded_lemke)), std::string::npos)
      << r.out;
  std::istringstream table(r.out);
  bool found = false;
  for (std::string line; std::getline(table, line);) {
    std::istringstream fields(line);
    std::string solver, count;
    fields >> solver >> count;
    if (solver == "lemke" && count.find('/') != std::string::npos) {
      found = true;
      EXPECT_EQ(count.substr(0, count.find('/')), std::to_string(lemke_solved)) << line;
    }
  }
  EXPECT_TRUE(found) << r.out;
  std::ifstream plot(svg);
  const std::string text((std::istreambuf_iterator<char>(plot)), {});
  EXPECT_NE(text.find("<svg"), std::string::npos);
  EXPECT_NE(text.find(">lemke</text>"), std::string::npos);
  EXPECT_NE(text.find(">pgs</text>"), std::string::npos);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n') > 10, true);
}

// Problems recorded from a shipped scene with friction and degenerate contact (polyhedra
// resting face on face: coplanar contacts, redundant normal rows): the pivoting, Newton,
// interior-point and PATH-style methods solve every one from a cold start; the splitting
// methods nearly all (they stop at their sweep limit on two or three); none claims a solution
// its metrics deny.
TEST(CompareSolvers, RecordedCascadingPolyhedraProblemsAreSolvedByTheRobustMethods) {
  const fs::path run = fresh("cascading.h5"), csv = fresh("cascading.csv");
  // Cones from a fixed tangent: with cones turned against the slip, a sticking contact loads
  // one direction alone, and minmap- and fischer-newton meet singular Newton systems on 3 of
  // the problems (docs/friction.md).
  Result r = cli("run " + scene("cascading_polyhedra") +
                 " --steps 150 --quiet --cone-orientation fixed --record " + run.string() +
                 " --record-problems");
  ASSERT_EQ(r.status, 0) << r.out;
  r = cli("compare-solvers " + run.string() + " --csv " + csv.string());
  ASSERT_EQ(r.status, 0) << r.out;
  const auto rows = read_csv(csv);
  ASSERT_GT(rows.size(), 1u);
  const auto col = [&](const std::string& name) { return column(rows[0], name); };
  std::map<std::string, int> solved, problems;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const std::string& solver = rows[i][col("solver")];
    ++problems[solver];
    if (rows[i][col("status")] != "solved") continue;
    ++solved[solver];
    EXPECT_LT(std::stod(rows[i][col("norm_CCK")]), 1e-6)
        << solver << " frame " << rows[i][col("frame")];
  }
  const int n = problems["lemke"];
  EXPECT_GT(n, 100);  // the polyhedra rest on each other from early on
  for (const char* s : {"lemke", "interior-point", "minmap-newton", "fischer-newton", "path"})
    EXPECT_EQ(solved[s], n) << s;
  for (const char* s : {"pgs", "nncg", "psor", "projected-jacobi"})
    EXPECT_GE(solved[s], n - 3) << s;
}

TEST(CompareSolvers, AnSdsExportGivesTheSameComparison) {
  const fs::path sds = fresh("hello-sds.h5"), a = fresh("a.csv"), b = fresh("b.csv");
  Result r = cli("export " + recorded_run().string() + " --sds " + sds.string());
  ASSERT_EQ(r.status, 0) << r.out;
  ASSERT_EQ(cli("compare-solvers " + recorded_run().string() + " --frames 5:30 --csv " + a.string())
                .status,
            0);
  r = cli("compare-solvers " + sds.string() + " --frames 5:30 --csv " + b.string());
  ASSERT_EQ(r.status, 0) << r.out;
  const auto ra = read_csv(a), rb = read_csv(b);
  ASSERT_EQ(ra.size(), rb.size());
  for (std::size_t i = 1; i < ra.size(); ++i) {
    EXPECT_EQ(ra[i][0], rb[i][0]);  // frame
    EXPECT_GE(std::stoi(ra[i][0]), 5);
    EXPECT_LT(std::stoi(ra[i][0]), 30);
    EXPECT_EQ(ra[i][1], rb[i][1]);  // size
    EXPECT_EQ(ra[i][3], rb[i][3]);  // status
    EXPECT_EQ(ra[i][5], rb[i][5]);  // norm_CCK: the same problem, bit for bit
  }
}

// M = [2 1; 1 2], q = (-2, -2) with one PGS sweep: z = (1, 1/2), w = (1/2, 0).
TEST(CompareSolvers, MetricsMatchAHandComputation) {
  Scene sc = load_scene(scene("hello_world"));
  Settings s = sc.settings;
  s.max_iterations = 1;
  const fs::path run = fresh("tiny.h5"), csv = fresh("tiny.csv");
  {
    RunWriterOptions o;
    o.record_problems = true;
    RunWriter w(run, make_run_header(sc, sc.model, s, "test"), sc.initial, o);
    Lcp lcp;
    lcp.M = (MatX(2, 2) << 2, 1, 1, 2).finished();
    lcp.q = VecX::Constant(2, -2.0);
    const VecX z = VecX::Constant(2, 2.0 / 3.0);
    StepReport r;
    r.problem_size = 2;
    r.lcp = &lcp;
    r.solution = &z;
    State st = sc.initial;
    st.step = 1;
    w.on_step(sc.model, st, r);
    w.close();
  }
  const Result r = cli("compare-solvers " + run.string() + " --csv " + csv.string());
  ASSERT_EQ(r.status, 0) << r.out;
  const auto rows = read_csv(csv);
  ASSERT_EQ(rows.size(), 1u + solver_names().size());
  const auto pgs_row =
      std::find_if(rows.begin() + 1, rows.end(), [](const auto& row) { return row[2] == "pgs"; });
  ASSERT_NE(pgs_row, rows.end());
  const auto& pgs = *pgs_row;
  EXPECT_EQ(pgs[3], "max-iterations");
  // phi(a, b) = 0.8 (sqrt(a^2 + b^2) - a - b) + 0.2 max(a, 0) max(b, 0)
  const double phi1 = 0.8 * (std::sqrt(1.25) - 1.5) + 0.2 * 0.5;       // (1, 1/2)
  const double mphi1 = 0.8 * (std::sqrt(1.0625) - 1.25) + 0.2 * 0.25;  // (1, (1/2)/2)
  EXPECT_NEAR(std::stod(pgs[5]), std::abs(phi1), 1e-15);               // row 2: phi(1/2, 0) = 0
  EXPECT_NEAR(std::stod(pgs[6]), 0.5 * phi1 * phi1, 1e-15);
  EXPECT_NEAR(std::stod(pgs[7]), std::abs(mphi1), 1e-15);
  EXPECT_NEAR(std::stod(pgs[8]), 0.5 * mphi1 * mphi1, 1e-15);
  EXPECT_NEAR(std::abs(phi1), 0.2055728, 1e-7);  // the numbers of docs/solver-comparison.md
  EXPECT_NEAR(std::abs(mphi1), 0.1253789, 1e-7);
}

TEST(CompareSolvers, BadInputGivesOneClearErrorAndStatus2) {
  const fs::path plain = fresh("plain.h5");
  ASSERT_EQ(
      cli("run " + scene("hello_world") + " --steps 5 --quiet --record " + plain.string()).status,
      0);
  Result r = cli("compare-solvers " + plain.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find(plain.string() + ": holds no complementarity problems"), std::string::npos)
      << r.out;
  for (const char* range : {"30:10", "0:1000", "x:3", "5:5"}) {
    r = cli("compare-solvers " + recorded_run().string() + " --frames " + range);
    EXPECT_EQ(r.status, 2) << range;
    EXPECT_NE(r.out.find("--frames"), std::string::npos) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  }
  r = cli("compare-solvers " + recorded_run().string() + " --frames 0:1");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("no recorded problem in frames 0:1"), std::string::npos) << r.out;
  const fs::path text = fresh("not.h5");
  std::ofstream(text) << "not hdf5\n";
  r = cli("compare-solvers " + text.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find(text.string() + ": not an HDF5 file"), std::string::npos) << r.out;
  r = cli("compare-solvers " + (dir() / "missing.h5").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("missing.h5: does not exist"), std::string::npos) << r.out;
  r = cli("run " + scene("hello_world") + " --steps 5 --record-problems");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--record-problems needs --record"), std::string::npos) << r.out;
}

TEST(CompareSolvers, NothingIsOverwrittenWithoutForce) {
  const fs::path csv = fresh("keep.csv"), svg = fresh("keep.svg"), sds = fresh("keep-sds.h5");
  for (const fs::path& f : {csv, svg, sds}) std::ofstream(f) << "keep";
  Result r = cli("compare-solvers " + recorded_run().string() + " --csv " + csv.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find(csv.string() + ": exists"), std::string::npos) << r.out;
  r = cli("compare-solvers " + recorded_run().string() + " --plot " + svg.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find(svg.string() + ": exists"), std::string::npos) << r.out;
  r = cli("export " + recorded_run().string() + " --sds " + sds.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find(sds.string() + ": exists"), std::string::npos) << r.out;
  for (const fs::path& f : {csv, svg, sds}) EXPECT_EQ(fs::file_size(f), 4u) << f;
  r = cli("compare-solvers " + recorded_run().string() + " --frames 10:20 --force --csv " +
          csv.string() + " --plot " + svg.string());
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_GT(fs::file_size(csv), 4u);
  EXPECT_GT(fs::file_size(svg), 4u);
}

// External problem files: Siconos LCP and MLCP .dat files, one problem each (frame 0).
std::string testdata(const std::string& set, const std::string& file) {
  return std::string(PEGSIM_TESTDATA_DIR) + "/" + set + "/" + file;
}

// The CSV row of `solver`: its status.
std::string status_of(const std::vector<std::vector<std::string>>& rows,
                      const std::string& solver) {
  for (const auto& row : rows)
    if (row.size() > 3 && row[2] == solver) return row[3];
  return "missing";
}

TEST(CompareSolvers, ReadsSiconosLcpAndMlcpFiles) {
  // lcp_tobenna: Lemke's 386 pivots, and path (its Newton phase stalls, then it pivots).
  const fs::path tobenna = fresh("tobenna.csv");
  Result r = cli("compare-solvers " + testdata("siconos-lcp", "lcp_tobenna.dat") + " --csv " +
                 tobenna.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("1 problems in frames 0:1"), std::string::npos) << r.out;
  auto rows = read_csv(tobenna);
  ASSERT_EQ(rows.size(), 1u + solver_names().size());
  EXPECT_EQ(status_of(rows, "lemke"), "solved");
  EXPECT_EQ(status_of(rows, "path"), "solved");
  EXPECT_EQ(status_of(rows, "pgs"), "numerical-failure");  // zero diagonal

  // m3n2: path takes the MLCP; the LCP-only solvers its Schur-reduced LCP (M_FF invertible).
  const fs::path m3n2 = fresh("m3n2.csv");
  r = cli("compare-solvers " + testdata("siconos-mlcp", "m3n2_mlcp.dat") + " --csv " +
          m3n2.string());
  ASSERT_EQ(r.status, 0) << r.out;
  rows = read_csv(m3n2);
  for (const char* solver : {"lemke", "interior-point", "path"})
    EXPECT_EQ(status_of(rows, solver), "solved") << solver << "\n" << r.out;

  // diodeBridge: M_FF is singular, so only path, which takes the free rows, answers.
  const fs::path diode = fresh("diode.csv");
  r = cli("compare-solvers " + testdata("siconos-mlcp", "diodeBridge_mlcp.dat") + " --csv " +
          diode.string());
  ASSERT_EQ(r.status, 0) << r.out;
  rows = read_csv(diode);
  EXPECT_EQ(status_of(rows, "path"), "solved") << r.out;
  EXPECT_EQ(status_of(rows, "lemke"), "numerical-failure") << r.out;

  // A malformed .dat names the file and what was expected.
  const fs::path bad = fresh("bad_mlcp.dat");
  std::ofstream(bad) << "1\n0\n2\n";
  r = cli("compare-solvers " + bad.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find(bad.string() + ": expected m, the number of complementarity rows"),
            std::string::npos)
      << r.out;
}

}  // namespace
