// apgd started from an image the caller measured (Solver::solveFromImage,
// how the time stepper hands on the A gamma of its warm-start check) solves
// exactly as from the warm start alone, one application of A cheaper.
#include "grains/solver/solver.hpp"

#include "solver_test_support.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace grains {
namespace {

struct StartImageCase {
  QuadraticProgram qp;
  Eigen::VectorXd warm_start;  // strictly inside every cone: projecting it changes no bit
};

StartImageCase startImageCase() {
  std::mt19937 rng(23);
  const int contacts = 40;
  const test::DenseFactored f = test::randomContactProblem(rng, 8, contacts, 3, 1.0, 0.05);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Eigen::VectorXd b(3 * contacts);
  for (int i = 0; i < 3 * contacts; ++i) b[i] = normal(rng);
  const double mu = 0.5;
  StartImageCase out{test::makeQp(f, b, FrictionModel::Coulomb, std::vector<double>(contacts, mu)),
                     Eigen::VectorXd(3 * contacts)};
  for (int c = 0; c < contacts; ++c) {
    const double n = unit(rng);
    out.warm_start.segment<3>(3 * c) << n, 0.4 * mu * n * (2.0 * unit(rng) - 1.0),
        0.4 * mu * n * (2.0 * unit(rng) - 1.0);
  }
  return out;
}

TEST(ApgdStartImage, SolvesAsFromTheWarmStartWithOneApplicationLess) {
  const StartImageCase k = startImageCase();
  auto projected = test::makeVector(k.qp.map(), k.warm_start);
  k.qp.cones.project(*projected);
  ASSERT_EQ(test::gather(*projected), k.warm_start) << "the warm start must lie inside K";
  for (int check_every : {1, 3}) {
    SCOPED_TRACE("check_every " + std::to_string(check_every));
    SolverSettings settings;
    settings.tolerance = 1e-6;
    settings.max_iterations = 20000;
    settings.options["check_every"] = check_every;
    const auto solver = SolverRegistry::instance().create("apgd", settings, FrictionModel::Coulomb);

    auto plain = test::makeVector(k.qp.map(), k.warm_start);
    const SolveReport from_warm_start = solver->solve(k.qp, *plain);

    auto started = test::makeVector(k.qp.map(), k.warm_start);
    Vector image(started->getMap(), false);
    const ResidualSpread miss = evaluateResidualSpreadKeepingImage(k.qp, *started, 1.0, image);
    EXPECT_EQ(miss.worst, evaluateMeasures(k.qp, *started).residual);
    const SolveReport from_image = solver->solveFromImage(k.qp, *started, image);

    ASSERT_TRUE(from_warm_start.converged) << from_warm_start.residual;
    EXPECT_GT(from_warm_start.iterations, 20);
    EXPECT_EQ(test::gather(*started), test::gather(*plain));
    EXPECT_EQ(from_image.iterations, from_warm_start.iterations);
    EXPECT_EQ(from_image.residual, from_warm_start.residual);
    EXPECT_EQ(from_image.objective, from_warm_start.objective);
    EXPECT_EQ(from_image.operator_applies, from_warm_start.operator_applies - 1);
  }
}

TEST(ApgdStartImage, AWarmStartThatMeetsTheToleranceCostsNoApplication) {
  const StartImageCase k = startImageCase();
  SolverSettings settings;
  settings.tolerance = 1e3;  // met by any point of K
  const auto solver = SolverRegistry::instance().create("apgd", settings, FrictionModel::Coulomb);
  auto gamma = test::makeVector(k.qp.map(), k.warm_start);
  Vector image(gamma->getMap(), false);
  const ResidualSpread miss = evaluateResidualSpreadKeepingImage(k.qp, *gamma, 1.0, image);
  const SolveReport report = solver->solveFromImage(k.qp, *gamma, image);
  EXPECT_TRUE(report.converged);
  EXPECT_EQ(report.iterations, 0);
  EXPECT_EQ(report.operator_applies, 0);
  EXPECT_EQ(report.residual, miss.worst);
  EXPECT_EQ(test::gather(*gamma), k.warm_start);
}

TEST(ApgdStartImage, RefusesAnImageOnAnotherMap) {
  const StartImageCase k = startImageCase();
  const auto solver =
      SolverRegistry::instance().create("apgd", SolverSettings{}, FrictionModel::Coulomb);
  auto gamma = test::makeVector(k.qp.map(), k.warm_start);
  Vector image(test::contactRowMap(41, 3), false);
  EXPECT_THROW(solver->solveFromImage(k.qp, *gamma, image), std::invalid_argument);
}

}  // namespace
}  // namespace grains
