// A JSON value seen together with its JSON pointer, so that every read can fail with one
// message naming the file, the pointer and what was expected (scene files, schema checks).
#pragma once

#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/core/math.hpp"

namespace pegsim {

class JsonNode {
 public:
  JsonNode(const nlohmann::json& value, std::string origin, std::string pointer = "");

  const nlohmann::json& value() const { return *value_; }
  // "/" for the root, else the RFC 6901 pointer ("/bodies/2/shape").
  std::string pointer() const { return pointer_.empty() ? "/" : pointer_; }
  const std::string& origin() const { return origin_; }

  // Throws SceneError "<origin>: <pointer>: expected <what>".
  [[noreturn]] void fail(const std::string& what) const;

  // Objects.
  void require_object(const char* what) const;
  // Rejects any field not in `allowed`, naming the first unknown one.
  void allow_only(const std::vector<std::string>& allowed) const;
  bool has(const std::string& key) const;
  // A required field; fails at the field's own pointer when it is absent.
  JsonNode at(const std::string& key, const char* what) const;
  std::optional<JsonNode> find(const std::string& key) const;

  // Arrays.
  std::size_t size() const;  // of an array (call require_array first)
  void require_array(const char* what) const;
  JsonNode operator[](std::size_t i) const;

  // Scalars; each checks type, finiteness and range, and fails with `what`.
  double number(const char* what) const;
  double positive(const char* what) const;      // > 0
  double non_negative(const char* what) const;  // >= 0
  int integer(const char* what, int min,
              int max = std::numeric_limits<int>::max()) const;  // in [min, max]
  bool boolean() const;
  std::string string(const char* what) const;
  Vec3 vec3(const char* what) const;
  Vec2 vec2(const char* what) const;

 private:
  const nlohmann::json* value_;
  std::string origin_;
  std::string pointer_;
};

}  // namespace pegsim
