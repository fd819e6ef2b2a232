#include "grains/dynamics/time_stepper.hpp"

#include "grains/linalg/reproducible_reduction.hpp"

#include "grains/core/parallel_loops.hpp"
#include "grains/dynamics/intermediate_configuration.hpp"
#include "grains/dynamics/motion_bound.hpp"
#include "grains/dynamics/sliding_lift_correction.hpp"
#include "grains/parallel/mpi_utils.hpp"
#include "grains/solver/sliding_lift.hpp"

#include <Tpetra_Import.hpp>

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace grains {

namespace {
// Margin on the largest relative displacement within a step.
constexpr double kEnvelopeSafety = 1.25;

// A solve continued by another on the step's next QP (a lift pass, a ReLCP
// re-solve): the work adds up, the measures and convergence are the later
// solve's, whose impulses the step keeps.
void continueWith(SolveReport& report, const SolveReport& again) {
  report.iterations += again.iterations;
  report.operator_applies += again.operator_applies;
  report.residual = again.residual;
  report.objective = again.objective;
  report.converged = again.converged;
}
}  // namespace

TimeStepper::TimeStepper(StepperSettings settings, std::vector<Wall> walls,
                         std::unique_ptr<Solver> solver)
    : settings_(std::move(settings)),
      walls_(std::move(walls)),
      step_walls_(walls_),
      walls_move_(anyWallMoves(walls_)),
      walls_report_(std::any_of(walls_.begin(), walls_.end(),
                                [](const Wall& w) { return !w.load_name.empty(); })),
      force_controlled_(std::any_of(walls_.begin(), walls_.end(),
                                    [](const Wall& w) { return w.force_control.enabled(); })),
      force_control_(walls_.size()),
      solver_(std::move(solver)),
      constraints_(makeConstraintStrategy(settings_)) {
  // Only a method that finds the contacts a step creates beyond the envelope
  // (ReLCP's recursion) may keep the envelope fixed; any other would let fast
  // bodies pass into each other.
  if (!settings_.adaptive_envelope && !constraintMethodInfo(settings_.method).finds_new_contacts)
    throw std::invalid_argument(
        "TimeStepper: a fixed (non-adaptive) contact envelope needs the relcp method, not " +
        settings_.method.name());
  // The fixed point's not yet matched shifts let contacts close by the
  // mismatch, which a recursion that re-solves overlaps keeps re-solving
  // (docs/solvers.md, "Sliding without lift-off").
  if (settings_.lift_passes > 0 && constraintMethodInfo(settings_.method).finds_new_contacts)
    throw std::invalid_argument("TimeStepper: the sliding-lift correction (" +
                                std::to_string(settings_.lift_passes) +
                                " passes) needs a constraint method that does not re-solve "
                                "overlaps, not " +
                                settings_.method.name());
  if (settings_.rest.stopsAtBulk() && !solver_->supportsStopQuantile())
    throw std::invalid_argument(
        "TimeStepper: solver.rest_bulk_stop needs a solver that stops at a quantile of the "
        "contacts; " +
        solver_->name() + " with friction " + frictionModelName(settings_.assembly.friction) +
        " stops on its worst contact only (use apgd, with friction other than box or cylinder)");
}

TimeStepper::~TimeStepper() = default;

class TimeStepper::PhaseClock {
 public:
  void lap(double& slot) {
    const double now = MPI_Wtime();
    slot += now - last_;
    last_ = now;
  }

 private:
  double last_ = MPI_Wtime();
};

std::array<double, 2> globalKineticEnergyParts(const BodyDomain& domain) {
  // Summed reproducibly: the same bits on any rank and thread count.
  const auto& bodies = domain.bodies();
  const long owned = static_cast<long>(domain.numOwned());
  return reproducibleSums<2>(
      domain.comm(), owned, static_cast<double>(globalSum(domain.comm(), owned)),
      [&](long long i) -> std::array<double, 2> {
        const Body& body = bodies[static_cast<std::size_t>(i)];
        return {body.translationalKineticEnergy(), body.rotationalKineticEnergy()};
      });
}

double globalKineticEnergy(const BodyDomain& domain) {
  const std::array<double, 2> parts = globalKineticEnergyParts(domain);
  return parts[0] + parts[1];
}

namespace {
/// The deepest overlap, max(0, -gap(i)) over i in [0, n), on all threads.
template <typename Gap>
double deepestOverlap(std::size_t n, Gap gap) {
  const auto count = static_cast<long>(n);
  double deepest = 0.0;
#pragma omp parallel for schedule(static) reduction(max : deepest)
  for (long i = 0; i < count; ++i) deepest = std::max(deepest, -gap(static_cast<std::size_t>(i)));
  return deepest;
}
}  // namespace

SolveReport TimeStepper::solveStep(const QuadraticProgram& qp, Vector& gamma,
                                   Vector* start_image) const {
  SolveReport report =
      start_image ? solver_->solveFromImage(qp, gamma, *start_image) : solver_->solve(qp, gamma);
  // Below the configured tolerance is converged, whatever tighter target the
  // step set (the solver reports against the target).
  if (solver_->toleranceScale() < 1.0)
    report.converged = report.residual <= settings_.solver_tolerance;
  return report;
}

StepReport TimeStepper::step(BodyDomain& domain, long step_index) {
  const double dt = settings_.assembly.dt;
  StepReport report;
  PhaseClock clock;
  if (walls_move_) step_walls_ = placedWalls(time_);
  prepareDomain(domain, step_index, report);
  const Reach reach = refreshHalo(domain);
  clock.lap(report.time_domain);

  std::vector<Contact> contacts = generateConstraints(domain, reach, report);
  // Before the step: what the last one left.
  double max_overlap =
      deepestOverlap(contacts.size(), [&](std::size_t ci) { return contacts[ci].geometry.gap; });
  clock.lap(report.time_detect);
  ContactSystem system =
      assembleContactSystem(domain, contacts, settings_.assembly, &assembly_maps_);
  const int block = system.qp.cones.blockSize();
  Vector gamma(system.constraint_map);
  warm_start_.fill(contacts, block, gamma);
  torquesToAngularUnknowns(system, gamma);  // the cache holds torques, the QP their unknowns
  clock.lap(report.time_assemble);
  const bool shown = solve_hook_ && (!solve_hook_shows_ || solve_hook_shows_(step_index));
  const RCP<Vector> warm = shown ? rcp(new Vector(gamma, Teuchos::Copy)) : Teuchos::null;
  report.solve = solveWarmStarted(system, gamma);
  report.first_solve_iterations = report.solve.iterations;
  clock.lap(report.time_solve);
  // A hook is shown the first QP too when re-solves follow; ReLCP assembles
  // new systems, so keeping this one's objects is enough.
  std::optional<ContactSystem> first_system;
  RCP<Vector> first_solution;
  SolveReport first_report;
  if (shown) {
    first_system = system;
    first_solution = rcp(new Vector(gamma, Teuchos::Copy));
    first_report = report.solve;
  }

  // The configuration the step reaches, seen by this rank (owned + ghosts).
  IntermediateConfiguration reached(domain, halo_maps_);
  reached.update(*velocitiesOf(system, gamma), dt);
  double true_overlap = -1.0;  // < 0: the constraints' own overlap measures it
  refine(domain, contacts, system, gamma, reached, report, true_overlap, clock);
  if (shown) {
    // After ReLCP recursions the final QP has more rows than the first warm
    // start (it started from the previous recursion's multipliers): it is
    // shown with a zero warm start rather than one of the wrong size, after
    // the first QP with its own.
    if (report.recursions > 1) {
      solve_hook_(step_index, StepQp::first_of_several, *first_system, *warm, *first_solution,
                  first_report);
      const Vector zero(system.constraint_map);
      solve_hook_(step_index, StepQp::last, system, zero, gamma, report.solve);
    } else {
      solve_hook_(step_index, StepQp::last, system, *warm, gamma, report.solve);
    }
  }
  // The cache, the outputs and checkpoints keep torque impulses: a copy
  // converted from the QP's angular unknowns where the model has them.
  std::optional<Vector> torque_impulses;
  if (!system.rolling_radius.empty()) {
    torque_impulses.emplace(gamma, Teuchos::Copy);
    angularUnknownsToTorques(system, *torque_impulses);
  }
  const Vector& impulses = torque_impulses ? *torque_impulses : gamma;
  warm_start_.store(contacts, block, impulses);
  report.thin_wall_crossings = findThinWallCrossings(
      domain.comm(), domain.bodies(), reached.bodies(), domain.numOwned(), step_walls_);
  acceptReached(domain, reached, system, gamma);
  long active = 0;
  const double constraint_overlap =
      measureConstraints(domain, contacts, reached.bodies(), gamma, block, active);
  // Kept for the outputs; moved, not copied (a serial pass over every contact).
  last_contacts_ = std::move(contacts);
  {
    auto g = impulses.getData();
    last_impulses_.assign(g.begin(), g.end());
  }
  if (walls_report_ || force_controlled_)
    report.wall_loads = globalWallLoads(domain.comm(), last_contacts_, block);
  if (force_controlled_) advanceForceControlled(report.wall_loads, dt);
  countTraffic(domain, system, report.solve.operator_applies);
  if (settings_.growth) {
    std::vector<Body> owned(domain.bodies().begin(),
                            domain.bodies().begin() + static_cast<long>(domain.numOwned()));
    const long divided = divideCells(owned, *settings_.growth);
    report.divisions = globalSum(domain.comm(), divided);
    if (divided > 0) domain.replaceOwned(std::move(owned));
  }
  domain.wrapOwned();  // periodic axes: outputs and checks see wrapped centres
  summarize(domain, last_contacts_.size(), report);
  clock.lap(report.time_update);

  const Comm& comm = domain.comm();
  report.active_contacts = globalSum(comm, active);
  report.max_constraint_overlap = globalMax(comm, constraint_overlap);
  report.max_true_overlap = true_overlap >= 0.0 ? true_overlap : report.max_constraint_overlap;
  // With growth the start-of-step gaps already hold this step's growth (the
  // solve removes it), so only the end-of-step overlap measures the result.
  if (settings_.growth) max_overlap = 0.0;
  report.max_overlap = std::max(globalMax(comm, max_overlap), report.max_constraint_overlap);
  const std::array<double, 2> energy = globalKineticEnergyParts(domain);
  report.kinetic_energy = energy[0] + energy[1];
  report.kinetic_energy_translational = energy[0];
  report.kinetic_energy_rotational = energy[1];
  time_ += dt;
  return report;
}

void TimeStepper::prepareDomain(BodyDomain& domain, long step_index, StepReport& report) {
  report.repartitioned = domain.maybeRepartition(step_index);
  domain.migrate();
  domain.maybeSortSpatially(step_index);
  if (domain.comm().getSize() > 1) {
    // Warm-start impulses follow the body that owns the contact (collective).
    const auto arrived = domain.exchange(warm_start_.extractDeparted(domain.takeDepartures()));
    for (const auto& [source, records] : arrived) warm_start_.insert(records);
  }
  // Growing cells take their end-of-step lengths now (growth.hpp): the
  // constraints then see the overlaps growth creates, ghosts carry them, and
  // the envelope below only has to cover the rigid motion.
  if (settings_.growth) growBodies(domain.bodies(), domain.numOwned(), settings_.assembly.dt);
}

TimeStepper::Reach TimeStepper::refreshHalo(BodyDomain& domain) {
  // Contacts must be known before bodies can touch: the detection envelope
  // covers the largest relative approach within the step (two bodies at the
  // fastest surface speed, of the last step or of the free motion), and never
  // less than the configured envelope. The halo reaches one envelope beyond
  // the largest pair.
  const double dt = settings_.assembly.dt;
  double max_radius = 0.0, max_speed = 0.0;
  for (std::size_t i = 0; i < domain.numOwned(); ++i) {
    const Body& b = domain.bodies()[i];
    const double r = boundingRadius(b);
    const Twist free = freeVelocity(b, settings_.assembly.motion, dt);
    max_radius = std::max(max_radius, r);
    max_speed = std::max({max_speed, b.velocity.norm() + b.angular_velocity.norm() * r,
                          free.head<3>().norm() + free.tail<3>().norm() * r});
  }
  // A body meets a moving wall at their summed speed; the approach below is
  // twice the largest speed, so a body and a wall count with their mean.
  if (walls_move_) max_speed = std::max(max_speed, maxWallSpeed(domain));
  double local[2] = {max_radius, max_speed};
  MPI_Allreduce(MPI_IN_PLACE, local, 2, MPI_DOUBLE, MPI_MAX, rawMpiComm(domain.comm()));
  Reach reach;
  reach.max_radius = local[0];
  reach.approach = 2.0 * dt * local[1];
  const double adaptive = std::max(settings_.envelope, kEnvelopeSafety * reach.approach);
  checkStepReach(domain, settings_.assembly.motion, dt, local[1], reach.max_radius, adaptive,
                 settings_.envelope);
  // Without the adaptive envelope (ReLCP only) the recursion finds the pairs
  // the step brings into contact (Palmer et al. (2025), section 3),
  // so a falling pile no longer constrains every lattice neighbour
  // speculatively; the halo keeps the full reach so that those pairs are
  // present on every rank.
  last_envelope_ = settings_.adaptive_envelope ? adaptive : settings_.envelope;
  // Predicted contacts close at most 1.25 dt (|v_a| + |v_b|) <= 1.25 approach
  // beyond the envelope: pairs are searched, and ghosts kept, that far.
  reach.predicting = !settings_.adaptive_envelope && settings_.predict_contacts;
  reach.predicted = settings_.envelope + kEnvelopeSafety * reach.approach;
  domain.refreshGhosts(2.0 * reach.max_radius +
                       std::max({adaptive, constraints_->extraHaloReach(reach.max_radius),
                                 reach.predicting ? reach.predicted : 0.0}));
  return reach;
}

std::vector<Contact> TimeStepper::generateConstraints(const BodyDomain& domain, const Reach& reach,
                                                      StepReport& report) const {
  DetectionSettings detection{last_envelope_, settings_.mu};
  std::vector<Twist> free_velocities;
  if (reach.predicting) {
    // Pairs the free motion closes within the step (with the envelope's
    // safety margin) are constrained from the first solve on instead of
    // being found by the recursion, one re-solve per wave of landing bodies.
    const auto& bodies = domain.bodies();
    const MotionModel& motion = settings_.assembly.motion;
    const double dt = settings_.assembly.dt;
    free_velocities.resize(bodies.size());
    parallelFor(bodies.size(),
                [&](std::size_t i) { free_velocities[i] = freeVelocity(bodies[i], motion, dt); });
    detection.velocities = &free_velocities;
    detection.horizon = kEnvelopeSafety * dt;
    detection.reach = reach.predicted;
  }
  DetectionTimes times;
  std::vector<Contact> contacts = constraints_->generate(domain, step_walls_, detection, &times);
  // Refuse an n^2 solve before it starts.
  checkContactCount(domain, contacts, last_envelope_,
                    settings_.method == ConstraintMethod::Multisphere ? settings_.subspheres : 1);
  report.time_broad = times.broad;
  return contacts;
}

SolveReport TimeStepper::solveWarmStarted(ContactSystem& system, Vector& gamma) {
  const bool correcting = correctsLift(system);
  if (!settings_.rest.enabled() && !correcting) return solveStep(system.qp, gamma);
  if (correcting) {
    // Models that lift carry no fixed bounds: gamma goes onto the QP's cones.
    system.qp.cones.project(gamma);
    return solveLiftCorrected(system, gamma, settings_.rest.enabled());
  }
  // One application of A: how far the warm start is from solving this step.
  // Box and cylinder friction carry no bounds in a simulation (the Tresca
  // fixed point takes them from the warm start's normal impulses), so the
  // warm start is projected with those bounds, as the miss is measured.
  const ConeSet* cones = &system.qp.cones;
  ConeSet warm_start_bounds;
  if (hasFixedBounds(cones->model) && !cones->boundsFixed()) {
    warm_start_bounds =
        cones->withBoundsFrom(gamma.getLocalViewHost(Tpetra::Access::ReadOnly).data());
    cones = &warm_start_bounds;
  }
  cones->project(gamma);
  Vector image(gamma.getMap(), false);
  setRestTarget(
      evaluateResidualSpreadKeepingImage(system.qp, gamma, settings_.rest.quantile, image));
  // The solve may start from that image only where gamma lies on the QP's own
  // contact set, not on the warm start's bounds.
  SolveReport report =
      cones == &system.qp.cones ? solveStep(system.qp, gamma, &image) : solveStep(system.qp, gamma);
  ++report.operator_applies;
  return report;
}

void TimeStepper::setRestTarget(const ResidualSpread& miss) {
  solver_->setToleranceScale(
      settings_.rest.scale(miss.worst, miss.quantile, settings_.solver_tolerance));
  if (settings_.rest.stopsAtBulk())
    solver_->setStopQuantile(settings_.rest.stopQuantile(miss.worst, settings_.solver_tolerance));
}

bool TimeStepper::correctsLift(const ContactSystem& system) const {
  return settings_.lift_passes > 0 && liftsWhenSliding(system.qp.cones.model);
}

SolveReport TimeStepper::solveLiftCorrected(ContactSystem& system, Vector& gamma,
                                            bool measure_rest) {
  QuadraticProgram& qp = system.qp;
  Vector image(gamma.getMap(), false);
  qp.A->apply(gamma, image);
  SlidingLiftCorrection lift(qp);
  lift.propose(gamma, image, /*loaded_only=*/true, settings_.solver_tolerance);
  lift.accept();
  if (measure_rest) {
    // The warm start's miss on the shifted QP (its gradient from the image).
    Vector gradient(image, Teuchos::Copy);
    gradient.update(1.0, *qp.b, 1.0);
    setRestTarget(evaluateResidualSpread(qp, gamma, gradient, settings_.rest.quantile));
  }
  SolveReport report = solveStep(qp, gamma, &image);
  ++report.operator_applies;  // the image the first pass started from
  for (int pass = 1; pass < settings_.lift_passes; ++pass) {
    // The solution's own lifts; a pass that would move no shift by more
    // than the tolerance leaves the QP as solved (the gap error the
    // remaining mismatch allows is below the tolerance too).
    qp.A->apply(gamma, image);
    ++report.operator_applies;
    if (lift.propose(gamma, image, /*loaded_only=*/false, settings_.solver_tolerance) <=
        settings_.solver_tolerance)
      break;
    lift.accept();
    continueWith(report, solveStep(qp, gamma, &image));
  }
  return report;
}

RCP<Vector> TimeStepper::velocitiesOf(const ContactSystem& system, const Vector& gamma) const {
  // Monolayers keep the in-plane part (exact for coplanar rods, whose
  // contact forces lie in the plane anyway).
  auto v = rcp(new Vector(system.body_map));
  system.mobility->apply(*bodyImpulses(system, gamma), *v);
  v->update(1.0, *system.u_free, 1.0);
  if (settings_.assembly.motion.planar) {
    auto data = v->getDataNonConst();
    for (std::size_t k = 0; k + 5 < static_cast<std::size_t>(data.size()); k += 6)
      data[k + 2] = data[k + 3] = data[k + 4] = 0.0;
  }
  return v;
}

void TimeStepper::refine(const BodyDomain& domain, std::vector<Contact>& contacts,
                         ContactSystem& system, Vector& gamma, IntermediateConfiguration& reached,
                         StepReport& report, double& true_overlap, PhaseClock& clock) {
  const double dt = settings_.assembly.dt;
  const int block = system.qp.cones.blockSize();
  // ReLCP (Palmer et al. (2025), eqs. 24/26): while the reached
  // configuration overlaps by more than the tolerance, append constraints
  // linearised there and pulled back to the start, keep all earlier ones,
  // and re-solve warm-started with the previous multipliers padded by zeros.
  for (;;) {
    Refinement found = constraints_->refine(domain, step_walls_, reached, dt, report.recursions);
    if (found.true_overlap) true_overlap = *found.true_overlap;
    clock.lap(report.time_relcp);
    if (found.found == 0) return;
    if (report.recursions >= settings_.max_recursions) {
      report.relcp_resolved = false;
      return;
    }
    report.relcp_added += found.found;
    const std::size_t old_rows = contacts.size() * static_cast<std::size_t>(block);
    contacts.insert(contacts.end(), found.added.begin(), found.added.end());
    system = assembleContactSystem(domain, contacts, settings_.assembly, &assembly_maps_);
    Vector padded(system.constraint_map);
    {
      auto src = gamma.getData();
      auto dst = padded.getDataNonConst();
      for (std::size_t k = 0; k < old_rows; ++k) dst[k] = src[k];
    }
    gamma = padded;
    clock.lap(report.time_assemble);
    // The step's impulses are this solve's; the earlier solves only chose
    // the constraints to add.
    continueWith(report.solve, solveStep(system.qp, gamma));
    ++report.recursions;
    clock.lap(report.time_solve);
    reached.update(*velocitiesOf(system, gamma), dt);
  }
}

void TimeStepper::acceptReached(BodyDomain& domain, const IntermediateConfiguration& reached,
                                const ContactSystem& system, const Vector& gamma) const {
  auto& bodies = domain.bodies();
  auto impulses = bodyImpulses(system, gamma);
  auto imp = impulses->getData();
  // Inertial multipliers are impulses over the step, overdamped ones forces.
  const double to_force = settings_.assembly.motion.overdamped ? 1.0 : 1.0 / settings_.assembly.dt;
  const auto owned = static_cast<long>(domain.numOwned());
#pragma omp parallel for schedule(static)
  for (long i = 0; i < owned; ++i) {
    const auto bi = static_cast<std::size_t>(i);
    Body& b = bodies[bi];
    const Body& moved = reached.bodies()[bi];
    const Twist& u = reached.twist(bi);
    const std::size_t o = 6 * bi;
    b.velocity = u.head<3>();
    b.angular_velocity = u.tail<3>();
    b.contact_force = Vec3(imp[o], imp[o + 1], imp[o + 2]) * to_force;
    b.contact_torque = Vec3(imp[o + 3], imp[o + 4], imp[o + 5]) * to_force;
    b.position = moved.position;
    b.orientation = moved.orientation;
    b.num_contacts = 0;
  }
}

double TimeStepper::measureConstraints(BodyDomain& domain, const std::vector<Contact>& contacts,
                                       const std::vector<Body>& moved, const Vector& gamma,
                                       int block, long& active) const {
  auto& bodies = domain.bodies();
  const auto data = gamma.getData();
  const double* g = data.getRawPtr();
  const auto n = static_cast<long>(contacts.size());
  const std::size_t owned = domain.numOwned();
  long counted = 0;
  // Counts, so any order of the increments gives the same result.
#pragma omp parallel for schedule(static) reduction(+ : counted)
  for (long ci = 0; ci < n; ++ci) {
    const Contact& c = contacts[static_cast<std::size_t>(ci)];
    if (g[static_cast<std::size_t>(ci) * static_cast<std::size_t>(block)] > 0.0) ++counted;
    for (int idx : {c.body_a, c.body_b}) {
      if (idx >= 0 && static_cast<std::size_t>(idx) < owned) {
#pragma omp atomic update
        ++bodies[static_cast<std::size_t>(idx)].num_contacts;
      }
    }
  }
  active += counted;
  // The step ends with the walls where they are at its end.
  std::vector<Wall> end_walls =
      walls_move_ ? wallsAt(walls_, time_ + settings_.assembly.dt) : std::vector<Wall>();
  // Force-controlled walls have advanced to the step's end already.
  if (walls_move_) placeForceControlled(end_walls, 0.0);
  const std::vector<double> gaps =
      constraints_->constraintGaps(contacts, moved, walls_move_ ? end_walls : walls_);
  return deepestOverlap(gaps.size(), [&](std::size_t ci) { return gaps[ci]; });
}

void TimeStepper::countTraffic(BodyDomain& domain, const ContactSystem& system,
                               long operator_applies) const {
  // Each application of A (or PGS sweep) exports the ghost columns' partial
  // products to their owners and imports owned values back; assembly and the
  // velocity update add three more such transfers.
  const auto& importer = system.A->layout().importer;
  if (importer.is_null()) return;
  const long per_transfer =
      static_cast<long>(sizeof(double)) *
      static_cast<long>(importer->getNumExportIDs() + importer->getNumRemoteIDs());
  domain.addSentBytes(per_transfer * (operator_applies + 3));
}

void TimeStepper::summarize(BodyDomain& domain, std::size_t local_contacts,
                            StepReport& report) const {
  const Comm& comm = domain.comm();
  const auto count = static_cast<long>(local_contacts);
  report.bodies = domain.globalBodyCount();
  report.contacts = globalSum(comm, count);
  report.contacts_min = globalMin(comm, count);
  report.contacts_max = globalMax(comm, count);
  report.contacts_mean = static_cast<double>(report.contacts) / comm.getSize();
  report.domain = domain.collectStats();
}

}  // namespace grains
