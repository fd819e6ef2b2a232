// The walls a time step sees (TimeStepper members): where moving and
// force-controlled walls are, how fast they move against the bodies, the
// loads the bodies put on them, and the force-controlled walls' motion under
// those loads.
#include "grains/dynamics/time_stepper.hpp"

#include "grains/linalg/binned_reproducible_sums.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace grains {

std::vector<WallLoad> TimeStepper::globalWallLoads(const Comm& comm,
                                                   const std::vector<Contact>& contacts,
                                                   int block) const {
  const double per_force = settings_.assembly.motion.overdamped ? 1.0 : settings_.assembly.dt;
  // Summed reproducibly, every wall in one pass (a bin per wall): the loads
  // are the same bits on any rank count.
  const std::vector<WallLoadTerm> terms =
      wallLoadTerms(contacts, last_impulses_, block, step_walls_, per_force);
  const std::vector<double> sums = binnedReproducibleSums(
      comm, static_cast<long long>(terms.size()), static_cast<int>(step_walls_.size()), 6,
      [&](long long i) { return terms[static_cast<std::size_t>(i)].wall; },
      [&](long long i, double* out) {
        const WallLoad& load = terms[static_cast<std::size_t>(i)].load;
        for (int k = 0; k < 3; ++k) {
          out[k] = load.force[k];
          out[3 + k] = load.torque[k];
        }
      });
  std::vector<WallLoad> loads(step_walls_.size());
  for (std::size_t w = 0; w < loads.size(); ++w) {
    const double* sum = sums.data() + 6 * w;
    loads[w].force = Vec3(sum[0], sum[1], sum[2]);
    loads[w].torque = Vec3(sum[3], sum[4], sum[5]);
  }
  return loads;
}

std::vector<Wall> TimeStepper::placedWalls(double t) const {
  std::vector<Wall> walls = wallsAt(walls_, t);
  placeForceControlled(walls, 0.0);
  return walls;
}

void TimeStepper::setForceControlStates(std::vector<ForceControlState> states) {
  if (states.size() != walls_.size())
    throw std::invalid_argument("TimeStepper: " + std::to_string(states.size()) +
                                " force-control states for " + std::to_string(walls_.size()) +
                                " walls");
  force_control_ = std::move(states);
}

void TimeStepper::placeForceControlled(std::vector<Wall>& walls, double ahead) const {
  if (!force_controlled_) return;
  for (std::size_t w = 0; w < walls.size(); ++w) {
    if (!walls_[w].force_control.enabled()) continue;
    const ForceControlState& s = force_control_[w];
    const Vec3 n = walls_[w].normal;
    const Vec3 shift = (s.displacement + ahead * s.velocity) * n;
    walls[w].point += shift;
    walls[w].velocity.pivot = walls_[w].motion.pivot + shift;
    walls[w].velocity.linear = s.velocity * n + walls_[w].force_control.velocity;
    walls[w].velocity.angular = Vec3::Zero();
  }
}

void TimeStepper::advanceForceControlled(const std::vector<WallLoad>& loads, double dt) {
  // Symplectic Euler: the wall moved with the velocity its contacts saw this
  // step; the step's load then changes that velocity.
  for (std::size_t w = 0; w < walls_.size(); ++w) {
    const ForceControl& f = walls_[w].force_control;
    if (!f.enabled()) continue;
    const Vec3 n = walls_[w].normal;
    Vec3 force = f.force + loads[w].force;
    if (f.gravity) force += f.mass * settings_.assembly.motion.gravity;
    ForceControlState& s = force_control_[w];
    s.displacement += dt * s.velocity;
    s.velocity += dt * n.dot(force) / f.mass;
  }
}

double TimeStepper::maxWallSpeed(const BodyDomain& domain) const {
  double fastest = 0.0;
  for (const Wall& w : step_walls_) {
    if (w.velocity.isZero()) continue;
    for (std::size_t i = 0; i < domain.numOwned(); ++i) {
      const Body& b = domain.bodies()[i];
      const double body = b.velocity.norm() + b.angular_velocity.norm() * boundingRadius(b);
      const double wall =
          w.velocity.at(b.position).norm() + w.velocity.angular.norm() * boundingRadius(b);
      fastest = std::max(fastest, 0.5 * (body + wall));
    }
  }
  return fastest;
}

}  // namespace grains
