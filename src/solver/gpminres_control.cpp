// MinresLoopControl: see gpminres_control.hpp.
#include "gpminres_control.hpp"

#include "separable_bounds.hpp"

#include <cmath>
#include <utility>

namespace grains::solver_detail {
namespace {

using Index = long long;
using MVT = Belos::MultiVecTraits<double, MultiVector>;

Index length(const Vector& v) { return static_cast<Index>(v.getLocalLength()); }

}  // namespace

double MinresLoopControl::mirrorStep(double alpha, double beta_next) {
  const double oldeps = epsln_;
  const double delta = cs_ * dbar_ + sn_ * alpha;
  const double gbar = sn_ * dbar_ - cs_ * alpha;
  epsln_ = sn_ * beta_next;
  dbar_ = -cs_ * beta_next;
  const double gamma = std::hypot(gbar, beta_next);
  cs_ = gamma > 0.0 ? gbar / gamma : 1.0;
  sn_ = gamma > 0.0 ? beta_next / gamma : 0.0;
  const double phi = cs_ * phibar_;
  phibar_ = std::abs(sn_ * phibar_);
  alpha_.push_back(alpha);
  beta_.push_back(beta_next);
  const std::size_t j = alpha_.size();
  std::vector<double> omega(j, 0.0);
  omega[j - 1] = 1.0;
  for (std::size_t i = 0; i < omega2_.size(); ++i) omega[i] -= oldeps * omega2_[i];
  for (std::size_t i = 0; i < omega1_.size(); ++i) omega[i] -= delta * omega1_[i];
  for (double& v : omega) v /= gamma;
  y_.resize(j, 0.0);
  for (std::size_t i = 0; i < j; ++i) y_[i] += phi * omega[i];
  omega2_ = std::move(omega1_);
  omega1_ = std::move(omega);
  return gamma;
}

double MinresLoopControl::krylovObjective() const {
  // T_j: diagonal alpha_1..alpha_j, off-diagonal beta_2..beta_j (beta_[1..j-1]).
  const std::size_t j = y_.size();
  double yTy = 0.0;
  for (std::size_t i = 0; i < j; ++i) {
    double Ty = alpha_[i] * y_[i];
    if (i > 0) Ty += beta_[i] * y_[i - 1];
    if (i + 1 < j) Ty += beta_[i + 1] * y_[i + 1];
    yTy += y_[i] * Ty;
  }
  return 0.5 * yTy - beta1_ * (j > 0 ? y_[0] : 0.0);
}

void MinresLoopControl::prepareDirection() {
  A_->apply(*w_, Aw_);
  ++applies_;
  const double* pw = readOnly(*w_);
  const double* pAw = readOnly(Aw_);
  const double* pr = readOnly(*r_);
  const Index n = length(*w_);
  double wAw = 0.0, rw_dot = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : wAw, rw_dot)
  for (Index i = 0; i < n; ++i) {
    wAw += pw[i] * pAw[i];
    rw_dot += pr[i] * pw[i];
  }
  const auto sums = globalSums<2>(*w_, {wAw, rw_dot});
  q_exact_ = 0.5 * sums[0] + sums[1];
  if (!std::isfinite(q_exact_)) {
    w_->putScalar(0.0);
    Aw_.putScalar(0.0);
    q_exact_ = 0.0;
  }
}

Belos::StatusType MinresLoopControl::checkStatus(BelosIteration* solver) {
  const int j = solver->getNumIters();
  if (j == 0) {
    status_ = beta1_ > 0.0 && budget_ > 0 ? Belos::Failed : Belos::Passed;
    return status_;
  }
  // beta_{j+1}: the norm of the next, unnormalised Lanczos vector (MinresIter's
  // Y after a step, unpreconditioned).
  const auto* minres = dynamic_cast<const BelosMinres*>(solver);
  double beta_next = 0.0;
  if (minres != nullptr) {
    std::vector<double> norm(1, 0.0);
    MVT::MvNorm(*minres->getState().Y, norm);
    beta_next = norm[0];
  }
  const double alpha = restricted_.lastCurvature();
  const double gamma = mirrorStep(alpha, beta_next);
  scale_ = std::max({scale_, std::abs(alpha), beta_next});
  const double q = krylovObjective();

  // MINRES decreases q_k monotonically on a PSD system. A vanishing rotation
  // (gamma_j = 0: exhausted Krylov space of a singular, inconsistent system),
  // NaN or an increase means breakdown (or rounding at the bottom): undo the step.
  const bool broken = !(gamma > 1e-14 * scale_) || !std::isfinite(q) || q > q_ || minres == nullptr;
  bool stalled = false;
  bool exhausted = false;
  if (broken) {
    Tpetra::deep_copy(*w_, w_saved_);
    y_ = y_saved_;
  } else {
    const double delta = q_ - q;  // line (23)
    // Line (25): eq. (20) compares with the earlier decreases, 1 <= l < j.
    stalled = (j >= 2 && delta <= eta2_ * max_delta_) || j >= budget_;
    max_delta_ = std::max(max_delta_, delta);
    q_ = q;
    // Solved, or the next step would divide by beta_{j+1} ~ 0 (Lanczos exhaustion).
    exhausted = !(phibar_ > 1e-14 * beta1_) || !(beta_next > 1e-12 * scale_);
    Tpetra::deep_copy(w_saved_, *w_);
    y_saved_ = y_;
    handled_ = false;
  }
  if (!(broken || stalled || exhausted)) {
    status_ = Belos::Failed;
    return status_;
  }
  // Lines (27)-(45).
  bool more = false;
  if (!handled_) {
    prepareDirection();
    more = handler_(eta2_);
  }
  handled_ = true;
  if (more && !broken && !exhausted) {
    eta2_ *= eta2_;                             // line (40)
    budget_ += options_.additional_iterations;  // line (41)
    status_ = Belos::Failed;
  } else {
    status_ = Belos::Passed;
  }
  return status_;
}

}  // namespace grains::solver_detail
