// Every solver on small frictionless LCPs against exact references.
#include "grains/solver/solver.hpp"

#include "solver_test_support.hpp"

#include <gtest/gtest.h>

namespace grains {
namespace {

class FrictionlessLcp : public ::testing::TestWithParam<std::string> {};

// A = Dt W Dt^T + 0.05 I (= M^T M + small diagonal), random b, sizes 3..8:
// the solution is unique and found exactly by enumerating the 2^n active sets.
TEST_P(FrictionlessLcp, MatchesActiveSetEnumeration) {
  const std::string solver = GetParam();
  std::mt19937 rng(11);
  std::normal_distribution<double> normal(0.0, 1.0);
  int active_total = 0;
  for (int n = 3; n <= 8; ++n) {
    for (int repeat = 0; repeat < 3; ++repeat) {
      const test::DenseFactored p = test::randomDenseProblem(rng, n, 1, 0.05);
      const Eigen::MatrixXd A = p.A();
      Eigen::VectorXd b(n), warm(n);
      for (int i = 0; i < n; ++i) b[i] = normal(rng);
      for (int i = 0; i < n; ++i) warm[i] = normal(rng);  // partly infeasible: projected first
      const Eigen::VectorXd exact = test::solveLcpByEnumeration(A, b);
      ASSERT_TRUE(exact.allFinite());
      active_total += static_cast<int>((exact.array() > 0.0).count());

      const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Frictionless);
      const test::RunResult r = test::run(solver, qp, warm, 1e-11, 50000);
      SCOPED_TRACE("n = " + std::to_string(n) + ", repeat " + std::to_string(repeat));
      EXPECT_TRUE(r.report.converged);
      EXPECT_EQ(r.report.solver, solver);
      EXPECT_LE(r.report.residual, 1e-11);
      EXPECT_GT(r.report.iterations, 0);
      EXPECT_LE((r.gamma - exact).cwiseAbs().maxCoeff(), 1e-8 * (1.0 + exact.norm()));
      EXPECT_NEAR(r.report.objective, test::objective(A, b, exact), 1e-10);
      // The report describes the returned iterate.
      EXPECT_DOUBLE_EQ(r.report.residual, r.measures.residual);
      EXPECT_DOUBLE_EQ(r.report.objective, r.measures.objective);
    }
  }
  EXPECT_GT(active_total, 10);  // the problems mix active and inactive contacts
}

// Rank-deficient A (8 unknowns, one body: rank <= 6, no regularisation):
// gamma is not unique, but the optimal objective is -1/2 z*^T A z* for any
// solution z* (b built from z* and a complementary w* >= 0).
TEST_P(FrictionlessLcp, DegeneratePsdProblemReachesTheOptimalObjective) {
  const std::string solver = GetParam();
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(0.2, 1.0);
  for (int repeat = 0; repeat < 3; ++repeat) {
    const test::DenseFactored p = test::randomDenseProblem(rng, 8, 1, 0.0);
    const Eigen::MatrixXd A = p.A();
    Eigen::VectorXd z = Eigen::VectorXd::Zero(8), w = Eigen::VectorXd::Zero(8);
    for (int i = 0; i < 8; ++i) (i % 3 == 0 ? w : z)[i] = u(rng);
    const Eigen::VectorXd b = w - A * z;
    const double optimum = -0.5 * z.dot(A * z);
    const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Frictionless);
    const test::RunResult r = test::run(solver, qp, Eigen::VectorXd::Zero(8), 1e-9, 200000);
    EXPECT_TRUE(r.report.converged) << solver << " residual " << r.report.residual;
    EXPECT_NEAR(r.report.objective, optimum, 1e-7 * (1.0 + std::abs(optimum)));
    EXPECT_GE(r.gamma.minCoeff(), 0.0);
  }
}

TEST_P(FrictionlessLcp, IterationCapIsNotConvergence) {
  const std::string solver = GetParam();
  std::mt19937 rng(3);
  std::normal_distribution<double> normal(0.0, 1.0);
  const test::DenseFactored p = test::randomDenseProblem(rng, 8, 1, 0.01);
  Eigen::VectorXd b(8);
  for (int i = 0; i < 8; ++i) b[i] = normal(rng);
  const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Frictionless);
  const test::RunResult r = test::run(solver, qp, Eigen::VectorXd::Zero(8), 1e-14, 2);
  EXPECT_FALSE(r.report.converged);
  EXPECT_EQ(r.report.iterations, 2);
  EXPECT_GT(r.report.residual, 1e-14);
  EXPECT_GT(r.report.operator_applies, 0);
  EXPECT_DOUBLE_EQ(r.report.residual, r.measures.residual);
  EXPECT_DOUBLE_EQ(r.report.objective, r.measures.objective);

  // No iterations allowed: the projected warm start is returned, unconverged.
  const test::RunResult none = test::run(solver, qp, -Eigen::VectorXd::Ones(8), 1e-14, 0);
  EXPECT_FALSE(none.report.converged);
  EXPECT_EQ(none.report.iterations, 0);
  EXPECT_EQ(none.gamma, Eigen::VectorXd::Zero(8));
}

TEST_P(FrictionlessLcp, WarmStartAtTheSolutionNeedsNoIteration) {
  const std::string solver = GetParam();
  std::mt19937 rng(9);
  const test::DenseFactored p = test::randomDenseProblem(rng, 5, 1, 0.1);
  const Eigen::MatrixXd A = p.A();
  Eigen::VectorXd b(5);
  b << -1.0, 0.5, -0.3, 2.0, -0.7;
  const Eigen::VectorXd exact = test::solveLcpByEnumeration(A, b);
  const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Frictionless);
  const test::RunResult r = test::run(solver, qp, exact, 1e-8, 100);
  EXPECT_TRUE(r.report.converged);
  EXPECT_EQ(r.report.iterations, 0);
  EXPECT_LE((r.gamma - exact).cwiseAbs().maxCoeff(), 1e-12);
}

INSTANTIATE_TEST_SUITE_P(Solvers, FrictionlessLcp, ::testing::ValuesIn(test::allSolvers()));

}  // namespace
}  // namespace grains
