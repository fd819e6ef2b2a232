#pragma once
// De Saxcé's fixed point on one step's contact QP (grains/solver/sliding_lift.hpp):
// sliding contacts keep touching instead of separating at mu times their
// slip, as the cone complementarity relaxation has them do. Each pass shifts
// the normal rows of b by the lift of an iterate's tangential rows; the
// step's solves run on the shifted QP, each warm-started from the last.
#include "grains/solver/quadratic_program.hpp"

#include <vector>

namespace grains {

class SlidingLiftCorrection {
 public:
  /// Remembers qp.b as the unshifted right-hand side.
  explicit SlidingLiftCorrection(QuadraticProgram& qp);

  /// Proposes as each contact's shift the lift of the tangential rows of
  /// image + b at gamma (image = A gamma). With `loaded_only` a contact whose
  /// gamma_n is not positive gets no shift: a warm start's slip at a contact
  /// that carried nothing is the free motion's, and shifting by it would let
  /// the contact close that far. Slips count beyond `dead_zone` only
  /// (slidingLift), so that the error a solve leaves at a sticking contact
  /// does not shift it. Returns the largest change of a shift against the
  /// accepted ones, over all ranks (collective) [m].
  double propose(const Vector& gamma, const Vector& image, bool loaded_only, double dead_zone);
  /// Sets qp.b to the unshifted b plus the proposed shifts in the normal rows.
  void accept();

 private:
  QuadraticProgram& qp_;
  RCP<const Vector> unshifted_;
  std::vector<double> shifts_;
  std::vector<double> proposed_;
};

}  // namespace grains
