#include "grains/constraint/contact_system.hpp"

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
  sys.Dt = rcp(new CrsMatrix(sys.constraint_map, column_map, 12));

  // Per-row data for b: the relaxed gap of normal rows.
  const double relax = 4.0 / (1.0 + 4.0 * settings.damping_steps);
  std::vector<double> gap_term(nrows, 0.0);
  sys.qp.cones.model = settings.friction;
  sys.qp.cones.mu.resize(contacts.size());

  std::vector<LocalOrdinal> cols(12);
  std::vector<Scalar> vals(12);
  for (std::size_t ci = 0; ci < contacts.size(); ++ci) {
    const Contact& c = contacts[ci];
    const ContactGeometry& g = c.geometry;
    Vec3 directions[3] = {g.normal, Vec3::Zero(), Vec3::Zero()};
    if (block == 3) tangentBasis(g.normal, directions[1], directions[2]);
    sys.qp.cones.mu[ci] = c.mu;
    const bool relaxed = g.gap < 0.0 && c.generation == 0 && !settings.motion.overdamped;
    gap_term[ci * block] = relaxed ? relax * g.gap : g.gap;
    for (int r = 0; r < block; ++r) {
      std::size_t n = 0;
      const Body& bb = bodies[static_cast<std::size_t>(c.body_b)];
      const auto row_b = jacobianRow(directions[r], g.point_b, bb.position);
      const int col_b = column_of_body[static_cast<std::size_t>(c.body_b)];
      for (int k = 0; k < 6; ++k) {
        cols[n] = 6 * col_b + k;
        vals[n++] = row_b[k];
      }
      if (c.body_a >= 0) {
        const Body& ba = bodies[static_cast<std::size_t>(c.body_a)];
        const auto row_a = jacobianRow(directions[r], g.point_a, ba.position);
        const int col_a = column_of_body[static_cast<std::size_t>(c.body_a)];
        for (int k = 0; k < 6; ++k) {
          cols[n] = 6 * col_a + k;
          vals[n++] = -row_a[k];
        }
      }
      sys.Dt->insertLocalValues(static_cast<LocalOrdinal>(ci * block + r),
                                Teuchos::ArrayView<const LocalOrdinal>(cols.data(), n),
                                Teuchos::ArrayView<const Scalar>(vals.data(), n));
    }
  }
  sys.Dt->fillComplete(sys.body_map, sys.constraint_map);

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
