#pragma once
// The reduced Hessian of an active-set method applied to full-length vectors:
//   y = alpha * Z Z^T A Z Z^T x + beta * y,
// Z the columns of the identity of the free unknowns (Heyn et al. (2013) §4.2,
// A_k = Z_k^T N Z_k of eq. (19)). Multiplying by Z Z^T zeroes the active
// entries, so a Krylov solver started from a masked right-hand side stays in
// the free subspace without ever building the reduced vectors. Internal to src/solver.
#include "grains/linalg/tpetra_types.hpp"

#include <vector>

namespace grains::solver_detail {

class RestrictedOperator final : public Operator {
 public:
  /// `free_set` (one entry per local row, nonzero = free) is read at every apply;
  /// the caller may change it between applies and must keep it alive.
  RestrictedOperator(RCP<const Operator> A, const std::vector<char>& free_set);

  RCP<const Map> getDomainMap() const override { return A_->getDomainMap(); }
  RCP<const Map> getRangeMap() const override { return A_->getRangeMap(); }
  void apply(const MultiVector& X, MultiVector& Y, Teuchos::ETransp mode = Teuchos::NO_TRANS,
             Scalar alpha = 1.0, Scalar beta = 0.0) const override;
  /// A is symmetric, hence so is the restriction.
  bool hasTransposeApply() const override { return true; }

  /// Applications of A made so far.
  int applies() const { return applies_; }
  /// x.(Z Z^T A Z Z^T x) of the last apply to a single vector x (global sum):
  /// the Lanczos coefficient alpha_j when x is MINRES's normalised Lanczos vector.
  double lastCurvature() const { return curvature_; }

 private:
  RCP<const Operator> A_;
  const std::vector<char>& free_;
  mutable RCP<MultiVector> in_;
  mutable RCP<MultiVector> out_;
  mutable int applies_ = 0;
  mutable double curvature_ = 0.0;
};

}  // namespace grains::solver_detail
