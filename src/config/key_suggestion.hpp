#pragma once
// Internal to src/config: "did you mean" for a misspelt key.
#include <cstddef>
#include <string>
#include <vector>

namespace grains::config_detail {

/// Edit distance of a and b: insertions, deletions, substitutions and swaps
/// of two neighbouring characters count one each (optimal string alignment).
std::size_t editDistance(const std::string& a, const std::string& b);

/// The candidate closest to `key` if it is a plausible misspelling of it (at
/// most 2 edits, and at most a third of the key's length), else "". Ties go
/// to the candidate listed first.
std::string closestKey(const std::string& key, const std::vector<std::string>& candidates);

}  // namespace grains::config_detail
