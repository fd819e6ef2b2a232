#pragma once
// The contact Jacobian stored as what it is made of: per contact its frame
// (the normal, and the two tangents with friction) and the lever arms from
// the two body centres to the contact points. A row's block on a body is
// +-[t, r x t]; storing t and r instead of the 6-entry blocks of both
// orientations moves 15 doubles per frictional contact through D^T w instead
// of 36. D^T w runs over contacts with the contact-point velocities
// u + w x r; D x first forms each contact's force f (in contact order), then
// sums +-f and the torques r x f per body over an incidence list in contact
// key order (local_jacobian.hpp: the sums do not depend on threads and
// ranks). All passes are OpenMP-parallel without atomics.
#include "grains/constraint/local_jacobian.hpp"

#include <cstddef>
#include <vector>

namespace grains {

class ContactFrameJacobian final : public LocalJacobian {
 public:
  ContactFrameJacobian() = default;
  /// `rows_per_contact` (1: normal only, 3: normal and two tangents, 6: also
  /// the angular rows about t1, t2 and the normal for rolling and spinning
  /// resistance, which act on the angular velocities alone) rows per
  /// contact, contact c owning rows [c * rows_per_contact, (c+1) *
  /// rows_per_contact). `bodies` holds 2 column bodies per contact (a, b;
  /// a = -1 for a wall), the row of body b entering with +, a with -.
  /// `frames` holds first the rows' directions of every contact (3 doubles
  /// per row, contact after contact), then the arms r_a and r_b of every
  /// contact (contact point minus body centre, 3 each): D x reads the
  /// directions alone, and interleaved arms would ride along in its cache
  /// lines.
  /// `keys` holds each contact's key: a body's terms add in key order.
  ContactFrameJacobian(int rows_per_contact, std::vector<int> bodies, std::vector<double> frames,
                       std::size_t column_bodies, std::vector<ContactKey> keys);

  /// The doubles per contact in `frames`: 3 per row plus the two arms.
  static int frameStride(int rows_per_contact) { return 3 * rows_per_contact + 6; }
  /// Where contact c's first direction and its arm r_a (then r_b) sit in
  /// the `frames` of `contacts` contacts.
  static std::size_t directionsAt(int rows_per_contact, std::size_t c) {
    return 3 * static_cast<std::size_t>(rows_per_contact) * c;
  }
  static std::size_t armsAt(int rows_per_contact, std::size_t contacts, std::size_t c) {
    return 3 * static_cast<std::size_t>(rows_per_contact) * contacts + 6 * c;
  }

  std::size_t rows() const override { return contacts() * static_cast<std::size_t>(block_); }
  std::size_t columnBodies() const override {
    return body_start_.empty() ? 0 : body_start_.size() - 1;
  }
  std::size_t contacts() const { return bodies_.size() / 2; }

  /// Each contact's force (and torque) on body b, from the row impulses x.
  void formForces(const double* x) const override;
  void appendIncidences(std::size_t body,
                        std::vector<std::pair<ContactKey, int>>& out) const override;
  void incidenceTerms(const std::vector<int>& slots, double* terms) const override;
  void sumInOrder(const BodySumOrder& order, const double* received, double* v) const override;
  void multiplyD(const double* x, double* v) const override;
  void multiplyWD(const double* x, const std::vector<BodyMobility>& mobility,
                  double* v) const override;
  void multiplyDt(const double* w, double alpha, const double* x, double reg, double beta,
                  double* y) const override;
  /// The frames and body indices (D^T), the incidences with their arms and
  /// the directions once more (D), the vectors, the mobilities.
  std::size_t bytesPerNormalProduct(std::size_t mobility_bodies) const override;

 private:
  /// Doubles per contact in force_: the force, and with rolling the torque.
  int forceStride() const { return block_ == 6 ? 6 : 3; }
  /// The 6 terms of incidence `slot` (after formForces).
  void termOf(int slot, double term[6]) const;
  /// The 6 entries of (D x) for column body b, from force_.
  void gatherBody(std::size_t b, double sum[6]) const;

  int block_ = 1;
  std::vector<int> bodies_;       // 2 per contact
  std::vector<ContactKey> keys_;  // 1 per contact
  std::vector<double> frames_;    // directions, then arms (frameStride(block_) per contact)
  // Body orientation: incidences of body k at [body_start_[k], body_start_[k+1])
  // in key order, each 2 * contact + side (side 1: body b), with that body's arm.
  std::vector<int> body_start_;
  std::vector<int> incidence_;
  std::vector<double> incidence_arm_;  // 3 per incidence
  // Work space of the D products: forceStride() per contact, sized once (the solvers
  // apply A hundreds of times per step; one product at a time).
  mutable std::vector<double> force_;
};

}  // namespace grains
