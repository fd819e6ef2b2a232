#pragma once
// The part of a time step that depends on the constraint method
// (constraint_method.hpp): which constraints the step starts with, which it
// adds after a solve, and how far the constraints are violated at the end.
// TimeStepper::step calls these in this order:
//   haloReach -> generate -> solve -> (refine -> re-solve)* -> constraintGaps.
#include "grains/constraint/contact.hpp"
#include "grains/constraint/contact_detection.hpp"
#include "grains/core/wall.hpp"
#include "grains/dynamics/intermediate_configuration.hpp"
#include "grains/parallel/body_domain.hpp"

#include <optional>
#include <vector>

namespace grains {

/// What a refinement found after a solve.
struct Refinement {
  /// This rank's constraints to append before the next solve.
  std::vector<Contact> added;
  /// Constraints appended on all ranks; 0 ends the step's solves.
  long found = 0;
  /// Largest overlap of the true surfaces over all pairs at the reached
  /// configuration [m] (all ranks); empty when the constrained pairs are all
  /// the pairs, so that the constraints' own overlap measures it.
  std::optional<double> true_overlap;
};

class ConstraintStrategy {
 public:
  virtual ~ConstraintStrategy() = default;

  /// Halo distance the method needs beyond two bounding radii and the
  /// detection reach [m], given the largest bounding radius of all bodies.
  virtual double extraHaloReach(double max_radius) const {
    (void)max_radius;
    return 0.0;
  }
  /// This rank's constraints at the start of the step (collective).
  virtual std::vector<Contact> generate(const BodyDomain& domain, const std::vector<Wall>& walls,
                                        const DetectionSettings& detection,
                                        DetectionTimes* times) const;
  /// Collective, after each solve: the constraints to add, found at the
  /// configuration `reached` the solve's velocities lead to. `solves` counts
  /// the step's solves so far (>= 1).
  virtual Refinement refine(const BodyDomain& domain, const std::vector<Wall>& walls,
                            const IntermediateConfiguration& reached, double dt, int solves) const;
  /// Gap of each constraint at the end of the step [m] (negative: overlap),
  /// measured on `moved`, the bodies (owned and ghosts) where the step left them.
  virtual std::vector<double> constraintGaps(const std::vector<Contact>& contacts,
                                             const std::vector<Body>& moved,
                                             const std::vector<Wall>& walls) const;
};

/// Collective: this rank's overlaps deeper than `tolerance` among `bodies`
/// (owned then ghosts, domain layout) and, via `max_overlap`, the largest
/// overlap of any pair on any rank (>= 0).
std::vector<Contact> findOverlaps(const BodyDomain& domain, const std::vector<Body>& bodies,
                                  const std::vector<Wall>& walls, double mu, double tolerance,
                                  double& max_overlap);

}  // namespace grains
