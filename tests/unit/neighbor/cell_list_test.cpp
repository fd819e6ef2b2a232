#include "grains/neighbor/cell_list.hpp"

#include "grains/geometry/shape_traits.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <random>
#include <set>

namespace grains {
namespace {

std::vector<Body> randomBodies(int n, double box, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> pos(0.0, box), rad(0.05, 0.15);
  std::vector<Body> bodies;
  for (int i = 0; i < n; ++i)
    bodies.push_back(makeSphere(i, rad(rng), 1.0, Vec3(pos(rng), pos(rng), pos(rng))));
  return bodies;
}

std::set<BodyPair> bruteForce(const std::vector<Body>& bodies, std::size_t owned, double env) {
  std::set<BodyPair> pairs;
  for (std::size_t i = 0; i < bodies.size(); ++i)
    for (std::size_t j = i + 1; j < bodies.size(); ++j) {
      if (i >= owned && j >= owned) continue;
      const double reach = bodies[i].radius + bodies[j].radius + env;
      if ((bodies[i].position - bodies[j].position).norm() <= reach)
        pairs.emplace(static_cast<int>(i), static_cast<int>(j));
    }
  return pairs;
}

TEST(CellList, MatchesBruteForceWithGhosts) {
  std::mt19937_64 rng(7);
  const int threads_before = omp_get_max_threads();
  for (int trial = 0; trial < 5; ++trial) {
    const auto bodies = randomBodies(600, 2.0 + trial, rng);
    const std::size_t owned = 400;
    const double env = 0.02 * trial;
    // The pairs come out in key order from per-thread lists: check it for
    // several thread counts (the list must not depend on them).
    std::vector<BodyPair> first;
    for (int threads = 1; threads <= 3; ++threads) {
      omp_set_num_threads(threads);
      const auto found = findNeighbourPairs(bodies, owned, env);
      const std::set<BodyPair> found_set(found.begin(), found.end());
      EXPECT_EQ(found.size(), found_set.size()) << "duplicate pairs";
      EXPECT_EQ(found_set, bruteForce(bodies, owned, env)) << "trial " << trial;
      EXPECT_TRUE(std::is_sorted(found.begin(), found.end())) << threads << " threads";
      if (threads == 1) first = found;
      EXPECT_EQ(found, first) << threads << " threads";
    }
  }
  omp_set_num_threads(threads_before);
}

TEST(CellList, SparseFarApartBodiesDoNotExplodeTheGrid) {
  std::vector<Body> bodies{makeSphere(0, 0.1, 1, Vec3(0, 0, 0)),
                           makeSphere(1, 0.1, 1, Vec3(1e6, 1e6, 1e6)),
                           makeSphere(2, 0.1, 1, Vec3(1e6, 1e6, 1e6 + 0.15))};
  const auto pairs = findNeighbourPairs(bodies, 3, 0.0);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0], BodyPair(1, 2));
}

}  // namespace
}  // namespace grains
