#include "grains/app/simulation.hpp"

#include "grains/app/reproducibility.hpp"

#include "grains/app/collective_errors.hpp"
#include "grains/app/oversubscription.hpp"
#include "grains/app/phase_times.hpp"
#include "grains/app/progress_line.hpp"
#include "grains/app/restart_checks.hpp"
#include "grains/app/run_fault.hpp"
#include "grains/app/run_outputs.hpp"
#include "grains/app/step_supervisor.hpp"
#include "grains/config/config_loader.hpp"
#include "grains/core/text.hpp"
#include "grains/dynamics/time_stepper.hpp"
#include "grains/geometry/triangle_mesh.hpp"
#include "grains/io/checkpoint.hpp"
#include "grains/io/log.hpp"
#include "grains/io/output_directory.hpp"
#include "grains/io/qp_export.hpp"
#include "grains/parallel/mpi_utils.hpp"
#include "grains/scenario/body_generator.hpp"
#include "grains/scenario/insertion.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <ostream>
#include <unordered_set>

namespace grains {
namespace {

/// What each mesh wall holds, and the warnings its file earns: zero-area
/// triangles left out, edges shared by more than two triangles.
void logMeshWalls(const std::vector<Wall>& walls, const Log& log) {
  for (const Wall& w : walls) {
    if (w.kind != WallKind::Mesh) continue;
    const TriangleMesh& mesh = *w.mesh;
    log.info("mesh wall '" + w.name + "': " + std::to_string(mesh.numTriangles()) + " triangles, " +
             std::to_string(mesh.numVertices()) + " vertices, " +
             std::to_string(mesh.numBoundaryEdges()) + " open edges (" + mesh.source.file + ")");
    if (mesh.degenerate_triangles > 0)
      log.warn("mesh wall '" + w.name + "': left out " + std::to_string(mesh.degenerate_triangles) +
               " zero-area triangles of " + mesh.source.file);
    if (mesh.numNonManifoldEdges() > 0)
      log.warn("mesh wall '" + w.name + "': " + std::to_string(mesh.numNonManifoldEdges()) +
               " edges shared by more than two triangles in " + mesh.source.file +
               " (contacts there are still found; check the mesh)");
  }
}

StepperSettings stepperSettings(const SimulationConfig& config, double max_radius,
                                long initial_bodies) {
  StepperSettings s;
  s.assembly.dt = config.simulation.dt;
  s.assembly.friction = config.contact.friction;
  s.assembly.rolling_friction = config.contact.rolling_friction;
  s.assembly.spinning_friction = config.contact.spinning_friction;
  s.assembly.damping_steps = config.contact.damping_steps;
  s.assembly.compliance = config.contact.compliance;
  s.assembly.overlap_slop = config.contact.overlap_slop;
  s.assembly.motion.gravity = config.simulation.gravity;
  s.assembly.motion.overdamped = config.simulation.dynamics == DynamicsKind::Overdamped;
  s.assembly.motion.drag = config.simulation.drag;
  s.assembly.motion.force_field = config.force_field;
  s.assembly.motion.planar = config.simulation.planar;
  s.assembly.reproducible = config.parallel.reproducible;
  if (config.growth.rate > 0.0) {
    GrowthSettings g;
    g.division_length = config.growth.division_length;
    g.reorientation = config.growth.reorientation_deg * kPi / 180.0;
    g.planar = config.simulation.planar;
    g.seed = config.simulation.seed;
    g.roots = std::max(1L, initial_bodies);
    s.growth = g;
  }
  s.method = config.contact.method;
  s.subspheres = config.contact.subspheres;
  s.subsphere_buffer = config.contact.subsphere_buffer;
  s.overlap_tolerance = config.contact.overlap_tolerance;
  s.max_recursions = config.contact.max_recursions;
  s.adaptive_envelope = config.contact.adaptive_envelope;
  s.predict_contacts = config.contact.predict_contacts;
  s.mu = config.contact.friction == FrictionModel::Frictionless ? 0.0 : config.contact.mu;
  s.envelope = config.contact.envelope > 0.0 ? config.contact.envelope : 0.1 * max_radius;
  s.solver_tolerance = config.solver.settings.tolerance;
  s.rest = config.solver.rest;
  s.lift_passes = config.contact.lift_correction;
  return s;
}

/// Collective: the checkpoint as read by this rank, with ConfigError for a
/// file that cannot be used (bad input, like a bad config).
CheckpointState loadRestart(const std::string& file, MPI_Comm comm) {
  try {
    return readCheckpoint(resolveCheckpoint(file), comm);
  } catch (const CheckpointError& e) {
    throw ConfigError(std::string("restart: ") + e.what());
  }
}

/// The impulses this rank's warm start keeps after a restart: all of them if
/// the partition was restored, else those of the contacts its bodies own.
std::vector<WarmStartRecord> ownedRecords(const CheckpointState& restart,
                                          const BodyDomain& domain) {
  if (restart.same_layout) return restart.warm_start;
  std::unordered_set<GlobalId> owned;
  for (std::size_t i = 0; i < domain.numOwned(); ++i) owned.insert(domain.bodies()[i].gid);
  std::vector<WarmStartRecord> out;
  for (const WarmStartRecord& r : restart.warm_start)
    if (owned.count(warmStartOwner(r.key)) > 0) out.push_back(r);
  return out;
}

void writeEffectiveConfig(const SimulationConfig& config, const std::string& dir, int rank) {
  if (rank != 0) return;
  std::ofstream out(dir + "/config_used.yaml");
  out << "# Effective configuration of this run (defaults filled in).\n" << configToYaml(config);
}

/// What the time loop runs on: the bodies, the stepper and where it starts.
struct RunState {
  std::unique_ptr<BodyDomain> domain;
  std::unique_ptr<TimeStepper> stepper;
  long first_step = 1;
  long total_steps = 0;
  RunOrigin origin;
  bool append = false;  ///< continue the outputs of an existing directory
};

/// Collective: checks the input, prepares the output directory, creates or
/// restores the bodies and the stepper. Bad input is detected before
/// anything is written.
RunState setUpRun(const SimulationConfig& config, const RunOptions& options,
                  const RCP<const Comm>& comm, const std::string& output_dir, const Log& log) {
  const int rank = comm->getRank();
  const MPI_Comm raw = rawMpiComm(*comm);
  RunState run;
  run.total_steps = options.steps.value_or(config.simulation.totalSteps());
  std::optional<CheckpointState> restart;
  if (options.restart_file) {
    restart = loadRestart(*options.restart_file, raw);
    if (restart->step >= run.total_steps)
      throw ConfigError("restart: the checkpoint is at step " + std::to_string(restart->step) +
                        " and the run ends at step " + std::to_string(run.total_steps) +
                        ": nothing to do (raise simulation.steps or pass --steps)");
    checkRestart(*restart, config, options.allow_penetration, *comm, log);
  }
  // A generator may reject input on some ranks only (their share of a file).
  std::vector<Body> owned = restart ? std::move(restart->bodies) : agreeOnConfigErrors(*comm, [&] {
    return generateBodies(config, rank, comm->getSize());
  });
  double max_radius = 0.0;
  for (const Body& b : owned) max_radius = std::max(max_radius, boundingRadius(b));
  max_radius = restart ? restart->initial_max_radius : globalMax(*comm, max_radius);
  // Poured bodies count as if present from the start (the default envelope).
  if (!restart) max_radius = std::max(max_radius, maxInsertedRadius(config.insertion));
  auto solver = SolverRegistry::instance().create(config.solver.name, config.solver.settings,
                                                  config.contact.friction);

  // On as many ranks as the writer the partition is restored, so the run
  // continues exactly as if it had not stopped; otherwise it is made afresh.
  checkPeriodicBoxFits(config.domain, max_radius);
  ParallelSection parallel = config.parallel;
  parallel.periodic = periodicBoxOf(config.domain);
  run.domain = restart && restart->same_layout
                   ? std::make_unique<BodyDomain>(comm, std::move(owned), parallel, restart->layout)
                   : std::make_unique<BodyDomain>(comm, std::move(owned), parallel);
  BodyDomain& domain = *run.domain;
  if (restart) checkRestoredOverlaps(domain, config.contact, options.allow_penetration, log);

  try {
    // A restart continues the outputs of an existing directory (unless told
    // to overwrite them).
    if (restart && !options.overwrite)
      continueOutputDirectory(output_dir, raw);
    else
      prepareOutputDirectory(output_dir, options.overwrite, raw);
  } catch (const std::runtime_error& e) {
    // Collective and deterministic: a usage problem, not a crash.
    throw ConfigError(std::string("output: ") + e.what());
  }
  writeEffectiveConfig(config, output_dir, rank);

  if (config.parallel.body_order == BodyOrder::Auto && !restart) {
    log.info(domain.bodyOrder() == BodyOrder::Spatial
                 ? "bodies kept in spatial order (parallel.body_order: auto; the input lists "
                   "neighbours far apart)"
                 : "bodies kept in GID order (parallel.body_order: auto; the input lists them "
                   "in spatial order)");
  }
  log.info(describe(reproducibilityOf(config)));
  logMeshWalls(config.walls, log);
  run.origin.initial_bodies = restart ? restart->initial_bodies : domain.globalBodyCount();
  run.origin.initial_max_radius = max_radius;
  StepperSettings settings = stepperSettings(config, max_radius, run.origin.initial_bodies);
  // The CSR copy of D^T only where something reads its rows.
  const SolverEntry* entry = SolverRegistry::instance().find(config.solver.name);
  settings.assembly.row_matrix =
      (entry != nullptr && entry->needs_factored_operator) || !options.export_qp_steps.empty();
  run.stepper = std::make_unique<TimeStepper>(settings, config.walls, std::move(solver));
  run.first_step = restart ? restart->step + 1 : 1;
  run.append = restart && !options.overwrite;
  if (restart) {
    run.stepper->restoreWarmStart(ownedRecords(*restart, domain));
    if (!restart->force_control.empty()) run.stepper->setForceControlStates(restart->force_control);
    // globalBodyCount() is collective: every rank calls it, rank 0 prints.
    const long restarted_bodies = domain.globalBodyCount();
    log.info("restarting after step " + std::to_string(restart->step) + " (t=" +
             formatNumber("%g", restart->time) + " s, " + std::to_string(restarted_bodies) +
             " bodies) from a checkpoint of " + std::to_string(restart->ranks) + " rank(s)");
  }
  return run;
}

/// Writes the QP of each step in options.export_qp_steps (grains qp).
void exportQpOfSteps(TimeStepper& stepper, const SimulationConfig& config,
                     const RunOptions& options, const Log& log) {
  if (options.export_qp_steps.empty()) return;
  const auto export_step = [&config, &options, &log](long step_index, TimeStepper::StepQp which,
                                                     const ContactSystem& system,
                                                     const Vector& warm, const Vector& solution,
                                                     const SolveReport& report) {
    const long step = step_index + 1;
    const double dt = config.simulation.dt;
    QpExportInfo info;
    info.step = step;
    info.time = static_cast<double>(step_index) * dt;
    info.dt = dt;
    info.solver = config.solver.name;
    info.tolerance = config.solver.settings.tolerance;
    info.report = report;
    // A step with ReLCP re-solves also writes its first QP, whose warm start
    // is the last step's impulses (the last QP's is zero).
    const bool first = which == TimeStepper::StepQp::first_of_several;
    const std::string dir =
        options.export_qp_dir + "/step_" + std::to_string(step) + (first ? "_first" : "");
    exportQp(dir, system, warm, solution, info);
    log.info(std::string("exported the ") + (first ? "first " : "") + "contact QP of step " +
             std::to_string(step) + " (" +
             std::to_string(system.constraint_map->getGlobalNumElements()) + " unknowns) to " +
             dir);
  };
  const auto listed = [&options](long step_index) {
    const auto& wanted = options.export_qp_steps;
    return std::find(wanted.begin(), wanted.end(), step_index + 1) != wanted.end();
  };
  stepper.setSolveHook(export_step, listed);
}

/// Warnings go to the log, the first kShown of them; the metrics columns
/// count every event.
class WarningLog {
 public:
  explicit WarningLog(const Log& log) : log_(log) {}
  void add(const std::vector<std::string>& lines) {
    for (const std::string& line : lines) {
      ++seen_;
      if (seen_ == kShown + 1)
        log_.warn(
            "further warnings are not shown (metrics.csv counts them in converged, halvings and "
            "bodies_removed)");
      else if (seen_ <= kShown)
        log_.warn(line);
    }
  }

