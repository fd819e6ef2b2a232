#include "grains/constraint/contact_system.hpp"
#include "grains/constraint/contact_detection.hpp"

#include "../../../src/solver/solver_kernels.hpp"
#include "constraint_test_support.hpp"

#include <gtest/gtest.h>
#include <Tpetra_Core.hpp>

#include <algorithm>
#include <random>

namespace grains {
namespace {

using test::smallDomain;

// Velocity of the material point y of body b.
Vec3 pointVelocity(const Body& b, const Vec3& y) {
  return b.velocity + b.angular_velocity.cross(y - b.position);
}

TEST(ContactSystem, JacobianRowsAreRelativeContactVelocities) {
  std::mt19937_64 rng(3);
  BodyDomain domain = smallDomain(rng);
  const std::vector<Wall> walls{Wall::plane(Vec3::Zero(), Vec3::UnitZ())};
  const auto contacts = detectContacts(domain, walls, {0.05, 0.5});
  ASSERT_GE(contacts.size(), 3u);
  AssemblySettings settings;
  settings.dt = 1e-3;
  settings.friction = FrictionModel::Coulomb;
  const auto sys = assembleContactSystem(domain, contacts, settings);

  // Dt applied to the current velocities (not u_free: no gravity here).
  Vector u(sys.body_map);
  {
    auto uv = u.getDataNonConst();
    for (std::size_t i = 0; i < domain.numOwned(); ++i)
      for (int k = 0; k < 3; ++k) {
        uv[6 * i + k] = domain.bodies()[i].velocity[k];
        uv[6 * i + 3 + k] = domain.bodies()[i].angular_velocity[k];
      }
  }
  Vector rates(sys.constraint_map);
  sys.Dt->apply(u, rates);
  auto r = rates.getData();
  for (std::size_t c = 0; c < contacts.size(); ++c) {
    const Contact& ct = contacts[c];
    const auto& g = ct.geometry;
    const Vec3 vb = pointVelocity(domain.bodies()[static_cast<std::size_t>(ct.body_b)], g.point_b);
    const Vec3 va =
        ct.isWall()
            ? Vec3::Zero()
            : pointVelocity(domain.bodies()[static_cast<std::size_t>(ct.body_a)], g.point_a);
    Vec3 t1, t2;
    tangentBasis(g.normal, t1, t2);
    EXPECT_NEAR(r[3 * c], g.normal.dot(vb - va), 1e-12);
    EXPECT_NEAR(r[3 * c + 1], t1.dot(vb - va), 1e-12);
    EXPECT_NEAR(r[3 * c + 2], t2.dot(vb - va), 1e-12);
    EXPECT_NEAR(t1.cross(t2).dot(g.normal), 1.0, 1e-12);
  }
}

TEST(ContactSystem, NormalRateIsTheGapDerivative) {
  std::mt19937_64 rng(5);
  BodyDomain domain = smallDomain(rng);
  const auto contacts = detectContacts(domain, {}, {0.05, 0.0});
  ASSERT_FALSE(contacts.empty());
  AssemblySettings settings;
  const auto sys = assembleContactSystem(domain, contacts, settings);
  Vector u(sys.body_map);
  {
    auto uv = u.getDataNonConst();
    for (std::size_t i = 0; i < domain.numOwned(); ++i)
      for (int k = 0; k < 3; ++k) uv[6 * i + k] = domain.bodies()[i].velocity[k];
  }
  Vector rates(sys.constraint_map);
  sys.Dt->apply(u, rates);
  auto r = rates.getData();
  const double h = 1e-7;
  for (std::size_t c = 0; c < contacts.size(); ++c) {
    const Body a = domain.bodies()[static_cast<std::size_t>(contacts[c].body_a)];
    const Body b = domain.bodies()[static_cast<std::size_t>(contacts[c].body_b)];
    const double g0 = sphereSphere(a.position, a.radius, b.position, b.radius).gap;
    const double g1 =
        sphereSphere(a.position + h * a.velocity, a.radius, b.position + h * b.velocity, b.radius)
            .gap;
    EXPECT_NEAR(r[c], (g1 - g0) / h, 1e-6);
  }
}

// A (through the contact-frame kernels) and b against dense products of the
// assembled D^T, for a friction model with `block` rows per contact.
void expectOperatorMatchesDense(FrictionModel friction) {
  std::mt19937_64 rng(11);
  BodyDomain domain = smallDomain(rng);
  const std::vector<Wall> walls{Wall::plane(Vec3::Zero(), Vec3::UnitZ())};
  const auto contacts = detectContacts(domain, walls, {0.05, 0.3});
  AssemblySettings settings;
  settings.dt = 2e-3;
  settings.friction = friction;
  settings.compliance = 1e-6;
  settings.damping_steps = 2.0;
  settings.motion.gravity = Vec3(0, 0, -9.81);
  const auto sys = assembleContactSystem(domain, contacts, settings);
  const auto block = static_cast<std::size_t>(unknownsPerContact(friction));
  const std::size_t m = contacts.size() * block;
  const std::size_t n = 6 * domain.numOwned();
  ASSERT_GE(contacts.size(), 3u);
  ASSERT_TRUE(
      std::any_of(contacts.begin(), contacts.end(), [](const Contact& c) { return c.isWall(); }));

  // Dense D^T and W.
  Eigen::MatrixXd Dt = Eigen::MatrixXd::Zero(static_cast<long>(m), static_cast<long>(n));
  for (std::size_t row = 0; row < m; ++row) {
    CrsMatrix::local_inds_host_view_type cols;
    CrsMatrix::values_host_view_type vals;
    sys.Dt->getLocalRowView(static_cast<LocalOrdinal>(row), cols, vals);
    for (std::size_t k = 0; k < cols.extent(0); ++k) Dt(static_cast<long>(row), cols(k)) = vals(k);
  }
  Eigen::MatrixXd W = Eigen::MatrixXd::Zero(static_cast<long>(n), static_cast<long>(n));
  for (std::size_t i = 0; i < domain.numOwned(); ++i) {
    const Body& b = domain.bodies()[i];
    W.block<3, 3>(6 * static_cast<long>(i), 6 * static_cast<long>(i)) = Mat3::Identity() / b.mass;
    W.block<3, 3>(6 * static_cast<long>(i) + 3, 6 * static_cast<long>(i) + 3) =
        b.inverseInertiaWorld();
  }
  const double eps = 4.0 * settings.compliance / (settings.dt * (1.0 + 4.0 * 2.0));
  const Eigen::MatrixXd A =
      settings.dt * Dt * W * Dt.transpose() +
      eps * Eigen::MatrixXd::Identity(static_cast<long>(m), static_cast<long>(m));

  Vector x(sys.constraint_map), y(sys.constraint_map);
  x.randomize();
  sys.A->apply(x, y);
  auto xv = x.getData();
  auto yv = y.getData();
  Eigen::VectorXd xe(static_cast<long>(m));
  for (std::size_t i = 0; i < m; ++i) xe[static_cast<long>(i)] = xv[i];
  const Eigen::VectorXd ye = A * xe;
  for (std::size_t i = 0; i < m; ++i) EXPECT_NEAR(yv[i], ye[static_cast<long>(i)], 1e-12);

  // b = phi_eff + dt D^T u_free, phi_eff relaxed only for overlaps.
  Eigen::VectorXd ufree(static_cast<long>(n));
  for (std::size_t i = 0; i < domain.numOwned(); ++i) {
    const Body& b = domain.bodies()[i];
    ufree.segment<3>(6 * static_cast<long>(i)) = b.velocity + settings.dt * settings.motion.gravity;
    ufree.segment<3>(6 * static_cast<long>(i) + 3) = b.angular_velocity;
  }
  const Eigen::VectorXd rhs = settings.dt * Dt * ufree;
  auto bv = sys.b->getData();
  for (std::size_t c = 0; c < contacts.size(); ++c) {
    const double gap = contacts[c].geometry.gap;
    const double phi = gap >= 0 ? gap : gap * 4.0 / (1.0 + 4.0 * 2.0);
    for (std::size_t r = 0; r < block; ++r)
      EXPECT_NEAR(bv[block * c + r], (r == 0 ? phi : 0.0) + rhs[static_cast<long>(block * c + r)],
                  1e-12);
  }

  // The body impulses D gamma (the contact-frame kernels' other orientation).
  Vector impulses(sys.body_map);
  sys.A->applyD(x, impulses);
  const Eigen::VectorXd De = Dt.transpose() * xe;
  auto iv = impulses.getData();
  for (std::size_t k = 0; k < n; ++k) EXPECT_NEAR(iv[k], De[static_cast<long>(k)], 1e-12);
}

TEST(ContactSystem, OperatorMatchesDenseProductAndRhsWithFriction) {
  expectOperatorMatchesDense(FrictionModel::Coulomb);
}

TEST(ContactSystem, OperatorMatchesDenseProductAndRhsFrictionless) {
  expectOperatorMatchesDense(FrictionModel::Frictionless);
}

// The assembly forms diag(A) from the contact frames for the solvers'
// metrics: it must be e_i^T A e_i, and bit for bit what the CSR of D^T gives
// (solvers may take either, so a trajectory must not depend on which).
void expectAssembledDiagonalIsThatOfA(FrictionModel friction) {
  std::mt19937_64 rng(13);
  BodyDomain domain = smallDomain(rng);
  const std::vector<Wall> walls{Wall::plane(Vec3::Zero(), Vec3::UnitZ())};
  const auto contacts = detectContacts(domain, walls, {0.05, 0.3});
  ASSERT_GE(contacts.size(), 3u);
  AssemblySettings settings;
  settings.dt = 2e-3;
  settings.friction = friction;
  settings.rolling_friction = 0.3;
  settings.spinning_friction = 0.2;
  settings.compliance = 1e-6;
  settings.damping_steps = 2.0;
  const auto sys = assembleContactSystem(domain, contacts, settings);
  const std::size_t m = sys.b->getLocalLength();
  const std::vector<double>& assembled = sys.factored->diagonal;
  ASSERT_EQ(assembled.size(), m);

  QuadraticProgram from_csr = sys.qp;
  auto factored = Teuchos::rcp(new FactoredOperator(*sys.factored));
  factored->diagonal.clear();
  from_csr.factored = factored;
  const std::vector<double> csr = solver_detail::localDiagonal(from_csr);
  ASSERT_EQ(csr.size(), m);

  Vector e(sys.constraint_map), Ae(sys.constraint_map);
  for (std::size_t i = 0; i < m; ++i) {
    EXPECT_EQ(assembled[i], csr[i]) << "row " << i;
    e.putScalar(0.0);
    e.getDataNonConst()[i] = 1.0;
    sys.A->apply(e, Ae);
    const double expected = Ae.getData()[i];
    EXPECT_GT(expected, 0.0);
    EXPECT_NEAR(assembled[i], expected, 1e-13 * expected) << "row " << i;
  }
}

TEST(ContactSystem, AssembledDiagonalIsThatOfAFrictionless) {
  expectAssembledDiagonalIsThatOfA(FrictionModel::Frictionless);
}

TEST(ContactSystem, AssembledDiagonalIsThatOfAWithFriction) {
  expectAssembledDiagonalIsThatOfA(FrictionModel::Coulomb);
}

TEST(ContactSystem, AssembledDiagonalIsThatOfAWithRollingRows) {
  expectAssembledDiagonalIsThatOfA(FrictionModel::CoulombRolling);
}

}  // namespace
}  // namespace grains
