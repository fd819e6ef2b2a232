// `grains qp solvers`: the registry as CSV, one row per solver, so that
// scripts (scripts/bench/cvxopt_reference.py) check every registered solver.
#include "grains/app/qp_lab.hpp"
#include "grains/solver/solver.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace grains {
namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(QpSolverListing, OneRowPerRegisteredSolverInRegistryOrder) {
  const auto rows = lines(qpSolverListing());
  const auto names = SolverRegistry::instance().names();
  ASSERT_EQ(rows.size(), names.size() + 1);
  EXPECT_EQ(rows[0], "solver,direct_models,fixed_point_models,needs_factored_operator");
  for (std::size_t i = 0; i < names.size(); ++i)
    EXPECT_EQ(rows[i + 1].substr(0, names[i].size() + 1), names[i] + ",") << rows[i + 1];
}

TEST(QpSolverListing, ModelsAsTheRegistryDeclaresThem) {
  const std::string text = qpSolverListing();
  EXPECT_NE(text.find("\napgd,frictionless coulomb pyramid box cylinder coulomb_rolling,,0\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\npgs,frictionless coulomb pyramid box cylinder,,1\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("\ncpg,frictionless box cylinder,coulomb pyramid,0\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("\nkucera,frictionless box,pyramid,0\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace grains
