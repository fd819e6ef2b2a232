#pragma once
// Walls as surfaces for ParaView (dir/walls.vtp, docs/visualisation.md).
// Planes and cylinders are infinite in the model; drawn, they cover the
// region the bodies occupy: a plane as the quad over the projection of the
// bodies' bounding box onto it, a cylinder as an open tube over the box's
// extent along its axis, both grown by a margin of 10 % of the box
// diagonal. Discs are drawn as their rings (without a rim: over the box),
// cones as their bands.
#include "grains/core/wall.hpp"

#include <vtkPolyData.h>
#include <vtkSmartPointer.h>

#include <string>
#include <vector>

namespace grains {

/// Cell data: wall (index into `walls`), kind (0 plane, 1 inside of a
/// cylinder, 2 outside, 3 disc, 4 cone). `lo`, `hi`: the bodies' bounding box.
vtkSmartPointer<vtkPolyData> makeWallPolyData(const std::vector<Wall>& walls, const Vec3& lo,
                                              const Vec3& hi, int cylinder_segments = 64);

/// makeWallPolyData of the walls at their pose at t = 0 (`reference`), each
/// moved to its pose at `time` (so a turning drum's tube turns), with point
/// data `velocity`: the surface velocity there [m/s]. `placed` (optional,
/// one per wall): the walls as the run placed them at `time`, which adds
/// what the prescribed motion does not know (a force-controlled wall's
/// displacement and velocity).
vtkSmartPointer<vtkPolyData> makeMovedWallPolyData(const std::vector<Wall>& reference, double time,
                                                   const Vec3& lo, const Vec3& hi,
                                                   int cylinder_segments = 64,
                                                   const std::vector<Wall>* placed = nullptr);

/// Writes makeWallPolyData(...) to `path` (XML PolyData, one process).
/// Throws std::runtime_error if VTK cannot write it.
void writeWallGeometry(const std::string& path, const std::vector<Wall>& walls, const Vec3& lo,
                       const Vec3& hi);

}  // namespace grains
