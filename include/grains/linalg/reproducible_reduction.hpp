#pragma once
// Global sums that are the same bits on any thread and rank count: the
// OpenMP and MPI layers of grains/core/reproducible_sum.hpp.
#include "grains/core/reproducible_sum.hpp"
#include "grains/linalg/tpetra_types.hpp"

#include <Teuchos_CommHelpers.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>

namespace grains {

/// Sums over the ranks of `comm` of N terms per local item, terms(i) giving
/// item i's N terms (i in [0, n)), `count` the global number of items, with
/// a result independent of the thread and rank count
/// (grains/core/reproducible_sum.hpp): a pass for the largest term, one
/// reduction, a pass that folds the terms onto the grids, one reduction.
template <std::size_t N, class Terms>
std::array<double, N> reproducibleSums(const Comm& comm, long long n, double count, Terms terms) {
  std::array<double, N> bound{};
#pragma omp parallel
  {
    std::array<double, N> mine{};
#pragma omp for schedule(static)
    for (long long i = 0; i < n; ++i) {
      const std::array<double, N> t = terms(i);
      for (std::size_t k = 0; k < N; ++k) {
        // NaN must poison the bound (std::max would drop it).
        const double size =
            std::isnan(t[k]) ? std::numeric_limits<double>::infinity() : std::abs(t[k]);
        mine[k] = std::max(mine[k], size);
      }
    }
#pragma omp critical(grains_reproducible_bound)
    for (std::size_t k = 0; k < N; ++k) bound[k] = std::max(bound[k], mine[k]);
  }
  std::array<double, N> global_bound{};
  Teuchos::reduceAll(comm, Teuchos::REDUCE_MAX, static_cast<int>(N), bound.data(),
                     global_bound.data());
  std::array<ReproducibleFolding, N> folding;
  for (std::size_t k = 0; k < N; ++k) folding[k] = ReproducibleFolding(global_bound[k], count);
  constexpr int F = ReproducibleFolding::kFolds;
  std::array<double, N * F> parts{};
#pragma omp parallel
  {
    std::array<ReproducibleFolding::Parts, N> mine{};
#pragma omp for schedule(static)
    for (long long i = 0; i < n; ++i) {
      const std::array<double, N> t = terms(i);
      for (std::size_t k = 0; k < N; ++k) folding[k].add(mine[k], t[k]);
    }
    // Partial sums on one grid add exactly: the order of the threads is free.
#pragma omp critical(grains_reproducible_parts)
    for (std::size_t k = 0; k < N; ++k)
      for (int f = 0; f < F; ++f) parts[k * F + f] += mine[k].on_grid[f];
  }
  std::array<double, N * F> global_parts{};
  Teuchos::reduceAll(comm, Teuchos::REDUCE_SUM, static_cast<int>(N * F), parts.data(),
                     global_parts.data());
  std::array<double, N> sums{};
  for (std::size_t k = 0; k < N; ++k) {
    ReproducibleFolding::Parts total;
    for (int f = 0; f < F; ++f) total.on_grid[f] = global_parts[k * F + f];
    sums[k] = folding[k].total(total);
  }
  return sums;
}

}  // namespace grains
