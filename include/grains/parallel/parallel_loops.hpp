#pragma once
// OpenMP loops for library code. An exception must not leave an OpenMP
// region (that terminates the process), so the first one thrown by any
// iteration is kept and rethrown after the loop, as a serial loop would.
// parallelCollect gathers items without locks: each thread appends to its own
// vector and the vectors are joined in thread order; with the static
// schedule each thread owns one contiguous index range, so the result lists
// items in index order whatever the thread count.
#include <cstddef>
#include <exception>
#include <iterator>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace grains {

/// Calls body(i) for i in [0, n) on all threads (static schedule).
template <typename Body>
void parallelFor(std::size_t n, Body body) {
  std::exception_ptr error;
  const auto count = static_cast<long>(n);
#pragma omp parallel for schedule(static)
  for (long i = 0; i < count; ++i) {
    try {
      body(static_cast<std::size_t>(i));
    } catch (...) {
#pragma omp critical(grains_parallel_loop_error)
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
}

/// Calls produce(i, out) for i in [0, n) on all threads; `out` is the calling
/// thread's vector. Returns the items in increasing i.
template <typename Item, typename Produce>
std::vector<Item> parallelCollect(std::size_t n, Produce produce) {
  int threads = 1;
#ifdef _OPENMP
  threads = omp_get_max_threads();
#endif
  std::vector<std::vector<Item>> per_thread(static_cast<std::size_t>(threads));
  std::exception_ptr error;
  const auto count = static_cast<long>(n);
#pragma omp parallel
  {
    std::size_t thread = 0;
#ifdef _OPENMP
    thread = static_cast<std::size_t>(omp_get_thread_num());
#endif
    std::vector<Item>& out = per_thread[thread];
#pragma omp for schedule(static)
    for (long i = 0; i < count; ++i) {
      try {
        produce(static_cast<std::size_t>(i), out);
      } catch (...) {
#pragma omp critical(grains_parallel_loop_error)
        if (!error) error = std::current_exception();
      }
    }
  }
  if (error) std::rethrow_exception(error);
  std::size_t total = 0;
  for (const auto& part : per_thread) total += part.size();
  std::vector<Item> joined;
  joined.reserve(total);
  for (auto& part : per_thread)
    joined.insert(joined.end(), std::make_move_iterator(part.begin()),
                  std::make_move_iterator(part.end()));
  return joined;
}

}  // namespace grains
