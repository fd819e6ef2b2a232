// The solver table: names, option validation and its error messages.
#include "grains/solver/solver.hpp"

#include "solver_test_support.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace grains {
namespace {

std::string creationError(const std::string& name, const SolverSettings& settings) {
  try {
    SolverRegistry::instance().create(name, settings);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

void expectContains(const std::string& msg, const std::vector<std::string>& parts) {
  ASSERT_FALSE(msg.empty()) << "expected std::invalid_argument";
  for (const auto& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << p << " in: " << msg;
}

TEST(SolverRegistry, ListsTheSolversAndCreatesThem) {
  const auto& registry = SolverRegistry::instance();
  // The solver suite of Heyn et al. (2013) / Preclik et al. (2009) plus the foundation's solvers.
  EXPECT_EQ(registry.names(),
            (std::vector<std::string>{"bbpgd", "apgd", "pgs", "jacobi", "spg", "gpminres", "cpg",
                                      "newton", "ngs", "kucera", "admm"}));
  for (const auto& name : registry.names()) {
    const auto solver = registry.create(name, SolverSettings{});
    ASSERT_NE(solver, nullptr);
    EXPECT_EQ(solver->name(), name);
    EXPECT_FALSE(registry.find(name)->description.empty());
  }
  EXPECT_TRUE(registry.find("pgs")->needs_factored_operator);
  EXPECT_FALSE(registry.find("bbpgd")->needs_factored_operator);
  EXPECT_FALSE(registry.find("apgd")->needs_factored_operator);
  EXPECT_EQ(registry.find("nope"), nullptr);
}

TEST(SolverRegistry, UnknownSolverListsTheKnownOnes) {
  expectContains(creationError("gauss", {}), {"gauss", "bbpgd", "apgd", "pgs"});
}

TEST(SolverRegistry, UnknownOptionNamesSolverOptionValueAndAccepted) {
  SolverSettings s;
  s.options["omegaa"] = 1.2;
  expectContains(creationError("pgs", s),
                 {"pgs", "omegaa", "1.2", "omega", "check_every", "split_mass"});
  s.options = {{"omega", 1.0}};
  expectContains(creationError("bbpgd", s), {"bbpgd", "omega", "(none)"});
}

TEST(SolverRegistry, OutOfRangeValuesNameTheRange) {
  SolverSettings s;
  s.options["omega"] = 2.5;
  expectContains(creationError("pgs", s), {"pgs", "omega", "2.5", "[0.01, 1.99]"});
  s.options = {{"check_every", 1.5}};
  expectContains(creationError("pgs", s), {"pgs", "check_every", "1.5", "integer", "[1, 1000]"});
  s.options = {{"lipschitz_shrink", 0.1}};
  expectContains(creationError("apgd", s), {"apgd", "lipschitz_shrink", "0.1", "[0.5, 1]"});
  s.options = {{"max_backtracks", 0}};
  expectContains(creationError("apgd", s), {"apgd", "max_backtracks", "[1, 200]"});
  s.options = {{"relaxation", 2.0}};
  expectContains(creationError("admm", s), {"admm", "relaxation", "2", "[1, 1.9]"});
  s.options.clear();
  s.tolerance = -1.0;
  expectContains(creationError("apgd", s), {"apgd", "tolerance", "-1"});
  s.tolerance = 1e-6;
  s.max_iterations = -3;
  expectContains(creationError("bbpgd", s), {"bbpgd", "max_iterations", "-3"});
}

TEST(SolverRegistry, AcceptsInRangeValuesAtTheBounds) {
  SolverSettings s;
  s.options = {{"omega", 1.99}, {"check_every", 1000}};
  EXPECT_NO_THROW(SolverRegistry::instance().create("pgs", s));
  s.options = {{"max_backtracks", 1}, {"lipschitz_shrink", 1.0}};
  EXPECT_NO_THROW(SolverRegistry::instance().create("apgd", s));
}

TEST(SolverOption, ReturnsTheValueOrThrows) {
  SolverSettings s;
  s.options["omega"] = 0.7;
  EXPECT_EQ(solverOption(s, "omega"), 0.7);
  EXPECT_THROW(solverOption(s, "check_every"), std::invalid_argument);
}

TEST(SolverRegistry, PgsWithoutFactoredOperatorThrows) {
  const QuadraticProgram qp = test::makeQp(
      Eigen::MatrixXd::Identity(2, 2), Eigen::Vector2d(-1.0, 1.0), FrictionModel::Frictionless, {});
  Vector gamma(qp.map(), true);
  const auto pgs = SolverRegistry::instance().create("pgs", {});
  try {
    pgs->solve(qp, gamma);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    expectContains(e.what(), {"pgs", "factored"});
  }
}

}  // namespace
}  // namespace grains
