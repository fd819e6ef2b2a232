// Projected Gauss-Seidel on the factored operator A = scale D^T W D + reg I.
#include "grains/solver/solver.hpp"

#include "solver_test_support.hpp"

#include <gtest/gtest.h>

namespace grains {
namespace {

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

TEST(PgsFactored, RelaxationAndSparseResidualChecks) {
  std::mt19937 rng(23);
  std::normal_distribution<double> normal(0.0, 1.0);
  const test::DenseFactored p = test::randomContactProblem(rng, 4, 6, 3, 1.0, 1e-3);
  Eigen::VectorXd b(18);
  for (int i = 0; i < 18; ++i) b[i] = normal(rng);
  const QuadraticProgram qp =
      test::makeQp(p, b, FrictionModel::Coulomb, std::vector<double>(6, 0.3));
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
