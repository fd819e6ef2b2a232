// Nonlinear Gauss-Seidel (Preclik et al. (2009) eqs. 14-16): the disc subproblem against
// brute force, one exact sweep on uncoupled contacts, box and cylinder
// problems against known solutions, and the Coulomb fixed point.
#include "grains/solver/solver.hpp"

#include "../../../src/solver/row_sweep_kernels.hpp"
#include "fixed_bounds_support.hpp"
#include "solver_test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace grains {
namespace {

double discObjective(const Eigen::Matrix2d& A, const Eigen::Vector2d& b, const Eigen::Vector2d& x) {
  return 0.5 * x.dot(A * x) + b.dot(x);
}

/// Brute-force minimiser over the disc: the unconstrained minimiser if it
/// lies inside, else the best of 20000 angles on the circle refined by
/// golden-section search around it.
Eigen::Vector2d bruteForceDisc(const Eigen::Matrix2d& A, const Eigen::Vector2d& b, double r) {
  const Eigen::Vector2d xs = A.ldlt().solve(-b);
  if (xs.norm() <= r) return xs;
  auto f = [&](double a) {
    return discObjective(A, b, r * Eigen::Vector2d(std::cos(a), std::sin(a)));
  };
  const int samples = 20000;
  const double h = 2.0 * kPi / samples;
  int best = 0;
  for (int k = 1; k < samples; ++k) {
    if (f(k * h) < f(best * h)) best = k;
  }
  double lo = (best - 1) * h;
  double hi = (best + 1) * h;
  const double g = 0.5 * (std::sqrt(5.0) - 1.0);
  for (int it = 0; it < 200; ++it) {
    const double a = hi - g * (hi - lo);
    const double c = lo + g * (hi - lo);
    (f(a) < f(c) ? hi : lo) = f(a) < f(c) ? c : a;
  }
  const double a = 0.5 * (lo + hi);
  return r * Eigen::Vector2d(std::cos(a), std::sin(a));
}

/// Random SPD 2x2 block with eigenvalue ratio `ratio` and a random orientation.
Eigen::Matrix2d randomBlock(std::mt19937& rng, double ratio) {
  std::uniform_real_distribution<double> u(0.5, 2.0);
  std::uniform_real_distribution<double> angle(0.0, kPi);
  const double l2 = u(rng);
  const double t = angle(rng);
  Eigen::Matrix2d Q;
  Q << std::cos(t), -std::sin(t), std::sin(t), std::cos(t);
  return Q * Eigen::Vector2d(l2 / ratio, l2).asDiagonal() * Q.transpose();
}

// Eq. 14 on random blocks, isotropic to strongly anisotropic (ratio 1000).
// Isotropic blocks need no Newton iteration (the projection of the
// unconstrained solution is the minimiser, §3.1); anisotropic ones do, and
// Newton on the angle (eq. 16) converges from the projection in almost all
// cases without the secular-equation safeguard.
TEST(ngsDisc, MatchesBruteForceOnRandomBlocks) {
  std::mt19937 rng(12);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int boundary = 0, anisotropic_newton = 0, fallbacks = 0, max_iterations = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const bool isotropic = trial % 4 == 0;
    const double ratio = isotropic ? 1.0 : std::pow(10.0, 3.0 * unit(rng));
    const Eigen::Matrix2d A = randomBlock(rng, ratio);
    const Eigen::Vector2d b(normal(rng), normal(rng));
    const double r = 0.05 + unit(rng);
    const solver_detail::DiscSolution s = solver_detail::solveDiscProblem(A, b, r, 30);
    const Eigen::Vector2d reference = bruteForceDisc(A, b, r);
    SCOPED_TRACE("trial " + std::to_string(trial) + ", ratio " + std::to_string(ratio));
    EXPECT_LE(s.x.norm(), r * (1.0 + 1e-14));
    const double scale = 1.0 + std::abs(discObjective(A, b, reference));
    EXPECT_LE(discObjective(A, b, s.x), discObjective(A, b, reference) + 1e-13 * scale);
    EXPECT_LE((s.x - reference).norm(), 1e-6 * r);
    if (s.interior) {
      EXPECT_EQ(s.newton_iterations, 0);
      continue;
    }
    ++boundary;
    if (s.fallback) ++fallbacks;
    max_iterations = std::max(max_iterations, s.newton_iterations);
    if (isotropic) {
      EXPECT_LE(s.newton_iterations, 1);  // exact start (up to rounding)
    } else if (ratio > 2.0 && s.newton_iterations > 0 && !s.fallback) {
      ++anisotropic_newton;
    }
  }
  EXPECT_GT(boundary, 200);
  EXPECT_GT(anisotropic_newton, 100);
  EXPECT_LE(fallbacks, boundary / 50);
  EXPECT_LE(max_iterations, 30);
}

