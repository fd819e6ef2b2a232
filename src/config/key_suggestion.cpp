#include "key_suggestion.hpp"

#include <algorithm>

namespace grains::config_detail {

std::size_t editDistance(const std::string& a, const std::string& b) {
  // d[i][j]: distance of the first i characters of a to the first j of b.
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + substitution});
      // Two swapped neighbours, the commonest typo, count as one edit.
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

std::string closestKey(const std::string& key, const std::vector<std::string>& candidates) {
  // Short keys get fewer edits, so that "mu" does not suggest "dt".
  const std::size_t limit = std::min<std::size_t>(2, std::max<std::size_t>(1, key.size() / 3));
  std::string best;
  std::size_t best_distance = limit + 1;
  for (const std::string& candidate : candidates) {
    if (candidate == key) continue;
    const std::size_t d = editDistance(key, candidate);
    if (d < best_distance) {
      best = candidate;
      best_distance = d;
    }
  }
  return best;
}

}  // namespace grains::config_detail
