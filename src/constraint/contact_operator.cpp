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

ContactOperator::ContactOperator(JacobianLayout layout,
                                 std::shared_ptr<const LocalJacobian> jacobian,
                                 RCP<const MobilityOperator> mobility, double scale,
                                 double regularisation, bool reproducible)
    : layout_(std::move(layout)),
      mobility_(std::move(mobility)),
      scale_(scale),
      regularisation_(regularisation),
      jacobian_(std::move(jacobian)),
      importer_(layout_.importer),
      distributed_(layout_.rows->getComm()->getSize() > 1) {
  if (!jacobian_) throw std::logic_error("ContactOperator: no local Jacobian given");
  if (jacobian_->rows() != layout_.rows->getNodeNumElements() ||
      6 * jacobian_->columnBodies() != layout_.columns->getNodeNumElements())
    throw std::logic_error(
        "ContactOperator: the local Jacobian (" + std::to_string(jacobian_->rows()) + " rows, " +
        std::to_string(jacobian_->columnBodies()) + " column bodies) does not match D^T's maps");
  allocateWork();
  if (distributed_ && reproducible)
    ghost_terms_ =
        std::make_unique<GhostTermExchange>(*jacobian_, *layout_.bodies, *layout_.columns);
}

void ContactOperator::allocateWork() {
  if (!distributed_) {
    local_work_.resize(6 * jacobian_->columnBodies());
  } else {
    column_work_ = rcp(new Vector(layout_.columns, false));
    owned_work_ = rcp(new Vector(layout_.bodies, false));
    owned_work2_ = rcp(new Vector(layout_.bodies, false));
  }
}

void ContactOperator::ownedProduct(const double* x) const {
  if (!distributed_) {
    jacobian_->multiplyD(x, local_work_.data());
    return;
  }
  if (ghost_terms_) {
    // Each body's terms, the other ranks' included, in key order.
    jacobian_->formForces(x);
    auto out = owned_work_->getDataNonConst();
    ghost_terms_->sum(*jacobian_, out.getRawPtr());
    return;
  }
  // Partial sums per column body, added on the owners (order of arrival).
  {
    auto column = column_work_->getDataNonConst();
    jacobian_->multiplyD(x, column.getRawPtr());
  }
  if (importer_.is_null()) {
    Tpetra::deep_copy(*owned_work_, *column_work_);  // no ghost columns on this rank
  } else {
    owned_work_->putScalar(0.0);
    owned_work_->doExport(*column_work_, *importer_, Tpetra::ADD);
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
