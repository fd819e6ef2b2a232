// Ellipsoids: closest points to spheres (outside, inside, on the surface),
// ellipsoid pairs (aligned, crossed, overlapping, deep overlap, symmetry, the
// shared-normal optimality conditions on random configurations), capsules,
// and walls (planes, both sides of cylinders), against analytic values.
#include "grains/geometry/contact_geometry.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace grains {
namespace {

Body ellipsoid(const Vec3& axes, const Vec3& center, const Quat& q = Quat::Identity()) {
  return makeEllipsoid(0, axes, 1.0, center, q);
}

Quat someRotation() {
  return Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized())) *
         Quat(Eigen::AngleAxisd(-0.4, Vec3::UnitX()));
}

Mat3 shapeMatrix(const Body& e) {
  const Mat3 r = e.orientation.toRotationMatrix();
  return r * e.semi_axes.cwiseAbs2().asDiagonal() * r.transpose();
}

// (x - c)^T Q^-1 (x - c): 1 on the surface.
double levelOf(const Body& e, const Vec3& x) {
  const Vec3 rel = x - e.position;
  return rel.dot(shapeMatrix(e).inverse() * rel);
}

Vec3 outwardNormal(const Body& e, const Vec3& x) {
  return (shapeMatrix(e).inverse() * (x - e.position)).normalized();
}

double support(const Body& e, const Vec3& n) {
  return e.position.dot(n) + std::sqrt(n.dot(shapeMatrix(e) * n));
}

Vec3 randomUnit(std::mt19937& rng) {
  std::normal_distribution<double> gauss;
  return Vec3(gauss(rng), gauss(rng), gauss(rng)).normalized();
}

Quat randomRotation(std::mt19937& rng) {
  std::normal_distribution<double> gauss;
  return Quat(gauss(rng), gauss(rng), gauss(rng), gauss(rng)).normalized();
}

TEST(EllipsoidContacts, SphereAlongEachPrincipalAxis) {
  const Vec3 axes(3.0, 2.0, 1.0);
  const Vec3 c(1.0, 2.0, 3.0);
  const double r = 0.25;
  for (const Quat& q : {Quat::Identity(), someRotation()}) {
    const Body e = ellipsoid(axes, c, q);
    const Mat3 rot = q.toRotationMatrix();
    for (int i = 0; i < 3; ++i) {
      for (const double sign : {1.0, -1.0}) {
        const Vec3 dir = sign * rot.col(i);
        const double dist = axes[i] + 0.7;
        const auto g = ellipsoidSphere(e, c + dist * dir, r);
        EXPECT_NEAR(g.gap, dist - axes[i] - r, 1e-12);
        EXPECT_NEAR((g.normal - dir).norm(), 0.0, 1e-12);
        EXPECT_NEAR((g.point_a - (c + axes[i] * dir)).norm(), 0.0, 1e-12);
        EXPECT_NEAR((g.point_b - (c + (dist - r) * dir)).norm(), 0.0, 1e-12);
      }
    }
  }
}

TEST(EllipsoidContacts, SphereCentreInsideIsMinusTheDistanceToTheSurface) {
  const Vec3 axes(3.0, 2.0, 1.0);
  const Quat q = someRotation();
  const Vec3 c(-1.0, 0.5, 2.0);
  const Body e = ellipsoid(axes, c, q);
  const Mat3 rot = q.toRotationMatrix();
  const double r = 0.1;
  // At the centre: the nearest surface point is the end of the smallest axis.
  auto g = ellipsoidSphere(e, c, r);
  EXPECT_NEAR(g.gap, -1.0 - r, 1e-12);
  EXPECT_NEAR(std::abs(g.normal.dot(rot.col(2))), 1.0, 1e-12);
  // On the smallest axis: straight to its end.
  g = ellipsoidSphere(e, c + 0.4 * rot.col(2), r);
  EXPECT_NEAR(g.gap, -0.6 - r, 1e-12);
  EXPECT_NEAR((g.normal - rot.col(2)).norm(), 0.0, 1e-12);
  // On the major axis at x = 0.5: the nearest point leaves the axis plane
  // (Lagrange multiplier at the pole t = -c^2): x = a^2 s / (a^2 - c^2) =
  // 0.5625, z = c sqrt(1 - (a s / (a^2 - c^2))^2), distance^2 = 31/32.
  g = ellipsoidSphere(e, c + 0.5 * rot.col(0), r);
  EXPECT_NEAR(g.gap, -std::sqrt(31.0 / 32.0) - r, 1e-12);
  const Vec3 local = rot.transpose() * (g.point_a - c);
  EXPECT_NEAR(local.x(), 0.5625, 1e-12);
  EXPECT_NEAR(local.y(), 0.0, 1e-12);
  EXPECT_NEAR(std::abs(local.z()), std::sqrt(1.0 - 0.1875 * 0.1875), 1e-12);
  // Inside near the surface, off every axis: -gap - r is the distance.
  const Vec3 inner(2.0 * std::cos(0.3) * 0.95, 1.5 * std::sin(0.3) * 0.9, 0.2);
  g = ellipsoidSphere(e, c + rot * inner, 0.0);
  EXPECT_LT(g.gap, 0.0);
  EXPECT_NEAR(levelOf(e, g.point_a), 1.0, 1e-12);
  EXPECT_NEAR((g.point_b - g.point_a).dot(g.normal), g.gap, 1e-12);
  EXPECT_NEAR(((g.point_b - g.point_a) - g.gap * g.normal).norm(), 0.0, 1e-12);
}

