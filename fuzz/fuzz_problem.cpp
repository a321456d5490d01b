// libFuzzer targets: complementarity problem files, one reader per build of this file
// (PEGSIM_FUZZ_READER: siconos_lcp, siconos_mlcp or fclib). Promise under test: any bytes
// either give a well-formed problem (lcp_defect finds nothing) or are refused with one
// ProblemFileError; a small problem read is then solved by one of the solvers (chosen by the
// input's size) without an exception, with an answer of the problem's size, finite if solved.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "engine/solvers/lcp.hpp"
#include "engine/solvers/solver.hpp"
#include "input_file.hpp"
#include "io/fclib_problem.hpp"
#include "io/siconos_lcp.hpp"
#include "io/siconos_mlcp.hpp"

namespace {

pegsim::Lcp read(const std::filesystem::path& file) {
#if PEGSIM_FUZZ_READER == 0
  return pegsim::read_siconos_lcp(file);
#elif PEGSIM_FUZZ_READER == 1
  return pegsim::read_siconos_mlcp(file);
#else
  return pegsim::read_fclib_local(file).lcp;
#endif
}

const char* extension() {
#if PEGSIM_FUZZ_READER == 2
  return ".hdf5";
#else
  return ".dat";
#endif
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pegsim;
  static const std::filesystem::path file = fuzz::input_path(extension());
  static const std::vector<std::string> solvers = solver_names();
  fuzz::write_input(file, data, size);
  Lcp lcp;
  try {
    lcp = read(file);
  } catch (const ProblemFileError&) {
    return 0;
  } catch (const std::exception& e) {
    fuzz::defect(std::string("the reader threw a non-ProblemFileError: ") + e.what());
  }
  if (const char* why = lcp_defect(lcp, true)) fuzz::defect(std::string("read a problem ") + why);
  if (lcp.size() > 40) return 0;  // solving costs grow as n^3; small problems reach every path
  const std::unique_ptr<Solver> solver = make_solver(solvers[size % solvers.size()]);
  if (lcp.has_bounds() && !solver->supports_bounds()) return 0;
  VecX z = VecX::Zero(lcp.size());
  SolverOptions options;
  options.max_iterations = 500;
  try {
    const SolveReport report = solver->solve(lcp, z, options);
    if (z.size() != lcp.size()) fuzz::defect("the answer has the wrong size");
    if (report.solved() && !z.allFinite()) fuzz::defect("a solved answer is not finite");
  } catch (const std::exception& e) {
    fuzz::defect(std::string(solver->name()) + " threw on a problem read from a file: " + e.what());
  }
  return 0;
}