// With a single Newton iteration allowed the angle iteration is usually not
// converged on anisotropic blocks; the secular-equation safeguard still
// returns the exact minimiser. Radius 0 gives 0.
TEST(ngsDisc, SafeguardGivesTheMinimiserWhenNewtonIsCut) {
  std::mt19937 rng(5);
  std::normal_distribution<double> normal(0.0, 1.0);
  int fallbacks = 0;
  for (int trial = 0; trial < 100; ++trial) {
    const Eigen::Matrix2d A = randomBlock(rng, 300.0);
    const Eigen::Vector2d b(3.0 * normal(rng), 3.0 * normal(rng));
    const solver_detail::DiscSolution s = solver_detail::solveDiscProblem(A, b, 0.2, 1);
    const Eigen::Vector2d reference = bruteForceDisc(A, b, 0.2);
    EXPECT_LE((s.x - reference).norm(), 1e-6) << trial;
    if (s.fallback) ++fallbacks;
  }
  EXPECT_GT(fallbacks, 10);
  const Eigen::Vector2d zero = solver_detail::solveDiscProblem(Eigen::Matrix2d::Identity(),
                                                               Eigen::Vector2d(1.0, 2.0), 0.0, 30)
                                   .x;
  EXPECT_EQ(zero, Eigen::Vector2d::Zero());
}

/// ngs through the registry for a coulomb / pyramid problem: the
/// Tresca-to-Coulomb fixed point over cylinder / box, iterated until the
/// bounds change by less than half the tolerance.
test::RunResult runTrescaFixedPoint(const QuadraticProgram& qp, double tolerance) {
  SolverSettings settings;
  settings.tolerance = tolerance;
  settings.max_iterations = 100000;
  settings.outer_iterations = 500;
  settings.outer_tolerance = 0.0;
  const auto solver = SolverRegistry::instance().create("ngs", settings, qp.cones.model);
  auto gamma = test::makeVector(qp.map(), Eigen::VectorXd::Zero(qp.b->getGlobalLength()));
  test::RunResult r;
  r.report = solver->solve(qp, *gamma);
  r.gamma = test::gather(*gamma);
  r.measures = evaluateMeasures(qp, *gamma);
  return r;
}

/// Contacts on separate bodies with prescribed 3x3 blocks A_c = L_c L_c^T
/// (D^T_c = L_c on the body's linear DOFs, unit mobility).
test::DenseFactored uncoupledContacts(const std::vector<Eigen::Matrix3d>& blocks) {
  const int contacts = static_cast<int>(blocks.size());
  test::DenseFactored p;
  p.Dt = Eigen::MatrixXd::Zero(3 * contacts, 6 * contacts);
  for (int c = 0; c < contacts; ++c) {
    BodyMobility w;
    w.inverse_mass = 1.0;
    w.inverse_inertia = Mat3::Identity();
    p.mobility.push_back(w);
    const Eigen::Matrix3d L = blocks[static_cast<std::size_t>(c)].llt().matrixL();
    p.Dt.block<3, 3>(3 * c, 6 * c) = L;
  }
  return p;
}

