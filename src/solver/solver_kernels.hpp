#pragma once
// Fused local loops shared by the solvers (internal to src/solver). Each one
// walks this rank's entries once with OpenMP and finishes with at most one
// global reduction, so a solver iteration does not pay for several Tpetra
// passes plus temporaries. The gradient is always passed as (Ax, b) so the
// solvers can keep A x instead of the gradient; b may be null (gradient = Ax).
#include "extrapolated_point.hpp"
#include "grains/linalg/reproducible_reduction.hpp"
#include "grains/solver/quadratic_program.hpp"
#include "grains/solver/solver.hpp"

#include <Teuchos_CommHelpers.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

namespace grains::solver_detail {

/// This rank's entries of v, for reading (host view; no copy on our node).
inline const double* readOnly(const Vector& v) {
  return v.getLocalViewHost(Tpetra::Access::ReadOnly).data();
}

/// f(ExtrapolatedEntries<E>{...}) with E = (beta != 0), the local entries of `point`.
template <typename F>
decltype(auto) withExtrapolatedEntries(const Extrapolation& point, F&& f) {
  const auto local = [](const Vector* v) { return v ? readOnly(*v) : nullptr; };
  const double* x = local(point.x);
  const double* Ax = local(point.Ax);
  if (point.beta != 0.0) {
    return f(ExtrapolatedEntries<true>{x, Ax, local(point.z), local(point.Az), 1.0 + point.beta,
                                       point.beta});
  }
  return f(ExtrapolatedEntries<false>{x, Ax, nullptr, nullptr, 1.0, 0.0});
}

/// Global max / sum over the ranks of v's map.
double globalMax(const Vector& v, double local);
double globalSum(const Vector& v, double local);

/// This rank's entries of diag(A), from the factored form when present (no
/// application of A), else from an assembled matrix; throws for other operators.
std::vector<double> localDiagonal(const QuadraticProgram& qp);
/// The diag(A) the assembly stored with the factored operator, or null when
/// there is none (QPs read from files): read it in place where no copy is needed.
const std::vector<double>* assembledDiagonal(const QuadraticProgram& qp);

/// out = Pi_K(x - alpha * (Ax + b)), local entries only (no communication).
void projectedStep(const ConeSet& cones, const Vector& x, const Vector& Ax, const Vector* b,
                   double alpha, Vector& out);
/// The same from the implicit point y of `from` (extrapolated_point.hpp).
void projectedStep(const ConeSet& cones, const Extrapolation& from, const Vector* b, double alpha,
                   Vector& out);

/// || x - Pi_K(x - (Ax + b)) ||_inf over all ranks.
double naturalResidual(const ConeSet& cones, const Vector& x, const Vector& Ax, const Vector* b);

/// evaluateResidualSpread's sweep, given Ax (no application of A).
ResidualSpread naturalResidualSpread(const ConeSet& cones, const Vector& x, const Vector& Ax,
                                     const Vector* b, double quantile);

/// The natural residual at x (global) and whether `rule` stops there. With a
/// quantile below 1 it takes naturalResidualSpread's histogram instead of the
/// maximum alone (one more reduction, of integers).
struct StopCheck {
  double residual = 0.0;
  bool stop = false;
};
StopCheck checkStop(const StopRule& rule, const ConeSet& cones, const Vector& x, const Vector& Ax,
                    const Vector* b);

/// x . (1/2 Ax + b) over all ranks (the objective when Ax = A x), summed
/// reproducibly (the same on any thread and rank count).
double objectiveValue(const Vector& x, const Vector& Ax, const Vector* b);

/// ||x||_2 over all ranks, summed reproducibly.
double reproducibleNorm2(const Vector& x);

/// Sums of N local values over the ranks of v's map, in one reduction.
template <std::size_t N>
std::array<double, N> globalSums(const Vector& v, const std::array<double, N>& local) {
  std::array<double, N> global{};
  Teuchos::reduceAll(*v.getMap()->getComm(), Teuchos::REDUCE_SUM, static_cast<int>(N), local.data(),
                     global.data());
  return global;
}

/// Sums over all ranks of N terms per local entry of `like`, terms(i) giving
/// entry i's N terms, with a result independent of the thread and rank count
/// (grains/linalg/reproducible_reduction.hpp).
template <std::size_t N, class Terms>
std::array<double, N> reproducibleSums(const Vector& like, Terms terms) {
  return grains::reproducibleSums<N>(*like.getMap()->getComm(),
                                     static_cast<long long>(like.getLocalLength()),
                                     static_cast<double>(like.getGlobalLength()), terms);
}

/// What APGD needs of a trial step x from the extrapolated point y of `from`
/// (previous iterate z = from.x), as global sums: curvature (x - y).(Ax - Ay), length |x - y|^2
/// (with inverse_scale, 1/s per local unknown, in the diagonal metric:
/// sum_i ((x - y)_i / s_i)^2) and the restart product (Ay + b).(x - z).
/// APGD only compares them (curvature <= L length, restart > 0), so they are
/// first summed the ordinary way in one pass and one reduction, with bounds on
/// that sum's round-off; only when a comparison falls within those bounds are
/// they summed again reproducibly. The decisions, and so the iterates, are
/// then the same on any thread and rank count.
struct TrialStep {
  double curvature = 0.0;
  double length = 0.0;
  double restart = 0.0;
  /// Bounds on the round-off of the three sums (0 once summed reproducibly).
  double curvature_error = 0.0;
  double length_error = 0.0;
  double restart_error = 0.0;

