// The coulomb_rolling contact set (sliding cone, rolling disc, spinning
// interval sharing one normal unknown): its exact projection against brute
// force, and every solver that accepts the model on uncoupled contacts, whose
// solution is the projection of -b / a.
#include "grains/solver/cone_set.hpp"
#include "grains/solver/solver.hpp"

#include "solver_test_support.hpp"

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <random>

namespace grains {
namespace {

using Vector6 = Eigen::Matrix<double, 6, 1>;

ConeSet rollingSet(double mu, double rolling, double spinning) {
  ConeSet set;
  set.model = FrictionModel::CoulombRolling;
  set.mu = {mu};
  set.rolling = {rolling};
  set.spinning = {spinning};
  return set;
}

Vector6 projected(const ConeSet& set, const Vector6& x) {
  Vector6 p = x;
  set.projectContact(0, p.data());
  return p;
}

/// The point of the slice at normal value n closest to x: t, r, s clipped.
Vector6 clippedAt(double n, double mu, double rolling, double spinning, const Vector6& x) {
  Vector6 p = x;
  p[0] = n;
  const auto clip = [](double bound, double& a, double& b) {
    const double m = std::hypot(a, b);
    if (m > bound) {
      a = m > 0.0 ? a * bound / m : 0.0;
      b = m > 0.0 ? b * bound / m : 0.0;
    }
  };
  clip(mu * n, p[1], p[2]);
  clip(rolling * n, p[3], p[4]);
  p[5] = std::clamp(p[5], -spinning * n, spinning * n);
  return p;
}

/// Brute force: the distance to the slice is convex in n >= 0; a dense scan
/// brackets its minimiser, then golden-section search to machine precision.
Vector6 bruteForceProjection(double mu, double rolling, double spinning, const Vector6& x) {
  const auto distance = [&](double n) {
    return (clippedAt(n, mu, rolling, spinning, x) - x).squaredNorm();
  };
  const double top = 2.0 * x.norm() + 1.0;
  const int samples = 4000;
  int best = 0;
  for (int k = 1; k <= samples; ++k)
    if (distance(top * k / samples) < distance(top * best / samples)) best = k;
  double lo = top * std::max(best - 1, 0) / samples,
         hi = top * std::min(best + 1, samples) / samples;
  const double phi = 0.5 * (std::sqrt(5.0) - 1.0);
  for (int it = 0; it < 200; ++it) {
    const double m1 = hi - phi * (hi - lo), m2 = lo + phi * (hi - lo);
    if (distance(m1) <= distance(m2))
      hi = m2;
    else
      lo = m1;
  }
  return clippedAt(0.5 * (lo + hi), mu, rolling, spinning, x);
}

TEST(RollingConeProjection, MatchesBruteForce) {
  std::mt19937 rng(2024);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> coefficient(0.0, 1.5);
  int on_boundary = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    // Some coefficients zero: the part is then forced to zero.
    const double mu = trial % 11 == 0 ? 0.0 : coefficient(rng);
    const double rolling = trial % 7 == 0 ? 0.0 : coefficient(rng);
    const double spinning = trial % 5 == 0 ? 0.0 : coefficient(rng);
    Vector6 x;
    for (int k = 0; k < 6; ++k) x[k] = 2.0 * normal(rng);
    const Vector6 p = projected(rollingSet(mu, rolling, spinning), x);
    const Vector6 q = bruteForceProjection(mu, rolling, spinning, x);
    SCOPED_TRACE("trial " + std::to_string(trial));
    ASSERT_LE((p - q).norm(), 1e-7 * (1.0 + x.norm()));
    // The exact projection is never farther than the brute-force one.
    EXPECT_LE((p - x).norm(), (q - x).norm() + 1e-12);
    if (p[0] > 0.0 && (p - x).norm() > 1e-9) ++on_boundary;
  }
  EXPECT_GT(on_boundary, 1000);  // the interesting case was exercised
}

// Projection characterisation: p = Pi(x) iff p in K and (x - p).(y - p) <= 0
// for every y in K.
TEST(RollingConeProjection, VariationalInequalityAndIdempotence) {
  std::mt19937 rng(5);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> coefficient(0.0, 1.0);
  for (int trial = 0; trial < 300; ++trial) {
    const ConeSet set = rollingSet(coefficient(rng), coefficient(rng), coefficient(rng));
    Vector6 x;
    for (int k = 0; k < 6; ++k) x[k] = 2.0 * normal(rng);
    const Vector6 p = projected(set, x);
    EXPECT_LE((projected(set, p) - p).norm(), 1e-12);
    EXPECT_GE(p[0], 0.0);
    EXPECT_LE(std::hypot(p[1], p[2]), set.mu[0] * p[0] + 1e-12);
    EXPECT_LE(std::hypot(p[3], p[4]), set.rolling[0] * p[0] + 1e-12);
    EXPECT_LE(std::abs(p[5]), set.spinning[0] * p[0] + 1e-12);
    for (int k = 0; k < 40; ++k) {
      Vector6 y;
      for (int j = 0; j < 6; ++j) y[j] = 2.0 * normal(rng);
      y = projected(set, y);
      EXPECT_LE((x - p).dot(y - p), 1e-10 * (1.0 + x.norm() * y.norm()));
    }
  }
}

TEST(RollingConeProjection, CasesByHand) {
  // Inside: unchanged.
  Vector6 x;
  x << 1.0, 0.1, 0.2, 0.05, -0.05, 0.01;
  EXPECT_EQ(projected(rollingSet(0.5, 0.2, 0.1), x), x);
  // Polar: everything to the apex.
  x << -1.0, 0.1, 0.0, 0.1, 0.0, 0.1;
  EXPECT_EQ(projected(rollingSet(0.5, 0.5, 0.5), x), Vector6::Zero());
  // Only the spinning bound violated, s0 = 2 with k_s = 1, n0 = 0:
  // min (n)^2 + (2 - n)^2 at n = 1; s = 1.
  x << 0.0, 0.0, 0.0, 0.0, 0.0, 2.0;
  Vector6 p = projected(rollingSet(0.5, 0.5, 1.0), x);
  EXPECT_NEAR(p[0], 1.0, 1e-15);
  EXPECT_NEAR(p[5], 1.0, 1e-15);
  // Rolling and sliding both active: n0 = 0, |t0| = |r0| = 1, mu = k_r = 1:
  // min n^2 + 2 (1 - n)^2 at n = 2/3.
  x << 0.0, 1.0, 0.0, 0.0, -1.0, 0.0;
  p = projected(rollingSet(1.0, 1.0, 0.3), x);
  EXPECT_NEAR(p[0], 2.0 / 3.0, 1e-15);
  EXPECT_NEAR(p[1], 2.0 / 3.0, 1e-15);
  EXPECT_NEAR(p[4], -2.0 / 3.0, 1e-15);
}

// With zero rolling and spinning coefficients the normal and sliding parts
// are exactly the Coulomb cone's projection.
TEST(RollingConeProjection, ZeroCoefficientsReduceToTheCoulombCone) {
  std::mt19937 rng(9);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int trial = 0; trial < 500; ++trial) {
    const double mu = std::abs(normal(rng));
    Vector6 x;
    for (int k = 0; k < 6; ++k) x[k] = normal(rng);
    const Vector6 p = projected(rollingSet(mu, 0.0, 0.0), x);
    double n = x[0], u = x[1], w = x[2];
    projectCoulombCone(mu, n, u, w);
    EXPECT_NEAR(p[0], n, 1e-14);
    EXPECT_NEAR(p[1], u, 1e-14);
    EXPECT_NEAR(p[2], w, 1e-14);
    EXPECT_EQ(p.tail<3>(), Eigen::Vector3d::Zero());
  }
}

