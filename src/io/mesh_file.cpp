#include "io/mesh_file.hpp"

#include <assimp/config.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "io/scene.hpp"

namespace pegsim {
namespace {

// Positions equal to this fraction of the part's size are one vertex: exporters that write each
// triangle's corners apart (STL) repeat them exactly or to the last digits.
constexpr double kWeldTolerance = 1e-10;

// Welds `points` (the triangles' corners, three per triangle) into `out`: sorted by their cell
// on a grid of the tolerance, equal cells become one vertex; triangles that lose a corner to the
// welding (degenerate) are dropped.
void weld(const std::vector<Vec3>& points, bool flip, TriangleMesh& out) {
  Vec3 low = points.front(), high = points.front();
  for (const Vec3& p : points) {
    low = low.cwiseMin(p);
    high = high.cwiseMax(p);
  }
  const double cell = std::max(kWeldTolerance * (high - low).norm(), 1e-300);
  std::vector<std::array<long long, 3>> key(points.size());
  for (std::size_t i = 0; i < points.size(); ++i)
    for (int k = 0; k < 3; ++k)
      key[i][std::size_t(k)] = std::llround((points[i][k] - low[k]) / cell);
  std::vector<std::size_t> order(points.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return key[a] != key[b] ? key[a] < key[b] : a < b;
  });
  std::vector<int> index(points.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (i == 0 || key[order[i]] != key[order[i - 1]]) out.vertices.push_back(points[order[i]]);
    index[order[i]] = int(out.vertices.size()) - 1;
  }
  for (std::size_t t = 0; t + 2 < points.size(); t += 3) {
    std::array<int, 3> tri{index[t], index[t + 1], index[t + 2]};
    if (flip) std::swap(tri[1], tri[2]);
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[2] == tri[0]) continue;
    out.triangles.push_back(tri);
  }
}

// The meshes of `node` and its children, each placed by the product of the transforms above it.
void collect(const aiScene& scene, const aiNode& node, const aiMatrix4x4& above, const Vec3& scale,
             MeshFile& out) {
  const aiMatrix4x4 placed = above * node.mTransformation;
  // A mirroring transform (or scale) turns the triangles' winding inside out.
  const bool flip = (placed.Determinant() < 0.0) != (scale.prod() < 0.0);
  // Normals turn by the inverse transpose of the placement and the scale.
  aiMatrix3x3 turn(placed);
  turn.Inverse().Transpose();
  for (unsigned m = 0; m < node.mNumMeshes; ++m) {
    const aiMesh& mesh = *scene.mMeshes[node.mMeshes[m]];
    std::vector<Vec3> corners;
    VisualMesh::Part look;
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
      const aiFace& face = mesh.mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines bound no volume
      for (unsigned k = 0; k < 3; ++k) {
        const aiVector3D v = placed * mesh.mVertices[face.mIndices[k]];
        corners.push_back(scale.cwiseProduct(Vec3(v.x, v.y, v.z)));
      }
      const std::size_t c = corners.size() - 3;
      const Vec3 flat =
          (corners[c + 1] - corners[c]).cross(corners[c + 2] - corners[c]).normalized() *
          (flip ? -1.0 : 1.0);
      for (unsigned k = 0; k < 3; ++k) {
        Vec3 n = flat;
        if (mesh.HasNormals()) {
          const aiVector3D a = turn * mesh.mNormals[face.mIndices[k]];
          const Vec3 given = Vec3(a.x, a.y, a.z).cwiseQuotient(scale);
          if (given.norm() > 0.0 && given.allFinite()) n = given.normalized();
        }
        look.corners.push_back(corners[c + std::size_t(flip ? 2 - k : k)]);
        look.normals.push_back(n);
      }
      if (flip) std::swap(look.normals[c], look.normals[c + 2]);
    }
    if (corners.empty()) continue;
    TriangleMesh part;
    part.name = mesh.mName.length > 0 ? mesh.mName.C_Str() : node.mName.C_Str();
    weld(corners, flip, part);
    if (part.triangles.empty()) continue;
    out.parts.push_back(std::move(part));
    // A material the file names (not the importer's stand-in) gives the part its colour.
    const aiMaterial* material =
        mesh.mMaterialIndex < scene.mNumMaterials ? scene.mMaterials[mesh.mMaterialIndex] : nullptr;
    aiColor4D diffuse;
    if (material && material->GetName() != aiString(AI_DEFAULT_MATERIAL_NAME) &&
        material->Get(AI_MATKEY_COLOR_DIFFUSE, diffuse) == AI_SUCCESS)
      look.color = {std::clamp(diffuse.r, 0.0f, 1.0f), std::clamp(diffuse.g, 0.0f, 1.0f),
                    std::clamp(diffuse.b, 0.0f, 1.0f), 1.0f};
    out.visual.push_back(std::move(look));
  }
  for (unsigned c = 0; c < node.mNumChildren; ++c)
    collect(scene, *node.mChildren[c], placed, scale, out);
}

}  // namespace

MeshFile read_mesh_file(const std::filesystem::path& file, const Vec3& scale) {
  const std::string name = file.string();
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(file, ec);
  if (ec || !std::filesystem::exists(status)) throw SceneError(name + ": no such file");
  if (!std::filesystem::is_regular_file(status))
    throw SceneError(name + (std::filesystem::is_directory(status) ? ": a folder, not a file"
                                                                   : ": not a regular file"));
  const std::uintmax_t size = std::filesystem::file_size(file, ec);
  if (ec) throw SceneError(name + ": its size cannot be read");
  if (size > kMaxMeshFileBytes)
    throw SceneError(name + ": " + std::to_string(size) + " bytes, more than the " +
                     std::to_string(kMaxMeshFileBytes) + " read");
  Assimp::Importer importer;
  // Coordinates as authored, as for every format without an up axis (STL, OBJ): Assimp would
  // turn a COLLADA file's Z_UP into Y up, and a robot's link meshes would lie on their side.
  importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, true);
  const aiScene* scene = importer.ReadFile(
      name, aiProcess_Triangulate | aiProcess_SortByPType | aiProcess_ValidateDataStructure);
  if (!scene || !scene->mRootNode)
    throw SceneError(name + ": not a mesh file Assimp reads (" + importer.GetErrorString() + ")");
  MeshFile out;
  collect(*scene, *scene->mRootNode, aiMatrix4x4(), scale, out);
  if (out.parts.empty())
    throw SceneError(name + ": the file has no triangles (expected a surface mesh)");
  return out;
}

}  // namespace pegsim
