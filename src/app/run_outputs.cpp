#include "grains/app/run_outputs.hpp"

#include "grains/app/step_metrics.hpp"
#include "grains/config/config_loader.hpp"
#include "grains/constraint/contact_network.hpp"
#include "grains/geometry/contact_geometry.hpp"
#include "grains/io/wall_geometry.hpp"
#include "grains/parallel/mpi_utils.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

namespace grains {
namespace {

std::vector<Body> ownedBodies(const BodyDomain& domain) {
  return std::vector<Body>(domain.bodies().begin(),
                           domain.bodies().begin() + static_cast<long>(domain.numOwned()));
}

/// Collective: the bodies' bounding box (zero without bodies), which the
/// drawn walls cover.
std::pair<Vec3, Vec3> bodiesBox(const BodyDomain& domain) {
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
  if (!lo.allFinite()) lo = hi = Vec3::Zero();  // no bodies at all
  return {lo, hi};
}

/// Rank 0 writes the walls, sized to `box`, for ParaView. A failure costs
/// only the picture: a warning, not an error.
void writeWallsFile(const std::vector<Wall>& walls, const std::pair<Vec3, Vec3>& box, int rank,
                    const std::string& path, const Log& log) {
  if (walls.empty() || rank != 0) return;
  const auto& [lo, hi] = box;
  try {
    writeWallGeometry(path, walls, lo, hi);
  } catch (const std::exception& e) {
    log.rankWarn(e.what());
  }
}

}  // namespace

RunOutputs::RunOutputs(const SimulationConfig& config, std::string dir, MPI_Comm comm,
                       const Log& log, bool append, long first_step, RunOrigin origin,
                       const BodyDomain& domain, const TimeStepper& stepper)
    : config_(config),
      dir_(std::move(dir)),
      comm_(comm),
      log_(log),
      origin_(origin),
      metrics_(dir_ + "/metrics.csv", comm, append, first_step) {
  if (!config.measurements.list.empty())
    measurements_.emplace(config.measurements, dir_, comm, append, first_step,
                          static_cast<double>(first_step - 1) * config.simulation.dt, domain);
  if (config.output.vtk_every <= 0) return;
  vtk_.emplace(dir_, comm, append);
  if (config.output.contact_network) network_.emplace(dir_, comm, append);
  wall_box_ = bodiesBox(domain);
  writeWallsFile(config.walls, wall_box_, domain.comm().getRank(), dir_ + "/walls.vtp", log);
  // Moving walls: also a series of their poses (walls.pvd).
  if (anyWallMoves(config.walls))
    walls_.emplace(dir_, comm, append, VtkEncoding::BinaryCompressed, "walls");
  // A restart knows no contacts before its first step: appending, it keeps
  // the network frame the earlier run wrote at the checkpoint's step.
  const long restart_step = first_step - 1;
  const auto& kept = network_ ? network_->series().entries() : std::vector<VtkSeriesEntry>{};
  const bool keep_network = std::any_of(
      kept.begin(), kept.end(), [&](const VtkSeriesEntry& e) { return e.step == restart_step; });
  writeFrame(restart_step, static_cast<double>(restart_step) * config.simulation.dt, domain,
             stepper, !keep_network);
}

void RunOutputs::afterStep(long step, double time, bool final_step, const SupervisedStep& done,
                           double wall, const BodyDomain& domain, const TimeStepper& stepper) {
  const OutputSection& out = config_.output;
  if (out.metrics_every > 0 && step % out.metrics_every == 0) {
    MetricsRow row = stepMetricsRow(step, time, done, wall, stepper.lastEnvelope());
    appendWallLoadColumns(row, stepper.walls(), done.report.wall_loads);
    metrics_.writeRow(row);
  }
  if (measurements_) {
    // The multipliers of the step's last substep (dt / 2^halvings) are impulses.
    const double to_force = config_.simulation.dynamics == DynamicsKind::Overdamped
                                ? 1.0
                                : std::ldexp(1.0, done.halvings) / config_.simulation.dt;
    measurements_->afterStep(step, time, final_step, to_force, domain, stepper);
  }
  if (vtk_ && (step % out.vtk_every == 0 || final_step))
    writeFrame(step, time, domain, stepper, true);
  if (out.checkpoint_every > 0 && (step % out.checkpoint_every == 0 || final_step)) {
    const std::string path = writeCheckpointKeeping(
        dir_, checkpointState(step, time, domain, stepper), out.checkpoint_keep, comm_);
    log_.info("checkpoint of step " + std::to_string(step) + " written to " + path);
  }
}

std::string RunOutputs::writeEmergencyCheckpoint(long step, const BodyDomain& domain,
                                                 const TimeStepper& stepper) const {
  std::ostringstream name;
  name << dir_ << "/emergency_checkpoint_" << std::setw(8) << std::setfill('0') << step << ".h5";
  try {
    const double time = static_cast<double>(step) * config_.simulation.dt;
    writeCheckpoint(name.str(), checkpointState(step, time, domain, stepper), comm_);
    return "the state after step " + std::to_string(step) + " is in " + name.str() +
           " (restart with --restart " + name.str() + ")";
  } catch (const std::exception& e) {
    return std::string("writing the emergency checkpoint failed: ") + e.what();
  }
}

CheckpointState RunOutputs::checkpointState(long step, double time, const BodyDomain& domain,
                                            const TimeStepper& stepper) const {
  CheckpointState state;
  state.step = step;
  state.time = time;
  state.initial_bodies = origin_.initial_bodies;
  state.initial_max_radius = origin_.initial_max_radius;
  state.config_yaml = configToYaml(config_);
  state.bodies = ownedBodies(domain);
  state.warm_start = stepper.warmStartRecords();
  state.force_control = stepper.forceControlStates();
  state.layout = domain.layout();
  return state;
}

void RunOutputs::writeFrame(long step, double time, const BodyDomain& domain,
                            const TimeStepper& stepper, bool with_network) {
  vtk_->write(step, time, ownedBodies(domain));
  if (walls_) {
    // Rank 0 draws every wall; the other ranks' pieces are empty.
    const bool drawing = domain.comm().getRank() == 0;
    const std::vector<Wall> placed = drawing ? stepper.placedWalls(time) : std::vector<Wall>();
    const auto piece = makeMovedWallPolyData(drawing ? config_.walls : std::vector<Wall>(), time,
                                             wall_box_.first, wall_box_.second, 64, &placed);
    walls_->writePolyData(step, time, piece);
  }
  if (!network_ || !with_network) return;
  // The network of the step just done, each contact once (owned by one rank).
  const double impulse_to_force =
      config_.simulation.dynamics == DynamicsKind::Overdamped ? 1.0 : config_.simulation.dt;
  network_->write(step, time,
                  contactNetwork(stepper.lastContacts(), stepper.lastImpulses(), domain.bodies(),
                                 impulse_to_force));
}

}  // namespace grains
