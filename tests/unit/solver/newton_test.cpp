// Semi-smooth Newton on the min-max function (Preclik et al. (2009) eqs. 17-20): one step
// from the right active set, monotone merit, box problems, options.
#include "grains/solver/solver.hpp"

#include "fixed_bounds_support.hpp"
#include "solver_test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace grains {
namespace {

/// 1/2 |F(x)|^2 with F(x) = max(x - u, min(x - l, A x + b)) (eq. 18) for a
/// frictionless problem (l = 0, u = inf): F = min(x, A x + b).
double merit(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, const Eigen::VectorXd& x) {
  const Eigen::VectorXd F = x.cwiseMin(A * x + b);
  return 0.5 * F.squaredNorm();
}

/// A strictly complementary LCP: z* > 0 on 2 of 3 unknowns, w* = A z* + b > 0 on the rest.
/// w* is scaled by w_scale.
Eigen::VectorXd complementaryRhs(std::mt19937& rng, const Eigen::MatrixXd& A, Eigen::VectorXd& z,
                                 double w_scale = 1.0) {
  std::uniform_real_distribution<double> u(0.2, 1.0);
  const Eigen::Index n = A.rows();
  z = Eigen::VectorXd::Zero(n);
  Eigen::VectorXd w = Eigen::VectorXd::Zero(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    if (i % 3 == 0) {
      w[i] = w_scale * u(rng);
    } else {
      z[i] = u(rng);
    }
  }
  return w - A * z;
}

// Once the active set is right, the Newton equation is the KKT system of the
// problem restricted to that set: one step lands on the solution (§3.3:
// "as soon as the active set is correct, the solution is at hand within a
// single iteration"), from a warm start that is far from it on the free rows.
TEST(newton, OneStepOnceTheActiveSetIsRight) {
  int checked = 0;
  for (unsigned seed = 1; seed <= 6; ++seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0.97, 1.03);
    const test::DenseFactored p = test::randomDenseProblem(rng, 12, 2, 0.1);
    const Eigen::MatrixXd A = p.A();
    Eigen::VectorXd exact;
    const Eigen::VectorXd b = complementaryRhs(rng, A, exact, 5.0);
    // Same active set, other values: free rows scaled by up to 3%, bound rows at 0.
    Eigen::VectorXd warm = exact;
    for (Eigen::Index i = 0; i < warm.size(); ++i) warm[i] *= u(rng);
    const Eigen::VectorXd g = A * warm + b;
    bool right_set = true;
    for (Eigen::Index i = 0; i < warm.size(); ++i)
      right_set = right_set && (exact[i] > 0.0 ? g[i] < warm[i] : g[i] >= 0.0);
    if (!right_set) continue;  // the perturbation changed the selected rows
    ++checked;
    const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Frictionless);
    const test::RunResult r =
        test::run("newton", qp, warm, 1e-10, 50, {{"krylov_tolerance", 1e-14}});
    SCOPED_TRACE("seed " + std::to_string(seed));
    EXPECT_TRUE(r.report.converged) << r.report.residual;
    EXPECT_EQ(r.report.iterations, 1);
    EXPECT_LE((r.gamma - exact).cwiseAbs().maxCoeff(), 1e-10);
  }
  EXPECT_GE(checked, 3);
}

// The same on a box problem: bound rows at +-R (upper and lower selections).
TEST(newton, OneStepOnABoxProblemWithTheRightActiveSet) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.3, 1.0);
  const test::DenseFactored p = test::randomContactProblem(rng, 4, 8, 3, 0.5, 0.05);
  std::vector<double> mu(8), bound(8);
  for (int c = 0; c < 8; ++c) {
    mu[c] = u(rng);
    bound[c] = 2.0 * u(rng);
  }
  Eigen::VectorXd exact;
  const Eigen::VectorXd b =
      test::knownFixedBoundsRhs(rng, p.A(), FrictionModel::Box, mu, bound, exact);
  QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Box, mu);
  test::setNormalBounds(qp, bound);
  // From the solution itself 0 iterations; from the solution with its free
  // rows moved by 1e-3, the selection is unchanged and one step suffices.
  Eigen::VectorXd warm = exact;
  for (int c = 0; c < 8; ++c) {
    const double R = mu[c] * bound[c];
    for (int k = 0; k < 3; ++k) {
      const int i = 3 * c + k;
      const bool at_bound = k == 0 ? exact[i] == 0.0 : std::abs(exact[i]) == R;
      if (!at_bound) warm[i] += 1e-3;
    }
  }
  const test::RunResult r = test::run("newton", qp, warm, 1e-10, 50, {{"krylov_tolerance", 1e-14}});
  EXPECT_TRUE(r.report.converged) << r.report.residual;
  EXPECT_EQ(r.report.iterations, 1);
  EXPECT_LE((r.gamma - exact).cwiseAbs().maxCoeff(), 1e-10);
}