TEST(EllipsoidContacts, SphereCentreOnTheSurface) {
  const Vec3 axes(3.0, 2.0, 1.0);
  const Body e = ellipsoid(axes, Vec3(0.5, 0.5, 0.5), someRotation());
  const Mat3 rot = e.orientation.toRotationMatrix();
  for (const double theta : {0.1, 0.9, 2.0}) {
    for (const double phi : {0.3, 2.5, -1.2}) {
      const Vec3 local(3.0 * std::sin(theta) * std::cos(phi), 2.0 * std::sin(theta) * std::sin(phi),
                       std::cos(theta));
      const Vec3 x = e.position + rot * local;
      const auto g = ellipsoidSphere(e, x, 0.3);
      EXPECT_NEAR(g.gap, -0.3, 1e-12);
      EXPECT_NEAR((g.point_a - x).norm(), 0.0, 1e-12);
      EXPECT_NEAR((g.normal - outwardNormal(e, x)).norm(), 0.0, 1e-12);
    }
  }
}

TEST(EllipsoidContacts, SphereClosestPointIsGlobal) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> uni(-4.0, 4.0);
  const Body e = ellipsoid(Vec3(2.5, 1.0, 0.4), Vec3(0.1, -0.2, 0.3), someRotation());
  const Mat3 rot = e.orientation.toRotationMatrix();
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3 p(uni(rng), uni(rng), uni(rng));
    const auto g = ellipsoidSphere(e, p, 0.0);
    EXPECT_NEAR(levelOf(e, g.point_a), 1.0, 1e-11);
    EXPECT_NEAR(((p - g.point_a) - g.gap * g.normal).norm(), 0.0, 1e-11);
    EXPECT_NEAR((g.normal - outwardNormal(e, g.point_a)).norm(), 0.0, 1e-9);
    // No sampled surface point is nearer.
    double nearest = 1e300;
    for (int i = 0; i <= 60; ++i) {
      for (int j = 0; j < 120; ++j) {
        const double th = kPi * i / 60.0, ph = 2.0 * kPi * j / 120.0;
        const Vec3 x = e.position + rot * Vec3(2.5 * std::sin(th) * std::cos(ph),
                                               std::sin(th) * std::sin(ph), 0.4 * std::cos(th));
        nearest = std::min(nearest, (x - p).norm());
      }
    }
    EXPECT_LE(std::abs(g.gap), nearest + 1e-12);
    EXPECT_GE(std::abs(g.gap), nearest - 0.05);
    EXPECT_EQ(g.gap < 0.0, levelOf(e, p) < 1.0);
  }
}

