// MPRGP on Coulomb cones: properties beyond the suites every solver runs
// (solver_lcp_test, solver_coulomb_test, the MPI suite, the cvxopt check).
#include "grains/solver/solver.hpp"

#include "../../../src/solver/solver_factories.hpp"

#include "separable_reference.hpp"
#include "solver_test_support.hpp"

#include <gtest/gtest.h>

namespace grains {
namespace {

// mprgp is not in the registry (docs/solvers.md): created from its factory
// with the default options.
test::RunResult runMprgp(const QuadraticProgram& qp, const Eigen::VectorXd& warm_start,
                         double tolerance, int max_iterations) {
  SolverSettings settings;
  settings.tolerance = tolerance;
  settings.max_iterations = max_iterations;
  settings.options = {
      {"gamma", 1.0}, {"step_factor", 1.0}, {"power_iterations", 5}, {"expansion", 0}};
  const auto solver = solver_detail::makeMprgpSolver(settings);
  auto gamma = test::makeVector(qp.map(), warm_start);
  test::RunResult r;
  r.report = solver->solve(qp, *gamma);
  r.gamma = test::gather(*gamma);
  r.measures = evaluateMeasures(qp, *gamma);
  return r;
}

test::RunResult runMprgpObserved(const QuadraticProgram& qp, const Eigen::VectorXd& warm_start,
                                 double tolerance, int max_iterations,
                                 test::ObjectiveTrace& trace) {
  SolverSettings settings;
  settings.tolerance = tolerance;
  settings.max_iterations = max_iterations;
  settings.options = {
      {"gamma", 1.0}, {"step_factor", 1.0}, {"power_iterations", 5}, {"expansion", 0}};
  const auto solver = solver_detail::makeMprgpSolver(settings);
  solver->setObserver([&](int iteration, const Vector& gamma) {
    trace.iterations.push_back(iteration);
    trace.objectives.push_back(evaluateMeasures(qp, gamma).objective);
  });
  auto gamma = test::makeVector(qp.map(), warm_start);
  test::RunResult r;
  r.report = solver->solve(qp, *gamma);
  r.gamma = test::gather(*gamma);
  r.measures = evaluateMeasures(qp, *gamma);
  return r;
}

// Two coincident contacts on one body (identical rows of D^T): A = [B B; B B]
// has the null space (v, -v), a self-stress. b = (-1, 0, 0, -1 + eps, 0, 0)
// has a component eps along it, so the QP restricted to the face holding an
// interior warm start (both contacts inside their cones, on the axis) is
// unbounded below, while the QP over K has the unique solution
// gamma_1 = (1, 0, 0), gamma_2 = 0.
// Conjugate gradients on that face reach a direction without curvature; the
// expansion must stop it at the boundary (gamma_2 = 0), not run off. (The
// Coulomb version of this problem is not solved yet: docs/solvers.md.)
TEST(mprgp_solver, UnboundedFaceExpandsToTheBoundary) {
  for (FrictionModel model : {FrictionModel::Frictionless}) {
    const int block = unknownsPerContact(model);
    test::DenseFactored p;
    p.Dt = Eigen::MatrixXd::Zero(2 * block, 6);
    BodyMobility w;
    w.inverse_mass = 1.0;
    w.inverse_inertia = Mat3::Identity();
    p.mobility.push_back(w);
    for (int c = 0; c < 2; ++c)
      for (int k = 0; k < block; ++k) p.Dt(block * c + k, k) = 1.0;
    const double eps = 1e-3;
    Eigen::VectorXd b = Eigen::VectorXd::Zero(2 * block);
    b[0] = -1.0;
    b[block] = -1.0 + eps;
    Eigen::VectorXd warm = Eigen::VectorXd::Zero(2 * block);
    warm[0] = 0.5;
    warm[block] = 0.5;
    Eigen::VectorXd exact = Eigen::VectorXd::Zero(2 * block);
    exact[0] = 1.0;
    const QuadraticProgram qp = test::makeQp(p, b, model, {0.5, 0.5});
    const Eigen::MatrixXd A = p.A();
    ASSERT_NEAR(
        (A * (Eigen::VectorXd(2 * block) << exact.head(block), -exact.head(block)).finished())
            .norm(),
        0.0, 1e-15);  // a self-stress
    const test::RunResult r = runMprgp(qp, warm, 1e-12, 200);
    SCOPED_TRACE(frictionModelName(model));
    EXPECT_TRUE(r.report.converged) << r.report.residual;
    EXPECT_LE(r.report.iterations, 20);
    EXPECT_LE((r.gamma - exact).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_NEAR(r.report.objective, -0.5, 1e-14);
  }
}

// A ray of K along which q decreases without bound (A = 0 on it): the solve
// stops, unconverged, instead of returning a point at infinity.
TEST(mprgp_solver, UnboundedProblemIsNotConvergence) {
  test::DenseFactored p;
  p.Dt = Eigen::MatrixXd::Zero(3, 6);
  BodyMobility w;
  w.inverse_mass = 1.0;
  w.inverse_inertia = Mat3::Identity();
  p.mobility.push_back(w);
  p.Dt(0, 3) = 1.0;  // the normal row acts on a rotation, the tangents on nothing
  p.mobility[0].inverse_inertia = Mat3::Zero();
  Eigen::VectorXd b(3);
  b << -1.0, 0.0, 0.0;
  const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Coulomb, {0.5});
  const test::RunResult r = runMprgp(qp, Eigen::VectorXd::Zero(3), 1e-10, 100);
  EXPECT_FALSE(r.report.converged);
  EXPECT_TRUE(std::isfinite(r.report.objective));
  EXPECT_DOUBLE_EQ(r.report.residual, r.measures.residual);
}

// Statically indeterminate Coulomb problems (24 contacts on 4 bodies, no
// regularisation: A has a null space of self-stresses) with b built so a
// chosen gamma* mixing interior, zero and sliding contacts is optimal. gamma*
// need not be unique, the optimal objective is.
TEST(mprgp_solver, IndeterminateCoulombProblemReachesTheOptimum) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> mu_dist(0.1, 0.9);
    const test::DenseFactored p = test::randomContactProblem(rng, 4, 24, 3, 1.0, 0.0);
    std::vector<double> mu(24);
    for (auto& m : mu) m = mu_dist(rng);
    Eigen::VectorXd exact;
    const Eigen::VectorXd b = test::knownSolutionRhs(rng, p.A(), FrictionModel::Coulomb, mu, exact);
    const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Coulomb, mu);
    // At 1e-10 MPRGP stalls between 1e-10 and 5e-10 on seeds 1 and 2, as the
    // last bits of diag(A) fall (docs/solvers.md: it is not registered).
    const test::RunResult r = runMprgp(qp, Eigen::VectorXd::Zero(72), 1e-9, 100000);
    SCOPED_TRACE("seed " + std::to_string(seed));
    EXPECT_TRUE(r.report.converged) << r.report.residual;
    const double optimum = test::objective(p.A(), b, exact);
    EXPECT_NEAR(r.report.objective, optimum, 1e-8 * (1.0 + std::abs(optimum)));
    EXPECT_DOUBLE_EQ(r.report.residual, r.measures.residual);
  }
}

