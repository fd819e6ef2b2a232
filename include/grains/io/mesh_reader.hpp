#pragma once
// Reads the triangles of a surface mesh: STL (ASCII or binary), VTK XML
// polydata (.vtp) or legacy VTK polydata (.vtk). Polygons are split into
// triangle fans and triangle strips into their triangles.
#include "grains/core/types.hpp"

#include <array>
#include <string>
#include <vector>

namespace grains {

/// The triangles of the mesh in `path`, as stored. Throws std::runtime_error
/// naming the file when it is missing, unreadable, of an unknown kind (by its
/// extension: .stl, .vtp, .vtk) or has no triangles.
std::vector<std::array<Vec3, 3>> readMeshTriangles(const std::string& path);

}  // namespace grains
