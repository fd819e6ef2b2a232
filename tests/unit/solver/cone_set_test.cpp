// Friction-model names and the exact projection onto the Coulomb cone.
#include "grains/solver/cone_set.hpp"

#include "solver_test_support.hpp"

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <random>
#include <stdexcept>

namespace grains {
namespace {

Eigen::Vector3d projected(double mu, const Eigen::Vector3d& x) {
  Eigen::Vector3d p = x;
  projectCoulombCone(mu, p[0], p[1], p[2]);
  return p;
}

TEST(FrictionModel, NamesRoundTripAndUnknownsPerContact) {
  EXPECT_EQ(frictionModelName(FrictionModel::Frictionless), "frictionless");
  EXPECT_EQ(frictionModelName(FrictionModel::Coulomb), "coulomb");
  EXPECT_EQ(parseFrictionModel("frictionless"), FrictionModel::Frictionless);
  EXPECT_EQ(parseFrictionModel("coulomb"), FrictionModel::Coulomb);
  EXPECT_EQ(unknownsPerContact(FrictionModel::Frictionless), 1);
  EXPECT_EQ(unknownsPerContact(FrictionModel::Coulomb), 3);
}

TEST(FrictionModel, ParseRejectsUnknownNameListingAcceptedValues) {
  try {
    parseFrictionModel("coloumb");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("coloumb"), std::string::npos) << msg;
    EXPECT_NE(msg.find("pyramid"), std::string::npos) << msg;
    EXPECT_NE(msg.find("frictionless"), std::string::npos) << msg;
    EXPECT_NE(msg.find("coulomb"), std::string::npos) << msg;
  }
}

TEST(CoulombCone, InsidePointIsUnchanged) {
  const Eigen::Vector3d x(1.0, 0.3, 0.4);  // |t| = 0.5 <= 1 * 1
  EXPECT_EQ(projected(1.0, x), x);
}

TEST(CoulombCone, PolarConePointGoesToZero) {
  // mu |t| = 0.5 * 0.5 = 0.25 <= -n = 1
  const Eigen::Vector3d p = projected(0.5, Eigen::Vector3d(-1.0, 0.3, 0.4));
  EXPECT_EQ(p, Eigen::Vector3d::Zero());
}

TEST(CoulombCone, OtherPointsGoToTheBoundary) {
  // (0, 1, 0) with mu = 1: n' = (0 + 1) / 2, t' = n' * (1, 0).
  EXPECT_TRUE(projected(1.0, Eigen::Vector3d(0.0, 1.0, 0.0))
                  .isApprox(Eigen::Vector3d(0.5, 0.5, 0.0), 1e-15));
  // (1, 3, 4) with mu = 0.5: |t| = 5, n' = (1 + 2.5) / 1.25 = 2.8, |t'| = 1.4.
  const Eigen::Vector3d p = projected(0.5, Eigen::Vector3d(1.0, 3.0, 4.0));
  EXPECT_NEAR(p[0], 2.8, 1e-14);
  EXPECT_NEAR(p[1], 1.4 * 0.6, 1e-14);
  EXPECT_NEAR(p[2], 1.4 * 0.8, 1e-14);
}

TEST(CoulombCone, HugeValuesAreDecidedWithoutOverflowingSquares) {
  // The inside/polar tests run on squares, which overflow beyond ~1e154; such
  // points must still land in the right case. mu = 0.5 throughout.
  // Polar: mu |t| = 5e159 <= -n = 1e200.
  EXPECT_EQ(projected(0.5, Eigen::Vector3d(-1e200, 6e159, 8e159)), Eigen::Vector3d::Zero());
  // Not polar: mu |t| = 2.5e200 > -n = 1e200, so onto the boundary with
  // n' = (-1e200 + 2.5e200) / 1.25 = 1.2e200 and |t'| = mu n' = 6e199.
  const Eigen::Vector3d p = projected(0.5, Eigen::Vector3d(-1e200, 3e200, 4e200));
  EXPECT_NEAR(p[0] / 1.2e200, 1.0, 1e-14);
  EXPECT_NEAR(p[1] / (6e199 * 0.6), 1.0, 1e-14);
  EXPECT_NEAR(p[2] / (6e199 * 0.8), 1.0, 1e-14);
  // Inside: |t| = 5e198 < mu n = 5e199.
  const Eigen::Vector3d inside(1e200, 3e198, 4e198);
  EXPECT_EQ(projected(0.5, inside), inside);
  // Exactly on the polar boundary: mu |t| = 0.5 = -n.
  EXPECT_EQ(projected(0.5, Eigen::Vector3d(-0.5, 0.6, 0.8)), Eigen::Vector3d::Zero());
}

TEST(CoulombCone, ZeroFrictionIsTheHalfLine) {
  EXPECT_EQ(projected(0.0, Eigen::Vector3d(2.0, 3.0, -4.0)), Eigen::Vector3d(2.0, 0.0, 0.0));
  EXPECT_EQ(projected(0.0, Eigen::Vector3d(-1.0, 3.0, 4.0)), Eigen::Vector3d::Zero());
}

TEST(CoulombCone, MoreauPropertiesOnRandomPoints) {
  std::mt19937 rng(7);
  std::normal_distribution<double> n(0.0, 2.0);
  std::uniform_real_distribution<double> mu_dist(0.0, 2.0);
  int boundary_cases = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const double mu = trial % 10 == 0 ? 0.0 : mu_dist(rng);
    const Eigen::Vector3d x(n(rng), n(rng), n(rng));
    const Eigen::Vector3d y(n(rng), n(rng), n(rng));
    const Eigen::Vector3d p = projected(mu, x);
    const double tol = 1e-12 * (1.0 + x.norm());
    // In the cone.
    EXPECT_LE(p.tail<2>().norm(), mu * p[0] + tol);
    EXPECT_GE(p[0], -tol);
    // Idempotent.
    EXPECT_LE((projected(mu, p) - p).norm(), tol);
    // x - Pi x is orthogonal to Pi x and lies in the polar cone {mu |t| <= -n}.
    const Eigen::Vector3d q = x - p;
    EXPECT_NEAR(q.dot(p), 0.0, tol * (1.0 + x.norm()));
    EXPECT_LE(mu * q.tail<2>().norm(), -q[0] + tol);
    // Non-expansive.
    EXPECT_LE((p - projected(mu, y)).norm(), (x - y).norm() + tol);
    // Nearest point: no cone point sampled is closer.
    Eigen::Vector3d k(std::abs(n(rng)), n(rng), n(rng));
    k.tail<2>() *= mu * k[0] / std::max(k.tail<2>().norm(), 1e-300) * 0.999;
    EXPECT_LE((x - p).norm(), (x - k).norm() + tol);
    if (mu > 0.0 && p.norm() > 0.0 && q.norm() > 0.0) ++boundary_cases;
  }
  EXPECT_GT(boundary_cases, 500);  // the sampling really exercised the boundary case
}

