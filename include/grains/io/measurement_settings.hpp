#pragma once
// The measurements a run writes beside metrics.csv (docs/measurements.md):
// coordination number, packing fraction, Love-Weber stress, contact fabric,
// coarse-grained fields on a grid, and the mass flow out of the domain.
#include "grains/core/types.hpp"

#include <array>
#include <string>
#include <vector>

namespace grains {

enum class MeasurementKind : int {
  Coordination = 0,
  PackingFraction = 1,
  Stress = 2,
  Fabric = 3,
  Grid = 4,
  MassFlow = 5
};

/// Which contacts count for coordination and fabric: those that carry a
/// force (normal impulse > 0), or also those merely touching (gap <= 0).
enum class ContactCount : int { Carrying = 0, Touching = 1 };

/// The kinetic part of the stress: none, m v v (full velocities) or
/// m v' v' with v' the velocity minus the region's (cell's) mean.
enum class KineticStress : int { None = 0, Full = 1, Fluctuating = 2 };

/// An axis-aligned box; unbounded (everything) unless given.
struct MeasurementRegion {
  bool bounded = false;
  Vec3 lower = Vec3::Zero();  ///< [m]
  Vec3 upper = Vec3::Zero();  ///< [m], > lower in every component
};

struct Measurement {
  std::string name;  ///< file names: measurements_<name>.csv / measurements_<name>.pvd
  MeasurementKind kind = MeasurementKind::Coordination;
  long every = 1;  ///< output interval [steps] (>= 1); also the final step
  MeasurementRegion region;
  /// coordination, fabric: wall contacts count too (coordination always
  /// reports them in their own column).
  bool walls = false;
  ContactCount contacts = ContactCount::Carrying;
  KineticStress kinetic = KineticStress::Fluctuating;  ///< stress, grid
  std::array<int, 3> cells = {1, 1, 1};                ///< grid: cells along x, y, z
};

struct MeasurementsSection {
  std::vector<Measurement> list;  ///< empty: nothing is measured (no cost)
};

}  // namespace grains
