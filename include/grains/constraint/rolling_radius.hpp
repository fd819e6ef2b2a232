#pragma once
// The effective rolling radius rho of a contact: the lever arm that turns the
// dimensionless rolling and spinning coefficients into torque bounds
// mu_r rho N and mu_s rho N (Tasora & Anitescu 2013 use the same product).
#include "grains/core/body.hpp"
#include "grains/geometry/contact_geometry.hpp"

namespace grains {

/// One body's radius at a contact point: a sphere's radius; for every other
/// shape the distance from the body's centre to the contact point (the
/// bounding radius at a cap or tip, the local extent elsewhere), the arm its
/// contact torque acts through.
double bodyRollingRadius(const Body& body, const Vec3& contact_point);

/// Two bodies: the reduced radius rho_a rho_b / (rho_a + rho_b) (the radius
/// of relative rolling; for two equal spheres r / 2). Against a wall
/// (`a` null): the body's own radius.
double contactRollingRadius(const Body* a, const Body& b, const ContactGeometry& geometry);

}  // namespace grains
