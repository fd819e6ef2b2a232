// Kucera's method (Heyn et al. (2013) §4.4): properties of the method beyond the suites
// every solver runs (solver_lcp_test, solver_registry_test, the MPI suite).
#include "grains/solver/solver.hpp"

#include "separable_reference.hpp"
#include "solver_test_support.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace grains {
namespace {

// Rank-deficient frictionless contact problem (40 contacts on 6 bodies, no
// regularisation), from an interior warm start.
TEST(kucera_solver, ObjectiveDecreasesAtEveryStep) {
  std::mt19937 rng(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  const test::DenseFactored p = test::randomContactProblem(rng, 6, 40, 1, 0.5, 0.0);
  Eigen::VectorXd b(40), warm(40);
  for (int i = 0; i < 40; ++i) b[i] = normal(rng);
  for (int i = 0; i < 40; ++i) warm[i] = std::abs(normal(rng));
  const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Frictionless);
  test::ObjectiveTrace trace;
  const test::RunResult r = test::runObserved("kucera", qp, warm, 1e-10, 20000, {}, trace);
  EXPECT_TRUE(r.report.converged) << r.report.residual;
  ASSERT_EQ(static_cast<int>(trace.objectives.size()), r.report.iterations);
  ASSERT_GE(trace.objectives.size(), 10u);
  test::expectMonotone(trace, test::objective(p.A(), b, warm));
  EXPECT_DOUBLE_EQ(trace.objectives.back(), r.report.objective);
}

// Box model with given normal bounds (PD A, one contact with mu = 0): the
// unique solution found by enumerating the 3^9 lower/upper/free states.
TEST(kucera_solver, BoxModelMatchesThreeWayEnumeration) {
  int at_bound = 0, free_tangential = 0;
  for (unsigned seed = 1; seed <= 6; ++seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_real_distribution<double> u(0.2, 1.0);
    const test::DenseFactored p = test::randomContactProblem(rng, 3, 3, 3, 1.0, 0.05);
    const std::vector<double> mu = {0.5 * u(rng), 0.0, u(rng)};
    const std::vector<double> nb = {u(rng), u(rng), 2.0 * u(rng)};
    Eigen::VectorXd b(9), warm(9);
    for (int i = 0; i < 9; ++i) b[i] = 2.0 * normal(rng);
    for (int i = 0; i < 9; ++i) warm[i] = normal(rng);
    Eigen::VectorXd lower, upper;
    test::boxBounds(mu, nb, lower, upper);
    const Eigen::MatrixXd A = p.A();
    const Eigen::VectorXd exact = test::solveBoxByEnumeration(A, b, lower, upper);
    ASSERT_TRUE(exact.allFinite()) << "seed " << seed;
    for (int i = 0; i < 9; ++i) {
      if (i % 3 == 0 || lower[i] == upper[i]) continue;
      if (exact[i] == upper[i] || exact[i] == lower[i])
        ++at_bound;
      else
        ++free_tangential;
    }
    const QuadraticProgram qp = test::boxQp(p, b, mu, nb);
    test::ObjectiveTrace trace;
    const test::RunResult r = test::runObserved("kucera", qp, warm, 1e-11, 20000, {}, trace);
    SCOPED_TRACE("seed " + std::to_string(seed));
    EXPECT_TRUE(r.report.converged) << r.report.residual;
    EXPECT_LE((r.gamma - exact).cwiseAbs().maxCoeff(), 1e-8);
    EXPECT_NEAR(r.report.objective, test::objective(A, b, exact), 1e-10);
    const Eigen::VectorXd projected = warm.cwiseMax(lower).cwiseMin(upper);
    test::expectMonotone(trace, test::objective(A, b, projected));
  }
  EXPECT_GT(at_bound, 2);
  EXPECT_GT(free_tangential, 2);
}

// A = 1 1^T (rank one), b = -(1, ..., 5): unique solution 5 e_5 although the
// objective is unbounded on the face where every unknown is free (the CG
// directions there have zero curvature).
TEST(kucera_solver, RankOneProblem) {
  const Eigen::MatrixXd A = Eigen::MatrixXd::Ones(5, 5);
  const Eigen::VectorXd b = -Eigen::VectorXd::LinSpaced(5, 1.0, 5.0);
  Eigen::VectorXd exact = Eigen::VectorXd::Zero(5);
  exact[4] = 5.0;
  const QuadraticProgram qp = test::makeQp(A, b, FrictionModel::Frictionless, {});
  for (const Eigen::VectorXd& warm :
       {Eigen::VectorXd(Eigen::VectorXd::Zero(5)), Eigen::VectorXd(Eigen::VectorXd::Ones(5))}) {
    const test::RunResult r = test::run("kucera", qp, warm, 1e-12, 10000);
    EXPECT_TRUE(r.report.converged) << r.report.residual;
    ASSERT_TRUE(r.gamma.allFinite());
    EXPECT_LE((r.gamma - exact).cwiseAbs().maxCoeff(), 1e-10);
  }
}

// On a positive definite problem whose solution has every unknown free, the
// method is conjugate gradients from the first step: at most n CG steps (plus
// rounding slack), to the same answer as a long APGD run.
TEST(kucera_solver, InteriorSolutionIsFoundByConjugateGradients) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> u(0.5, 1.5);
  const test::DenseFactored p = test::randomDenseProblem(rng, 12, 4, 0.1);
  const Eigen::MatrixXd A = p.A();
  Eigen::VectorXd solution(12);
  for (int i = 0; i < 12; ++i) solution[i] = u(rng);
  const Eigen::VectorXd b = -A * solution;  // gradient zero at an interior point
  const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Frictionless);
  const test::RunResult r = test::run("kucera", qp, solution * 0.5, 1e-10, 1000);
  EXPECT_TRUE(r.report.converged) << r.report.residual;
  EXPECT_LE(r.report.iterations, 12 + 3);
  EXPECT_LE((r.gamma - solution).cwiseAbs().maxCoeff(), 1e-8);
  // The power estimate (10 applications) plus one per CG step plus the final measures.
  EXPECT_LE(r.report.operator_applies, 10 + r.report.iterations + 3);
}

