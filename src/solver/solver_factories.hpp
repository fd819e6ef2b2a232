#pragma once
// Factories of the solver implementations (internal to src/solver); the only
// user is the table in solver_registry.cpp.
#include "grains/solver/solver.hpp"

#include <memory>

namespace grains::solver_detail {

std::unique_ptr<Solver> makeBbpgdSolver(const SolverSettings& settings);
std::unique_ptr<Solver> makeApgdSolver(const SolverSettings& settings);
std::unique_ptr<Solver> makePgsSolver(const SolverSettings& settings);
std::unique_ptr<Solver> makeJacobiSolver(const SolverSettings& settings);
std::unique_ptr<Solver> makeGpminresSolver(const SolverSettings& settings);
std::unique_ptr<Solver> makeSpgSolver(const SolverSettings& settings);
std::unique_ptr<Solver> makeKuceraSolver(const SolverSettings& settings);
std::unique_ptr<Solver> makeCpgSolver(const SolverSettings& settings);
std::unique_ptr<Solver> makeNewtonSolver(const SolverSettings& settings);
std::unique_ptr<Solver> makeNgsSolver(const SolverSettings& settings);
std::unique_ptr<Solver> makeAdmmSolver(const SolverSettings& settings);
/// MPRGP on Coulomb cones (mprgp_solver.cpp). Not in the registry: it is
/// correct but on frictional piles 4-165x costlier than apgd, and slower than
/// the registry's Coulomb suites allow (docs/solvers.md). Needs the options
/// gamma, step_factor, power_iterations and expansion.
std::unique_ptr<Solver> makeMprgpSolver(const SolverSettings& settings);

/// Wraps `inner` (which solves inner_model = box or cylinder with given
/// bounds) in the Tresca-to-Coulomb fixed point; see friction_fixed_point.cpp.
std::unique_ptr<Solver> makeFrictionFixedPoint(std::unique_ptr<Solver> inner,
                                               FrictionModel inner_model,
                                               const SolverSettings& settings);

}  // namespace grains::solver_detail
