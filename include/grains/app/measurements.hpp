#pragma once
// The measurements of config `measurements:` (docs/measurements.md), each at
// its own interval: coordination number, packing fraction, Love-Weber stress
// and contact fabric of a region, coarse-grained fields on a grid, and the
// mass flow out of the domain. Every global sum is reproducible, so the files
// hold the same bits on any rank count.
#include "grains/app/contact_ends.hpp"
#include "grains/app/measurement_files.hpp"
#include "grains/dynamics/time_stepper.hpp"
#include "grains/io/measurement_settings.hpp"
#include "grains/parallel/body_domain.hpp"

#include <mpi.h>

#include <optional>
#include <string>
#include <vector>

namespace grains {

class Measurements {
 public:
  /// Collective. Opens each measurement's file in `dir` (continuing those of
  /// steps before `first_step` when `append`) and, for mass_flow, takes the
  /// bodies' mass at the start.
  Measurements(const MeasurementsSection& section, const std::string& dir, MPI_Comm comm,
               bool append, long first_step, double start_time, const BodyDomain& domain);
  ~Measurements();
  Measurements(const Measurements&) = delete;
  Measurements& operator=(const Measurements&) = delete;

  /// Collective, after step `step` ending at `time`: the measurements due
  /// (step a multiple of `every`, or the final step). `to_force` turns the
  /// stepper's multipliers into forces (1 / the last substep's dt; 1 overdamped).
  void afterStep(long step, double time, bool final_step, double to_force, const BodyDomain& domain,
                 const TimeStepper& stepper);

 private:
  struct Channel {
    Measurement spec;
    std::optional<MeasurementCsv> csv;
    std::optional<GridSeries> grid;
    double last_mass = 0.0;  ///< mass_flow: at the last output [kg]
    double last_time = 0.0;  ///< mass_flow: [s]
  };
  void measure(Channel& channel, long step, double time, const BodyDomain& domain,
               const std::vector<std::vector<ContactEnd>>& ends);

  std::vector<Channel> channels_;
  MPI_Comm comm_ = MPI_COMM_NULL;  ///< our own, for the contact-end exchange
  int tag_ = 0;
};

}  // namespace grains
