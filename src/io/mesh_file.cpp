#include "io/mesh_file.hpp"

#include <assimp/config.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
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

// Textures larger than this are not read (a texture is drawn, never simulated).
constexpr std::uintmax_t kMaxTextureBytes = 64u << 20;

// What collecting the node tree needs besides the node: the file, where its textures are,
// and the textures read so far (parts sharing a material share its image).
struct Collector {
  const aiScene& scene;
  std::filesystem::path folder;  // the model file's, for relative texture paths
  Vec3 scale;
  MeshFile& out;
  std::map<std::string, std::shared_ptr<const VisualTexture>> textures;
};

// An embedded texture: compressed bytes as stored, raw BGRA texels as binary PPM (P6).
std::vector<std::uint8_t> embedded_bytes(const aiTexture& t) {
  const auto* data = reinterpret_cast<const std::uint8_t*>(t.pcData);
  if (t.mHeight == 0) return {data, data + t.mWidth};
  const std::string header =
      "P6\n" + std::to_string(t.mWidth) + " " + std::to_string(t.mHeight) + "\n255\n";
  std::vector<std::uint8_t> ppm(header.begin(), header.end());
  for (std::size_t i = 0; i < std::size_t(t.mWidth) * t.mHeight; ++i)
    ppm.insert(ppm.end(), {t.pcData[i].r, t.pcData[i].g, t.pcData[i].b});
  return ppm;
}

// The material's diffuse texture, or null (none, or a file that cannot be read: a warning says
// which, and the part is drawn in its colour).
std::shared_ptr<const VisualTexture> diffuse_texture(const aiMaterial& material, Collector& c) {
  aiString given;
  if (material.GetTextureCount(aiTextureType_DIFFUSE) == 0 ||
      material.GetTexture(aiTextureType_DIFFUSE, 0, &given) != AI_SUCCESS)
    return nullptr;
  const std::string key = given.C_Str();
  if (auto found = c.textures.find(key); found != c.textures.end()) return found->second;
  auto texture = std::make_shared<VisualTexture>();
  texture->name = key;
  if (const aiTexture* embedded = c.scene.GetEmbeddedTexture(key.c_str())) {
    texture->encoded = embedded_bytes(*embedded);
  } else {
    std::string relative = key.rfind("file://", 0) == 0 ? key.substr(7) : key;
    std::replace(relative.begin(), relative.end(), '\\', '/');
    const std::filesystem::path path = c.folder / relative;
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    std::ifstream in(path, std::ios::binary);
    if (ec || !in || size > kMaxTextureBytes) {
      c.out.warnings.push_back(
          "texture '" + key + "' " +
          (ec || !in ? "was not found beside the model file" : "is larger than 64 MiB") +
          "; its parts are drawn in their colour");
      c.textures[key] = nullptr;
      return nullptr;
    }
    texture->encoded.resize(size);
    in.read(reinterpret_cast<char*>(texture->encoded.data()), std::streamsize(size));
  }
  c.textures[key] = texture;
  return texture;
}

