#pragma once
// The volume of a sphere inside an axis-aligned box, for packing fractions of
// regions that cut through spheres (docs/measurements.md).
#include "grains/core/types.hpp"

namespace grains {

/// Area of the disc of radius `rho` about the origin inside the rectangle
/// [x0, x1] x [y0, y1] (exact, from the antiderivative of the chord length).
double discRectangleArea(double rho, double x0, double x1, double y0, double y1);

/// Volume of the sphere (centre, radius) inside the box [lower, upper]:
/// the disc-rectangle area of each slice integrated over z by Gauss-Legendre
/// quadrature, split where a slice's circle meets an edge or a corner of the
/// box (relative error below 1e-10). A sphere wholly inside gives its full
/// volume exactly, one wholly outside 0.
double sphereBoxVolume(const Vec3& center, double radius, const Vec3& lower, const Vec3& upper);

}  // namespace grains
