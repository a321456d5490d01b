#include "gui/app/display_check.hpp"

#include <cstdlib>
#include <cstring>

namespace pegsim::gui {

QString missing_display_message(int argc, char** argv) {
  QString platform = QString::fromLocal8Bit(std::getenv("QT_QPA_PLATFORM"));
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "-platform") == 0) platform = QString::fromLocal8Bit(argv[i + 1]);
  if (platform.startsWith("offscreen") || platform.startsWith("minimal") ||
      platform.startsWith("vnc"))
    return {};
  auto set = [](const char* name) {
    const char* v = std::getenv(name);
    return v && *v;
  };
  if (platform.startsWith("wayland") ? set("WAYLAND_DISPLAY")
                                     : (set("DISPLAY") || set("WAYLAND_DISPLAY")))
    return {};
  return QStringLiteral(
      "pegsim: no display (DISPLAY and WAYLAND_DISPLAY are not set).\n"
      "Run it under a desktop session or Xvfb (xvfb-run -a pegsim ...), or use the headless "
      "tool: pegsim-cli run SCENE.json");
}

}  // namespace pegsim::gui
