#include "grains/constraint/contact_operator.hpp"

#include <stdexcept>

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

ContactOperator::ContactOperator(RCP<const CrsMatrix> Dt, RCP<const MobilityOperator> mobility,
                                 double scale, double regularisation)
    : Dt_(std::move(Dt)),
      mobility_(std::move(mobility)),
      scale_(scale),
      regularisation_(regularisation) {}

void ContactOperator::apply(const MultiVector& x, MultiVector& y, Teuchos::ETransp /*mode*/,
                            Scalar alpha, Scalar beta) const {
  // A is symmetric: every mode is the same product.
  const auto nvec = x.getNumVectors();
  if (body_work_.is_null() || body_work_->getNumVectors() != nvec) {
    body_work_ = rcp(new MultiVector(Dt_->getDomainMap(), nvec, false));
    body_work2_ = rcp(new MultiVector(Dt_->getDomainMap(), nvec, false));
  }
  // D x = (D^T)^T x: contributions to ghost columns are exported to owners.
  Dt_->apply(x, *body_work_, Teuchos::TRANS);
  mobility_->apply(*body_work_, *body_work2_);
  if (regularisation_ != 0.0 && &x == &y)
    throw std::logic_error("ContactOperator::apply: x and y must differ");
  Dt_->apply(*body_work2_, y, Teuchos::NO_TRANS, alpha * scale_, beta);
  if (regularisation_ != 0.0) y.update(alpha * regularisation_, x, 1.0);
}

}  // namespace grains