TEST(EllipsoidContacts, AlignedCrossedAndOverlappingPairs) {
  const Body a = ellipsoid(Vec3(1.0, 0.5, 0.4), Vec3::Zero());
  // Aligned along x.
  auto g = ellipsoidPair(a, ellipsoid(Vec3(2.0, 0.7, 0.3), Vec3(4.0, 0, 0)));
  EXPECT_NEAR(g.gap, 4.0 - 1.0 - 2.0, 1e-12);
  EXPECT_NEAR((g.normal - Vec3::UnitX()).norm(), 0.0, 1e-12);
  EXPECT_NEAR((g.point_a - Vec3(1, 0, 0)).norm(), 0.0, 1e-12);
  EXPECT_NEAR((g.point_b - Vec3(2, 0, 0)).norm(), 0.0, 1e-12);
  // Crossed: b's major axis turned to y, its x extent is 0.7.
  const Quat turn(Eigen::AngleAxisd(0.5 * kPi, Vec3::UnitZ()));
  g = ellipsoidPair(a, ellipsoid(Vec3(2.0, 0.7, 0.3), Vec3(3.0, 0, 0), turn));
  EXPECT_NEAR(g.gap, 3.0 - 1.0 - 0.7, 1e-12);
  EXPECT_NEAR((g.normal - Vec3::UnitX()).norm(), 0.0, 1e-12);
  EXPECT_NEAR((g.point_b - Vec3(2.3, 0, 0)).norm(), 0.0, 1e-12);
  // Stacked along z, b shifted and turned.
  g = ellipsoidPair(a, ellipsoid(Vec3(2.0, 0.7, 0.3), Vec3(0, 0, 1.0), turn));
  EXPECT_NEAR(g.gap, 1.0 - 0.4 - 0.3, 1e-12);
  EXPECT_NEAR((g.normal - Vec3::UnitZ()).norm(), 0.0, 1e-12);
  // Overlapping tip to tip by 0.1. Along x the reduced Hessian of f is
  // diag(b_a^2/a_a + b_b^2/a_b, c_a^2/a_a + c_b^2/a_b) - 0.1 = (0.395, 0.105):
  // a minimum, and the global one (sampled below).
  const Body b = ellipsoid(Vec3(2.0, 0.7, 0.3), Vec3(2.9, 0, 0));
  g = ellipsoidPair(a, b);
  EXPECT_NEAR(g.gap, -0.1, 1e-12);
  EXPECT_NEAR((g.normal - Vec3::UnitX()).norm(), 0.0, 1e-12);
  EXPECT_NEAR((g.point_a - Vec3(1, 0, 0)).norm(), 0.0, 1e-12);
  EXPECT_NEAR((g.point_b - Vec3(0.9, 0, 0)).norm(), 0.0, 1e-12);
  for (int i = 0; i <= 100; ++i) {
    const double th = kPi * i / 100.0;
    for (const Vec3& n :
         {Vec3(std::cos(th), std::sin(th), 0), Vec3(std::cos(th), 0, std::sin(th))}) {
      EXPECT_GE(support(a, n) + support(b, -n), 0.1 - 1e-12);
    }
  }
  // Deeper (0.5) the tips are too sharp for x: an oblique push (in the x-z
  // plane, the thin direction) is shorter; f(30 degrees) = 0.4623 already.
  g = ellipsoidPair(a, ellipsoid(Vec3(2.0, 0.7, 0.3), Vec3(2.5, 0, 0)));
  EXPECT_GT(g.gap, -0.4623);
  EXPECT_NEAR(g.normal.y(), 0.0, 1e-9);
}

TEST(EllipsoidContacts, DeepOverlapGivesAFiniteUnitNormal) {
  const Body a = ellipsoid(Vec3(1.0, 0.5, 0.4), Vec3::Zero());
  // Same centre, b turned 90 degrees about x: its y, z semi-axes are 0.4, 0.5.
  // f(n) = sqrt(n^T Qa n) + sqrt(n^T Qb n) is smallest along y or z: 0.9.
  const Body b = ellipsoid(Vec3(1.0, 0.5, 0.4), Vec3::Zero(),
                           Quat(Eigen::AngleAxisd(0.5 * kPi, Vec3::UnitX())));
  const auto g = ellipsoidPair(a, b);
  EXPECT_NEAR(g.gap, -0.9, 1e-12);
  EXPECT_NEAR(g.normal.norm(), 1.0, 1e-14);
  EXPECT_NEAR(std::abs(g.normal.x()), 0.0, 1e-9);
  // Nearly coincident, randomly turned: still a finite unit normal, and the
  // depth is at most the one along any axis.
  std::mt19937 rng(3);
  for (int trial = 0; trial < 50; ++trial) {
    const Body c = ellipsoid(Vec3(1.2, 0.6, 0.3), 1e-3 * randomUnit(rng), randomRotation(rng));
    const auto h = ellipsoidPair(a, c);
    ASSERT_TRUE(std::isfinite(h.gap));
    EXPECT_NEAR(h.normal.norm(), 1.0, 1e-12);
    for (int i = 0; i < 3; ++i) {
      const Vec3 n = Vec3::Unit(i);
      EXPECT_LE(-h.gap, support(a, n) + support(c, -n) + 1e-12);
    }
  }
}

