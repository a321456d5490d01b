// `pegsim --benchmark`: how responsive the window is, measured in the real window and printed.
//  (a) stack10 running as fast as possible: frames the 3D view renders per second (Qt3D
//      frames), frames shown per second, and simulation steps per second;
//  (b) a 10 000-frame run file of stack10: for slider moves to random frames, the time until
//      the frame's poses are in the scene and until a rendered image of it is ready.
#pragma once

#include <QString>

namespace pegsim::gui {

class MainWindow;

// Runs both parts in `window` (shown), prints the figures on stdout and returns 0, or prints
// why it could not and returns 2. `scenes` is the folder holding stack10.json.
int run_responsiveness_benchmark(MainWindow& window, const QString& scenes, double seconds = 5.0);

}  // namespace pegsim::gui
