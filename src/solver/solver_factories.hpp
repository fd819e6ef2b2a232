#pragma once
// Factories of the solver implementations (internal to src/solver); the only
// user is the table in solver_registry.cpp.
#include "grains/solver/solver.hpp"

#include <memory>

namespace grains::solver_detail {

std::unique_ptr<Solver> makeBbpgdSolver(const SolverSettings& settings);
std::unique_ptr<Solver> makeApgdSolver(const SolverSettings& settings);
std::unique_ptr<Solver> makePgsSolver(const SolverSettings& settings);

}  // namespace grains::solver_detail
