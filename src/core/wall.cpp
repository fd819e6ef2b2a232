#include "grains/core/wall.hpp"

namespace grains {

Wall wallAt(const Wall& reference, double t) {
  if (!reference.motion.moves()) return reference;
  Wall w = reference;
  const WallPose pose = reference.motion.poseAt(t);
  w.point = pose.pivot + pose.rotation * (reference.point - reference.motion.pivot);
  w.normal = (pose.rotation * reference.normal).normalized();
  w.orientation = (pose.rotation * reference.orientation).normalized();
  w.hole_axis = (pose.rotation * reference.hole_axis).normalized();
  w.velocity = reference.motion.velocityAt(t);
  return w;
}

std::vector<Wall> wallsAt(const std::vector<Wall>& reference, double t) {
  std::vector<Wall> out;
  out.reserve(reference.size());
  for (const Wall& w : reference) out.push_back(wallAt(w, t));
  return out;
}

bool anyWallMoves(const std::vector<Wall>& walls) {
  for (const Wall& w : walls)
    if (w.motion.moves() || w.force_control.enabled()) return true;
  return false;
}

}  // namespace grains
