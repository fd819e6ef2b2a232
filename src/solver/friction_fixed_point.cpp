// Tresca-to-Coulomb fixed point (Preclik et al. (2009) §3.1, last paragraph; Heyn et al. (2013)
// §6): friction bounds that depend on the normal impulse are frozen at an estimate, the resulting
// fixed-bounds problem (box or cylinder) is solved by the inner solver, the estimate is replaced by
// the new normal impulses, and so on until the bounds stop changing:
//   gtilde_n^(0) = max(gamma_n(warm start), 0)       (0: the first solve is frictionless)
//   gamma^(k)    = argmin 1/2 g^T A g + b^T g  s.t. g in K(mu gtilde_n^(k-1))
//   gtilde_n^(k) = max(gamma_n^(k), 0)
// The fixed point is Coulomb friction with the unrelaxed normal condition
// (Preclik et al. (2009) eq. 12 without the mu |v_t| term), which differs from the cone QP
// of Heyn et al. (2013) eq. 10 at sliding contacts. The reported residual is that of
// the quasi-variational problem: the natural residual with the bounds taken
// from the returned iterate, so it is small only when the inner problem is
// solved and the bounds are consistent.
#include "solver_factories.hpp"
#include "solver_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace grains::solver_detail {
namespace {

class FrictionFixedPoint final : public Solver {
 public:
  FrictionFixedPoint(std::unique_ptr<Solver> inner, FrictionModel inner_model,
                     SolverSettings settings)
      : inner_(std::move(inner)), inner_model_(inner_model), settings_(std::move(settings)) {}
  std::string name() const override { return inner_->name(); }
  void setToleranceScale(double scale) override {
    Solver::setToleranceScale(scale);
    inner_->setToleranceScale(scale);
  }

  SolveReport solve(const QuadraticProgram& qp, Vector& gamma) const override {
    checkLayout(qp, gamma, "friction fixed point");
    // Only sliding friction has a fixed-bounds form (box, cylinder).
    const FrictionModel model = qp.cones.model;
    if (model == FrictionModel::Frictionless || model == FrictionModel::CoulombRolling) {
      throw std::invalid_argument("friction fixed point: model '" + frictionModelName(model) +
                                  "' has no fixed-bounds form (box or cylinder)");
    }
    // Given bounds on any rank (a rank without contacts has none to give)
    // mean a plain fixed-bounds problem; decided globally so every rank
    // takes the same collective path.
    const bool given = globalMax(gamma, qp.cones.boundsFixed() ? 1.0 : 0.0) > 0.0;
    if (qp.cones.model == inner_model_ && given) {
      // The bounds are given (a stored fixed-bounds problem): nothing to iterate.
      if (observing()) inner_->setObserver([this](int it, const Vector& g) { observe(it, g); });
      return inner_->solve(qp, gamma);
    }
    QuadraticProgram inner_qp = qp;
    inner_qp.cones.model = inner_model_;
    std::vector<double>& bound = inner_qp.cones.normal_bound;
    const std::size_t contacts = qp.cones.localContacts();
    {
      const double* g = gamma.getLocalViewHost(Tpetra::Access::ReadOnly).data();
      bound.assign(contacts, 0.0);
      for (std::size_t c = 0; c < contacts; ++c) bound[c] = std::max(g[3 * c], 0.0);
    }
    int total_iterations = 0;
    int applies = 0;
    int outer = 0;
    if (observing()) {
      inner_->setObserver([this, &total_iterations](int it, const Vector& g) {
        observe(total_iterations + it, g);
      });
    }
    while (outer < std::max(1, settings_.outer_iterations)) {
      const SolveReport inner_report = inner_->solve(inner_qp, gamma);
      ++outer;
      total_iterations += inner_report.iterations;
      applies += inner_report.operator_applies;
      const double* g = gamma.getLocalViewHost(Tpetra::Access::ReadOnly).data();
      double change = 0.0;
      double largest = 0.0;
      for (std::size_t c = 0; c < contacts; ++c) {
        const double n = std::max(g[3 * c], 0.0);
        change = std::max(change, qp.cones.mu[c] * std::abs(n - bound[c]));
        largest = std::max(largest, qp.cones.mu[c] * n);
        bound[c] = n;
      }
      change = globalMax(gamma, change);
      largest = globalMax(gamma, largest);
      // Consistent bounds: relative to the largest bound, or small next to the
      // residual tolerance (the inner solves run at half of it, so the final
      // quasi-variational residual stays within the tolerance).
      if (!(change > settings_.outer_tolerance * largest) ||
          change <= 0.5 * scaledTolerance(settings_.tolerance)) {
        break;  // (a NaN change stops too; the measures then show it)
      }
    }
    inner_->setObserver(nullptr);
    // Measures of the quasi-variational problem (bounds from the iterate).
    QuadraticProgram measured = qp;
    measured.cones.model = inner_model_;
    measured.cones.normal_bound.clear();
    SolveReport report = finishReport(name(), measured, gamma, gamma, total_iterations, applies,
                                      scaledTolerance(settings_.tolerance));
    report.outer_iterations = outer;
    return report;
  }

 private:
  std::unique_ptr<Solver> inner_;
  FrictionModel inner_model_;
  SolverSettings settings_;
};

}  // namespace

std::unique_ptr<Solver> makeFrictionFixedPoint(std::unique_ptr<Solver> inner,
                                               FrictionModel inner_model,
                                               const SolverSettings& settings) {
  if (!hasFixedBounds(inner_model)) {
    throw std::invalid_argument("friction fixed point: inner model '" +
                                frictionModelName(inner_model) + "' must be box or cylinder");
  }
  return std::make_unique<FrictionFixedPoint>(std::move(inner), inner_model, settings);
}

}  // namespace grains::solver_detail