TEST(EllipsoidContacts, SpheresAsEllipsoidsMatchSphereSphere) {
  const Quat q = someRotation();
  for (const Vec3& cb : {Vec3(1.0, 2.0, -0.5), Vec3(0.3, 0.2, 0.1)}) {
    const auto g = ellipsoidPair(ellipsoid(Vec3::Constant(0.5), Vec3(0.1, 0.2, 0.3), q),
                                 ellipsoid(Vec3::Constant(0.8), cb));
    const auto s = sphereSphere(Vec3(0.1, 0.2, 0.3), 0.5, cb, 0.8);
    EXPECT_NEAR(g.gap, s.gap, 1e-12);
    EXPECT_NEAR((g.normal - s.normal).norm(), 0.0, 1e-12);
    EXPECT_NEAR((g.point_a - s.point_a).norm(), 0.0, 1e-12);
    EXPECT_NEAR((g.point_b - s.point_b).norm(), 0.0, 1e-12);
    const auto h = ellipsoidSphere(ellipsoid(Vec3::Constant(0.5), Vec3(0.1, 0.2, 0.3), q), cb, 0.8);
    EXPECT_NEAR(h.gap, s.gap, 1e-12);
    EXPECT_NEAR((h.normal - s.normal).norm(), 0.0, 1e-12);
  }
}

// Random pairs from separated to deeply overlapping: the optimality
// conditions of the deepest point, global minimality over sampled normals,
// and the symmetry under swapping the bodies.
TEST(EllipsoidContacts, SharedNormalOnRandomPairs) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> axis(0.2, 1.5);
  std::uniform_real_distribution<double> spread(0.0, 3.5);
  int separated = 0, overlapping = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Body a =
        ellipsoid(Vec3(axis(rng), axis(rng), axis(rng)), Vec3(0.1, -0.3, 0.2), randomRotation(rng));
    const Body b = ellipsoid(Vec3(axis(rng), axis(rng), axis(rng)),
                             a.position + spread(rng) * randomUnit(rng), randomRotation(rng));
    const auto g = ellipsoidPair(a, b);
    (g.gap > 0.0 ? separated : overlapping) += 1;
    EXPECT_NEAR(g.normal.norm(), 1.0, 1e-14);
    EXPECT_NEAR(levelOf(a, g.point_a), 1.0, 1e-10);
    EXPECT_NEAR(levelOf(b, g.point_b), 1.0, 1e-10);
    EXPECT_NEAR((outwardNormal(a, g.point_a) - g.normal).norm(), 0.0, 1e-8);
    EXPECT_NEAR((outwardNormal(b, g.point_b) + g.normal).norm(), 0.0, 1e-8);
    // The points are joined along the normal and the gap is their separation.
    EXPECT_NEAR(((g.point_b - g.point_a) - g.gap * g.normal).norm(), 0.0, 1e-8);
    // -gap = min_n h_A(n) + h_B(-n): no sampled direction does better.
    for (int k = 0; k < 200; ++k) {
      const Vec3 n = randomUnit(rng);
      EXPECT_GE(support(a, n) + support(b, -n), -g.gap - 1e-10);
    }
    const auto swapped = ellipsoidPair(b, a);
    EXPECT_NEAR(swapped.gap, g.gap, 1e-10);
    if (std::abs(swapped.gap - g.gap) < 1e-10 && (swapped.normal + g.normal).norm() > 1e-6) {
      // A tie between distinct minima may pick another one; the gap agrees.
      continue;
    }
    EXPECT_NEAR((swapped.normal + g.normal).norm(), 0.0, 1e-6);
  }
  EXPECT_GT(separated, 50);
  EXPECT_GT(overlapping, 50);
}

