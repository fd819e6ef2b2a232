// The friction models of Preclik et al. (2009) Table 1: exact projections onto each
// contact set, and every solver on every model it supports, directly or
// through the Tresca-to-Coulomb fixed point, against closed forms.
#include "grains/solver/cone_set.hpp"
#include "grains/solver/solver.hpp"

#include "solver_test_support.hpp"

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <random>
#include <stdexcept>

namespace grains {
namespace {

bool inSet(const ConeSet& set, std::size_t c, const Eigen::Vector3d& x, double slack) {
  Eigen::Vector3d p = x;
  set.projectContact(c, p.data());
  return (p - x).norm() <= slack;
}

// Projection characterisation: p = Pi(x) iff p in S and (x - p).(y - p) <= 0
// for every y in S. Checked against many random points y of S (projections of
// random points) for each model.
TEST(FrictionModelProjection, VariationalInequalityHoldsForEveryModel) {
  std::mt19937 rng(77);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> u(0.0, 1.5);
  for (FrictionModel model : {FrictionModel::Coulomb, FrictionModel::Pyramid, FrictionModel::Box,
                              FrictionModel::Cylinder}) {
    ConeSet set;
    set.model = model;
    set.mu = {u(rng)};
    set.normal_bound = {u(rng)};
    for (int trial = 0; trial < 400; ++trial) {
      if (trial % 50 == 0) {
        set.mu[0] = trial == 0 ? 0.0 : u(rng);  // mu = 0 included
        set.normal_bound[0] = u(rng);
      }
      const Eigen::Vector3d x(2.0 * normal(rng), 2.0 * normal(rng), 2.0 * normal(rng));
      Eigen::Vector3d p = x;
      set.projectContact(0, p.data());
      SCOPED_TRACE(frictionModelName(model) + " trial " + std::to_string(trial));
      ASSERT_TRUE(inSet(set, 0, p, 1e-12));
      Eigen::Vector3d again = p;
      set.projectContact(0, again.data());
      EXPECT_LE((again - p).norm(), 1e-12);  // idempotent
      for (int k = 0; k < 60; ++k) {
        Eigen::Vector3d y(2.0 * normal(rng), 2.0 * normal(rng), 2.0 * normal(rng));
        set.projectContact(0, y.data());
        EXPECT_LE((x - p).dot(y - p), 1e-10 * (1.0 + x.norm() * y.norm()));
      }
    }
  }
}

TEST(FrictionModelProjection, PyramidCasesByHand) {
  // Inside: unchanged.
  double n = 1.0, u = 0.2, w = -0.3;
  projectPyramid(0.5, n, u, w);
  EXPECT_DOUBLE_EQ(n, 1.0);
  EXPECT_DOUBLE_EQ(u, 0.2);
  EXPECT_DOUBLE_EQ(w, -0.3);
  // Polar: everything to the apex.
  n = -1.0, u = 0.1, w = 0.1;
  projectPyramid(0.5, n, u, w);
  EXPECT_EQ(n, 0.0);
  EXPECT_EQ(u, 0.0);
  EXPECT_EQ(w, 0.0);
  // One face: (1, 2, 0) with mu = 1 -> onto the face u = n: ((1+2)/2, 1.5, 0).
  n = 1.0, u = 2.0, w = 0.0;
  projectPyramid(1.0, n, u, w);
  EXPECT_NEAR(n, 1.5, 1e-15);
  EXPECT_NEAR(u, 1.5, 1e-15);
  EXPECT_NEAR(w, 0.0, 1e-15);
  // Edge: (0, 1, -1) with mu = 1 -> n = (0 + 1 + 1)/3 on the edge u = n, w = -n.
  n = 0.0, u = 1.0, w = -1.0;
  projectPyramid(1.0, n, u, w);
  EXPECT_NEAR(n, 2.0 / 3.0, 1e-15);
  EXPECT_NEAR(u, 2.0 / 3.0, 1e-15);
  EXPECT_NEAR(w, -2.0 / 3.0, 1e-15);
}

TEST(FrictionModelProjection, FixedBoundModelsNeedTheirBounds) {
  ConeSet set;
  set.model = FrictionModel::Box;
  set.mu = {0.5, 0.5};
  double values[6] = {1, 1, 1, 1, 1, 1};
  EXPECT_THROW(set.project(values), std::invalid_argument);
  set.normal_bound = {1.0, 0.0};
  set.project(values);
  EXPECT_DOUBLE_EQ(values[1], 0.5);
  EXPECT_DOUBLE_EQ(values[4], 0.0);  // zero bound: no friction
  double lower[6], upper[6];
  set.bounds(lower, upper);
  EXPECT_EQ(lower[0], 0.0);
  EXPECT_DOUBLE_EQ(upper[1], 0.5);
  EXPECT_DOUBLE_EQ(lower[2], -0.5);
  set.model = FrictionModel::Cylinder;
  EXPECT_THROW(set.bounds(lower, upper), std::invalid_argument);
}

TEST(FrictionModelProjection, NamesAndAliases) {
  for (FrictionModel m : allFrictionModels())
    EXPECT_EQ(parseFrictionModel(frictionModelName(m)), m);
  EXPECT_EQ(parseFrictionModel("cone"), FrictionModel::Coulomb);
  EXPECT_EQ(parseFrictionModel("none"), FrictionModel::Frictionless);
  EXPECT_TRUE(hasFixedBounds(FrictionModel::Box));
  EXPECT_TRUE(hasFixedBounds(FrictionModel::Cylinder));
  EXPECT_FALSE(hasFixedBounds(FrictionModel::Pyramid));
  EXPECT_TRUE(isSeparable(FrictionModel::Box));
  EXPECT_FALSE(isSeparable(FrictionModel::Pyramid));
}

// Uncoupled contacts with A_cc = a_c I3. For a convex set S the QP solution is
// Pi_S(-b / a). For the fixed-point models the normal impulse does not depend
// on the friction here, so the Tresca-to-Coulomb iteration ends at
//   n* = max(0, -b_n / a),  t* = clamp of -b_t / a to the box or disc of size mu n*.
struct UncoupledProblem {
  test::DenseFactored p;
  std::vector<double> mu;
  Eigen::VectorXd b;
};

UncoupledProblem uncoupledProblem(int contacts) {
  std::mt19937 rng(31);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> u(0.3, 3.0);
  UncoupledProblem q;
  q.p.Dt = Eigen::MatrixXd::Zero(3 * contacts, 6 * contacts);
  q.mu.resize(contacts);
  q.b.resize(3 * contacts);
  for (int c = 0; c < contacts; ++c) {
    BodyMobility w;
    w.inverse_mass = u(rng);
    w.inverse_inertia = Mat3::Identity();
    q.p.mobility.push_back(w);
    for (int k = 0; k < 3; ++k) q.p.Dt(3 * c + k, 6 * c + k) = 1.0;
    q.mu[c] = c % 5 == 4 ? 0.0 : 0.6 * u(rng);
    // Mostly pushing contacts (b_n < 0) with large tangential loads: sliding.
    q.b[3 * c] = c % 4 == 3 ? std::abs(normal(rng)) : -std::abs(normal(rng));
    q.b[3 * c + 1] = 2.0 * normal(rng);
    q.b[3 * c + 2] = 2.0 * normal(rng);
  }
  return q;
}

Eigen::VectorXd expectedSolution(const UncoupledProblem& q, FrictionModel model, bool fixed_point) {
  const int contacts = static_cast<int>(q.mu.size());
  Eigen::VectorXd x(3 * contacts);
  for (int c = 0; c < contacts; ++c) {
    const double a = q.p.mobility[c].inverse_mass;
    Eigen::Vector3d g = -q.b.segment<3>(3 * c) / a;
    ConeSet set;
    set.mu = {q.mu[c]};
    if (fixed_point) {
      set.model = model == FrictionModel::Pyramid || model == FrictionModel::Box
                      ? FrictionModel::Box
                      : FrictionModel::Cylinder;
      set.normal_bound = {std::max(g[0], 0.0)};
    } else {
      set.model = model;
    }
    set.projectContact(0, g.data());
    x.segment<3>(3 * c) = g;
  }
  return x;
}

class SolverFrictionModels : public ::testing::TestWithParam<std::string> {};

TEST_P(SolverFrictionModels, UncoupledContactsMatchTheClosedFormOfEveryModel) {
  const std::string solver = GetParam();
  const SolverEntry* entry = SolverRegistry::instance().find(solver);
  const UncoupledProblem q = uncoupledProblem(15);
  int checked = 0;
  for (FrictionModel model : {FrictionModel::Coulomb, FrictionModel::Pyramid, FrictionModel::Box,
                              FrictionModel::Cylinder}) {
    if (!entry->supports(model)) continue;
    const bool fixed_point = hasFixedBounds(model) || !entry->solvesDirectly(model);
    const Eigen::VectorXd exact = expectedSolution(q, model, fixed_point);
    const QuadraticProgram qp = test::makeQp(q.p, q.b, model, q.mu);
    const test::RunResult r =
        test::run(solver, qp, Eigen::VectorXd::Zero(q.b.size()), 1e-11, 20000);
    SCOPED_TRACE(frictionModelName(model) + (fixed_point ? " (fixed point)" : " (direct)"));
    EXPECT_TRUE(r.report.converged) << r.report.residual;
    EXPECT_LE((r.gamma - exact).cwiseAbs().maxCoeff(), 1e-9);
    EXPECT_EQ(r.report.outer_iterations > 0, fixed_point);
    if (fixed_point) {
      EXPECT_LE(r.report.outer_iterations, 3);  // frictionless, then final bounds
    }
    ++checked;
  }
  EXPECT_GT(checked, 0) << solver << " supports no friction model with friction";
}

// The fixed-point residual is measured with the bounds of the returned
// iterate: a stale bound shows up as a residual even when the inner solve is exact.
TEST(FrictionFixedPoint, ResidualSeesInconsistentBounds) {
  const UncoupledProblem q = uncoupledProblem(6);
  const QuadraticProgram qp = test::makeQp(q.p, q.b, FrictionModel::Cylinder, q.mu);
  SolverSettings settings;
  settings.tolerance = 1e-12;
  settings.max_iterations = 1000;
  settings.outer_iterations = 1;  // pure Tresca with bounds from the zero warm start
  const auto solver = SolverRegistry::instance().create("apgd", settings, FrictionModel::Cylinder);
  auto gamma = test::makeVector(qp.map(), Eigen::VectorXd::Zero(q.b.size()));
  const SolveReport one = solver->solve(qp, *gamma);
  EXPECT_EQ(one.outer_iterations, 1);
  EXPECT_FALSE(one.converged);  // the first pass is frictionless: bounds inconsistent
  EXPECT_GT(one.residual, 1e-3);
  settings.outer_iterations = 10;
  const auto full = SolverRegistry::instance().create("apgd", settings, FrictionModel::Cylinder);
  gamma = test::makeVector(qp.map(), Eigen::VectorXd::Zero(q.b.size()));
  const SolveReport many = full->solve(qp, *gamma);
  EXPECT_TRUE(many.converged) << many.residual;
  EXPECT_EQ(many.outer_iterations, 2);  // bounds 0 -> n*, then n* again: stop
}

// Given bounds make box a plain QP: no outer iteration.
TEST(FrictionFixedPoint, GivenBoundsAreSolvedDirectly) {
  const UncoupledProblem q = uncoupledProblem(6);
  QuadraticProgram qp = test::makeQp(q.p, q.b, FrictionModel::Box, q.mu);
  qp.cones.normal_bound.assign(qp.cones.localContacts(), 0.25);
  SolverSettings settings;
  settings.tolerance = 1e-12;
  const auto solver = SolverRegistry::instance().create("apgd", settings, FrictionModel::Box);
  auto gamma = test::makeVector(qp.map(), Eigen::VectorXd::Zero(q.b.size()));
  const SolveReport report = solver->solve(qp, *gamma);
  EXPECT_TRUE(report.converged);
  EXPECT_EQ(report.outer_iterations, 0);
  const Eigen::VectorXd g = test::gather(*gamma);
  for (int c = 0; c < 6; ++c) {
    EXPECT_LE(std::abs(g[3 * c + 1]), 0.25 * q.mu[c] + 1e-12);
    EXPECT_LE(std::abs(g[3 * c + 2]), 0.25 * q.mu[c] + 1e-12);
  }
}

TEST(SolverRegistryModels, UnsupportedPairIsAClearError) {
  for (const auto& name : SolverRegistry::instance().names()) {
    const SolverEntry* entry = SolverRegistry::instance().find(name);
    for (FrictionModel m : allFrictionModels()) {
      if (entry->supports(m)) {
        continue;
      }
      try {
        SolverRegistry::instance().create(name, SolverSettings(), m);
        ADD_FAILURE() << name << " accepted " << frictionModelName(m);
      } catch (const std::invalid_argument& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find(name), std::string::npos) << msg;
        EXPECT_NE(msg.find(frictionModelName(m)), std::string::npos) << msg;
        EXPECT_NE(msg.find("supports"), std::string::npos) << msg;
      }
    }
    EXPECT_TRUE(entry->supports(FrictionModel::Frictionless)) << name;
  }
}

INSTANTIATE_TEST_SUITE_P(Solvers, SolverFrictionModels, ::testing::ValuesIn(test::allSolvers()));

}  // namespace
}  // namespace grains
