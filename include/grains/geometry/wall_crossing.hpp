#pragma once
// Thin walls (discs, annuli, floors with an orifice, cone bands, triangle
// meshes) are sheets a
// body may pass only through their holes: a centre that goes from one side
// of the sheet to the other across the sheet itself within one step has
// tunnelled (its step was too long for the contact to catch it).
#include "grains/core/wall.hpp"

namespace grains {

/// True if the straight path from `from` to `to` crosses the sheet of a thin
/// wall (Disc, Cone, Mesh) at a point of the sheet; false for other kinds (a
/// half-space or a cylinder is not passed through: the penetration checks
/// catch a body behind it).
bool pathCrossesThinWall(const Wall& wall, const Vec3& from, const Vec3& to);

}  // namespace grains