TEST(EllipsoidContacts, CapsuleCrossedAndParallel) {
  const Body e = ellipsoid(Vec3(2.0, 1.0, 0.5), Vec3::Zero());
  const double r = 0.2;
  // Parallel to the major axis, above the top: the line z = 1.5 is parallel
  // to the tangent plane at (0, 0, 0.5).
  auto g = ellipsoidSpherocylinder(
      e, makeSpherocylinder(1, r, 1.0, 1.0, Vec3(0.3, 0, 1.5), Vec3::UnitX()));
  EXPECT_NEAR(g.gap, 1.0 - r, 1e-12);
  EXPECT_NEAR((g.normal - Vec3::UnitZ()).norm(), 0.0, 1e-9);
  EXPECT_NEAR((g.point_a - Vec3(0, 0, 0.5)).norm(), 0.0, 1e-9);
  EXPECT_NEAR((g.point_b - Vec3(0, 0, 1.3)).norm(), 0.0, 1e-9);
  // Crossed diagonally in the plane z = 1, passing above the top (not at the
  // capsule's centre).
  g = ellipsoidSpherocylinder(
      e, makeSpherocylinder(2, r, 1.0, 1.0, Vec3(0.2, 0.2, 1.0), Vec3(1, 1, 0)));
  EXPECT_NEAR(g.gap, 0.5 - r, 1e-12);
  EXPECT_NEAR((g.normal - Vec3::UnitZ()).norm(), 0.0, 1e-9);
  EXPECT_NEAR((g.point_a - Vec3(0, 0, 0.5)).norm(), 0.0, 1e-9);
  EXPECT_NEAR((g.point_b - Vec3(0, 0, 0.8)).norm(), 0.0, 1e-9);
  // Collinear with the major axis: end cap against the tip.
  g = ellipsoidSpherocylinder(e,
                              makeSpherocylinder(3, r, 1.0, 1.0, Vec3(-4.0, 0, 0), Vec3::UnitX()));
  EXPECT_NEAR(g.gap, 1.0 - r, 1e-12);
  EXPECT_NEAR((g.normal + Vec3::UnitX()).norm(), 0.0, 1e-12);
  EXPECT_NEAR((g.point_b - Vec3(-2.8, 0, 0)).norm(), 0.0, 1e-12);
  // Pointing at the top along z: the lower end.
  g = ellipsoidSpherocylinder(e, makeSpherocylinder(4, r, 1.0, 1.0, Vec3(0, 0, 2.0)));
  EXPECT_NEAR(g.gap, 0.5 - r, 1e-12);
  // A long capsule through the centre along y: the deepest point is the
  // centre, 0.5 below the surface along z; pushing 0.7 along z separates.
  g = ellipsoidSpherocylinder(e,
                              makeSpherocylinder(5, r, 3.0, 1.0, Vec3(0, 0.4, 0), Vec3::UnitY()));
  EXPECT_NEAR(g.gap, -0.5 - r, 1e-12);
  EXPECT_NEAR(std::abs(g.normal.z()), 1.0, 1e-9);
}

TEST(EllipsoidContacts, CapsuleSharedNormalOnRandomConfigurations) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  const Body e = ellipsoid(Vec3(1.5, 0.7, 0.4), Vec3(0.2, 0.1, -0.1), someRotation());
  for (int trial = 0; trial < 200; ++trial) {
    const Body cap =
        makeSpherocylinder(1, 0.15, 0.3 + 1.5 * (uni(rng) + 1.0), 1.0,
                           e.position + 2.0 * Vec3(uni(rng), uni(rng), uni(rng)), randomUnit(rng));
    const auto g = ellipsoidSpherocylinder(e, cap);
    EXPECT_NEAR(levelOf(e, g.point_a), 1.0, 1e-10);
    EXPECT_NEAR((outwardNormal(e, g.point_a) - g.normal).norm(), 0.0, 1e-8);
    EXPECT_NEAR(((g.point_b - g.point_a) - g.gap * g.normal).norm(), 0.0, 1e-9);
    // No point of the core is deeper: sample it.
    const Vec3 axis = cap.orientation * Vec3::UnitZ();
    for (int k = 0; k <= 50; ++k) {
      const Vec3 p = cap.position + cap.half_length * (2.0 * k / 50.0 - 1.0) * axis;
      EXPECT_GE(ellipsoidSphere(e, p, cap.radius).gap, g.gap - 1e-10);
    }
  }
}

