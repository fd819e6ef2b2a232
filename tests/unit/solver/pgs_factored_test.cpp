// Projected Gauss-Seidel on the factored operator A = scale D^T W D + reg I.
#include "grains/solver/solver.hpp"

#include "solver_test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace grains {
namespace {

/// A contact-structured Coulomb problem (random bodies and contacts, b with
/// unit normal entries) with the same mu at every contact.
QuadraticProgram randomCoulombProblem(unsigned seed, int bodies, int contacts, double scale,
                                      double regularisation, double mu) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  const test::DenseFactored p =
      test::randomContactProblem(rng, bodies, contacts, 3, scale, regularisation);
  Eigen::VectorXd b(3 * contacts);
  for (int i = 0; i < 3 * contacts; ++i) b[i] = normal(rng);
  return test::makeQp(p, b, FrictionModel::Coulomb,
                      std::vector<double>(static_cast<std::size_t>(contacts), mu));
}

// One frictionless row between two bodies with full inertia tensors: one
// sweep with omega = 1 is exact, gamma = max(0, -b / d) with
// d = scale * Dt W Dt^T + reg, which checks the precomputed diagonal
// (including the off-diagonal inertia terms).
TEST(PgsFactored, SingleRowIsExactAfterOneSweep) {
  std::mt19937 rng(4);
  const test::DenseFactored p = test::randomContactProblem(rng, 2, 1, 1, 0.3, 0.01);
  const double d = p.A()(0, 0);
  const QuadraticProgram qp =
      test::makeQp(p, Eigen::VectorXd::Constant(1, -2.0), FrictionModel::Frictionless);
  const test::RunResult r = test::run("pgs", qp, Eigen::VectorXd::Constant(1, 7.0), 1e-13, 10);
  EXPECT_TRUE(r.report.converged);
  EXPECT_EQ(r.report.iterations, 1);
  EXPECT_NEAR(r.gamma[0], 2.0 / d, 1e-14 * (2.0 / d));
}

// PGS and BBPGD on the same contact-structured problems (sparse D^T, 6
// columns per body, random masses and inertia tensors, A given to BBPGD as an
// explicit matrix).
TEST(PgsFactored, AgreesWithBbpgdFrictionlessAndCoulomb) {
  for (FrictionModel model : {FrictionModel::Frictionless, FrictionModel::Coulomb}) {
    const int block = unknownsPerContact(model);
    std::mt19937 rng(17);
    std::normal_distribution<double> normal(0.0, 1.0);
    const test::DenseFactored p = test::randomContactProblem(rng, 5, 9, block, 0.01, 1e-4);
    const int n = 9 * block;
    Eigen::VectorXd b(n);
    for (int i = 0; i < n; ++i) b[i] = 0.01 * normal(rng);
    std::vector<double> mu(9, 0.6);
    const QuadraticProgram qp = test::makeQp(p, b, model, mu);
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(n);
    const test::RunResult bb = test::run("bbpgd", qp, zero, 1e-12, 100000);
    const test::RunResult gs = test::run("pgs", qp, zero, 1e-12, 100000);
    SCOPED_TRACE(frictionModelName(model));
    ASSERT_TRUE(bb.report.converged);
    EXPECT_TRUE(gs.report.converged);
    EXPECT_GT((bb.gamma.array() > 1e-6).count(), 1);  // some contacts carry load
    EXPECT_LE((gs.gamma - bb.gamma).cwiseAbs().maxCoeff(), 1e-6 * bb.gamma.cwiseAbs().maxCoeff());
    EXPECT_NEAR(gs.report.objective, bb.report.objective, 1e-9 * std::abs(bb.report.objective));
    EXPECT_EQ(gs.report.operator_applies, gs.report.iterations + 1);
  }
}

// A sphere (mass m, radius R, inertia 2/5 m R^2) sliding on a plane: its
// contact block of A is diag(1/m, 3.5/m, 3.5/m), and with b pushing it into
// the plane and along x the minimiser slides on the cone's surface:
//   gamma_t = -mu gamma_n b_t / |b_t|,
//   gamma_n = (-b_n + mu |b_t|) / (d_n + mu^2 d_t).
// With option metric = 1 the sweep steps by the rows' own diagonals and
// projects in that metric, which for this block is the exact minimiser of the
// contact's subproblem: one sweep solves it. The mean-diagonal step (metric 0)
// is not exact here and needs more sweeps.
TEST(PgsFactored, MetricStepSolvesASlidingSphereContactInOneSweep) {
  const double m = 2.0, radius = 0.1, mu = 0.4;
  test::DenseFactored p;
  p.Dt = Eigen::MatrixXd::Zero(3, 6);
  p.Dt.row(0) << 0, 0, 1, 0, 0, 0;        // normal n = z, arm r = -R z: r x n = 0
  p.Dt.row(1) << 1, 0, 0, 0, -radius, 0;  // t = x: r x t = -R y
  p.Dt.row(2) << 0, 1, 0, radius, 0, 0;   // t = y: r x t = R x
  BodyMobility w;
  w.inverse_mass = 1.0 / m;
  w.inverse_inertia = Mat3::Identity() / (0.4 * m * radius * radius);
  p.mobility = {w};
  const Eigen::Vector3d b(-1.0, -3.0, 1.5);
  const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Coulomb, {mu});
  const double dn = 1.0 / m, dt = 3.5 / m;
  const double bt = std::hypot(b[1], b[2]);
  const double gn = (-b[0] + mu * bt) / (dn + mu * mu * dt);
  ASSERT_GT(bt / dt, mu * gn);  // the unconstrained tangential impulse lies outside the cone
  const Eigen::Vector3d expected(gn, -mu * gn * b[1] / bt, -mu * gn * b[2] / bt);

  const test::RunResult exact =
      test::run("pgs", qp, Eigen::Vector3d::Zero(), 1e-13, 100, {{"metric", 1.0}});
  EXPECT_TRUE(exact.report.converged);
  EXPECT_EQ(exact.report.iterations, 1);
  EXPECT_LE((exact.gamma - expected).cwiseAbs().maxCoeff(), 1e-12 * gn);

  const test::RunResult mean =
      test::run("pgs", qp, Eigen::Vector3d::Zero(), 1e-13, 100, {{"metric", 0.0}});
  EXPECT_TRUE(mean.report.converged);
  EXPECT_GT(mean.report.iterations, 3);
  EXPECT_LE((mean.gamma - expected).cwiseAbs().maxCoeff(), 1e-10 * gn);
}

