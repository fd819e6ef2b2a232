// The shape traits table against the analytic formulas of uniform solids and
// against a direct midpoint quadrature of each solid, the name <-> ShapeKind
// conversion and its error message, and the pair-dispatch table.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "grains/geometry/contact_geometry.hpp"
#include "grains/geometry/shape_traits.hpp"

namespace grains {
namespace {

struct Sample {
  ShapeKind kind;
  ShapeSize size;
};

ShapeSize sizeOf(double radius, double half_length, const Vec3& semi_axes, double major_radius) {
  ShapeSize s;
  s.radius = radius;
  s.half_length = half_length;
  s.semi_axes = semi_axes;
  s.major_radius = major_radius;
  return s;
}

std::vector<Sample> samples() {
  return {{ShapeKind::Sphere, sizeOf(0.5, 0.0, Vec3::Zero(), 0.0)},
          {ShapeKind::Cylinder, sizeOf(0.5, 1.0, Vec3::Zero(), 0.0)},
          {ShapeKind::Spherocylinder, sizeOf(0.5, 1.0, Vec3::Zero(), 0.0)},
          {ShapeKind::Ellipsoid, sizeOf(0.0, 0.0, Vec3(1.0, 2.0, 3.0), 0.0)},
          {ShapeKind::Torus, sizeOf(0.5, 0.0, Vec3::Zero(), 2.0)}};
}

// Whether the body-frame point x lies inside the solid (written from the
// shapes' definitions, independently of the table).
bool inside(const Sample& s, const Vec3& x) {
  const ShapeSize& z = s.size;
  switch (s.kind) {
    case ShapeKind::Sphere:
      return x.norm() < z.radius;
    case ShapeKind::Cylinder:
      return x.head<2>().norm() < z.radius && std::abs(x.z()) < z.half_length;
    case ShapeKind::Spherocylinder: {
      const double t = std::max(-z.half_length, std::min(z.half_length, x.z()));
      return (x - Vec3(0.0, 0.0, t)).norm() < z.radius;
    }
    case ShapeKind::Ellipsoid:
      return x.cwiseQuotient(z.semi_axes).squaredNorm() < 1.0;
    case ShapeKind::Torus: {
      const double ring = x.head<2>().norm() - z.major_radius;
      return ring * ring + x.z() * x.z() < z.radius * z.radius;
    }
  }
  return false;
}

struct Quadrature {
  double volume = 0.0;
  Vec3 second_moments = Vec3::Zero();  ///< per unit density: int (y^2 + z^2) etc.
  double farthest = 0.0;               ///< largest |x| of a point inside
};

// Midpoint rule on an n^3 grid over the box [-L, L]^3.
Quadrature integrate(const Sample& s, double L, int n) {
  Quadrature q;
  const double h = 2.0 * L / n;
  const double cell = h * h * h;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      for (int k = 0; k < n; ++k) {
        const Vec3 x(-L + (i + 0.5) * h, -L + (j + 0.5) * h, -L + (k + 0.5) * h);
        if (!inside(s, x)) continue;
        q.volume += cell;
        const Vec3 sq = x.cwiseProduct(x);
        q.second_moments += cell * Vec3(sq.y() + sq.z(), sq.x() + sq.z(), sq.x() + sq.y());
        q.farthest = std::max(q.farthest, x.norm());
      }
    }
  }
  return q;
}

TEST(ShapeTraits, VolumesAreTheAnalyticFormulas) {
  const std::vector<double> expected = {
      4.0 / 3.0 * kPi * 0.125,                     // sphere r = 0.5
      kPi * 0.25 * 2.0,                            // cylinder r = 0.5, h = 1
      kPi * 0.25 * 2.0 + 4.0 / 3.0 * kPi * 0.125,  // capsule r = 0.5, h = 1
      4.0 / 3.0 * kPi * 6.0,                       // ellipsoid (1, 2, 3)
      2.0 * kPi * kPi * 2.0 * 0.25};               // torus R = 2, r = 0.5
  const std::vector<Sample> all = samples();
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_NEAR(shapeTraits(all[i].kind).volume(all[i].size), expected[i], 1e-12) << i;
  }
}

