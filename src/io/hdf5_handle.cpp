#include "io/hdf5_handle.hpp"

#include <cstddef>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

namespace pegsim::h5 {

void silence_errors() {
  static std::once_flag once;
  std::call_once(once, [] { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); });
  // The library keeps the setting per thread in a thread-safe build: silence this one too.
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

bool storage_is_whole(hid_t dataset) {
  const Handle plist = h5::plist(H5Dget_create_plist(dataset));
  const Handle space = h5::space(H5Dget_space(dataset));
  const Handle type = h5::type(H5Dget_type(dataset));
  if (!plist || !space || !type) return false;
  if (H5Tget_class(type.get()) == H5T_VLEN || H5Tis_variable_str(type.get()) > 0) return true;
  const hssize_t points = H5Sget_simple_extent_npoints(space.get());
  const std::size_t size = H5Tget_size(type.get());
  if (points < 0 || size == 0) return false;
  const hsize_t most = std::numeric_limits<hsize_t>::max();
  if (points > 0 && size > most / static_cast<hsize_t>(points)) return false;
  const hsize_t needed = static_cast<hsize_t>(points) * size;
  const hsize_t stored = H5Dget_storage_size(dataset);
  switch (H5Pget_layout(plist.get())) {
    case H5D_COMPACT:
      return stored == needed;
    case H5D_CONTIGUOUS:
      return stored == 0 || stored == needed;
    case H5D_CHUNKED:
      return true;
    default:
      return false;
  }
}

namespace {

// A walk of the links below a location, bounded: a damaged file can link a group into itself
// (its link count still 1), and HDF5's own H5Lvisit then recurses without end (a hang found by
// fuzz_fclib).
constexpr int kMaxDepth = 16;
constexpr long kMaxLinks = 10000;

struct Walk {
  std::string path;    // of the group being walked, "" for the location
  std::string defect;  // what is wrong, "" while nothing is
  int depth = 0;
  long links = 0;
};

herr_t check_link(hid_t group, const char* name, const H5L_info_t* info, void* data);

// Whether the whole dataset reads as its native type (fixed-size types; a variable-length one
// is left to its reader). libfclib exits the process when one of its reads fails, so a file
// is read once here first.
bool data_can_be_read(hid_t dataset) {
  const Handle type = h5::type(H5Dget_type(dataset));
  const Handle space = h5::space(H5Dget_space(dataset));
  if (!type || !space) return false;
  if (H5Tdetect_class(type.get(), H5T_VLEN) > 0 || H5Tis_variable_str(type.get()) > 0) return true;
  const Handle native = h5::type(H5Tget_native_type(type.get(), H5T_DIR_DEFAULT));
  const hssize_t points = H5Sget_simple_extent_npoints(space.get());
  if (!native || points < 0) return false;
  const std::size_t size = H5Tget_size(native.get());
  if (size == 0 || static_cast<std::size_t>(points) > (std::size_t{1} << 30) / size) return false;
  std::vector<unsigned char> buffer(static_cast<std::size_t>(points) * size);
  return H5Dread(dataset, native.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()) >= 0;
}

herr_t walk(hid_t group, Walk& w) {
  return H5Literate(group, H5_INDEX_NAME, H5_ITER_NATIVE, nullptr, check_link, &w);
}

herr_t check_link(hid_t group, const char* name, const H5L_info_t* info, void* data) {
  Walk& w = *static_cast<Walk*>(data);
  const std::string path = w.path + "/" + name;
  if (++w.links > kMaxLinks) {
    w.defect = path + ": damaged, more than " + std::to_string(kMaxLinks) +
               " links below the file's root (a group linked into itself?)";
    return 1;
  }
  if (info->type != H5L_TYPE_HARD) return 0;  // soft and external links are not followed
  const Handle object{H5Oopen(group, name, H5P_DEFAULT), H5Oclose};
  if (!object) {
    w.defect = path + ": damaged, its object header cannot be read";
    return 1;
  }
  const H5I_type_t type = H5Iget_type(object.get());
  if (type == H5I_DATASET && !storage_is_whole(object.get())) {
    w.defect = path + ": damaged, its stored data does not match its size";
    return 1;
  }
  if (type == H5I_DATASET && !data_can_be_read(object.get())) {
    w.defect = path + ": damaged, its data cannot be read";
    return 1;
  }
  if (type != H5I_GROUP) return 0;
  if (w.depth >= kMaxDepth) {
    w.defect = path + ": damaged, groups nested more than " + std::to_string(kMaxDepth) +
               " deep (a group linked into itself?)";
    return 1;
  }
  const std::string parent = w.path;
  w.path = path;
  ++w.depth;
  const herr_t walked = walk(object.get(), w);
  --w.depth;
  w.path = parent;
  if (walked < 0 && w.defect.empty()) w.defect = path + ": damaged, its links cannot be read";
  return w.defect.empty() ? 0 : 1;
}

}  // namespace

std::string first_damaged_object(hid_t location) {
  Walk w;
  const herr_t walked = walk(location, w);
  H5Eclear2(H5E_DEFAULT);
  if (walked < 0 && w.defect.empty()) return "/: damaged, its links cannot be read";
  return w.defect;
}

namespace {
// A failed system call is described by HDF5 among buffer addresses and byte counts ("file
// write failed: time = ..., errno = 28, error message = 'No space left on device', buf =
// 0x..., bytes actually written = 18446744073709551615"): keep the system's words alone.
std::string in_plain_words(const std::string& desc) {
  const std::string tag = "error message = '";
  const std::size_t at = desc.find(tag);
  if (at == std::string::npos) return desc;
  const std::size_t begin = at + tag.size(), end = desc.find('\'', begin);
  const std::size_t what = desc.find_first_of(":,");
  return desc.substr(0, what == std::string::npos ? 0 : what) + ": " +
         desc.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

herr_t keep_deepest(unsigned, const H5E_error2_t* e, void* out) {
  auto* text = static_cast<std::string*>(out);
  if (text->empty() && e->desc && *e->desc) *text = in_plain_words(e->desc);  // innermost first
  return 0;
}
}  // namespace

std::string last_error() {
  std::string text;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, keep_deepest, &text);
  H5Eclear2(H5E_DEFAULT);
  return text;
}

}  // namespace pegsim::h5
