// The rolling and spinning rows of coulomb_rolling (unknowns 3-5 of a
// contact): sign conventions of D^T and D, the matrix-free operator against
// the assembled D^T, and the rolling radius of each contact.
#include "grains/constraint/contact_detection.hpp"
#include "grains/constraint/contact_system.hpp"
#include "grains/constraint/rolling_radius.hpp"

#include "constraint_test_support.hpp"

#include <gtest/gtest.h>
#include <Tpetra_Core.hpp>

#include <random>

namespace grains {
namespace {

using test::smallDomain;

AssemblySettings rollingSettings() {
  AssemblySettings settings;
  settings.dt = 1e-3;
  settings.friction = FrictionModel::CoulombRolling;
  settings.rolling_friction = 0.3;
  settings.spinning_friction = 0.2;
  return settings;
}

Vector bodyVelocities(const ContactSystem& sys, const BodyDomain& domain) {
  Vector u(sys.body_map);
  auto uv = u.getDataNonConst();
  for (std::size_t i = 0; i < domain.numOwned(); ++i)
    for (int k = 0; k < 3; ++k) {
      uv[6 * i + k] = domain.bodies()[i].velocity[k];
      uv[6 * i + 3 + k] = domain.bodies()[i].angular_velocity[k];
    }
  return u;
}

// D^T U: rows 0-2 are the relative contact-point velocity along (n, t1, t2)
// as with coulomb; rows 3-5 the relative angular velocity omega_b - omega_a
// about t1, t2 and n (a wall has omega_a = 0) times the rolling radius rho.
TEST(RollingRows, RowsAreRelativeVelocitiesAndRelativeAngularVelocities) {
  std::mt19937_64 rng(3);
  BodyDomain domain = smallDomain(rng);
  const std::vector<Wall> walls{Wall::plane(Vec3::Zero(), Vec3::UnitZ())};
  const auto contacts = detectContacts(domain, walls, {0.05, 0.5});
  ASSERT_GE(contacts.size(), 3u);
  const auto sys = assembleContactSystem(domain, contacts, rollingSettings());
  ASSERT_EQ(sys.qp.cones.blockSize(), 6);
  const Vector u = bodyVelocities(sys, domain);
  Vector assembled(sys.constraint_map), matrix_free(sys.constraint_map);
  sys.Dt->apply(u, assembled);
  sys.A->applyDt(u, 1.0, matrix_free);
  auto r = assembled.getData();
  auto f = matrix_free.getData();
  for (std::size_t c = 0; c < contacts.size(); ++c) {
    const Contact& ct = contacts[c];
    const auto& g = ct.geometry;
    const Body& bb = domain.bodies()[static_cast<std::size_t>(ct.body_b)];
    const Body* ba = ct.isWall() ? nullptr : &domain.bodies()[static_cast<std::size_t>(ct.body_a)];
    const Vec3 vb = bb.velocity + bb.angular_velocity.cross(g.point_b - bb.position);
    const Vec3 va = ba ? Vec3(ba->velocity + ba->angular_velocity.cross(g.point_a - ba->position))
                       : Vec3::Zero();
    const Vec3 dw = bb.angular_velocity - (ba ? ba->angular_velocity : Vec3::Zero());
    Vec3 t1, t2;
    tangentBasis(g.normal, t1, t2);
    const double rho = contactRollingRadius(ba, bb, g);
    ASSERT_GT(rho, 0.0);
    EXPECT_DOUBLE_EQ(sys.rolling_radius[c], rho);
    const double expected[6] = {g.normal.dot(vb - va), t1.dot(vb - va),  t2.dot(vb - va),
                                rho * t1.dot(dw),      rho * t2.dot(dw), rho * g.normal.dot(dw)};
    for (int k = 0; k < 6; ++k) {
      EXPECT_NEAR(r[6 * c + k], expected[k], 1e-12) << "contact " << c << " row " << k;
      EXPECT_NEAR(f[6 * c + k], expected[k], 1e-12) << "matrix-free, contact " << c << " row " << k;
    }
  }
}

// D gamma for a unit rolling (spinning) unknown: a pure torque +rho t1
// (+rho n) on body b and its opposite on body a, no force; matrix-free and
// assembled agree, and the unknowns convert to those torques and back.
TEST(RollingRows, AngularImpulseIsAPureTorquePairOnTheTwoBodies) {
  std::mt19937_64 rng(8);
  BodyDomain domain = smallDomain(rng);
  const auto contacts = detectContacts(domain, {}, {0.05, 0.5});
  ASSERT_FALSE(contacts.empty());
  const auto sys = assembleContactSystem(domain, contacts, rollingSettings());
  const Contact& ct = contacts[0];
  const double rho = sys.rolling_radius[0];
  ASSERT_GT(rho, 0.0);
  Vec3 t1, t2;
  tangentBasis(ct.geometry.normal, t1, t2);
  for (int row = 3; row < 6; ++row) {
    Vector gamma(sys.constraint_map);
    gamma.getDataNonConst()[row] = 1.0;  // contact 0
    const RCP<Vector> impulses = bodyImpulses(sys, gamma);
    Vector assembled(sys.body_map);
    sys.Dt->apply(gamma, assembled, Teuchos::TRANS);
    const Vec3 axis = row == 3 ? t1 : row == 4 ? t2 : Vec3(ct.geometry.normal);
    auto d = impulses->getData();
    auto e = assembled.getData();
    for (std::size_t i = 0; i < domain.numOwned(); ++i) {
      const double sign = static_cast<int>(i) == ct.body_b   ? 1.0
                          : static_cast<int>(i) == ct.body_a ? -1.0
                                                             : 0.0;
      for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(d[6 * i + k], 0.0, 1e-15);
        EXPECT_NEAR(d[6 * i + 3 + k], sign * rho * axis[k], 1e-15)
            << "row " << row << " body " << i;
        EXPECT_NEAR(e[6 * i + 3 + k], d[6 * i + 3 + k], 1e-15);
      }
    }
    // As a torque impulse the unknown is rho; back again, 1 (rows 0-2 untouched).
    gamma.getDataNonConst()[0] = 2.0;
    angularUnknownsToTorques(sys, gamma);
    EXPECT_DOUBLE_EQ(gamma.getData()[row], rho);
    EXPECT_DOUBLE_EQ(gamma.getData()[0], 2.0);
    torquesToAngularUnknowns(sys, gamma);
    EXPECT_DOUBLE_EQ(gamma.getData()[row], 1.0);
  }
}

TEST(RollingRows, RollingRadiusOfSpheresAndWalls) {
  std::mt19937_64 rng(3);
  BodyDomain domain = smallDomain(rng);
  const std::vector<Wall> walls{Wall::plane(Vec3::Zero(), Vec3::UnitZ())};
  const auto contacts = detectContacts(domain, walls, {0.05, 0.5});
  const AssemblySettings settings = rollingSettings();
  const auto sys = assembleContactSystem(domain, contacts, settings);
  bool wall = false, pair = false;
  for (std::size_t c = 0; c < contacts.size(); ++c) {
    const Contact& ct = contacts[c];
    const double rb = domain.bodies()[static_cast<std::size_t>(ct.body_b)].radius;
    double rho = rb;
    if (!ct.isWall()) {
      const double ra = domain.bodies()[static_cast<std::size_t>(ct.body_a)].radius;
      rho = ra * rb / (ra + rb);
      pair = true;
    } else {
      wall = true;
    }
    EXPECT_DOUBLE_EQ(sys.rolling_radius[c], rho);
    // The torque bounds mu_r rho gamma_n and mu_s rho gamma_n, on unknowns
    // that are the torques over rho.
    EXPECT_DOUBLE_EQ(sys.qp.cones.rolling[c], settings.rolling_friction);
    EXPECT_DOUBLE_EQ(sys.qp.cones.spinning[c], settings.spinning_friction);
  }
  EXPECT_TRUE(wall);
  EXPECT_TRUE(pair);
  // Non-spherical bodies: the distance from the centre to the contact point.
  Body rod = makeSphere(7, 0.05, 1.0, Vec3(1, 2, 3));
  rod.shape = ShapeKind::Spherocylinder;
  rod.half_length = 0.2;
  EXPECT_DOUBLE_EQ(bodyRollingRadius(rod, Vec3(1, 2, 3.25)), 0.25);
}

// Coulomb (block 3) assembles exactly as before: no rolling data.
TEST(RollingRows, CoulombHasNoRollingRows) {
  std::mt19937_64 rng(3);
  BodyDomain domain = smallDomain(rng);
  const auto contacts = detectContacts(domain, {}, {0.05, 0.5});
  AssemblySettings settings = rollingSettings();
  settings.friction = FrictionModel::Coulomb;
  const auto sys = assembleContactSystem(domain, contacts, settings);
  EXPECT_EQ(sys.qp.cones.blockSize(), 3);
  EXPECT_TRUE(sys.qp.cones.rolling.empty());
  EXPECT_TRUE(sys.rolling_radius.empty());
  EXPECT_EQ(sys.constraint_map->getGlobalNumElements(), 3 * contacts.size());
}

}  // namespace
}  // namespace grains
