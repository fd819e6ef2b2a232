#pragma once
// Basic value types shared by every layer.
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>

namespace grains {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Quat = Eigen::Quaterniond;

/// Global body identifier: 64-bit, unique and permanent for the whole run.
using GlobalId = std::int64_t;

/// pi, the one definition (C++17 has no std::numbers).
inline constexpr double kPi = 3.14159265358979323846;

/// Marker used for "no body" (e.g. the static side of a wall contact).
inline constexpr GlobalId kNoBody = -1;

}  // namespace grains
