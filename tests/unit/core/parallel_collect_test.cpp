#include "grains/core/parallel_loops.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <stdexcept>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace grains {
namespace {

/// Index i yields i % 4 items (i, 0), (i, 1), ...: uneven, some none, so that
/// the threads' lists differ in length and some outgrow their share.
std::vector<std::pair<std::size_t, int>> collectUneven(
    std::size_t n, std::size_t expected, std::vector<std::pair<std::size_t, int>> head) {
  return parallelCollect<std::pair<std::size_t, int>>(
      n,
      [](std::size_t i, std::vector<std::pair<std::size_t, int>>& out) {
        for (int k = 0; k < static_cast<int>(i % 4); ++k) out.emplace_back(i, k);
      },
      expected, std::move(head));
}

std::vector<std::pair<std::size_t, int>> expectedUneven(
    std::size_t n, const std::vector<std::pair<std::size_t, int>>& head) {
  std::vector<std::pair<std::size_t, int>> items = head;
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < static_cast<int>(i % 4); ++k) items.emplace_back(i, k);
  return items;
}

class ThreadCount {
 public:
  explicit ThreadCount(int threads) {
#ifdef _OPENMP
    saved_ = omp_get_max_threads();
    omp_set_num_threads(threads);
#else
    (void)threads;
#endif
  }
  ~ThreadCount() {
#ifdef _OPENMP
    omp_set_num_threads(saved_);
#endif
  }
  ThreadCount(const ThreadCount&) = delete;
  ThreadCount& operator=(const ThreadCount&) = delete;

 private:
  int saved_ = 1;
};

TEST(ParallelCollect, ItemsComeInIndexOrderOnAnyThreadCount) {
  const std::size_t n = 10007;
  const auto reference = expectedUneven(n, {});
  for (int threads : {1, 2, 3, 5}) {
    const ThreadCount count(threads);
    // Hints below, at and above the number of items (15,009): lists that
    // outgrow theirs grow on their own thread.
    for (std::size_t expected : {std::size_t{10}, std::size_t{15009}, std::size_t{40000}}) {
      EXPECT_EQ(collectUneven(n, expected, {}), reference)
          << threads << " threads, hint " << expected;
    }
  }
}

TEST(ParallelCollect, TheHeadComesFirstAndIsKeptWhole) {
  const std::vector<std::pair<std::size_t, int>> head = {{99, -1}, {98, -2}, {97, -3}};
  for (int threads : {1, 2, 3}) {
    const ThreadCount count(threads);
    EXPECT_EQ(collectUneven(501, 600, head), expectedUneven(501, head)) << threads << " threads";
    // No indices: the head alone.
    EXPECT_EQ(collectUneven(0, 0, head), head) << threads << " threads";
  }
}

TEST(ParallelCollect, AnExceptionOnAWorkerReachesTheCaller) {
  const ThreadCount count(3);
  EXPECT_THROW(parallelCollect<int>(1000,
                                    [](std::size_t i, std::vector<int>& out) {
                                      if (i == 777) throw std::runtime_error("item 777");
                                      out.push_back(static_cast<int>(i));
                                    }),
               std::runtime_error);
}

}  // namespace
}  // namespace grains
