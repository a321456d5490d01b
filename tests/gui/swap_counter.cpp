#include "swap_counter.hpp"

#include <dlfcn.h>

#include <atomic>

namespace {
std::atomic<long> swaps{0};
}

// Xlib's and GLX's types, opaque here: only passed on.
struct _XDisplay;
using GLXDrawable = unsigned long;

extern "C" void glXSwapBuffers(_XDisplay* display, GLXDrawable drawable) {
  using Swap = void (*)(_XDisplay*, GLXDrawable);
  static const Swap real = reinterpret_cast<Swap>(dlsym(RTLD_NEXT, "glXSwapBuffers"));
  ++swaps;
  if (real) real(display, drawable);
}

namespace pegsim::gui::test {

long presented_frames() {
  return swaps.load();
}

}  // namespace pegsim::gui::test
