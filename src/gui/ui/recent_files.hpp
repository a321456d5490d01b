// The recent-files list (QSettings), newest first, and the menu that shows it.
#pragma once

#include <QMenu>
#include <QObject>
#include <QStringList>

namespace pegsim::gui {

class RecentFiles : public QObject {
  Q_OBJECT
 public:
  explicit RecentFiles(QMenu* menu, int max_entries = 10);
  void add(const QString& file);
  QStringList files() const;

 signals:
  void chosen(const QString& file);

 private:
  void rebuild();
  QMenu* menu_;
  int max_;
};

}  // namespace pegsim::gui
