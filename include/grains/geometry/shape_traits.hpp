#pragma once
// The shape traits table: one row per ShapeKind with everything grains knows
// about a shape apart from its contacts (those are the pair-dispatch table in
// src/geometry/pair_dispatch.cpp): its name in config files, the size
// parameters it is made of, solid volume, principal moments of inertia,
// bounding radius, drag length, multisphere decomposition and the VTK glyph.
// A new shape is a ShapeKind value, its row in src/geometry/shape_traits.cpp,
// its rows in the pair-dispatch table and its narrow-phase file.
#include "grains/core/body.hpp"
#include "grains/geometry/multisphere.hpp"

#include <array>
#include <string>
#include <vector>

namespace grains {

/// The size of a shape: the Body fields (and config keys) of the same names;
/// a shape reads only those of its ShapeTraits::parameters.
struct ShapeSize {
  double radius = 0.0;            ///< sphere, cylinder, capsule radius; torus tube radius
  double half_length = 0.0;       ///< cylinder, capsule: half the axial length (capsule: segment)
  Vec3 semi_axes = Vec3::Zero();  ///< ellipsoid
  double major_radius = 0.0;      ///< torus: radius of the tube's centre circle
};

/// The size fields of a body.
ShapeSize shapeSize(const Body& b);

/// Bits of ShapeTraits::parameters: which ShapeSize fields a shape is made of.
enum ShapeParameter : unsigned {
  kRadiusParameter = 1u,
  kHalfLengthParameter = 2u,
  kSemiAxesParameter = 4u,
  kMajorRadiusParameter = 8u
};

/// Every ShapeParameter with its name (the Body field and the config key).
struct ShapeParameterName {
  ShapeParameter parameter;
  const char* name;
};
constexpr ShapeParameterName kShapeParameterNames[] = {{kRadiusParameter, "radius"},
                                                       {kHalfLengthParameter, "half_length"},
                                                       {kSemiAxesParameter, "semi_axes"},
                                                       {kMajorRadiusParameter, "major_radius"}};

struct ShapeTraits {
  ShapeKind kind;
  const char* name;     ///< the config value (bodies.shape, extra_bodies[].shape)
  unsigned parameters;  ///< ShapeParameter bits; a body of a shape without a radius
                        ///< parameter keeps its bounding radius in Body::radius
  bool generated;       ///< the generators make it (bodies.shape); else extra_bodies only
  double (*volume)(const ShapeSize&);
  /// Principal moments of inertia of a uniform solid of this mass, body frame.
  Vec3 (*inertia)(const ShapeSize&, double mass);
  /// Largest distance from the centre to the surface (neighbour search, spacing).
  double (*bounding_radius)(const ShapeSize&);
  /// The length l of the overdamped drag (Palmer et al. (2025) eq. 27): tip to tip.
  double (*drag_length)(const ShapeSize&);
  /// Multisphere decomposition (multisphere.hpp); nullptr: the shape has none.
  std::vector<SubSphere> (*sub_spheres)(const Body&, int count);
  /// Semi-axes of the ellipsoid glyph standing for the body in ParaView
  /// (the VTK shape_tensor); the VTK arrays semi_axes and major_radius are
  /// written for the shapes with those parameters, zero for the others.
  Vec3 (*glyph_semi_axes)(const ShapeSize&);

  bool uses(ShapeParameter p) const { return (parameters & p) != 0u; }
};

/// The row of a shape.
const ShapeTraits& shapeTraits(ShapeKind kind);
/// Every row, in ShapeKind order.
const std::array<ShapeTraits, kShapeKindCount>& allShapeTraits();

/// The config name of a shape ("sphere", "spherocylinder", ...).
const char* shapeName(ShapeKind kind);
/// Names of every shape (generated_only: of those the generators make), in
/// ShapeKind order.
std::vector<std::string> shapeNames(bool generated_only = false);
/// The shape called `name`; throws std::invalid_argument
/// "<key> = <name>: expected one of: <every name>" for an unknown name.
ShapeKind shapeKindFromName(const std::string& name, const std::string& key = "shape");
/// Names of the shapes with parameter p, joined with ", " (for messages).
std::string shapesUsing(ShapeParameter p, bool generated_only = false);

/// Largest distance from a body's centre to its surface (neighbour search).
double boundingRadius(const Body& b);

/// A body of `kind` and `size` at rest at `position` with the identity
/// orientation: the shape's parameters copied from `size` (the others zero),
/// its inertia from the table.
Body makeBody(ShapeKind kind, const ShapeSize& size, GlobalId gid, double mass,
              const Vec3& position);

/// Solid sphere of radius r and mass m.
Body makeSphere(GlobalId gid, double radius, double mass, const Vec3& position);
/// Solid cylinder of radius r, height 2h along the body z axis (world axis `axis`).
Body makeCylinder(GlobalId gid, double radius, double half_length, double mass,
                  const Vec3& position, const Vec3& axis = Vec3::UnitZ());
/// Solid spherocylinder (capsule) of radius r around a segment of length 2h
/// along the body z axis (world axis `axis`), uniform density.
Body makeSpherocylinder(GlobalId gid, double radius, double half_length, double mass,
                        const Vec3& position, const Vec3& axis = Vec3::UnitZ());
/// Solid ellipsoid with semi-axes (a, b, c) along the body x, y, z axes.
Body makeEllipsoid(GlobalId gid, const Vec3& semi_axes, double mass, const Vec3& position,
                   const Quat& orientation = Quat::Identity());
/// Solid torus (ring): centre circle of radius R in the body x-y plane, tube radius r.
Body makeTorus(GlobalId gid, double major_radius, double minor_radius, double mass,
               const Vec3& position, const Quat& orientation = Quat::Identity());

}  // namespace grains
