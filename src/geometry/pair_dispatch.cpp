// The pair-dispatch table: which narrow-phase routine computes the contact of
// two bodies, or of a wall and a body, by their shapes. A pair listed as
// (a, b) serves (b, a) too, flipped; pairs in neither order are unsupported.
#include "grains/geometry/contact_geometry.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

namespace grains {
namespace {

using PairRoutine = ContactGeometry (*)(const Body& a, const Body& b);
using WallRoutine = ContactGeometry (*)(const Wall& wall, const Body& b);

struct PairRow {
  ShapeKind a, b;
  PairRoutine routine;  ///< normal from a to b
};

struct WallRow {
  ShapeKind shape;
  WallRoutine routine;  ///< wall on side a
};

ContactGeometry sphereWithSphere(const Body& a, const Body& b) {
  return sphereSphere(a.position, a.radius, b.position, b.radius);
}
ContactGeometry cylinderWithSphere(const Body& a, const Body& b) {
  return cylinderSphere(a, b.position, b.radius);
}
ContactGeometry capsuleWithSphere(const Body& a, const Body& b) {
  return spherocylinderSphere(a, b.position, b.radius);
}
ContactGeometry ellipsoidWithSphere(const Body& a, const Body& b) {
  return ellipsoidSphere(a, b.position, b.radius);
}
ContactGeometry torusWithSphere(const Body& a, const Body& b) {
  return torusSphere(a, b.position, b.radius);
}
ContactGeometry wallWithSphere(const Wall& wall, const Body& b) {
  return wallSphere(wall, b.position, b.radius);
}

constexpr PairRow kPairRows[] = {
    {ShapeKind::Sphere, ShapeKind::Sphere, sphereWithSphere},
    {ShapeKind::Cylinder, ShapeKind::Sphere, cylinderWithSphere},
    {ShapeKind::Spherocylinder, ShapeKind::Sphere, capsuleWithSphere},
    {ShapeKind::Spherocylinder, ShapeKind::Spherocylinder, spherocylinderPair},
    {ShapeKind::Ellipsoid, ShapeKind::Sphere, ellipsoidWithSphere},
    {ShapeKind::Ellipsoid, ShapeKind::Spherocylinder, ellipsoidSpherocylinder},
    {ShapeKind::Ellipsoid, ShapeKind::Ellipsoid, ellipsoidPair},
    {ShapeKind::Torus, ShapeKind::Sphere, torusWithSphere},
    {ShapeKind::Torus, ShapeKind::Spherocylinder, torusSpherocylinder},
    {ShapeKind::Torus, ShapeKind::Ellipsoid, torusEllipsoid},
    {ShapeKind::Torus, ShapeKind::Torus, torusPair},
};

constexpr WallRow kWallRows[] = {
    {ShapeKind::Sphere, wallWithSphere},
    {ShapeKind::Cylinder, wallCylinder},
    {ShapeKind::Spherocylinder, wallSpherocylinder},
    {ShapeKind::Ellipsoid, wallEllipsoid},
    {ShapeKind::Torus, wallTorus},
};

/// One cell per ordered pair of shapes: the routine and whether its result
/// is flipped (the row lists the pair the other way round).
struct PairCell {
  PairRoutine routine = nullptr;
  bool flip = false;
};
using PairMatrix = std::array<std::array<PairCell, kShapeKindCount>, kShapeKindCount>;

constexpr std::size_t index(ShapeKind k) { return static_cast<std::size_t>(k); }

constexpr PairMatrix pairMatrix() {
  PairMatrix m{};
  for (const PairRow& row : kPairRows) {
    m[index(row.b)][index(row.a)] = PairCell{row.routine, true};
  }
  // Direct entries last: a same-shape pair is never flipped.
  for (const PairRow& row : kPairRows) {
    m[index(row.a)][index(row.b)] = PairCell{row.routine, false};
  }
  return m;
}

constexpr std::array<WallRoutine, kShapeKindCount> wallColumn() {
  std::array<WallRoutine, kShapeKindCount> column{};
  for (const WallRow& row : kWallRows) column[index(row.shape)] = row.routine;
  return column;
}

constexpr PairMatrix kPairs = pairMatrix();
constexpr std::array<WallRoutine, kShapeKindCount> kWalls = wallColumn();

const PairCell& cellOf(ShapeKind a, ShapeKind b) {
  if (index(a) >= kShapeKindCount || index(b) >= kShapeKindCount) {
    throw std::logic_error("pair dispatch: no ShapeKind " +
                           std::to_string(std::max(index(a), index(b))));
  }
  return kPairs[index(a)][index(b)];
}

}  // namespace

bool supportsPair(ShapeKind a, ShapeKind b) { return cellOf(a, b).routine != nullptr; }

ContactGeometry bodyBody(const Body& a, const Body& b) {
  const PairCell& cell = cellOf(a.shape, b.shape);
  if (cell.routine == nullptr) {
    throw std::invalid_argument(std::string("contact between a ") + shapeName(a.shape) +
                                " body and a " + shapeName(b.shape) + " body (gids " +
                                std::to_string(a.gid) + " and " + std::to_string(b.gid) +
                                ") is not supported");
  }
  return cell.flip ? flipped(cell.routine(b, a)) : cell.routine(a, b);
}

ContactGeometry wallBody(const Wall& wall, const Body& b) {
  const WallRoutine routine = index(b.shape) < kShapeKindCount ? kWalls[index(b.shape)] : nullptr;
  if (routine == nullptr) {
    throw std::logic_error("wall dispatch: no routine for ShapeKind " +
                           std::to_string(index(b.shape)));
  }
  if (wall.spheresOnly() && b.shape != ShapeKind::Sphere) {
    const std::string kind = wallKindName(wall.kind);
    throw std::invalid_argument("wall '" + wall.name + "' (" + kind + ") against " +
                                shapeName(b.shape) + " body " + std::to_string(b.gid) + ": " +
                                kind + " walls meet spheres only");
  }
  return routine(wall, b);
}

}  // namespace grains
