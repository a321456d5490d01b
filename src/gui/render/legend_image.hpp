// The legend drawn in the corner of the view, and so in every image exported from it: a
// swatch and a line for each colour of the overlays that are on, under the overlay's name,
// then notes (the impulse arrows' scale, what a comparison shows).
#pragma once

#include <QImage>
#include <QStringList>
#include <string>
#include <vector>

#include "gui/render/overlay.hpp"

namespace pegsim::gui {

struct LegendSection {
  std::string title;
  std::vector<LegendEntry> entries;
};

// An opaque panel; `scale` enlarges text and swatches (a projector's presentation scale).
// A null image when there is nothing to show.
QImage legend_image(const std::vector<LegendSection>& sections, const QStringList& notes,
                    double scale = 1.0);

inline constexpr QRgb kLegendBackground = 0xfff8f8f6;  // the panel, opaque

}  // namespace pegsim::gui
