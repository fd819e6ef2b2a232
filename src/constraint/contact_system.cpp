#include "grains/constraint/contact_system.hpp"

#include "grains/constraint/contact_frame_jacobian.hpp"
#include "grains/constraint/rolling_radius.hpp"
#include "grains/core/parallel_loops.hpp"

#include <Teuchos_OrdinalTraits.hpp>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <utility>

namespace grains {

Eigen::Matrix<double, 1, 6> jacobianRow(const Vec3& direction, const Vec3& point,
                                        const Vec3& center) {
  Eigen::Matrix<double, 1, 6> row;
  row.head<3>() = direction.transpose();
  row.tail<3>() = (point - center).cross(direction).transpose();
  return row;
}

Eigen::Matrix<double, 1, 6> angularJacobianRow(const Vec3& direction) {
  Eigen::Matrix<double, 1, 6> row;
  row.head<3>().setZero();
  row.tail<3>() = direction.transpose();
  return row;
}

void tangentBasis(const Vec3& normal, Vec3& t1, Vec3& t2) {
  const Vec3 trial = std::abs(normal.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  t1 = (trial - trial.dot(normal) * normal).normalized();
  t2 = normal.cross(t1);
}

ContactSystem assembleContactSystem(const BodyDomain& domain, const std::vector<Contact>& contacts,
                                    const AssemblySettings& settings, AssemblyMaps* maps) {
  if (!(settings.dt > 0.0)) throw std::invalid_argument("assembleContactSystem: dt must be > 0");
  AssemblyMaps fresh_maps;
  if (maps == nullptr) maps = &fresh_maps;
  ContactSystem sys;
  const auto comm = domain.commPtr();
  const auto& bodies = domain.bodies();
  const std::size_t num_owned = domain.numOwned();
  const int block = unknownsPerContact(settings.friction);

  // Column bodies: all owned bodies (the domain map of D), then the ghosts
  // this rank's contacts touch, in domain order so that the column map stays
  // the same from one assembly to the next while the touched set does.
  std::vector<int> column_of_body(bodies.size(), -1);
  for (const Contact& c : contacts)
    for (int idx : {c.body_a, c.body_b})
      if (idx >= 0) column_of_body[static_cast<std::size_t>(idx)] = 0;
  std::vector<GlobalOrdinal> owned_gids(num_owned), ghost_gids;
  std::vector<std::size_t> column_body_index(num_owned);
  for (std::size_t i = 0; i < num_owned; ++i) {
    owned_gids[i] = bodies[i].gid;
    column_body_index[i] = i;
    column_of_body[i] = static_cast<int>(i);
  }
  for (std::size_t i = num_owned; i < bodies.size(); ++i) {
    if (column_of_body[i] < 0) continue;
    column_of_body[i] = static_cast<int>(column_body_index.size());
    column_body_index.push_back(i);
    ghost_gids.push_back(bodies[i].gid);
  }
  maps->update(comm, owned_gids, ghost_gids);
  sys.body_map = maps->bodyMap();
  std::vector<BodyMobility> column_mobility(column_body_index.size());
  parallelFor(column_body_index.size(), [&](std::size_t k) {
    column_mobility[k] = mobilityOf(bodies[column_body_index[k]], settings.motion);
  });

  const std::size_t nrows = contacts.size() * static_cast<std::size_t>(block);
  sys.constraint_map =
      rcp(new Map(Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid(), nrows, 0, comm));
  // Per-row data for b: the relaxed gap of normal rows.
  const double relax = 4.0 / (1.0 + 4.0 * settings.damping_steps);
  std::vector<double> gap_term(nrows, 0.0);
  sys.qp.cones.model = settings.friction;
  sys.qp.cones.mu.resize(contacts.size());
  const bool rolling = settings.friction == FrictionModel::CoulombRolling;
  if (rolling) {
    sys.qp.cones.rolling.resize(contacts.size());
    sys.qp.cones.spinning.resize(contacts.size());
  }

  // D^T written directly, once as contact frames and arms for the operator's
  // kernels and once as the CSR arrays of the Tpetra matrix (a body's 6 DOFs
  // are consecutive columns), both in parallel.
  // A row has one block (wall contact) or two, the body with the lower
  // column first, so CSR rows are sorted and free of duplicates as Tpetra's
  // local format requires.
  std::vector<int> row_start(nrows + 1);
  row_start[0] = 0;
  for (std::size_t ci = 0; ci < contacts.size(); ++ci) {
    const int blocks = contacts[ci].body_a >= 0 ? 2 : 1;
    for (int r = 0; r < block; ++r) {
      const std::size_t row = ci * static_cast<std::size_t>(block) + static_cast<std::size_t>(r);
      row_start[row + 1] = row_start[row] + blocks;
    }
  }
  const auto nblocks = static_cast<std::size_t>(row_start[nrows]);
  const auto stride = static_cast<std::size_t>(ContactFrameJacobian::frameStride(block));
  std::vector<int> frame_bodies(2 * contacts.size());
  std::vector<double> frames(stride * contacts.size());
  using RowPointers = CrsMatrix::local_graph_device_type::row_map_type::non_const_type;
  using ColumnIndices = CrsMatrix::local_graph_device_type::entries_type::non_const_type;
  using Values = CrsMatrix::local_matrix_device_type::values_type;
  RowPointers csr_start(Kokkos::view_alloc(Kokkos::WithoutInitializing, "D^T row pointers"),
                        nrows + 1);
  ColumnIndices csr_columns(Kokkos::view_alloc(Kokkos::WithoutInitializing, "D^T columns"),
                            6 * nblocks);
  Values csr_values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "D^T values"), 6 * nblocks);
  parallelFor(contacts.size(), [&](std::size_t ci) {
    const Contact& c = contacts[ci];
    const ContactGeometry& g = c.geometry;
    // Rows in unknown order: normal, the tangents (sliding), then with
    // rolling the angular rows about t1, t2 (rolling) and the normal (spinning).
    Vec3 directions[kMaxBlockSize];
    directions[0] = g.normal;
    if (block > 1) tangentBasis(g.normal, directions[1], directions[2]);
    if (rolling) {
      directions[3] = directions[1];
      directions[4] = directions[2];
      directions[5] = directions[0];
    }
    sys.qp.cones.mu[ci] = c.mu;
    const bool relaxed = g.gap < 0.0 && c.generation == 0 && !settings.motion.overdamped;
    gap_term[ci * static_cast<std::size_t>(block)] = relaxed ? relax * g.gap : g.gap;
    const Body& bb = bodies[static_cast<std::size_t>(c.body_b)];
    const int col_b = column_of_body[static_cast<std::size_t>(c.body_b)];
    const int col_a = c.body_a >= 0 ? column_of_body[static_cast<std::size_t>(c.body_a)] : -1;
    if (rolling) {
      const Body* ba = c.body_a >= 0 ? &bodies[static_cast<std::size_t>(c.body_a)] : nullptr;
      const double rho = contactRollingRadius(ba, bb, g);
      sys.qp.cones.rolling[ci] = settings.rolling_friction * rho;
      sys.qp.cones.spinning[ci] = settings.spinning_friction * rho;
    }
    frame_bodies[2 * ci] = col_a;
    frame_bodies[2 * ci + 1] = col_b;
    double* frame = frames.data() + stride * ci;
    for (int r = 0; r < block; ++r)
      for (int k = 0; k < 3; ++k) frame[3 * r + k] = directions[r][k];
    const Vec3 arm_b = g.point_b - bb.position;
    const Vec3 arm_a = col_a >= 0
                           ? Vec3(g.point_a - bodies[static_cast<std::size_t>(c.body_a)].position)
                           : Vec3::Zero();
    for (int k = 0; k < 3; ++k) {
      frame[3 * block + k] = arm_a[k];
      frame[3 * block + 3 + k] = arm_b[k];
    }
    for (int r = 0; r < block; ++r) {
      const std::size_t row = ci * static_cast<std::size_t>(block) + static_cast<std::size_t>(r);
      auto blk = static_cast<std::size_t>(row_start[row]);
      csr_start(row) = 6 * blk;
      if (row + 1 == nrows) csr_start(nrows) = 6 * nblocks;
      const auto put = [&](int column_body, const Eigen::Matrix<double, 1, 6>& entries,
                           double sign) {
        for (std::size_t k = 0; k < 6; ++k) {
          const double value = sign * entries[static_cast<long>(k)];
          csr_columns(6 * blk + k) =
              static_cast<LocalOrdinal>(6 * column_body + static_cast<int>(k));
          csr_values(6 * blk + k) = value;
        }
        ++blk;
      };
      const bool angular = r >= 3;  // rolling and spinning rows
      const auto row_b = angular ? angularJacobianRow(directions[r])
                                 : jacobianRow(directions[r], g.point_b, bb.position);
      if (col_a < 0) {
        put(col_b, row_b, 1.0);
        continue;
      }
      const Body& ba = bodies[static_cast<std::size_t>(c.body_a)];
      const auto row_a = angular ? angularJacobianRow(directions[r])
                                 : jacobianRow(directions[r], g.point_a, ba.position);
      if (col_a < col_b) {
        put(col_a, row_a, -1.0);
        put(col_b, row_b, 1.0);
      } else {
        put(col_b, row_b, 1.0);
        put(col_a, row_a, -1.0);
      }
    }
  });
  if (nrows == 0) csr_start(0) = 0;
  sys.Dt =
      rcp(new CrsMatrix(sys.constraint_map, maps->columnMap(), csr_start, csr_columns, csr_values));
  sys.Dt->expertStaticFillComplete(sys.body_map, sys.constraint_map, maps->importer());

