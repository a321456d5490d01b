// Model files of any format Assimp reads (OBJ, STL, PLY, COLLADA, glTF, FBX, 3DS, ...) as
// triangle meshes: one part per mesh of the file's node tree, placed by the nodes' transforms,
// in metres after the scene's scale, with coincident vertices welded.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/core/visual_mesh.hpp"
#include "engine/geometry/triangle_mesh.hpp"

namespace pegsim {

// Larger model files are refused before Assimp reads them (a scan of a whole room is not a body).
constexpr std::uintmax_t kMaxMeshFileBytes = 256u << 20;

struct MeshFile {
  std::vector<TriangleMesh> parts;  // each with at least one triangle
  // The same parts as drawn: triangles as the file gives them (unwelded), the file's normals
  // (or each triangle's), and its material's diffuse colour where it names one.
  std::vector<VisualMesh::Part> visual;
  std::vector<std::string> warnings;  // e.g. a texture the file names that is not beside it
};

// A convex hull this much larger than the closed mesh it wraps is worth a warning: the object is
// not convex and collides as if it were.
constexpr double kHullExcess = 0.05;

// Throws SceneError naming the file: missing, not a regular file, larger than kMaxMeshFileBytes,
// not a model format Assimp reads, or without triangles.
MeshFile read_mesh_file(const std::filesystem::path& file, const Vec3& scale);

// Makes the file's parts one solid: each part whose triangles face into its volume is turned
// round (its triangles and its drawn surface). Returns "" when every part is closed, else why
// the first that is not bounds no volume ("part 'x' is not closed (4 open edges)"), leaving the
// rest as they are.
std::string close_solid(MeshFile& mesh);

}  // namespace pegsim