TEST(ConeSet, ProjectsRawArraysPerContact) {
  ConeSet cones;
  cones.model = FrictionModel::Coulomb;
  cones.mu = {1.0, 0.5, 0.0};
  std::vector<double> v = {0.0, 1.0, 0.0, -1.0, 0.3, 0.4, 2.0, 3.0, -4.0};
  cones.project(v.data());
  const std::vector<double> expected = {0.5, 0.5, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0};
  for (std::size_t i = 0; i < v.size(); ++i) EXPECT_NEAR(v[i], expected[i], 1e-15) << i;

  ConeSet frictionless;
  frictionless.mu = {0.3, 0.3, 0.3};
  std::vector<double> w = {-1.0, 0.0, 2.5};
  frictionless.project(w.data());
  EXPECT_EQ(w, (std::vector<double>{0.0, 0.0, 2.5}));
}

TEST(ConeSet, ProjectsTpetraVectorsAndChecksTheLength) {
  const auto map = test::contactRowMap(2, 3);
  Eigen::VectorXd global(6);
  global << 0.0, 1.0, 0.0, 1.0, 3.0, 4.0;
  auto v = test::makeVector(map, global);
  ConeSet cones;
  cones.model = FrictionModel::Coulomb;
  for (std::size_t k = 0; k < map->getNodeNumElements() / 3; ++k)
    cones.mu.push_back(map->getGlobalElement(static_cast<LocalOrdinal>(3 * k)) == 0 ? 1.0 : 0.5);
  cones.project(*v);
  const Eigen::VectorXd result = test::gather(*v);
  Eigen::VectorXd expected(6);
  expected << 0.5, 0.5, 0.0, 2.8, 1.4 * 0.6, 1.4 * 0.8;
  EXPECT_LE((result - expected).cwiseAbs().maxCoeff(), 1e-14);

  cones.mu.push_back(0.1);  // one contact too many for the vector
  EXPECT_THROW(cones.project(*v), std::invalid_argument);
}

}  // namespace
}  // namespace grains
