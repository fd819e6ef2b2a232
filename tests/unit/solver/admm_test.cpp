// ADMM on the cone complementarity problem (src/solver/admm_solver.cpp):
// what the shared solver suites do not check — the counting of the inner
// CG products, the penalty adaptation, the multiplier warm start and the
// feasibility of the returned iterate.
#include "grains/solver/solver.hpp"

#include "solver_test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <utility>

namespace grains {
namespace {

struct KnownProblem {
  test::DenseFactored factored;
  std::vector<double> mu;
  Eigen::VectorXd b;
  Eigen::VectorXd solution;
};

// 6 bodies, 10 contacts, regularised (unique solution), b chosen so the
// solution mixes interior, zero and sliding contacts.
KnownProblem knownProblem(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> mu_dist(0.2, 0.9);
  KnownProblem k;
  k.factored = test::randomContactProblem(rng, 6, 10, 3, 0.5, 0.05);
  k.mu.resize(10);
  for (auto& m : k.mu) m = mu_dist(rng);
  k.b = test::knownSolutionRhs(rng, k.factored.A(), FrictionModel::Coulomb, k.mu, k.solution);
  return k;
}

// A wrapped around the problem's operator, counting its applications.
class CountingOperator final : public Operator {
 public:
  explicit CountingOperator(RCP<const Operator> inner) : inner_(std::move(inner)) {}
  RCP<const Map> getDomainMap() const override { return inner_->getDomainMap(); }
  RCP<const Map> getRangeMap() const override { return inner_->getRangeMap(); }
  void apply(const MultiVector& X, MultiVector& Y, Teuchos::ETransp mode, Scalar alpha,
             Scalar beta) const override {
    ++count;
    inner_->apply(X, Y, mode, alpha, beta);
  }
  mutable int count = 0;

 private:
  RCP<const Operator> inner_;
};

// operator_applies is every product with A the solve made: the CG steps of
// the inner solves included, for accurate and for one-step inner solves.
TEST(Admm, CountsEveryProductIncludingTheInnerOnes) {
  const KnownProblem k = knownProblem(3);
  QuadraticProgram qp = test::makeQp(k.factored, k.b, FrictionModel::Coulomb, k.mu);
  const auto counting = rcp(new CountingOperator(qp.A));
  qp.A = counting;
  for (double cg_factor : {1e-3, 1.0}) {
    SCOPED_TRACE("cg_factor " + std::to_string(cg_factor));
    counting->count = 0;
    SolverSettings settings;
    settings.tolerance = 1e-9;
    settings.max_iterations = 100000;
    settings.options = {{"cg_factor", cg_factor}};
    const auto solver = SolverRegistry::instance().create("admm", settings, qp.cones.model);
    auto gamma = test::makeVector(qp.map(), Eigen::VectorXd::Zero(30));
    const SolveReport report = solver->solve(qp, *gamma);
    ASSERT_TRUE(report.converged) << report.residual;
    EXPECT_EQ(report.operator_applies, counting->count);
    // one product per iteration for the new iterate, and CG steps on top
    EXPECT_GT(report.operator_applies, report.iterations + 2);
    EXPECT_LE((test::gather(*gamma) - k.solution).cwiseAbs().maxCoeff(), 1e-6);
  }
}

// A penalty far from the balanced one: adaptation recovers it; a fixed rho
// of the same value needs many more iterations or does not converge.
TEST(Admm, PenaltyAdaptationRecoversFromABadRho) {
  for (double rho : {1e-4, 1e4}) {
    SCOPED_TRACE("rho " + std::to_string(rho));
    const KnownProblem k = knownProblem(5);
    const QuadraticProgram qp = test::makeQp(k.factored, k.b, FrictionModel::Coulomb, k.mu);
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(30);
    const test::RunResult adaptive = test::run("admm", qp, zero, 1e-9, 100000, {{"rho", rho}});
    const test::RunResult fixed =
        test::run("admm", qp, zero, 1e-9, 100000, {{"rho", rho}, {"rho_threshold", 1e12}});
    ASSERT_TRUE(adaptive.report.converged);
    EXPECT_LE((adaptive.gamma - k.solution).cwiseAbs().maxCoeff(), 1e-6);
    // fixed: converges much later, or (a tiny rho with inexact inner solves) not at all
    EXPECT_TRUE(!fixed.report.converged || 3 * adaptive.report.iterations < fixed.report.iterations)
        << adaptive.report.iterations << " against " << fixed.report.iterations;
  }
}

// The multiplier is warm-started from the gradient at the warm start
// (u = -(A z + b) / (rho R)), so a start next to the solution converges in
// a fraction of the iterations of a cold start.
TEST(Admm, WarmStartNearTheSolutionIsCheap) {
  const KnownProblem k = knownProblem(7);
  const QuadraticProgram qp = test::makeQp(k.factored, k.b, FrictionModel::Coulomb, k.mu);
  Eigen::VectorXd near = k.solution;
  for (Eigen::Index i = 0; i < near.size(); ++i) near[i] *= 1.0 + 1e-6 * std::sin(double(i));
  const test::RunResult warm = test::run("admm", qp, near, 1e-9, 100000);
  const test::RunResult cold = test::run("admm", qp, Eigen::VectorXd::Zero(30), 1e-9, 100000);
  ASSERT_TRUE(warm.report.converged);
  ASSERT_TRUE(cold.report.converged);
  EXPECT_GT(cold.report.iterations, 3 * warm.report.iterations)
      << warm.report.iterations << " against " << cold.report.iterations;
}

// The iterate x of the linear solve may leave K; a converged solve returns
// Pi_K(x) when that meets the tolerance, as it does here, so the returned
// impulses lie in K exactly.
TEST(Admm, ReturnsAPointOfTheCones) {
  const KnownProblem k = knownProblem(11);
  const QuadraticProgram qp = test::makeQp(k.factored, k.b, FrictionModel::Coulomb, k.mu);
  const test::RunResult r = test::run("admm", qp, Eigen::VectorXd::Zero(30), 1e-8, 100000);
  ASSERT_TRUE(r.report.converged);
  Eigen::VectorXd projected = r.gamma;
  for (int c = 0; c < 10; ++c) {
    projectCoulombCone(k.mu[c], projected[3 * c], projected[3 * c + 1], projected[3 * c + 2]);
  }
  EXPECT_LE((projected - r.gamma).cwiseAbs().maxCoeff(), 1e-15 * r.gamma.cwiseAbs().maxCoeff());
  EXPECT_DOUBLE_EQ(r.report.residual, r.measures.residual);
  EXPECT_LE(r.measures.residual, 1e-8);
}

}  // namespace
}  // namespace grains
