#pragma once
// The MINRES loop of GPMINRES (Heyn et al. (2013) §4.2, Algorithm GPMINRES lines
// (20)-(47)) as a Belos status test, and the method's options. Internal to
// src/solver; used by gpminres_solver.cpp.
#include "restricted_operator.hpp"

#include <BelosMinresIter.hpp>
#include <BelosMultiVecTraits_Tpetra.hpp>
#include <BelosOperatorTraits_Tpetra.hpp>
#include <BelosStatusTest.hpp>

#include <algorithm>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace grains::solver_detail {

using BelosMinres = Belos::MinresIter<double, MultiVector, Operator>;
using BelosStatusTest = Belos::StatusTest<double, MultiVector, Operator>;
using BelosIteration = Belos::Iteration<double, MultiVector, Operator>;

struct GpminresOptions {
  int gp_steps = 10;               ///< N_GP
  double eta1 = 0.1;               ///< eq. (18)
  double eta2 = 0.25;              ///< eq. (20), initial value of each outer iteration
  double mu = 0.01;                ///< eq. (16)
  int projected_searches = 10;     ///< N_PS
  int minres_iterations = 10;      ///< N_minres
  int additional_iterations = 10;  ///< N_AI
};

/// The MINRES loop of Alg. GPMINRES, lines (20)-(47), as a Belos status test.
/// MinresIter calls checkStatus before each step. After step j this test
/// evaluates q_k(w_j) (line 22) and the decrease delta_j (line 23), and decides
/// (line 25) whether MINRES stalls (eq. 20) or has used its budget; then the
/// stall handler runs the projected search and the A == B test, and when it
/// asks for more, eta2 <- eta2^2 and the budget grows by N_AI (lines 40-41)
/// and MINRES simply goes on (its recurrences are not restarted).
///
/// q_k(w_j) is evaluated in the Krylov basis, so a MINRES step still costs one
/// application of A: w_j = V_j y_j and q_k(w_j) = 1/2 y.T_j y - beta_1 y_1,
/// T_j the Lanczos tridiagonal with alpha_j = v_j.A v_j (recorded by
/// RestrictedOperator when MinresIter applies it to v_j) and beta_{j+1} =
/// the norm of MinresIter's next Lanczos vector; y_j follows MinresIter's own
/// recurrences (BelosMinresIter.hpp: plane rotations, w = (v - eps w'' -
/// delta w') / gamma, x += phi w) on coefficient vectors of length j. The
/// unrestricted A w is computed once per stall, for the projected search.
class MinresLoopControl final : public BelosStatusTest {
 public:
  /// Returns true when MINRES should continue (A == B and eta2 >= tau).
  using StallHandler = std::function<bool(double eta2)>;

  MinresLoopControl(RCP<const Operator> A, const RestrictedOperator& restricted, RCP<Vector> w,
                    RCP<const Vector> r, const GpminresOptions& options, StallHandler handler)
      : A_(std::move(A)),
        restricted_(restricted),
        w_(std::move(w)),
        r_(std::move(r)),
        Aw_(w_->getMap(), false),
        w_saved_(w_->getMap(), false),
        options_(options),
        handler_(std::move(handler)) {}

  /// A new subproblem (w = 0): beta1 = ||r||, operator_scale a lower bound of ||A||.
  void start(double beta1, double operator_scale) {
    beta1_ = beta1;
    scale_ = operator_scale;
    eta2_ = options_.eta2;
    budget_ = options_.minres_iterations;
    q_ = 0.0;
    q_exact_ = 0.0;
    max_delta_ = 0.0;
    handled_ = false;
    alpha_.clear();
    beta_.assign(1, beta1);
    y_.clear();
    y_saved_.clear();
    omega1_.clear();
    omega2_.clear();
    // MinresIter::iterate() initial values.
    cs_ = -1.0;
    sn_ = 0.0;
    dbar_ = 0.0;
    epsln_ = 0.0;
    phibar_ = beta1;
    w_saved_.putScalar(0.0);
    status_ = Belos::Undefined;
  }

  Belos::StatusType checkStatus(BelosIteration* solver) override;
  Belos::StatusType getStatus() const override { return status_; }
  void reset() override { status_ = Belos::Undefined; }
  void print(std::ostream& os, int indent) const override {
    os << std::string(static_cast<std::size_t>(std::max(indent, 0)), ' ')
       << "GPMINRES subproblem control (Heyn et al. (2013) eq. 20): eta2 = " << eta2_
       << ", budget = " << budget_ << "\n";
  }

  /// After a Belos exception: back to the last good iterate, and its projected
  /// search if none was made for it.
  void recover() {
    Tpetra::deep_copy(*w_, w_saved_);
    prepareDirection();
    if (!handled_) handler_(eta2_);
    handled_ = true;
  }

  /// q_k(w) and A w (unrestricted) of the current w, valid in the stall handler.
  double q() const { return q_exact_; }
  const Vector& Aw() const { return Aw_; }
  int applies() const { return applies_; }

 private:
  /// A w and the exact q_k(w) = 1/2 w.A w + r.w; a non-finite w (breakdown
  /// that escaped the checks) is replaced by 0, i.e. no MINRES direction.
  void prepareDirection();
  /// Mirror of one MinresIter step on the coefficients (see the class comment);
  /// returns gamma_j of the step.
  double mirrorStep(double alpha, double beta_next);
  /// q_k(V y) = 1/2 y.T y - beta_1 y_1.
  double krylovObjective() const;

  RCP<const Operator> A_;
  const RestrictedOperator& restricted_;
  RCP<Vector> w_;
  RCP<const Vector> r_;
  Vector Aw_, w_saved_;
  GpminresOptions options_;
  StallHandler handler_;
  double beta1_ = 0.0, scale_ = 0.0, eta2_ = 0.0, q_ = 0.0, q_exact_ = 0.0, max_delta_ = 0.0;
  std::vector<double> alpha_, beta_, y_, y_saved_, omega1_, omega2_;
  double cs_ = -1.0, sn_ = 0.0, dbar_ = 0.0, epsln_ = 0.0, phibar_ = 0.0;
  int budget_ = 0;
  int applies_ = 0;
  bool handled_ = false;  ///< the current w has had its projected search
  Belos::StatusType status_ = Belos::Undefined;
};

}  // namespace grains::solver_detail
