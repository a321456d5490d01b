// FCLib local problems (fclib_problem.hpp): files written by libfclib itself, converted to the
// linearized-cone LCP of thesis (2.21) and solved; the Coulomb answers are known in closed form.
// Broken files give one clear error instead of libfclib's exit.
#include <gtest/gtest.h>

#include <hdf5.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
#include <fclib.h>
}

#include "cli_runner.hpp"
#include "engine/solvers/solver.hpp"
#include "io/fclib_problem.hpp"
#include "io/siconos_lcp.hpp"

namespace pegsim {
namespace {

namespace fs = std::filesystem;

fs::path fresh(const std::string& name) {
  const fs::path d =
      fs::temp_directory_path() / ("pegsim-fclib-test-" + std::to_string(::getpid()));
  fs::create_directories(d);
  fs::remove(d / name);
  return d / name;
}

// One 3D contact, W = identity (a unit mass at the contact), u = r + q, mu = 0.5, written by
// libfclib in compressed-column form.
fs::path one_contact(const std::string& name, double qt1, double qt2) {
  static int p[] = {0, 1, 2, 3}, i[] = {0, 1, 2};
  static double x[] = {1.0, 1.0, 1.0};
  fclib_matrix W{3, 3, 3, p, i, x, -1, nullptr};
  double q[] = {-1.0, qt1, qt2}, mu[] = {0.5};
  fclib_local problem{&W, nullptr, nullptr, mu, q, nullptr, 3, nullptr};
  const fs::path file = fresh(name);
  EXPECT_EQ(fclib_write_local(&problem, file.c_str()), 1);
  return file;
}

// r = (r_N, r_T) from the LCP answer: r_T = sum_j p_f,j d_j.
Vec3 reaction(const FclibProblem& fc, const VecX& z) {
  Vec3 r(z(0), 0.0, 0.0);
  for (int j = 0; j < fc.directions; ++j) {
    const double angle = 2.0 * M_PI * j / fc.directions;
    r.y() += z(1 + j) * std::cos(angle);
    r.z() += z(1 + j) * std::sin(angle);
  }
  return r;
}

// Sticking: u = 0 needs r = -q = (1, -0.3, 0.1), inside the cone (|r_T| = 0.32 < 0.5); the
// linearized cone (8 directions, inscribed radius 0.5 cos(pi/8) = 0.46) holds it too.
TEST(FclibProblem, StickingContactGivesTheExactReaction) {
  const FclibProblem fc = read_fclib_local(one_contact("stick.hdf5", 0.3, -0.1));
  ASSERT_EQ(fc.contacts, 1);
  ASSERT_EQ(fc.directions, 8);
  ASSERT_EQ(fc.lcp.size(), 10);
  for (const char* solver : {"lemke", "path"}) {
    VecX z;
    const SolveReport r = make_solver(solver)->solve(fc.lcp, z, {});
    ASSERT_TRUE(r.solved()) << solver << ": " << r.message;
    EXPECT_LE((reaction(fc, z) - Vec3(1.0, -0.3, 0.1)).cwiseAbs().maxCoeff(), 1e-9) << solver;
  }
}

// Sliding along a friction direction (q_T = (2, 0), beyond the cone): Coulomb's law gives
// r_N = 1 (u_N = 0) and r_T = -mu r_N along -x, exactly representable by the direction at pi.
TEST(FclibProblem, SlidingContactOpposesTheSlipWithMuTimesTheNormalReaction) {
  const FclibProblem fc = read_fclib_local(one_contact("slide.hdf5", 2.0, 0.0));
  VecX z;
  const SolveReport r = make_solver("lemke")->solve(fc.lcp, z, {});
  ASSERT_TRUE(r.solved()) << r.message;
  EXPECT_LE((reaction(fc, z) - Vec3(1.0, -0.5, 0.0)).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_NEAR(z(9), 1.5, 1e-9);  // the slip speed s = |u_T| = 2 - 0.5
}

// A CSC copy of a dense matrix, owning the arrays libfclib's struct points into.
struct Csc {
  std::vector<int> p, i;
  std::vector<double> x;
  fclib_matrix m{};
  explicit Csc(const MatX& a) {
    p.push_back(0);
    for (int c = 0; c < a.cols(); ++c) {
      for (int r = 0; r < a.rows(); ++r)
        if (a(r, c) != 0.0) {
          i.push_back(r);
          x.push_back(a(r, c));
        }
      p.push_back(static_cast<int>(i.size()));
    }
    m = fclib_matrix{static_cast<int>(x.size()),
                     static_cast<int>(a.rows()),
                     static_cast<int>(a.cols()),
                     p.data(),
                     i.data(),
                     x.data(),
                     -1,
                     nullptr};
  }
};

// Any local problem, written by libfclib; V, R and s only when `s` is non-empty.
fs::path write_local(const std::string& name, int spacedim, const MatX& W, VecX q, VecX mu,
                     const MatX& V = MatX(), const MatX& R = MatX(), VecX s = VecX()) {
  Csc w(W), v(V.size() ? V : MatX::Zero(1, 1)), r(R.size() ? R : MatX::Zero(1, 1));
  const bool mixed = s.size() > 0;
  fclib_local problem{&w.m,
                      mixed ? &v.m : nullptr,
                      mixed ? &r.m : nullptr,
                      mu.data(),
                      q.data(),
                      mixed ? s.data() : nullptr,
                      spacedim,
                      nullptr};
  const fs::path file = fresh(name);
  EXPECT_EQ(fclib_write_local(&problem, file.c_str()), 1);
  return file;
}

// The lambda rows of FCLib's mixed problem (V^T r + R lambda + s = 0, u = W r + V lambda + q)
// become free rows ahead of the contact: with W = I, V = (1/2, 0, 0)^T, R = 1, s = 0 and
// q = (-1, 0.3, -0.1), the loaded contact needs u_N = r_N + lambda / 2 - 1 = 0 with
// lambda = -r_N / 2, so r_N = 4/3, lambda = -2/3, and it sticks: r_T = -q_T (|r_T| = 0.32 <
// mu r_N = 0.67). path takes the MCP as it is.
TEST(FclibProblem, LambdaRowsAreFreeRowsAheadOfTheContacts) {
  MatX V = MatX::Zero(3, 1);
  V(0, 0) = 0.5;
  const FclibProblem fc =
      read_fclib_local(write_local("mixed.hdf5", 3, MatX::Identity(3, 3), Vec3(-1.0, 0.3, -0.1),
                                   VecX::Constant(1, 0.5), V, MatX::Identity(1, 1), VecX::Zero(1)));
  ASSERT_EQ(fc.free_rows, 1);
  ASSERT_EQ(fc.contacts, 1);
  ASSERT_EQ(fc.lcp.size(), 11);
  ASSERT_TRUE(fc.lcp.has_bounds());
  EXPECT_EQ(fc.lcp.lower(0), -INFINITY);
  VecX z;
  const SolveReport r = make_solver("path")->solve(fc.lcp, z, {});
  ASSERT_TRUE(r.solved()) << r.message;
  EXPECT_NEAR(z(0), -2.0 / 3.0, 1e-9);
  EXPECT_LE((reaction(fc, z.tail(10)) - Vec3(4.0 / 3.0, -0.3, 0.1)).cwiseAbs().maxCoeff(), 1e-9);
  // The LCP-only solvers refuse the free row (the simulator and compare-solvers give them the
  // Schur-reduced LCP instead).
  VecX z_lemke;
  EXPECT_FALSE(make_solver("lemke")->solve(fc.lcp, z_lemke, {}).solved());
}

// A 2D problem (spacedim 2) has the exact 2D cone: two friction directions, +t and -t. W = I,
// q = (-1, 0.3), mu = 0.5: the contact sticks with r = (1, -0.3); with q_T = 0.8 it slides and
// r_T = -mu r_N = -0.5.
TEST(FclibProblem, PlanarProblemsHaveTheExactTwoDirectionCone) {
  for (const double qt : {0.3, 0.8}) {
    const FclibProblem fc = read_fclib_local(write_local("planar.hdf5", 2, MatX::Identity(2, 2),
                                                         Vec2(-1.0, qt), VecX::Constant(1, 0.5)));
    ASSERT_EQ(fc.spacedim, 2);
    ASSERT_EQ(fc.directions, 2);
    ASSERT_EQ(fc.lcp.size(), 4);
    for (const char* solver : {"lemke", "path", "pgs"}) {
      VecX z;
      const SolveReport r = make_solver(solver)->solve(fc.lcp, z, {});
      ASSERT_TRUE(r.solved()) << solver << ": " << r.message;
      EXPECT_NEAR(z(0), 1.0, 1e-8) << solver;
      EXPECT_NEAR(z(1) - z(2), -std::min(qt, 0.5), 1e-8) << solver;
    }
  }
}

// pegsim-cli compare-solvers takes an FCLib file as it takes a run file: every solver of the
// registry gets a row; path solves the mixed problem as it is and the LCP solvers its
// Schur-reduced form (R invertible).
TEST(FclibProblem, CompareSolversRanksEverySolverOnAnFclibFile) {
  MatX V = MatX::Zero(3, 1);
  V(0, 0) = 0.5;
  const fs::path problem =
      write_local("compare.hdf5", 3, MatX::Identity(3, 3), Vec3(-1.0, 0.3, -0.1),
                  VecX::Constant(1, 0.5), V, MatX::Identity(1, 1), VecX::Zero(1));
  const fs::path csv = fresh("compare.csv");
  const test::CliResult r =
      test::cli("compare-solvers " + problem.string() + " --csv " + csv.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("1 problems in frames 0:1"), std::string::npos) << r.out;
  std::stringstream text;
  text << std::ifstream(csv).rdbuf();
  for (const std::string& solver : solver_names())
    EXPECT_NE(text.str().find(",11," + solver + ","), std::string::npos) << solver << "\n"
                                                                         << text.str();
  for (const std::string solver : {"lemke", "path", "interior-point", "fischer-newton"})
    EXPECT_NE(text.str().find(std::string(",") + solver + ",solved,"), std::string::npos)
        << solver << "\n"
        << text.str();
}

TEST(FclibProblem, BrokenFilesGiveOneClearError) {
  auto message = [](const fs::path& file) {
    try {
      read_fclib_local(file);
    } catch (const ProblemFileError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const fs::path text = fresh("text.hdf5");
  FILE* f = std::fopen(text.c_str(), "w");
  std::fputs("not hdf5\n", f);
  std::fclose(f);
  EXPECT_NE(message(text).find("expected an HDF5 file"), std::string::npos) << message(text);
  EXPECT_FALSE(is_fclib_file(text));

  // A dataset removed, then one of the wrong size: named, never libfclib's exit.
  const fs::path no_mu = one_contact("no_mu.hdf5", 0.3, 0.0);
  {
    const hid_t file = H5Fopen(no_mu.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(H5Ldelete(file, "/fclib_local/vectors/mu", H5P_DEFAULT), 0);
    H5Fclose(file);
  }
  EXPECT_TRUE(is_fclib_file(no_mu));
  const std::string e = message(no_mu);
  EXPECT_NE(e.find(no_mu.string()), std::string::npos) << e;
  EXPECT_NE(e.find("/fclib_local/vectors/mu: expected a dataset"), std::string::npos) << e;

  const fs::path short_q = one_contact("short_q.hdf5", 0.3, 0.0);
  {
    const hid_t file = H5Fopen(short_q.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(H5Ldelete(file, "/fclib_local/vectors/q", H5P_DEFAULT), 0);
    const hsize_t two = 2;
    const double values[] = {1.0, 2.0};
    const hid_t space = H5Screate_simple(1, &two, nullptr);
    const hid_t d = H5Dcreate2(file, "/fclib_local/vectors/q", H5T_IEEE_F64LE, space, H5P_DEFAULT,
                               H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values);
    H5Dclose(d);
    H5Sclose(space);
    H5Fclose(file);
  }
  EXPECT_NE(message(short_q).find("/fclib_local/vectors/q: expected 3 entries, it has 2"),
            std::string::npos)
      << message(short_q);
}

// A problem too large for the dense tableau is refused before it is built: 76 contacts with 64
// directions give 76 x 66 = 5016 rows, over the 5000 of pegsim's dense solvers; with 8, 760.
TEST(FclibProblem, ProblemsLargerThanTheDenseSolversTakeAreRefusedBeforeAllocating) {
  const int m = 3 * 76;
  const fs::path big =
      write_local("big.hdf5", 3, MatX::Identity(m, m), VecX::Zero(m), VecX::Constant(76, 0.5));
  try {
    read_fclib_local(big, 64);
    ADD_FAILURE() << "a problem of 5016 rows was read";
  } catch (const ProblemFileError& e) {
    EXPECT_NE(std::string(e.what()).find("76 contacts give a problem of 5016 rows"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(read_fclib_local(big, 8).lcp.size(), 760);
}

// A file found by fuzz_fclib on which HDF5 1.10 itself reads through a null pointer (inside
// H5Lexists): it is read in a child process, so compare-solvers refuses it by name, exit 2.
TEST(FclibProblem, AFileThatCrashesHdf5IsRefusedNotFatal) {
  const fs::path crash =
      fs::path(PEGSIM_SOURCE_DIR) / "tests/io/data/fuzz/fclib/hdf5_crashes_in_link_lookup.hdf5";
  ASSERT_TRUE(fs::exists(crash));
  EXPECT_TRUE(is_fclib_file(crash));
  try {
    read_fclib_local(crash);
    ADD_FAILURE() << "read";
  } catch (const ProblemFileError& e) {
    EXPECT_NE(std::string(e.what()).find(crash.string() + ": damaged HDF5 file: the process "
                                                          "reading it crashed with signal"),
              std::string::npos)
        << e.what();
  }
  const test::CliResult r = test::cli("compare-solvers " + crash.string());
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("damaged HDF5 file"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace pegsim
