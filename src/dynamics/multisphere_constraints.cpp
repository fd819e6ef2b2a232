// multisphere (LCP-MS, Palmer et al. (2025), section 2.5): every
// non-spherical body is a union of sub-spheres fixed in its frame, and each
// pair of sub-spheres within the envelope (or the buffer) is a constraint.
#include "constraint_method_factories.hpp"
#include "grains/constraint/multisphere_detection.hpp"
#include "grains/core/parallel_loops.hpp"
#include "grains/dynamics/time_stepper.hpp"
#include "grains/geometry/multisphere.hpp"

#include <limits>

namespace grains {
namespace {

class MultisphereConstraints : public ConstraintStrategy {
 public:
  MultisphereConstraints(MultisphereSettings spheres, double mu) : spheres_(spheres), mu_(mu) {}

  // The buffer reaches up to buffer x 2 sub-sphere radii (each at most the
  // bounding radius) beyond the sub-spheres.
  double extraHaloReach(double max_radius) const override {
    return 2.0 * spheres_.buffer * max_radius;
  }

  std::vector<Contact> generate(const BodyDomain& domain, const std::vector<Wall>& walls,
                                const DetectionSettings& detection,
                                DetectionTimes* times) const override {
    return detectMultisphereContacts(domain, walls, detection, spheres_, times);
  }

  // No constraints are added; what the sub-spheres miss of the true
  // surfaces is measured.
  Refinement refine(const BodyDomain& domain, const std::vector<Wall>& walls,
                    const IntermediateConfiguration& reached, double dt,
                    int solves) const override {
    (void)dt, (void)solves;
    Refinement out;
    double overlap = 0.0;
    findOverlaps(domain, reached.bodies(), walls, mu_, std::numeric_limits<double>::infinity(),
                 overlap);
    out.true_overlap = overlap;
    return out;
  }

  std::vector<double> constraintGaps(const std::vector<Contact>& contacts,
                                     const std::vector<Body>& moved,
                                     const std::vector<Wall>& walls) const override {
    // Sub-spheres are fixed in the body frame: one list per body and step.
    std::vector<std::vector<SubSphere>> spheres(moved.size());
    parallelFor(spheres.size(),
                [&](std::size_t i) { spheres[i] = subSpheres(moved[i], spheres_.count); });
    std::vector<double> gaps(contacts.size());
    parallelFor(contacts.size(), [&](std::size_t ci) {
      const Contact& c = contacts[ci];
      const auto ib = static_cast<std::size_t>(c.body_b);
      if (c.isWall()) {
        gaps[ci] = multisphereGap(c, nullptr, nullptr, moved[ib], spheres[ib], walls);
      } else {
        const auto ia = static_cast<std::size_t>(c.body_a);
        gaps[ci] = multisphereGap(c, &moved[ia], &spheres[ia], moved[ib], spheres[ib], walls);
      }
    });
    return gaps;
  }

 private:
  MultisphereSettings spheres_;
  double mu_;
};

}  // namespace

std::unique_ptr<ConstraintStrategy> makeMultisphereConstraints(const StepperSettings& settings) {
  return std::make_unique<MultisphereConstraints>(
      MultisphereSettings{settings.subspheres, settings.subsphere_buffer}, settings.mu);
}

}  // namespace grains
