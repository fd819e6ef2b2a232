#pragma once
// This rank's part of the contact Jacobian as the operator's OpenMP kernels
// see it: products with D (rows to column bodies) and D^T (column bodies to
// rows). Bodies are numbered as the column map of the assembled D^T (owned
// first, then ghosts), so column-map vectors are 6 doubles per body (u_x ..
// w_z); rows are numbered as the constraint map.
//
// A body's entries of D x add its contacts' terms (force, torque) in the
// order of their contact keys, one after the other from zero: that order
// does not depend on threads, ranks or how the contacts are stored, so
// neither does the sum. On several ranks the terms of contacts another rank
// holds travel to the body's owner one by one (GhostTermExchange), where
// they take their place in the same order.
#include "grains/constraint/contact.hpp"
#include "grains/solver/quadratic_program.hpp"

#include <cstddef>
#include <utility>
#include <vector>

namespace grains {

/// The order in which each owned body's sum takes its terms: codes >= 0
/// are this rank's incidence slots, code -(k + 1) is the k-th received term.
struct BodySumOrder {
  std::vector<int> start;  ///< per owned body, into code (one more entry)
  std::vector<int> code;
};

class LocalJacobian {
 public:
  virtual ~LocalJacobian() = default;

  virtual std::size_t rows() const = 0;
  virtual std::size_t columnBodies() const = 0;

  /// Forms the contacts' forces (and torques) from the row impulses x: the
  /// terms the body sums of D x take.
  virtual void formForces(const double* x) const = 0;
  /// Appends column body `body`'s incidences, (contact key, slot), in key order.
  virtual void appendIncidences(std::size_t body,
                                std::vector<std::pair<ContactKey, int>>& out) const = 0;
  /// After formForces: the 6 terms (force, torque) of each incidence slot.
  virtual void incidenceTerms(const std::vector<int>& slots, double* terms) const = 0;
  /// After formForces: v (6 per body) for the bodies of `order`, each the
  /// sum of its terms in that order (`received`: 6 per received term).
  virtual void sumInOrder(const BodySumOrder& order, const double* received, double* v) const = 0;
  /// v = D x on one rank: v has 6 entries per column body, x one per row.
  virtual void multiplyD(const double* x, double* v) const = 0;
  /// v_k = W_k (D x)_k for the first bodies (owned, with W given per body);
  /// for the single-rank case, where no ghost sums have to be exchanged in
  /// between, the mobility is applied in the same pass.
  virtual void multiplyWD(const double* x, const std::vector<BodyMobility>& mobility,
                          double* v) const = 0;
  /// y = alpha * (D^T w) + reg * x + beta * y (x may be null when reg = 0).
  virtual void multiplyDt(const double* w, double alpha, const double* x, double reg, double beta,
                          double* y) const = 0;

  /// Bytes a D x, W, D^T w pass reads and writes at least (the kernels' own
  /// data, the vectors and `mobility_bodies` mobilities once each): the
  /// traffic model the operator benchmark divides by.
  virtual std::size_t bytesPerNormalProduct(std::size_t mobility_bodies) const = 0;
};

}  // namespace grains
