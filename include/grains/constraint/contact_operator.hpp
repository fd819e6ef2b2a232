#pragma once
// A = scale * D^T W D + regularisation * I as a matrix-free Tpetra::Operator
// on the constraint map. D^T is the assembled contact Jacobian (CrsMatrix);
// W is the block-diagonal mobility (inverse mass / inertia) of owned bodies.
// Ghost contributions travel through D^T's Import/Export plans, built once
// per step by fillComplete and reused by every apply.
#include "grains/linalg/tpetra_types.hpp"
#include "grains/solver/quadratic_program.hpp"

#include <vector>

namespace grains {

/// y = W x for the owned bodies of a body-DOF map (6 entries per body).
class MobilityOperator : public Operator {
 public:
  MobilityOperator(RCP<const Map> body_map, std::vector<BodyMobility> owned_mobility);

  RCP<const Map> getDomainMap() const override { return map_; }
  RCP<const Map> getRangeMap() const override { return map_; }
  void apply(const MultiVector& x, MultiVector& y, Teuchos::ETransp mode = Teuchos::NO_TRANS,
             Scalar alpha = Teuchos::ScalarTraits<Scalar>::one(),
             Scalar beta = Teuchos::ScalarTraits<Scalar>::zero()) const override;
  /// W of each owned body, in the order of the body map.
  const std::vector<BodyMobility>& ownedMobility() const { return mobility_; }

 private:
  RCP<const Map> map_;
  std::vector<BodyMobility> mobility_;
};

class ContactOperator : public Operator {
 public:
  ContactOperator(RCP<const CrsMatrix> Dt, RCP<const MobilityOperator> mobility, double scale,
                  double regularisation);

  RCP<const Map> getDomainMap() const override { return Dt_->getRangeMap(); }
  RCP<const Map> getRangeMap() const override { return Dt_->getRangeMap(); }
  void apply(const MultiVector& x, MultiVector& y, Teuchos::ETransp mode = Teuchos::NO_TRANS,
             Scalar alpha = Teuchos::ScalarTraits<Scalar>::one(),
             Scalar beta = Teuchos::ScalarTraits<Scalar>::zero()) const override;

 private:
  RCP<const CrsMatrix> Dt_;
  RCP<const MobilityOperator> mobility_;
  double scale_;
  double regularisation_;
  // Work vectors on the body map, reused across applies (solvers call apply
  // thousands of times per step).
  mutable RCP<MultiVector> body_work_;
  mutable RCP<MultiVector> body_work2_;
};

}  // namespace grains
