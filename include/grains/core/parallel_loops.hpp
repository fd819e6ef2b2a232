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
#include <utility>
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
/// thread's vector. Returns `head` followed by the items in increasing i.
/// `expected_items` (default: n) sizes the threads' lists up front.
template <typename Item, typename Produce>
std::vector<Item> parallelCollect(std::size_t n, Produce produce,
                                  std::size_t expected_items = static_cast<std::size_t>(-1),
                                  std::vector<Item> head = {}) {
  int threads = 1;
#ifdef _OPENMP
  threads = omp_get_max_threads();
#endif
  // Each list gets room for its share of the expected items (one per index
  // unless told), reserved here, on the calling thread: memory a worker
  // thread allocates comes from glibc's per-thread arenas, whose emptied
  // heaps are unmapped again after every step, so that each step
  // page-faulted its lists in anew (detection on two threads took twice as
  // long as on one). Lists that outgrow the hint grow on their thread. The
  // first list, which starts as `head`, becomes the result: it gets room for
  // all expected items, so that joining the others to it does not move it.
  std::vector<std::vector<Item>> per_thread(static_cast<std::size_t>(threads));
  const std::size_t expected = expected_items < n ? expected_items : n;
  const std::size_t share =
      (expected + static_cast<std::size_t>(threads) - 1) / static_cast<std::size_t>(threads);
  per_thread.front() = std::move(head);
  per_thread.front().reserve(per_thread.front().size() + expected);
  for (std::size_t t = 1; t < per_thread.size(); ++t) per_thread[t].reserve(share);
  std::exception_ptr error;
  const auto count = static_cast<long>(n);
#pragma omp parallel
  {
    std::size_t thread = 0;
#ifdef _OPENMP
    thread = static_cast<std::size_t>(omp_get_thread_num());
#endif
    // Each thread appends through a vector object of its own (its list's
    // storage swapped in): the objects side by side in per_thread share a
    // cache line, whose end pointers every append wrote, and that false
    // sharing made the threads as slow together as one alone.
    std::vector<Item> out;
    out.swap(per_thread[thread]);
#pragma omp for schedule(static)
    for (long i = 0; i < count; ++i) {
      try {
        produce(static_cast<std::size_t>(i), out);
      } catch (...) {
#pragma omp critical(grains_parallel_loop_error)
        if (!error) error = std::current_exception();
      }
    }
    out.swap(per_thread[thread]);
  }
  if (error) std::rethrow_exception(error);
  // The first thread's list becomes the result (no copy with one thread);
  // the others are appended to it, serially: a parallel copy would first
  // have to construct every item of the result.
  std::size_t total = 0;
  for (const auto& part : per_thread) total += part.size();
  std::vector<Item> joined = std::move(per_thread.front());
  joined.reserve(total);
  for (std::size_t t = 1; t < per_thread.size(); ++t)
    joined.insert(joined.end(), std::make_move_iterator(per_thread[t].begin()),
                  std::make_move_iterator(per_thread[t].end()));
  return joined;
}

}  // namespace grains
