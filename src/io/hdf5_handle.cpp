#include "io/hdf5_handle.hpp"

#include <cstddef>
#include <limits>
#include <mutex>
#include <string>

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

herr_t check_dataset(hid_t group, const char* name, const H5L_info_t* info, void* out) {
  if (info->type != H5L_TYPE_HARD) return 0;  // soft and external links are not followed
  const Handle object{H5Oopen(group, name, H5P_DEFAULT), H5Oclose};
  const bool damaged =
      !object || (H5Iget_type(object.get()) == H5I_DATASET && !storage_is_whole(object.get()));
  if (!damaged) return 0;
  *static_cast<std::string*>(out) = name;
  return 1;  // stop: one is enough to refuse the file
}

}  // namespace

std::string first_damaged_dataset(hid_t location) {
  std::string damaged;
  const herr_t walked = H5Lvisit(location, H5_INDEX_NAME, H5_ITER_NATIVE, check_dataset, &damaged);
  H5Eclear2(H5E_DEFAULT);
  if (walked < 0 && damaged.empty()) return std::string(1, '/');  // the links themselves
  return damaged;
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
