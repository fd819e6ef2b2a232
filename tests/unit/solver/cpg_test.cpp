// Conjugate projected gradient (Preclik et al. (2009) Alg. 2): the CG property on problems
// whose constraints stay inactive, monotone objective, fixed-bounds models
// against known solutions, PSD corner cases.
#include "grains/solver/solver.hpp"

#include "fixed_bounds_support.hpp"
#include "solver_test_support.hpp"

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>

#include <cmath>

namespace grains {
namespace {

/// Textbook CG (Hestenes-Stiefel 1952, the r.r / p.Ap form) from x0 until
/// |A x + b|_inf <= tol; returns the number of iterations.
int textbookCgIterations(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                         const Eigen::VectorXd& x0, double tol) {
  Eigen::VectorXd x = x0, r = -(A * x0 + b), p = r;
  for (int k = 1; k <= 10 * static_cast<int>(b.size()); ++k) {
    const Eigen::VectorXd Ap = A * p;
    const double alpha = r.dot(r) / p.dot(Ap);
    x += alpha * p;
    const Eigen::VectorXd r_next = r - alpha * Ap;
    p = r_next + (r_next.dot(r_next) / r.dot(r)) * p;
    r = r_next;
    if ((A * x + b).cwiseAbs().maxCoeff() <= tol) return k;
  }
  return -1;
}

// An SPD frictionless problem whose solution and iterates stay in the
// interior of K: x* = 100 + O(1), warm start x* + O(1); the CG error satisfies
// |e_k|_A <= |e_0|_A, so |e_k|_2 <= sqrt(cond(A)) |e_0|_2 < 100 keeps every
// iterate positive, and CPG is CG: as many iterations as textbook CG (at
// most n in exact arithmetic, which shows for the smaller sizes; rounding
// delays the termination of both for n = 20), one application of A per
// iteration. Projected gradient descent (Alg. 1, conjugate = 0) needs far
// more iterations on the same problems.
TEST(cpg, ConjugateGradientPropertyOnAnInteriorProblem) {
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int n : {6, 12, 20}) {
    const test::DenseFactored p = test::randomDenseProblem(rng, n, 4, 0.3);
    const Eigen::MatrixXd A = p.A();
    const Eigen::VectorXd eig = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(A).eigenvalues();
    const double cond = eig.maxCoeff() / eig.minCoeff();
    Eigen::VectorXd exact(n), warm(n);
    for (int i = 0; i < n; ++i) exact[i] = 100.0 + unit(rng);
    for (int i = 0; i < n; ++i) warm[i] = exact[i] + unit(rng);
    ASSERT_LT(std::sqrt(cond) * (warm - exact).norm(), 99.0);
    const Eigen::VectorXd b = -A * exact;
    const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Frictionless);
    SCOPED_TRACE("n = " + std::to_string(n) + ", cond " + std::to_string(cond));
    const double tol = 1e-6;
    const test::RunResult cg = test::run("cpg", qp, warm, tol, 1000);
    EXPECT_TRUE(cg.report.converged);
    EXPECT_NEAR(cg.report.iterations, textbookCgIterations(A, b, warm, tol), 1);
    if (n <= 12) {
      EXPECT_LE(cg.report.iterations, n);
    }
    // warm start + one A p per iteration + the exact A x before stopping + the report
    EXPECT_LE(cg.report.operator_applies, cg.report.iterations + 3);
    EXPECT_LE((cg.gamma - exact).cwiseAbs().maxCoeff(), 1e-6);

    const test::RunResult pgd = test::run("cpg", qp, warm, tol, 100000, {{"conjugate", 0}});
    EXPECT_TRUE(pgd.report.converged);
    EXPECT_GE(pgd.report.iterations, 3 * cg.report.iterations);
  }
}

// CPG only accepts steps that do not increase the objective (the safeguard
// replaces an increasing projected step by the largest feasible step).
TEST(cpg, ObjectiveIsMonotoneOnLcpAndBoxProblems) {
  for (FrictionModel model : {FrictionModel::Frictionless, FrictionModel::Box}) {
    for (unsigned seed = 1; seed <= 4; ++seed) {
      std::mt19937 rng(seed);
      std::normal_distribution<double> normal(0.0, 1.0);
      const int block = unknownsPerContact(model);
      const test::DenseFactored p = test::randomContactProblem(rng, 5, 8, block, 1.0, 0.01);
      const Eigen::MatrixXd A = p.A();
      const int n = 8 * block;
      Eigen::VectorXd b(n);
      for (int i = 0; i < n; ++i) b[i] = normal(rng);
      QuadraticProgram qp = test::makeQp(p, b, model, std::vector<double>(8, 0.5));
      if (model == FrictionModel::Box) test::setNormalBounds(qp, std::vector<double>(8, 1.0));
      SolverSettings settings;
      settings.tolerance = 1e-10;
      settings.max_iterations = 5000;
      const auto solver = SolverRegistry::instance().create("cpg", settings, model);
      std::vector<double> objectives;
      solver->setObserver([&](int, const Vector& g) {
        const Eigen::VectorXd x = test::gather(g);
        objectives.push_back(test::objective(A, b, x));
      });
      auto gamma = test::makeVector(qp.map(), Eigen::VectorXd::Zero(n));
      const SolveReport report = solver->solve(qp, *gamma);
      SCOPED_TRACE(frictionModelName(model) + " seed " + std::to_string(seed));
      EXPECT_TRUE(report.converged) << report.residual;
      ASSERT_EQ(static_cast<int>(objectives.size()), report.iterations);
      double previous = 0.0;  // objective of the start 0
      for (double f : objectives) {
        EXPECT_LE(f, previous + 1e-12 * (1.0 + std::abs(previous)));
        previous = f;
      }
    }
  }
}

