// The "shape" object of a scene body: its collision shape and unit-density mass properties.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/shape.hpp"
#include "engine/core/visual_mesh.hpp"
#include "engine/geometry/mass_properties.hpp"
#include "io/json_node.hpp"

namespace pegsim {

struct SceneShape {
  Shape shape;
  MassProperties unit;  // for density 1 (areal in 2D); zero volume for a plane
  // plane (half-plane) with "normal": the orientation taking +z (+y) to it
  std::optional<Quat> plane_normal;
  Vec3 shift = Vec3::Zero();  // the centroid a re-centred hull or mesh was moved by
  // A mesh that bounds no volume (open, not a manifold): why, naming the file. `unit` is then
  // its collision geometry's, which a static body, or one given its mass and inertia, may use.
  std::string mass_defect;
  std::vector<std::string> warnings;         // e.g. a non-convex mesh collided with as its hull
  std::shared_ptr<const VisualMesh> visual;  // a model file's surface, re-centred as the shape
};

// A convex polytope shape with its unit-density mass properties; with `recentre` moved so that
// its centroid is the origin (SceneShape::shift says by how much).
SceneShape convex_shape(Polytope p, bool recentre);
// Meshes, hulls and polygons come back re-centred on their centroid, so the body position is
// the CoM. A scene of `dimension` 2 takes only the planar shapes, a 3D scene only the others.
SceneShape parse_shape(const JsonNode& node, const std::filesystem::path& base_dir,
                       int dimension = 3);
// The planar shapes of a 2D scene (scene_shape_2d.cpp).
SceneShape parse_planar_shape(const JsonNode& node);
// The exponent p of a superquadric or superellipse shape object (its "exponent", 2 to 100),
// after checking the object's fields; 2 for an ellipsoid or ellipse (`fixed`), which takes none.
// at_two, beyond: what p = 2 and large p give, for the error message.
double smooth_exponent(const JsonNode& s, bool fixed, const char* at_two, const char* beyond);
// True for the type names of the planar shapes.
bool planar_shape_type(const std::string& type);

}  // namespace pegsim
