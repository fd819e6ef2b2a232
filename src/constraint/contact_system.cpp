#include "grains/constraint/contact_system.hpp"

#include "grains/parallel/parallel_loops.hpp"

#include <Teuchos_ArrayRCP.hpp>
#include <Teuchos_OrdinalTraits.hpp>

#include <cmath>
#include <stdexcept>

namespace grains {

Eigen::Matrix<double, 1, 6> jacobianRow(const Vec3& direction, const Vec3& point,
                                        const Vec3& center) {
  Eigen::Matrix<double, 1, 6> row;
  row.head<3>() = direction.transpose();
  row.tail<3>() = (point - center).cross(direction).transpose();
  return row;
}

void tangentBasis(const Vec3& normal, Vec3& t1, Vec3& t2) {
  const Vec3 trial = std::abs(normal.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  t1 = (trial - trial.dot(normal) * normal).normalized();
  t2 = normal.cross(t1);
}

ContactSystem assembleContactSystem(const BodyDomain& domain, const std::vector<Contact>& contacts,
                                    const AssemblySettings& settings) {
  if (!(settings.dt > 0.0)) throw std::invalid_argument("assembleContactSystem: dt must be > 0");
  ContactSystem sys;
  const auto comm = domain.commPtr();
  const auto& bodies = domain.bodies();
  const std::size_t num_owned = domain.numOwned();
  const auto invalid = Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid();
  const int block = unknownsPerContact(settings.friction);

  // Owned body DOFs: the domain map of D (and the first part of its column map).
  std::vector<GlobalOrdinal> owned_dofs(6 * num_owned);
  for (std::size_t i = 0; i < num_owned; ++i)
    for (int k = 0; k < 6; ++k) owned_dofs[6 * i + k] = 6 * bodies[i].gid + k;
  sys.body_map = rcp(new Map(invalid, owned_dofs.data(), owned_dofs.size(), 0, comm));

  // Column map: all owned bodies, then the ghosts this rank's contacts touch.
  std::vector<int> column_of_body(bodies.size(), -1);
  std::vector<GlobalOrdinal> column_dofs = owned_dofs;
  std::vector<BodyMobility> column_mobility;
  column_mobility.reserve(num_owned);
  for (std::size_t i = 0; i < num_owned; ++i) {
    column_of_body[i] = static_cast<int>(i);
    column_mobility.push_back(mobilityOf(bodies[i], settings.motion));
  }
  for (const Contact& c : contacts) {
    for (int idx : {c.body_a, c.body_b}) {
      if (idx < 0 || column_of_body[static_cast<std::size_t>(idx)] >= 0) continue;
      column_of_body[static_cast<std::size_t>(idx)] = static_cast<int>(column_mobility.size());
      column_mobility.push_back(mobilityOf(bodies[static_cast<std::size_t>(idx)], settings.motion));
      for (int k = 0; k < 6; ++k)
        column_dofs.push_back(6 * bodies[static_cast<std::size_t>(idx)].gid + k);
    }
  }
  auto column_map = rcp(new Map(invalid, column_dofs.data(), column_dofs.size(), 0, comm));

  const std::size_t nrows = contacts.size() * static_cast<std::size_t>(block);
  sys.constraint_map = rcp(new Map(invalid, nrows, 0, comm));
  // Per-row data for b: the relaxed gap of normal rows.
  const double relax = 4.0 / (1.0 + 4.0 * settings.damping_steps);
  std::vector<double> gap_term(nrows, 0.0);
  sys.qp.cones.model = settings.friction;
  sys.qp.cones.mu.resize(contacts.size());

  // D^T in local CSR form, written directly (no per-row Tpetra insertion,
  // which sorted and merged every row and dominated the assembly): a row has
  // 6 entries (wall contact) or 12 (two bodies), each body's 6 DOFs in
  // ascending column order and the body with the lower column first, so rows
  // are sorted and free of duplicates as Tpetra's local format requires.
  Teuchos::ArrayRCP<std::size_t> row_start(nrows + 1);
  row_start[0] = 0;
  for (std::size_t ci = 0; ci < contacts.size(); ++ci) {
    const std::size_t entries = contacts[ci].body_a >= 0 ? 12 : 6;
    for (int r = 0; r < block; ++r) {
      const std::size_t row = ci * static_cast<std::size_t>(block) + static_cast<std::size_t>(r);
      row_start[row + 1] = row_start[row] + entries;
    }
  }
  Teuchos::ArrayRCP<LocalOrdinal> cols(row_start[nrows]);
  Teuchos::ArrayRCP<Scalar> vals(row_start[nrows]);
  parallelFor(contacts.size(), [&](std::size_t ci) {
    const Contact& c = contacts[ci];
    const ContactGeometry& g = c.geometry;
    Vec3 directions[3] = {g.normal, Vec3::Zero(), Vec3::Zero()};
    if (block == 3) tangentBasis(g.normal, directions[1], directions[2]);
    sys.qp.cones.mu[ci] = c.mu;
    const bool relaxed = g.gap < 0.0 && c.generation == 0 && !settings.motion.overdamped;
    gap_term[ci * static_cast<std::size_t>(block)] = relaxed ? relax * g.gap : g.gap;
    const Body& bb = bodies[static_cast<std::size_t>(c.body_b)];
    const int col_b = column_of_body[static_cast<std::size_t>(c.body_b)];
    const int col_a = c.body_a >= 0 ? column_of_body[static_cast<std::size_t>(c.body_a)] : -1;
    for (int r = 0; r < block; ++r) {
      std::size_t at =
          row_start[ci * static_cast<std::size_t>(block) + static_cast<std::size_t>(r)];
      const auto put = [&](int column_body, const Eigen::Matrix<double, 1, 6>& row, double sign) {
        for (int k = 0; k < 6; ++k) {
          cols[at] = 6 * column_body + k;
          vals[at++] = sign * row[k];
        }
      };
      const auto row_b = jacobianRow(directions[r], g.point_b, bb.position);
      if (col_a < 0) {
        put(col_b, row_b, 1.0);
        continue;
      }
      const Body& ba = bodies[static_cast<std::size_t>(c.body_a)];
      const auto row_a = jacobianRow(directions[r], g.point_a, ba.position);
      if (col_a < col_b) {
        put(col_a, row_a, -1.0);
        put(col_b, row_b, 1.0);
      } else {
        put(col_b, row_b, 1.0);
        put(col_a, row_a, -1.0);
      }
    }
  });
  sys.Dt = rcp(new CrsMatrix(sys.constraint_map, column_map, row_start, cols, vals));
  sys.Dt->expertStaticFillComplete(sys.body_map, sys.constraint_map);

  std::vector<BodyMobility> owned_mobility(column_mobility.begin(),
                                           column_mobility.begin() + static_cast<long>(num_owned));
  sys.mobility = rcp(new MobilityOperator(sys.body_map, std::move(owned_mobility)));
  const double regularisation =
      4.0 * settings.compliance / (settings.dt * (1.0 + 4.0 * settings.damping_steps));
  sys.A = rcp(new ContactOperator(sys.Dt, sys.mobility, settings.dt, regularisation));

  sys.factored = rcp(new FactoredOperator);
  sys.factored->Dt = sys.Dt;
  sys.factored->mobility = std::move(column_mobility);
  sys.factored->scale = settings.dt;
  sys.factored->regularisation = regularisation;

  // Free velocities of owned bodies (no contacts).
  sys.u_free = rcp(new Vector(sys.body_map));
  {
    auto u = sys.u_free->getDataNonConst();
    for (std::size_t i = 0; i < num_owned; ++i) {
      const Twist free = freeVelocity(bodies[i], settings.motion, settings.dt);
      for (int k = 0; k < 6; ++k) u[6 * i + static_cast<std::size_t>(k)] = free[k];
    }
  }
  sys.b = rcp(new Vector(sys.constraint_map));
  sys.Dt->apply(*sys.u_free, *sys.b, Teuchos::NO_TRANS, settings.dt, 0.0);
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
  auto impulses = rcp(new Vector(system.body_map));
  system.Dt->apply(gamma, *impulses, Teuchos::TRANS);
  return impulses;
}

}  // namespace grains
