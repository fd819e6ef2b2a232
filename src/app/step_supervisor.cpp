#include "grains/app/step_supervisor.hpp"

#include "grains/app/run_fault.hpp"
#include "grains/core/text.hpp"
#include "grains/dynamics/motion_bound.hpp"
#include "grains/dynamics/state_check.hpp"
#include "grains/parallel/mpi_utils.hpp"
#include "grains/scenario/insertion.hpp"
#include "grains/scenario/outlets.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>

namespace grains {
namespace {

std::string formatPoint(const Vec3& p) {
  char text[96];
  std::snprintf(text, sizeof text, "(%.6g, %.6g, %.6g)", p.x(), p.y(), p.z());
  return text;
}

/// Collective: the lines of every rank, in rank order, on rank 0 (empty elsewhere).
std::vector<std::string> gatherLines(const Comm& comm, const std::vector<std::string>& local) {
  std::string joined;
  for (const std::string& line : local) joined += line + '\n';
  const MPI_Comm raw = rawMpiComm(comm);
  const int size = comm.getSize();
  int length = static_cast<int>(joined.size());
  std::vector<int> lengths(static_cast<std::size_t>(size)), offsets(lengths.size());
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, raw);
  std::string all;
  if (comm.getRank() == 0) {
    int total = 0;
    for (int r = 0; r < size; ++r) {
      offsets[static_cast<std::size_t>(r)] = total;
      total += lengths[static_cast<std::size_t>(r)];
    }
    all.resize(static_cast<std::size_t>(total));
  }
  MPI_Gatherv(joined.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR,
              0, raw);
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t end = all.find('\n'); end != std::string::npos; end = all.find('\n', start)) {
    lines.push_back(all.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

bool insideBox(const Vec3& p, const DomainSection& box) {
  return (p.array() >= box.min.array()).all() && (p.array() <= box.max.array()).all();
}

std::string unconvergedText(const SolveReport& solve, double tolerance) {
  return "solver " + solve.solver + " did not converge (residual " +
         formatNumber("%.3e", solve.residual) + " > tolerance " + formatNumber("%.3e", tolerance) +
         " after " + std::to_string(solve.iterations) + " iterations)";
}

}  // namespace

SupervisorSettings supervisorSettings(const SimulationConfig& config) {
  SupervisorSettings s;
  s.dt = config.simulation.dt;
  s.on_unconverged = config.solver.on_unconverged;
  s.max_halvings = config.solver.max_halvings;
  s.tolerance = config.solver.settings.tolerance;
  s.domain = config.domain;
  s.insertion = config.insertion;
  s.outlets = config.outlets;
  s.seed = config.simulation.seed;
  s.fault = faultInjectionFromEnvironment();
  return s;
}

StepReport combineSubsteps(const StepReport& first, const StepReport& second) {
  StepReport out = second;
  out.solve.iterations += first.solve.iterations;
  out.solve.operator_applies += first.solve.operator_applies;
  out.solve.outer_iterations += first.solve.outer_iterations;
  out.solve.converged = first.solve.converged && second.solve.converged;
  out.solve.residual = std::max(first.solve.residual, second.solve.residual);
  out.max_overlap = std::max(first.max_overlap, second.max_overlap);
  out.max_true_overlap = std::max(first.max_true_overlap, second.max_true_overlap);
  out.max_constraint_overlap =
      std::max(first.max_constraint_overlap, second.max_constraint_overlap);
  out.recursions += first.recursions;
  out.first_solve_iterations += first.first_solve_iterations;
  out.relcp_added += first.relcp_added;
  out.divisions += first.divisions;
  out.thin_wall_crossings.count += first.thin_wall_crossings.count;
  if (first.thin_wall_crossings.count > 0 &&
      (second.thin_wall_crossings.count == 0 ||
       first.thin_wall_crossings.first < second.thin_wall_crossings.first)) {
    out.thin_wall_crossings.first = first.thin_wall_crossings.first;
    out.thin_wall_crossings.wall = first.thin_wall_crossings.wall;
  }
  out.relcp_resolved = first.relcp_resolved && second.relcp_resolved;
  out.repartitioned = first.repartitioned || second.repartitioned;
  out.time_domain += first.time_domain;
  out.time_detect += first.time_detect;
  out.time_assemble += first.time_assemble;
  out.time_solve += first.time_solve;
  out.time_update += first.time_update;
  out.time_relcp += first.time_relcp;
  out.time_broad += first.time_broad;
  return out;
}

StepSupervisor::StepSupervisor(TimeStepper& stepper, SupervisorSettings settings)
    : stepper_(stepper), settings_(std::move(settings)) {
  if (!(settings_.dt > 0.0)) throw std::invalid_argument("StepSupervisor: dt must be > 0");
}

StepSupervisor::Snapshot StepSupervisor::snapshot(const BodyDomain& domain) const {
  Snapshot s;
  s.owned.assign(domain.bodies().begin(),
                 domain.bodies().begin() + static_cast<long>(domain.numOwned()));
  s.warm_start = stepper_.warmStartRecords();
  s.force_control = stepper_.forceControlStates();
  return s;
}

void StepSupervisor::restore(BodyDomain& domain, const Snapshot& snap) {
  domain.replaceOwned(snap.owned);
  domain.takeDepartures();  // the undone step's migrations no longer apply
  stepper_.replaceWarmStart(snap.warm_start);
  stepper_.setForceControlStates(snap.force_control);
  stepper_.setTimeStep(settings_.dt);
}

void StepSupervisor::fail(BodyDomain& domain, const Snapshot& before, const std::string& message) {
  restore(domain, before);
  throw RunFault(message);
}

long StepSupervisor::removeEscaped(BodyDomain& domain, long step,
                                   std::vector<std::string>& warnings) {
  if (!settings_.domain.bounded) return 0;
  const std::size_t owned = domain.numOwned();
  const int rank = domain.comm().getRank();
  std::vector<Body> kept;
  std::vector<std::string> lines;
  long escaped = 0;
  const Body* first = nullptr;
  for (std::size_t i = 0; i < owned; ++i) {
    const Body& b = domain.bodies()[i];
    if (insideBox(b.position, settings_.domain)) continue;
    ++escaped;
    if (first == nullptr || b.gid < first->gid) first = &b;
  }
  const long total = globalSum(domain.comm(), escaped);
  if (total == 0) return 0;
  auto describe = [&](const Body& b) {
    return "body " + std::to_string(b.gid) + " (rank " + std::to_string(rank) + ") is outside " +
           "the domain " + formatPoint(settings_.domain.min) + " - " +
           formatPoint(settings_.domain.max) + " at " + formatPoint(b.position) +
           " at the start of step " + std::to_string(step);
  };
  if (settings_.domain.on_exit == DomainExitPolicy::Abort) {
    const int culprit = lowestRankWhere(domain.comm(), first != nullptr);
    const std::string message =
        broadcastString(domain.comm(), culprit, first ? describe(*first) : std::string());
    throw RunFault(message + " (domain.on_exit = abort; " + std::to_string(total) +
                   " bodies outside)");
  }
  constexpr long kLinesPerRank = 10;
  for (std::size_t i = 0; i < owned; ++i) {
    const Body& b = domain.bodies()[i];
    if (insideBox(b.position, settings_.domain)) {
      kept.push_back(b);
    } else if (static_cast<long>(lines.size()) < kLinesPerRank) {
      lines.push_back(describe(b) + ": removed (domain.on_exit = remove)");
    }
  }
  if (escaped > kLinesPerRank)
    lines.push_back("... and " + std::to_string(escaped - kLinesPerRank) + " more bodies of rank " +
                    std::to_string(rank) + " removed at step " + std::to_string(step));
  domain.replaceOwned(std::move(kept));
  for (std::string& line : gatherLines(domain.comm(), lines)) warnings.push_back(std::move(line));
  return total;
}

namespace {

/// A column name from a configured name (characters a CSV header cannot hold become '_').
std::string columnName(std::string name) {
  for (char& c : name)
    if (c == ',' || c == '"' || c == ' ' || c == '\r' || c == '\n') c = '_';
  return name;
}

}  // namespace

void StepSupervisor::dischargeAtOutlets(BodyDomain& domain, SupervisedStep& out) {
  if (settings_.outlets.empty()) return;
  const std::vector<OutletDischarge> taken = dischargeOutlets(domain, settings_.outlets);
  for (std::size_t o = 0; o < taken.size(); ++o) {
    const std::string column = columnName("discharged_" + settings_.outlets[o].name);
    out.boundary_columns.emplace_back(column, static_cast<double>(taken[o].count));
    out.boundary_columns.emplace_back(column + "_mass", taken[o].mass);
  }
}

void StepSupervisor::checkFinite(BodyDomain& domain, long step, const StepReport& report,
                                 const Snapshot& before) {
  const int rank = domain.comm().getRank();
  const auto bad = firstNonFiniteBody(domain.bodies(), domain.numOwned());
  const long local_gid = bad ? bad->gid : std::numeric_limits<long>::max();
  const long gid = globalMin(domain.comm(), local_gid);
  if (gid != std::numeric_limits<long>::max()) {
    const int culprit = lowestRankWhere(domain.comm(), bad && bad->gid == gid);
    const std::string where = bad && bad->gid == gid
                                  ? "body " + std::to_string(gid) + " has a non-finite " +
                                        bad->field + " on rank " + std::to_string(rank)
                                  : std::string();
    fail(domain, before,
         "non-finite state after step " + std::to_string(step) + ": " +
             broadcastString(domain.comm(), culprit, where));
  }
  if (!std::isfinite(report.solve.residual) || !std::isfinite(report.solve.objective))
    fail(domain, before,
         "non-finite solver output at step " + std::to_string(step) + ": solver " +
             report.solve.solver + " returned residual " +
             formatNumber("%g", report.solve.residual) + ", objective " +
             formatNumber("%g", report.solve.objective));
}

StepReport StepSupervisor::attempt(BodyDomain& domain, long step, int halvings) {
  const long substeps = 1L << halvings;
  stepper_.setTimeStep(std::ldexp(settings_.dt, -halvings));
  // Every attempt starts at the step's start time (moving walls' poses).
  stepper_.setTime(static_cast<double>(step - 1) * settings_.dt);
  StepReport combined;
  for (long k = 0; k < substeps; ++k) {
    const StepReport sub = stepper_.step(domain, step - 1);
    combined = k == 0 ? sub : combineSubsteps(combined, sub);
  }
  stepper_.setTimeStep(settings_.dt);
  return combined;
}

void StepSupervisor::warnThinWallCrossings(long step, SupervisedStep& out) const {
  const ThinWallCrossings& crossed = out.report.thin_wall_crossings;
  if (crossed.count == 0) return;
  const Wall& wall = stepper_.walls()[static_cast<std::size_t>(crossed.wall)];
  out.warnings.push_back(
      "step " + std::to_string(step) + ": body " + std::to_string(crossed.first) +
      " passed through the thin wall '" + wall.name + "'" +
      (crossed.count > 1 ? " (and " + std::to_string(crossed.count - 1) + " more bodies)" : "") +
      ": the step is too long for the contact to stop it; reduce simulation.dt");
}

SupervisedStep StepSupervisor::advance(BodyDomain& domain, long step) {
  const int rank = domain.comm().getRank();
  const auto& fault = settings_.fault;
  if (fault && fault->strikes(FaultKind::Throw, step, rank))
    throw std::runtime_error("injected fault (GRAINS_FAULT_INJECTION): rank " +
                             std::to_string(rank) + " fails at step " + std::to_string(step));
  if (fault && fault->strikes(FaultKind::Exit, step, rank)) std::_Exit(3);

  SupervisedStep out;
  dischargeAtOutlets(domain, out);
  out.removed = removeEscaped(domain, step, out.warnings);
  const Snapshot before = snapshot(domain);
  // Bodies are poured after the snapshot, so a step that fails leaves the
  // state without them, and a redone step pours the same bodies again.
  InsertionResult inserted;
  // A step refused before it moves anything ends the run like a NaN.
  const auto attemptOrFail = [&](int halvings) {
    if (!settings_.insertion.empty())
      inserted = insertBodies(domain, settings_.insertion, settings_.seed, step, settings_.dt);
    try {
      return attempt(domain, step, halvings);
    } catch (const ExcessiveMotion& e) {
      fail(domain, before, "excessive motion in step " + std::to_string(step) + ": " + e.what());
    }
  };
  out.report = attemptOrFail(0);
  if (fault && fault->strikes(FaultKind::Nan, step, rank) && domain.numOwned() > 0)
    domain.bodies()[0].velocity.x() = std::numeric_limits<double>::quiet_NaN();
  if (fault && fault->strikes(FaultKind::Unconverged, step, rank))
    out.report.solve.converged = false;
  checkFinite(domain, step, out.report, before);
  // The insertion columns hold the bodies of the attempt that was kept.
  const auto recordInsertion = [&] {
    if (settings_.insertion.empty()) return;
    for (std::size_t q = 0; q < settings_.insertion.size(); ++q)
      out.boundary_columns.emplace_back(columnName("inserted_" + settings_.insertion[q].name),
                                        static_cast<double>(inserted.inserted[q]));
    out.boundary_columns.emplace_back("insertion_missed", static_cast<double>(inserted.missed));
    if (inserted.missed > 0)
      out.warnings.push_back("step " + std::to_string(step) + ": " +
                             std::to_string(inserted.missed) +
                             " bodies to insert found no free place in their region (insertion "
                             "attempts); they are skipped");
  };
  if (out.report.solve.converged) {
    warnThinWallCrossings(step, out);
    recordInsertion();
    return out;
  }

  const std::string first_failure = unconvergedText(out.report.solve, settings_.tolerance);
  switch (settings_.on_unconverged) {
    case UnconvergedPolicy::Warn:
      out.unconverged = true;
      out.warnings.push_back("step " + std::to_string(step) + ": " + first_failure +
                             "; continuing (solver.on_unconverged = warn)");
      warnThinWallCrossings(step, out);
      recordInsertion();
      return out;
    case UnconvergedPolicy::Abort:
      fail(domain, before,
           "step " + std::to_string(step) + ": " + first_failure +
               " and solver.on_unconverged = abort");
    case UnconvergedPolicy::Retry:
      break;
  }
  for (int h = 1; h <= settings_.max_halvings; ++h) {
    restore(domain, before);
    out.report = attemptOrFail(h);
    out.halvings = h;
    checkFinite(domain, step, out.report, before);
    if (out.report.solve.converged) {
      warnThinWallCrossings(step, out);
      out.warnings.push_back("step " + std::to_string(step) + ": " + first_failure +
                             "; redone as " + std::to_string(1L << h) + " substeps of dt/" +
                             std::to_string(1L << h) + ", converged");
      recordInsertion();
      return out;
    }
  }
  out.unconverged = true;
  out.warnings.push_back(
      "step " + std::to_string(step) + ": " + first_failure + "; still not converged with " +
      std::to_string(1L << settings_.max_halvings) + " substeps (solver.max_halvings = " +
      std::to_string(settings_.max_halvings) + "), keeping the result");
  warnThinWallCrossings(step, out);
  recordInsertion();
  return out;
}

}  // namespace grains
