// Generators for non-spherical bodies: lattice and random packing of
// capsules, ellipsoids and tori, random orientations, the volume-fraction
// cube, the chainmail lattice and shaped extra bodies.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "../../../src/scenario/generators.hpp"
#include "grains/config/config_loader.hpp"
#include "grains/scenario/body_generator.hpp"

namespace grains {
namespace {

SimulationConfig load(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  return loadConfigString(yaml, "shaped.yaml", ".", overrides);
}

const char* const kEllipsoidLattice = R"(simulation: {dt: 0.01, steps: 1, seed: 11}
bodies:
  shape: ellipsoid
  semi_axes: [0.1, 0.2, 0.4]
  density: 1000
  generator: {type: lattice, count: 20, region: {type: box, min: [0, 0, 0], max: [4, 4, 4]}}
)";

TEST(ShapedLatticeGenerator, EllipsoidsSpacedByTheirLargestSemiAxis) {
  const SimulationConfig config = load(kEllipsoidLattice);
  const std::vector<Body> bodies = scenario_detail::latticeBodies(config);
  ASSERT_EQ(bodies.size(), 20u);
  const double mass = 1000.0 * 4.0 / 3.0 * kPi * 0.1 * 0.2 * 0.4;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const Body& b = bodies[i];
    EXPECT_EQ(b.gid, static_cast<GlobalId>(i));
    EXPECT_EQ(b.shape, ShapeKind::Ellipsoid);
    EXPECT_EQ(b.semi_axes, Vec3(0.1, 0.2, 0.4));
    EXPECT_NEAR(b.mass, mass, 1e-12 * mass);
    // I_x = m/5 (b^2 + c^2).
    EXPECT_NEAR(b.inertia.x(), mass / 5.0 * (0.04 + 0.16), 1e-12);
    EXPECT_TRUE(b.orientation.coeffs().isApprox(Quat::Identity().coeffs()));
  }
  // Default spacing 2.5 x bounding radius 0.4 = 1, first site one bounding radius in.
  EXPECT_TRUE(bodies[0].position.isApprox(Vec3(0.4, 0.4, 0.4)));
  EXPECT_TRUE(bodies[1].position.isApprox(Vec3(1.4, 0.4, 0.4)));
  // 4 sites per row (0.4, 1.4, 2.4, 3.4 <= 3.6), 16 per layer: gid 16 starts layer 2.
  EXPECT_TRUE(bodies[16].position.isApprox(Vec3(0.4, 0.4, 1.4)));
}

TEST(ShapedLatticeGenerator, CapsulesAndToriGetTheirVolumeTimesDensity) {
  const SimulationConfig capsules =
      load(kEllipsoidLattice, {"bodies.shape=spherocylinder", "bodies.semi_axes=~",
                               "bodies.radius=0.1", "bodies.half_length=0.3"});
  const std::vector<Body> c = scenario_detail::latticeBodies(capsules);
  ASSERT_EQ(c.size(), 20u);
  EXPECT_EQ(c[0].shape, ShapeKind::Spherocylinder);
  EXPECT_DOUBLE_EQ(c[0].half_length, 0.3);
  EXPECT_NEAR(c[0].mass, 1000.0 * (kPi * 0.01 * 0.6 + 4.0 / 3.0 * kPi * 0.001), 1e-9);
  EXPECT_TRUE(c[0].position.isApprox(Vec3(0.4, 0.4, 0.4)));  // bounding radius h + r

  const SimulationConfig tori =
      load(kEllipsoidLattice, {"bodies.shape=torus", "bodies.semi_axes=~", "bodies.radius=0.05",
                               "bodies.major_radius=0.3"});
  const std::vector<Body> t = scenario_detail::latticeBodies(tori);
  ASSERT_EQ(t.size(), 20u);
  EXPECT_EQ(t[0].shape, ShapeKind::Torus);
  EXPECT_DOUBLE_EQ(t[0].major_radius, 0.3);
  EXPECT_DOUBLE_EQ(t[0].radius, 0.05);
  EXPECT_NEAR(t[0].mass, 1000.0 * 2.0 * kPi * kPi * 0.3 * 0.0025, 1e-9);
  EXPECT_TRUE(t[0].position.isApprox(Vec3(0.35, 0.35, 0.35)));  // bounding radius R + r
  EXPECT_TRUE(t[1].position.isApprox(Vec3(0.35 + 2.5 * 0.35, 0.35, 0.35)));
}