TEST(ShapeTraits, InertiasAreTheAnalyticFormulas) {
  const double m = 3.0;
  const auto inertia = [m](const Sample& s) { return shapeTraits(s.kind).inertia(s.size, m); };
  const std::vector<Sample> all = samples();
  EXPECT_TRUE(inertia(all[0]).isApprox(Vec3::Constant(0.4 * m * 0.25), 1e-14));
  const double cyl_perp = m * (3.0 * 0.25 + 4.0) / 12.0;
  EXPECT_TRUE(inertia(all[1]).isApprox(Vec3(cyl_perp, cyl_perp, 0.5 * m * 0.25), 1e-14));
  // Capsule: cylinder part pi r^2 L against caps 4/3 pi r^3 (r = 0.5, L = 2).
  const double m_c = m * (kPi * 0.5) / (kPi * 0.5 + kPi / 6.0), m_s = m - m_c;
  const double cap_perp = m_c * (4.0 / 12.0 + 0.25 / 4.0) + m_s * (0.1 + 1.0 + 3.0 / 8.0);
  EXPECT_TRUE(
      inertia(all[2]).isApprox(Vec3(cap_perp, cap_perp, 0.5 * m_c * 0.25 + 0.1 * m_s), 1e-14));
  EXPECT_TRUE(inertia(all[3]).isApprox(m / 5.0 * Vec3(13.0, 10.0, 5.0), 1e-14));
  const double torus_perp = m * (0.5 * 4.0 + 5.0 / 8.0 * 0.25);
  EXPECT_TRUE(
      inertia(all[4]).isApprox(Vec3(torus_perp, torus_perp, m * (4.0 + 0.75 * 0.25)), 1e-14));
}

// The table's volume, inertia and bounding radius against the solid itself:
// a 160^3 midpoint quadrature agrees to a few parts in a thousand.
TEST(ShapeTraits, VolumeInertiaAndBoundingRadiusMatchTheSolid) {
  const double m = 2.0;
  for (const Sample& s : samples()) {
    const ShapeTraits& t = shapeTraits(s.kind);
    const double bound = t.bounding_radius(s.size);
    // A box of quarter units puts the cylinder's flat ends on cell faces.
    const Quadrature q = integrate(s, std::ceil(4.0 * bound) / 4.0, 160);
    const std::string name = t.name;
    EXPECT_NEAR(q.volume / t.volume(s.size), 1.0, 5e-3) << name;
    const Vec3 expected = m / q.volume * q.second_moments;
    const Vec3 table = t.inertia(s.size, m);
    for (int axis = 0; axis < 3; ++axis) {
      EXPECT_NEAR(table[axis] / expected[axis], 1.0, 5e-3) << name << " axis " << axis;
    }
    EXPECT_LE(q.farthest, bound) << name;
    EXPECT_GT(q.farthest, 0.97 * bound) << name;
  }
}

TEST(ShapeTraits, BoundingRadiusAndDragLength) {
  const std::vector<double> bound = {0.5, std::hypot(0.5, 1.0), 1.5, 3.0, 2.5};
  const std::vector<double> drag = {1.0, 2.0, 3.0, 6.0, 5.0};
  const std::vector<Sample> all = samples();
  for (std::size_t i = 0; i < all.size(); ++i) {
    const ShapeTraits& t = shapeTraits(all[i].kind);
    EXPECT_DOUBLE_EQ(t.bounding_radius(all[i].size), bound[i]) << t.name;
    EXPECT_DOUBLE_EQ(t.drag_length(all[i].size), drag[i]) << t.name;
  }
}

TEST(ShapeTraits, NamesRoundTripInShapeKindOrder) {
  const std::vector<std::string> names = {"sphere", "cylinder", "spherocylinder", "ellipsoid",
                                          "torus"};
  EXPECT_EQ(shapeNames(), names);
  EXPECT_EQ(shapeNames(/*generated_only=*/true),
            (std::vector<std::string>{"sphere", "spherocylinder", "ellipsoid", "torus"}));
  for (int i = 0; i < kShapeKindCount; ++i) {
    const auto kind = static_cast<ShapeKind>(i);
    EXPECT_EQ(shapeTraits(kind).kind, kind);
    EXPECT_EQ(shapeName(kind), names[static_cast<std::size_t>(i)]);
    EXPECT_EQ(shapeKindFromName(shapeName(kind)), kind);
  }
}

TEST(ShapeTraits, UnknownNameNamesTheKeyTheValueAndEveryShape) {
  try {
    shapeKindFromName("cube", "extra_bodies.2.shape");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "extra_bodies.2.shape = cube: expected one of: sphere, cylinder, spherocylinder, "
              "ellipsoid, torus");
  }
  EXPECT_THROW(shapeKindFromName("Sphere"), std::invalid_argument);
  EXPECT_THROW(shapeTraits(static_cast<ShapeKind>(kShapeKindCount)), std::logic_error);
}