  /// The step fails the upper-bound test (L doubles), decided as the
  /// reproducible sums decide it; `certain` false when the ordinary sums
  /// cannot tell.
  bool needsBacktracking(double L, bool& certain) const {
    const double gap = curvature - L * length;
    const double margin =
        2.0 * (curvature_error + L * length_error) + std::ldexp(std::abs(L * length), -51);
    certain = std::abs(gap) > margin || (curvature_error == 0.0 && length_error == 0.0);
    return !(curvature <= L * length);
  }
  bool restarts(bool& certain) const {
    certain = std::abs(restart) > 2.0 * restart_error || restart_error == 0.0;
    return restart > 0.0;
  }
};
/// `reproducible` false: ordinary sums with their round-off bounds; true: the
/// reproducible sums.
TrialStep trialStep(const Vector& x, const Vector& Ax, const Extrapolation& from,
                    const double* inverse_scale, const Vector* b, bool reproducible = false);

/// For a quadratic q with gradient g: q(x) - q(x_from) =
/// (x - x_from).(g(x_from) + g(x)) / 2 (exact), and a bound on its rounding's
/// scale, sum |x - x_from| (|g| + |g_from|); global sums in one reduction
/// (the decrease checks of kucera and mprgp).
std::array<double, 2> quadraticChange(const Vector& x, const Vector& x_from, const Vector& g,
                                      const Vector& g_from);

/// ||A v|| for the unit vector v after `iterations` power steps, apply(v, Av)
/// applying A: a lower bound of ||A|| (1 when the iteration breaks down).
/// The start vector depends on global indices only, so the estimate does not
/// depend on the number of ranks.
double powerNormEstimate(const RCP<const Map>& map, int iterations,
                         const std::function<void(const Vector&, Vector&)>& apply);

/// Global sums (s.s, s.y, y.y), summed reproducibly: the Barzilai-Borwein quotients.
std::array<double, 3> stepDots(const Vector& s, const Vector& y);

/// Solver epilogue: copies `best` into gamma, evaluates the measures of that
/// exact iterate with one application of A and fills the report.
SolveReport finishReport(const std::string& solver, const QuadraticProgram& qp, const Vector& best,
                         Vector& gamma, int iterations, int operator_applies, double tolerance);
/// The same when A best is already known (a solver stopping at a converged
/// iterate whose image it has just computed): no application of A.
SolveReport finishReport(const std::string& solver, const QuadraticProgram& qp, const Vector& best,
                         const Vector& A_best, Vector& gamma, int iterations, int operator_applies,
                         double tolerance);

/// Throws std::invalid_argument when the vector layout does not match the cones.
void checkLayout(const QuadraticProgram& qp, const Vector& gamma, const char* who);

}  // namespace grains::solver_detail