TEST(ShapedLatticeGenerator, RandomOrientationsAreUnitDeterministicAndIsotropic) {
  const SimulationConfig config =
      load(kEllipsoidLattice, {"bodies.random_orientation=true", "bodies.generator.count=2000",
                               "bodies.generator.region.max=[14, 14, 14]"});
  const std::vector<Body> a = scenario_detail::latticeBodies(config);
  const std::vector<Body> b = scenario_detail::latticeBodies(config);
  ASSERT_EQ(a.size(), 2000u);
  Vec3 mean_axis = Vec3::Zero();
  Vec3 mean_square = Vec3::Zero();
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_NEAR(a[i].orientation.norm(), 1.0, 1e-14);
    EXPECT_EQ(a[i].orientation.coeffs(), b[i].orientation.coeffs());
    EXPECT_TRUE(a[i].orientation.coeffs().isApprox(
        scenario_detail::randomOrientation(11, static_cast<GlobalId>(i)).coeffs(), 1e-15));
    const Vec3 axis = a[i].orientation * Vec3::UnitZ();
    mean_axis += axis;
    mean_square += axis.cwiseProduct(axis);
  }
  mean_axis /= 2000.0;
  mean_square /= 2000.0;
  // Uniform rotations: the body axis is uniform on the sphere, E[n] = 0,
  // E[n_i^2] = 1/3 (standard errors ~0.013 and ~0.007 for 2000 samples).
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(mean_axis[k], 0.0, 0.06) << k;
    EXPECT_NEAR(mean_square[k], 1.0 / 3.0, 0.035) << k;
  }
  // A different seed gives different orientations.
  SimulationConfig other = config;
  other.simulation.seed = 12;
  EXPECT_NE(scenario_detail::latticeBodies(other)[0].orientation.coeffs(),
            a[0].orientation.coeffs());
}

TEST(ShapedRandomGenerator, CapsulesWithRandomOrientationAreRankIndependent) {
  const SimulationConfig config = load(R"(simulation: {dt: 0.01, steps: 1, seed: 3}
bodies:
  shape: spherocylinder
  radius: 0.05
  half_length: 0.15
  mass: 1
  random_orientation: true
  generator: {type: random, count: 60, region: {type: box, min: [0, 0, 0], max: [2, 2, 2]}}
)");
  const std::vector<Body> all = generateAllBodies(config);
  ASSERT_EQ(all.size(), 60u);
  std::vector<Body> joined;
  for (int rank = 0; rank < 3; ++rank) {
    const std::vector<Body> part = generateBodies(config, rank, 3);
    joined.insert(joined.end(), part.begin(), part.end());
  }
  ASSERT_EQ(joined.size(), all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(joined[i].position, all[i].position);
    EXPECT_EQ(joined[i].orientation.coeffs(), all[i].orientation.coeffs());
    EXPECT_EQ(all[i].shape, ShapeKind::Spherocylinder);
    EXPECT_NEAR(all[i].orientation.norm(), 1.0, 1e-14);
    // Inside the region by the bounding radius 0.2.
    EXPECT_GE(all[i].position.minCoeff(), 0.2 - 1e-12);
    EXPECT_LE(all[i].position.maxCoeff(), 1.8 + 1e-12);
    for (std::size_t j = 0; j < i; ++j) {
      EXPECT_GE((all[i].position - all[j].position).norm(), 0.4 - 1e-12) << i << " " << j;
    }
  }
}

