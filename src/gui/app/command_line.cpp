#include "gui/app/command_line.hpp"

#include "engine/core/settings.hpp"
#include "engine/core/settings_preset.hpp"

namespace pegsim::gui {

namespace {
QString names(const std::vector<std::string>& list) {
  QStringList out;
  for (const std::string& m : list) out << QString::fromStdString(m);
  return out.join(", ");
}
QString contact_models() {
  return names(contact_model_names());
}
}  // namespace

QString command_line_usage() {
  return QStringLiteral(
             "usage: pegsim [SCENE.json | ROBOT.urdf | RUN.h5] [--package-path DIRS] [--preset "
             "NAME]\n"
             "              [--steps N | --frame K] [--overlays LIST] [--plots]\n"
             "              [--select BODY|JOINT] [--compare MODEL|OTHER.h5 [--side-by-side]]\n"
             "              [--screenshot FILE.png [--quit]]\n"
             "       pegsim --benchmark | --version | --help\n"
             "  SCENE.json / RUN.h5   open a scene or a recorded run (default: "
             "cascading_polyhedra)\n"
             "  ROBOT.urdf            open a robot as a scene: fixed base, joints at 0, gravity\n"
             "  --package-path DIRS   folders holding robots' packages (package:// URIs), "
             "':'-separated\n"
             "  --preset NAME         the scene's solver settings from a preset: %3\n"
             "  --steps N             run N steps of the scene\n"
             "  --frame K             show frame K (of a run file; of a scene: after K steps)\n"
             "  --overlays LIST       comma-separated overlays to show, or none: %1\n"
             "  --plots               show the Plots dock\n"
             "  --select NAME         select the body (or else the joint) of that name (inspector, "
             "plots)\n"
             "  --compare MODEL       run the scene (re-simulate RUN.h5) under a second contact "
             "model\n"
             "                        too (%2), drawn translucent over the first\n"
             "  --compare OTHER.h5    draw a second run file of the same scene translucent over "
             "RUN.h5\n"
             "  --side-by-side        show the comparison in a second view beside the first "
             "instead\n"
             "  --screenshot FILE     save a PNG of the whole window once ready\n"
             "  --quit                exit after the screenshot\n"
             "  --benchmark           measure the window's responsiveness (stack10), print it, "
             "exit\n"
             "  --version             print the program's version, exit\n")
      .replace("%2", contact_models())
      .replace("%3", names(preset_names()));
}

CommandLine parse_command_line(const QStringList& args, const QStringList& overlay_keys) {
  CommandLine c;
  auto fail = [&c](const QString& why) {
    c.error = why;
    return c;
  };
  for (qsizetype i = 0; i < args.size(); ++i) {
    QString a = args[i];
    QString value;
    bool has_inline = false;
    if (a.startsWith("--") && a.contains('=')) {  // --name=value
      value = a.section('=', 1);
      a = a.section('=', 0, 0);
      has_inline = true;
    }
    auto next = [&](QString& out) {
      if (has_inline) {
        out = value;
        return true;
      }
      if (i + 1 >= args.size()) return false;
      out = args[++i];
      return true;
    };
    if (a == "--help" || a == "-h") {
      c.help = true;
    } else if (a == "--quit") {
      c.quit = true;
    } else if (a == "--plots") {
      c.plots = true;
    } else if (a == "--benchmark") {
      c.benchmark = true;
    } else if (a == "--select") {
      if (!next(c.select) || c.select.isEmpty())
        return fail("--select: expected a body or joint name");
    } else if (a == "--steps" || a == "--frame") {
      QString v;
      if (!next(v)) return fail(a + ": expected a number");
      bool ok = false;
      const qlonglong n = v.toLongLong(&ok);
      if (!ok || n < 0 || (a == "--steps" && n > 100000000))
        return fail(a + ": expected a non-negative integer, got '" + v + "'");
      if (a == "--steps")
        c.steps = int(n);
      else
        c.frame = n;
    } else if (a == "--overlays") {
      QString v;
      if (!next(v)) return fail("--overlays: expected a list such as contacts,normals");
      QStringList list;
      if (v != "none") {
        for (const QString& k : v.split(',', Qt::SkipEmptyParts)) {
          if (!overlay_keys.contains(k))
            return fail("--overlays: unknown overlay '" + k +
                        "' (known: " + overlay_keys.join(", ") + ", none)");
          list << k;
        }
      }
      c.overlays = list;
    } else if (a == "--side-by-side") {
      c.side_by_side = true;
    } else if (a == "--compare") {
      if (!next(c.compare) || c.compare.isEmpty())
        return fail("--compare: expected a contact model or a second run file (.h5)");
    } else if (a == "--preset") {
      if (!next(c.preset) || c.preset.isEmpty())
        return fail("--preset: expected a preset name (" + names(preset_names()) + ")");
    } else if (a == "--package-path") {
      if (!next(c.package_path) || c.package_path.isEmpty())
        return fail("--package-path: expected folders separated by ':'");
    } else if (a == "--screenshot") {
      if (!next(c.screenshot) || c.screenshot.isEmpty())
        return fail("--screenshot: expected a PNG file name");
    } else if (a.startsWith('-')) {
      return fail("unknown option '" + a + "'");
    } else if (c.file.isEmpty()) {
      c.file = a;
    } else {
      return fail("expected one file, got '" + c.file + "' and '" + a + "'");
    }
  }
  if (c.steps && c.frame) return fail("--steps and --frame exclude each other");
  if (!c.preset.isEmpty()) {
    Settings probe;
    if (!apply_preset(c.preset.toStdString(), probe))
      return fail("--preset: '" + c.preset + "' is not a preset (" + names(preset_names()) + ")");
    if (c.file.endsWith(".h5"))
      return fail("--preset sets a scene's solver settings: a run file replays its own");
  }
  if (c.quit && c.screenshot.isEmpty()) return fail("--quit needs --screenshot");
  if (c.side_by_side && c.compare.isEmpty()) return fail("--side-by-side needs --compare");
  if (c.compare.endsWith(".h5") && !c.file.endsWith(".h5"))
    return fail("--compare OTHER.h5 compares two run files: open a run file (.h5) first");
  ContactModel model{};
  if (!c.compare.isEmpty() && !c.compare.endsWith(".h5") &&
      !parse_contact_model(c.compare.toStdString(), model))
    return fail("--compare: '" + c.compare + "' is neither a run file (.h5) nor a contact model (" +
                contact_models() + ")");
  if (c.benchmark && (!c.file.isEmpty() || c.steps || c.frame || !c.screenshot.isEmpty()))
    return fail("--benchmark takes no file, --steps, --frame or --screenshot");
  return c;
}

}  // namespace pegsim::gui
