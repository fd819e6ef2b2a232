#include "grains/core/reproducible_sum.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

namespace grains {
namespace {

double foldedSum(const std::vector<double>& terms, double bound, std::size_t pieces) {
  const ReproducibleFolding folding(bound, static_cast<double>(terms.size()));
  // Split into `pieces` partial sums (like threads or ranks), merged in reverse.
  std::vector<ReproducibleFolding::Parts> partial(pieces);
  for (std::size_t i = 0; i < terms.size(); ++i) folding.add(partial[i % pieces], terms[i]);
  ReproducibleFolding::Parts total;
  for (std::size_t p = pieces; p-- > 0;) total.merge(partial[p]);
  return folding.total(total);
}

std::vector<double> mixedTerms(std::size_t n, unsigned seed) {
  // Magnitudes over 30 decades and both signs, with heavy cancellation.
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> decade(-20, 10);
  std::vector<double> terms(n);
  for (double& t : terms) t = mantissa(rng) * std::pow(10.0, decade(rng));
  return terms;
}

double largest(const std::vector<double>& terms) {
  double m = 0.0;
  for (double t : terms) m = std::max(m, std::abs(t));
  return m;
}

TEST(ReproducibleSum, SameBitsInAnyOrderAndSplit) {
  std::vector<double> terms = mixedTerms(100000, 7);
  const double bound = largest(terms);
  const double reference = foldedSum(terms, bound, 1);
  std::mt19937_64 rng(11);
  for (std::size_t pieces : {1u, 2u, 3u, 7u, 64u}) {
    std::shuffle(terms.begin(), terms.end(), rng);
    EXPECT_EQ(foldedSum(terms, bound, pieces), reference) << pieces << " partial sums";
  }
  // An ordinary sum in another order differs (so the test can tell).
  std::vector<double> sorted = terms;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_NE(std::accumulate(terms.begin(), terms.end(), 0.0),
            std::accumulate(sorted.begin(), sorted.end(), 0.0));
}

TEST(ReproducibleSum, AccurateWhereTheExactSumIsKnown) {
  // Pairs t, -t cancel exactly, plus small integers: the exact sum is known.
  std::vector<double> terms = mixedTerms(20000, 3);
  const std::size_t n = terms.size();
  for (std::size_t i = 0; i < n; ++i) terms.push_back(-terms[i]);
  for (int k = 1; k <= 1000; ++k) terms.push_back(1e-3 * k);  // 500.5 (not exact in binary)
  std::mt19937_64 rng(5);
  std::shuffle(terms.begin(), terms.end(), rng);
  const double sum = foldedSum(terms, largest(terms), 4);
  EXPECT_NEAR(sum, 500.5, 1e-10);
}

TEST(ReproducibleSum, NonFiniteTermsGiveNaN) {
  const std::vector<double> terms = {1.0, 2.0};
  EXPECT_TRUE(std::isnan(foldedSum(terms, std::numeric_limits<double>::infinity(), 1)));
  EXPECT_EQ(foldedSum({0.0, 0.0}, 0.0, 2), 0.0);
}

}  // namespace
}  // namespace grains
