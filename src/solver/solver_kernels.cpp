// Fused local loops shared by the solvers; see solver_kernels.hpp.
#include "solver_kernels.hpp"

#include "contact_projection.hpp"

#include <Teuchos_CommHelpers.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

namespace grains::solver_detail {
namespace {

using Index = long long;

// std::max and the max reductions drop NaN operands; a NaN residual must
// never read as converged, so it is reported as infinity.
inline double nanAsInfinity(double value) {
  return std::isnan(value) ? std::numeric_limits<double>::infinity() : value;
}

Index localLength(const Vector& v) { return static_cast<Index>(v.getLocalLength()); }

}  // namespace

double globalMax(const Vector& v, double local) {
  double global = 0.0;
  Teuchos::reduceAll(*v.getMap()->getComm(), Teuchos::REDUCE_MAX, local, Teuchos::outArg(global));
  return global;
}

double globalSum(const Vector& v, double local) {
  double global = 0.0;
  Teuchos::reduceAll(*v.getMap()->getComm(), Teuchos::REDUCE_SUM, local, Teuchos::outArg(global));
  return global;
}

const std::vector<double>* assembledDiagonal(const QuadraticProgram& qp) {
  if (qp.factored.is_null() || qp.factored->diagonal.size() != qp.b->getLocalLength())
    return nullptr;
  return &qp.factored->diagonal;
}

std::vector<double> localDiagonal(const QuadraticProgram& qp) {
  if (const std::vector<double>* stored = assembledDiagonal(qp)) return *stored;
  const std::size_t n = qp.b->getLocalLength();
  std::vector<double> diagonal(n, 0.0);
  if (!qp.factored.is_null() && !qp.factored->Dt.is_null()) {
    // d_i = scale * sum_b (D^T_ib) W_b (D^T_ib)^T + reg, body b = column / 6.
    const FactoredOperator& F = *qp.factored;
    const auto local = F.Dt->getLocalMatrixHost();
    const auto& row_ptr = local.graph.row_map;
    const auto& cols = local.graph.entries;
    const auto& vals = local.values;
#pragma omp parallel for schedule(static)
    for (Index i = 0; i < static_cast<Index>(n); ++i) {
      double sum = 0.0;
      std::size_t k = row_ptr(i);
      const std::size_t end = row_ptr(i + 1);
      while (k < end) {
        const int body = cols(k) / 6;
        double v[6] = {0, 0, 0, 0, 0, 0};
        for (; k < end && cols(k) / 6 == body; ++k) v[cols(k) % 6] = vals(k);
        // One term per body: a row has at most two, and two terms add the same
        // in either order (the column order of a row depends on the partition).
        sum += F.mobility[static_cast<std::size_t>(body)].quadraticForm(v);
      }
      diagonal[static_cast<std::size_t>(i)] = F.scale * sum + F.regularisation;
    }
    return diagonal;
  }
  const auto matrix =
      Teuchos::rcp_dynamic_cast<const Tpetra::RowMatrix<Scalar, LocalOrdinal, GlobalOrdinal, Node>>(
          qp.A);
  if (matrix.is_null()) {
    throw std::invalid_argument(
        "the diagonal of A is needed (Jacobi scaling or preconditioning), but A is neither an "
        "assembled matrix nor given in factored form");
  }
  Vector d(qp.b->getMap(), false);
  matrix->getLocalDiagCopy(d);
  const double* pd = readOnly(d);
  std::copy(pd, pd + n, diagonal.begin());
  return diagonal;
}

void projectedStep(const ConeSet& cones, const Vector& x, const Vector& Ax, const Vector* b,
                   double alpha, Vector& out) {
  projectedStep(cones, Extrapolation{&x, &Ax}, b, alpha, out);
}

void projectedStep(const ConeSet& cones, const Extrapolation& from, const Vector* b, double alpha,
                   Vector& out) {
  const double* pb = b ? readOnly(*b) : nullptr;
  double* po = out.getLocalViewHost(Tpetra::Access::OverwriteAll).data();
  cones.requireBounds("projected step");
  withExtrapolatedEntries(from, [&](const auto& entries) {
    withProjectionKind(cones, [&](auto kind) {
      projectedStepLoop<decltype(kind)::value, false>(cones, entries, pb, alpha, nullptr, nullptr,
                                                      po);
    });
  });
}

namespace {

// The cones a residual is measured against. Fixed-bound models without
// bounds give the quasi-variational residual, with the bounds taken from the
// evaluated iterate (the Tresca fixed point); `storage` holds those.
const ConeSet& residualCones(const ConeSet& cones, const double* px, ConeSet& storage) {
  if (!hasFixedBounds(cones.model) || cones.boundsFixed()) return cones;
  storage = cones.withBoundsFrom(px);
  return storage;
}

// Contact c's share of the natural residual: max_k |x - Pi(x - (Ax + b))|_k.
template <ProjectionKind Kind>
inline double contactResidual(const ConeSet& set, Index c, const double* px, const double* pAx,
                              const double* pb) {
  constexpr int block = kindBlockSize<Kind>();
  double z[block];
  for (int k = 0; k < block; ++k) {
    const Index i = block * c + k;
    z[k] = px[i] - (pAx[i] + (pb ? pb[i] : 0.0));
  }
  projectContactAs<Kind>(set, static_cast<std::size_t>(c), z);
  double worst = 0.0;
  for (int k = 0; k < block; ++k)
    worst = std::max(worst, nanAsInfinity(std::abs(px[block * c + k] - z[k])));
  return worst;
}

// The natural residual over this rank's contacts.
template <ProjectionKind Kind>
double residualSweep(const ConeSet& set, const double* px, const double* pAx, const double* pb) {
  const Index contacts = static_cast<Index>(set.localContacts());
  double residual = 0.0;
#pragma omp parallel for schedule(static) reduction(max : residual)
  for (Index c = 0; c < contacts; ++c)
    residual = std::max(residual, contactResidual<Kind>(set, c, px, pAx, pb));
  return residual;
}

}  // namespace

double naturalResidual(const ConeSet& cones, const Vector& x, const Vector& Ax, const Vector* b) {
  const double* px = readOnly(x);
  ConeSet storage;
  const ConeSet& set = residualCones(cones, px, storage);
  const double* pAx = readOnly(Ax);
  const double* pb = b ? readOnly(*b) : nullptr;
  const double local = withProjectionKind(
      set, [&](auto kind) { return residualSweep<decltype(kind)::value>(set, px, pAx, pb); });
  return globalMax(x, local);
}

namespace {

// Histogram bins of a non-negative double: its exponent and the top three
// bits of its mantissa, i.e. eight bins per octave, monotone in the value.
// Residuals below 2^-100 share the first bin, those above 2^60 (and NaN,
// counted as infinite) the last.
constexpr int kSpreadMantissaBits = 3;
constexpr int kSpreadShift = 52 - kSpreadMantissaBits;
constexpr std::uint64_t kSpreadLowestKey = static_cast<std::uint64_t>(1023 - 100)
                                           << kSpreadMantissaBits;
constexpr std::uint64_t kSpreadHighestKey = static_cast<std::uint64_t>(1023 + 60)
                                            << kSpreadMantissaBits;
constexpr std::size_t kSpreadBins = kSpreadHighestKey - kSpreadLowestKey + 1;

std::size_t spreadBin(double value) {
  if (!(value < std::numeric_limits<double>::infinity())) return kSpreadBins - 1;
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  const std::uint64_t key = bits >> kSpreadShift;
  if (key <= kSpreadLowestKey) return 0;
  if (key >= kSpreadHighestKey) return kSpreadBins - 1;
  return static_cast<std::size_t>(key - kSpreadLowestKey);
}

// The largest value of bin `bin` (its upper edge).
double spreadBinTop(std::size_t bin) {
  if (bin + 1 >= kSpreadBins) return std::numeric_limits<double>::infinity();
  const std::uint64_t bits = (kSpreadLowestKey + bin + 1) << kSpreadShift;
  double top = 0.0;
  std::memcpy(&top, &bits, sizeof top);
  return top;
}

// residualSweep that also counts every contact's share into `counts`.
template <ProjectionKind Kind>
double spreadSweep(const ConeSet& set, const double* px, const double* pAx, const double* pb,
                   std::vector<long long>& counts) {
  const Index contacts = static_cast<Index>(set.localContacts());
  double worst = 0.0;
#pragma omp parallel reduction(max : worst)
  {
    std::vector<long long> local(kSpreadBins, 0LL);
#pragma omp for schedule(static) nowait
    for (Index c = 0; c < contacts; ++c) {
      const double r = contactResidual<Kind>(set, c, px, pAx, pb);
      worst = std::max(worst, r);
      ++local[spreadBin(r)];
    }
#pragma omp critical(grains_residual_spread)
    for (std::size_t k = 0; k < kSpreadBins; ++k) counts[k] += local[k];
  }
  return worst;
}

}  // namespace

ResidualSpread naturalResidualSpread(const ConeSet& cones, const Vector& x, const Vector& Ax,
                                     const Vector* b, double quantile) {
  if (!(quantile > 0.0 && quantile <= 1.0))
    throw std::invalid_argument("naturalResidualSpread: the quantile must lie in (0, 1]");
  ResidualSpread spread;
  if (quantile == 1.0) {  // the worst contact: no histogram needed
    spread.worst = spread.quantile = naturalResidual(cones, x, Ax, b);
    return spread;
  }
  const double* px = readOnly(x);
  ConeSet storage;
  const ConeSet& set = residualCones(cones, px, storage);
  const double* pAx = readOnly(Ax);
  const double* pb = b ? readOnly(*b) : nullptr;
  std::vector<long long> counts(kSpreadBins, 0LL);
  const double local = withProjectionKind(
      set, [&](auto kind) { return spreadSweep<decltype(kind)::value>(set, px, pAx, pb, counts); });
  spread.worst = globalMax(x, local);
  // Integer counts add up the same in any order: the quantile does not
  // depend on the partition.
  std::vector<long long> global(kSpreadBins, 0LL);
  Teuchos::reduceAll(*x.getMap()->getComm(), Teuchos::REDUCE_SUM, static_cast<int>(kSpreadBins),
                     counts.data(), global.data());
  long long total = 0;
  for (long long n : global) total += n;
  if (total == 0) return spread;
  const auto needed = static_cast<long long>(std::ceil(quantile * static_cast<double>(total)));
  long long seen = 0;
  for (std::size_t k = 0; k < kSpreadBins; ++k) {
    seen += global[k];
    if (seen >= needed) {
      spread.quantile = std::min(spreadBinTop(k), spread.worst);
      break;
    }
  }
  return spread;
}

StopCheck checkStop(const StopRule& rule, const ConeSet& cones, const Vector& x, const Vector& Ax,
                    const Vector* b) {
  if (rule.quantile >= 1.0) {
    const double residual = naturalResidual(cones, x, Ax, b);
    return {residual, residual <= rule.target};
  }
  const ResidualSpread spread = naturalResidualSpread(cones, x, Ax, b, rule.quantile);
  return {spread.worst, spread.worst <= rule.target ||
                            (spread.quantile <= rule.target && spread.worst <= rule.worst_limit)};
}

double objectiveValue(const Vector& x, const Vector& Ax, const Vector* b) {
  const double* px = readOnly(x);
  const double* pAx = readOnly(Ax);
  const double* pb = b ? readOnly(*b) : nullptr;
  return reproducibleSums<1>(x, [=](Index i) -> std::array<double, 1> {
    return {px[i] * (0.5 * pAx[i] + (pb ? pb[i] : 0.0))};
  })[0];
}

double reproducibleNorm2(const Vector& x) {
  const double* px = readOnly(x);
  return std::sqrt(
      reproducibleSums<1>(x, [=](Index i) -> std::array<double, 1> { return {px[i] * px[i]}; })[0]);
}

namespace {

// Entry i's terms of the three trial-step sums.
template <bool Scaled, typename Entries>
inline std::array<double, 3> trialTerms(Index i, const double* px, const double* pAx,
                                        const Entries& from, const double* inverse_scale,
                                        const double* pb) {
  const double d = px[i] - from.y(i);
  double length;
  if constexpr (Scaled) {
    const double measured = d * inverse_scale[i];
    length = measured * measured;
  } else {
    length = d * d;
  }
  return {d * (pAx[i] - from.Ay(i)), length,
          (from.Ay(i) + (pb ? pb[i] : 0.0)) * (px[i] - from.x[i])};
}

template <bool Scaled, typename Entries>
TrialStep trialStepSums(const Vector& x, const double* px, const double* pAx, const Entries& from,
                        const double* inverse_scale, const double* pb, bool reproducible) {
  const auto terms = [=](Index i) {
    return trialTerms<Scaled>(i, px, pAx, from, inverse_scale, pb);
  };
  if (reproducible) {
    const auto sums = reproducibleSums<3>(x, terms);
    return {sums[0], sums[1], sums[2], 0.0, 0.0, 0.0};
  }
  const Index n = localLength(x);
  double curvature = 0.0, length = 0.0, restart = 0.0;
  double curvature_size = 0.0, restart_size = 0.0;
#pragma omp parallel for schedule(static) \
    reduction(+ : curvature, length, restart, curvature_size, restart_size)
  for (Index i = 0; i < n; ++i) {
    const std::array<double, 3> t = terms(i);
    curvature += t[0];
    length += t[1];
    restart += t[2];
    curvature_size += std::abs(t[0]);
    restart_size += std::abs(t[2]);
  }
  const auto global = globalSums<5>(x, {curvature, length, restart, curvature_size, restart_size});
  // Any order of summing n terms is within gamma_n sum|t| of the exact sum
  // (Higham, Accuracy and Stability of Numerical Algorithms, 2002, eq. 4.4);
  // doubled for the round-off of the sizes themselves.
  const double count = static_cast<double>(x.getGlobalLength()) + 1.0;
  const double unit = std::ldexp(1.0, -53);
  const double gamma = 2.0 * count * unit / (1.0 - count * unit);
  return {global[0], global[1], global[2], gamma * global[3], gamma * global[1], gamma * global[4]};
}

}  // namespace

TrialStep trialStep(const Vector& x, const Vector& Ax, const Extrapolation& from,
                    const double* inverse_scale, const Vector* b, bool reproducible) {
  const double* px = readOnly(x);
  const double* pAx = readOnly(Ax);
  const double* pb = b ? readOnly(*b) : nullptr;
  return withExtrapolatedEntries(from, [&](const auto& entries) {
    return inverse_scale ? trialStepSums<true>(x, px, pAx, entries, inverse_scale, pb, reproducible)
                         : trialStepSums<false>(x, px, pAx, entries, nullptr, pb, reproducible);
  });
}

std::array<double, 2> quadraticChange(const Vector& x, const Vector& x_from, const Vector& g,
                                      const Vector& g_from) {
  const double* px = readOnly(x);
  const double* pf = readOnly(x_from);
  const double* pg = readOnly(g);
  const double* pgf = readOnly(g_from);
  const Index n = localLength(x);
  double change = 0.0, scale = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : change, scale)
  for (Index i = 0; i < n; ++i) {
    const double s = px[i] - pf[i];
    change += 0.5 * s * (pg[i] + pgf[i]);
    scale += std::abs(s) * (std::abs(pg[i]) + std::abs(pgf[i]));
  }
  return globalSums<2>(x, {change, scale});
}

