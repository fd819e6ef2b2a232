#include "grains/app/simulation.hpp"

#include "grains/app/collective_errors.hpp"
#include "grains/app/phase_times.hpp"
#include "grains/app/progress_line.hpp"
#include "grains/app/restart_checks.hpp"
#include "grains/app/run_fault.hpp"
#include "grains/app/step_supervisor.hpp"
#include "grains/config/config_loader.hpp"
#include "grains/constraint/contact_network.hpp"
#include "grains/core/text.hpp"
#include "grains/dynamics/time_stepper.hpp"
#include "grains/io/checkpoint.hpp"
#include "grains/io/contact_network_writer.hpp"
#include "grains/io/log.hpp"
#include "grains/io/metrics_writer.hpp"
#include "grains/io/output_directory.hpp"
#include "grains/io/qp_export.hpp"
#include "grains/io/vtk_series_writer.hpp"
#include "grains/io/wall_geometry.hpp"
#include "grains/parallel/mpi_utils.hpp"
#include "grains/scenario/body_generator.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <limits>
#include <ostream>
#include <sstream>
#include <unordered_set>

namespace grains {
namespace {

StepperSettings stepperSettings(const SimulationConfig& config, double max_radius,
                                long initial_bodies) {
  StepperSettings s;
  s.assembly.dt = config.simulation.dt;
  s.assembly.friction = config.contact.friction;
  s.assembly.rolling_friction = config.contact.rolling_friction;
  s.assembly.spinning_friction = config.contact.spinning_friction;
  s.assembly.damping_steps = config.contact.damping_steps;
  s.assembly.compliance = config.contact.compliance;
  s.assembly.motion.gravity = config.simulation.gravity;
  s.assembly.motion.overdamped = config.simulation.dynamics == DynamicsKind::Overdamped;
  s.assembly.motion.drag = config.simulation.drag;
  s.assembly.motion.force_field = config.force_field;
  s.assembly.motion.planar = config.simulation.planar;
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
  return s;
}

std::vector<Body> ownedBodies(const BodyDomain& domain) {
  return std::vector<Body>(domain.bodies().begin(),
                           domain.bodies().begin() + static_cast<long>(domain.numOwned()));
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

/// Collective: rank 0 writes the walls, sized to the bodies' bounding box,
/// for ParaView. A failure costs only the picture: a warning, not an error.
void writeWallsFile(const std::vector<Wall>& walls, const BodyDomain& domain,
                    const std::string& path, const Log& log) {
  if (walls.empty()) return;
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (std::size_t i = 0; i < domain.numOwned(); ++i) {
    lo = lo.cwiseMin(domain.bodies()[i].position -
                     Vec3::Constant(boundingRadius(domain.bodies()[i])));
    hi = hi.cwiseMax(domain.bodies()[i].position +
                     Vec3::Constant(boundingRadius(domain.bodies()[i])));
  }
  const MPI_Comm raw = rawMpiComm(domain.comm());
  MPI_Allreduce(MPI_IN_PLACE, lo.data(), 3, MPI_DOUBLE, MPI_MIN, raw);
  MPI_Allreduce(MPI_IN_PLACE, hi.data(), 3, MPI_DOUBLE, MPI_MAX, raw);
  if (domain.comm().getRank() != 0) return;
  if (!lo.allFinite()) lo = hi = Vec3::Zero();  // no bodies at all
  try {
    writeWallGeometry(path, walls, lo, hi);
  } catch (const std::exception& e) {
    log.rankWarn(e.what());
  }
}

void writeEffectiveConfig(const SimulationConfig& config, const std::string& dir, int rank) {
  if (rank != 0) return;
  std::ofstream out(dir + "/config_used.yaml");
  out << "# Effective configuration of this run (defaults filled in).\n" << configToYaml(config);
}

}  // namespace

RunSummary runSimulation(const SimulationConfig& config, const RunOptions& options,
                         RCP<const Comm> comm) {
  const int rank = comm->getRank();
  const MPI_Comm raw = rawMpiComm(*comm);
  RunSummary summary;
  summary.output_dir = options.output_dir.value_or(config.output.dir);
  const Log log(options.log, config.output.log_level, rank);
  const long total_steps = options.steps.value_or(config.simulation.totalSteps());

  // Bad input is detected before anything is written.
  std::optional<CheckpointState> restart;
  if (options.restart_file) {
    restart = loadRestart(*options.restart_file, raw);
    if (restart->step >= total_steps)
      throw ConfigError("restart: the checkpoint is at step " + std::to_string(restart->step) +
                        " and the run ends at step " + std::to_string(total_steps) +
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
  auto solver = SolverRegistry::instance().create(config.solver.name, config.solver.settings,
                                                  config.contact.friction);

  try {
    // A restart continues the outputs of an existing directory (unless told
    // to overwrite them).
    if (restart && !options.overwrite)
      continueOutputDirectory(summary.output_dir, raw);
    else
      prepareOutputDirectory(summary.output_dir, options.overwrite, raw);
  } catch (const std::runtime_error& e) {
    // Collective and deterministic: a usage problem, not a crash.
    throw ConfigError(std::string("output: ") + e.what());
  }
  writeEffectiveConfig(config, summary.output_dir, rank);

  // On as many ranks as the writer the partition is restored, so the run
  // continues exactly as if it had not stopped; otherwise it is made afresh.
  BodyDomain domain = restart && restart->same_layout
                          ? BodyDomain(comm, std::move(owned), config.parallel, restart->layout)
                          : BodyDomain(comm, std::move(owned), config.parallel);
  if (config.parallel.body_order == BodyOrder::Auto && !restart) {
    log.info(domain.bodyOrder() == BodyOrder::Spatial
                 ? "bodies kept in spatial order (parallel.body_order: auto; the input lists "
                   "neighbours far apart)"
                 : "bodies kept in GID order (parallel.body_order: auto; the input lists them "
                   "in spatial order)");
  }
  const long initial_bodies = restart ? restart->initial_bodies : domain.globalBodyCount();
  TimeStepper stepper(stepperSettings(config, max_radius, initial_bodies), config.walls,
                      std::move(solver));
  const long first_step = restart ? restart->step + 1 : 1;
  if (restart) {
    stepper.restoreWarmStart(ownedRecords(*restart, domain));
    restart->warm_start.clear();
    // globalBodyCount() is collective: every rank calls it, rank 0 prints.
    const long restarted_bodies = domain.globalBodyCount();
    log.info("restarting after step " + std::to_string(restart->step) + " (t=" +
             formatNumber("%g", restart->time) + " s, " + std::to_string(restarted_bodies) +
             " bodies) from a checkpoint of " + std::to_string(restart->ranks) + " rank(s)");
  }
  summary.first_step = first_step;
  auto checkpointState = [&](long step, double time) {
    CheckpointState state;
    state.step = step;
    state.time = time;
    state.initial_bodies = initial_bodies;
    state.initial_max_radius = max_radius;
    state.config_yaml = configToYaml(config);
    state.bodies = ownedBodies(domain);
    state.warm_start = stepper.warmStartRecords();
    state.layout = domain.layout();
    return state;
  };
  auto writeCheckpointNow = [&](long step, double time) {
    const std::string path = writeCheckpointKeeping(summary.output_dir, checkpointState(step, time),
                                                    config.output.checkpoint_keep, raw);
    log.info("checkpoint of step " + std::to_string(step) + " written to " + path);
  };
  // growth.max_generations = k: the run ends once the colony has 2^k times
  // its initial cell count.
  const int generations = config.growth.rate > 0.0 ? config.growth.max_generations : 0;
  const double target_bodies =
      generations > 0 ? std::ldexp(static_cast<double>(initial_bodies), generations) : 0.0;
  const bool append = restart && !options.overwrite;
  MetricsWriter metrics(summary.output_dir + "/metrics.csv", raw, append, first_step);
  std::optional<VtkSeriesWriter> vtk;
  std::optional<ContactNetworkWriter> network;
  // The network of the step just done, each contact once (owned by one rank).
  const double impulse_to_force =
      config.simulation.dynamics == DynamicsKind::Overdamped ? 1.0 : config.simulation.dt;
  auto writeFrame = [&](long step, double time) {
    vtk->write(step, time, ownedBodies(domain));
    if (network)
      network->write(step, time,
                     contactNetwork(stepper.lastContacts(), stepper.lastImpulses(), domain.bodies(),
                                    impulse_to_force));
  };
  if (config.output.vtk_every > 0) {
    vtk.emplace(summary.output_dir, raw, append);
    if (config.output.contact_network) network.emplace(summary.output_dir, raw, append);
    writeWallsFile(config.walls, domain, summary.output_dir + "/walls.vtp", log);
    writeFrame(first_step - 1, static_cast<double>(first_step - 1) * config.simulation.dt);
  }

  const double dt = config.simulation.dt;
  if (!options.export_qp_steps.empty()) {
    stepper.setSolveHook([&](long step_index, const ContactSystem& system, const Vector& warm,
                             const Vector& solution, const SolveReport& report) {
      const long step = step_index + 1;
      const auto& wanted = options.export_qp_steps;
      if (std::find(wanted.begin(), wanted.end(), step) == wanted.end()) return;
      QpExportInfo info;
      info.step = step;
      info.time = static_cast<double>(step_index) * dt;
      info.dt = dt;
      info.solver = config.solver.name;
      info.tolerance = config.solver.settings.tolerance;
      info.report = report;
      const std::string dir = options.export_qp_dir + "/step_" + std::to_string(step);
      exportQp(dir, system, warm, solution, info);
      log.info("exported the contact QP of step " + std::to_string(step) + " (" +
               std::to_string(system.constraint_map->getGlobalNumElements()) + " unknowns) to " +
               dir);
    });
  }
  // A fault that ends the run leaves the last good state (before the failing
  // step) in an emergency checkpoint beside the regular ones.
  auto writeEmergencyCheckpoint = [&](long step) -> std::string {
    std::ostringstream name;
    name << summary.output_dir << "/emergency_checkpoint_" << std::setw(8) << std::setfill('0')
         << step << ".h5";
    try {
      writeCheckpoint(name.str(), checkpointState(step, static_cast<double>(step) * dt), raw);
      return "the state after step " + std::to_string(step) + " is in " + name.str() +
             " (restart with --restart " + name.str() + ")";
    } catch (const std::exception& e) {
      return std::string("writing the emergency checkpoint failed: ") + e.what();
    }
  };
  StepSupervisor supervisor(stepper, supervisorSettings(config));
  // Warnings go to the log, the first kShownWarnings of them; the metrics
  // columns count every event.
  constexpr long kShownWarnings = 20;
  long warnings_seen = 0;
  auto logWarnings = [&](const std::vector<std::string>& lines) {
    for (const std::string& line : lines) {
      ++warnings_seen;
      if (warnings_seen == kShownWarnings + 1)
        log.warn(
            "further warnings are not shown (metrics.csv counts them in converged, halvings and "
            "bodies_removed)");
      else if (warnings_seen <= kShownWarnings)
        log.warn(line);
    }
  };
  PhaseTimes phase_times;
  ProgressLine progress(total_steps);
  const double run_start = MPI_Wtime();
  StepReport last;
  long steps_run = first_step - 1;
  for (long step = first_step; step <= total_steps; ++step) {
    steps_run = step;
    const double t0 = MPI_Wtime();
    SupervisedStep done;
    try {
      done = supervisor.advance(domain, step);
    } catch (const RunFault& fault) {
      throw RunFault(std::string(fault.what()) + "; " + writeEmergencyCheckpoint(step - 1));
    }
    last = done.report;
    logWarnings(done.warnings);
    double wall = MPI_Wtime() - t0;
    wall = globalMax(*comm, wall);
    phase_times.addStep(last);
    progress.recordStep(wall);
    const double output_start = MPI_Wtime();
    const double time = static_cast<double>(step) * dt;
    if (done.unconverged) ++summary.unconverged_steps;
    if (done.halvings > 0) ++summary.retried_steps;
    summary.removed_bodies += done.removed;
    const bool final_step =
        step == total_steps ||
        (target_bodies > 0.0 && static_cast<double>(last.bodies) >= target_bodies);

    if (config.output.metrics_every > 0 && step % config.output.metrics_every == 0) {
      MetricsRow row;
      row.step = step;
      row.time = time;
      row.bodies = last.bodies;
      row.contacts = last.contacts;
      row.solver = last.solve.solver;
      row.iterations = last.solve.iterations;
      row.residual = last.solve.residual;
      row.objective = last.solve.objective;
      row.converged = !done.unconverged;
      row.max_overlap = last.max_overlap;
      row.kinetic_energy = last.kinetic_energy;
      row.wall_s = wall;
      const DomainStats& d = last.domain;
      row.extra = {{"kinetic_energy_translational", last.kinetic_energy_translational},
                   {"kinetic_energy_rotational", last.kinetic_energy_rotational},
                   {"active_contacts", static_cast<double>(last.active_contacts)},
                   {"envelope", stepper.lastEnvelope()},
                   {"bodies_min", static_cast<double>(d.bodies_min)},
                   {"bodies_max", static_cast<double>(d.bodies_max)},
                   {"bodies_mean", d.bodies_mean},
                   {"contacts_min", static_cast<double>(last.contacts_min)},
                   {"contacts_max", static_cast<double>(last.contacts_max)},
                   {"contacts_mean", last.contacts_mean},
                   {"load_imbalance", d.load_imbalance},
                   {"repartitions", static_cast<double>(d.repartitions)},
                   {"bytes_sent_max", static_cast<double>(d.bytes_sent_max)},
                   {"bytes_sent_mean", d.bytes_sent_mean},
                   {"time_domain_s", last.time_domain},
                   {"time_detect_s", last.time_detect},
                   {"time_broad_s", last.time_broad},
                   {"time_assemble_s", last.time_assemble},
                   {"time_solve_s", last.time_solve},
                   {"time_update_s", last.time_update},
                   {"recursions", static_cast<double>(last.recursions)},
                   {"relcp_added", static_cast<double>(last.relcp_added)},
                   {"relcp_resolved", last.relcp_resolved ? 1.0 : 0.0},
                   {"max_true_overlap", last.max_true_overlap},
                   {"max_constraint_overlap", last.max_constraint_overlap},
                   {"time_relcp_s", last.time_relcp},
                   {"divisions", static_cast<double>(last.divisions)},
                   {"halvings", static_cast<double>(done.halvings)},
                   {"bodies_removed", static_cast<double>(done.removed)}};
      metrics.writeRow(row);
    }
    if (vtk && (step % config.output.vtk_every == 0 || final_step)) {
      writeFrame(step, time);
    }
    if (config.output.checkpoint_every > 0 &&
        (step % config.output.checkpoint_every == 0 || final_step))
      writeCheckpointNow(step, time);
    phase_times.addOutput(MPI_Wtime() - output_start);
    if (config.output.log_every > 0 && (step % config.output.log_every == 0 || final_step) &&
        log.shows(LogLevel::Info))
      log.info(progress.line(step, time, last, config.contact.method == ConstraintMethod::Relcp,
                             MPI_Wtime() - run_start));
    if (log.shows(LogLevel::Debug)) {
      char line[256];
      std::snprintf(line, sizeof line,
                    "step %ld phases [s] (rank 0): communication %.4f, neighbour search %.4f, "
                    "narrow %.4f, assembly %.4f, solve %.4f, relcp %.4f, update %.4f",
                    step, last.time_domain, last.time_broad, last.time_detect - last.time_broad,
                    last.time_assemble, last.time_solve, last.time_relcp, last.time_update);
      log.debug(line);
    }
    if (final_step) break;
  }
  const double loop_seconds = MPI_Wtime() - run_start;
  summary.timing = reducePhaseTimes(*comm, phase_times.phases(loop_seconds));
  summary.loop_seconds = globalMax(*comm, loop_seconds);
  if (log.shows(LogLevel::Info))
    log.info(formatTimingTable(summary.timing, summary.loop_seconds, comm->getSize()));
  if (rank == 0) {
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
  return summary;
}

}  // namespace grains