// The line search only accepts steps that reduce the merit 1/2 |F|^2
// (Armijo), so on problems where no fallback step is needed the merit of
// the observed iterates decreases strictly.
TEST(newton, MeritDecreasesMonotonically) {
  int total_iterations = 0;
  for (unsigned seed = 1; seed <= 6; ++seed) {
    std::mt19937 rng(50 + seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    const test::DenseFactored p = test::randomContactProblem(rng, 6, 20, 1, 1.0, 0.05);
    const Eigen::MatrixXd A = p.A();
    Eigen::VectorXd b(20);
    for (int i = 0; i < 20; ++i) b[i] = normal(rng);
    const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Frictionless);
    SolverSettings settings;
    settings.tolerance = 1e-10;
    settings.max_iterations = 200;
    const auto solver = SolverRegistry::instance().create("newton", settings);
    std::vector<double> merits{merit(A, b, Eigen::VectorXd::Zero(20))};
    solver->setObserver(
        [&](int, const Vector& g) { merits.push_back(merit(A, b, test::gather(g))); });
    auto gamma = test::makeVector(qp.map(), Eigen::VectorXd::Zero(20));
    const SolveReport report = solver->solve(qp, *gamma);
    SCOPED_TRACE("seed " + std::to_string(seed));
    EXPECT_TRUE(report.converged) << report.residual;
    total_iterations += report.iterations;
    for (std::size_t k = 1; k < merits.size(); ++k) EXPECT_LT(merits[k], merits[k - 1]) << k;
  }
  EXPECT_GT(total_iterations, 6);  // the problems needed active-set changes
}

// Box problems of contact structure against known solutions, from zero.
TEST(newton, BoxModelMatchesKnownSolutions) {
  for (unsigned seed = 1; seed <= 3; ++seed) {
    std::mt19937 rng(200 + seed);
    std::uniform_real_distribution<double> u(0.2, 1.0);
    const test::DenseFactored p = test::randomContactProblem(rng, 4, 12, 3, 0.5, 0.05);
    std::vector<double> mu(12), bound(12);
    for (int c = 0; c < 12; ++c) {
      mu[c] = c == 7 ? 0.0 : u(rng);
      bound[c] = 2.0 * u(rng);
    }
    Eigen::VectorXd exact;
    const Eigen::VectorXd b =
        test::knownFixedBoundsRhs(rng, p.A(), FrictionModel::Box, mu, bound, exact);
    QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Box, mu);
    test::setNormalBounds(qp, bound);
    const test::RunResult r = test::run("newton", qp, Eigen::VectorXd::Zero(36), 1e-11, 500);
    SCOPED_TRACE("seed " + std::to_string(seed));
    EXPECT_TRUE(r.report.converged) << r.report.residual;
    EXPECT_LE((r.gamma - exact).cwiseAbs().maxCoeff(), 1e-9);
    EXPECT_LT(r.report.iterations, 40);
  }
}

// Inexact Newton: a Krylov solve capped at one MINRES iteration gives poor
// directions, so more Newton iterations are needed than with the default,
// but the globalised iteration still converges.
TEST(newton, KrylovOptionsTradeInnerForOuterIterations) {
  std::mt19937 rng(77);
  const test::DenseFactored p = test::randomDenseProblem(rng, 16, 3, 0.05);
  const Eigen::MatrixXd A = p.A();
  Eigen::VectorXd exact;
  const Eigen::VectorXd b = complementaryRhs(rng, A, exact);
  const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Frictionless);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(16);
  const test::RunResult full = test::run("newton", qp, zero, 1e-9, 5000);
  const test::RunResult capped =
      test::run("newton", qp, zero, 1e-9, 5000, {{"krylov_iterations", 1}});
  EXPECT_TRUE(full.report.converged);
  EXPECT_TRUE(capped.report.converged);
  EXPECT_GT(capped.report.iterations, 2 * full.report.iterations);
  EXPECT_LE((full.gamma - exact).cwiseAbs().maxCoeff(), 1e-8);
  EXPECT_LE((capped.gamma - exact).cwiseAbs().maxCoeff(), 1e-7);
}

// Models without separable bounds are refused when called directly; the
// registry reaches pyramid through the fixed point over box.
TEST(newton, SeparableModelsOnly) {
  const SolverEntry* entry = SolverRegistry::instance().find("newton");
  ASSERT_NE(entry, nullptr);
  EXPECT_TRUE(entry->solvesDirectly(FrictionModel::Box));
  EXPECT_FALSE(entry->supports(FrictionModel::Coulomb));
  EXPECT_TRUE(entry->supports(FrictionModel::Pyramid));
  std::mt19937 rng(4);
  const test::DenseFactored p = test::randomContactProblem(rng, 3, 2, 3, 1.0, 0.1);
  const QuadraticProgram qp =
      test::makeQp(p, Eigen::VectorXd::Constant(6, -1.0), FrictionModel::Cylinder, {0.5, 0.5});
  Vector gamma(qp.map(), true);
  EXPECT_THROW(SolverRegistry::instance().create("newton", SolverSettings{})->solve(qp, gamma),
               std::invalid_argument);
}

}  // namespace
}  // namespace grains
