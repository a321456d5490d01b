// The command line of pegsim:
//   pegsim [SCENE.json | ROBOT.urdf | RUN.h5] [--package-path DIRS] [--preset NAME]
//          [--steps N | --frame K]
//          [--overlays LIST] [--plots]
//          [--select BODY] [--compare MODEL|OTHER.h5 [--side-by-side]]
//          [--screenshot FILE.png --quit]
//   pegsim --benchmark
#pragma once

#include <QString>
#include <QStringList>
#include <optional>

namespace pegsim::gui {

struct CommandLine {
  QString file;                         // empty: the default scene
  std::optional<int> steps;             // run N steps after loading a scene
  std::optional<qint64> frame;          // show frame K (a run file; for a scene: after K steps)
  std::optional<QStringList> overlays;  // exactly these overlays on ("none": all off)
  bool plots = false;                   // show the Plots dock
  QString select;                       // select this body (by name) once the file is open
  QString package_path;  // folders holding robots' packages, ':'-separated (docs/robots.md)
  QString preset;        // a scene's solver settings from this preset (settings_preset.hpp)
  QString compare;       // a contact model to run the scene (re-simulate the run) under too, or a
                         // second run file (OTHER.h5) drawn translucent over RUN.h5
  bool side_by_side = false;  // ... or beside it, in a second view
  bool benchmark = false;     // measure responsiveness, print the figures, exit
  QString screenshot;         // PNG of the whole window once ready
  bool quit = false;          // exit after the screenshot
  bool help = false;
  QString error;  // non-empty: the line is unusable, and why
};

// `args` without the program name (Qt's own options, e.g. -platform, already removed).
// `overlay_keys` are the known overlay names, for checking --overlays.
CommandLine parse_command_line(const QStringList& args, const QStringList& overlay_keys);

QString command_line_usage();

}  // namespace pegsim::gui