// Uncoupled contacts whose blocks have no normal-tangential coupling: one
// sweep (normal projection, then eq. 14 on the anisotropic tangential block)
// is exact; the tangential pairs match the brute-force disc minimiser.
TEST(ngs, OneSweepSolvesUncoupledCylinderContacts) {
  std::mt19937 rng(9);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> u(0.3, 1.5);
  const int contacts = 10;
  std::vector<Eigen::Matrix3d> blocks(contacts);
  std::vector<double> mu(contacts), bound(contacts);
  Eigen::VectorXd b(3 * contacts), exact(3 * contacts);
  int sliding = 0;
  for (int c = 0; c < contacts; ++c) {
    blocks[c].setZero();
    blocks[c](0, 0) = u(rng);
    blocks[c].bottomRightCorner<2, 2>() = randomBlock(rng, c % 2 == 0 ? 1.0 : 50.0);
    mu[c] = 0.5 * u(rng);
    bound[c] = u(rng);
    for (int k = 0; k < 3; ++k) b[3 * c + k] = normal(rng);
    exact[3 * c] = std::max(0.0, -b[3 * c] / blocks[c](0, 0));
    const Eigen::Vector2d t = bruteForceDisc(blocks[c].bottomRightCorner<2, 2>(),
                                             b.segment<2>(3 * c + 1), mu[c] * bound[c]);
    exact.segment<2>(3 * c + 1) = t;
    if (t.norm() > mu[c] * bound[c] * (1.0 - 1e-9)) ++sliding;
  }
  ASSERT_GT(sliding, 3);
  const test::DenseFactored p = uncoupledContacts(blocks);
  QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Cylinder, mu);
  test::setNormalBounds(qp, bound);
  const test::RunResult r = test::run("ngs", qp, Eigen::VectorXd::Zero(3 * contacts), 1e-12, 50);
  EXPECT_TRUE(r.report.converged) << r.report.residual;
  EXPECT_EQ(r.report.iterations, 1);
  EXPECT_LE((r.gamma - exact).cwiseAbs().maxCoeff(), 1e-7);
}

// Box and cylinder on coupled contact problems against known solutions.
TEST(ngs, FixedBoundsModelsMatchKnownSolutions) {
  for (FrictionModel model : {FrictionModel::Box, FrictionModel::Cylinder}) {
    for (unsigned seed = 1; seed <= 3; ++seed) {
      std::mt19937 rng(300 + seed);
      std::uniform_real_distribution<double> u(0.2, 1.0);
      const test::DenseFactored p = test::randomContactProblem(rng, 5, 12, 3, 0.5, 0.05);
      std::vector<double> mu(12), bound(12);
      for (int c = 0; c < 12; ++c) {
        mu[c] = c == 3 ? 0.0 : u(rng);
        bound[c] = 2.0 * u(rng);
      }
      Eigen::VectorXd exact;
      const Eigen::VectorXd b = test::knownFixedBoundsRhs(rng, p.A(), model, mu, bound, exact);
      QuadraticProgram qp = test::makeQp(p, b, model, mu);
      test::setNormalBounds(qp, bound);
      const test::RunResult r =
          test::run("ngs", qp, Eigen::VectorXd::Zero(36), 1e-11, 100000, {{"omega", 1.0}});
      SCOPED_TRACE(frictionModelName(model) + " seed " + std::to_string(seed));
      EXPECT_TRUE(r.report.converged) << r.report.residual;
      EXPECT_LE((r.gamma - exact).cwiseAbs().maxCoeff(), 1e-8);
      EXPECT_EQ(r.report.operator_applies, r.report.iterations + 1);
    }
  }
}

