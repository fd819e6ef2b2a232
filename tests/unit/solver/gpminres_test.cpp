// GPMINRES (Heyn et al. (2013) §4.2): properties of the method beyond the suites every
// solver runs (solver_lcp_test, solver_registry_test, the MPI suite).
#include "grains/solver/solver.hpp"

#include "separable_reference.hpp"
#include "solver_test_support.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace grains {
namespace {

// Rank-deficient frictionless contact problem (40 contacts on 6 bodies: rank
// <= 36, no regularisation): every outer iteration lowers the objective, and
// the method converges.
TEST(gpminres_solver, ObjectiveNeverIncreasesOnADegenerateProblem) {
  std::mt19937 rng(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  const test::DenseFactored p = test::randomContactProblem(rng, 6, 40, 1, 0.5, 0.0);
  Eigen::VectorXd b(40), warm(40);
  for (int i = 0; i < 40; ++i) b[i] = normal(rng);
  for (int i = 0; i < 40; ++i) warm[i] = std::max(normal(rng), 0.0);
  const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Frictionless);
  test::ObjectiveTrace trace;
  const test::RunResult r = test::runObserved("gpminres", qp, warm, 1e-10, 2000, {}, trace);
  EXPECT_TRUE(r.report.converged) << r.report.residual;
  ASSERT_EQ(static_cast<int>(trace.objectives.size()), r.report.iterations);
  ASSERT_GE(trace.objectives.size(), 2u);
  test::expectMonotone(trace, test::objective(p.A(), b, warm));
  EXPECT_LT(trace.objectives.back(), trace.objectives.front());
  EXPECT_DOUBLE_EQ(trace.objectives.back(), r.report.objective);
}

// Box model with given normal bounds, PD A: the unique solution found by
// enumerating the 3^9 lower/upper/free states; one contact has mu = 0
// (tangential interval [0, 0]).
TEST(gpminres_solver, BoxModelMatchesThreeWayEnumeration) {
  int at_upper = 0, at_lower = 0, free_tangential = 0;
  for (unsigned seed = 1; seed <= 6; ++seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_real_distribution<double> u(0.2, 1.0);
    const test::DenseFactored p = test::randomContactProblem(rng, 3, 3, 3, 1.0, 0.05);
    const std::vector<double> mu = {0.5 * u(rng), 0.0, u(rng)};
    const std::vector<double> nb = {u(rng), u(rng), 2.0 * u(rng)};
    Eigen::VectorXd b(9), warm(9);
    for (int i = 0; i < 9; ++i) b[i] = 2.0 * normal(rng);
    for (int i = 0; i < 9; ++i) warm[i] = normal(rng);  // projected onto the box first
    Eigen::VectorXd lower, upper;
    test::boxBounds(mu, nb, lower, upper);
    const Eigen::MatrixXd A = p.A();
    const Eigen::VectorXd exact = test::solveBoxByEnumeration(A, b, lower, upper);
    ASSERT_TRUE(exact.allFinite()) << "seed " << seed;
    for (int i = 0; i < 9; ++i) {
      if (i % 3 == 0 || lower[i] == upper[i]) continue;
      if (exact[i] == upper[i])
        ++at_upper;
      else if (exact[i] == lower[i])
        ++at_lower;
      else
        ++free_tangential;
    }
    const QuadraticProgram qp = test::boxQp(p, b, mu, nb);
    test::ObjectiveTrace trace;
    const test::RunResult r = test::runObserved("gpminres", qp, warm, 1e-11, 1000, {}, trace);
    SCOPED_TRACE("seed " + std::to_string(seed));
    EXPECT_TRUE(r.report.converged) << r.report.residual;
    EXPECT_LE((r.gamma - exact).cwiseAbs().maxCoeff(), 1e-8);
    EXPECT_NEAR(r.report.objective, test::objective(A, b, exact), 1e-10);
    Eigen::VectorXd projected = warm.cwiseMax(lower).cwiseMin(upper);
    test::expectMonotone(trace, test::objective(A, b, projected));
  }
  EXPECT_GT(at_upper + at_lower, 2);  // the friction bounds are reached...
  EXPECT_GT(free_tangential, 2);      // ...and not everywhere
}

// A = 1 1^T (rank one) and b = -(1, ..., n): the unique solution is n e_n, but
// on every face with several free unknowns the MINRES system is singular and
// inconsistent (q is unbounded there) and its Krylov space is exhausted after
// two steps. MINRES must stop there (not divide by beta = 0 and produce NaN,
// nor run on with meaningless Lanczos vectors), so a few outer iterations do.
TEST(gpminres_solver, SingularInconsistentSubproblemDoesNotBreakMinres) {
  for (int n : {5, 40}) {
    const Eigen::MatrixXd A = Eigen::MatrixXd::Ones(n, n);
    const Eigen::VectorXd b = -Eigen::VectorXd::LinSpaced(n, 1.0, n);
    Eigen::VectorXd exact = Eigen::VectorXd::Zero(n);
    exact[n - 1] = n;
    const QuadraticProgram qp = test::makeQp(A, b, FrictionModel::Frictionless, {});
    for (const Eigen::VectorXd& warm :
         {Eigen::VectorXd(Eigen::VectorXd::Zero(n)), Eigen::VectorXd(Eigen::VectorXd::Ones(n))}) {
      test::ObjectiveTrace trace;
      const test::RunResult r = test::runObserved("gpminres", qp, warm, 1e-12, 200, {}, trace);
      SCOPED_TRACE("n = " + std::to_string(n));
      test::expectMonotone(trace, test::objective(A, b, warm));
      EXPECT_TRUE(r.report.converged) << r.report.residual;
      ASSERT_TRUE(r.gamma.allFinite());
      EXPECT_LE((r.gamma - exact).cwiseAbs().maxCoeff(), 1e-10);
      EXPECT_NEAR(r.report.objective, -0.5 * n * n, 1e-10 * n * n);
      EXPECT_LE(r.report.iterations, 10);
      EXPECT_LE(r.report.operator_applies, 150);
    }
  }
}

// Positive definite problems (20 unknowns): once the active set is found,
// MINRES solves the face problem exactly, so the method ends after a few outer
// iterations at machine precision, at the same solution as a long APGD run.
TEST(gpminres_solver, FiniteTerminationOnPositiveDefiniteProblems) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    std::mt19937 rng(100 + seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    const test::DenseFactored p = test::randomDenseProblem(rng, 20, 5, 0.05);
    Eigen::VectorXd b(20);
    for (int i = 0; i < 20; ++i) b[i] = normal(rng);
    const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Frictionless);
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(20);
    const test::RunResult r = test::run("gpminres", qp, zero, 1e-12, 1000);
    const test::RunResult reference = test::run("apgd", qp, zero, 1e-12, 1000000);
    SCOPED_TRACE("seed " + std::to_string(seed));
    ASSERT_TRUE(reference.report.converged);
    EXPECT_TRUE(r.report.converged) << r.report.residual;
    EXPECT_LE(r.report.iterations, 5);
    EXPECT_LE((r.gamma - reference.gamma).cwiseAbs().maxCoeff(), 1e-8);
    EXPECT_NEAR(r.report.objective, reference.report.objective, 1e-10);
  }
}

