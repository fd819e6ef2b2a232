#pragma once
// One inertial non-smooth time step (seed 001 eqs. 4-10; seed 004 eq. 17):
// migrate + halo, contact detection, QP assembly, solve, velocity update,
// semi-implicit position/orientation update (seed 001 eq. 8).
#include "grains/constraint/contact_detection.hpp"
#include "grains/constraint/contact_system.hpp"
#include "grains/constraint/warm_start.hpp"
#include "grains/core/wall.hpp"
#include "grains/parallel/body_domain.hpp"
#include "grains/solver/solver.hpp"

#include <functional>
#include <memory>
#include <vector>

namespace grains {

struct StepperSettings {
  AssemblySettings assembly;
  /// Minimum speculative-contact distance; widened automatically in steps
  /// where bodies could otherwise meet unseen (see InertialStepper::step).
  double envelope = 0.0;
  double mu = 0.0;
};

/// Global (all-rank) results of one step.
struct StepReport {
  long bodies = 0;
  long contacts = 0;         ///< constraints, including speculative ones
  long active_contacts = 0;  ///< contacts with a positive normal impulse
  /// Largest penetration depth [m]: over the contacts found at the start of
  /// the step (what the previous step left) and their gaps after this step.
  double max_overlap = 0.0;
  double kinetic_energy = 0.0;
  long contacts_min = 0, contacts_max = 0;  ///< per rank
  double contacts_mean = 0.0;
  bool repartitioned = false;
  /// Wall time of this rank's phases [s]: partition/migration/halo, contact
  /// detection, QP assembly, solve, velocity/position update and measures.
  double time_domain = 0.0, time_detect = 0.0, time_assemble = 0.0, time_solve = 0.0,
         time_update = 0.0;
  DomainStats domain;  ///< per-rank bodies, load imbalance, bytes sent
  SolveReport solve;
};

class InertialStepper {
 public:
  InertialStepper(StepperSettings settings, std::vector<Wall> walls,
                  std::unique_ptr<Solver> solver);

  StepReport step(BodyDomain& domain, long step_index);
  const StepperSettings& settings() const { return settings_; }
  /// Called on every rank right after the solve of each step (collective
  /// work allowed), e.g. to export the QP: the assembled system, the warm
  /// start the solver got and the impulses it returned.
  using SolveHook =
      std::function<void(long step, const ContactSystem& system, const Vector& warm_start,
                         const Vector& solution, const SolveReport& report)>;
  void setSolveHook(SolveHook hook) { solve_hook_ = std::move(hook); }
  /// This rank's contacts of the last step and their impulses (blockSize()
  /// values per contact: normal, then the two tangents) [N s].
  const std::vector<Contact>& lastContacts() const { return last_contacts_; }
  const std::vector<double>& lastImpulses() const { return last_impulses_; }
  /// Contact detection distance used in the last step [m].
  double lastEnvelope() const { return last_envelope_; }

 private:
  StepperSettings settings_;
  std::vector<Wall> walls_;
  std::unique_ptr<Solver> solver_;
  WarmStartCache warm_start_;
  double last_envelope_ = 0.0;
  std::vector<Contact> last_contacts_;
  std::vector<double> last_impulses_;
  SolveHook solve_hook_;
};

/// Kinetic energy of all bodies (collective).
double globalKineticEnergy(const BodyDomain& domain);

}  // namespace grains
