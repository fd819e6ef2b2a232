#include "grains/app/reproducibility.hpp"

#include "grains/config/config_loader.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace grains {
namespace {

Reproducibility ofDemoWith(const std::vector<std::string>& overrides) {
  return reproducibilityOf(loadConfigString(defaultConfigYaml(), "<demo>", ".", overrides));
}

TEST(Reproducibility, TheDemoIsTheSameBitsOnAnyRankCount) {
  // tests/reliability/rank_invariance_test.sh checks the claim itself.
  const Reproducibility demo = ofDemoWith({});
  EXPECT_TRUE(demo.across_ranks_and_threads);
  EXPECT_NE(describe(demo).find("same bits"), std::string::npos);
  EXPECT_TRUE(ofDemoWith({"solver.name=jacobi"}).across_ranks_and_threads);
  EXPECT_TRUE(ofDemoWith({"solver.name=bbpgd"}).across_ranks_and_threads);
  EXPECT_TRUE(ofDemoWith({"contact.method=multisphere"}).across_ranks_and_threads);
}

TEST(Reproducibility, EachExceptionIsNamed) {
  const Reproducibility off = ofDemoWith({"parallel.reproducible=false"});
  EXPECT_FALSE(off.across_ranks_and_threads);
  EXPECT_NE(off.reason.find("parallel.reproducible"), std::string::npos);
  const Reproducibility spg = ofDemoWith({"solver.name=spg"});
  EXPECT_FALSE(spg.across_ranks_and_threads);
  EXPECT_NE(describe(spg).find("'spg'"), std::string::npos);
}

}  // namespace
}  // namespace grains
