// contact.rolling_friction and contact.spinning_friction: parsed, checked,
// turning coulomb into coulomb_rolling, written back.
#include <gtest/gtest.h>

#include <string>

#include "config_test_support.hpp"
#include "grains/config/config_loader.hpp"

namespace grains {
namespace {

using test::expectContains;

const std::string kBase = test::kSmallLatticeYaml;

SimulationConfig withContact(const std::string& contact) {
  return test::loadYaml(kBase + "contact: " + contact + "\n", "t.yaml");
}

TEST(RollingConfig, DefaultsLeaveCoulombUnchanged) {
  const SimulationConfig c = withContact("{friction: coulomb, mu: 0.4}");
  EXPECT_EQ(c.contact.friction, FrictionModel::Coulomb);
  EXPECT_EQ(c.contact.rolling_friction, 0.0);
  EXPECT_EQ(c.contact.spinning_friction, 0.0);
}

TEST(RollingConfig, EitherCoefficientSelectsCoulombRolling) {
  SimulationConfig c = withContact("{friction: coulomb, mu: 0.4, rolling_friction: 0.05}");
  EXPECT_EQ(c.contact.friction, FrictionModel::CoulombRolling);
  EXPECT_DOUBLE_EQ(c.contact.rolling_friction, 0.05);
  test::expectRoundTrip(c, "t.yaml");
  c = withContact("{friction: coulomb, mu: 0.4, spinning_friction: 0.02}");
  EXPECT_EQ(c.contact.friction, FrictionModel::CoulombRolling);
  EXPECT_DOUBLE_EQ(c.contact.spinning_friction, 0.02);
  test::expectRoundTrip(c, "t.yaml");
}

TEST(RollingConfig, ErrorsNameKeyValueAndExpectation) {
  expectContains(
      test::configErrorOf(kBase + "contact: {friction: coulomb, rolling_friction: -1}\n", "t.yaml"),
      {"contact.rolling_friction = -1", ">= 0"});
  expectContains(test::configErrorOf(kBase + "contact: {friction: pyramid, mu: 0.3, "
                                             "spinning_friction: 0.1}\n",
                                     "t.yaml"),
                 {"contact.spinning_friction = 0.1", "pyramid", "coulomb"});
  expectContains(test::configErrorOf(kBase + "contact: {rolling_friction: 0.1}\n", "t.yaml"),
                 {"contact.rolling_friction = 0.1", "frictionless"});
  // A solver without the model is a config error naming both.
  expectContains(test::configErrorOf(kBase + "contact: {friction: coulomb, mu: 0.3, "
                                             "rolling_friction: 0.1}\nsolver: {name: gpminres}\n",
                                     "t.yaml"),
                 {"gpminres", "coulomb_rolling"});
}

}  // namespace
}  // namespace grains
