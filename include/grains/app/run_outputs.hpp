#pragma once
// Everything a run writes while it steps: metrics.csv, the VTK body and
// contact-network series with the walls, and checkpoints (regular ones and
// the emergency checkpoint of a run that has to stop).
#include "grains/app/measurements.hpp"
#include "grains/app/step_supervisor.hpp"
#include "grains/config/simulation_config.hpp"
#include "grains/dynamics/time_stepper.hpp"
#include "grains/io/checkpoint.hpp"
#include "grains/io/contact_network_writer.hpp"
#include "grains/io/log.hpp"
#include "grains/io/metrics_writer.hpp"
#include "grains/io/vtk_series_writer.hpp"
#include "grains/parallel/body_domain.hpp"

#include <mpi.h>

#include <optional>
#include <string>
#include <utility>

namespace grains {

/// What a checkpoint records beyond the current state.
struct RunOrigin {
  long initial_bodies = 0;          ///< bodies at the start of the whole run
  double initial_max_radius = 0.0;  ///< [m] largest bounding radius then
};

class RunOutputs {
 public:
  /// Collective. Opens metrics.csv and (with output.vtk_every > 0) the VTK
  /// series in `dir`, continuing existing files when `append` (a restart
  /// into its own directory), and writes the walls and the frame of the
  /// state before `first_step`.
  RunOutputs(const SimulationConfig& config, std::string dir, MPI_Comm comm, const Log& log,
             bool append, long first_step, RunOrigin origin, const BodyDomain& domain,
             const TimeStepper& stepper);

  /// Collective, after step `step` (1-based) ending at `time`: the metrics
  /// row, the frame and the checkpoint that the output intervals ask for (all
  /// of them at the final step).
  void afterStep(long step, double time, bool final_step, const SupervisedStep& done, double wall,
                 const BodyDomain& domain, const TimeStepper& stepper);

  /// Collective: the state after `step` as an emergency checkpoint beside
  /// the regular ones; returns a sentence for the error message saying where
  /// it is (or why writing it failed).
  std::string writeEmergencyCheckpoint(long step, const BodyDomain& domain,
                                       const TimeStepper& stepper) const;

 private:
  CheckpointState checkpointState(long step, double time, const BodyDomain& domain,
                                  const TimeStepper& stepper) const;
  /// The body frame and, `with_network`, the contact-network frame.
  void writeFrame(long step, double time, const BodyDomain& domain, const TimeStepper& stepper,
                  bool with_network);

  const SimulationConfig& config_;
  std::string dir_;
  MPI_Comm comm_;
  const Log& log_;
  RunOrigin origin_;
  MetricsWriter metrics_;
  std::optional<VtkSeriesWriter> vtk_;
  std::optional<ContactNetworkWriter> network_;
  std::optional<VtkSeriesWriter> walls_;      ///< moving walls at each frame's time
  std::pair<Vec3, Vec3> wall_box_;            ///< the region the drawn walls cover
  std::optional<Measurements> measurements_;  ///< config measurements (none: no cost)
};

}  // namespace grains
