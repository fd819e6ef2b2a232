#include "grains/constraint/contact_operator.hpp"

#include <Teuchos_CommHelpers.hpp>

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

namespace grains {

MobilityOperator::MobilityOperator(RCP<const Map> body_map,
                                   std::vector<BodyMobility> owned_mobility)
    : map_(std::move(body_map)), mobility_(std::move(owned_mobility)) {
  if (map_->getNodeNumElements() != 6 * mobility_.size())
    throw std::logic_error("MobilityOperator: body map must have 6 entries per owned body");
}

void MobilityOperator::apply(const MultiVector& x, MultiVector& y, Teuchos::ETransp /*mode*/,
                             Scalar alpha, Scalar beta) const {
  // W is symmetric, so every mode is the same product.
  const auto nvec = x.getNumVectors();
  const auto nbodies = static_cast<long>(mobility_.size());
  for (std::size_t v = 0; v < nvec; ++v) {
    auto xv = x.getData(v);
    auto yv = y.getDataNonConst(v);
    const double* xs = xv.getRawPtr();
    double* ys = yv.getRawPtr();
#pragma omp parallel for schedule(static)
    for (long k = 0; k < nbodies; ++k) {
      // The same arithmetic as the one-rank fused product (BodyMobility::apply).
      double w[6];
      mobility_[static_cast<std::size_t>(k)].apply(xs + 6 * k, w);
      for (int i = 0; i < 6; ++i) {
        const double scaled = alpha == 1.0 ? w[i] : alpha * w[i];
        ys[6 * k + i] = beta == 0.0 ? scaled : beta * ys[6 * k + i] + scaled;
      }
    }
  }
}

ContactOperator::ContactOperator(RCP<const CrsMatrix> Dt,
                                 std::shared_ptr<const LocalJacobian> jacobian,
                                 RCP<const MobilityOperator> mobility, double scale,
                                 double regularisation)
    : Dt_(std::move(Dt)),
      mobility_(std::move(mobility)),
      scale_(scale),
      regularisation_(regularisation),
      jacobian_(std::move(jacobian)),
      importer_(Dt_->getGraph()->getImporter()),
      distributed_(Dt_->getRowMap()->getComm()->getSize() > 1) {
  if (!jacobian_) throw std::logic_error("ContactOperator: no local Jacobian given");
  if (jacobian_->rows() != Dt_->getNodeNumRows() ||
      6 * jacobian_->columnBodies() != Dt_->getColMap()->getNodeNumElements())
    throw std::logic_error(
        "ContactOperator: the local Jacobian (" + std::to_string(jacobian_->rows()) + " rows, " +
        std::to_string(jacobian_->columnBodies()) + " column bodies) does not match D^T's maps");
  allocateWork();
}

void ContactOperator::allocateWork() {
  if (!distributed_) {
    local_work_.resize(6 * jacobian_->columnBodies());
  } else {
    column_work_ = rcp(new Vector(Dt_->getColMap(), false));
    owned_work_ = rcp(new Vector(Dt_->getDomainMap(), false));
    owned_work2_ = rcp(new Vector(Dt_->getDomainMap(), false));
    column_parts_ = rcp(new MultiVector(Dt_->getColMap(), 2, false));
    owned_parts_ = rcp(new MultiVector(Dt_->getDomainMap(), 2, false));
  }
}

void ContactOperator::ownedProduct(const double* x) const {
  if (!distributed_) {
    jacobian_->multiplyD(x, local_work_.data());
    return;
  }
  // Every rank forms its part of each body's sum on the same grids (set by
  // the largest term of all ranks); the owners add the parts exactly, so D x
  // does not depend on how the contacts are split over the ranks.
  const double local_bound = jacobian_->formForces(x);
  double bound = 0.0;
  Teuchos::reduceAll(*Dt_->getRowMap()->getComm(), Teuchos::REDUCE_MAX, local_bound,
                     Teuchos::outArg(bound));
  {
    auto grid0 = column_parts_->getDataNonConst(0);
    auto grid1 = column_parts_->getDataNonConst(1);
    jacobian_->sumForces(bound, grid0.getRawPtr(), grid1.getRawPtr());
  }
  if (importer_.is_null()) {
    // No ghost columns on this rank: the column bodies are the owned ones.
    Tpetra::deep_copy(*owned_parts_, *column_parts_);
  } else {
    owned_parts_->putScalar(0.0);
    owned_parts_->doExport(*column_parts_, *importer_, Tpetra::ADD);
  }
  const LocalJacobian::BodySums grids(bound, LocalJacobian::kMaxBodyTerms);
  const auto grid0 = owned_parts_->getData(0);
  const auto grid1 = owned_parts_->getData(1);
  auto out = owned_work_->getDataNonConst();
  const auto n = static_cast<long>(out.size());
#pragma omp parallel for schedule(static)
  for (long k = 0; k < n; ++k) {
    LocalJacobian::BodySums::Parts parts;
    parts.on_grid[0] = grid0[k];
    parts.on_grid[1] = grid1[k];
    out[k] = grids.total(parts);
  }
}

void ContactOperator::applyD(const Vector& gamma, Vector& impulses) const {
  const std::size_t n = 6 * mobility_->ownedMobility().size();
  if (impulses.getLocalLength() != n)
    throw std::logic_error("ContactOperator::applyD: the impulse vector must be on the body map");
  {
    const auto g = gamma.getData();
    ownedProduct(g.getRawPtr());
  }
  if (distributed_) {
    impulses.assign(*owned_work_);
    return;
  }
  auto out = impulses.getDataNonConst();
  for (std::size_t k = 0; k < n; ++k) out[k] = local_work_[k];
}

void ContactOperator::applyDt(const Vector& u, double alpha, Vector& rows) const {
  auto out = rows.getDataNonConst();
  if (!distributed_) {
    const auto owned = u.getData();
    jacobian_->multiplyDt(owned.getRawPtr(), alpha, nullptr, 0.0, 0.0, out.getRawPtr());
    return;
  }
  toColumns(u);
  const auto column = column_work_->getData();
  jacobian_->multiplyDt(column.getRawPtr(), alpha, nullptr, 0.0, 0.0, out.getRawPtr());
}

void ContactOperator::toColumns(const Vector& owned) const {
  if (importer_.is_null()) {
    Tpetra::deep_copy(*column_work_, owned);  // no ghost columns on this rank
  } else {
    column_work_->doImport(owned, *importer_, Tpetra::INSERT);
  }
}

std::size_t ContactOperator::bytesPerApply() const {
  return jacobian_->bytesPerNormalProduct(mobility_->ownedMobility().size());
}

void ContactOperator::apply(const MultiVector& x, MultiVector& y, Teuchos::ETransp /*mode*/,
                            Scalar alpha, Scalar beta) const {
  // A is symmetric: every mode is the same product.
  for (std::size_t v = 0; v < x.getNumVectors(); ++v) {
    const auto xv = x.getData(v);
    auto yv = y.getDataNonConst(v);
    const double* xs = xv.getRawPtr();
    double* ys = yv.getRawPtr();
    if (!distributed_) {
      // One rank: the column bodies are the owned bodies, so W applies in the
      // same pass as D (no exchange in between).
      jacobian_->multiplyWD(xs, mobility_->ownedMobility(), local_work_.data());
      jacobian_->multiplyDt(local_work_.data(), alpha * scale_, xs, alpha * regularisation_, beta,
                            ys);
      continue;
    }
    ownedProduct(xs);
    // Apply W to the owned sums and bring the results back to the ghosts.
    mobility_->apply(*owned_work_, *owned_work2_);
    toColumns(*owned_work2_);
    const auto column = column_work_->getData();
    jacobian_->multiplyDt(column.getRawPtr(), alpha * scale_, xs, alpha * regularisation_, beta,
                          ys);
  }
}

}  // namespace grains
