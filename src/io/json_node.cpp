// Typed, pointer-aware reads of a JSON document (see json_node.hpp).
#include "io/json_node.hpp"

#include <cmath>
#include <limits>

#include "io/scene.hpp"

namespace pegsim {
namespace {

// RFC 6901: '~' and '/' inside a key are escaped as "~0" and "~1".
std::string escape_token(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

JsonNode::JsonNode(const nlohmann::json& value, std::string origin, std::string pointer)
    : value_(&value), origin_(std::move(origin)), pointer_(std::move(pointer)) {}

void JsonNode::fail(const std::string& what) const {
  throw SceneError(origin_ + ": " + pointer() + ": expected " + what);
}

void JsonNode::require_object(const char* what) const {
  if (!value_->is_object()) fail(what);
}

void JsonNode::allow_only(const std::vector<std::string>& allowed) const {
  for (const auto& [key, child] : value_->items()) {
    bool known = false;
    for (const std::string& a : allowed) known = known || a == key;
    if (!known)
      JsonNode(child, origin_, pointer_ + "/" + escape_token(key))
          .fail("no field \"" + key + "\" here (known fields: " + join(allowed) + ")");
  }
}

bool JsonNode::has(const std::string& key) const {
  return value_->contains(key);
}

JsonNode JsonNode::at(const std::string& key, const char* what) const {
  const std::string child = pointer_ + "/" + escape_token(key);
  if (!value_->contains(key))
    throw SceneError(origin_ + ": " + child + ": expected " + what + " (the field is required)");
  return JsonNode((*value_)[key], origin_, child);
}

std::optional<JsonNode> JsonNode::find(const std::string& key) const {
  if (!value_->contains(key)) return std::nullopt;
  return JsonNode((*value_)[key], origin_, pointer_ + "/" + escape_token(key));
}

std::size_t JsonNode::size() const {
  return value_->size();
}

void JsonNode::require_array(const char* what) const {
  if (!value_->is_array()) fail(what);
}

JsonNode JsonNode::operator[](std::size_t i) const {
  return JsonNode((*value_)[i], origin_, pointer_ + "/" + std::to_string(i));
}

double JsonNode::number(const char* what) const {
  if (!value_->is_number()) fail(what);
  return value_->get<double>();
}

double JsonNode::positive(const char* what) const {
  const double x = number(what);
  if (!(x > 0.0)) fail(what);
  return x;
}

double JsonNode::non_negative(const char* what) const {
  const double x = number(what);
  if (!(x >= 0.0)) fail(what);
  return x;
}

int JsonNode::integer(const char* what, int min, int max) const {
  const double x = number(what);
  if (x != std::floor(x) || x < min || x > max) fail(what);
  return static_cast<int>(x);
}

bool JsonNode::boolean() const {
  if (!value_->is_boolean()) fail("true or false");
  return value_->get<bool>();
}

std::string JsonNode::string(const char* what) const {
  if (!value_->is_string() || value_->get_ref<const std::string&>().empty()) fail(what);
  return value_->get<std::string>();
}

Vec2 JsonNode::vec2(const char* what) const {
  if (!value_->is_array() || value_->size() != 2) fail(what);
  Vec2 v;
  for (int k = 0; k < 2; ++k) {
    const nlohmann::json& x = (*value_)[k];
    if (!x.is_number()) fail(what);
    v[k] = x.get<double>();
  }
  return v;
}

Vec3 JsonNode::vec3(const char* what) const {
  if (!value_->is_array() || value_->size() != 3) fail(what);
  Vec3 v;
  for (int k = 0; k < 3; ++k) {
    const nlohmann::json& x = (*value_)[k];
    if (!x.is_number()) fail(what);
    v[k] = x.get<double>();
  }
  return v;
}

}  // namespace pegsim