// The meshes of `node` and its children, each placed by the product of the transforms above it.
void collect(const aiNode& node, const aiMatrix4x4& above, Collector& c) {
  const aiScene& scene = c.scene;
  const Vec3& scale = c.scale;
  const aiMatrix4x4 placed = above * node.mTransformation;
  // A mirroring transform (or scale) turns the triangles' winding inside out.
  const bool flip = (placed.Determinant() < 0.0) != (scale.prod() < 0.0);
  // Normals turn by the inverse transpose of the placement and the scale.
  aiMatrix3x3 turn(placed);
  turn.Inverse().Transpose();
  for (unsigned m = 0; m < node.mNumMeshes; ++m) {
    const aiMesh& mesh = *scene.mMeshes[node.mMeshes[m]];
    const aiMaterial* material =
        mesh.mMaterialIndex < scene.mNumMaterials ? scene.mMaterials[mesh.mMaterialIndex] : nullptr;
    VisualMesh::Part look;
    if (material && mesh.HasTextureCoords(0)) look.texture = diffuse_texture(*material, c);
    std::vector<Vec3> corners;
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
      const aiFace& face = mesh.mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines bound no volume
      for (unsigned k = 0; k < 3; ++k) {
        const aiVector3D v = placed * mesh.mVertices[face.mIndices[k]];
        corners.push_back(scale.cwiseProduct(Vec3(v.x, v.y, v.z)));
      }
      const std::size_t i = corners.size() - 3;
      const Vec3 flat =
          (corners[i + 1] - corners[i]).cross(corners[i + 2] - corners[i]).normalized() *
          (flip ? -1.0 : 1.0);
      for (unsigned k = 0; k < 3; ++k) {
        // Mirrored, the corners run the other way round, each with its own normal and (u, v).
        const unsigned from = flip ? 2 - k : k;
        Vec3 n = flat;
        if (mesh.HasNormals()) {
          const aiVector3D a = turn * mesh.mNormals[face.mIndices[from]];
          const Vec3 given = Vec3(a.x, a.y, a.z).cwiseQuotient(scale);
          if (given.norm() > 0.0 && given.allFinite()) n = given.normalized();
        }
        look.corners.push_back(corners[i + from]);
        look.normals.push_back(n);
        if (look.texture) {
          const aiVector3D& t = mesh.mTextureCoords[0][face.mIndices[from]];
          look.uv.emplace_back(t.x, t.y);
        }
      }
    }
    if (corners.empty()) continue;
    TriangleMesh part;
    part.name = mesh.mName.length > 0 ? mesh.mName.C_Str() : node.mName.C_Str();
    weld(corners, flip, part);
    if (part.triangles.empty()) continue;
    c.out.parts.push_back(std::move(part));
    // A material the file names (not the importer's stand-in) gives the part its colour.
    aiColor4D diffuse;
    if (material && material->GetName() != aiString(AI_DEFAULT_MATERIAL_NAME) &&
        material->Get(AI_MATKEY_COLOR_DIFFUSE, diffuse) == AI_SUCCESS)
      look.color = {std::clamp(diffuse.r, 0.0f, 1.0f), std::clamp(diffuse.g, 0.0f, 1.0f),
                    std::clamp(diffuse.b, 0.0f, 1.0f), 1.0f};
    c.out.visual.push_back(std::move(look));
  }
  for (unsigned k = 0; k < node.mNumChildren; ++k) collect(*node.mChildren[k], placed, c);
}

std::string plural(int n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// Why a part bounds no volume, for the message: its open, shared and flipped edges.
std::string closure_defect(const TriangleMesh& part, const MeshClosure& c) {
  std::string what;
  auto add = [&](const std::string& s) { what += (what.empty() ? "" : ", ") + s; };
  if (c.open_edges > 0) add(plural(c.open_edges, "open edge", "open edges"));
  if (c.shared_edges > 0)
    add(plural(c.shared_edges, "edge of three or more triangles",
               "edges of three or more triangles"));
  if (c.misoriented_edges > 0)
    add(plural(c.misoriented_edges, "edge of flipped triangles", "edges of flipped triangles"));
  return (part.name.empty() ? "a part" : "part '" + part.name + "'") + " is not closed (" + what +
         ")";
}

// A drawn part whose triangles face into its solid, turned round: each triangle's corners in
// the other order (with their normals and texture coordinates), every normal reversed.
void turn_outwards(VisualMesh::Part& part) {
  for (std::size_t c = 0; c + 2 < part.corners.size(); c += 3) {
    std::swap(part.corners[c + 1], part.corners[c + 2]);
    std::swap(part.normals[c + 1], part.normals[c + 2]);
    if (!part.uv.empty()) std::swap(part.uv[c + 1], part.uv[c + 2]);
  }
  for (Vec3& n : part.normals) n = -n;
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
  Collector collector{*scene, file.parent_path(), scale, out, {}};
  collect(*scene->mRootNode, aiMatrix4x4(), collector);
  if (out.parts.empty())
    throw SceneError(name + ": the file has no triangles (expected a surface mesh)");
  return out;
}

std::string close_solid(MeshFile& mesh) {
  for (std::size_t k = 0; k < mesh.parts.size(); ++k) {
    TriangleMesh& part = mesh.parts[k];
    const MeshClosure c = mesh_closure(part);
    if (!c.closed()) return closure_defect(part, c);
    if (mesh_mass_properties(part).volume < 0.0) {
      for (auto& t : part.triangles) std::swap(t[1], t[2]);
      turn_outwards(mesh.visual[k]);
    }
  }
  return "";
}

}  // namespace pegsim
