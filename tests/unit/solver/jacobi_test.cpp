// Projected Jacobi (Heyn et al. (2013) §4.1, eq. 12): the step by hand, the role of
// omega, lambda and B, the divergence safeguard, and the friction models.
#include "grains/solver/solver.hpp"

#include "solver_test_support.hpp"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

namespace grains {
namespace {

std::unique_ptr<Solver> makeJacobi(double tolerance, int max_iterations,
                                   std::map<std::string, double> options, FrictionModel model) {
  SolverSettings settings;
  settings.tolerance = tolerance;
  settings.max_iterations = max_iterations;
  settings.options = std::move(options);
  return SolverRegistry::instance().create("jacobi", settings, model);
}

// omega = 1, lambda = 1, A diagonal, frictionless: B = A^-1 and eq. 12 is
// gamma_1 = max(0, gamma_0 - (A gamma_0 + b) / a) = max(0, -b / a), the exact
// solution, whatever the warm start.
TEST(Jacobi, OmegaOneOnADiagonalProblemIsExactInOneIteration) {
  const Eigen::VectorXd a = (Eigen::VectorXd(5) << 0.5, 2.0, 7.0, 1e-3, 40.0).finished();
  const Eigen::VectorXd b = (Eigen::VectorXd(5) << -1.0, 3.0, -0.2, -5e-4, 0.0).finished();
  const Eigen::VectorXd warm = (Eigen::VectorXd(5) << 3.0, 1.0, -2.0, 9.0, 0.5).finished();
  const Eigen::VectorXd exact = (-b.array() / a.array()).max(0.0).matrix();
  const QuadraticProgram qp =
      test::makeQp(Eigen::MatrixXd(a.asDiagonal()), b, FrictionModel::Frictionless, {});
  const test::RunResult r = test::run("jacobi", qp, warm, 1e-14, 100, {{"omega", 1.0}});
  EXPECT_TRUE(r.report.converged);
  EXPECT_EQ(r.report.iterations, 1);
  EXPECT_LE((r.gamma - exact).cwiseAbs().maxCoeff(), 1e-15);
  // One application of A per iteration, plus the warm start and the final measures.
  EXPECT_EQ(r.report.operator_applies, r.report.iterations + 2);
  // The paper's omega = 0.3 needs many iterations on the same problem.
  const test::RunResult slow = test::run("jacobi", qp, warm, 1e-14, 1000);
  EXPECT_TRUE(slow.report.converged);
  EXPECT_GT(slow.report.iterations, 20);
  EXPECT_EQ(slow.report.operator_applies, slow.report.iterations + 2);
}

// The first iterate by hand on a 2x2 frictionless problem with damping:
// A = [[2, 1], [1, 3]], b = (-1, 5), gamma_0 = (0.5, 0.5), omega = 0.3, lambda = 0.5.
// A gamma_0 + b = (0.5, 7); eta = (1/2, 1/3);
// gt = (0.5 - 0.3 * 0.5 / 2, 0.5 - 0.3 * 7 / 3) = (0.425, -0.2); gh = (0.425, 0);
// gamma_1 = 0.5 gh + 0.5 gamma_0 = (0.4625, 0.25).
TEST(Jacobi, DampedFirstIterateByHand) {
  Eigen::MatrixXd A(2, 2);
  A << 2.0, 1.0, 1.0, 3.0;
  const QuadraticProgram qp =
      test::makeQp(A, Eigen::Vector2d(-1.0, 5.0), FrictionModel::Frictionless, {});
  const test::RunResult r = test::run("jacobi", qp, Eigen::Vector2d(0.5, 0.5), 1e-14, 1,
                                      {{"omega", 0.3}, {"lambda", 0.5}});
  EXPECT_EQ(r.report.iterations, 1);
  EXPECT_FALSE(r.report.converged);
  EXPECT_NEAR(r.gamma[0], 0.4625, 1e-15);
  EXPECT_NEAR(r.gamma[1], 0.25, 1e-15);
}

// One Coulomb contact: B is 1 / Trace of the contact's 3x3 diagonal block, the
// same for its three unknowns, and the projection is onto the cone.
TEST(Jacobi, FrictionalStepUsesTheTraceOfTheContactBlock) {
  Eigen::MatrixXd A(3, 3);
  A << 1.0, 0.2, 0.1, 0.2, 2.0, 0.3, 0.1, 0.3, 3.0;
  const Eigen::Vector3d b(-1.0, 4.0, -0.5);
  const Eigen::Vector3d warm(0.2, 0.1, -0.05);
  const double mu = 0.4, omega = 0.7, lambda = 0.8;
  const QuadraticProgram qp = test::makeQp(A, b, FrictionModel::Coulomb, {mu});
  const test::RunResult r =
      test::run("jacobi", qp, warm, 1e-14, 1, {{"omega", omega}, {"lambda", lambda}});
  Eigen::Vector3d start = warm;  // the warm start is projected first
  projectCoulombCone(mu, start[0], start[1], start[2]);
  ASSERT_NE(start, warm);
  Eigen::Vector3d expected = start - omega / 6.0 * (A * start + b);  // trace = 1 + 2 + 3
  projectCoulombCone(mu, expected[0], expected[1], expected[2]);
  expected = lambda * expected + (1.0 - lambda) * start;
  EXPECT_LE((r.gamma - expected).cwiseAbs().maxCoeff(), 1e-15);
  // The step really reached the cone's boundary (the projection mattered).
  const Eigen::Vector3d step = start - omega / 6.0 * (A * start + b);
  EXPECT_GT(std::hypot(step[1], step[2]), mu * step[0]);
}

// A = 11^T + 0.01 I (8 unknowns) has lambda_max(B A) ~ 8, so eq. 12 with the
// paper's omega = 0.3 diverges (omega lambda_max > 2); the safeguard halves
// omega until the step stops overshooting and converges to the solution.
TEST(Jacobi, SafeguardStopsTheDivergenceOfALargeOmega) {
  const int n = 8;
  const Eigen::MatrixXd A = Eigen::MatrixXd::Ones(n, n) + 0.01 * Eigen::MatrixXd::Identity(n, n);
  Eigen::VectorXd z(n);
  for (int i = 0; i < n; ++i) z[i] = 0.5 + 0.1 * i;
  const Eigen::VectorXd b = -A * z;  // interior solution z
  const QuadraticProgram qp = test::makeQp(A, b, FrictionModel::Frictionless, {});
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(n);
  const double lambda_max = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(A / 1.01)
                                .eigenvalues()
                                .maxCoeff();  // B = I / 1.01
  ASSERT_GT(0.3 * lambda_max, 2.0);

  const test::RunResult plain = test::run("jacobi", qp, zero, 1e-9, 300, {{"safeguard", 0}});
  EXPECT_FALSE(plain.report.converged);
  // No progress at all: the residual of the start (max(A z) ~ 6.8) remains.
  EXPECT_GT(plain.report.residual, 1.0);

  const test::RunResult guarded = test::run("jacobi", qp, zero, 1e-9, 200000);
  EXPECT_TRUE(guarded.report.converged) << guarded.report.residual;
  EXPECT_LE((guarded.gamma - z).cwiseAbs().maxCoeff(), 1e-6);
}

// With omega lambda_max(B A) < 2 the objective decreases at every iteration
// (scaled projected gradient); checked through the observer on a Coulomb
// contact problem, where it also converges to the reference solution.
TEST(Jacobi, ObjectiveDecreasesMonotonicallyWhenOmegaIsStable) {
  std::mt19937 rng(31);
  std::normal_distribution<double> normal(0.0, 1.0);
  const test::DenseFactored p = test::randomContactProblem(rng, 5, 7, 3, 1.0, 0.02);
  const Eigen::MatrixXd A = p.A();
  Eigen::VectorXd b(21);
  for (int i = 0; i < 21; ++i) b[i] = normal(rng);
  const std::vector<double> mu(7, 0.5);
  const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Coulomb, mu);
  Eigen::VectorXd eta(21);
  for (int c = 0; c < 7; ++c)
    eta.segment<3>(3 * c).setConstant(1.0 / A.block<3, 3>(3 * c, 3 * c).trace());
  const Eigen::MatrixXd BA = eta.cwiseSqrt().asDiagonal() * A * eta.cwiseSqrt().asDiagonal();
  const double lambda_max =
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(BA).eigenvalues().maxCoeff();
  const double omega = 1.5 / lambda_max;

