#pragma once
// One non-smooth time step, inertial (Heyn et al. (2013) eqs. 4-10; Palmer et al. (2025) eq. 17)
// or overdamped (Palmer et al. (2025) eqs. 9 and 18): migrate + halo, constraint
// generation (single deepest point, multisphere, or ReLCP's recursion of
// Palmer et al. (2025) eqs. 20-26), QP assembly, solve, velocity update, semi-implicit
// position/orientation update (Heyn et al. (2013) eq. 8, Palmer et al. (2025) eq. 9).
#include "grains/constraint/contact_detection.hpp"
#include "grains/constraint/contact_system.hpp"
#include "grains/constraint/wall_loads.hpp"
#include "grains/constraint/warm_start.hpp"
#include "grains/core/wall.hpp"
#include "grains/dynamics/constraint_method.hpp"
#include "grains/dynamics/constraint_strategy.hpp"
#include "grains/dynamics/growth.hpp"
#include "grains/dynamics/rest_tolerance.hpp"
#include "grains/dynamics/thin_wall_crossing.hpp"
#include "grains/parallel/body_domain.hpp"
#include "grains/solver/solver.hpp"

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace grains {

struct StepperSettings {
  AssemblySettings assembly;
  /// Minimum speculative-contact distance; widened automatically in steps
  /// where bodies could otherwise meet unseen (see TimeStepper::step).
  double envelope = 0.0;
  double mu = 0.0;
  ConstraintMethod method = ConstraintMethod::Single;
  int subspheres = 7;               ///< multisphere: sub-spheres per body
  double overlap_tolerance = 1e-5;  ///< relcp: largest accepted true overlap [m]
  int max_recursions = 50;          ///< relcp: LCP solves per step at most
  /// multisphere: sub-sphere pairs are also constrained up to this multiple
  /// of their radii's sum (MultisphereSettings::buffer).
  double subsphere_buffer = 0.0;
  /// false (relcp only): detect within `envelope` and leave the contacts the
  /// step creates to the recursion; the halo still covers the largest approach.
  bool adaptive_envelope = true;
  /// With adaptive_envelope false: detection also keeps the pairs the free
  /// motion brings within the envelope during the step (DetectionSettings).
  bool predict_contacts = true;
  /// Growing rods: lengths advance before the constraints are generated,
  /// cells divide at the end of the step (grains/dynamics/growth.hpp).
  std::optional<GrowthSettings> growth;
  /// The solver's configured residual tolerance, and how much tighter a
  /// step that has to iterate is solved (rest_tolerance.hpp).
  double solver_tolerance = 1e-6;
  RestTolerance rest;
  /// Passes of de Saxce's fixed point per solve (sliding_lift_correction.hpp)
  /// with coulomb, pyramid and coulomb_rolling friction: 0 keeps the cone
  /// complementarity relaxation, whose sliding contacts lift off. Not with a
  /// method that re-solves overlaps (relcp).
  int lift_passes = 0;
};

/// Global (all-rank) results of one step.
struct StepReport {
  long bodies = 0;
  long contacts = 0;         ///< constraints, including speculative ones and ReLCP's
  long active_contacts = 0;  ///< contacts with a positive normal impulse
  /// Largest penetration depth [m]: over the contacts found at the start of
  /// the step (what the previous step left; not with growth, whose overlaps
  /// the step itself removes) and their gaps after this step.
  double max_overlap = 0.0;
  /// Largest overlap of the true surfaces over all pairs at the end of the
  /// step [m] (for multisphere this is what the sub-spheres miss).
  double max_true_overlap = 0.0;
  /// Largest violation of the constraints themselves at the end of the step
  /// [m] (multisphere: sub-sphere gaps; single/relcp: as max_true_overlap
  /// restricted to constrained pairs).
  double max_constraint_overlap = 0.0;
  int recursions = 1;  ///< LCP solves this step (ReLCP recursions)
  /// Solver iterations of the step's first solve; solve.iterations less
  /// this is what ReLCP's re-solves took.
  int first_solve_iterations = 0;
  long relcp_added = 0;         ///< constraints appended by ReLCP this step
  long divisions = 0;           ///< cells that divided at the end of this step
  bool relcp_resolved = true;   ///< false: stopped at max_recursions with overlaps left
  double kinetic_energy = 0.0;  ///< [J] of all bodies after the step
  double kinetic_energy_translational = 0.0;  ///< [J] sum of (1/2) m |u|^2
  double kinetic_energy_rotational = 0.0;     ///< [J] sum of (1/2) w.J w
  long contacts_min = 0, contacts_max = 0;    ///< per rank
  double contacts_mean = 0.0;
  bool repartitioned = false;
  /// Wall time of this rank's phases [s]: partition/migration/halo, contact
  /// detection, QP assembly, solve, velocity/position update and measures.
  double time_domain = 0.0, time_detect = 0.0, time_assemble = 0.0, time_solve = 0.0,
         time_update = 0.0;
  /// Refinement after the solves (constraint_strategy.hpp): ReLCP's halo
  /// refresh and overlap search, multisphere's true-overlap search.
  double time_relcp = 0.0;
  /// The neighbour search (cell lists) part of time_detect; the rest is the
  /// narrow phase (pair geometry).
  double time_broad = 0.0;
  DomainStats domain;  ///< per-rank bodies, load imbalance, bytes sent
  SolveReport solve;
  /// Force and torque of the bodies on each wall (all ranks), when some
  /// wall has a load name (Wall::load_name); else empty.
  std::vector<WallLoad> wall_loads;
  /// Bodies whose centre passed through a thin wall in this step.
  ThinWallCrossings thin_wall_crossings;
};

class TimeStepper {
 public:
  TimeStepper(StepperSettings settings, std::vector<Wall> walls, std::unique_ptr<Solver> solver);
  ~TimeStepper();
  TimeStepper(TimeStepper&&) = default;

  StepReport step(BodyDomain& domain, long step_index);
  const StepperSettings& settings() const { return settings_; }
  /// Which of a step's QPs a solve hook is shown.
  enum class StepQp {
    last,             ///< the step's only QP, or its last after ReLCP re-solves
    first_of_several  ///< the first QP of a step with ReLCP re-solves
  };
  /// Called on every rank after the solves of each step (collective work
  /// allowed), e.g. to export the QP: the assembled system, the warm start
  /// the solver got and the impulses it returned. A step with ReLCP
  /// re-solves calls it twice: first with its first QP, the warm start from
  /// the last step and that solve's impulses, then with its last QP, whose
  /// solve started from the previous one's impulses padded by zeros (shown
  /// as a zero warm start).
  using SolveHook = std::function<void(long step, StepQp which, const ContactSystem& system,
                                       const Vector& warm_start, const Vector& solution,
                                       const SolveReport& report)>;
  /// `shows(step)` picks the steps the hook is called for (0-based step
  /// index, as the hook's): only those keep copies of their warm start and
  /// first QP for it. Empty: every step.
  void setSolveHook(SolveHook hook, std::function<bool(long step)> shows = {}) {
    solve_hook_ = std::move(hook);
    solve_hook_shows_ = std::move(shows);
  }
  /// This rank's contacts of the last step and their impulses (body indices
  /// refer to the bodies before the step's cell divisions) (blockSize()
  /// values per contact: normal, then the two tangents) [N s]; overdamped:
  /// forces [N].
  const std::vector<Contact>& lastContacts() const { return last_contacts_; }
  const std::vector<double>& lastImpulses() const { return last_impulses_; }
  /// Contact detection distance used in the last step [m].
  double lastEnvelope() const { return last_envelope_; }
  /// The remembered impulses of this rank's contacts (checkpoints), and
  /// their restoration on the rank owning each contact's body (restarts).
  std::vector<WarmStartRecord> warmStartRecords() const { return warm_start_.records(); }
  void restoreWarmStart(const std::vector<WarmStartRecord>& records) {
    warm_start_.insert(records);
  }
  /// Forgets every remembered impulse and keeps `records` instead (a step
  /// redone from a snapshot starts from the impulses the snapshot had).
  void replaceWarmStart(const std::vector<WarmStartRecord>& records) {
    warm_start_ = WarmStartCache();
    warm_start_.insert(records);
  }
  /// How often the assembly had to build its body maps and Import plan
  /// (AssemblyMaps): once, and again whenever bodies migrate or constraints
  /// reach other ghosts.
  long assemblyMapBuilds() const { return assembly_maps_.builds(); }
  /// The same for the maps of the ReLCP halo refresh (owned bodies and all ghosts).
  long haloMapBuilds() const { return halo_maps_.builds(); }
  /// The time step of the following steps [s] (> 0): substeps of a retried step.
  void setTimeStep(double dt) { settings_.assembly.dt = dt; }
  /// The time at the start of the next step [s] (0 at first); each step
  /// advances it by its dt. Moving walls are placed at it (core/wall.hpp).
  void setTime(double time) { time_ = time; }
  double time() const { return time_; }
  /// The walls as configured (their pose at t = 0), and as placed at the
  /// start of the last step.
  const std::vector<Wall>& walls() const { return walls_; }
  const std::vector<Wall>& stepWalls() const { return step_walls_; }
  /// The walls at time `t` with the force-controlled ones where their state
  /// puts them now (between steps: at the time of the next step's start).
  std::vector<Wall> placedWalls(double t) const;
  /// One state per wall (force_control.hpp; unused for the others): in
  /// checkpoints, and restored when a step is redone or a run restarts.
  const std::vector<ForceControlState>& forceControlStates() const { return force_control_; }
  /// Throws std::invalid_argument unless there is one state per wall.
  void setForceControlStates(std::vector<ForceControlState> states);

 private:
  StepperSettings settings_;
  std::vector<Wall> walls_;
  /// The walls at the start of the current step (walls_ when none moves).
  std::vector<Wall> step_walls_;
  bool walls_move_ = false;
  bool walls_report_ = false;      ///< some wall's load goes to the metrics
  bool force_controlled_ = false;  ///< some wall is force-controlled
  std::vector<ForceControlState> force_control_;
  /// Moves the force-controlled walls of `walls` (placed by wallsAt) to their
  /// state `ahead` seconds after the current one.
  void placeForceControlled(std::vector<Wall>& walls, double ahead) const;
  /// Integrates the force-controlled walls over the step from its loads.
  void advanceForceControlled(const std::vector<WallLoad>& loads, double dt);
  double time_ = 0.0;
  std::unique_ptr<Solver> solver_;
  WarmStartCache warm_start_;
  /// Body maps and ghost Import plan, reused while bodies and touched ghosts stay.
  AssemblyMaps assembly_maps_;
  /// Owned bodies and all ghosts: the halo refresh of the ReLCP recursions.
  AssemblyMaps halo_maps_;
  double last_envelope_ = 0.0;

  /// Charges the wall time since its last lap to one of StepReport's phases.
  class PhaseClock;
  /// How far the step's constraints and ghosts must reach (refreshHalo).
  struct Reach {
    double max_radius = 0.0;  ///< largest bounding radius of all bodies [m]
    double approach = 0.0;    ///< largest relative approach within the step [m]
    bool predicting = false;  ///< detection keeps the pairs the free motion closes
    double predicted = 0.0;   ///< broad-phase distance of predicted contacts [m]
  };
  /// The phases of step(), in order.
  void prepareDomain(BodyDomain& domain, long step_index, StepReport& report);
  Reach refreshHalo(BodyDomain& domain);
  std::vector<Contact> generateConstraints(const BodyDomain& domain, const Reach& reach,
                                           StepReport& report) const;
  /// The first solve, warm-started from the impulses of the last step.
  SolveReport solveWarmStarted(ContactSystem& system, Vector& gamma);
  /// The solver's target for a solve whose warm start misses by `miss`
  /// (rest_tolerance.hpp).
  void setRestTarget(const ResidualSpread& miss);
  /// Whether this step's QPs get the sliding-lift correction.
  bool correctsLift(const ContactSystem& system) const;
  /// A solve of the lift-corrected QP from gamma (on the QP's cones): its
  /// first pass shifts b by the lifts of gamma, the others by the lifts of
  /// the last solution, until no shift changes by more than the tolerance.
  /// Leaves system.qp.b shifted (the QP the impulses solve).
  SolveReport solveLiftCorrected(ContactSystem& system, Vector& gamma, bool measure_rest);
  /// Re-solves with the constraints the strategy adds until it adds none
  /// (ReLCP's recursion); `reached` follows the latest solve.
  void refine(const BodyDomain& domain, std::vector<Contact>& contacts, ContactSystem& system,
              Vector& gamma, IntermediateConfiguration& reached, StepReport& report,
              double& true_overlap, PhaseClock& clock);
  /// Owned bodies take the reached configuration, velocities and contact
  /// forces.
  void acceptReached(BodyDomain& domain, const IntermediateConfiguration& reached,
                     const ContactSystem& system, const Vector& gamma) const;
  /// Counts each owned body's contacts and the active ones; returns the
  /// largest overlap of the constraints at the end of the step (this rank).
  double measureConstraints(BodyDomain& domain, const std::vector<Contact>& contacts,
                            const std::vector<Body>& moved, const Vector& gamma, int block,
                            long& active) const;
  /// Adds the step's Tpetra traffic to the domain's statistics.
  void countTraffic(BodyDomain& domain, const ContactSystem& system, long operator_applies) const;
  /// The loads on the walls of this step's contacts (last_impulses_), summed
  /// over the ranks (collective).
  std::vector<WallLoad> globalWallLoads(const Comm& comm, const std::vector<Contact>& contacts,
                                        int block) const;
  /// Largest surface speed of a moving wall at an owned body, grown by the
  /// body's bounding radius times the wall's angular speed [m/s] (0: no moving walls).
  double maxWallSpeed(const BodyDomain& domain) const;
  /// Body and contact counts (collective).
  void summarize(BodyDomain& domain, std::size_t local_contacts, StepReport& report) const;
  /// u = u_free + W D gamma for owned bodies.
  RCP<Vector> velocitiesOf(const ContactSystem& system, const Vector& gamma) const;
  /// The solver on one of the step's QPs; `converged` against the
  /// configured tolerance. With `start_image` (A gamma, gamma on qp's cones)
  /// the solver may start from it (Solver::solveFromImage).
  SolveReport solveStep(const QuadraticProgram& qp, Vector& gamma,
                        Vector* start_image = nullptr) const;
  std::unique_ptr<ConstraintStrategy> constraints_;
  std::vector<Contact> last_contacts_;
  std::vector<double> last_impulses_;
  SolveHook solve_hook_;
  std::function<bool(long)> solve_hook_shows_;
};

/// Kinetic energy of all bodies (collective).
double globalKineticEnergy(const BodyDomain& domain);
/// Translational and rotational parts of it, in that order (collective).
std::array<double, 2> globalKineticEnergyParts(const BodyDomain& domain);

}  // namespace grains
