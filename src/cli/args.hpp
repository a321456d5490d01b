// A small command-line parser: positional arguments and --options, with clear errors.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace pegsim::cli {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Args {
 public:
  // `flags` take no value, `options` take one; anything else starting with "--" is an error.
  Args(const std::vector<std::string>& argv, const std::vector<std::string>& flags,
       const std::vector<std::string>& options);

  const std::vector<std::string>& positional() const { return positional_; }
  bool flag(const std::string& name) const { return flags_.count(name) > 0; }
  std::optional<std::string> value(const std::string& name) const;
  // Typed values; throw UsageError("--h: expected a positive number, got 'x'").
  std::optional<double> positive_number(const std::string& name) const;
  std::optional<double> non_negative_number(const std::string& name) const;
  std::optional<long long> positive_integer(const std::string& name) const;

 private:
  std::vector<std::string> positional_;
  std::map<std::string, bool> flags_;
  std::map<std::string, std::string> values_;
};

}  // namespace pegsim::cli
