#include "cli/args.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace pegsim::cli {

Args::Args(const std::vector<std::string>& argv, const std::vector<std::string>& flags,
           const std::vector<std::string>& options) {
  auto known = [](const std::vector<std::string>& list, const std::string& s) {
    return std::find(list.begin(), list.end(), s) != list.end();
  };
  for (std::size_t i = 0; i < argv.size(); ++i) {
    std::string a = argv[i];
    if (a.rfind("--", 0) != 0 || a == "--") {
      positional_.push_back(a);
      continue;
    }
    std::string name = a.substr(2), inline_value;
    bool has_inline = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      inline_value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_inline = true;
    }
    if (known(flags, name)) {
      if (has_inline) throw UsageError("--" + name + " takes no value");
      flags_[name] = true;
    } else if (known(options, name)) {
      if (values_.count(name)) throw UsageError("--" + name + " given twice");
      if (has_inline) {
        values_[name] = inline_value;
      } else {
        if (i + 1 >= argv.size()) throw UsageError("--" + name + ": expected a value");
        values_[name] = argv[++i];
      }
    } else {
      throw UsageError("unknown option '" + a + "'");
    }
  }
}

std::optional<std::string> Args::value(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

namespace {
double parse_double(const std::string& name, const std::string& text, const char* expected) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(v))
    throw UsageError("--" + name + ": expected " + expected + ", got '" + text + "'");
  return v;
}
}  // namespace

std::optional<double> Args::positive_number(const std::string& name) const {
  auto v = value(name);
  if (!v) return std::nullopt;
  const double x = parse_double(name, *v, "a positive number");
  if (!(x > 0.0)) throw UsageError("--" + name + ": expected a positive number, got '" + *v + "'");
  return x;
}

std::optional<double> Args::non_negative_number(const std::string& name) const {
  auto v = value(name);
  if (!v) return std::nullopt;
  const double x = parse_double(name, *v, "a number >= 0");
  if (!(x >= 0.0)) throw UsageError("--" + name + ": expected a number >= 0, got '" + *v + "'");
  return x;
}

std::optional<long long> Args::positive_integer(const std::string& name) const {
  auto v = value(name);
  if (!v) return std::nullopt;
  char* end = nullptr;
  const long long x = std::strtoll(v->c_str(), &end, 10);
  if (v->empty() || *end != '\0' || x <= 0)
    throw UsageError("--" + name + ": expected a positive integer, got '" + *v + "'");
  return x;
}

}  // namespace pegsim::cli
