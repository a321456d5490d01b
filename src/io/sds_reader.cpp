#include "io/sds_reader.hpp"

#include <algorithm>
#include <cstring>

#include "engine/core/settings.hpp"
#include "io/hdf5_io.hpp"
#include "io/hdf5_superblock.hpp"
#include "io/sds_layout.hpp"

namespace pegsim {
namespace {

namespace S = sds_layout;

herr_t collect_frame(hid_t, const char* name, const H5L_info_t*, void* out) {
  const std::size_t prefix = std::strlen(S::kFramePrefix);
  if (std::strncmp(name, S::kFramePrefix, prefix) != 0) return 0;
  char* end = nullptr;
  const long long k = std::strtoll(name + prefix, &end, 10);
  if (end != name + prefix && *end == '\0' && k >= 0)
    static_cast<std::vector<std::int64_t>*>(out)->push_back(k);
  return 0;
}

std::vector<std::int64_t> frame_numbers(hid_t file) {
  std::vector<std::int64_t> out;
  H5Literate(file, H5_INDEX_NAME, H5_ITER_NATIVE, nullptr, collect_frame, &out);
  h5::last_error();
  std::sort(out.begin(), out.end());
  return out;
}

// The file read-only, or nothing when it is no readable HDF5 file; `defect` says why when its
// superblock would make HDF5 read past the end of the file.
h5::Handle open_hdf5(const std::filesystem::path& file, std::string& defect) {
  h5::silence_errors();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec) || H5Fis_hdf5(file.c_str()) <= 0) {
    h5::last_error();
    return {};
  }
  defect = h5::superblock_defect(file);
  if (!defect.empty()) return {};
  h5::Handle f = h5::file(H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  h5::last_error();
  return f;
}

}  // namespace

bool is_sds_file(const std::filesystem::path& file) {
  std::string defect;
  const h5::Handle f = open_hdf5(file, defect);
  return f && !frame_numbers(f.get()).empty();
}

struct SdsReader::Impl {
  std::filesystem::path path;
  h5::Handle file;
  std::vector<std::int64_t> frames;
  double tolerance = Settings{}.tolerance;
  int max_iterations = Settings{}.max_iterations;
  std::string where(const std::string& what) const { return path.string() + ": " + what; }
};

SdsReader::SdsReader(const std::filesystem::path& file) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.path = file;
  std::string defect;
  m.file = open_hdf5(file, defect);
  if (!defect.empty()) throw RunFileError(m.where("damaged HDF5 file: " + defect));
  if (!m.file) throw RunFileError(m.where("not a readable HDF5 file"));
  m.frames = frame_numbers(m.file.get());
  if (m.frames.empty())
    throw RunFileError(m.where("holds no /mbs_frame groups (not a Simulation Data Standard file)"));
  try {
    if (h5::has_attribute(m.file.get(), "tolerance"))
      m.tolerance = h5::read_doubles_attribute(m.file.get(), "tolerance").at(0);
    if (h5::has_attribute(m.file.get(), "max_iterations"))
      m.max_iterations = static_cast<int>(h5::read_int_attribute(m.file.get(), "max_iterations"));
  } catch (const std::exception& e) {
    throw RunFileError(m.where(e.what()));
  }
}

SdsReader::~SdsReader() = default;
SdsReader::SdsReader(SdsReader&&) noexcept = default;

const std::filesystem::path& SdsReader::file() const {
  return impl_->path;
}
const std::vector<std::int64_t>& SdsReader::frames() const {
  return impl_->frames;
}
double SdsReader::tolerance() const {
  return impl_->tolerance;
}
int SdsReader::max_iterations() const {
  return impl_->max_iterations;
}

SdsProblem SdsReader::problem(std::int64_t k) const {
  const Impl& m = *impl_;
  const std::string group = S::frame_group(k);
  if (!std::binary_search(m.frames.begin(), m.frames.end(), k))
    throw RunFileError(m.where("has no group " + group));
  SdsProblem out;
  try {
    h5::Handle g = h5::group(H5Gopen2(m.file.get(), group.c_str(), H5P_DEFAULT));
    if (!g) throw h5::Failure("cannot open " + group);
    const std::string where = group + "/";
    if (H5Lexists(g.get(), "solutions", H5P_DEFAULT) <= 0 ||
        H5Lexists(g.get(), S::kM, H5P_DEFAULT) <= 0 || H5Lexists(g.get(), S::kQ, H5P_DEFAULT) <= 0)
      throw h5::Failure(where +
                        "solutions has no M and q (only pegsim's export carries the "
                        "problem matrices)");
    std::vector<hsize_t> qs, ms;
    const auto q = h5::read_all<double>(g.get(), S::kQ, H5T_NATIVE_DOUBLE, 2, &qs);
    const auto z = h5::read_all<double>(g.get(), S::kSolution, H5T_NATIVE_DOUBLE, 2);
    const auto M = h5::read_all<double>(g.get(), S::kM, H5T_NATIVE_DOUBLE, 2, &ms);
    const auto blocks = h5::read_all<std::int32_t>(g.get(), S::kBlocks, H5T_NATIVE_INT32, 2);
    const std::size_t n = q.size();
    if (n > 0 && (ms[0] != n || ms[1] != n || z.size() != n))
      throw h5::Failure(where + "solutions: M, q and solution sizes disagree");
    RecordedProblem& p = out.problem;
    p.lcp.q = Eigen::Map<const VecX>(q.data(), static_cast<Eigen::Index>(n));
    p.z = Eigen::Map<const VecX>(z.data(), static_cast<Eigen::Index>(n));
    // Stored row-major: map it as the transpose of a column-major matrix.
    p.lcp.M =
        Eigen::Map<const MatX>(M.data(), static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n))
            .transpose();
    p.lcp.block_starts.assign(blocks.begin(), blocks.end());
    h5::Handle sol = h5::group(H5Gopen2(g.get(), "solutions", H5P_DEFAULT));
    if (h5::has_attribute(sol.get(), "free_rows"))
      p.free_rows = static_cast<int>(h5::read_int_attribute(sol.get(), "free_rows"));
    if (h5::has_attribute(sol.get(), "status"))
      out.status = h5::read_string_attribute(sol.get(), "status");
    if (h5::has_attribute(sol.get(), "solver"))
      out.solver = h5::read_string_attribute(sol.get(), "solver");
  } catch (const h5::Failure& e) {
    throw RunFileError(m.where(e.what()));
  }
  return out;
}

}  // namespace pegsim
