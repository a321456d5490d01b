// RPIsim .poly meshes (format: docs/scene-format.md, ".poly mesh files").
#include "io/poly_file.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "engine/geometry/polytope.hpp"
#include "io/scene.hpp"
#include "io/text_file.hpp"

namespace pegsim {
namespace {

struct DataLine {
  int number = 0;  // 1-based line in the file
  std::vector<std::string> tokens;
};

class PolyReader {
 public:
  explicit PolyReader(std::filesystem::path file) : file_(std::move(file)) {}

  Polytope read() {
    lines_ = data_lines();
    const int nv = count("the number of vertices (an integer >= 4)");
    std::vector<Vec3> vertices;
    for (int k = 0; k < nv; ++k) vertices.push_back(vertex(k));
    const int nf = count("the number of faces (an integer >= 4)");
    std::vector<std::vector<int>> faces;
    std::vector<int> face_lines;
    for (int k = 0; k < nf; ++k) {
      face_lines.push_back(peek_line());
      faces.push_back(face(next("a face: at least 3 vertex indices")));
    }
    if (next_ < lines_.size()) fail(lines_[next_].number, "no data after the last face");
    to_zero_based(faces, face_lines, nv);
    check_closed(faces, face_lines);
    try {
      return make_polytope(std::move(vertices), std::move(faces));
    } catch (const GeometryError& e) {
      throw SceneError(file_.string() +
                       ": expected a closed convex mesh with faces "
                       "counter-clockwise seen from outside (" +
                       e.what() + ")");
    }
  }

 private:
  [[noreturn]] void fail(int line, const std::string& what) const {
    throw SceneError(file_.string() + ": line " + std::to_string(line) + ": expected " + what);
  }

  // Non-empty lines, with comments (#, %, //) removed and MATLAB brackets, ';' and ','
  // read as spaces, as RPIsim's mesh_read_poly_file does.
  std::vector<DataLine> data_lines() const {
    std::istringstream in(read_text_file(file_, "a readable .poly file"));
    std::vector<DataLine> out;
    std::string text;
    for (int number = 1; std::getline(in, text); ++number) {
      text = text.substr(0, std::min({text.find('#'), text.find('%'), text.find("//")}));
      std::replace_if(
          text.begin(), text.end(),
          [](char c) { return c == '[' || c == ']' || c == ';' || c == ','; }, ' ');
      std::istringstream words(text);
      DataLine line{number, {}};
      for (std::string w; words >> w;) line.tokens.push_back(w);
      if (!line.tokens.empty()) out.push_back(std::move(line));
    }
    return out;
  }

  int peek_line() const { return next_ < lines_.size() ? lines_[next_].number : 0; }

  const DataLine& next(const char* what) {
    if (next_ == lines_.size())
      throw SceneError(file_.string() + ": end of file: expected " + what);
    return lines_[next_++];
  }

  double number(const DataLine& line, const std::string& token, const char* what) const {
    double x = 0.0;
    const char* end = token.data() + token.size();
    const auto [ptr, ec] = std::from_chars(token.data(), end, x);
    if (ec != std::errc() || ptr != end || !std::isfinite(x)) fail(line.number, what);
    return x;
  }

  int integer(const DataLine& line, const std::string& token, const char* what) const {
    int x = 0;
    const char* end = token.data() + token.size();
    const auto [ptr, ec] = std::from_chars(token.data(), end, x);
    if (ec != std::errc() || ptr != end) fail(line.number, what);
    return x;
  }

  int count(const char* what) {
    const DataLine& line = next(what);
    if (line.tokens.size() != 1) fail(line.number, what);
    const int n = integer(line, line.tokens[0], what);
    if (n < 4) fail(line.number, what);
    return n;
  }

  // "x y z", or "k x y z" with k the 1-based vertex number as in RPIsim's files.
  Vec3 vertex(int k) {
    const char* what = "a vertex: x y z, optionally preceded by its number";
    const DataLine& line = next(what);
    const auto& t = line.tokens;
    if (t.size() != 3 && t.size() != 4) fail(line.number, what);
    if (t.size() == 4 && integer(line, t[0], what) != k + 1)
      fail(line.number, "vertex number " + std::to_string(k + 1));
    const std::size_t first = t.size() - 3;
    return {number(line, t[first], what), number(line, t[first + 1], what),
            number(line, t[first + 2], what)};
  }

  std::vector<int> face(const DataLine& line) const {
    const char* what = "a face: at least 3 integer vertex indices";
    if (line.tokens.size() < 3) fail(line.number, what);
    std::vector<int> f;
    for (const std::string& t : line.tokens) f.push_back(integer(line, t, what));
    return f;
  }

  // Indices are 1-based unless some face uses 0; then the whole file is 0-based (the rule of
  // RPIsim's reader).
  void to_zero_based(std::vector<std::vector<int>>& faces, const std::vector<int>& lines, int nv) {
    int lowest = nv;
    for (const auto& f : faces) lowest = std::min(lowest, *std::min_element(f.begin(), f.end()));
    base_ = lowest == 0 ? 0 : 1;
    for (std::size_t k = 0; k < faces.size(); ++k)
      for (int& i : faces[k]) {
        if (i < base_ || i >= nv + base_)
          fail(lines[k], "vertex indices in [" + std::to_string(base_) + ", " +
                             std::to_string(nv - 1 + base_) + "]");
        i -= base_;
      }
  }

  // Every edge must be crossed once each way by two faces: a closed, consistently oriented
  // surface. Checked here (before make_polytope) so the message can name the line.
  void check_closed(const std::vector<std::vector<int>>& faces, const std::vector<int>& lines) {
    std::map<std::pair<int, int>, std::size_t> directed;  // edge -> face that runs along it
    auto edge = [&](int a, int b) {
      return std::to_string(a + base_) + "-" + std::to_string(b + base_);
    };
    for (std::size_t k = 0; k < faces.size(); ++k)
      for (std::size_t i = 0; i < faces[k].size(); ++i) {
        const int a = faces[k][i], b = faces[k][(i + 1) % faces[k].size()];
        const auto [it, fresh] = directed.emplace(std::pair{a, b}, k);
        if (!fresh)
          fail(lines[k], "each edge once per direction, but edge " + edge(a, b) +
                             " runs the same way on line " + std::to_string(lines[it->second]) +
                             " (faces not all counter-clockwise seen from outside?)");
      }
    for (const auto& [e, k] : directed)
      if (!directed.count({e.second, e.first}))
        fail(lines[k], "a closed mesh, but edge " + edge(e.first, e.second) +
                           " of this face borders no other face");
  }

  std::filesystem::path file_;
  std::vector<DataLine> lines_;
  std::size_t next_ = 0;
  int base_ = 1;
};

}  // namespace

Polytope read_poly_file(const std::filesystem::path& file) {
  return PolyReader(file).read();
}

}  // namespace pegsim