double powerNormEstimate(const RCP<const Map>& map, int iterations,
                         const std::function<void(const Vector&, Vector&)>& apply) {
  Vector v(map, false), Av(map, false);
  {
    double* pv = v.getLocalViewHost(Tpetra::Access::OverwriteAll).data();
    const auto n = static_cast<Index>(map->getNodeNumElements());
    for (Index i = 0; i < n; ++i) {
      const auto gid = static_cast<double>(map->getGlobalElement(static_cast<LocalOrdinal>(i)));
      pv[i] = 1.0 + 0.5 * std::sin(1.0 + 0.7 * gid);
    }
  }
  const double norm = v.norm2();
  if (!(norm > 0.0)) return 1.0;
  v.scale(1.0 / norm);
  double estimate = 0.0;
  for (int it = 0; it < iterations; ++it) {
    apply(v, Av);
    estimate = Av.norm2();
    if (!(estimate > 0.0) || !std::isfinite(estimate)) break;
    v.update(1.0 / estimate, Av, 0.0);
  }
  return estimate > 0.0 && std::isfinite(estimate) ? estimate : 1.0;
}

std::array<double, 3> stepDots(const Vector& s, const Vector& y) {
  const double* ps = readOnly(s);
  const double* py = readOnly(y);
  return reproducibleSums<3>(s, [=](Index i) -> std::array<double, 3> {
    return {ps[i] * ps[i], ps[i] * py[i], py[i] * py[i]};
  });
}

