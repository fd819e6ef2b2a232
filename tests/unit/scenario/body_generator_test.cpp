// Lattice and random-packing generators: counts, placement, determinism and
// the split among ranks.
#include <gtest/gtest.h>

#include <cmath>

#include "grains/config/config_loader.hpp"
#include "grains/scenario/body_generator.hpp"

namespace grains {
namespace {

/// Smallest surface gap over all pairs (brute force, independent of the cell grid).
double minPairGap(const std::vector<Body>& bodies) {
  double gap = 1e300;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    for (std::size_t j = i + 1; j < bodies.size(); ++j) {
      gap = std::min(gap, (bodies[i].position - bodies[j].position).norm() - bodies[i].radius -
                              bodies[j].radius);
    }
  }
  return gap;
}

void expectSameBodies(const std::vector<Body>& a, const std::vector<Body>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].gid, b[i].gid);
    EXPECT_EQ(a[i].position, b[i].position) << "gid " << a[i].gid;
    EXPECT_EQ(a[i].radius, b[i].radius);
    EXPECT_EQ(a[i].mass, b[i].mass);
    EXPECT_EQ(a[i].velocity, b[i].velocity);
  }
}

SimulationConfig boxLattice(long count, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> overrides = {"bodies.generator.count=" + std::to_string(count)};
  overrides.insert(overrides.end(), extra.begin(), extra.end());
  return loadConfigString(R"(
simulation: {dt: 0.01, steps: 1, seed: 7}
bodies:
  radius: 0.1
  density: 1000
  initial_velocity: [1, 2, 3]
  generator: {type: lattice, spacing: 0.25, region: {type: box, min: [0, 0, 0], max: [1, 1, 1]}}
walls: [{type: box, min: [0, 0, 0], max: [1, 1, 1]}]
)",
                          "lattice.yaml", ".", overrides);
}

TEST(LatticeGenerator, DemoGivesCountBodiesInsideTheCylinderWithoutOverlap) {
  const SimulationConfig config = defaultConfig();
  const std::vector<Body> bodies = generateAllBodies(config);
  ASSERT_EQ(bodies.size(), 1000u);
  double z_min = 1e300;
  double r_max = 0.0;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const Body& b = bodies[i];
    EXPECT_EQ(b.gid, static_cast<GlobalId>(i));
    EXPECT_DOUBLE_EQ(b.radius, 0.1);
    EXPECT_DOUBLE_EQ(b.mass, 6.28);
    EXPECT_DOUBLE_EQ(b.inertia.x(), 0.4 * 6.28 * 0.01);
    EXPECT_EQ(b.velocity, Vec3::Zero());
    z_min = std::min(z_min, b.position.z());
    r_max = std::max(r_max, std::hypot(b.position.x(), b.position.y()));
  }
  // Region radius 1.85 minus body radius; bottom layer at z_min + r = 0.15, jitter <= 0.0025.
  EXPECT_LE(r_max, 1.75 + 1e-12);
  EXPECT_GT(r_max, 1.6);
  EXPECT_NEAR(z_min, 0.15, 0.0025 + 1e-12);
  EXPECT_GE(z_min, 0.15 - 1e-12);
  EXPECT_GE(minPairGap(bodies), 0.05 - 2 * 0.0025 * std::sqrt(3.0) - 1e-12);
}

TEST(LatticeGenerator, BoxLatticeOrderIsXThenYThenZ) {
  const std::vector<Body> bodies = generateAllBodies(boxLattice(64));
  ASSERT_EQ(bodies.size(), 64u);
  EXPECT_TRUE(bodies[0].position.isApprox(Vec3(0.1, 0.1, 0.1)));
  EXPECT_TRUE(bodies[1].position.isApprox(Vec3(0.35, 0.1, 0.1)));
  EXPECT_TRUE(bodies[4].position.isApprox(Vec3(0.1, 0.35, 0.1)));
  EXPECT_TRUE(bodies[16].position.isApprox(Vec3(0.1, 0.1, 0.35)));
  EXPECT_TRUE(bodies[63].position.isApprox(Vec3(0.85, 0.85, 0.85)));
  const double mass = 1000.0 * 4.0 / 3.0 * kPi * 0.001;
  EXPECT_NEAR(bodies[5].mass, mass, 1e-12);
  EXPECT_EQ(bodies[5].velocity, Vec3(1, 2, 3));
  EXPECT_NEAR(minPairGap(bodies), 0.05, 1e-12);
}

TEST(LatticeGenerator, CountBeyondCapacityNamesTheKey) {
  try {
    generateAllBodies(boxLattice(65));
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("lattice.yaml: bodies.generator.count = 65"), std::string::npos) << msg;
    EXPECT_NE(msg.find("at most 64"), std::string::npos) << msg;
  }
}

