#include "gui/ui/recent_files.hpp"

#include <QFileInfo>
#include <QSettings>

namespace pegsim::gui {

namespace {
const char* kKey = "recentFiles";
}

RecentFiles::RecentFiles(QMenu* menu, int max_entries)
    : QObject(menu), menu_(menu), max_(max_entries) {
  rebuild();
}

QStringList RecentFiles::files() const {
  return QSettings().value(kKey).toStringList();
}

void RecentFiles::add(const QString& file) {
  const QString path = QFileInfo(file).absoluteFilePath();
  QStringList list = files();
  list.removeAll(path);
  list.prepend(path);
  while (list.size() > max_) list.removeLast();
  QSettings().setValue(kKey, list);
  rebuild();
}

void RecentFiles::rebuild() {
  menu_->clear();
  const QStringList list = files();
  for (const QString& f : list) {
    QAction* a = menu_->addAction(QFileInfo(f).fileName());
    a->setToolTip(f);
    connect(a, &QAction::triggered, this, [this, f] { emit chosen(f); });
  }
  menu_->setEnabled(!list.isEmpty());
}

}  // namespace pegsim::gui
