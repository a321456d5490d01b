#include "io/hdf5_handle.hpp"

#include <mutex>
#include <string>

namespace pegsim::h5 {

void silence_errors() {
  static std::once_flag once;
  std::call_once(once, [] { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); });
  // The library keeps the setting per thread in a thread-safe build: silence this one too.
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
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
