#include "io/scene_compound.hpp"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/geometry/mass_properties.hpp"
#include "engine/geometry/polytope.hpp"  // GeometryError

namespace pegsim {

SceneShape parse_compound(const JsonNode& s, const CompoundSyntax& syntax) {
  s.allow_only({"type", "parts"});
  const char* what = "a non-empty array of parts {\"shape\", \"position\", \"orientation\"}";
  const JsonNode list = s.at("parts", what);
  list.require_array(what);
  if (list.size() == 0) list.fail(what);
  std::vector<CompoundPart> parts;
  std::vector<std::string> warnings;
  for (std::size_t k = 0; k < list.size(); ++k) {
    const JsonNode item = list[k];
    item.require_object("a part object {\"shape\", \"position\", \"orientation\"}");
    item.allow_only({"shape", "position", "orientation"});
    const JsonNode shape_node = item.at("shape", syntax.shape_what);
    shape_node.require_object((std::string(syntax.shape_what) + " with a \"type\"").c_str());
    const std::string type = shape_node.at("type", syntax.part_types).string(syntax.part_types);
    if (type == syntax.not_a_part || type == "compound")
      shape_node.at("type", "").fail(syntax.part_types);
    const SceneShape part = syntax.parse_part(shape_node);
    // A mesh part is one convex piece, its hull (collision and mass alike).
    if (part.shape.kind == ShapeKind::Compound)
      shape_node.at("collision", "")
          .fail(
              "\"hull\": a compound's part is one convex piece (give the file's pieces as "
              "parts of their own, or the body the mesh shape with \"collision\": \"parts\")");
    for (const std::string& w : part.warnings)
      warnings.push_back("part " + std::to_string(k) + ": " + w);
    CompoundPart p{part.shape, Vec3::Zero(), Quat::Identity()};
    syntax.parse_pose(item, p);
    p.position += p.orientation * part.shift;  // a re-centred part stays where it was given
    parts.push_back(std::move(p));
  }
  SceneShape out;
  out.warnings = std::move(warnings);
  try {
    auto c = std::make_shared<const Compound>(make_compound(std::move(parts)));
    out.unit = compound_mass_properties(*c);
    out.unit.centroid = Vec3::Zero();  // make_compound moved it there (to rounding)
    out.shape = Shape::compound_of(std::move(c));
  } catch (const GeometryError& e) {
    list.fail(std::string("convex parts whose ") + syntax.round_parts + " overlap no other part (" +
              e.what() + ")");
  }
  return out;
}

}  // namespace pegsim
