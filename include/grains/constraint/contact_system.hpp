#pragma once
// Assembly of the contact QP of one time step. Inertial (Heyn et al. (2013) eqs. 4-10,
// Palmer et al. (2025) eq. 17), with gamma the contact impulse over the step [N s]:
//   u+ = u_free + W D gamma,   u_free = u + dt W F,
//   w  = A gamma + b = (gap after the step) >= 0  complementary to gamma_n >= 0,
//   A  = dt D^T W D + eps I,   b = phi_eff + dt D^T u_free  (tangent rows: no gap).
// phi_eff is the exact gap for speculative contacts (gap >= 0) and the SPOOK
// relaxed gap 4/(1+4d) * gap for overlaps (Lacoursiere (2013) eq. 21, d = tau/dt);
// eps = 4 c / (dt (1 + 4 d)) is SPOOK's compliance in gap-per-impulse units.
// Overdamped (Palmer et al. (2025) eq. 18): the same form with W the local-drag mobility,
// u_free = W F and gamma the contact force [N]; gaps enter unrelaxed.
// Constraints appended by ReLCP (Contact::generation > 0) carry an effective
// gap already (Palmer et al. (2025) eq. 24) and are never relaxed either.
#include "grains/constraint/assembly_maps.hpp"
#include "grains/constraint/body_motion.hpp"
#include "grains/constraint/contact.hpp"
#include "grains/constraint/contact_operator.hpp"
#include "grains/parallel/body_domain.hpp"
#include "grains/solver/quadratic_program.hpp"

#include <vector>

namespace grains {

struct AssemblySettings {
  double dt = 1e-3;
  FrictionModel friction = FrictionModel::Frictionless;
  /// CoulombRolling: dimensionless rolling and spinning resistance; the
  /// torque bounds are mu_r rho gamma_n and mu_s rho gamma_n with rho the
  /// contact's rolling radius (rolling_radius.hpp), i.e. mu_r gamma_n and
  /// mu_s gamma_n on the QP's angular unknowns (ContactSystem::rolling_radius).
  double rolling_friction = 0.0;
  double spinning_friction = 0.0;
  double damping_steps = 4.0;
  double compliance = 0.0;
  /// Inertial steps: SPOOK relaxes only the part of an overlap beyond this
  /// depth [m], so resting contacts are not pushed apart and back every step.
  double overlap_slop = 0.0;
  MotionModel motion;
  /// Body sums of D x on the grids of a reproducible summation (the same
  /// bits on any rank and thread count); false: ordinary sums in contact
  /// order (the same on any thread count only).
  bool reproducible = true;
  /// Also store D^T as a Tpetra CrsMatrix (ContactSystem::Dt and
  /// FactoredOperator::Dt): the row-sweep solvers (pgs, ngs) and the QP
  /// export read its rows; the operator A and the other solvers use the
  /// contact frames alone. Without it a frictional contact between two
  /// bodies takes 36 values and 36 column indices (432 bytes) less.
  bool row_matrix = true;
};

/// Row of D^T for one body and one direction d applied at contact point y on
/// a body centred at x: [d^T, ((y - x) x d)^T] (DESIGN.md sign convention; the
/// side-a body gets the negated row).
Eigen::Matrix<double, 1, 6> jacobianRow(const Vec3& direction, const Vec3& point,
                                        const Vec3& center);

/// Row of D^T for one body and an angular direction d (rolling and spinning
/// rows): [0, d^T], the body's angular velocity about d; side a negated, so
/// the row measures d . (omega_b - omega_a). The assembly passes the
/// angular direction times the rolling radius (ContactSystem::rolling_radius).
Eigen::Matrix<double, 1, 6> angularJacobianRow(const Vec3& direction);
/// Orthonormal tangents (t1, t2) with t1 x t2 = n, chosen deterministically from n.
void tangentBasis(const Vec3& normal, Vec3& t1, Vec3& t2);
/// The directions of a contact's `block` rows, in unknown order: the normal,
/// the tangents (sliding), then with rolling (block 6) the angular rows
/// about t1, t2 (rolling) and the normal (spinning).
void contactRowDirections(const Vec3& normal, int block, Vec3* directions);

struct ContactSystem {
  RCP<const Map> body_map;        ///< 6 DOFs per owned body, GIDs 6*gid + k
  RCP<const Map> constraint_map;  ///< blockSize() unknowns per owned contact
  RCP<CrsMatrix> Dt;              ///< null unless AssemblySettings::row_matrix
  RCP<MobilityOperator> mobility;
  RCP<ContactOperator> A;
  RCP<FactoredOperator> factored;
  RCP<Vector> b;
  RCP<Vector> u_free;  ///< free velocities (u, omega) of owned bodies on body_map
  QuadraticProgram qp;
  /// CoulombRolling only, per local contact: the rolling radius rho [m].
  /// The angular rows are rho d . (omega_b - omega_a), the velocity the
  /// relative rotation gives at that radius (m/s, like the other rows, so the
  /// tolerance means the same on all of them), and their unknowns the torque
  /// impulses over rho [N s], bounded by mu_r gamma_n and mu_s gamma_n.
  /// Empty for the other models.
  std::vector<double> rolling_radius;
};

/// The QP's angular unknowns from torque impulses [N m s] (divided by rho),
/// and back; no-ops without rolling rows.
void torquesToAngularUnknowns(const ContactSystem& system, Vector& gamma);
void angularUnknownsToTorques(const ContactSystem& system, Vector& gamma);

/// Collective. `maps` (optional) carries the body maps and the ghost Import
/// plan from one assembly to the next (AssemblyMaps); without it they are
/// built for this call alone.
ContactSystem assembleContactSystem(const BodyDomain& domain, const std::vector<Contact>& contacts,
                                    const AssemblySettings& settings, AssemblyMaps* maps = nullptr);

/// Generalized impulse D gamma on the owned bodies (ghost contributions summed
/// in), as a body_map vector.
RCP<Vector> bodyImpulses(const ContactSystem& system, const Vector& gamma);

}  // namespace grains