// Coulomb: the iteration with r = mu * g_n adapted inside the sweep converges
// to Coulomb friction with the unrelaxed normal condition, not to the cone QP
// minimiser. On uncoupled isotropic contacts (A_c = a_c I) that fixed point is
// g_n = max(0, -b_n / a), g_t = Pi_disc(mu g_n)(-b_t / a), while the cone QP
// gives Pi_cone(-b / a); they differ at sliding contacts. Called directly on a
// coulomb problem the solver finds the former (reporting the quasi-variational
// residual), and so does the registry's fixed point over cylinder.
TEST(ngs, CoulombGivesTheFixedPointNotTheConeQp) {
  const SolverEntry* entry = SolverRegistry::instance().find("ngs");
  ASSERT_NE(entry, nullptr);
  EXPECT_FALSE(entry->solvesDirectly(FrictionModel::Coulomb));
  EXPECT_FALSE(entry->solvesDirectly(FrictionModel::Pyramid));
  EXPECT_TRUE(entry->supports(FrictionModel::Coulomb));

  std::mt19937 rng(21);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> u(0.3, 3.0);
  const int contacts = 12;
  std::vector<Eigen::Matrix3d> blocks(contacts);
  std::vector<double> mu(contacts);
  Eigen::VectorXd b(3 * contacts), fixed_point(3 * contacts), cone_qp(3 * contacts);
  int differ = 0;
  for (int c = 0; c < contacts; ++c) {
    const double a = u(rng);
    blocks[c] = a * Eigen::Matrix3d::Identity();
    mu[c] = 0.2 * u(rng);
    for (int k = 0; k < 3; ++k) b[3 * c + k] = normal(rng);
    const Eigen::Vector3d free = -b.segment<3>(3 * c) / a;
    const double n = std::max(0.0, free[0]);
    Eigen::Vector2d t = free.tail<2>();
    if (t.norm() > mu[c] * n) t *= mu[c] * n / t.norm();
    fixed_point.segment<3>(3 * c) << n, t;
    Eigen::Vector3d cone = free;
    projectCoulombCone(mu[c], cone[0], cone[1], cone[2]);
    cone_qp.segment<3>(3 * c) = cone;
    if ((cone - fixed_point.segment<3>(3 * c)).norm() > 1e-3) ++differ;
  }
  ASSERT_GT(differ, 2);
  const test::DenseFactored p = uncoupledContacts(blocks);
  const QuadraticProgram qp = test::makeQp(p, b, FrictionModel::Coulomb, mu);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(3 * contacts);

  SolverSettings settings;
  settings.tolerance = 1e-12;
  settings.max_iterations = 100;
  const auto direct = SolverRegistry::instance().create("ngs", settings);
  auto gamma = test::makeVector(qp.map(), zero);
  const SolveReport report = direct->solve(qp, *gamma);
  EXPECT_TRUE(report.converged) << report.residual;
  EXPECT_EQ(report.iterations, 1);  // uncoupled: the adapted sweep is exact
  const Eigen::VectorXd x = test::gather(*gamma);
  EXPECT_LE((x - fixed_point).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_GT((x - cone_qp).cwiseAbs().maxCoeff(), 1e-3);
  // The cone QP's natural residual does not vanish there.
  EXPECT_GT(evaluateMeasures(qp, *gamma).residual, 1e-3);

  const test::RunResult wrapped = runTrescaFixedPoint(qp, 1e-12);
  EXPECT_TRUE(wrapped.report.converged) << wrapped.report.residual;
  EXPECT_GE(wrapped.report.outer_iterations, 2);
  EXPECT_LE((wrapped.gamma - fixed_point).cwiseAbs().maxCoeff(), 1e-12);
}

// The Coulomb and pyramid fixed points on coupled contacts: the direct
// (continuously adapted) iteration and the registry's Tresca fixed point
// reach the same quasi-variational solution.
TEST(ngs, AdaptedBoundsAgreeWithTheTrescaFixedPoint) {
  for (FrictionModel model : {FrictionModel::Coulomb, FrictionModel::Pyramid}) {
    std::mt19937 rng(41);
    std::normal_distribution<double> normal(0.0, 1.0);
    const test::DenseFactored p = test::randomContactProblem(rng, 5, 8, 3, 1.0, 0.05);
    Eigen::VectorXd b(24);
    for (int i = 0; i < 24; ++i) b[i] = normal(rng);
    const QuadraticProgram qp = test::makeQp(p, b, model, std::vector<double>(8, 0.3));
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(24);
    SolverSettings settings;
    settings.tolerance = 1e-11;
    settings.max_iterations = 100000;
    const auto direct = SolverRegistry::instance().create("ngs", settings);
    auto gamma = test::makeVector(qp.map(), zero);
    const SolveReport report = direct->solve(qp, *gamma);
    const test::RunResult wrapped = runTrescaFixedPoint(qp, 1e-11);
    SCOPED_TRACE(frictionModelName(model));
    EXPECT_TRUE(report.converged) << report.residual;
    EXPECT_TRUE(wrapped.report.converged) << wrapped.report.residual;
    const Eigen::VectorXd x = test::gather(*gamma);
    EXPECT_GT(x.cwiseAbs().maxCoeff(), 1e-2);  // a nontrivial solution
    EXPECT_LE((x - wrapped.gamma).cwiseAbs().maxCoeff(), 1e-8);
  }
}

}  // namespace
}  // namespace grains