// Both steps agree with APGD on random contact-structured Coulomb problems,
// with and without over-relaxation.
TEST(PgsFactored, MetricStepReachesTheCoulombOptimum) {
  const QuadraticProgram qp = randomCoulombProblem(31, 6, 12, 0.5, 1e-4, 0.5);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(36);
  const test::RunResult ref = test::run("apgd", qp, zero, 1e-12, 200000);
  ASSERT_TRUE(ref.report.converged);
  for (double omega : {1.0, 1.5}) {
    SCOPED_TRACE(omega);
    const test::RunResult r =
        test::run("pgs", qp, zero, 1e-11, 100000, {{"metric", 1.0}, {"omega", omega}});
    EXPECT_TRUE(r.report.converged);
    EXPECT_LE((r.gamma - ref.gamma).cwiseAbs().maxCoeff(), 1e-8 * ref.gamma.cwiseAbs().maxCoeff());
    EXPECT_NEAR(r.report.objective, ref.report.objective, 1e-9 * std::abs(ref.report.objective));
  }
}

// A column of K unit masses resting on the floor, frictionless, bottom
// contact first (the order of a layered pile's contact keys): contact 0
// joins the floor and body 0, contact i bodies i-1 and i. With every body
// falling at unit speed (b_0 = -1, b_i = 0) the optimum stops all of them:
// contact i carries the K - i bodies above it. Gauss-Seidel needs O(K^2)
// sweeps on such a chain in any order, and each order takes its own path
// there: bottom-up, the first sweep already puts 2^-i on contact i; top-down,
// only the floor contact moves. Every order reaches the same optimum.
TEST(PgsFactored, EverySweepOrderReachesTheRestingColumn) {
  const int k = 8;
  test::DenseFactored p;
  p.Dt = Eigen::MatrixXd::Zero(k, 6 * k);
  BodyMobility unit;
  unit.inverse_mass = 1.0;
  unit.inverse_inertia = Mat3::Identity();
  for (int i = 0; i < k; ++i) {
    p.mobility.push_back(unit);
    p.Dt(i, 6 * i + 2) = 1.0;                    // pushes body i up
    if (i > 0) p.Dt(i, 6 * (i - 1) + 2) = -1.0;  // and body i - 1 down
  }
  Eigen::VectorXd b = Eigen::VectorXd::Zero(k);
  b[0] = -1.0;
  const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Frictionless);
  Eigen::VectorXd expected(k);
  for (int i = 0; i < k; ++i) expected[i] = k - i;
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(k);

  std::vector<int> sweeps;
  for (double order : {0.0, 1.0, 2.0}) {
    SCOPED_TRACE(order);
    const test::RunResult r = test::run("pgs", qp, zero, 1e-12, 100000, {{"order", order}});
    EXPECT_TRUE(r.report.converged);
    EXPECT_LE((r.gamma - expected).cwiseAbs().maxCoeff(), 1e-10);
    sweeps.push_back(r.report.iterations);
  }
  EXPECT_GT(sweeps[0], k);  // no order solves the chain in a few sweeps
  EXPECT_NE(sweeps[0], sweeps[1]);
  EXPECT_NE(sweeps[0], sweeps[2]);
  EXPECT_NE(sweeps[1], sweeps[2]);
}

TEST(PgsFactored, RelaxationAndSparseResidualChecks) {
  const QuadraticProgram qp = randomCoulombProblem(23, 4, 6, 1.0, 1e-3, 0.3);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(18);
  const test::RunResult ref = test::run("apgd", qp, zero, 1e-12, 200000);
  ASSERT_TRUE(ref.report.converged);
  const test::RunResult r =
      test::run("pgs", qp, zero, 1e-10, 100000, {{"omega", 0.7}, {"check_every", 4}});
  EXPECT_TRUE(r.report.converged);
  EXPECT_EQ(r.report.iterations % 4, 0);  // the residual is only looked at every 4th sweep
  EXPECT_LE((r.gamma - ref.gamma).cwiseAbs().maxCoeff(), 1e-7);
}

TEST(PgsFactored, RejectsMobilityOfTheWrongSize) {
  std::mt19937 rng(2);
  const test::DenseFactored p = test::randomContactProblem(rng, 3, 2, 1, 1.0, 0.0);
  QuadraticProgram qp = test::makeQp(p, Eigen::Vector2d(-1.0, -1.0), FrictionModel::Frictionless);
  auto broken = rcp(new FactoredOperator(*qp.factored));
  broken->mobility.pop_back();
  qp.factored = broken;
  Vector gamma(qp.map(), true);
  EXPECT_THROW(SolverRegistry::instance().create("pgs", {})->solve(qp, gamma),
               std::invalid_argument);
}

}  // namespace
}  // namespace grains
