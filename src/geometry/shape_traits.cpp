// The shape traits table (shape_traits.hpp). The formulas are those of
// uniform solids; each row's functions sit just above it.
#include "grains/geometry/shape_traits.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

namespace grains {
namespace {

double ballVolume(double r) { return 4.0 / 3.0 * kPi * r * r * r; }

// Sphere: V = 4/3 pi r^3, I = 2/5 m r^2 about every axis.
double sphereVolume(const ShapeSize& s) { return ballVolume(s.radius); }
Vec3 sphereInertia(const ShapeSize& s, double mass) {
  return Vec3::Constant(0.4 * mass * s.radius * s.radius);
}
double sphereBound(const ShapeSize& s) { return s.radius; }
double sphereDrag(const ShapeSize& s) { return 2.0 * s.radius; }
Vec3 sphereGlyph(const ShapeSize& s) { return Vec3::Constant(s.radius); }

// Cylinder of radius r and height 2h: V = pi r^2 2h,
// I_axis = m r^2 / 2, I_perp = m (3 r^2 + (2h)^2) / 12.
double cylinderVolume(const ShapeSize& s) {
  return kPi * s.radius * s.radius * 2.0 * s.half_length;
}
Vec3 cylinderInertia(const ShapeSize& s, double mass) {
  const double r = s.radius, h = s.half_length;
  const double perp = mass * (3.0 * r * r + 4.0 * h * h) / 12.0;
  return Vec3(perp, perp, 0.5 * mass * r * r);
}
double cylinderBound(const ShapeSize& s) { return std::hypot(s.radius, s.half_length); }
double cylinderDrag(const ShapeSize& s) { return 2.0 * std::max(s.half_length, s.radius); }
Vec3 cylinderGlyph(const ShapeSize& s) { return Vec3(s.radius, s.radius, s.half_length); }

// Capsule of radius r around a segment of length L = 2h: V = pi r^2 L + 4/3 pi r^3;
// a cylinder of mass m_c and two hemispherical caps of total mass m_s:
//   I_axis = m_c r^2 / 2 + 2/5 m_s r^2,
//   I_perp = m_c (L^2/12 + r^2/4) + m_s (2/5 r^2 + L^2/4 + 3/8 L r).
double capsuleVolume(const ShapeSize& s) {
  return kPi * s.radius * s.radius * 2.0 * s.half_length + ballVolume(s.radius);
}
Vec3 capsuleInertia(const ShapeSize& s, double mass) {
  const double r = s.radius;
  const double L = 2.0 * s.half_length;
  const double v_cyl = kPi * r * r * L;
  const double v_caps = ballVolume(r);
  const double m_c = mass * v_cyl / (v_cyl + v_caps);
  const double m_s = mass - m_c;
  const double axial = 0.5 * m_c * r * r + 0.4 * m_s * r * r;
  const double perp =
      m_c * (L * L / 12.0 + r * r / 4.0) + m_s * (0.4 * r * r + L * L / 4.0 + 3.0 / 8.0 * L * r);
  return Vec3(perp, perp, axial);
}
double capsuleBound(const ShapeSize& s) { return s.half_length + s.radius; }
double capsuleDrag(const ShapeSize& s) { return 2.0 * (s.half_length + s.radius); }
Vec3 capsuleGlyph(const ShapeSize& s) { return Vec3(s.radius, s.radius, s.half_length + s.radius); }

// Ellipsoid with semi-axes (a, b, c): V = 4/3 pi a b c,
// I = m/5 (b^2 + c^2, a^2 + c^2, a^2 + b^2).
double ellipsoidVolume(const ShapeSize& s) { return 4.0 / 3.0 * kPi * s.semi_axes.prod(); }
Vec3 ellipsoidInertia(const ShapeSize& s, double mass) {
  const Vec3 sq = s.semi_axes.cwiseProduct(s.semi_axes);
  return mass / 5.0 * Vec3(sq.y() + sq.z(), sq.x() + sq.z(), sq.x() + sq.y());
}
double ellipsoidBound(const ShapeSize& s) { return s.semi_axes.maxCoeff(); }
double ellipsoidDrag(const ShapeSize& s) { return 2.0 * s.semi_axes.maxCoeff(); }
Vec3 ellipsoidGlyph(const ShapeSize& s) { return s.semi_axes; }

// Torus of centre-circle radius R and tube radius r: V = 2 pi^2 R r^2,
// I_z = m (R^2 + 3/4 r^2), I_x = I_y = m (R^2 / 2 + 5/8 r^2).
double torusVolume(const ShapeSize& s) {
  return 2.0 * kPi * kPi * s.major_radius * s.radius * s.radius;
}
Vec3 torusInertia(const ShapeSize& s, double mass) {
  const double R2 = s.major_radius * s.major_radius, r2 = s.radius * s.radius;
  const double perp = mass * (0.5 * R2 + 5.0 / 8.0 * r2);
  return Vec3(perp, perp, mass * (R2 + 0.75 * r2));
}
double torusBound(const ShapeSize& s) { return s.major_radius + s.radius; }
double torusDrag(const ShapeSize& s) { return 2.0 * (s.major_radius + s.radius); }
Vec3 torusGlyph(const ShapeSize& s) {
  const double reach = s.major_radius + s.radius;
  return Vec3(reach, reach, s.radius);
}

// In ShapeKind order (checked below).
constexpr std::array<ShapeTraits, kShapeKindCount> kShapes = {{
    {ShapeKind::Sphere, "sphere", kRadiusParameter, true, sphereVolume, sphereInertia, sphereBound,
     sphereDrag, sphereSubSpheres, sphereGlyph},
    {ShapeKind::Cylinder, "cylinder", kRadiusParameter | kHalfLengthParameter, false,
     cylinderVolume, cylinderInertia, cylinderBound, cylinderDrag, nullptr, cylinderGlyph},
    {ShapeKind::Spherocylinder, "spherocylinder", kRadiusParameter | kHalfLengthParameter, true,
     capsuleVolume, capsuleInertia, capsuleBound, capsuleDrag, spherocylinderSubSpheres,
     capsuleGlyph},
    {ShapeKind::Ellipsoid, "ellipsoid", kSemiAxesParameter, true, ellipsoidVolume, ellipsoidInertia,
     ellipsoidBound, ellipsoidDrag, ellipsoidSubSpheres, ellipsoidGlyph},
    {ShapeKind::Torus, "torus", kRadiusParameter | kMajorRadiusParameter, true, torusVolume,
     torusInertia, torusBound, torusDrag, torusSubSpheres, torusGlyph},
}};

constexpr bool rowsInShapeKindOrder() {
  for (std::size_t i = 0; i < kShapes.size(); ++i) {
    if (static_cast<std::size_t>(kShapes[i].kind) != i) return false;
  }
  return true;
}
static_assert(rowsInShapeKindOrder(), "shape traits rows must be in ShapeKind order");

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

const ShapeTraits& shapeTraits(ShapeKind kind) {
  const auto i = static_cast<std::size_t>(kind);
  if (i >= kShapes.size()) {
    throw std::logic_error("shape traits table: no row for ShapeKind " + std::to_string(i));
  }
  return kShapes[i];
}

const std::array<ShapeTraits, kShapeKindCount>& allShapeTraits() { return kShapes; }

const char* shapeName(ShapeKind kind) { return shapeTraits(kind).name; }

std::vector<std::string> shapeNames(bool generated_only) {
  std::vector<std::string> names;
  for (const ShapeTraits& t : kShapes) {
    if (t.generated || !generated_only) names.emplace_back(t.name);
  }
  return names;
}

ShapeKind shapeKindFromName(const std::string& name, const std::string& key) {
  for (const ShapeTraits& t : kShapes) {
    if (name == t.name) return t.kind;
  }
  throw std::invalid_argument(key + " = " + name + ": expected one of: " + joined(shapeNames()));
}

std::string shapesUsing(ShapeParameter p, bool generated_only) {
  std::vector<std::string> names;
  for (const ShapeTraits& t : kShapes) {
    if (t.uses(p) && (t.generated || !generated_only)) names.emplace_back(t.name);
  }
  return joined(names);
}

ShapeSize shapeSize(const Body& b) {
  ShapeSize s;
  s.radius = b.radius;
  s.half_length = b.half_length;
  s.semi_axes = b.semi_axes;
  s.major_radius = b.major_radius;
  return s;
}

double boundingRadius(const Body& b) { return shapeTraits(b.shape).bounding_radius(shapeSize(b)); }

Body makeBody(ShapeKind kind, const ShapeSize& size, GlobalId gid, double mass,
              const Vec3& position) {
  const ShapeTraits& t = shapeTraits(kind);
  Body b;
  b.gid = gid;
  b.shape = kind;
  if (t.uses(kRadiusParameter)) b.radius = size.radius;
  if (t.uses(kHalfLengthParameter)) b.half_length = size.half_length;
  if (t.uses(kSemiAxesParameter)) b.semi_axes = size.semi_axes;
  if (t.uses(kMajorRadiusParameter)) b.major_radius = size.major_radius;
  if (!t.uses(kRadiusParameter)) b.radius = t.bounding_radius(size);  // spacing heuristics
  b.mass = mass;
  b.inertia = t.inertia(size, mass);
  b.position = position;
  return b;
}

Body makeSphere(GlobalId gid, double radius, double mass, const Vec3& position) {
  ShapeSize s;
  s.radius = radius;
  return makeBody(ShapeKind::Sphere, s, gid, mass, position);
}

Body makeCylinder(GlobalId gid, double radius, double half_length, double mass,
                  const Vec3& position, const Vec3& axis) {
  ShapeSize s;
  s.radius = radius;
  s.half_length = half_length;
  Body b = makeBody(ShapeKind::Cylinder, s, gid, mass, position);
  b.orientation = Quat::FromTwoVectors(Vec3::UnitZ(), axis.normalized());
  return b;
}

Body makeSpherocylinder(GlobalId gid, double radius, double half_length, double mass,
                        const Vec3& position, const Vec3& axis) {
  ShapeSize s;
  s.radius = radius;
  s.half_length = half_length;
  Body b = makeBody(ShapeKind::Spherocylinder, s, gid, mass, position);
  b.orientation = Quat::FromTwoVectors(Vec3::UnitZ(), axis.normalized());
  return b;
}

Body makeEllipsoid(GlobalId gid, const Vec3& semi_axes, double mass, const Vec3& position,
                   const Quat& orientation) {
  ShapeSize s;
  s.semi_axes = semi_axes;
  Body b = makeBody(ShapeKind::Ellipsoid, s, gid, mass, position);
  b.orientation = orientation.normalized();
  return b;
}

Body makeTorus(GlobalId gid, double major_radius, double minor_radius, double mass,
               const Vec3& position, const Quat& orientation) {
  ShapeSize s;
  s.radius = minor_radius;
  s.major_radius = major_radius;
  Body b = makeBody(ShapeKind::Torus, s, gid, mass, position);
  b.orientation = orientation.normalized();
  return b;
}

}  // namespace grains
