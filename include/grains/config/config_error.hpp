#pragma once
#include <stdexcept>
#include <string>

namespace grains {

/// Bad input: the message names the key path, the offending value and what was expected.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace grains
