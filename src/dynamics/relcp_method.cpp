// relcp (Palmer et al. (2025), section 3): after each solve, the
// overlaps of the configuration the step would reach become new constraints,
// linearised there and pulled back to the start of the step (eqs. 24/26);
// earlier constraints stay, and the step re-solves until no overlap exceeds
// the tolerance.
#include "constraint_method_factories.hpp"
#include "grains/dynamics/relcp_constraints.hpp"
#include "grains/dynamics/time_stepper.hpp"
#include "grains/parallel/mpi_utils.hpp"

namespace grains {
namespace {

class RelcpConstraints : public ConstraintStrategy {
 public:
  RelcpConstraints(double overlap_tolerance, double mu)
      : overlap_tolerance_(overlap_tolerance), mu_(mu) {}

  Refinement refine(const BodyDomain& domain, const std::vector<Wall>& walls,
                    const IntermediateConfiguration& reached, double dt,
                    int solves) const override {
    Refinement out;
    double overlap = 0.0;
    const std::vector<Contact> deep =
        findOverlaps(domain, reached.bodies(), walls, mu_, overlap_tolerance_, overlap);
    out.true_overlap = overlap;
    out.found = globalSum(domain.comm(), static_cast<long>(deep.size()));
    if (out.found > 0)
      out.added = pulledBackConstraints(deep, domain.bodies(), reached, dt, solves);
    return out;
  }

 private:
  double overlap_tolerance_;
  double mu_;
};

}  // namespace

std::unique_ptr<ConstraintStrategy> makeRelcpConstraints(const StepperSettings& settings) {
  return std::make_unique<RelcpConstraints>(settings.overlap_tolerance, settings.mu);
}

}  // namespace grains
