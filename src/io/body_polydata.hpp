#pragma once
// Internal: bodies -> vtkPolyData (one vertex per body) and the matching
// parallel (.pvtp) index text.
#include "grains/core/body.hpp"

#include <vtkPolyData.h>
#include <vtkSmartPointer.h>

#include <string>
#include <vector>

class vtkDataArray;

namespace grains::io_detail {

/// One point per body at its position, one vertex cell per point, point data
/// gid, rank, radius, half_length, shape, velocity, angular_velocity,
/// orientation (w,x,y,z), axis, semi_axes, major_radius, external_force,
/// shape_tensor (9 components, row-major R diag(s) R^T), contact_force,
/// contact_force_magnitude, num_contacts, length (dragLength: tip to tip for
/// spherocylinders), generation, growth_rate (docs/output.md). Empty input gives
/// an empty but complete data set (same arrays, zero tuples).
vtkSmartPointer<vtkPolyData> makeBodyPolyData(const std::vector<Body>& bodies, int rank);

/// VTK XML type name of an array ("Float64", "Int32", "Int64", ...).
std::string xmlTypeName(vtkDataArray* array);

/// Text of a PPolyData file whose arrays are those of `schema` and whose
/// pieces are `piece_sources` (paths relative to the .pvtp file).
std::string makePvtpText(vtkPolyData* schema, const std::vector<std::string>& piece_sources);

}  // namespace grains::io_detail
