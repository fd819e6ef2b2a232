#pragma once
// Static boundaries. A box is expanded into six inward-facing planes when the
// scenario is built, so the contact code only knows planes and cylinders.
#include "grains/core/types.hpp"

#include <string>

namespace grains {

enum class WallKind : int {
  Plane = 0,           ///< half-space {x : n.(x - p) >= 0} is free space
  CylinderInside = 1,  ///< bodies live inside the infinite cylinder
  CylinderOutside = 2  ///< bodies live outside the infinite cylinder
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
  }
  return "wall";
}

struct Wall {
  WallKind kind = WallKind::Plane;
  Vec3 point = Vec3::Zero();    ///< plane: a point on it; cylinder: a point on the axis
  Vec3 normal = Vec3::UnitZ();  ///< plane: unit normal into free space; cylinder: unit axis
  double radius = 0.0;          ///< cylinder radius
  std::string name;             ///< for messages and output

  static Wall plane(const Vec3& point, const Vec3& normal, std::string name = "plane") {
    Wall w;
    w.kind = WallKind::Plane;
    w.point = point;
    w.normal = normal.normalized();
    w.name = std::move(name);
    return w;
  }
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

}  // namespace grains
