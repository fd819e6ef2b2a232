#pragma once
// Exact references for problems with separable bounds l <= x <= u (the
// frictionless and box models), used by the active-set solver tests: the box
// bounds of a Box-model QP, and the solution of a small problem by
// enumerating the 3^n states (at lower bound, at upper bound, free) of its unknowns.
#include "solver_test_support.hpp"

#include <gtest/gtest.h>
#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace grains::test {

/// Box-model QP with the given per-contact normal bounds (so the tangential
/// unknowns of contact c lie in [-mu_c nb_c, mu_c nb_c]).
inline QuadraticProgram boxQp(const DenseFactored& p, const Eigen::VectorXd& b,
                              const std::vector<double>& mu,
                              const std::vector<double>& normal_bound) {
  QuadraticProgram qp = makeQp(p, b, FrictionModel::Box, mu);
  const auto map = qp.map();
  qp.cones.normal_bound.clear();
  for (std::size_t k = 0; k < map->getNodeNumElements(); k += 3) {
    const GlobalOrdinal c = map->getGlobalElement(static_cast<LocalOrdinal>(k)) / 3;
    qp.cones.normal_bound.push_back(normal_bound[static_cast<std::size_t>(c)]);
  }
  return qp;
}

/// Global per-unknown bounds of the box model.
inline void boxBounds(const std::vector<double>& mu, const std::vector<double>& normal_bound,
                      Eigen::VectorXd& lower, Eigen::VectorXd& upper) {
  const auto contacts = static_cast<Eigen::Index>(mu.size());
  lower = Eigen::VectorXd::Zero(3 * contacts);
  upper = Eigen::VectorXd::Zero(3 * contacts);
  for (Eigen::Index c = 0; c < contacts; ++c) {
    const double r = mu[static_cast<std::size_t>(c)] * normal_bound[static_cast<std::size_t>(c)];
    upper[3 * c] = std::numeric_limits<double>::infinity();
    lower[3 * c + 1] = lower[3 * c + 2] = -r;
    upper[3 * c + 1] = upper[3 * c + 2] = r;
  }
}

/// The solution of min 1/2 x.A x + b.x over l <= x <= u (A positive definite:
/// unique) by trying every assignment of the unknowns to {lower, upper, free}:
/// the free ones solve their rows of A x + b = 0, and the assignment is
/// accepted when the free values lie within their bounds and the gradient has
/// the sign of a minimum at the fixed ones. NaN when none is found.
inline Eigen::VectorXd solveBoxByEnumeration(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                             const Eigen::VectorXd& lower,
                                             const Eigen::VectorXd& upper) {
  const int n = static_cast<int>(b.size());
  const double tol = 1e-10;
  std::vector<int> state(static_cast<std::size_t>(n), 0);  // 0 lower, 1 upper, 2 free
  auto options = [&](int i) { return lower[i] == upper[i] ? 1 : std::isfinite(upper[i]) ? 3 : 2; };
  for (;;) {
    Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
    std::vector<int> free;
    for (int i = 0; i < n; ++i) {
      const int s = state[static_cast<std::size_t>(i)];
      const int kind = options(i) == 2 && s == 1 ? 2 : s;  // [l, inf): states lower, free
      if (kind == 0) x[i] = lower[i];
      if (kind == 1) x[i] = upper[i];
      if (kind == 2) free.push_back(i);
    }
    if (!free.empty()) {
      const auto m = static_cast<Eigen::Index>(free.size());
      Eigen::MatrixXd Aff(m, m);
      Eigen::VectorXd rhs = -(b + A * x);
      Eigen::VectorXd rf(m);
      for (Eigen::Index r = 0; r < m; ++r) {
        rf[r] = rhs[free[static_cast<std::size_t>(r)]];
        for (Eigen::Index c = 0; c < m; ++c)
          Aff(r, c) = A(free[static_cast<std::size_t>(r)], free[static_cast<std::size_t>(c)]);
      }
      const Eigen::VectorXd z = Aff.ldlt().solve(rf);
      for (Eigen::Index r = 0; r < m; ++r) x[free[static_cast<std::size_t>(r)]] = z[r];
    }
    const Eigen::VectorXd w = A * x + b;
    bool ok = true;
    for (int i = 0; i < n && ok; ++i) {
      if (lower[i] == upper[i]) continue;
      const bool at_lower =
          x[i] == lower[i] && std::find(free.begin(), free.end(), i) == free.end();
      const bool at_upper =
          x[i] == upper[i] && std::find(free.begin(), free.end(), i) == free.end();
      if (at_lower)
        ok = w[i] >= -tol;
      else if (at_upper)
        ok = w[i] <= tol;
      else
        ok = x[i] >= lower[i] - tol && x[i] <= upper[i] + tol;
    }
    if (ok) return x;
    // Next assignment (mixed radix counter).
    int i = 0;
    for (; i < n; ++i) {
      if (++state[static_cast<std::size_t>(i)] < options(i)) break;
      state[static_cast<std::size_t>(i)] = 0;
    }
    if (i == n) break;
  }
  return Eigen::VectorXd::Constant(n, std::nan(""));
}

/// Objective of every iterate the solver reports through its observer.
struct ObjectiveTrace {
  std::vector<int> iterations;
  std::vector<double> objectives;
};

/// Objective values never increase from one iteration to the next, starting
/// from `start` (the projected warm start), and every iteration is recorded.
inline void expectMonotone(const ObjectiveTrace& trace, double start) {
  double previous = start;
  for (std::size_t k = 0; k < trace.objectives.size(); ++k) {
    EXPECT_LE(trace.objectives[k], previous + 1e-12 * (1.0 + std::abs(previous)))
        << "iteration " << trace.iterations[k];
    EXPECT_EQ(trace.iterations[k], static_cast<int>(k) + 1);
    previous = trace.objectives[k];
  }
}

/// test::run with an observer recording evaluateMeasures(...).objective per iteration.
inline RunResult runObserved(const std::string& solver, const QuadraticProgram& qp,
                             const Eigen::VectorXd& warm_start, double tolerance,
                             int max_iterations, std::map<std::string, double> options,
                             ObjectiveTrace& trace) {
  SolverSettings settings;
  settings.tolerance = tolerance;
  settings.max_iterations = max_iterations;
  settings.options = std::move(options);
  const auto s = SolverRegistry::instance().create(solver, settings, qp.cones.model);
  s->setObserver([&](int iteration, const Vector& gamma) {
    trace.iterations.push_back(iteration);
    trace.objectives.push_back(evaluateMeasures(qp, gamma).objective);
  });
  auto gamma = makeVector(qp.map(), warm_start);
  RunResult r;
  r.report = s->solve(qp, *gamma);
  r.gamma = gather(*gamma);
  r.measures = evaluateMeasures(qp, *gamma);
  return r;
}

}  // namespace grains::test