TEST(ShapedRandomGenerator, VolumeFractionSizesACubeOnTheRegionCentre) {
  const SimulationConfig config = load(R"(simulation: {dt: 0.01, steps: 1, seed: 5}
bodies:
  shape: ellipsoid
  semi_axes: [0.5, 0.5, 1.0]
  density: 2
  random_orientation: true
  volume_fraction: 0.01
  generator: {type: random, count: 200, region: {type: box, min: [0, 0, 0], max: [2, 4, 6]}}
)");
  const std::vector<Body> bodies = scenario_detail::randomPackingBodies(config);
  ASSERT_EQ(bodies.size(), 200u);
  const double volume = 4.0 / 3.0 * kPi * 0.25;
  const double side = std::cbrt(200.0 * volume / 0.01);
  EXPECT_NEAR(200.0 * volume / (side * side * side), 0.01, 1e-15);
  const Vec3 centre(1.0, 2.0, 3.0);
  Vec3 lo = Vec3::Constant(1e300);
  Vec3 hi = Vec3::Constant(-1e300);
  for (const Body& b : bodies) {
    EXPECT_NEAR(b.mass, 2.0 * volume, 1e-12);
    lo = lo.cwiseMin(b.position - centre);
    hi = hi.cwiseMax(b.position - centre);
  }
  // Every centre lies in the cube shrunk by the bounding radius 1 ...
  EXPECT_GE(lo.minCoeff(), -(0.5 * side - 1.0) - 1e-12);
  EXPECT_LE(hi.maxCoeff(), 0.5 * side - 1.0 + 1e-12);
  // ... and 200 uniform samples reach close to its faces (side ~ 27.6).
  EXPECT_LT(lo.maxCoeff(), -0.8 * (0.5 * side - 1.0));
  EXPECT_GT(hi.minCoeff(), 0.8 * (0.5 * side - 1.0));
}

TEST(ShapedRandomGenerator, TooHighVolumeFractionNamesTheKey) {
  // Bounding spheres of tori (R + r)^3 4/3 pi vs 2 pi^2 R r^2: phi = 0.1 of
  // thin rings is far beyond what random sequential addition can place.
  const SimulationConfig config = load(R"(simulation: {dt: 0.01, steps: 1}
bodies:
  shape: torus
  radius: 0.1
  major_radius: 1.0
  mass: 1
  volume_fraction: 0.1
  generator: {type: random, count: 20, region: {type: box, min: [0, 0, 0], max: [1, 1, 1]}}
)");
  try {
    scenario_detail::randomPackingBodies(config);
    ADD_FAILURE() << "no ConfigError";
  } catch (const ConfigError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("bodies.volume_fraction = 0.1"), std::string::npos) << msg;
    EXPECT_NE(msg.find("volume_fraction cube"), std::string::npos) << msg;
  }
}

// --- chainmail --------------------------------------------------------------

const char* const kChainmail = R"(simulation: {dt: 0.01, steps: 1}
bodies:
  shape: torus
  radius: 0.1
  major_radius: 1.0
  density: 1
  generator:
    type: chainmail
    rings_x: 3
    rings_y: 3
    region: {type: box, min: [-1, -1, -1], max: [3, 5, 7]}
)";

/// Points on a ring's centre circle (radius R in the body x-y plane).
std::vector<Vec3> centreCircle(const Body& ring, int samples) {
  std::vector<Vec3> points;
  for (int k = 0; k < samples; ++k) {
    const double t = 2.0 * kPi * k / samples;
    points.push_back(ring.position + ring.orientation * Vec3(ring.major_radius * std::cos(t),
                                                             ring.major_radius * std::sin(t), 0.0));
  }
  return points;
}

/// How often ring b's centre circle passes through the disc spanned by ring
/// a's centre circle: 1 for a linked (interlaced) pair, 0 for an unlinked one
/// in this geometry.
int discCrossings(const Body& a, const Body& b, int samples) {
  const Vec3 n = a.orientation * Vec3::UnitZ();
  const std::vector<Vec3> pts = centreCircle(b, samples);
  int crossings = 0;
  for (int k = 0; k < samples; ++k) {
    const Vec3& p = pts[static_cast<std::size_t>(k)];
    const Vec3& q = pts[static_cast<std::size_t>((k + 1) % samples)];
    const double hp = n.dot(p - a.position);
    const double hq = n.dot(q - a.position);
    if ((hp < 0.0) == (hq < 0.0)) continue;
    const Vec3 hit = p + hp / (hp - hq) * (q - p);
    if ((hit - a.position).norm() < a.major_radius) ++crossings;
  }
  return crossings;
}

