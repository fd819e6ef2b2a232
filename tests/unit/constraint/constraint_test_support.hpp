#pragma once
// Shared by the constraint tests: a small scene whose contacts exercise
// every column block of D^T.
#include "grains/parallel/body_domain.hpp"

#include <Tpetra_Core.hpp>

#include <random>
#include <vector>

namespace grains::test {

/// Three spheres in a loose chain over a floor, with random velocities,
/// orientations and anisotropic inertia (to test the world-frame tensor).
inline BodyDomain smallDomain(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Body> bodies{makeSphere(0, 0.1, 2.0, Vec3(0, 0, 0.1)),
                           makeSphere(1, 0.12, 3.0, Vec3(0.15, 0.1, 0.2)),
                           makeSphere(2, 0.08, 1.0, Vec3(0.2, 0.25, 0.3))};
  for (auto& b : bodies) {
    b.velocity = Vec3(u(rng), u(rng), u(rng));
    b.angular_velocity = Vec3(u(rng), u(rng), u(rng));
    b.orientation = Quat(Eigen::AngleAxisd(u(rng), Vec3(u(rng), u(rng), 1).normalized()));
    b.inertia = Vec3(0.01, 0.02, 0.03) * b.mass;
  }
  return BodyDomain(Tpetra::getDefaultComm(), bodies);
}

}  // namespace grains::test