// Frictionless steps are exact (no retraction): every CG, expansion and
// proportioning step lowers q, on a rank-deficient problem from an interior
// warm start.
TEST(mprgp_solver, FrictionlessObjectiveDecreasesAtEveryStep) {
  std::mt19937 rng(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  const test::DenseFactored p = test::randomContactProblem(rng, 6, 40, 1, 0.5, 0.0);
  Eigen::VectorXd b(40), warm(40);
  for (int i = 0; i < 40; ++i) b[i] = normal(rng);
  for (int i = 0; i < 40; ++i) warm[i] = std::abs(normal(rng));
  const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Frictionless);
  test::ObjectiveTrace trace;
  const test::RunResult r = runMprgpObserved(qp, warm, 1e-10, 20000, trace);
  EXPECT_TRUE(r.report.converged) << r.report.residual;
  ASSERT_EQ(static_cast<int>(trace.objectives.size()), r.report.iterations);
  ASSERT_GE(trace.objectives.size(), 10u);
  test::expectMonotone(trace, test::objective(p.A(), b, warm));
}

// A warm start that already solves the problem costs one product and no
// iteration.
TEST(mprgp_solver, SolvedWarmStartNeedsNoIteration) {
  std::mt19937 rng(3);
  const test::DenseFactored p = test::randomContactProblem(rng, 4, 6, 3, 0.5, 0.05);
  std::vector<double> mu(6, 0.4);
  Eigen::VectorXd exact;
  const Eigen::VectorXd b = test::knownSolutionRhs(rng, p.A(), FrictionModel::Coulomb, mu, exact);
  const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Coulomb, mu);
  const test::RunResult r = runMprgp(qp, exact, 1e-10, 100);
  EXPECT_TRUE(r.report.converged);
  EXPECT_EQ(r.report.iterations, 0);
  EXPECT_EQ(r.report.operator_applies, 1);
}

}  // namespace
}  // namespace grains
