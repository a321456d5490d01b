#include "gui/app/resource_paths.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace pegsim::gui {

QString scenes_directory() {
  const QString app = QCoreApplication::applicationDirPath();
  for (const QString& dir : {app + "/../share/pegsim/scenes", QString(PEGSIM_SOURCE_SCENES)})
    if (QFileInfo(dir).isDir()) return QDir(dir).canonicalPath();
  return {};
}

QString default_scene() {
  const QString dir = scenes_directory();
  const QString file = dir + "/cascading_polyhedra.json";
  return !dir.isEmpty() && QFileInfo::exists(file) ? file : QString();
}

}  // namespace pegsim::gui