TEST(ShapeTraits, ParametersDecideWhatABodyKeeps) {
  EXPECT_EQ(shapesUsing(kHalfLengthParameter), "cylinder, spherocylinder");
  EXPECT_EQ(shapesUsing(kHalfLengthParameter, /*generated_only=*/true), "spherocylinder");
  EXPECT_EQ(shapesUsing(kRadiusParameter), "sphere, cylinder, spherocylinder, torus");
  const ShapeSize every = sizeOf(0.2, 0.7, Vec3(0.3, 0.4, 0.9), 1.5);
  const Body torus = makeBody(ShapeKind::Torus, every, 4, 2.0, Vec3(1, 2, 3));
  EXPECT_EQ(torus.gid, 4);
  EXPECT_EQ(torus.radius, 0.2);
  EXPECT_EQ(torus.major_radius, 1.5);
  EXPECT_EQ(torus.half_length, 0.0);
  EXPECT_EQ(torus.semi_axes, Vec3::Zero());
  EXPECT_EQ(torus.position, Vec3(1, 2, 3));
  EXPECT_EQ(torus.inertia, shapeTraits(ShapeKind::Torus).inertia(every, 2.0));
  // No radius parameter: the body keeps its bounding radius there.
  const Body ellipsoid = makeBody(ShapeKind::Ellipsoid, every, 5, 1.0, Vec3::Zero());
  EXPECT_EQ(ellipsoid.radius, 0.9);
  EXPECT_EQ(ellipsoid.major_radius, 0.0);
  EXPECT_EQ(boundingRadius(ellipsoid), 0.9);
  // The named factories are makeBody plus an orientation.
  const Body capsule = makeSpherocylinder(6, 0.2, 0.7, 1.0, Vec3::Zero(), Vec3::UnitX());
  EXPECT_EQ(capsule.inertia,
            makeBody(ShapeKind::Spherocylinder, every, 6, 1.0, Vec3::Zero()).inertia);
  EXPECT_TRUE((capsule.orientation * Vec3::UnitZ()).isApprox(Vec3::UnitX(), 1e-15));
}

TEST(ShapeTraits, EveryShapeButTheCylinderHasSubSpheres) {
  for (const ShapeTraits& t : allShapeTraits()) {
    EXPECT_EQ(t.sub_spheres == nullptr, t.kind == ShapeKind::Cylinder) << t.name;
  }
  const Body rod = makeSpherocylinder(1, 0.2, 0.5, 1.0, Vec3::Zero());
  const std::vector<SubSphere> spheres = subSpheres(rod, 3);
  ASSERT_EQ(spheres.size(), 3u);
  EXPECT_EQ(spheres[0].offset, Vec3(0.0, 0.0, -0.5));
  EXPECT_EQ(spheres[2].radius, 0.2);
  try {
    subSpheres(makeCylinder(7, 0.5, 1.0, 1.0, Vec3::Zero()), 3);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("cylinder bodies have no sub-sphere"), std::string::npos)
        << e.what();
  }
}

TEST(PairDispatch, SupportedPairsAreSymmetric) {
  for (int i = 0; i < kShapeKindCount; ++i) {
    for (int j = 0; j < kShapeKindCount; ++j) {
      const auto a = static_cast<ShapeKind>(i), b = static_cast<ShapeKind>(j);
      const bool cylinder = a == ShapeKind::Cylinder || b == ShapeKind::Cylinder;
      const bool sphere = a == ShapeKind::Sphere || b == ShapeKind::Sphere;
      EXPECT_EQ(supportsPair(a, b), !cylinder || sphere) << shapeName(a) << "-" << shapeName(b);
    }
  }
}

TEST(PairDispatch, TheReversedPairIsTheFlippedContact) {
  const Body ellipsoid = makeEllipsoid(0, Vec3(1.0, 0.5, 0.5), 1.0, Vec3::Zero());
  const Body ring = makeTorus(1, 1.0, 0.2, 1.0, Vec3(2.5, 0.3, 0.1));
  const ContactGeometry ab = bodyBody(ring, ellipsoid);
  const ContactGeometry ba = bodyBody(ellipsoid, ring);
  EXPECT_GT(ab.gap, 0.0);
  EXPECT_EQ(ab.gap, ba.gap);
  EXPECT_EQ(ab.normal, Vec3(-ba.normal));
  EXPECT_EQ(ab.point_a, ba.point_b);
  // Two spheres 3 apart with radii 1 and 0.5: gap 1.5 along +x.
  const ContactGeometry ss =
      bodyBody(makeSphere(2, 1.0, 1.0, Vec3::Zero()), makeSphere(3, 0.5, 1.0, Vec3(3.0, 0.0, 0.0)));
  EXPECT_DOUBLE_EQ(ss.gap, 1.5);
  EXPECT_EQ(ss.normal, Vec3::UnitX());
}

TEST(PairDispatch, UnsupportedPairNamesBothShapes) {
  const Body cylinder = makeCylinder(8, 0.5, 1.0, 1.0, Vec3::Zero());
  const Body ring = makeTorus(9, 1.0, 0.2, 1.0, Vec3(5.0, 0.0, 0.0));
  try {
    bodyBody(ring, cylinder);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "contact between a torus body and a cylinder body (gids 9 and 8) is not supported");
  }
}

}  // namespace
}  // namespace grains
