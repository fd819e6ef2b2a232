#include "grains/constraint/contact_operator.hpp"

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
      const BodyMobility& m = mobility_[static_cast<std::size_t>(k)];
      const Eigen::Map<const Vec3> lin(xs + 6 * k);
      const Eigen::Map<const Vec3> ang(xs + 6 * k + 3);
      Eigen::Map<Vec3> ylin(ys + 6 * k);
      Eigen::Map<Vec3> yang(ys + 6 * k + 3);
      if (beta == 0.0) {
        ylin = alpha * m.inverse_mass * lin;
        yang = alpha * (m.inverse_inertia * ang);
      } else {
        ylin = beta * ylin + alpha * m.inverse_mass * lin;
        yang = beta * yang + alpha * (m.inverse_inertia * ang);
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
      importer_(Dt_->getGraph()->getImporter()) {
  if (!jacobian_) throw std::logic_error("ContactOperator: no local Jacobian given");
  if (jacobian_->rows() != Dt_->getNodeNumRows() ||
      6 * jacobian_->columnBodies() != Dt_->getColMap()->getNodeNumElements())
    throw std::logic_error(
        "ContactOperator: the local Jacobian (" + std::to_string(jacobian_->rows()) + " rows, " +
        std::to_string(jacobian_->columnBodies()) + " column bodies) does not match D^T's maps");
  allocateWork();
}

void ContactOperator::allocateWork() {
  if (importer_.is_null()) {
    local_work_.resize(6 * jacobian_->columnBodies());
  } else {
    column_work_ = rcp(new Vector(Dt_->getColMap(), false));
    owned_work_ = rcp(new Vector(Dt_->getDomainMap(), false));
    owned_work2_ = rcp(new Vector(Dt_->getDomainMap(), false));
  }
}

void ContactOperator::ownedProduct(const double* x) const {
  if (importer_.is_null()) {
    jacobian_->multiplyD(x, local_work_.data());
    return;
  }
  {
    auto column = column_work_->getDataNonConst();
    jacobian_->multiplyD(x, column.getRawPtr());
  }
  // Sum the ghost columns' partial products into their owners (reverse Import).
  owned_work_->putScalar(0.0);
  owned_work_->doExport(*column_work_, *importer_, Tpetra::ADD);
}

void ContactOperator::applyD(const Vector& gamma, Vector& impulses) const {
  const std::size_t n = 6 * mobility_->ownedMobility().size();
  if (impulses.getLocalLength() != n)
    throw std::logic_error("ContactOperator::applyD: the impulse vector must be on the body map");
  {
    const auto g = gamma.getData();
    ownedProduct(g.getRawPtr());
  }
  if (!importer_.is_null()) {
    impulses.assign(*owned_work_);
    return;
  }
  auto out = impulses.getDataNonConst();
  for (std::size_t k = 0; k < n; ++k) out[k] = local_work_[k];
}

void ContactOperator::applyDt(const Vector& u, double alpha, Vector& rows) const {
  auto out = rows.getDataNonConst();
  if (importer_.is_null()) {
    const auto owned = u.getData();
    jacobian_->multiplyDt(owned.getRawPtr(), alpha, nullptr, 0.0, 0.0, out.getRawPtr());
    return;
  }
  column_work_->doImport(u, *importer_, Tpetra::INSERT);
  const auto column = column_work_->getData();
  jacobian_->multiplyDt(column.getRawPtr(), alpha, nullptr, 0.0, 0.0, out.getRawPtr());
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
    if (importer_.is_null()) {
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
    column_work_->doImport(*owned_work2_, *importer_, Tpetra::INSERT);
    const auto column = column_work_->getData();
    jacobian_->multiplyDt(column.getRawPtr(), alpha * scale_, xs, alpha * regularisation_, beta,
                          ys);
  }
}

}  // namespace grains
