// Every solver on Coulomb-cone problems (3 unknowns per contact).
#include "grains/solver/solver.hpp"

#include "solver_test_support.hpp"

#include <gtest/gtest.h>

namespace grains {
namespace {

class CoulombQp : public ::testing::TestWithParam<std::string> {};

// Contact c acts on body c alone with A_cc = a_c I3 (D^T = unit rows on the
// linear DOFs, inverse mass a_c): min a/2 |g|^2 + b.g over K has the closed
// form g* = Pi_K(-b / a).
TEST_P(CoulombQp, BlockDiagonalClosedForm) {
  const std::string solver = GetParam();
  const int contacts = 12;
  std::mt19937 rng(21);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> u(0.3, 3.0);
  test::DenseFactored p;
  p.Dt = Eigen::MatrixXd::Zero(3 * contacts, 6 * contacts);
  std::vector<double> mu(contacts);
  Eigen::VectorXd b(3 * contacts), exact(3 * contacts);
  int inside = 0, zero = 0, boundary = 0;
  for (int c = 0; c < contacts; ++c) {
    BodyMobility w;
    w.inverse_mass = u(rng);
    w.inverse_inertia = Mat3::Identity();
    p.mobility.push_back(w);
    for (int k = 0; k < 3; ++k) p.Dt(3 * c + k, 6 * c + k) = 1.0;
    mu[c] = c % 4 == 3 ? 0.0 : 0.2 * u(rng);
    for (int k = 0; k < 3; ++k) b[3 * c + k] = normal(rng);
    Eigen::Vector3d g = -b.segment<3>(3 * c) / w.inverse_mass;
    const Eigen::Vector3d before = g;
    projectCoulombCone(mu[c], g[0], g[1], g[2]);
    exact.segment<3>(3 * c) = g;
    if (g == before)
      ++inside;
    else if (g.norm() == 0.0)
      ++zero;
    else
      ++boundary;
  }
  ASSERT_GT(zero, 0);
  ASSERT_GT(boundary, 0);
  const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Coulomb, mu);
  const test::RunResult r = test::run(solver, qp, Eigen::VectorXd::Zero(3 * contacts), 1e-12, 5000);
  EXPECT_TRUE(r.report.converged);
  EXPECT_LE((r.gamma - exact).cwiseAbs().maxCoeff(), 1e-11);
  EXPECT_NEAR(r.report.objective, test::objective(p.A(), b, exact), 1e-11);
  if (solver == "pgs") {
    EXPECT_EQ(r.report.iterations, 1);  // uncoupled blocks: one exact sweep
  }
}

// Contact-structured A (4 bodies, 6 contacts, regularised so the solution is
// unique) with b built so a chosen gamma* mixes interior, zero and boundary
// (sliding) contacts.
TEST_P(CoulombQp, KnownSolutionOfAContactProblem) {
  const std::string solver = GetParam();
  for (unsigned seed = 1; seed <= 3; ++seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> mu_dist(0.2, 1.0);
    const test::DenseFactored p = test::randomContactProblem(rng, 4, 6, 3, 0.5, 0.05);
    std::vector<double> mu(6);
    for (auto& m : mu) m = mu_dist(rng);
    Eigen::VectorXd exact;
    const Eigen::VectorXd b = test::knownSolutionRhs(rng, p.A(), FrictionModel::Coulomb, mu, exact);
    const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Coulomb, mu);
    const test::RunResult r = test::run(solver, qp, Eigen::VectorXd::Zero(18), 1e-10, 100000);
    SCOPED_TRACE("seed " + std::to_string(seed));
    EXPECT_TRUE(r.report.converged) << r.report.residual;
    EXPECT_LE((r.gamma - exact).cwiseAbs().maxCoeff(), 1e-7);
    EXPECT_NEAR(r.report.objective, test::objective(p.A(), b, exact), 1e-9);
  }
}

// Random b: the reference is a very long, very tight APGD run; all solvers
// must reach the same objective.
TEST_P(CoulombQp, RandomProblemMatchesTightReferenceObjective) {
  const std::string solver = GetParam();
  std::mt19937 rng(42);
  std::normal_distribution<double> normal(0.0, 1.0);
  const test::DenseFactored p = test::randomContactProblem(rng, 5, 8, 3, 1.0, 0.02);
  std::vector<double> mu(8, 0.4);
  Eigen::VectorXd b(24);
  for (int i = 0; i < 24; ++i) b[i] = normal(rng);
  const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Coulomb, mu);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(24);
  const test::RunResult reference = test::run("apgd", qp, zero, 1e-13, 500000);
  ASSERT_TRUE(reference.report.converged);
  ASSERT_LT(reference.report.objective, -1e-3);  // a nontrivial optimum
  const test::RunResult r = test::run(solver, qp, zero, 1e-9, 200000);
  EXPECT_TRUE(r.report.converged);
  EXPECT_NEAR(r.report.objective, reference.report.objective, 1e-8);
  EXPECT_LE((r.gamma - reference.gamma).cwiseAbs().maxCoeff(), 1e-6);
}

TEST_P(CoulombQp, IterationCapIsNotConvergence) {
  const std::string solver = GetParam();
  std::mt19937 rng(8);
  std::normal_distribution<double> normal(0.0, 1.0);
  const test::DenseFactored p = test::randomContactProblem(rng, 4, 5, 3, 1.0, 0.01);
  Eigen::VectorXd b(15);
  for (int i = 0; i < 15; ++i) b[i] = normal(rng);
  const QuadraticProgram qp =
      test::makeQp(p, b, FrictionModel::Coulomb, std::vector<double>(5, 0.5));
  const test::RunResult r = test::run(solver, qp, Eigen::VectorXd::Zero(15), 1e-14, 3);
  EXPECT_FALSE(r.report.converged);
  EXPECT_EQ(r.report.iterations, 3);
  EXPECT_DOUBLE_EQ(r.report.residual, r.measures.residual);
  EXPECT_DOUBLE_EQ(r.report.objective, r.measures.objective);
}

INSTANTIATE_TEST_SUITE_P(Solvers, CoulombQp,
                         ::testing::ValuesIn(test::solversFor(FrictionModel::Coulomb)));

}  // namespace
}  // namespace grains