 private:
  static constexpr long kShown = 20;
  const Log& log_;
  long seen_ = 0;
};

/// The progress line (at output.log_every) and, at debug level, the phases.
void logStep(const Log& log, const SimulationConfig& config, ProgressLine& progress, long step,
             double time, bool final_step, const StepReport& last, double elapsed) {
  const long every = config.output.log_every;
  if (every > 0 && (step % every == 0 || final_step) && log.shows(LogLevel::Info))
    log.info(progress.line(
        step, time, last, constraintMethodInfo(config.contact.method).finds_new_contacts, elapsed));
  if (!log.shows(LogLevel::Debug)) return;
  char line[256];
  std::snprintf(line, sizeof line,
                "step %ld phases [s] (rank 0): communication %.4f, neighbour search %.4f, "
                "narrow %.4f, assembly %.4f, solve %.4f, relcp %.4f, update %.4f",
                step, last.time_domain, last.time_broad, last.time_detect - last.time_broad,
                last.time_assemble, last.time_solve, last.time_relcp, last.time_update);
  log.debug(line);
}

/// Collective: the timing table and timing.csv, and the run's final numbers.
void finishRun(RunSummary& summary, const PhaseTimes& phase_times, double run_start, long steps_run,
               double dt, const StepReport& last, const BodyDomain& domain, const Log& log) {
  const Comm& comm = domain.comm();
  const double loop_seconds = MPI_Wtime() - run_start;
  summary.timing = reducePhaseTimes(comm, phase_times.phases(loop_seconds));
  summary.loop_seconds = globalMax(comm, loop_seconds);
  if (log.shows(LogLevel::Info))
    log.info(formatTimingTable(summary.timing, summary.loop_seconds, comm.getSize()));
  if (comm.getRank() == 0) {
    try {
      writeTimingCsv(summary.output_dir + "/timing.csv", summary.timing, summary.loop_seconds);
    } catch (const std::exception& e) {
      log.rankWarn(e.what());  // the run itself is complete
    }
  }
  summary.steps = steps_run;
  summary.time = static_cast<double>(steps_run) * dt;
  summary.bodies = domain.globalBodyCount();
  summary.contacts = last.contacts;
  summary.active_contacts = last.active_contacts;
  summary.kinetic_energy = last.kinetic_energy;
  summary.max_overlap = last.max_overlap;
  summary.wall_seconds = MPI_Wtime() - run_start;
}

}  // namespace

RunSummary runSimulation(const SimulationConfig& config, const RunOptions& options,
                         RCP<const Comm> comm) {
  RunSummary summary;
  summary.output_dir = options.output_dir.value_or(config.output.dir);
  const Log log(options.log, config.output.log_level, comm->getRank());
  if (const std::string crowded = oversubscriptionWarning(*comm); !crowded.empty())
    log.warn(crowded);
  RunState run = setUpRun(config, options, comm, summary.output_dir, log);
  BodyDomain& domain = *run.domain;
  TimeStepper& stepper = *run.stepper;
  summary.first_step = run.first_step;
  RunOutputs outputs(config, summary.output_dir, rawMpiComm(*comm), log, run.append, run.first_step,
                     run.origin, domain, stepper);
  exportQpOfSteps(stepper, config, options, log);
  // growth.max_generations = k: the run ends once the colony has 2^k times
  // its initial cell count.
  const int generations = config.growth.rate > 0.0 ? config.growth.max_generations : 0;
  const double target_bodies =
      generations > 0 ? std::ldexp(static_cast<double>(run.origin.initial_bodies), generations)
                      : 0.0;
  const double dt = config.simulation.dt;
  StepSupervisor supervisor(stepper, supervisorSettings(config));
  WarningLog warnings(log);
  PhaseTimes phase_times;
  ProgressLine progress(run.total_steps);
  const double run_start = MPI_Wtime();
  StepReport last;
  long steps_run = run.first_step - 1;
  for (long step = run.first_step; step <= run.total_steps; ++step) {
    steps_run = step;
    const double t0 = MPI_Wtime();
    SupervisedStep done;
    try {
      done = supervisor.advance(domain, step);
    } catch (const RunFault& fault) {
      // A fault that ends the run leaves the last good state (before the
      // failing step) in an emergency checkpoint beside the regular ones.
      throw RunFault(std::string(fault.what()) + "; " +
                     outputs.writeEmergencyCheckpoint(step - 1, domain, stepper));
    }
    last = done.report;
    warnings.add(done.warnings);
    const double wall = globalMax(*comm, MPI_Wtime() - t0);
    phase_times.addStep(last);
    progress.recordStep(wall);
    const double output_start = MPI_Wtime();
    const double time = static_cast<double>(step) * dt;
    if (done.unconverged) ++summary.unconverged_steps;
    if (done.halvings > 0) ++summary.retried_steps;
    summary.removed_bodies += done.removed;
    const bool final_step =
        step == run.total_steps ||
        (target_bodies > 0.0 && static_cast<double>(last.bodies) >= target_bodies);
    outputs.afterStep(step, time, final_step, done, wall, domain, stepper);
    phase_times.addOutput(MPI_Wtime() - output_start);
    logStep(log, config, progress, step, time, final_step, last, MPI_Wtime() - run_start);
    if (final_step) break;
  }
  finishRun(summary, phase_times, run_start, steps_run, dt, last, domain, log);
  return summary;
}

}  // namespace grains
