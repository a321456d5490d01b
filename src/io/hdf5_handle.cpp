#include "io/hdf5_handle.hpp"

#include <mutex>

namespace pegsim::h5 {

void silence_errors() {
  static std::once_flag once;
  std::call_once(once, [] { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); });
  // The library keeps the setting per thread in a thread-safe build: silence this one too.
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

namespace {
herr_t keep_deepest(unsigned, const H5E_error2_t* e, void* out) {
  auto* text = static_cast<std::string*>(out);
  if (text->empty() && e->desc && *e->desc) *text = e->desc;  // walked innermost first
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
