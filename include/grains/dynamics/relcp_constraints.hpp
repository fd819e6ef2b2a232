#pragma once
// Constraint generation of one ReLCP recursion (Palmer et al. (2025) section 3.1).
#include "grains/constraint/contact.hpp"
#include "grains/dynamics/intermediate_configuration.hpp"

#include <vector>

namespace grains {

/// Turns the overlaps found at the intermediate configuration C_i (contacts
/// whose geometry was measured on config.bodies()) into constraints of the
/// start configuration (Palmer et al. (2025) eqs. 21-22): the normal and the lever arms
/// are those at C_i (the gradient at C_i), applied to the bodies where they
/// stand at the start of the step (points shifted back by each body's
/// displacement); the gap becomes the effective one
///   phi_eff = Phi(C_i) - dt D_new^T u_i,
/// so that the re-solved LCP predicts Phi(C_i) + dt D_new^T (u_{i+1} - u_i),
/// the new constraint linearised about C_i (eq. 24's b). Keys get
/// sub = generation so the pair's earlier constraints stay distinct.
std::vector<Contact> pulledBackConstraints(const std::vector<Contact>& overlaps,
                                           const std::vector<Body>& start_bodies,
                                           const IntermediateConfiguration& config, double dt,
                                           int generation);

}  // namespace grains