  const auto solver =
      makeJacobi(1e-10, 100000, {{"omega", omega}, {"lambda", 0.9}}, FrictionModel::Coulomb);
  std::vector<double> objectives;
  solver->setObserver(
      [&](int, const Vector& g) { objectives.push_back(test::objective(A, b, test::gather(g))); });
  auto gamma = test::makeVector(qp.map(), Eigen::VectorXd::Zero(21));
  const SolveReport report = solver->solve(qp, *gamma);
  ASSERT_TRUE(report.converged) << report.residual;
  ASSERT_EQ(static_cast<int>(objectives.size()), report.iterations);
  ASSERT_GT(report.iterations, 10);
  for (std::size_t k = 1; k < objectives.size(); ++k)
    ASSERT_LE(objectives[k], objectives[k - 1] + 1e-13) << "iteration " << k + 1;
  const test::RunResult ref = test::run("apgd", qp, Eigen::VectorXd::Zero(21), 1e-12, 200000);
  ASSERT_TRUE(ref.report.converged);
  EXPECT_LE((test::gather(*gamma) - ref.gamma).cwiseAbs().maxCoeff(), 1e-7);
}

// Block-diagonal A = a_c I3 per contact: the minimiser over K is Pi_K(-b / a)
// for each fixed-shape set (box and cylinder with given bounds, pyramid).
TEST(Jacobi, BlockDiagonalClosedFormForPyramidBoxCylinder) {
  const int contacts = 9;
  for (FrictionModel model :
       {FrictionModel::Pyramid, FrictionModel::Box, FrictionModel::Cylinder}) {
    std::mt19937 rng(7);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_real_distribution<double> u(0.3, 3.0);
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(3 * contacts, 3 * contacts);
    Eigen::VectorXd b(3 * contacts);
    std::vector<double> mu(contacts), bound(contacts);
    for (int c = 0; c < contacts; ++c) {
      const double a = u(rng);
      A.block<3, 3>(3 * c, 3 * c) = a * Eigen::Matrix3d::Identity();
      for (int k = 0; k < 3; ++k) b[3 * c + k] = normal(rng);
      mu[c] = 0.3 * u(rng);
      bound[c] = u(rng);
    }
    QuadraticProgram qp = test::makeQp(A, b, model, mu);
    if (hasFixedBounds(model)) {
      const auto map = qp.map();
      for (std::size_t k = 0; k < map->getNodeNumElements(); k += 3)
        qp.cones.normal_bound.push_back(
            bound[map->getGlobalElement(static_cast<LocalOrdinal>(k)) / 3]);
    }
    ConeSet all;
    all.model = model;
    all.mu = mu;
    if (hasFixedBounds(model)) all.normal_bound = bound;
    Eigen::VectorXd exact(3 * contacts);
    for (int c = 0; c < contacts; ++c)
      exact.segment<3>(3 * c) = -b.segment<3>(3 * c) / A(3 * c, 3 * c);
    all.project(exact.data());
    const test::RunResult r =
        test::run("jacobi", qp, Eigen::VectorXd::Zero(3 * contacts), 1e-12, 5000);
    SCOPED_TRACE(frictionModelName(model));
    EXPECT_TRUE(r.report.converged);
    EXPECT_LE((r.gamma - exact).cwiseAbs().maxCoeff(), 1e-11);
    EXPECT_GT((exact.array().abs() > 0.0).count(), contacts);  // not the trivial solution
  }
}

TEST(Jacobi, OptionsAreValidated) {
  SolverSettings s;
  s.options = {{"omega", 0.0}};
  EXPECT_THROW(SolverRegistry::instance().create("jacobi", s), std::invalid_argument);
  s.options = {{"lambda", 1.5}};
  EXPECT_THROW(SolverRegistry::instance().create("jacobi", s), std::invalid_argument);
  s.options = {{"safeguard", 0.5}};
  EXPECT_THROW(SolverRegistry::instance().create("jacobi", s), std::invalid_argument);
}

}  // namespace
}  // namespace grains