  std::vector<BodyMobility> owned_mobility(column_mobility.begin(),
                                           column_mobility.begin() + static_cast<long>(num_owned));
  sys.mobility = rcp(new MobilityOperator(sys.body_map, std::move(owned_mobility)));
  const double regularisation =
      4.0 * settings.compliance / (settings.dt * (1.0 + 4.0 * settings.damping_steps));
  sys.A = rcp(new ContactOperator(
      sys.Dt,
      std::make_shared<ContactFrameJacobian>(block, std::move(frame_bodies), std::move(frames),
                                             column_body_index.size()),
      sys.mobility, settings.dt, regularisation));

  sys.factored = rcp(new FactoredOperator);
  sys.factored->Dt = sys.Dt;
  sys.factored->mobility = std::move(column_mobility);
  sys.factored->scale = settings.dt;
  sys.factored->regularisation = regularisation;

  // Free velocities of owned bodies (no contacts).
  sys.u_free = rcp(new Vector(sys.body_map, false));
  {
    auto u = sys.u_free->getDataNonConst();
    parallelFor(num_owned, [&](std::size_t i) {
      const Twist free = freeVelocity(bodies[i], settings.motion, settings.dt);
      for (std::size_t k = 0; k < 6; ++k) u[6 * i + k] = free[static_cast<long>(k)];
    });
  }
  sys.b = rcp(new Vector(sys.constraint_map, false));
  sys.A->applyDt(*sys.u_free, settings.dt, *sys.b);
  {
    auto bv = sys.b->getDataNonConst();
    for (std::size_t r = 0; r < nrows; ++r) bv[r] += gap_term[r];
  }

  sys.qp.A = sys.A;
  sys.qp.b = sys.b;
  sys.qp.factored = sys.factored;
  return sys;
}

RCP<Vector> bodyImpulses(const ContactSystem& system, const Vector& gamma) {
  auto impulses = rcp(new Vector(system.body_map, false));
  system.A->applyD(gamma, *impulses);
  return impulses;
}

}  // namespace grains
