#pragma once
// Small text helpers shared by every layer: numbers in messages and files,
// lists of names, prefixes, trimmed fields.
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace grains {

/// The shortest decimal text of a double that parses back to the same value
/// (15, 16 or 17 significant digits), so 0.05 stays "0.05" and nothing is lost.
inline std::string formatNumber(double value) {
  char buffer[40];
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", digits, value);
    if (digits == 17 || std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

/// One number in a printf format of the caller's, e.g. formatNumber("%.3e", r).
inline std::string formatNumber(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, value);
  return buffer;
}

/// "a, b, c" (empty for no items).
inline std::string joined(const std::vector<std::string>& items,
                          const std::string& separator = ", ") {
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i) text += (i == 0 ? "" : separator) + items[i];
  return text;
}

/// Whether `text` begins with `prefix`.
inline bool startsWith(const std::string& text, const std::string& prefix) {
  return text.size() >= prefix.size() && text.compare(0, prefix.size(), prefix) == 0;
}

/// `text` without leading and trailing white space.
inline std::string trim(const std::string& text) {
  std::size_t begin = 0;
  std::size_t end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return text.substr(begin, end - begin);
}

}  // namespace grains
