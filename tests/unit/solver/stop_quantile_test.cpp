// A solve that stops at a quantile of the contacts (Solver::setStopQuantile,
// the time stepper's rest_bulk_stop): it returns once that share of the
// contacts meets the scaled tolerance and every contact the configured one,
// which on a problem with a few slow contacts is well before every contact
// meets the scaled tolerance.
#include "grains/solver/solver.hpp"

#include "solver_test_support.hpp"

#include <gtest/gtest.h>

namespace grains {
namespace {

struct StoppedSolve {
  SolveReport report;
  ResidualSpread spread;  ///< of the returned iterate, at the stop quantile
};

StoppedSolve solveFromZero(const QuadraticProgram& qp, double tolerance, double scale,
                           double quantile) {
  SolverSettings settings;
  settings.tolerance = tolerance;
  settings.max_iterations = 100000;
  auto solver = SolverRegistry::instance().create("apgd", settings, qp.cones.model);
  solver->setToleranceScale(scale);
  solver->setStopQuantile(quantile);
  const auto gamma = test::makeVector(qp.map(), Eigen::VectorXd::Zero(qp.b->getGlobalLength()));
  StoppedSolve out;
  out.report = solver->solve(qp, *gamma);
  out.spread = evaluateResidualSpread(qp, *gamma, quantile);
  return out;
}

TEST(StopQuantile, ApgdStopsOnceTheBulkMeetsTheTargetAndEveryContactTheTolerance) {
  // 80 Coulomb contacts among 30 random bodies (well-conditioned: regularised).
  std::mt19937 rng(11);
  const int contacts = 80;
  const test::DenseFactored f = test::randomContactProblem(rng, 30, contacts, 3, 1.0, 1e-3);
  std::normal_distribution<double> normal(0.0, 1.0);
  Eigen::VectorXd b(3 * contacts);
  for (int i = 0; i < 3 * contacts; ++i) b[i] = normal(rng);
  const QuadraticProgram qp =
      test::makeQp(f, b, FrictionModel::Coulomb, std::vector<double>(contacts, 0.5));
  const double tolerance = 1e-3, scale = 1e-4, target = tolerance * scale;

  const StoppedSolve worst = solveFromZero(qp, tolerance, scale, 1.0);
  const StoppedSolve bulk = solveFromZero(qp, tolerance, scale, 0.8);
  std::cout << "worst-contact stop: " << worst.report.iterations
            << " iterations; stop at 0.8: " << bulk.report.iterations << " iterations, worst "
            << bulk.spread.worst << ", 0.8 quantile " << bulk.spread.quantile << "\n";
  ASSERT_TRUE(worst.report.converged);
  EXPECT_LE(worst.spread.worst, target);
  // The bulk stop: 80 % of the contacts at the target, none above the
  // configured tolerance; here some contact is still above the target, and
  // the solve needed fewer iterations for it.
  EXPECT_LE(bulk.spread.quantile, target);
  EXPECT_LE(bulk.spread.worst, tolerance);
  EXPECT_GT(bulk.spread.worst, target);
  EXPECT_LT(bulk.report.iterations, worst.report.iterations);
  EXPECT_EQ(bulk.report.residual, bulk.spread.worst);
  EXPECT_FALSE(bulk.report.converged);  // against the target (the time stepper judges τ)

  // With the scale at 1 the bulk stop is the plain one: both stop at the tolerance.
  const StoppedSolve plain = solveFromZero(qp, tolerance, 1.0, 1.0);
  const StoppedSolve plain_bulk = solveFromZero(qp, tolerance, 1.0, 0.8);
  EXPECT_EQ(plain.report.iterations, plain_bulk.report.iterations);
  EXPECT_EQ(plain.report.residual, plain_bulk.report.residual);
}

TEST(StopQuantile, OnlySolversThatSupportItTakeAQuantileBelowOne) {
  SolverSettings settings;
  const auto apgd = SolverRegistry::instance().create("apgd", settings, FrictionModel::Coulomb);
  EXPECT_TRUE(apgd->supportsStopQuantile());
  EXPECT_THROW(apgd->setStopQuantile(0.0), std::invalid_argument);
  EXPECT_THROW(apgd->setStopQuantile(1.5), std::invalid_argument);
  const auto jacobi = SolverRegistry::instance().create("jacobi", settings, FrictionModel::Coulomb);
  EXPECT_FALSE(jacobi->supportsStopQuantile());
  EXPECT_THROW(jacobi->setStopQuantile(0.9), std::invalid_argument);
  EXPECT_NO_THROW(jacobi->setStopQuantile(1.0));
  // The friction fixed point (box friction over apgd) stops on its outer loop.
  const auto fixed_point = SolverRegistry::instance().create("apgd", settings, FrictionModel::Box);
  EXPECT_FALSE(fixed_point->supportsStopQuantile());
}

}  // namespace
}  // namespace grains