TEST(EllipsoidContacts, PlaneWallUsesTheSupportFunction) {
  const Wall floor = Wall::plane(Vec3(0, 0, -0.5), Vec3::UnitZ());
  // Turned 45 degrees about y: the support height sqrt(2^2/2 + 0.5^2/2).
  const Quat tilt(Eigen::AngleAxisd(0.25 * kPi, Vec3::UnitY()));
  auto g = wallEllipsoid(floor, ellipsoid(Vec3(2.0, 1.0, 0.5), Vec3(0.3, 0.2, 1.5), tilt));
  EXPECT_NEAR(g.gap, 2.0 - std::sqrt(2.125), 1e-12);
  EXPECT_NEAR((g.normal - Vec3::UnitZ()).norm(), 0.0, 1e-14);
  EXPECT_NEAR(g.point_b.z(), 1.5 - std::sqrt(2.125), 1e-12);
  EXPECT_NEAR(g.point_a.z(), -0.5, 1e-14);
  EXPECT_NEAR(g.point_a.y(), 0.2, 1e-12);
  // Any rotation: gap = height - sqrt(n^T Q n), the point on the surface.
  const Body e = ellipsoid(Vec3(2.0, 1.0, 0.5), Vec3(0.3, 0.2, 1.5), someRotation());
  const Wall slope = Wall::plane(Vec3(0, 0, 0), Vec3(1, 1, 2));
  g = wallEllipsoid(slope, e);
  const Vec3 n = slope.normal;
  EXPECT_NEAR(g.gap, n.dot(e.position) - std::sqrt(n.dot(shapeMatrix(e) * n)), 1e-12);
  EXPECT_NEAR(levelOf(e, g.point_b), 1.0, 1e-12);
  EXPECT_NEAR((outwardNormal(e, g.point_b) + n).norm(), 0.0, 1e-12);
  EXPECT_NEAR(((g.point_b - g.point_a) - g.gap * n).norm(), 0.0, 1e-12);
}

TEST(EllipsoidContacts, InsideCylinderWall) {
  const Wall cyl = Wall::cylinder(Vec3(0, 0, 0), Vec3::UnitZ(), 3.0, true);
  // On the axis: the tips of the major axis are farthest.
  auto g = wallEllipsoid(cyl, ellipsoid(Vec3(2.0, 1.0, 0.5), Vec3(0, 0, 5)));
  EXPECT_NEAR(g.gap, 1.0, 1e-12);
  EXPECT_NEAR(std::abs(g.normal.x()), 1.0, 1e-12);
  EXPECT_NEAR((g.point_b - Vec3(-2.0 * g.normal.x(), 0, 5)).norm(), 0.0, 1e-12);
  EXPECT_NEAR((g.point_a - Vec3(-3.0 * g.normal.x(), 0, 5)).norm(), 0.0, 1e-12);
  // On the axis, tilted 60 degrees about y: the x extent sqrt(4/4 + 0.25 * 3/4).
  g = wallEllipsoid(cyl, ellipsoid(Vec3(2.0, 1.0, 0.5), Vec3(0, 0, 5),
                                   Quat(Eigen::AngleAxisd(kPi / 3.0, Vec3::UnitY()))));
  EXPECT_NEAR(g.gap, 3.0 - std::sqrt(1.1875), 1e-12);
  // Off the axis along x: the near-wall tip.
  g = wallEllipsoid(cyl, ellipsoid(Vec3(2.0, 1.0, 0.5), Vec3(0.5, 0, 1)));
  EXPECT_NEAR(g.gap, 0.5, 1e-12);
  EXPECT_NEAR((g.normal + Vec3::UnitX()).norm(), 0.0, 1e-12);
  EXPECT_NEAR((g.point_b - Vec3(2.5, 0, 1)).norm(), 0.0, 1e-12);
  // Off the axis along y: max x^2 + y^2 on x^2/4 + (y - 1/2)^2 = 1 is at
  // y = 2/3, distance sqrt(13/3).
  g = wallEllipsoid(cyl, ellipsoid(Vec3(2.0, 1.0, 0.5), Vec3(0, 0.5, 1)));
  EXPECT_NEAR(g.gap, 3.0 - std::sqrt(13.0 / 3.0), 1e-12);
  EXPECT_NEAR(g.point_b.y(), 2.0 / 3.0, 1e-12);
  // Random poses and a tilted axis: the optimality conditions.
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  const Wall tilted = Wall::cylinder(Vec3(0.5, -0.2, 0.1), Vec3(0.2, 0.3, 1.0), 4.0, true);
  for (int trial = 0; trial < 100; ++trial) {
    const Body e = ellipsoid(Vec3(1.5, 0.8, 0.3), tilted.point + 2.0 * Vec3(uni(rng), uni(rng), 0),
                             randomRotation(rng));
    g = wallEllipsoid(tilted, e);
    EXPECT_NEAR(levelOf(e, g.point_b), 1.0, 1e-10);
    EXPECT_NEAR((outwardNormal(e, g.point_b) + g.normal).norm(), 0.0, 1e-9);
    EXPECT_NEAR(std::abs(g.normal.dot(tilted.normal)), 0.0, 1e-12);
    EXPECT_NEAR(((g.point_b - g.point_a) - g.gap * g.normal).norm(), 0.0, 1e-9);
    // Against sampled surface points, none is farther from the axis.
    double farthest = 0.0;
    const Mat3 rot = e.orientation.toRotationMatrix();
    for (int i = 0; i <= 40; ++i) {
      for (int j = 0; j < 80; ++j) {
        const double th = kPi * i / 40.0, ph = 2.0 * kPi * j / 80.0;
        const Vec3 rel = e.position - tilted.point +
                         rot * Vec3(1.5 * std::sin(th) * std::cos(ph),
                                    0.8 * std::sin(th) * std::sin(ph), 0.3 * std::cos(th));
        farthest = std::max(farthest, (rel - rel.dot(tilted.normal) * tilted.normal).norm());
      }
    }
    EXPECT_LE(4.0 - g.gap, farthest + 0.02);
    EXPECT_GE(4.0 - g.gap, farthest - 1e-12);
  }
}

