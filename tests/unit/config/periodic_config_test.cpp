// domain.periodic: parsed, written back, and bad input named.
#include <gtest/gtest.h>

#include <string>

#include "config_test_support.hpp"
#include "grains/config/config_error.hpp"
#include "grains/config/config_loader.hpp"
#include "grains/geometry/shape_traits.hpp"
#include "grains/scenario/body_generator.hpp"

namespace grains {
namespace {

using test::expectContains;

std::string withDomain(const std::string& domain) {
  return std::string(test::kSmallLatticeYaml) + "domain:\n" + domain;
}

TEST(PeriodicConfig, AxesParseIntoTheBoxAndRoundTrip) {
  const SimulationConfig c =
      test::loadYaml(withDomain("  min: [0, 0, -1]\n  max: [2, 3, 4]\n  periodic: [y, x]\n"), "t");
  EXPECT_TRUE(c.domain.periodic[0]);
  EXPECT_TRUE(c.domain.periodic[1]);
  EXPECT_FALSE(c.domain.periodic[2]);
  const PeriodicBox box = periodicBoxOf(c.domain);
  EXPECT_TRUE(box.any());
  EXPECT_DOUBLE_EQ(box.length(0), 2.0);
  EXPECT_DOUBLE_EQ(box.length(1), 3.0);
  test::expectRoundTrip(c, "t");
  EXPECT_FALSE(periodicBoxOf(test::loadYaml(test::kSmallLatticeYaml, "t").domain).any());
}

TEST(PeriodicConfig, BadAxesAndAMissingBoxAreNamed) {
  expectContains(test::configErrorOf(withDomain("  min: [0, 0, 0]\n  max: [1, 1, 1]\n"
                                                "  periodic: [x, w]\n"),
                                     "t.yaml"),
                 {"domain.periodic", "x, y, z"});
  expectContains(test::configErrorOf(withDomain("  min: [0, 0, 0]\n  max: [1, 1, 1]\n"
                                                "  periodic: [x, x]\n"),
                                     "t.yaml"),
                 {"domain.periodic", "distinct"});
  expectContains(test::configErrorOf(withDomain("  periodic: [z]\n"), "t.yaml"),
                 {"domain.min", "periodic"});
  expectContains(test::configErrorOf(withDomain("  min: [0, 0, 0]\n  max: [1, 1, 1]\n"
                                                "  periodic: {axes: [x]}\n"),
                                     "t.yaml"),
                 {"domain.periodic"});
}

TEST(PeriodicConfig, ABoxShorterThanTwoDiametersIsRejected) {
  const SimulationConfig c = test::loadYaml(
      withDomain("  min: [0, 0, 0]\n  max: [0.35, 2, 2]\n  periodic: [x, y]\n"), "t");
  try {
    checkPeriodicBoxFits(c.domain, 0.1);  // diameter 0.2: x needs 0.4
    FAIL() << "no ConfigError";
  } catch (const ConfigError& e) {
    expectContains(e.what(), {"domain.max", "0.35", "axis x", "two body diameters", "0.4"});
  }
  EXPECT_NO_THROW(checkPeriodicBoxFits(c.domain, 0.08));
}

TEST(PeriodicConfig, InitialOverlapsThroughAFaceAreFound) {
  PeriodicBox box;
  box.periodic = {true, false, false};
  box.upper = Vec3::Ones();
  // Centres 0.08 m apart through the x faces (overlap 0.02 m), 0.92 m inside.
  std::vector<Body> bodies{makeSphere(0, 0.05, 1.0, Vec3(0.04, 0.5, 0.5)),
                           makeSphere(1, 0.05, 1.0, Vec3(0.96, 0.5, 0.5))};
  EXPECT_NO_THROW(checkInitialOverlaps(bodies, {}));
  try {
    checkInitialOverlaps(bodies, {}, box);
    FAIL() << "no ConfigError";
  } catch (const ConfigError& e) {
    expectContains(e.what(), {"bodies 0 and 1", "overlap by 0.02"});
  }
  // Given outside the box, a centre is compared where the run wraps it.
  bodies[1].position.x() = -0.1;  // wraps to 0.9: 0.14 from body 0 through the face
  EXPECT_NO_THROW(checkInitialOverlaps(bodies, {}, box));
  bodies[1].position.x() = 1.04;  // wraps to 0.04: on top of body 0
  EXPECT_THROW(checkInitialOverlaps(bodies, {}, box), ConfigError);
}

}  // namespace
}  // namespace grains
