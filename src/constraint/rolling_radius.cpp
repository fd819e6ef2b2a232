#include "grains/constraint/rolling_radius.hpp"

namespace grains {

double bodyRollingRadius(const Body& body, const Vec3& contact_point) {
  if (body.shape == ShapeKind::Sphere) return body.radius;
  return (contact_point - body.position).norm();
}

double contactRollingRadius(const Body* a, const Body& b, const ContactGeometry& geometry) {
  const double rho_b = bodyRollingRadius(b, geometry.point_b);
  if (a == nullptr) return rho_b;
  const double rho_a = bodyRollingRadius(*a, geometry.point_a);
  const double sum = rho_a + rho_b;
  return sum > 0.0 ? rho_a * rho_b / sum : 0.0;
}

}  // namespace grains