// Box and cylinder (fixed bounds) on contact-structured problems whose
// solution mixes interior, boundary and corner contacts.
TEST(cpg, FixedBoundsModelsMatchKnownSolutions) {
  for (FrictionModel model : {FrictionModel::Box, FrictionModel::Cylinder}) {
    for (unsigned seed = 1; seed <= 3; ++seed) {
      std::mt19937 rng(100 + seed);
      std::uniform_real_distribution<double> u(0.2, 1.0);
      const test::DenseFactored p = test::randomContactProblem(rng, 4, 12, 3, 0.5, 0.05);
      std::vector<double> mu(12), bound(12);
      for (int c = 0; c < 12; ++c) {
        mu[c] = c == 5 ? 0.0 : u(rng);
        bound[c] = 2.0 * u(rng);
      }
      Eigen::VectorXd exact;
      const Eigen::VectorXd b = test::knownFixedBoundsRhs(rng, p.A(), model, mu, bound, exact);
      ASSERT_LE(test::denseResidual(p.A(), b, exact, model, mu, bound), 1e-12);
      QuadraticProgram qp = test::makeQp(p, b, model, mu);
      test::setNormalBounds(qp, bound);
      const test::RunResult r = test::run("cpg", qp, Eigen::VectorXd::Zero(36), 1e-11, 20000);
      SCOPED_TRACE(frictionModelName(model) + " seed " + std::to_string(seed));
      EXPECT_TRUE(r.report.converged) << r.report.residual << " after " << r.report.iterations;
      EXPECT_LE((r.gamma - exact).cwiseAbs().maxCoeff(), 1e-8);
    }
  }
}

// A = 0 (PSD, every direction has zero curvature): the box problem is
// min b.x over the box, solved exactly by the largest feasible steps; an
// unbounded problem stops without NaN and is not converged.
TEST(cpg, ZeroCurvatureDirections) {
  const Eigen::MatrixXd zero = Eigen::MatrixXd::Zero(3, 3);
  QuadraticProgram box =
      test::makeQp(zero, Eigen::Vector3d(0.5, 0.5, -0.25), FrictionModel::Box, {0.3});
  test::setNormalBounds(box, {1.0});
  const test::RunResult r = test::run("cpg", box, Eigen::Vector3d::Zero(), 1e-12, 100);
  EXPECT_TRUE(r.report.converged);
  EXPECT_LE(r.report.iterations, 3);
  EXPECT_LE((r.gamma - Eigen::Vector3d(0.0, -0.3, 0.3)).cwiseAbs().maxCoeff(), 1e-15);

  const QuadraticProgram unbounded = test::makeQp(
      Eigen::MatrixXd::Zero(2, 2), Eigen::Vector2d(-1.0, 1.0), FrictionModel::Frictionless, {});
  const test::RunResult u = test::run("cpg", unbounded, Eigen::Vector2d::Zero(), 1e-12, 100);
  EXPECT_FALSE(u.report.converged);
  EXPECT_TRUE(std::isfinite(u.report.residual));
  EXPECT_TRUE(u.gamma.allFinite());
  EXPECT_LE(u.report.iterations, 1);  // no descent step exists: stops at once
}

// Coulomb and pyramid are reached through the Tresca-to-Coulomb fixed point;
// called directly on such a problem the solver refuses it.
TEST(cpg, ConeModelsOnlyThroughTheFixedPoint) {
  const SolverEntry* entry = SolverRegistry::instance().find("cpg");
  ASSERT_NE(entry, nullptr);
  EXPECT_FALSE(entry->solvesDirectly(FrictionModel::Coulomb));
  EXPECT_TRUE(entry->supports(FrictionModel::Coulomb));
  EXPECT_TRUE(entry->supports(FrictionModel::Pyramid));

  std::mt19937 rng(3);
  std::normal_distribution<double> normal(0.0, 1.0);
  const test::DenseFactored p = test::randomContactProblem(rng, 4, 5, 3, 1.0, 0.05);
  Eigen::VectorXd b(15);
  for (int i = 0; i < 15; ++i) b[i] = normal(rng);
  const QuadraticProgram qp =
      test::makeQp(p, b, FrictionModel::Coulomb, std::vector<double>(5, 0.3));
  SolverSettings settings;
  settings.tolerance = 1e-9;
  settings.max_iterations = 5000;
  settings.outer_iterations = 200;
  settings.outer_tolerance = 0.0;  // iterate until the bounds change by < tolerance / 2
  const auto wrapped = SolverRegistry::instance().create("cpg", settings, FrictionModel::Coulomb);
  auto solution = test::makeVector(qp.map(), Eigen::VectorXd::Zero(15));
  const SolveReport report = wrapped->solve(qp, *solution);
  EXPECT_TRUE(report.converged) << report.residual;
  EXPECT_GT(report.outer_iterations, 1);

  Vector gamma(qp.map(), true);
  EXPECT_THROW(SolverRegistry::instance().create("cpg", SolverSettings{})->solve(qp, gamma),
               std::invalid_argument);
}

}  // namespace
}  // namespace grains
