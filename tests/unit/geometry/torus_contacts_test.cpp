// Tori (rings): closest points on a circle, ring-sphere, ring-ring (links,
// crossed, coplanar, coaxial, concentric), several local minima, symmetry and
// random configurations against a brute-force scan, ring-capsule and
// ring-wall contacts, all against analytic values.
#include "grains/geometry/contact_geometry.hpp"
#include "grains/geometry/torus_geometry.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace grains {
namespace {

Body ring(GlobalId gid, const Vec3& center, double major = 1.0, double minor = 0.1,
          const Quat& orientation = Quat::Identity()) {
  return makeTorus(gid, major, minor, 1.0, center, orientation);
}

// Orientation taking the body z axis (the ring's axis) onto `axis`.
Quat axisTo(const Vec3& axis) { return Quat::FromTwoVectors(Vec3::UnitZ(), axis.normalized()); }

double distanceToCircle(const CentreCircle& c, const Vec3& p) {
  return (p - closestPointOnCircle(c, p)).norm();
}

// Checks every contact must satisfy: gap = (point_b - point_a) . n, unit n.
void expectConsistent(const ContactGeometry& g) {
  EXPECT_NEAR(g.normal.norm(), 1.0, 1e-12);
  EXPECT_NEAR((g.point_b - g.point_a).dot(g.normal), g.gap, 1e-12);
}

TEST(TorusContacts, ClosestPointOnCircle) {
  const Body t = ring(0, Vec3(1, 2, 3), 2.0, 0.1, axisTo(Vec3::UnitX()));
  const CentreCircle c = centreCircle(t);
  EXPECT_NEAR((c.axis - Vec3::UnitX()).norm(), 0.0, 1e-14);
  // A point off the plane: projected radially onto the circle.
  const Vec3 q = closestPointOnCircle(c, Vec3(5, 2, 3 + 0.5));
  EXPECT_NEAR((q - Vec3(1, 2, 5)).norm(), 0.0, 1e-14);
  // On the axis: the deterministic point at angle 0 (body x axis).
  const Vec3 on_axis = closestPointOnCircle(c, Vec3(-4, 2, 3));
  EXPECT_NEAR((on_axis - c.at(0.0)).norm(), 0.0, 1e-14);
  EXPECT_NEAR((on_axis - c.center).norm(), 2.0, 1e-14);
  EXPECT_THROW(centreCircle(makeSphere(1, 1.0, 1.0, Vec3::Zero())), std::invalid_argument);
}

TEST(TorusContacts, SphereAtCentreOnAxisAndAtTheEquator) {
  const double R = 1.0, r = 0.1, rs = 0.3;
  const Body t = ring(0, Vec3::Zero(), R, r);
  auto g = torusSphere(t, Vec3::Zero(), rs);
  EXPECT_NEAR(g.gap, R - r - rs, 1e-14);
  expectConsistent(g);
  // On the axis at height z: every circle point at sqrt(R^2 + z^2).
  g = torusSphere(t, Vec3(0, 0, 0.75), rs);
  EXPECT_NEAR(g.gap, std::sqrt(R * R + 0.75 * 0.75) - r - rs, 1e-14);
  expectConsistent(g);
  // Touching the outer equator (gap 0.02), normal outwards.
  g = torusSphere(t, Vec3(0, R + r + rs + 0.02, 0), rs);
  EXPECT_NEAR(g.gap, 0.02, 1e-14);
  EXPECT_NEAR((g.normal - Vec3::UnitY()).norm(), 0.0, 1e-14);
  EXPECT_NEAR((g.point_a - Vec3(0, R + r, 0)).norm(), 0.0, 1e-14);
  EXPECT_NEAR((g.point_b - Vec3(0, R + r + 0.02, 0)).norm(), 0.0, 1e-14);
  // Above the tube, overlapping: distance 0.2 from the centre circle.
  g = torusSphere(t, Vec3(R, 0, 0.2), rs);
  EXPECT_NEAR(g.gap, 0.2 - r - rs, 1e-14);
  EXPECT_NEAR((g.normal - Vec3::UnitZ()).norm(), 0.0, 1e-14);
  // Centre on the centre circle: leaves radially.
  g = torusSphere(t, Vec3(-R, 0, 0), rs);
  EXPECT_NEAR(g.gap, -r - rs, 1e-14);
  EXPECT_NEAR((g.normal - Vec3(-1, 0, 0)).norm(), 0.0, 1e-14);
}

// Ring a: x-y plane at the origin. Ring b: x-z plane (axis y) centred at
// (s, 0, 0). A point of b, (s + R cos phi, 0, R sin phi), lies at
// rho = |s + R cos phi| from a's axis and R sin phi above its plane, so its
// squared distance to a's circle is, for s + R cos phi >= 0,
//   (s - R)^2 + 2 (s - R) R cos phi + R^2.
// At s = R this is R^2 for every phi: the centre circles stay R apart all
// along (each passes through the other's centre), gap = R - 2r.
// For R < s < 2R the minimum is at phi = pi: d = 2R - s, between a's point
// (R, 0, 0) and b's point (s - R, 0, 0), inside a.
TEST(TorusContacts, ChainLinkThroughTheCentre) {
  const double R = 1.0, r = 0.1;
  const Body a = ring(0, Vec3::Zero(), R, r);
  const Body b = ring(1, Vec3(R, 0, 0), R, r, axisTo(Vec3::UnitY()));
  const auto g = torusPair(a, b);
  EXPECT_NEAR(g.gap, R - 2 * r, 1e-12);
  expectConsistent(g);
  // Distance constant along the circle: a single contact.
  EXPECT_EQ(torusPairLocalMinima(a, b).size(), 1u);
  EXPECT_NEAR(torusPair(b, a).gap, R - 2 * r, 1e-12);
}

TEST(TorusContacts, ShiftedChainLink) {
  const double R = 1.0, r = 0.1, s = 1.5;
  const Body a = ring(0, Vec3::Zero(), R, r);
  const Body b = ring(1, Vec3(s, 0, 0), R, r, axisTo(Vec3::UnitY()));
  const auto g = torusPair(a, b);
  EXPECT_NEAR(g.gap, 2 * R - s - 2 * r, 1e-12);
  EXPECT_NEAR((g.normal - Vec3(-1, 0, 0)).norm(), 0.0, 1e-9);
  EXPECT_NEAR((g.point_a - Vec3(R - r, 0, 0)).norm(), 0.0, 1e-9);
  EXPECT_NEAR((g.point_b - Vec3(s - R + r, 0, 0)).norm(), 0.0, 1e-9);
  expectConsistent(g);
}

TEST(TorusContacts, CrossedRingsTouchingOutside) {
  // b in the y-z plane, centred at (0, 2R + delta, 0): its nearest point
  // (0, R + delta, 0) faces a's point (0, R, 0); the tangents (x and z) cross.
  const double R = 1.0, r = 0.1, delta = 0.15;
  const Body a = ring(0, Vec3::Zero(), R, r);
  const Body b = ring(1, Vec3(0, 2 * R + delta, 0), R, r, axisTo(Vec3::UnitX()));
  const auto g = torusPair(a, b);
  EXPECT_NEAR(g.gap, delta - 2 * r, 1e-12);
  EXPECT_NEAR((g.normal - Vec3::UnitY()).norm(), 0.0, 1e-9);
  EXPECT_NEAR((g.point_a - Vec3(0, R + r, 0)).norm(), 0.0, 1e-9);
  EXPECT_NEAR((g.point_b - Vec3(0, R + delta - r, 0)).norm(), 0.0, 1e-9);
}

TEST(TorusContacts, IntersectingCentreCirclesUseTheCommonPerpendicular) {
  // b in the x-z plane centred at (2R, 0, 0) shares the point (R, 0, 0)
  // with a, where a's tangent is y and b's is z: the normal is along x.
  const double R = 1.0, r = 0.1;
  const Body a = ring(0, Vec3::Zero(), R, r);
  const Body b = ring(1, Vec3(2 * R, 0, 0), R, r, axisTo(Vec3::UnitY()));
  const auto g = torusPair(a, b);
  EXPECT_NEAR(g.gap, -2 * r, 1e-12);
  EXPECT_NEAR((g.normal - Vec3::UnitX()).norm(), 0.0, 1e-9);  // towards b
  EXPECT_NEAR((g.point_a - Vec3(R + r, 0, 0)).norm(), 0.0, 1e-9);
  expectConsistent(g);
}

TEST(TorusContacts, CoplanarCoaxialAndConcentricRings) {
  const double r1 = 0.1, r2 = 0.15;
  // Side by side in one plane, centres d apart.
  const Body a = ring(0, Vec3::Zero(), 1.0, r1);
  const Body b = ring(1, Vec3(1.8, 2.4, 0), 1.0, r2);  // d = 3
  auto g = torusPair(a, b);
  EXPECT_NEAR(g.gap, 3.0 - 2.0 - r1 - r2, 1e-12);
  EXPECT_NEAR((g.normal - Vec3(0.6, 0.8, 0)).norm(), 0.0, 1e-9);
  // Stacked on a common axis, h apart: constant distance h.
  const Vec3 axis = Vec3(1, 2, 2) / 3.0;
  const Body c = ring(2, Vec3(1, 1, 1), 1.0, r1, axisTo(axis));
  const Body d = ring(3, Vec3(1, 1, 1) + 0.5 * axis, 1.0, r2, axisTo(axis));
  g = torusPair(c, d);
  EXPECT_NEAR(g.gap, 0.5 - r1 - r2, 1e-12);
  EXPECT_NEAR((g.normal - axis).norm(), 0.0, 1e-9);
  EXPECT_EQ(torusPairLocalMinima(c, d).size(), 1u);
  // Concentric in one plane, radii 1 and 1.4: 0.4 apart everywhere.
  const Body e = ring(4, Vec3(1, 1, 1), 1.4, r2, axisTo(axis));
  g = torusPair(c, e);
  EXPECT_NEAR(g.gap, 0.4 - r1 - r2, 1e-12);
  EXPECT_NEAR(g.normal.dot(axis), 0.0, 1e-9);
  EXPECT_NEAR(torusPair(e, c).gap, 0.4 - r1 - r2, 1e-12);
  // Coincident rings: the circles overlap everywhere.
  EXPECT_NEAR(torusPair(c, c).gap, -2 * r1, 1e-12);
}

TEST(TorusContacts, TwoSymmetricLocalMinima) {
  // b (radius 0.5) in the y-z plane at a's centre: a point of b at angle phi
  // is (0, 0.5 cos phi, 0.5 sin phi), at squared distance
  // 1.25 - |cos phi| from a's circle: two minima, d = 0.5, at (0, +-0.5, 0).
  const Body a = ring(0, Vec3::Zero(), 1.0, 0.1);
  const Body b = ring(1, Vec3::Zero(), 0.5, 0.05, axisTo(Vec3::UnitX()));
  const auto minima = torusPairLocalMinima(a, b);
  ASSERT_EQ(minima.size(), 2u);
  for (const auto& g : minima) {
    EXPECT_NEAR(g.gap, 0.5 - 0.15, 1e-12);
    EXPECT_NEAR(std::abs(g.normal.y()), 1.0, 1e-9);
    EXPECT_NEAR(std::abs(g.point_a.y()), 0.9, 1e-9);
    EXPECT_NEAR(g.normal.y() * g.point_a.y(), -0.9, 1e-9);  // inwards, towards b
  }
  EXPECT_NEAR(minima[0].normal.dot(minima[1].normal), -1.0, 1e-9);
}

TEST(TorusContacts, LinkPulledBackTouchesOnBothSides) {
  // The link above with s < R: for s + R cos phi >= 0 the squared distance
  // is minimal at phi = 0, d = s (b's (s + R, 0, 0) against a's (R, 0, 0));
  // on the other branch, s + R cos phi < 0, it is (s + R)^2 + 2 (s + R) R
  // cos phi + R^2, minimal at phi = pi, d = s again (b's (s - R, 0, 0)
  // against a's (-R, 0, 0)): two contacts, equal gaps, both normals +x.
  const double R = 1.0, r = 0.1, s = 0.3;
  const Body a = ring(0, Vec3::Zero(), R, r);
  const Body b = ring(1, Vec3(s, 0, 0), R, r, axisTo(Vec3::UnitY()));
  const auto minima = torusPairLocalMinima(a, b);
  ASSERT_EQ(minima.size(), 2u);
  for (const auto& g : minima) {
    EXPECT_NEAR(g.gap, s - 2 * r, 1e-12);
    EXPECT_NEAR((g.normal - Vec3::UnitX()).norm(), 0.0, 1e-9);
    expectConsistent(g);
  }
  const double x0 = minima[0].point_a.x(), x1 = minima[1].point_a.x();
  EXPECT_NEAR(std::min(x0, x1), -R + r, 1e-9);
  EXPECT_NEAR(std::max(x0, x1), R + r, 1e-9);
  EXPECT_NEAR(torusPair(a, b).gap, s - 2 * r, 1e-12);
}

// Brute force: the smallest centre-circle distance over a grid of both angles.
double bruteForceGap(const Body& a, const Body& b, int n) {
  const CentreCircle ca = centreCircle(a), cb = centreCircle(b);
  std::vector<Vec3> pb(n);
  for (int j = 0; j < n; ++j) pb[j] = cb.at(2 * kPi * j / n);
  double best = 1e300;
  for (int i = 0; i < n; ++i) {
    const Vec3 p = ca.at(2 * kPi * i / n);
    for (const Vec3& q : pb) best = std::min(best, (q - p).squaredNorm());
  }
  return std::sqrt(best) - a.radius - b.radius;
}

Quat randomOrientation(std::mt19937& rng) {
  std::normal_distribution<double> gauss;
  Quat q(gauss(rng), gauss(rng), gauss(rng), gauss(rng));
  q.normalize();
  return q;
}

TEST(TorusContacts, RandomPairsAreSymmetricSharedNormalAndGlobal) {
  std::mt19937 rng(12345);
  std::uniform_real_distribution<double> pos(-2.0, 2.0), major(0.6, 1.4), minor(0.05, 0.3);
  for (int trial = 0; trial < 12; ++trial) {
    const Body a = ring(0, Vec3(pos(rng), pos(rng), pos(rng)) * 0.5, major(rng), minor(rng),
                        randomOrientation(rng));
    const Body b =
        ring(1, Vec3(pos(rng), pos(rng), pos(rng)), major(rng), minor(rng), randomOrientation(rng));
    const auto g = torusPair(a, b);
    expectConsistent(g);
    // Points on the surfaces.
    const CentreCircle ca = centreCircle(a), cb = centreCircle(b);
    EXPECT_NEAR(distanceToCircle(ca, g.point_a), a.radius, 1e-10);
    EXPECT_NEAR(distanceToCircle(cb, g.point_b), b.radius, 1e-10);
    // Shared normal: perpendicular to both circles at the closest points.
    const Vec3 pa = g.point_a - a.radius * g.normal;
    const Vec3 pb = g.point_b + b.radius * g.normal;
    EXPECT_NEAR(g.normal.dot(ca.axis.cross(pa - ca.center).normalized()), 0.0, 1e-9);
    EXPECT_NEAR(g.normal.dot(cb.axis.cross(pb - cb.center).normalized()), 0.0, 1e-9);
    // Swapping the bodies: same gap, opposite normal.
    const auto h = torusPair(b, a);
    EXPECT_NEAR(h.gap, g.gap, 1e-12);
    EXPECT_NEAR((h.normal + g.normal).norm(), 0.0, 1e-7);
    // Global: not beaten by a 2000 x 2000 scan, and within its resolution.
    const double brute = bruteForceGap(a, b, 2000);
    EXPECT_LE(g.gap, brute + 1e-12);
    EXPECT_GT(g.gap, brute - 1e-5);
  }
}

TEST(TorusContacts, TwoMinimaBetweenTwoCoarseSamples) {
  // Parallel rings where the distance is nearly flat over a tenth of the
  // circle and has two minima 0.12 rad apart, 5e-6 different, with the
  // lowest coarse sample between them (a regression: a single golden
  // section found the higher one).
  const Body a = ring(
      0, Vec3(0.00091166032428265467, 0.00099296939228605305, 0.00083553477536835023), 1.0, 0.1,
      Quat(0.68285305184639977, 0.43405261154547842, -0.56925041450282532, -0.14582182821158668));
  const Body b = ring(
      1, Vec3(-0.67735464796890577, -1.4105988317903937, 1.2423568444593247), 0.61420130945866691,
      0.1,
      Quat(0.68284043517652648, 0.43406110509128526, -0.5692633974145499, -0.14580494332809341));
  const CentreCircle ca = centreCircle(a), cb = centreCircle(b);
  double brute = 1e300;
  for (int i = 0; i < 100000; ++i) {
    brute = std::min(brute, distanceToCircle(cb, ca.at(2 * kPi * i / 100000)));
  }
  brute -= 0.2;
  const auto minima = torusPairLocalMinima(a, b);
  ASSERT_GE(minima.size(), 2u);
  EXPECT_LE(minima[0].gap, brute + 1e-12);
  EXPECT_GT(minima[0].gap, brute - 1e-9);
  EXPECT_NEAR(minima[1].gap - minima[0].gap, 4.96e-6, 0.05e-6);
}

TEST(TorusContacts, CapsuleThroughTheRing) {
  const double R = 1.0, r = 0.1, rc = 0.2;
  const Body t = ring(0, Vec3::Zero(), R, r);
  // Along the axis: every circle point at R from the core.
  auto g = torusSpherocylinder(t, makeSpherocylinder(1, rc, 2.0, 1.0, Vec3::Zero()));
  EXPECT_NEAR(g.gap, R - r - rc, 1e-12);
  expectConsistent(g);
  // Parallel to the axis, off-centre at x0: nearest circle point (R, 0, 0).
  g = torusSpherocylinder(t, makeSpherocylinder(1, rc, 2.0, 1.0, Vec3(0.4, 0, 0.3)));
  EXPECT_NEAR(g.gap, R - 0.4 - r - rc, 1e-12);
  EXPECT_NEAR((g.normal - Vec3(-1, 0, 0)).norm(), 0.0, 1e-9);
  EXPECT_NEAR((g.point_a - Vec3(R - r, 0, 0)).norm(), 0.0, 1e-9);
  // Lying in the plane along y beside the ring, X from the axis.
  g = torusSpherocylinder(t,
                          makeSpherocylinder(1, rc, 2.0, 1.0, Vec3(1.35, 0.2, 0), Vec3::UnitY()));
  EXPECT_NEAR(g.gap, 1.35 - R - r - rc, 1e-12);
  EXPECT_NEAR((g.normal - Vec3::UnitX()).norm(), 0.0, 1e-9);
  // Short capsule whose end cap faces the ring from above.
  g = torusSpherocylinder(t, makeSpherocylinder(1, rc, 0.5, 1.0, Vec3(R, 0, 1.0)));
  EXPECT_NEAR(g.gap, 0.5 - r - rc, 1e-12);
  EXPECT_NEAR((g.normal - Vec3::UnitZ()).norm(), 0.0, 1e-9);
}

TEST(TorusContacts, TiltedRingOnAPlane) {
  const double R = 1.0, r = 0.1, H = 0.8, alpha = 0.4;
  const Wall floor = Wall::plane(Vec3(0, 0, 0.1), Vec3::UnitZ());
  const Body t = ring(0, Vec3(2, 3, H + 0.1), R, r, Quat(Eigen::AngleAxisd(alpha, Vec3::UnitX())));
  auto g = wallTorus(floor, t);
  // In-plane component of the normal: sin(alpha); lowest point at y - R cos a.
  EXPECT_NEAR(g.gap, H - R * std::sin(alpha) - r, 1e-14);
  EXPECT_NEAR((g.normal - Vec3::UnitZ()).norm(), 0.0, 1e-14);
  const Vec3 low(2, 3 - R * std::cos(alpha), 0.1 + H - R * std::sin(alpha));
  EXPECT_NEAR((g.point_b - (low - r * Vec3::UnitZ())).norm(), 0.0, 1e-14);
  EXPECT_NEAR((g.point_a - Vec3(low.x(), low.y(), 0.1)).norm(), 0.0, 1e-14);
  // Lying flat: the whole circle at height H, a deterministic point on it.
  g = wallTorus(floor, ring(0, Vec3(2, 3, H + 0.1), R, r));
  EXPECT_NEAR(g.gap, H - r, 1e-14);
  EXPECT_NEAR((g.point_b - Vec3(3, 3, 0.1 + H - r)).norm(), 0.0, 1e-14);
}

TEST(TorusContacts, RingInsideAndOutsideACylinder) {
  const double R = 1.0, r = 0.1, W = 2.0;
  const Wall inside = Wall::cylinder(Vec3::Zero(), Vec3::UnitZ(), W, true);
  // Tilted about x and shifted along x: farthest circle point (R + x0, 0, 0).
  const Body t = ring(0, Vec3(0.5, 0, 3), R, r, Quat(Eigen::AngleAxisd(0.7, Vec3::UnitX())));
  auto g = wallTorus(inside, t);
  EXPECT_NEAR(g.gap, W - R - 0.5 - r, 1e-12);
  EXPECT_NEAR((g.normal - Vec3(-1, 0, 0)).norm(), 0.0, 1e-9);
  EXPECT_NEAR((g.point_a - Vec3(W, 0, 3)).norm(), 0.0, 1e-9);
  EXPECT_NEAR((g.point_b - Vec3(R + 0.5 + r, 0, 3)).norm(), 0.0, 1e-9);
  // Coaxial: constant radius R.
  g = wallTorus(inside, ring(0, Vec3(0, 0, -1), R, r));
  EXPECT_NEAR(g.gap, W - R - r, 1e-12);
  expectConsistent(g);
  // A ring around a thin post, shifted: nearest point (x0 - R, 0, 0).
  const Wall post = Wall::cylinder(Vec3(0, 0, 5), Vec3::UnitZ(), 0.3, false);
  g = wallTorus(post, ring(0, Vec3(0.4, 0, 1), R, r));
  EXPECT_NEAR(g.gap, R - 0.4 - 0.3 - r, 1e-12);
  EXPECT_NEAR((g.normal - Vec3(-1, 0, 0)).norm(), 0.0, 1e-9);
  EXPECT_NEAR((g.point_a - Vec3(-0.3, 0, 1)).norm(), 0.0, 1e-9);
  // Beside a thick pillar: nearest point of the ring (x0 - R, 0, 0).
  const Wall pillar = Wall::cylinder(Vec3::Zero(), Vec3::UnitZ(), 1.0, false);
  g = wallTorus(pillar, ring(0, Vec3(3.5, 0, 0), R, r, axisTo(Vec3::UnitY())));
  EXPECT_NEAR(g.gap, 2.5 - 1.0 - r, 1e-12);
  EXPECT_NEAR((g.normal - Vec3::UnitX()).norm(), 0.0, 1e-9);
}

TEST(TorusContacts, EllipsoidAgainstTheRing) {
  const double R = 1.0, r = 0.1;
  const Body t = ring(0, Vec3::Zero(), R, r);
  // A round ellipsoid is a sphere.
  const double rs = 0.3;
  auto g =
      torusEllipsoid(t, makeEllipsoid(1, Vec3::Constant(rs), 1.0, Vec3(0, R + r + rs + 0.05, 0)));
  EXPECT_NEAR(g.gap, 0.05, 1e-10);
  EXPECT_NEAR((g.normal - Vec3::UnitY()).norm(), 0.0, 1e-8);
  EXPECT_NEAR((g.point_a - Vec3(0, R + r, 0)).norm(), 0.0, 1e-8);
  // A needle along the axis, through the hole: its equator (radius 0.4) is
  // 0.6 from every circle point (the equator's curvature radius c^2/a = 10
  // exceeds 0.6, so it is the nearest point).
  g = torusEllipsoid(t, makeEllipsoid(1, Vec3(0.4, 0.4, 2.0), 1.0, Vec3::Zero()));
  EXPECT_NEAR(g.gap, 0.6 - r, 1e-10);
  EXPECT_NEAR(g.normal.z(), 0.0, 1e-8);
  expectConsistent(g);
  // A tilted bar through the ring (overlapping): the global minimum over
  // the circle of the sphere-swept gap, checked against a dense scan.
  const Quat tilt(Eigen::AngleAxisd(0.5, Vec3(0.3, 1, 0.2).normalized()));
  const Body bar = makeEllipsoid(1, Vec3(1.6, 0.25, 0.35), 1.0, Vec3(0.2, -0.1, 0.15), tilt);
  g = torusEllipsoid(t, bar);
  expectConsistent(g);
  const CentreCircle c = centreCircle(t);
  double brute = 1e300;
  for (int i = 0; i < 20000; ++i) {
    brute = std::min(brute, ellipsoidSphere(bar, c.at(2 * kPi * i / 20000), r).gap);
  }
  EXPECT_LE(g.gap, brute + 1e-12);
  EXPECT_GT(g.gap, brute - 1e-6);
  EXPECT_LT(g.gap, 0.0);
  // Shared normal: perpendicular to the circle at the tube centre.
  const Vec3 pa = g.point_a - r * g.normal;
  EXPECT_NEAR(distanceToCircle(c, pa), 0.0, 1e-9);
  EXPECT_NEAR(g.normal.dot(c.axis.cross(pa - c.center).normalized()), 0.0, 1e-7);
}

}  // namespace
}  // namespace grains
