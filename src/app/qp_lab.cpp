#include "grains/app/qp_lab.hpp"

#include "grains/config/config_loader.hpp"
#include "grains/io/qp_export.hpp"
#include "grains/parallel/mpi_utils.hpp"
#include "grains/solver/quadratic_program.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace grains {
namespace {

struct IterationMeasures {
  double objective = 0.0, residual = 0.0, comp_mean = 0.0, comp_max = 0.0;
  double residual_q50 = 0.0, residual_q99 = 0.0;  ///< the history's spread columns
  long long active = 0;
};

IterationMeasures measure(const QuadraticProgram& qp, const Vector& gamma, Vector& gradient) {
  qp.A->apply(gamma, gradient);
  gradient.update(1.0, *qp.b, 1.0);
  const QpMeasures m = evaluateMeasures(qp, gamma, gradient);
  IterationMeasures out;
  out.objective = m.objective;
  out.residual = m.residual;
  const auto g = gamma.getLocalViewHost(Tpetra::Access::ReadOnly);
  const auto w = gradient.getLocalViewHost(Tpetra::Access::ReadOnly);
  const std::size_t n = gamma.getLocalLength();
  const std::size_t block = static_cast<std::size_t>(qp.cones.blockSize());
  double sum = 0.0, max_abs = 0.0;
  long active = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double f = g(i, 0) * w(i, 0);
    sum += f;
    max_abs = std::max(max_abs, std::abs(f));
    if (i % block == 0 && g(i, 0) == 0.0) ++active;
  }
  const Comm& comm = *gamma.getMap()->getComm();
  out.comp_mean =
      globalSum(comm, sum) / std::max<double>(1.0, static_cast<double>(gamma.getGlobalLength()));
  out.comp_max = globalMax(comm, max_abs);
  out.active = globalSum(comm, active);
  return out;
}

}  // namespace

QpLabResult runQpLab(const QpSolveRequest& request, const RCP<const Comm>& comm) {
  StoredQp stored;
  try {
    stored = readQp(request.dir, comm);  // collective: every rank throws alike
  } catch (const std::runtime_error& e) {
    throw ConfigError(std::string("qp solve: ") + e.what());
  }
  const QuadraticProgram& qp = stored.qp;
  SolverSettings settings;
  if (request.tolerance) settings.tolerance = *request.tolerance;
  if (request.max_iterations) {
    settings.max_iterations =
        static_cast<int>(std::min<long>(*request.max_iterations, std::numeric_limits<int>::max()));
  }
  if (request.outer_iterations)
    settings.outer_iterations = static_cast<int>(*request.outer_iterations);
  for (const auto& [key, value] : request.options) settings.options[key] = value;
  const SolverEntry* entry = SolverRegistry::instance().find(request.solver);
  if (entry && entry->needs_factored_operator && qp.factored.is_null()) {
    throw std::invalid_argument("solver '" + request.solver +
                                "' needs D^T and the mobility (Dt.mtx, mobility.mtx), which '" +
                                request.dir + "' lacks");
  }
  auto solver = SolverRegistry::instance().create(request.solver, settings, qp.cones.model);

  Vector gamma(qp.map(), true);
  if (request.warm_start_from_file) Tpetra::deep_copy(gamma, *stored.warm_start);
  Vector gradient(qp.map(), false);

  // History: the solver's own time excludes the measures taken for the record.
  const int rank = comm->getRank();
  std::ofstream history;
  if (request.history_path && rank == 0) {
    history.open(*request.history_path);
    if (!history) throw std::runtime_error("cannot write '" + *request.history_path + "'");
    history << "iteration,seconds,objective,residual,active_set,complementarity_mean,"
               "complementarity_max,residual_q50,residual_q99\n";
  }
  double start = 0.0;
  double excluded = 0.0;
  auto record = [&](int iteration, const Vector& current) {
    const double now = MPI_Wtime();
    IterationMeasures m = measure(qp, current, gradient);
    // Whether the bulk of the contacts or a few hold the solve back (from
    // the gradient measure() left).
    m.residual_q50 = evaluateResidualSpread(qp, current, gradient, 0.5).quantile;
    m.residual_q99 = evaluateResidualSpread(qp, current, gradient, 0.99).quantile;
    if (rank == 0) {
      char line[320];
      std::snprintf(line, sizeof line, "%d,%.9g,%.17g,%.9g,%lld,%.9g,%.9g,%.9g,%.9g\n", iteration,
                    now - start - excluded, m.objective, m.residual, m.active, m.comp_mean,
                    m.comp_max, m.residual_q50, m.residual_q99);
      history << line;
    }
    excluded += MPI_Wtime() - now;
  };
  if (request.history_path) {
    start = MPI_Wtime();
    record(0, gamma);
    excluded = 0.0;
    solver->setObserver([&](int iteration, const Vector& current) {
      if (iteration % request.history_every == 0) record(iteration, current);
    });
  }
  comm->barrier();
  start = MPI_Wtime();
  excluded = 0.0;
  QpLabResult result;
  result.report = solver->solve(qp, gamma);
  result.seconds = MPI_Wtime() - start - excluded;
  result.seconds = globalMax(*comm, result.seconds);
  if (request.history_path) {
    // The returned iterate (the best one for non-monotone methods) closes the history.
    const double saved = excluded;
    record(result.report.iterations, gamma);
    excluded = saved;
  }

  const IterationMeasures final_measures = measure(qp, gamma, gradient);
  result.active_set = final_measures.active;
  result.contacts = stored.contacts;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  {
    const auto g = gamma.getLocalViewHost(Tpetra::Access::ReadOnly);
    const std::size_t block = static_cast<std::size_t>(qp.cones.blockSize());
    for (std::size_t i = 0; i < gamma.getLocalLength(); i += block) {
      lo = std::min(lo, g(i, 0));
      hi = std::max(hi, g(i, 0));
    }
  }
  result.gamma_min = globalMin(*comm, lo);
  result.gamma_max = globalMax(*comm, hi);
  result.stored_objective = evaluateMeasures(qp, *stored.solution).objective;
  return result;
}

std::string qpLabCsvHeader() {
  return "solver,iterations,operator_applies,objective,residual,converged,seconds,gamma_min,"
         "gamma_max,active_set,contacts,outer_iterations";
}

std::string qpLabCsvRow(const QpSolveRequest& request, const QpLabResult& r) {
  std::ostringstream out;
  out.precision(17);
  out << request.solver << "," << r.report.iterations << "," << r.report.operator_applies << ","
      << r.report.objective << "," << r.report.residual << "," << (r.report.converged ? 1 : 0)
      << "," << r.seconds << "," << r.gamma_min << "," << r.gamma_max << "," << r.active_set << ","
      << r.contacts << "," << r.report.outer_iterations;
  return out.str();
}

std::string qpSolverListing() {
  std::ostringstream out;
  out << "solver,direct_models,fixed_point_models,needs_factored_operator\n";
  const SolverRegistry& registry = SolverRegistry::instance();
  for (const std::string& name : registry.names()) {
    const SolverEntry& entry = *registry.find(name);
    std::string direct, fixed_point;
    for (FrictionModel model : allFrictionModels()) {
      std::string& list = entry.solvesDirectly(model) ? direct : fixed_point;
      if (!entry.supports(model)) continue;
      list += (list.empty() ? "" : " ") + frictionModelName(model);
    }
    out << name << "," << direct << "," << fixed_point << ","
        << (entry.needs_factored_operator ? 1 : 0) << "\n";
  }
  return out.str();
}

}  // namespace grains
