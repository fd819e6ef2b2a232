// APGD returns the best iterate it checked when it runs out of iterations:
// the returned impulses are exactly that iterate (whichever vector holds it,
// in the rotation of the iterates or set aside from it), and the report's
// residual is that iterate's.
#include "grains/solver/solver.hpp"

#include "solver_test_support.hpp"

#include <gtest/gtest.h>

#include <iostream>
#include <vector>

namespace grains {
namespace {

TEST(ApgdBestIterate, UnconvergedSolveReturnsTheBestCheckedIterate) {
  std::mt19937 rng(17);
  const int contacts = 60;
  const test::DenseFactored f = test::randomContactProblem(rng, 10, contacts, 3, 1.0, 0.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  Eigen::VectorXd b(3 * contacts);
  for (int i = 0; i < 3 * contacts; ++i) b[i] = normal(rng);
  const QuadraticProgram qp =
      test::makeQp(f, b, FrictionModel::Coulomb, std::vector<double>(contacts, 0.8));
  // Solves whose best iterate came at least three iterations before their
  // last: its vector would have been overwritten by the rotation.
  int older_best = 0;
  for (int max_iterations = 1; max_iterations <= 60; ++max_iterations) {
    SCOPED_TRACE("max_iterations " + std::to_string(max_iterations));
    SolverSettings settings;
    settings.tolerance = 1e-14;  // never met: the solve returns its best iterate
    settings.max_iterations = max_iterations;
    settings.options["check_every"] = 1;  // every iterate checked: more chances for an older best
    auto solver = SolverRegistry::instance().create("apgd", settings, FrictionModel::Coulomb);
    std::vector<Eigen::VectorXd> checked;
    std::vector<double> residuals;
    std::vector<int> at;  // the iteration of each checked iterate (0: the start)
    const auto start = test::makeVector(qp.map(), Eigen::VectorXd::Zero(3 * contacts));
    checked.push_back(test::gather(*start));
    residuals.push_back(evaluateMeasures(qp, *start).residual);
    at.push_back(0);
    solver->setObserver([&](int iteration, const Vector& gamma) {
      checked.push_back(test::gather(gamma));
      residuals.push_back(evaluateMeasures(qp, gamma).residual);
      at.push_back(iteration);
    });
    auto gamma = test::makeVector(qp.map(), Eigen::VectorXd::Zero(3 * contacts));
    const SolveReport report = solver->solve(qp, *gamma);
    ASSERT_FALSE(report.converged);
    ASSERT_EQ(report.iterations, max_iterations);

    // The first iterate of least residual (ties keep the earlier one).
    std::size_t best = 0;
    for (std::size_t k = 1; k < residuals.size(); ++k)
      if (residuals[k] < residuals[best]) best = k;
    if (max_iterations - at[best] >= 3) ++older_best;
    const Eigen::VectorXd returned = test::gather(*gamma);
    EXPECT_EQ(returned, checked[best]) << "best of " << residuals.size() << " checked: " << best;
    EXPECT_EQ(report.residual, residuals[best]);
  }
  // The residual of APGD is not monotone: some solves end well past their
  // best iterate.
  std::cout << older_best << " of 60 solves ended three or more iterations past their best\n";
  EXPECT_GE(older_best, 20);
}

}  // namespace
}  // namespace grains
