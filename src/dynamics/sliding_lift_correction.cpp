#include "grains/dynamics/sliding_lift_correction.hpp"

#include "grains/parallel/mpi_utils.hpp"
#include "grains/solver/sliding_lift.hpp"

#include <algorithm>
#include <cmath>

namespace grains {

SlidingLiftCorrection::SlidingLiftCorrection(QuadraticProgram& qp)
    : qp_(qp),
      unshifted_(qp.b),
      shifts_(qp.cones.localContacts(), 0.0),
      proposed_(qp.cones.localContacts(), 0.0) {}

double SlidingLiftCorrection::propose(const Vector& gamma, const Vector& image, bool loaded_only,
                                      double dead_zone) {
  const ConeSet& cones = qp_.cones;
  const auto block = static_cast<std::size_t>(cones.blockSize());
  const auto g_view = gamma.getLocalViewHost(Tpetra::Access::ReadOnly);
  const auto a_view = image.getLocalViewHost(Tpetra::Access::ReadOnly);
  const auto b_view = unshifted_->getLocalViewHost(Tpetra::Access::ReadOnly);
  const double* g = g_view.data();
  const double* a = a_view.data();
  const double* b = b_view.data();
  const auto contacts = static_cast<long>(shifts_.size());
  double change = 0.0;
#pragma omp parallel for schedule(static) reduction(max : change)
  for (long ci = 0; ci < contacts; ++ci) {
    const auto c = static_cast<std::size_t>(ci);
    const std::size_t row = c * block;
    double w[kMaxBlockSize] = {};
    for (std::size_t k = 1; k < block; ++k) w[k] = a[row + k] + b[row + k];
    proposed_[c] = loaded_only && !(g[row] > 0.0) ? 0.0 : slidingLift(cones, c, w, dead_zone);
    change = std::max(change, std::abs(proposed_[c] - shifts_[c]));
  }
  return globalMax(*gamma.getMap()->getComm(), change);
}

void SlidingLiftCorrection::accept() {
  shifts_ = proposed_;
  auto shifted = rcp(new Vector(*unshifted_, Teuchos::Copy));
  {
    auto view = shifted->getLocalViewHost(Tpetra::Access::ReadWrite);
    double* b = view.data();
    const auto block = static_cast<std::size_t>(qp_.cones.blockSize());
    for (std::size_t c = 0; c < shifts_.size(); ++c) b[c * block] += shifts_[c];
  }
  qp_.b = shifted;
}

}  // namespace grains
