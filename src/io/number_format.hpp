#pragma once
// Internal: shortest decimal text of a double that parses back to the same
// value (15, 16 or 17 significant digits), so 0.05 stays "0.05".
#include <cstdio>
#include <cstdlib>
#include <string>

namespace grains::io_detail {

inline std::string formatDoubleExact(double value) {
  char buffer[40];
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", digits, value);
    if (digits == 17 || std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

}  // namespace grains::io_detail