TEST(LatticeGenerator, JitterIsSeededAndBounded) {
  const auto plain = generateAllBodies(boxLattice(64));
  const auto a = generateAllBodies(boxLattice(64, {"bodies.generator.jitter=1"}));
  const auto b = generateAllBodies(boxLattice(64, {"bodies.generator.jitter=1"}));
  const auto c =
      generateAllBodies(boxLattice(64, {"bodies.generator.jitter=1", "simulation.seed=8"}));
  expectSameBodies(a, b);
  // jitter 1 at spacing 0.25, radius 0.1: up to 0.025 per coordinate; the
  // region margin grows by that much and still leaves 4 x 4 x 4 sites.
  ASSERT_EQ(a.size(), 64u);
  double moved = 0.0;
  double differs = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    moved = std::max(moved, (a[i].position - plain[i].position).norm());
    differs = std::max(differs, (a[i].position - c[i].position).norm());
  }
  EXPECT_GT(moved, 0.0);
  EXPECT_GT(differs, 0.0);
  EXPECT_GE(minPairGap(a), -1e-12);
}

TEST(LatticeGenerator, RadiusSpreadStaysInRangeAndDefaultSpacingAvoidsOverlap) {
  const SimulationConfig config = loadConfigString(R"(
simulation: {dt: 0.01, steps: 1}
bodies:
  radius: 0.1
  radius_spread: 0.3
  mass: 2.0
  generator: {type: lattice, count: 100, jitter: 0.5,
              region: {type: cylinder, center: [1, -1], radius: 1.0, z_min: 0, z_max: 5}}
walls: [{type: cylinder, point: [1, -1, 0], radius: 1.0}, {type: plane, normal: [0, 0, 1]}]
)",
                                                   "spread.yaml", ".");
  const auto bodies = generateAllBodies(config);
  ASSERT_EQ(bodies.size(), 100u);
  double r_lo = 1.0;
  double r_hi = 0.0;
  for (const Body& b : bodies) {
    r_lo = std::min(r_lo, b.radius);
    r_hi = std::max(r_hi, b.radius);
    EXPECT_DOUBLE_EQ(b.mass, 2.0);
    EXPECT_LE(std::hypot(b.position.x() - 1.0, b.position.y() + 1.0) + b.radius, 1.0 + 1e-12);
  }
  EXPECT_GE(r_lo, 0.07);
  EXPECT_LE(r_hi, 0.13);
  EXPECT_LT(r_lo, 0.08);  // the spread is actually used
  EXPECT_GT(r_hi, 0.12);
  EXPECT_GT(minPairGap(bodies), 0.0);
}

TEST(BodyGenerator, RankSplitsConcatenateToTheGlobalList) {
  for (const SimulationConfig& config :
       {defaultConfig(), boxLattice(64, {"bodies.generator.jitter=0.5"})}) {
    const std::vector<Body> all = generateAllBodies(config);
    for (int nranks : {1, 2, 3}) {
      std::vector<Body> joined;
      for (int rank = 0; rank < nranks; ++rank) {
        const std::vector<Body> mine = generateBodies(config, rank, nranks);
        const std::size_t n = all.size();
        EXPECT_EQ(mine.size(), n * (rank + 1) / nranks - n * rank / nranks);
        joined.insert(joined.end(), mine.begin(), mine.end());
      }
      expectSameBodies(joined, all);
    }
  }
  EXPECT_EQ(generateBodies(defaultConfig(), 2, 3).front().gid, 666);
  EXPECT_THROW(generateBodies(defaultConfig(), 3, 3), std::invalid_argument);
}

SimulationConfig randomBox(long count) {
  return loadConfigString(R"(
simulation: {dt: 0.01, steps: 1, seed: 3}
bodies:
  radius: 0.1
  radius_spread: 0.2
  density: 2500
  generator: {type: random, region: {type: box, min: [-1, -1, 0], max: [1, 1, 2]}}
walls: [{type: box, min: [-1, -1, 0], max: [1, 1, 2]}]
)",
                          "random.yaml", ".", {"bodies.generator.count=" + std::to_string(count)});
}

TEST(RandomPacking, PlacesCountNonOverlappingBodiesInsideTheRegion) {
  const auto bodies = generateAllBodies(randomBox(400));  // volume fraction ~0.21
  ASSERT_EQ(bodies.size(), 400u);
  for (const Body& b : bodies) {
    EXPECT_GE(b.radius, 0.08);
    EXPECT_LE(b.radius, 0.12);
    EXPECT_NEAR(b.mass, 2500.0 * 4.0 / 3.0 * kPi * std::pow(b.radius, 3), 1e-12);
    for (int k = 0; k < 2; ++k) EXPECT_LE(std::fabs(b.position[k]) + b.radius, 1.0 + 1e-12);
    EXPECT_GE(b.position.z() - b.radius, -1e-12);
    EXPECT_LE(b.position.z() + b.radius, 2.0 + 1e-12);
  }
  EXPECT_GE(minPairGap(bodies), 0.0);
  expectSameBodies(bodies, generateAllBodies(randomBox(400)));
  std::vector<Body> joined;
  for (int rank = 0; rank < 3; ++rank) {
    const auto mine = generateBodies(randomBox(400), rank, 3);
    joined.insert(joined.end(), mine.begin(), mine.end());
  }
  expectSameBodies(joined, bodies);
}

TEST(RandomPacking, OverfullRegionIsRejected) {
  try {
    generateAllBodies(randomBox(1000));  // volume fraction ~0.53
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("random.yaml: bodies.generator.count = 1000"), std::string::npos) << msg;
    EXPECT_NE(msg.find("volume fraction"), std::string::npos) << msg;
  }
}

}  // namespace
}  // namespace grains
