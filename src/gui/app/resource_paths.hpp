// Where the files that ship with pegsim are found: the source tree when run from a build,
// the installed data folder (<prefix>/share/pegsim) otherwise.
#pragma once

#include <QString>

namespace pegsim::gui {

// The scenes folder, or an empty string if none exists.
QString scenes_directory();
// scenes/cascading_polyhedra.json, or empty if it cannot be found.
QString default_scene();

}  // namespace pegsim::gui
