#pragma once
// An absurd step caught before it costs anything: when the contact envelope a
// step needs (bodies' speeds times dt) is not finite, or spans more than the
// whole set of bodies, every pair would become a contact candidate (n^2
// contacts, a solve that runs for minutes on garbage). The step is refused
// with the body, its speed and the cause instead (docs/reliability.md).
#include "grains/constraint/body_motion.hpp"
#include "grains/constraint/contact.hpp"
#include "grains/parallel/body_domain.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace grains {

/// Thrown on every rank with the same message; the supervisor turns it into
/// a RunFault naming the step, after undoing the step.
class ExcessiveMotion : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The speed bound TimeStepper::step sizes the envelope with: the larger of
/// the body's surface speed now and after this step's free motion.
double stepSpeedBound(const Body& body, const MotionModel& motion, double dt);

/// Collective. `reach` is the envelope the step needs: `configured_envelope`
/// or, if larger, the approach within the step of the global `max_speed`.
/// Throws ExcessiveMotion if reach is not finite, or if it is set by the
/// speeds, there are two or more bodies, and it exceeds the diagonal of their
/// bounding box (radii included). Costs nothing more in a normal step: the
/// bounding box is only reduced when reach exceeds 2 `max_radius` and the
/// configured envelope.
void checkStepReach(const BodyDomain& domain, const MotionModel& motion, double dt,
                    double max_speed, double max_radius, double reach, double configured_envelope);

/// Contacts per body (averaged over all bodies; per sub-sphere with the
/// multisphere method) beyond which a step is refused: touching bodies have
/// a few dozen at most (12 for equal spheres); hundreds mean the envelope
/// spans far more than the neighbours and the step costs n^2.
constexpr long kMaxContactsPerBody = 200;

/// Collective, after detection and before the solve: throws ExcessiveMotion
/// when all ranks' `contacts` exceed kMaxContactsPerBody times `subspheres`
/// (1 for single-shape methods) per owned body, naming the counts, the
/// `envelope` [m] and the body with the most contacts.
void checkContactCount(const BodyDomain& domain, const std::vector<Contact>& contacts,
                       double envelope, int subspheres);

}  // namespace grains
