#include "gui/render/legend_image.hpp"

#include <QColor>
#include <QFont>
#include <QFontMetrics>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "gui/render/screen_sketch.hpp"

namespace pegsim::gui {
namespace {

QColor qcolor(const Rgb& c) {
  return QColor::fromRgbF(c[0], c[1], c[2]);
}

}  // namespace

QImage legend_image(const std::vector<LegendSection>& sections, const QStringList& notes,
                    double scale) {
  if (sections.empty() && notes.isEmpty()) return {};
  QFont text;
  text.setPixelSize(int(std::lround(12.0 * scale)));
  QFont title = text;
  title.setBold(true);
  const QFontMetrics fm(text), fm_title(title);
  const int pad = int(std::lround(6.0 * scale)), swatch = int(std::lround(10.0 * scale));
  const int row = std::max(fm.height(), swatch) + int(std::lround(2.0 * scale));
  const int indent = swatch + pad;
  // The panel's size: the widest line and every row.
  int width = 0, rows = 0;
  for (const LegendSection& s : sections) {
    width = std::max(width, fm_title.horizontalAdvance(QString::fromStdString(s.title)));
    for (const LegendEntry& e : s.entries)
      width = std::max(width, indent + fm.horizontalAdvance(QString::fromStdString(e.meaning)));
    rows += 1 + int(s.entries.size());
  }
  for (const QString& n : notes) width = std::max(width, fm.horizontalAdvance(n));
  rows += int(notes.size());
  QImage image(width + 2 * pad, rows * row + 2 * pad, QImage::Format_ARGB32);
  image.fill(QColor::fromRgba(kLegendBackground));
  QPainter p(&image);
  p.setPen(QColor(150, 150, 150));
  p.drawRect(0, 0, image.width() - 1, image.height() - 1);
  int y = pad;
  auto line = [&](int x, const QFont& font, const QString& s) {
    p.setFont(font);
    p.setPen(QColor(20, 20, 25));
    p.drawText(QRect(x, y, image.width() - x - pad, row), Qt::AlignLeft | Qt::AlignVCenter, s);
    y += row;
  };
  for (const LegendSection& s : sections) {
    line(pad, title, QString::fromStdString(s.title));
    for (const LegendEntry& e : s.entries) {
      // The swatch as overlays are drawn: the colour within a dark outline.
      p.setPen(qcolor(kOutlineColor));
      p.setBrush(qcolor(e.color));
      p.drawRect(pad, y + (row - swatch) / 2, swatch - 1, swatch - 1);
      p.setBrush(Qt::NoBrush);
      line(pad + indent, text, QString::fromStdString(e.meaning));
    }
  }
  for (const QString& n : notes) line(pad, text, n);
  return image;
}

}  // namespace pegsim::gui
