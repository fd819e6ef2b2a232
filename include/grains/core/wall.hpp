#pragma once
// Boundaries. A box is expanded into six inward-facing planes when the
// scenario is built, so the contact code only knows planes and cylinders. A
// wall may move rigidly (wall_motion.hpp): the stepper places it at each
// step's start time with wallAt.
#include "grains/core/force_control.hpp"
#include "grains/core/types.hpp"
#include "grains/core/wall_friction.hpp"
#include "grains/core/wall_motion.hpp"

#include <memory>
#include <string>
#include <vector>

namespace grains {

class TriangleMesh;  // grains/geometry/triangle_mesh.hpp

enum class WallKind : int {
  Plane = 0,            ///< half-space {x : n.(x - p) >= 0} is free space
  CylinderInside = 1,   ///< bodies live inside the infinite cylinder
  CylinderOutside = 2,  ///< bodies live outside the infinite cylinder
  /// A thin two-sided sheet in the plane through `point` normal to `normal`:
  /// the ring inner_radius <= |x - point| <= radius (a disc for inner_radius
  /// 0, a plane with a round hole for radius infinite). Spheres only.
  Disc = 3,
  /// A thin two-sided conical band (a hopper): from the circle of `radius`
  /// about `point` to the circle of top_radius at `height` along the unit
  /// axis `normal`, both ends open. Spheres only.
  Cone = 4,
  /// A thin two-sided sheet of triangles read from a file (triangle_mesh.hpp),
  /// stored in its own frame: world x = point + orientation * x_mesh. Spheres only.
  Mesh = 5
};

/// The kind as messages name it: "plane", "cylinder, inside", "cylinder, outside".
inline const char* wallKindName(WallKind kind) {
  switch (kind) {
    case WallKind::Plane:
      return "plane";
    case WallKind::CylinderInside:
      return "cylinder, inside";
    case WallKind::CylinderOutside:
      return "cylinder, outside";
    case WallKind::Disc:
      return "disc";
    case WallKind::Cone:
      return "cone";
    case WallKind::Mesh:
      return "mesh";
  }
  return "wall";
}

struct Wall {
  WallKind kind = WallKind::Plane;
  Vec3 point = Vec3::Zero();    ///< plane: a point on it; cylinder: a point on the axis
  Vec3 normal = Vec3::UnitZ();  ///< plane: unit normal into free space; cylinder: unit axis
  double radius = 0.0;          ///< cylinder radius; disc: outer radius (may be infinite)
  double inner_radius = 0.0;    ///< disc: radius of its hole (0: none)
  /// disc: half the sides of a rectangular hole about `point` (zero: none),
  /// the first along hole_axis (a unit vector in the sheet), the second along
  /// normal x hole_axis (docs/boundaries.md#a-rectangular-orifice).
  double hole_half_length = 0.0, hole_half_width = 0.0;
  Vec3 hole_axis = Vec3::UnitX();
  bool hasRectangularHole() const { return hole_half_length > 0.0; }
  double top_radius = 0.0;  ///< cone: radius of the far rim
  double height = 0.0;      ///< cone: distance of the far rim along the axis
  std::string name;         ///< for messages and output
  /// metrics.csv reports the load of the walls sharing this name (empty: not reported).
  std::string load_name;
  /// mesh: the triangles in the mesh's frame (shared, never changed).
  std::shared_ptr<const TriangleMesh> mesh;
  /// mesh: rotation of the mesh's frame (identity at t = 0; wallAt turns it).
  Quat orientation = Quat::Identity();
  WallMotion motion;  ///< prescribed motion from the pose above at t = 0
  /// Instead of `motion`: a piston driven by a force (force_control.hpp).
  ForceControl force_control;
  /// Friction coefficients of this wall's contacts where they differ from the run's.
  WallFriction friction;
  /// The surface velocity field at the time the wall was placed (wallAt);
  /// zero for a wall that does not move.
  WallVelocity velocity;

  /// Where the pivot is at the time the wall was placed: the point wall
  /// loads take torques about.
  Vec3 pivotNow() const { return motion.moves() ? velocity.pivot : motion.pivot; }

  static Wall plane(const Vec3& point, const Vec3& normal, std::string name = "plane") {
    Wall w;
    w.kind = WallKind::Plane;
    w.point = point;
    w.normal = normal.normalized();
    w.name = std::move(name);
    return w;
  }
  static Wall disc(const Vec3& center, const Vec3& normal, double radius, double inner_radius,
                   std::string name = "disc") {
    Wall w;
    w.kind = WallKind::Disc;
    w.point = center;
    w.normal = normal.normalized();
    w.radius = radius;
    w.inner_radius = inner_radius;
    w.name = std::move(name);
    return w;
  }
  static Wall cone(const Vec3& center, const Vec3& axis, double radius, double top_radius,
                   double height, std::string name = "cone") {
    Wall w;
    w.kind = WallKind::Cone;
    w.point = center;
    w.normal = axis.normalized();
    w.radius = radius;
    w.top_radius = top_radius;
    w.height = height;
    w.name = std::move(name);
    return w;
  }
  /// Disc, cone and mesh walls are thin two-sided sheets: a body may pass
  /// them only through their holes (the tunnelling check).
  bool isSheet() const {
    return kind == WallKind::Disc || kind == WallKind::Cone || kind == WallKind::Mesh;
  }
  /// The sheets' geometry is for spheres only.
  bool spheresOnly() const { return isSheet(); }
  static Wall cylinder(const Vec3& axis_point, const Vec3& axis, double radius, bool inside,
                       std::string name = "cylinder") {
    Wall w;
    w.kind = inside ? WallKind::CylinderInside : WallKind::CylinderOutside;
    w.point = axis_point;
    w.normal = axis.normalized();
    w.radius = radius;
    w.name = std::move(name);
    return w;
  }
};

/// `reference` (its pose at t = 0) placed at time `t` with its velocity then.
Wall wallAt(const Wall& reference, double t);

/// Every wall placed at time `t`.
std::vector<Wall> wallsAt(const std::vector<Wall>& reference, double t);

/// True if any wall has a prescribed motion or is force-controlled.
bool anyWallMoves(const std::vector<Wall>& walls);

}  // namespace grains
