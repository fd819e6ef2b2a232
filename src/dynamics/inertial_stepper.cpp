#include "grains/dynamics/inertial_stepper.hpp"

#include "grains/parallel/mpi_utils.hpp"

#include <Tpetra_Import.hpp>

#include <algorithm>

namespace grains {

namespace {
// Margin on the largest relative displacement within a step.
constexpr double kEnvelopeSafety = 1.25;
}  // namespace

InertialStepper::InertialStepper(StepperSettings settings, std::vector<Wall> walls,
                                 std::unique_ptr<Solver> solver)
    : settings_(std::move(settings)), walls_(std::move(walls)), solver_(std::move(solver)) {}

double globalKineticEnergy(const BodyDomain& domain) {
  double energy = 0.0;
  for (std::size_t i = 0; i < domain.numOwned(); ++i) energy += domain.bodies()[i].kineticEnergy();
  return globalSum(domain.comm(), energy);
}

namespace {

// Orientation update q <- exp(dt * omega / 2) q (world-frame angular velocity).
Quat advanceOrientation(const Quat& q, const Vec3& omega, double dt) {
  const double angle = omega.norm() * dt;
  if (angle < 1e-300) return q;
  const Quat rotation(Eigen::AngleAxisd(angle, omega.normalized()));
  return (rotation * q).normalized();
}

}  // namespace

StepReport InertialStepper::step(BodyDomain& domain, long step_index) {
  const double dt = settings_.assembly.dt;
  StepReport report;
  double clock = MPI_Wtime();
  auto lap = [&clock](double& slot) {
    const double now = MPI_Wtime();
    slot += now - clock;
    clock = now;
  };
  report.repartitioned = domain.maybeRepartition(step_index);
  domain.migrate();
  if (domain.comm().getSize() > 1) {
    // Warm-start impulses follow the body that owns the contact (collective).
    const auto arrived = domain.exchange(warm_start_.extractDeparted(domain.takeDepartures()));
    for (const auto& [source, records] : arrived) warm_start_.insert(records);
  }
  // Contacts must be known before bodies can touch: the detection envelope
  // covers the largest relative approach within the step (two bodies at the
  // fastest surface speed plus gravity's increment), and never less than the
  // configured envelope. The halo reaches one envelope beyond the largest pair.
  double max_radius = 0.0, max_speed = 0.0;
  for (std::size_t i = 0; i < domain.numOwned(); ++i) {
    const Body& b = domain.bodies()[i];
    const double r = boundingRadius(b);
    max_radius = std::max(max_radius, r);
    max_speed = std::max(max_speed, b.velocity.norm() + b.angular_velocity.norm() * r);
  }
  {
    double local[2] = {max_radius, max_speed};
    MPI_Allreduce(MPI_IN_PLACE, local, 2, MPI_DOUBLE, MPI_MAX, rawMpiComm(domain.comm()));
    max_radius = local[0];
    max_speed = local[1];
  }
  const double approach = 2.0 * dt * (max_speed + dt * settings_.assembly.gravity.norm());
  last_envelope_ = std::max(settings_.envelope, kEnvelopeSafety * approach);
  domain.refreshGhosts(2.0 * max_radius + last_envelope_);
  lap(report.time_domain);

  const std::vector<Contact> contacts =
      detectContacts(domain, walls_, DetectionSettings{last_envelope_, settings_.mu});
  double max_overlap = 0.0;  // before the step: what the previous step left
  {
    auto& bodies = domain.bodies();
    for (std::size_t i = 0; i < domain.numOwned(); ++i) bodies[i].num_contacts = 0;
    for (const Contact& c : contacts) {
      max_overlap = std::max(max_overlap, -c.geometry.gap);
      for (int idx : {c.body_a, c.body_b})
        if (idx >= 0 && static_cast<std::size_t>(idx) < domain.numOwned())
          ++bodies[static_cast<std::size_t>(idx)].num_contacts;
    }
  }
  lap(report.time_detect);
  ContactSystem system = assembleContactSystem(domain, contacts, settings_.assembly);
  const int block = system.qp.cones.blockSize();

  Vector gamma(system.constraint_map);
  warm_start_.fill(contacts, block, gamma);
  lap(report.time_assemble);
  const RCP<Vector> warm = solve_hook_ ? rcp(new Vector(gamma, Teuchos::Copy)) : Teuchos::null;
  report.solve = solver_->solve(system.qp, gamma);
  lap(report.time_solve);
  if (solve_hook_) solve_hook_(step_index, system, *warm, gamma, report.solve);
  warm_start_.store(contacts, block, gamma);

  // u+ = u_free + W D gamma for owned bodies.
  auto impulses = bodyImpulses(system, gamma);
  Vector velocities(system.body_map);
  system.mobility->apply(*impulses, velocities);
  velocities.update(1.0, *system.u_free, 1.0);
  {
    auto& bodies = domain.bodies();
    auto u = velocities.getData();
    auto imp = impulses->getData();
    const auto owned = static_cast<long>(domain.numOwned());
#pragma omp parallel for schedule(static)
    for (long i = 0; i < owned; ++i) {
      Body& b = bodies[static_cast<std::size_t>(i)];
      const std::size_t o = 6 * static_cast<std::size_t>(i);
      b.velocity = Vec3(u[o], u[o + 1], u[o + 2]);
      b.angular_velocity = Vec3(u[o + 3], u[o + 4], u[o + 5]);
      b.contact_force = Vec3(imp[o], imp[o + 1], imp[o + 2]) / dt;
      b.contact_torque = Vec3(imp[o + 3], imp[o + 4], imp[o + 5]) / dt;
      b.position += dt * b.velocity;
      b.orientation = advanceOrientation(b.orientation, b.angular_velocity, dt);
    }
  }

  // Overlap after the step: move every column-map body (owned and ghost) with
  // its new velocity and re-measure the gaps of this step's contacts.
  long active = 0;
  {
    const auto& col_map = system.Dt->getColMap();
    Vector column_velocities(col_map);
    auto importer = system.Dt->getGraph()->getImporter();
    if (importer.is_null())
      column_velocities.assign(velocities);
    else
      column_velocities.doImport(velocities, *importer, Tpetra::INSERT);
    auto cu = column_velocities.getData();
    const auto& bodies = domain.bodies();
    // Owned bodies have moved already; ghosts move here with their new velocity.
    auto moved = [&](int idx) -> Body {
      Body b = bodies[static_cast<std::size_t>(idx)];
      if (static_cast<std::size_t>(idx) < domain.numOwned()) return b;
      const auto lid = col_map->getLocalElement(6 * b.gid);
      b.position += dt * Vec3(cu[lid], cu[lid + 1], cu[lid + 2]);
      b.orientation =
          advanceOrientation(b.orientation, Vec3(cu[lid + 3], cu[lid + 4], cu[lid + 5]), dt);
      return b;
    };
    auto g = gamma.getData();
    for (std::size_t ci = 0; ci < contacts.size(); ++ci) {
      const Contact& c = contacts[ci];
      if (g[ci * block] > 0.0) ++active;
      const double gap =
          c.isWall() ? wallBody(walls_[static_cast<std::size_t>(c.wall)], moved(c.body_b)).gap
                     : bodyBody(moved(c.body_a), moved(c.body_b)).gap;
      max_overlap = std::max(max_overlap, -gap);
    }
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

  const Comm& comm = domain.comm();
  report.bodies = domain.globalBodyCount();
  report.contacts = globalSum(comm, static_cast<long>(contacts.size()));
  report.contacts_min = globalMin(comm, static_cast<long>(contacts.size()));
  report.contacts_max = globalMax(comm, static_cast<long>(contacts.size()));
  report.contacts_mean = static_cast<double>(report.contacts) / comm.getSize();
  report.domain = domain.collectStats();
  lap(report.time_update);
  report.active_contacts = globalSum(comm, active);
  report.max_overlap = globalMax(comm, max_overlap);
  report.kinetic_energy = globalKineticEnergy(domain);
  return report;
}

}  // namespace grains