TEST(RollingConeProjection, MissingCoefficientsAreAnError) {
  ConeSet set;
  set.model = FrictionModel::CoulombRolling;
  set.mu = {0.5, 0.5};
  std::vector<double> values(12, 1.0);
  EXPECT_THROW(set.project(values.data()), std::invalid_argument);
  set.rolling = {0.1, 0.1};
  set.spinning = {0.1, 0.1};
  EXPECT_NO_THROW(set.project(values.data()));
  EXPECT_EQ(set.blockSize(), 6);
  EXPECT_EQ(parseFrictionModel("coulomb_rolling"), FrictionModel::CoulombRolling);
}

// Uncoupled contacts, A = a_c I6 per contact: the solution is Pi_K(-b / a).
TEST(RollingConeSolvers, UncoupledContactsMatchTheProjection) {
  std::mt19937 rng(41);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> u(0.3, 3.0);
  const int contacts = 12;
  test::DenseFactored p;
  p.Dt = Eigen::MatrixXd::Zero(6 * contacts, 6 * contacts);
  Eigen::VectorXd b(6 * contacts);
  std::vector<double> mu(contacts), rolling(contacts), spinning(contacts);
  for (int c = 0; c < contacts; ++c) {
    BodyMobility w;
    w.inverse_mass = u(rng);
    w.inverse_inertia = Mat3::Identity() * w.inverse_mass;
    p.mobility.push_back(w);
    for (int k = 0; k < 6; ++k) p.Dt(6 * c + k, 6 * c + k) = 1.0;
    mu[c] = 0.5 * u(rng);
    rolling[c] = c % 3 == 0 ? 0.0 : 0.1 * u(rng);
    spinning[c] = c % 4 == 0 ? 0.0 : 0.05 * u(rng);
    b[6 * c] = c % 5 == 4 ? std::abs(normal(rng)) : -std::abs(normal(rng));
    for (int k = 1; k < 6; ++k) b[6 * c + k] = normal(rng);
  }
  Eigen::VectorXd exact(6 * contacts);
  for (int c = 0; c < contacts; ++c) {
    Vector6 g = -b.segment<6>(6 * c) / p.mobility[c].inverse_mass;
    g = projected(rollingSet(mu[c], rolling[c], spinning[c]), g);
    exact.segment<6>(6 * c) = g;
  }
  int checked = 0;
  for (const std::string& solver : test::solversFor(FrictionModel::CoulombRolling)) {
    QuadraticProgram qp = test::makeQp(p, b, FrictionModel::CoulombRolling, mu);
    for (std::size_t k = 0; k < qp.cones.localContacts(); ++k) {
      const GlobalOrdinal row = qp.map()->getGlobalElement(static_cast<LocalOrdinal>(6 * k));
      qp.cones.rolling.push_back(rolling[static_cast<std::size_t>(row / 6)]);
      qp.cones.spinning.push_back(spinning[static_cast<std::size_t>(row / 6)]);
    }
    const test::RunResult r = test::run(solver, qp, Eigen::VectorXd::Zero(b.size()), 1e-11, 20000);
    SCOPED_TRACE(solver);
    EXPECT_TRUE(r.report.converged) << r.report.residual;
    EXPECT_LE((r.gamma - exact).cwiseAbs().maxCoeff(), 1e-9);
    ++checked;
  }
  EXPECT_GE(checked, 2);  // at least apgd and bbpgd
  for (const char* required : {"apgd", "bbpgd"})
    EXPECT_TRUE(
        SolverRegistry::instance().find(required)->solvesDirectly(FrictionModel::CoulombRolling))
        << required;
}

}  // namespace
}  // namespace grains