// The MINRES phase is what makes the method fast: with one MINRES step per
// subproblem and one gradient projection per iteration it needs many more
// outer iterations for the same answer.
TEST(gpminres_solver, SubproblemBudgetMatters) {
  std::mt19937 rng(31);
  std::normal_distribution<double> normal(0.0, 1.0);
  const test::DenseFactored p = test::randomContactProblem(rng, 8, 30, 1, 1.0, 0.01);
  Eigen::VectorXd b(30);
  for (int i = 0; i < 30; ++i) b[i] = normal(rng);
  const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Frictionless);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(30);
  const test::RunResult full = test::run("gpminres", qp, zero, 1e-10, 5000);
  const test::RunResult starved =
      test::run("gpminres", qp, zero, 1e-10, 5000,
                {{"minres_iterations", 1}, {"additional_iterations", 0}, {"gp_steps", 1}});
  EXPECT_TRUE(full.report.converged);
  EXPECT_TRUE(starved.report.converged);
  EXPECT_GT(starved.report.iterations, 2 * full.report.iterations);
  EXPECT_LE((full.gamma - starved.gamma).cwiseAbs().maxCoeff(), 1e-7);
}

TEST(gpminres_solver, OptionsAreValidated) {
  const auto& registry = SolverRegistry::instance();
  const SolverEntry* entry = registry.find("gpminres");
  ASSERT_NE(entry, nullptr);
  EXPECT_TRUE(entry->solvesDirectly(FrictionModel::Frictionless));
  EXPECT_TRUE(entry->solvesDirectly(FrictionModel::Box));
  EXPECT_TRUE(entry->supports(FrictionModel::Pyramid));
  EXPECT_FALSE(entry->supports(FrictionModel::Coulomb));
  const std::vector<std::pair<std::string, double>> bad = {{"eta2", 1.0},
                                                           {"eta1", -0.1},
                                                           {"mu", 0.5},
                                                           {"gp_steps", 0},
                                                           {"gp_steps", 2.5},
                                                           {"projected_searches", 0},
                                                           {"minres_iterations", 0},
                                                           {"additional_iterations", -1}};
  for (const auto& [key, value] : bad) {
    SolverSettings s;
    s.options[key] = value;
    EXPECT_THROW(registry.create("gpminres", s), std::invalid_argument) << key << " = " << value;
  }
  SolverSettings s;
  s.options = {{"eta1", 0.0}, {"eta2", 0.0}, {"mu", 0.49}, {"minres_iterations", 1}};
  EXPECT_NO_THROW(registry.create("gpminres", s));
}

TEST(gpminres_solver, RejectsConeModelsWhenCalledDirectly) {
  const QuadraticProgram qp =
      test::makeQp(Eigen::MatrixXd::Identity(3, 3), Eigen::Vector3d(-1.0, 0.5, 0.5),
                   FrictionModel::Coulomb, {0.5});
  Vector gamma(qp.map(), true);
  const auto solver = SolverRegistry::instance().create("gpminres", SolverSettings{});
  EXPECT_THROW(solver->solve(qp, gamma), std::invalid_argument);
}

}  // namespace
}  // namespace grains
