// Pieces of a ball or a disc cut off by a plane (spherical caps, circular segments), by their
// moments along the cut's axis: what intersection_properties and its planar twin add up into a
// lens or take away from a whole disc.
#pragma once

#include <initializer_list>

namespace pegsim {

struct AxialPiece {
  double size = 0.0;      // volume (in the plane, area)
  double height = 0.0;    // of the centroid above the base
  double variance = 0.0;  // of the height about the centroid's
  double lateral = 0.0;   // int x^2 across the axis, along one direction
};

// A piece whose centroid lies at base + at * axis.
struct PlacedPiece {
  AxialPiece piece;
  double at = 0.0;
};

struct AxialSum {
  double size = 0.0, at = 0.0;
  double axial = 0.0;  // int (height - at)^2
  double lateral = 0.0;
};

inline AxialSum add_pieces(std::initializer_list<PlacedPiece> pieces) {
  AxialSum sum;
  double moment = 0.0;
  for (const PlacedPiece& p : pieces) {
    sum.size += p.piece.size;
    moment += p.piece.size * p.at;
    sum.lateral += p.piece.lateral;
  }
  sum.at = moment / sum.size;
  for (const PlacedPiece& p : pieces)
    sum.axial += p.piece.size * (p.piece.variance + (p.at - sum.at) * (p.at - sum.at));
  return sum;
}

}  // namespace pegsim
