#pragma once
// The lift of a sliding contact under the cone complementarity relaxation.
// The contact QP's optimality conditions, K ∋ gamma ⊥ w = A gamma + b ∈ K*
// (Anitescu (2006), eq. 9), put the gap after the step of a contact that
// slides with tangential rows w_t at w_n = h_K(w_t) instead of 0: the bodies
// separate at mu times their slip. Coulomb's law with Signorini's condition
// is the fixed point of the same QP with every normal row of b shifted by
// s = h_K(w_t) of the solution (de Saxcé's change of variable; Acary et al.
// (2011), section 3): the shifted conditions read w_n = 0 for a contact that
// carries an impulse and w_n >= 0 for one that does not.
#include "grains/solver/cone_set.hpp"

#include <cstddef>

namespace grains {

/// Whether the model's tangential bound scales with the contact's own normal
/// unknown (coulomb, pyramid, coulomb_rolling): only then does the
/// relaxation lift a sliding contact.
bool liftsWhenSliding(FrictionModel model);

/// h_K(w_t) for one contact: the largest -(gamma_t . w_t) over the contact's
/// friction set at unit normal unknown, w its blockSize() rows of A gamma + b
/// (w[0], the normal row, is not read). Coulomb: mu |(w_u, w_w)|; pyramid:
/// mu (|w_u| + |w_w|); coulomb_rolling adds rolling |(w_r1, w_r2)| +
/// spinning |w_s|; 0 for the other models. Each slip magnitude counts only
/// beyond `dead_zone` (>= 0): a slip a solver leaves within its tolerance at
/// a sticking contact lifts nothing.
double slidingLift(const ConeSet& cones, std::size_t contact, const double* w,
                   double dead_zone = 0.0);

}  // namespace grains