TEST(ChainmailGenerator, PatternCentredOnTheRegion) {
  const SimulationConfig config = load(kChainmail);
  const std::vector<Body> rings = scenario_detail::chainmailBodies(config);
  ASSERT_EQ(rings.size(), 9u + 6u + 6u);
  const Vec3 centre(1.0, 2.0, 3.0);
  const Vec3 origin = centre - Vec3(2.9, 2.9, 0.0);  // flat ring (0, 0)
  const double mass = 2.0 * kPi * kPi * 1.0 * 0.01;
  for (std::size_t k = 0; k < rings.size(); ++k) {
    EXPECT_EQ(rings[k].gid, static_cast<GlobalId>(k));
    EXPECT_EQ(rings[k].shape, ShapeKind::Torus);
    EXPECT_DOUBLE_EQ(rings[k].major_radius, 1.0);
    EXPECT_DOUBLE_EQ(rings[k].radius, 0.1);
    EXPECT_NEAR(rings[k].mass, mass, 1e-12);
  }
  // Flat rings, row-major, axis z.
  for (int j = 0; j < 3; ++j) {
    for (int i = 0; i < 3; ++i) {
      const Body& r = rings[static_cast<std::size_t>(3 * j + i)];
      EXPECT_TRUE(r.position.isApprox(origin + Vec3(2.9 * i, 2.9 * j, 0.0))) << i << j;
      EXPECT_TRUE((r.orientation * Vec3::UnitZ()).isApprox(Vec3::UnitZ()));
    }
  }
  // x-links: midpoints of x-neighbours, axis along y (ring in the x-z plane).
  for (int j = 0; j < 3; ++j) {
    for (int i = 0; i < 2; ++i) {
      const Body& r = rings[static_cast<std::size_t>(9 + 2 * j + i)];
      EXPECT_TRUE(r.position.isApprox(origin + Vec3(2.9 * i + 1.45, 2.9 * j, 0.0))) << i << j;
      EXPECT_NEAR(std::abs((r.orientation * Vec3::UnitZ()).y()), 1.0, 1e-14);
    }
  }
  // y-links: midpoints of y-neighbours, axis along x (ring in the y-z plane).
  for (int j = 0; j < 2; ++j) {
    for (int i = 0; i < 3; ++i) {
      const Body& r = rings[static_cast<std::size_t>(15 + 3 * j + i)];
      EXPECT_TRUE(r.position.isApprox(origin + Vec3(2.9 * i, 2.9 * j + 1.45, 0.0))) << i << j;
      EXPECT_NEAR(std::abs((r.orientation * Vec3::UnitZ()).x()), 1.0, 1e-14);
    }
  }
}

TEST(ChainmailGenerator, RingsAreInterlacedWithClearance) {
  const SimulationConfig config = load(kChainmail);
  const std::vector<Body> rings = scenario_detail::chainmailBodies(config);
  constexpr int kSamples = 720;
  // Sampled distances overestimate the true minimum by at most the chord
  // between samples on each circle.
  const double sampling_error = 2.0 * (2.0 * kPi / kSamples);
  double min_distance = 1e300;
  int linked_pairs = 0;
  for (std::size_t a = 0; a < rings.size(); ++a) {
    for (std::size_t b = a + 1; b < rings.size(); ++b) {
      const bool flat_a = a < 9;
      const bool flat_b = b < 9;
      if ((rings[a].position - rings[b].position).norm() < 2.9 - 1e-9 && flat_a != flat_b) {
        // A flat ring and an adjacent link: linked through each other's holes.
        EXPECT_EQ(discCrossings(rings[a], rings[b], kSamples), 1) << a << " " << b;
        EXPECT_EQ(discCrossings(rings[b], rings[a], kSamples), 1) << a << " " << b;
        ++linked_pairs;
      }
      if ((rings[a].position - rings[b].position).norm() > 2.0 * (1.0 + 0.1)) continue;
      const std::vector<Vec3> pa = centreCircle(rings[a], kSamples);
      const std::vector<Vec3> pb = centreCircle(rings[b], kSamples);
      for (const Vec3& p : pa) {
        for (const Vec3& q : pb) min_distance = std::min(min_distance, (p - q).norm());
      }
    }
  }
  EXPECT_EQ(linked_pairs, 2 * 12);  // every link holds two flat rings
  // Tubes of radius 0.1 keep apart: centre circles more than 2 r apart.
  EXPECT_GT(min_distance - sampling_error, 0.2);
  // Closest approach: a link's crossing point, 0.45 R from a flat ring's
  // centre, lies 0.55 R from that ring's centre circle.
  EXPECT_NEAR(min_distance, 0.55, sampling_error);
}

