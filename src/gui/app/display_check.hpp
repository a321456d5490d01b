// Whether a window can be shown at all, checked before QApplication aborts on a missing display.
#pragma once

#include <QString>

namespace pegsim::gui {

// Empty if a display is available (DISPLAY or WAYLAND_DISPLAY set, or an explicitly headless
// Qt platform such as offscreen, from QT_QPA_PLATFORM or -platform); else the message to print.
QString missing_display_message(int argc, char** argv);

}  // namespace pegsim::gui
