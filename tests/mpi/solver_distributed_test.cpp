// The same small contact problem, rows spread over however many ranks run the
// test (1, 2, 3 in CTest), must give the same measures and the same solution.
#include "grains/solver/solver.hpp"

#include "../../src/solver/solver_factories.hpp"
#include "../unit/solver/solver_test_support.hpp"

#include <gtest/gtest.h>

namespace grains {
namespace {

struct GlobalProblem {
  test::DenseFactored factored;
  std::vector<double> mu;
  Eigen::VectorXd b;
  Eigen::VectorXd solution;
};

// 8 bodies and 14 contacts between random pairs, so many contacts couple
// bodies owned by different ranks; built identically on every rank.
GlobalProblem globalProblem(FrictionModel model) {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> mu_dist(0.2, 0.8);
  GlobalProblem g;
  g.factored = test::randomContactProblem(rng, 8, 14, unknownsPerContact(model), 0.5, 0.05);
  g.mu.resize(14);
  for (auto& m : g.mu) m = mu_dist(rng);
  g.b = test::knownSolutionRhs(rng, g.factored.A(), model, g.mu, g.solution);
  return g;
}

TEST(SolverDistributed, MeasuresMatchTheDenseComputation) {
  const GlobalProblem g = globalProblem(FrictionModel::Coulomb);
  const QuadraticProgram qp = test::makeQp(g.factored, g.b, FrictionModel::Coulomb, g.mu);
  Eigen::VectorXd x(g.b.size());
  for (Eigen::Index i = 0; i < x.size(); ++i) x[i] = std::sin(1.0 + 0.7 * static_cast<double>(i));
  auto gamma = test::makeVector(qp.map(), x);
  const QpMeasures m = evaluateMeasures(qp, *gamma);
  // Dense reference, the same on every rank.
  const Eigen::MatrixXd A = g.factored.A();
  Eigen::VectorXd z = x - (A * x + g.b);
  for (int c = 0; c < 14; ++c) projectCoulombCone(g.mu[c], z[3 * c], z[3 * c + 1], z[3 * c + 2]);
  EXPECT_NEAR(m.residual, (x - z).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_NEAR(m.objective, test::objective(A, g.b, x), 1e-11);
}

class SolverDistributedParam
    : public ::testing::TestWithParam<std::tuple<std::string, FrictionModel>> {};

TEST_P(SolverDistributedParam, SolutionIndependentOfRankCount) {
  const auto [solver, model] = GetParam();
  const GlobalProblem g = globalProblem(model);
  const QuadraticProgram qp = test::makeQp(g.factored, g.b, model, g.mu);
  const test::RunResult r = test::run(solver, qp, Eigen::VectorXd::Zero(g.b.size()), 1e-10, 100000);
  EXPECT_TRUE(r.report.converged) << "residual " << r.report.residual << " iterations "
                                  << r.report.iterations << " measured " << r.measures.residual;
  EXPECT_GT(r.report.iterations, 0);
  EXPECT_LE((r.gamma - g.solution).cwiseAbs().maxCoeff(), 1e-7);
  EXPECT_NEAR(r.report.objective, test::objective(g.factored.A(), g.b, g.solution), 1e-9);
  EXPECT_DOUBLE_EQ(r.report.residual, r.measures.residual);
}

// mprgp is not in the registry (docs/solvers.md); its collective reductions
// must still give the same answer on any number of ranks.
TEST(SolverDistributed, MprgpSolutionIndependentOfRankCount) {
  const GlobalProblem g = globalProblem(FrictionModel::Frictionless);
  const QuadraticProgram qp = test::makeQp(g.factored, g.b, FrictionModel::Frictionless, g.mu);
  SolverSettings settings;
  settings.tolerance = 1e-10;
  settings.max_iterations = 100000;
  settings.options = {
      {"gamma", 1.0}, {"step_factor", 1.0}, {"power_iterations", 5}, {"expansion", 0}};
  const auto solver = solver_detail::makeMprgpSolver(settings);
  auto gamma = test::makeVector(qp.map(), Eigen::VectorXd::Zero(g.b.size()));
  const SolveReport report = solver->solve(qp, *gamma);
  const Eigen::VectorXd x = test::gather(*gamma);
  EXPECT_TRUE(report.converged) << report.residual;
  EXPECT_GT(report.iterations, 0);
  EXPECT_LE((x - g.solution).cwiseAbs().maxCoeff(), 1e-7);
  EXPECT_NEAR(report.objective, test::objective(g.factored.A(), g.b, g.solution), 1e-9);
  EXPECT_DOUBLE_EQ(report.residual, evaluateMeasures(qp, *gamma).residual);
}

INSTANTIATE_TEST_SUITE_P(Solvers, SolverDistributedParam,
                         ::testing::ValuesIn(test::solverModelPairs({FrictionModel::Frictionless,
                                                                     FrictionModel::Coulomb})),
                         [](const auto& param_info) {
                           return std::get<0>(param_info.param) + "_" +
                                  frictionModelName(std::get<1>(param_info.param));
                         });

}  // namespace
}  // namespace grains