TEST(ChainmailGenerator, PassesTheInitialOverlapCheck) {
  // generateAllBodies runs checkInitialOverlaps with the torus narrow phase.
  const std::vector<Body> rings = generateAllBodies(load(kChainmail));
  EXPECT_EQ(rings.size(), 21u);
}

TEST(ChainmailGenerator, WithoutRegionTheLatticeIsCentredOnTheOrigin) {
  const SimulationConfig config = load(R"(simulation: {dt: 0.01, steps: 1}
bodies: {shape: torus, radius: 0.1, major_radius: 1.0, mass: 1,
         generator: {type: chainmail, rings_x: 2, rings_y: 1}}
)");
  const std::vector<Body> rings = scenario_detail::chainmailBodies(config);
  ASSERT_EQ(rings.size(), 3u);
  EXPECT_TRUE(rings[0].position.isApprox(Vec3(-1.45, 0.0, 0.0)));
  EXPECT_TRUE(rings[1].position.isApprox(Vec3(1.45, 0.0, 0.0)));
  EXPECT_TRUE(rings[2].position.isZero(1e-15));
}

// --- extra bodies -----------------------------------------------------------

TEST(ShapedExtraBodies, EllipsoidAndTorusWithOrientationAxisAndForce) {
  const SimulationConfig config = load(R"(simulation: {dt: 0.01, steps: 1}
bodies:
  radius: 0.1
  mass: 1
  generator: {type: lattice, count: 1, region: {type: box, min: [0, 0, 0], max: [1, 1, 1]}}
extra_bodies:
  - {shape: ellipsoid, semi_axes: [0.1, 0.2, 0.3], mass: 2, position: [5, 0, 0],
     orientation: [1, 0, 0, 1], force: [0, 0, -4]}
  - {shape: torus, radius: 0.05, major_radius: 0.5, mass: 3, position: [0, 5, 0], axis: [1, 0, 0],
     velocity: [1, 0, 0]}
  - {shape: spherocylinder, radius: 0.1, half_length: 0.2, mass: 1, position: [0, 0, 5],
     orientation: [0, 1, 0, 0]}
)");
  const std::vector<Body> bodies = generateAllBodies(config);
  ASSERT_EQ(bodies.size(), 4u);
  const Body& e = bodies[1];
  EXPECT_EQ(e.gid, 1);
  EXPECT_EQ(e.shape, ShapeKind::Ellipsoid);
  EXPECT_EQ(e.semi_axes, Vec3(0.1, 0.2, 0.3));
  EXPECT_DOUBLE_EQ(e.mass, 2.0);
  EXPECT_NEAR(e.inertia.z(), 2.0 / 5.0 * (0.01 + 0.04), 1e-15);
  // [1, 0, 0, 1] normalised: a quarter turn about z takes the body x axis to world y.
  EXPECT_TRUE((e.orientation * Vec3::UnitX()).isApprox(Vec3::UnitY()));
  EXPECT_EQ(e.external_force, Vec3(0.0, 0.0, -4.0));
  const Body& t = bodies[2];
  EXPECT_EQ(t.shape, ShapeKind::Torus);
  EXPECT_DOUBLE_EQ(t.major_radius, 0.5);
  EXPECT_DOUBLE_EQ(t.radius, 0.05);
  EXPECT_TRUE((t.orientation * Vec3::UnitZ()).isApprox(Vec3::UnitX()));
  EXPECT_EQ(t.velocity, Vec3(1.0, 0.0, 0.0));
  EXPECT_EQ(t.external_force, Vec3::Zero());
  // The orientation (a half turn about x) wins over the default axis.
  EXPECT_TRUE((bodies[3].orientation * Vec3::UnitZ()).isApprox(-Vec3::UnitZ()));
  EXPECT_TRUE((bodies[3].orientation * Vec3::UnitY()).isApprox(-Vec3::UnitY()));
}

}  // namespace
}  // namespace grains
