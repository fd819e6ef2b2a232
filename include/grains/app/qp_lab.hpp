#pragma once
// The solver laboratory: one registered solver on a contact QP stored by
// `grains run --export-qp`, with a per-iteration history.
#include "grains/app/command_line.hpp"
#include "grains/linalg/tpetra_types.hpp"
#include "grains/solver/solver.hpp"

#include <iosfwd>
#include <string>

namespace grains {

struct QpLabResult {
  SolveReport report;
  double seconds = 0.0;                     ///< solver wall time, history evaluations excluded
  double gamma_min = 0.0, gamma_max = 0.0;  ///< extreme normal impulses of the returned iterate
  long long contacts = 0;
  long long active_set = 0;       ///< contacts with zero normal impulse
  double stored_objective = 0.0;  ///< objective of the run's own solution, for comparison
};

/// Collective over `comm`. Throws std::invalid_argument for an unknown solver
/// or option, std::runtime_error for unreadable files. The history CSV (rank 0)
/// has one row per recorded iteration: iteration, seconds, objective, residual,
/// active_set, complementarity_mean, complementarity_max, residual_q50,
/// residual_q99, where seconds is the solver's own time up to that iteration
/// (the evaluation of these measures, one extra application of A per row, is
/// not counted), complementarity is f_i = gamma_i (A gamma + b)_i over all
/// unknowns (mean of f, max of |f|) and residual_qNN the NN % quantile of the
/// contacts' shares of the natural residual (evaluateResidualSpread).
QpLabResult runQpLab(const QpSolveRequest& request, const RCP<const Comm>& comm);

/// "solver,iterations,objective,residual,converged,seconds,gamma_min,gamma_max,..." header
/// and row, for scripts.
std::string qpLabCsvHeader();
std::string qpLabCsvRow(const QpSolveRequest& request, const QpLabResult& result);

/// `grains qp solvers`: one CSV row per registered solver, in registry order,
/// after the header "solver,direct_models,fixed_point_models,needs_factored_operator";
/// model lists are space-separated canonical names (frictionModelName).
std::string qpSolverListing();

}  // namespace grains