// A step factor far above 2 / ||A|| (power estimate from one iteration on a
// matrix whose large eigenvalue the start vector barely sees) would make the
// projected steps increase q; the method halves alpha~ instead and stays a
// descent method.
TEST(kucera_solver, TooLongStepsAreHalvedNotTaken) {
  const int n = 60;
  Eigen::MatrixXd A = Eigen::MatrixXd::Identity(n, n);
  A(n - 1, n - 1) = 400.0;
  Eigen::VectorXd b(n);
  for (int i = 0; i < n; ++i) b[i] = i % 2 == 0 ? -1.0 : 1.0;
  b[n - 1] = -400.0;  // the stiff unknown ends at 1, free
  const QuadraticProgram qp = test::makeQp(A, b, FrictionModel::Frictionless, {});
  Eigen::VectorXd exact = (-b.array() / A.diagonal().array()).max(0.0);
  test::ObjectiveTrace trace;
  // The stiff unknown starts at its bound with the gradient pulling it in: a
  // proportioning step with the overestimated alpha~ would overshoot 20-fold.
  Eigen::VectorXd warm = Eigen::VectorXd::Constant(n, 2.0);
  warm[n - 1] = 0.0;
  const test::RunResult r = test::runObserved(
      "kucera", qp, warm, 1e-10, 5000, {{"power_iterations", 1}, {"step_factor", 1.9}}, trace);
  EXPECT_TRUE(r.report.converged) << r.report.residual;
  EXPECT_LE((r.gamma - exact).cwiseAbs().maxCoeff(), 1e-9);
  test::expectMonotone(trace, test::objective(A, b, warm));
}

// Gamma only changes the path (how readily indices leave the active set), not
// the answer.
TEST(kucera_solver, GammaChangesThePathNotTheSolution) {
  std::mt19937 rng(23);
  std::normal_distribution<double> normal(0.0, 1.0);
  const test::DenseFactored p = test::randomContactProblem(rng, 8, 30, 1, 1.0, 0.02);
  Eigen::VectorXd b(30);
  for (int i = 0; i < 30; ++i) b[i] = normal(rng);
  const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Frictionless);
  const Eigen::VectorXd warm = Eigen::VectorXd::Constant(30, 1.0);
  const test::RunResult base = test::run("kucera", qp, warm, 1e-10, 20000);
  ASSERT_TRUE(base.report.converged);
  bool path_changed = false;
  for (double gamma : {0.1, 10.0}) {
    const test::RunResult r = test::run("kucera", qp, warm, 1e-10, 20000, {{"gamma", gamma}});
    EXPECT_TRUE(r.report.converged) << "Gamma " << gamma;
    EXPECT_LE((r.gamma - base.gamma).cwiseAbs().maxCoeff(), 1e-7) << "Gamma " << gamma;
    path_changed = path_changed || r.report.iterations != base.report.iterations;
  }
  EXPECT_TRUE(path_changed);
}

TEST(kucera_solver, OptionsAreValidated) {
  const auto& registry = SolverRegistry::instance();
  const SolverEntry* entry = registry.find("kucera");
  ASSERT_NE(entry, nullptr);
  EXPECT_TRUE(entry->solvesDirectly(FrictionModel::Frictionless));
  EXPECT_TRUE(entry->solvesDirectly(FrictionModel::Box));
  EXPECT_TRUE(entry->supports(FrictionModel::Pyramid));
  EXPECT_FALSE(entry->supports(FrictionModel::Coulomb));
  const std::vector<std::pair<std::string, double>> bad = {
      {"gamma", 0.0},       {"gamma", 1e4},          {"step_factor", 0.0},
      {"step_factor", 2.0}, {"power_iterations", 0}, {"power_iterations", 2.5}};
  for (const auto& [key, value] : bad) {
    SolverSettings s;
    s.options[key] = value;
    EXPECT_THROW(registry.create("kucera", s), std::invalid_argument) << key << " = " << value;
  }
  SolverSettings s;
  s.options = {{"gamma", 1e-3}, {"step_factor", 1.9}, {"power_iterations", 1}};
  EXPECT_NO_THROW(registry.create("kucera", s));
}

TEST(kucera_solver, RejectsConeModelsWhenCalledDirectly) {
  const QuadraticProgram qp =
      test::makeQp(Eigen::MatrixXd::Identity(3, 3), Eigen::Vector3d(-1.0, 0.5, 0.5),
                   FrictionModel::Coulomb, {0.5});
  Vector gamma(qp.map(), true);
  const auto solver = SolverRegistry::instance().create("kucera", SolverSettings{});
  EXPECT_THROW(solver->solve(qp, gamma), std::invalid_argument);
}

}  // namespace
}  // namespace grains
