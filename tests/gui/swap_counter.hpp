// Frames the window presents, counted where they reach the X server: the test executable
// defines glXSwapBuffers (exported, so it comes before libGL's in the symbol lookup of Qt's
// GLX integration), counts the call and passes it on. A frame Qt3D renders is one swap.
#pragma once

namespace pegsim::gui::test {

// Swaps since the program started (every window, every thread).
long presented_frames();

}  // namespace pegsim::gui::test
