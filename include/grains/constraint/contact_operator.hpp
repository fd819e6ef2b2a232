#pragma once
// A = scale * D^T W D + regularisation * I as a matrix-free Tpetra::Operator
// on the constraint map. D^T is the contact Jacobian (its contact frames);
// W is the block-diagonal mobility (inverse mass / inertia) of owned bodies.
// The local products run on a LocalJacobian's OpenMP kernels; ghost
// velocities travel through the layout's Import plan (kept across assemblies
// by AssemblyMaps, reused by every apply), and the terms of ghost bodies' sums
// to their owners through a GhostTermExchange (reproducible) or the Import
// plan in reverse (partial sums added, not reproducible).
#include "grains/constraint/ghost_term_exchange.hpp"
#include "grains/constraint/local_jacobian.hpp"
#include "grains/linalg/tpetra_types.hpp"
#include "grains/solver/quadratic_program.hpp"

#include <Tpetra_Import.hpp>

#include <memory>
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

/// The Tpetra layout of D^T: its rows, the owned bodies' DOFs it maps from,
/// and the column bodies' DOFs (owned, then the ghosts the contacts touch)
/// with the Import plan that brings ghost values in.
struct JacobianLayout {
  using Import = Tpetra::Import<LocalOrdinal, GlobalOrdinal, Node>;
  RCP<const Map> rows;         ///< the constraint map: A's domain and range
  RCP<const Map> bodies;       ///< 6 DOFs per owned body
  RCP<const Map> columns;      ///< 6 DOFs per column body
  RCP<const Import> importer;  ///< bodies to columns; null on one rank
};

class ContactOperator : public Operator {
 public:
  /// `jacobian` holds this rank's D^T as the OpenMP kernels see it (the
  /// assembly writes the contact frames directly; no CSR copy of D^T is
  /// needed). `reproducible`: on several ranks, D x is the same bits as on
  /// one rank (collective setup); otherwise ghost bodies' partial sums are
  /// added.
  ContactOperator(JacobianLayout layout, std::shared_ptr<const LocalJacobian> jacobian,
                  RCP<const MobilityOperator> mobility, double scale, double regularisation,
                  bool reproducible = true);

  RCP<const Map> getDomainMap() const override { return layout_.rows; }
  RCP<const Map> getRangeMap() const override { return layout_.rows; }
  void apply(const MultiVector& x, MultiVector& y, Teuchos::ETransp mode = Teuchos::NO_TRANS,
             Scalar alpha = Teuchos::ScalarTraits<Scalar>::one(),
             Scalar beta = Teuchos::ScalarTraits<Scalar>::zero()) const override;

  /// impulses = D gamma on the owned bodies (ghost contributions summed in);
  /// `impulses` lives on the body map, `gamma` on the constraint map.
  void applyD(const Vector& gamma, Vector& impulses) const;
  /// rows = alpha D^T u for owned-body velocities u (ghost values imported).
  void applyDt(const Vector& u, double alpha, Vector& rows) const;

  const LocalJacobian& jacobian() const { return *jacobian_; }
  const JacobianLayout& layout() const { return layout_; }
  /// Bytes one apply moves at least (the local kernels' traffic model).
  std::size_t bytesPerApply() const;

 private:
  JacobianLayout layout_;
  RCP<const MobilityOperator> mobility_;
  void allocateWork();
  /// D x summed to the owned bodies, in owned_work_ (several ranks) or
  /// local_work_ (one rank, where the column bodies are the owned ones).
  void ownedProduct(const double* x) const;
  /// Owned-body values to the column bodies (ghosts imported).
  void toColumns(const Vector& owned) const;

  double scale_;
  double regularisation_;
  std::shared_ptr<const LocalJacobian> jacobian_;
  /// Null where the column bodies are the owned ones (one rank, or a rank
  /// without ghost columns).
  RCP<const Tpetra::Import<LocalOrdinal, GlobalOrdinal, Node>> importer_;
  bool distributed_;  ///< several ranks: body sums need the other ranks' terms
  /// Several ranks, reproducible: the ghost terms' plan.
  std::unique_ptr<GhostTermExchange> ghost_terms_;
  // Work vectors, allocated once: solvers apply A hundreds of times per step.
  mutable std::vector<double> local_work_;  ///< W D x per owned body (no importer)
  mutable RCP<Vector> column_work_;         ///< D x, then W D x, per column body
  mutable RCP<Vector> owned_work_;
  mutable RCP<Vector> owned_work2_;
};

}  // namespace grains