namespace {
SolveReport reportOf(const std::string& solver, const QpMeasures& m, int iterations,
                     int operator_applies, double tolerance) {
  SolveReport report;
  report.solver = solver;
  report.iterations = iterations;
  report.residual = m.residual;
  report.objective = m.objective;
  report.converged = m.residual <= tolerance;
  report.operator_applies = operator_applies;
  return report;
}
}  // namespace

SolveReport finishReport(const std::string& solver, const QuadraticProgram& qp, const Vector& best,
                         Vector& gamma, int iterations, int operator_applies, double tolerance) {
  if (&best != &gamma) Tpetra::deep_copy(gamma, best);
  return reportOf(solver, evaluateMeasures(qp, gamma), iterations, operator_applies + 1, tolerance);
}

SolveReport finishReport(const std::string& solver, const QuadraticProgram& qp, const Vector& best,
                         const Vector& A_best, Vector& gamma, int iterations, int operator_applies,
                         double tolerance) {
  if (&best != &gamma) Tpetra::deep_copy(gamma, best);
  QpMeasures m;
  m.residual = naturalResidual(qp.cones, gamma, A_best, qp.b.get());
  m.objective = objectiveValue(gamma, A_best, qp.b.get());
  return reportOf(solver, m, iterations, operator_applies, tolerance);
}

void checkLayout(const QuadraticProgram& qp, const Vector& gamma, const char* who) {
  if (qp.A.is_null() || qp.b.is_null()) {
    throw std::invalid_argument(std::string(who) + ": the quadratic program has no A or no b");
  }
  if (qp.cones.model == FrictionModel::CoulombRolling) qp.cones.requireBounds(who);
  const std::size_t expected =
      static_cast<std::size_t>(qp.cones.blockSize()) * qp.cones.localContacts();
  if (qp.b->getLocalLength() != expected || gamma.getLocalLength() != expected) {
    throw std::invalid_argument(std::string(who) +
                                ": local sizes do not match the cone set (b has " +
                                std::to_string(qp.b->getLocalLength()) + " entries, gamma has " +
                                std::to_string(gamma.getLocalLength()) + ", the cones expect " +
                                std::to_string(expected) + ")");
  }
}

}  // namespace grains::solver_detail
