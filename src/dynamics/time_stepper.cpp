#include "grains/dynamics/time_stepper.hpp"

#include "grains/constraint/multisphere_detection.hpp"
#include "grains/dynamics/intermediate_configuration.hpp"
#include "grains/dynamics/motion_bound.hpp"
#include "grains/dynamics/relcp_constraints.hpp"
#include "grains/parallel/mpi_utils.hpp"
#include "grains/parallel/parallel_loops.hpp"

#include <Tpetra_Import.hpp>

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace grains {

namespace {
// Margin on the largest relative displacement within a step.
constexpr double kEnvelopeSafety = 1.25;
}  // namespace

TimeStepper::TimeStepper(StepperSettings settings, std::vector<Wall> walls,
                         std::unique_ptr<Solver> solver)
    : settings_(std::move(settings)), walls_(std::move(walls)), solver_(std::move(solver)) {
  // Only the ReLCP recursion finds the contacts a step creates beyond the
  // envelope; any other method would let fast bodies pass into each other.
  if (!settings_.adaptive_envelope && settings_.method != ConstraintMethod::Relcp)
    throw std::invalid_argument(
        "TimeStepper: a fixed (non-adaptive) contact envelope needs the relcp method");
}

std::array<double, 2> globalKineticEnergyParts(const BodyDomain& domain) {
  std::array<double, 2> parts{0.0, 0.0};
  for (std::size_t i = 0; i < domain.numOwned(); ++i) {
    parts[0] += domain.bodies()[i].translationalKineticEnergy();
    parts[1] += domain.bodies()[i].rotationalKineticEnergy();
  }
  MPI_Allreduce(MPI_IN_PLACE, parts.data(), 2, MPI_DOUBLE, MPI_SUM, rawMpiComm(domain.comm()));
  return parts;
}

double globalKineticEnergy(const BodyDomain& domain) {
  const std::array<double, 2> parts = globalKineticEnergyParts(domain);
  return parts[0] + parts[1];
}

std::vector<Contact> TimeStepper::generateConstraints(const BodyDomain& domain,
                                                      const DetectionSettings& detection,
                                                      DetectionTimes* times) const {
  if (settings_.method == ConstraintMethod::Multisphere)
    return detectMultisphereContacts(domain, walls_, detection,
                                     {settings_.subspheres, settings_.subsphere_buffer}, times);
  return detectContacts(domain, walls_, detection, times);
}

std::vector<Contact> TimeStepper::findOverlaps(const BodyDomain& domain,
                                               const std::vector<Body>& bodies, double tolerance,
                                               double& max_overlap) const {
  const std::vector<Contact> touching =
      detectContacts(bodies, domain.numOwned(), walls_, DetectionSettings{0.0, settings_.mu});
  std::vector<Contact> deep;
  double worst = 0.0;
  for (const Contact& c : touching) {
    worst = std::max(worst, -c.geometry.gap);
    if (c.geometry.gap < -tolerance) deep.push_back(c);
  }
  max_overlap = globalMax(domain.comm(), worst);
  return deep;
}

SolveReport TimeStepper::solveStep(const QuadraticProgram& qp, Vector& gamma) const {
  SolveReport report = solver_->solve(qp, gamma);
  // Below the configured tolerance is converged, whatever tighter target the
  // step set (the solver reports against the target).
  if (solver_->toleranceScale() < 1.0)
    report.converged = report.residual <= settings_.solver_tolerance;
  return report;
}

StepReport TimeStepper::step(BodyDomain& domain, long step_index) {
  const double dt = settings_.assembly.dt;
  const MotionModel& motion = settings_.assembly.motion;
  StepReport report;
  double clock = MPI_Wtime();
  auto lap = [&clock](double& slot) {
    const double now = MPI_Wtime();
    slot += now - clock;
    clock = now;
  };
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
  if (settings_.growth) growBodies(domain.bodies(), domain.numOwned(), dt);
  // Contacts must be known before bodies can touch: the detection envelope
  // covers the largest relative approach within the step (two bodies at the
  // fastest surface speed, of the last step or of the free motion), and never
  // less than the configured envelope. The halo reaches one envelope beyond
  // the largest pair.
  double max_radius = 0.0, max_speed = 0.0;
  for (std::size_t i = 0; i < domain.numOwned(); ++i) {
    const Body& b = domain.bodies()[i];
    const double r = boundingRadius(b);
    const Twist free = freeVelocity(b, motion, dt);
    max_radius = std::max(max_radius, r);
    max_speed = std::max({max_speed, b.velocity.norm() + b.angular_velocity.norm() * r,
                          free.head<3>().norm() + free.tail<3>().norm() * r});
  }
  {
    double local[2] = {max_radius, max_speed};
    MPI_Allreduce(MPI_IN_PLACE, local, 2, MPI_DOUBLE, MPI_MAX, rawMpiComm(domain.comm()));
    max_radius = local[0];
    max_speed = local[1];
  }
  const double approach = 2.0 * dt * max_speed;
  const double reach = std::max(settings_.envelope, kEnvelopeSafety * approach);
  checkStepReach(domain, motion, dt, max_speed, max_radius, reach, settings_.envelope);
  // Without the adaptive envelope (ReLCP only) the recursion finds the pairs
  // the step brings into contact (seed 004 section 3), so a falling pile no
  // longer constrains every lattice neighbour speculatively; the halo keeps
  // the full reach so that those pairs are present on every rank.
  last_envelope_ = settings_.adaptive_envelope ? reach : settings_.envelope;
  // Predicted contacts close at most 1.25 dt (|v_a| + |v_b|) <= 1.25 approach
  // beyond the envelope: pairs are searched, and ghosts kept, that far.
  const bool predicting = !settings_.adaptive_envelope && settings_.predict_contacts;
  const double predicted_reach = settings_.envelope + kEnvelopeSafety * approach;
  // LCP-MS's buffer reaches up to buffer x 2 sub-sphere radii (each at most
  // the bounding radius) beyond the sub-spheres.
  const double buffer_reach = settings_.method == ConstraintMethod::Multisphere
                                  ? 2.0 * settings_.subsphere_buffer * max_radius
                                  : 0.0;
  domain.refreshGhosts(2.0 * max_radius +
                       std::max({reach, buffer_reach, predicting ? predicted_reach : 0.0}));
  lap(report.time_domain);

  DetectionSettings detection{last_envelope_, settings_.mu};
  std::vector<Twist> free_velocities;
  if (predicting) {
    // Pairs the free motion closes within the step (with the envelope's
    // safety margin) are constrained from the first solve on instead of
    // being found by the recursion, one re-solve per wave of landing bodies.
    const auto& bodies = domain.bodies();
    free_velocities.resize(bodies.size());
    parallelFor(bodies.size(),
                [&](std::size_t i) { free_velocities[i] = freeVelocity(bodies[i], motion, dt); });
    detection.velocities = &free_velocities;
    detection.horizon = kEnvelopeSafety * dt;
    detection.reach = predicted_reach;
  }
  DetectionTimes detection_times;
  std::vector<Contact> contacts = generateConstraints(domain, detection, &detection_times);
  report.time_broad = detection_times.broad;
  double max_overlap = 0.0;  // before the step: what the previous step left
  for (const Contact& c : contacts) max_overlap = std::max(max_overlap, -c.geometry.gap);
  lap(report.time_detect);
  ContactSystem system =
      assembleContactSystem(domain, contacts, settings_.assembly, &assembly_maps_);
  const int block = system.qp.cones.blockSize();

  Vector gamma(system.constraint_map);
  warm_start_.fill(contacts, block, gamma);
  lap(report.time_assemble);
  const RCP<Vector> warm = solve_hook_ ? rcp(new Vector(gamma, Teuchos::Copy)) : Teuchos::null;
  if (settings_.rest.enabled()) {
    // One application of A: how far the warm start is from solving this step.
    system.qp.cones.project(gamma);
    const double warm_residual = evaluateMeasures(system.qp, gamma).residual;
    solver_->setToleranceScale(settings_.rest.scale(warm_residual, settings_.solver_tolerance));
  }
  report.solve = solveStep(system.qp, gamma);
  if (settings_.rest.enabled()) ++report.solve.operator_applies;
  lap(report.time_solve);

  // u = u_free + W D gamma for owned bodies (monolayer: in-plane part; exact
  // for coplanar rods, whose contact forces lie in the plane anyway).
  auto velocitiesOf = [&motion](const ContactSystem& sys, const Vector& g) {
    auto v = rcp(new Vector(sys.body_map));
    sys.mobility->apply(*bodyImpulses(sys, g), *v);
    v->update(1.0, *sys.u_free, 1.0);
    if (motion.planar) {
      auto data = v->getDataNonConst();
      for (std::size_t k = 0; k + 5 < static_cast<std::size_t>(data.size()); k += 6)
        data[k + 2] = data[k + 3] = data[k + 4] = 0.0;
    }
    return v;
  };
  RCP<Vector> velocities = velocitiesOf(system, gamma);

  // The configuration the step reaches, seen by this rank (owned + ghosts).
  IntermediateConfiguration reached(domain, halo_maps_);
  reached.update(*velocities, dt);
  double true_overlap = 0.0;
  if (settings_.method == ConstraintMethod::Relcp) {
    // Seed 004 eqs. 24/26: while the reached configuration overlaps by more
    // than the tolerance, append constraints linearised there and pulled back
    // to the start, keep all earlier ones, and re-solve warm-started with the
    // previous multipliers padded by zeros.
    for (;;) {
      std::vector<Contact> deep =
          findOverlaps(domain, reached.bodies(), settings_.overlap_tolerance, true_overlap);
      const long found = globalSum(domain.comm(), static_cast<long>(deep.size()));
      lap(report.time_relcp);
      if (found == 0) break;
      if (report.recursions >= settings_.max_recursions) {
        report.relcp_resolved = false;
        break;
      }
      const std::vector<Contact> added =
          pulledBackConstraints(deep, domain.bodies(), reached, dt, report.recursions);
      report.relcp_added += found;
      const std::size_t old_rows = contacts.size() * static_cast<std::size_t>(block);
      contacts.insert(contacts.end(), added.begin(), added.end());
      system = assembleContactSystem(domain, contacts, settings_.assembly, &assembly_maps_);
      Vector padded(system.constraint_map);
      {
        auto src = gamma.getData();
        auto dst = padded.getDataNonConst();
        for (std::size_t k = 0; k < old_rows; ++k) dst[k] = src[k];
      }
      gamma = padded;
      lap(report.time_assemble);
      const SolveReport again = solveStep(system.qp, gamma);
      report.solve.iterations += again.iterations;
      report.solve.operator_applies += again.operator_applies;
      report.solve.residual = again.residual;
      report.solve.objective = again.objective;
      report.solve.converged = report.solve.converged && again.converged;
      ++report.recursions;
      lap(report.time_solve);
      velocities = velocitiesOf(system, gamma);
      reached.update(*velocities, dt);
    }
  } else if (settings_.method == ConstraintMethod::Multisphere) {
    // What the sub-spheres miss of the true surfaces.
    findOverlaps(domain, reached.bodies(), std::numeric_limits<double>::infinity(), true_overlap);
  }
  if (solve_hook_) {
    // After ReLCP recursions the final QP has more rows than the first warm
    // start (it started from the previous recursion's multipliers): export it
    // with a zero warm start rather than one of the wrong size.
    if (report.recursions > 1) {
      const Vector zero(system.constraint_map);
      solve_hook_(step_index, system, zero, gamma, report.solve);
    } else {
      solve_hook_(step_index, system, *warm, gamma, report.solve);
    }
  }
  warm_start_.store(contacts, block, gamma);

  // Accept the reached configuration for owned bodies.
  {
    auto& bodies = domain.bodies();
    auto impulses = bodyImpulses(system, gamma);
    auto imp = impulses->getData();
    // Inertial multipliers are impulses over the step, overdamped ones forces.
    const double to_force = motion.overdamped ? 1.0 : 1.0 / dt;
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

  // Constraint-level overlap after the step, active contacts, contact counts.
  long active = 0;
  double constraint_overlap = 0.0;
  {
    auto& bodies = domain.bodies();
    const auto& moved = reached.bodies();
    auto g = gamma.getData();
    for (std::size_t ci = 0; ci < contacts.size(); ++ci) {
      const Contact& c = contacts[ci];
      if (g[ci * static_cast<std::size_t>(block)] > 0.0) ++active;
      for (int idx : {c.body_a, c.body_b})
        if (idx >= 0 && static_cast<std::size_t>(idx) < domain.numOwned())
          ++bodies[static_cast<std::size_t>(idx)].num_contacts;
    }
    // Sub-spheres are fixed in the body frame: one list per body and step.
    const bool multisphere = settings_.method == ConstraintMethod::Multisphere;
    std::vector<std::vector<SubSphere>> spheres(multisphere ? bodies.size() : 0);
    parallelFor(spheres.size(),
                [&](std::size_t i) { spheres[i] = subSpheres(bodies[i], settings_.subspheres); });
    std::vector<double> gaps(contacts.size());
    parallelFor(contacts.size(), [&](std::size_t ci) {
      const Contact& c = contacts[ci];
      const auto ib = static_cast<std::size_t>(c.body_b);
      const Body& mb = moved[ib];
      if (multisphere) {
        if (c.isWall()) {
          gaps[ci] = multisphereGap(c, nullptr, nullptr, mb, spheres[ib], walls_);
        } else {
          const auto ia = static_cast<std::size_t>(c.body_a);
          gaps[ci] = multisphereGap(c, &moved[ia], &spheres[ia], mb, spheres[ib], walls_);
        }
      } else {
        gaps[ci] = c.isWall() ? wallBody(walls_[static_cast<std::size_t>(c.wall)], mb).gap
                              : bodyBody(moved[static_cast<std::size_t>(c.body_a)], mb).gap;
      }
    });
    for (double gap : gaps) constraint_overlap = std::max(constraint_overlap, -gap);
  }

  last_contacts_ = contacts;
  {
    auto g = gamma.getData();
    last_impulses_.assign(g.begin(), g.end());
  }

  // Tpetra traffic: each application of A (or PGS sweep) exports the ghost
  // columns' partial products to their owners and imports owned values back;
  // assembly and the velocity update add three more such transfers.
  {
    const auto importer = system.Dt->getGraph()->getImporter();
    if (!importer.is_null()) {
      const long per_transfer =
          static_cast<long>(sizeof(double)) *
          static_cast<long>(importer->getNumExportIDs() + importer->getNumRemoteIDs());
      domain.addSentBytes(per_transfer * (report.solve.operator_applies + 3));
    }
  }

  if (settings_.growth) {
    std::vector<Body> owned(domain.bodies().begin(),
                            domain.bodies().begin() + static_cast<long>(domain.numOwned()));
    const long divided = divideCells(owned, *settings_.growth);
    report.divisions = globalSum(domain.comm(), divided);
    if (divided > 0) domain.replaceOwned(std::move(owned));
  }

  const Comm& comm = domain.comm();
  report.bodies = domain.globalBodyCount();
  report.contacts = globalSum(comm, static_cast<long>(contacts.size()));
  report.contacts_min = globalMin(comm, static_cast<long>(contacts.size()));
  report.contacts_max = globalMax(comm, static_cast<long>(contacts.size()));
  report.contacts_mean = static_cast<double>(report.contacts) / comm.getSize();
  report.domain = domain.collectStats();
  lap(report.time_update);
  report.active_contacts = globalSum(comm, active);
  report.max_constraint_overlap = globalMax(comm, constraint_overlap);
  // Single: the constrained pairs are all pairs within the envelope.
  report.max_true_overlap =
      settings_.method == ConstraintMethod::Single ? report.max_constraint_overlap : true_overlap;
  // With growth the start-of-step gaps already hold this step's growth (the
  // solve removes it), so only the end-of-step overlap measures the result.
  if (settings_.growth) max_overlap = 0.0;
  report.max_overlap = std::max(globalMax(comm, max_overlap), report.max_constraint_overlap);
  const std::array<double, 2> energy = globalKineticEnergyParts(domain);
  report.kinetic_energy = energy[0] + energy[1];
  report.kinetic_energy_translational = energy[0];
  report.kinetic_energy_rotational = energy[1];
  return report;
}

}  // namespace grains
