#pragma once
// Sums of many bins at once (the cells of a grid, the regions of the
// measurements), the same bits on any rank count: every item adds `fields`
// terms to one bin, and each field's terms are folded onto grids set by the
// field's global bound and the global item count
// (grains/core/reproducible_sum.hpp), so the parts add exactly over the ranks.
#include "grains/core/reproducible_sum.hpp"
#include "grains/linalg/tpetra_types.hpp"

#include <Teuchos_CommHelpers.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace grains {

/// `bin_of(i)` is item i's bin in [0, bins) or < 0 for none; `terms(i, out)`
/// writes its `fields` terms to out[0..fields). Returns bins x fields sums,
/// bin-major (sums[bin * fields + field]). Collective over `comm`.
template <class BinOf, class Terms>
std::vector<double> binnedReproducibleSums(const Comm& comm, long long n, int bins, int fields,
                                           BinOf bin_of, Terms terms) {
  const auto f_count = static_cast<std::size_t>(fields);
  std::vector<int> bin(static_cast<std::size_t>(n));
  std::vector<double> values(static_cast<std::size_t>(n) * f_count, 0.0);
  std::vector<double> bound(f_count, 0.0);
  double items = 0.0;
  for (long long i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    bin[k] = bin_of(i);
    if (bin[k] < 0) continue;
    items += 1.0;
    double* out = values.data() + k * f_count;
    terms(i, out);
    for (std::size_t f = 0; f < f_count; ++f) {
      // NaN must poison the bound (std::max would drop it).
      const double size =
          std::isnan(out[f]) ? std::numeric_limits<double>::infinity() : std::abs(out[f]);
      bound[f] = std::max(bound[f], size);
    }
  }
  std::vector<double> global_bound(f_count, 0.0);
  Teuchos::reduceAll(comm, Teuchos::REDUCE_MAX, fields, bound.data(), global_bound.data());
  // The global item count sets the grids: the same on any rank count.
  double count = 0.0;
  Teuchos::reduceAll(comm, Teuchos::REDUCE_SUM, 1, &items, &count);
  std::vector<ReproducibleFolding> folding;
  for (std::size_t f = 0; f < f_count; ++f) folding.emplace_back(global_bound[f], count);
  constexpr int F = ReproducibleFolding::kFolds;
  const std::size_t per_bin = f_count * F;
  std::vector<double> parts(static_cast<std::size_t>(bins) * per_bin, 0.0);
  for (long long i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (bin[k] < 0) continue;
    for (std::size_t f = 0; f < f_count; ++f) {
      ReproducibleFolding::Parts p;
      folding[f].add(p, values[k * f_count + f]);
      double* slot = parts.data() + static_cast<std::size_t>(bin[k]) * per_bin + f * F;
      for (int g = 0; g < F; ++g) slot[g] += p.on_grid[g];
    }
  }
  std::vector<double> global_parts(parts.size(), 0.0);
  Teuchos::reduceAll(comm, Teuchos::REDUCE_SUM, static_cast<int>(parts.size()), parts.data(),
                     global_parts.data());
  std::vector<double> sums(static_cast<std::size_t>(bins) * f_count, 0.0);
  for (std::size_t b = 0; b < static_cast<std::size_t>(bins); ++b)
    for (std::size_t f = 0; f < f_count; ++f) {
      ReproducibleFolding::Parts total;
      for (int g = 0; g < F; ++g) total.on_grid[g] = global_parts[b * per_bin + f * F + g];
      sums[b * f_count + f] = folding[f].total(total);
    }
  return sums;
}

}  // namespace grains