TEST(EllipsoidContacts, OutsideCylinderWall) {
  const Wall post = Wall::cylinder(Vec3(0, 0, 0), Vec3::UnitZ(), 1.0, false);
  auto g = wallEllipsoid(post, ellipsoid(Vec3(2.0, 1.0, 0.5), Vec3(0, 4, 0)));
  EXPECT_NEAR(g.gap, 2.0, 1e-12);
  EXPECT_NEAR((g.normal - Vec3::UnitY()).norm(), 0.0, 1e-12);
  EXPECT_NEAR((g.point_b - Vec3(0, 3, 0)).norm(), 0.0, 1e-12);
  EXPECT_NEAR((g.point_a - Vec3(0, 1, 0)).norm(), 0.0, 1e-12);
  // Axis along x: the y-z section has semi-axes 1 and 0.5.
  const Wall rail = Wall::cylinder(Vec3(7, 0, 0), Vec3::UnitX(), 1.0, false);
  g = wallEllipsoid(rail, ellipsoid(Vec3(2.0, 1.0, 0.5), Vec3(0, 0, -4)));
  EXPECT_NEAR(g.gap, 4.0 - 0.5 - 1.0, 1e-12);
  EXPECT_NEAR((g.normal + Vec3::UnitZ()).norm(), 0.0, 1e-12);
  // The axis pierces the body at x = -0.5 on its major axis: the nearest
  // boundary point of x^2/4 + y^2 = 1 is (-2/3, +-sqrt(8/9)), at sqrt(33)/6.
  const Wall thin = Wall::cylinder(Vec3(0, 0, 0), Vec3::UnitZ(), 0.1, false);
  g = wallEllipsoid(thin, ellipsoid(Vec3(2.0, 1.0, 0.5), Vec3(0.5, 0, 0)));
  EXPECT_NEAR(g.gap, -std::sqrt(33.0) / 6.0 - 0.1, 1e-12);
  EXPECT_NEAR(g.point_b.x(), 0.5 - 2.0 / 3.0, 1e-12);
  EXPECT_NEAR(std::abs(g.point_b.y()), std::sqrt(8.0 / 9.0), 1e-12);
  EXPECT_NEAR(((g.point_b - g.point_a) - g.gap * g.normal).norm(), 0.0, 1e-12);
}

}  // namespace
}  // namespace grains
