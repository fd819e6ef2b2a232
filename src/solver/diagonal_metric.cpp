// Diagonal metric for projected-gradient solvers; see diagonal_metric.hpp.
#include "diagonal_metric.hpp"

#include "contact_projection.hpp"
#include "solver_kernels.hpp"

#include <algorithm>
#include <cmath>

namespace grains::solver_detail {
namespace {

using Index = long long;

bool usable(double diagonal) { return diagonal > 0.0 && std::isfinite(diagonal); }

/// Consecutive rows of a contact that share one scale.
struct RowGroup {
  int first;
  int rows;
};

/// The groups of a contact's rows: normal; tangents; rolling; spinning.
const std::vector<RowGroup>& contactRowGroups(std::size_t block) {
  static const std::vector<RowGroup> rolling = {{0, 1}, {1, 2}, {3, 2}, {5, 1}};
  static const std::vector<RowGroup> friction = {{0, 1}, {1, 2}};
  static const std::vector<RowGroup> normal = {{0, 1}};
  return block == 6 ? rolling : block == 3 ? friction : normal;
}

}  // namespace

DiagonalMetric diagonalMetric(const QuadraticProgram& qp) {
  // The diagonal the assembly stored is read in place, not copied per solve.
  if (const std::vector<double>* stored = assembledDiagonal(qp))
    return diagonalMetric(qp.cones, *stored, *qp.b);
  return diagonalMetric(qp.cones, localDiagonal(qp), *qp.b);
}

DiagonalMetric diagonalMetric(const ConeSet& cones, const std::vector<double>& diagonal,
                              const Vector& layout) {
  const std::size_t contacts = cones.localContacts();
  const auto block = static_cast<std::size_t>(cones.blockSize());
  DiagonalMetric metric;
  metric.cones = cones;
  metric.scale.assign(diagonal.size(), 0.0);
  // Per contact and group of rows one scale: the normal row alone, the
  // tangential rows averaged (the friction set is isotropic in the tangent
  // plane, and so must its scaling be), with rolling the two rolling rows
  // averaged and the spinning row alone. Rows in contactRowGroups order.
  double smallest = 0.0;  // smallest usable diagonal entry: the largest scale
  const std::vector<RowGroup>& groups = contactRowGroups(block);
  for (std::size_t c = 0; c < contacts; ++c) {
    const double* d = diagonal.data() + block * c;
    double* s = metric.scale.data() + block * c;
    for (const RowGroup& group : groups) {
      double p = 0.0;
      for (int k = group.first; k < group.first + group.rows; ++k) p += d[k];
      p /= group.rows;
      if (usable(p)) smallest = smallest > 0.0 ? std::min(smallest, p) : p;
      for (int k = group.first; k < group.first + group.rows; ++k)
        s[k] = usable(p) ? 1.0 / std::sqrt(p) : 0.0;
    }
  }
  const double largest_inverse = globalMax(layout, smallest > 0.0 ? 1.0 / smallest : 0.0);
  const double fallback = largest_inverse > 0.0 ? std::sqrt(largest_inverse) : 1.0;
  for (double& s : metric.scale)
    if (!(s > 0.0)) s = fallback;
  metric.inverse.resize(metric.scale.size());
  for (std::size_t i = 0; i < metric.scale.size(); ++i) metric.inverse[i] = 1.0 / metric.scale[i];
  // S^-1 K: |t| <= mu n becomes |t'| <= mu (s_n / s_t) n', and likewise
  // for the rolling disc and the spinning interval.
  if (block > 1) {
    for (std::size_t c = 0; c < contacts; ++c) {
      const double* s = metric.scale.data() + block * c;
      metric.cones.mu[c] *= s[0] / s[1];
      if (c < metric.cones.normal_bound.size()) metric.cones.normal_bound[c] /= s[0];
      if (block == 6) {
        metric.cones.rolling[c] *= s[0] / s[3];
        metric.cones.spinning[c] *= s[0] / s[5];
      }
    }
  }
  return metric;
}

void scaledProjectedStep(const DiagonalMetric& metric, const Vector& x, const Vector& Ax,
                         const Vector* b, double alpha, Vector& out) {
  scaledProjectedStep(metric, Extrapolation{&x, &Ax}, b, alpha, out);
}

void scaledProjectedStep(const DiagonalMetric& metric, const Extrapolation& from, const Vector* b,
                         double alpha, Vector& out) {
  const double* pb = b ? readOnly(*b) : nullptr;
  double* po = out.getLocalViewHost(Tpetra::Access::OverwriteAll).data();
  metric.cones.requireBounds("projected step");
  withExtrapolatedEntries(from, [&](const auto& entries) {
    withProjectionKind(metric.cones, [&](auto kind) {
      projectedStepLoop<decltype(kind)::value, true>(
          metric.cones, entries, pb, alpha, metric.scale.data(), metric.inverse.data(), po);
    });
  });
}

double scaledLipschitzEstimate(const DiagonalMetric& metric, const Vector& d, const Vector& Ad) {
  const double* pd = readOnly(d);
  const double* pAd = readOnly(Ad);
  const double* ps = metric.scale.data();
  const double* pinv = metric.inverse.data();
  const auto [image_squared, length_squared] =
      reproducibleSums<2>(d, [=](long long i) -> std::array<double, 2> {
        const double a = ps[i] * pAd[i];
        const double l = pd[i] * pinv[i];
        return {a * a, l * l};
      });
  return length_squared > 0.0 ? std::sqrt(image_squared / length_squared) : 0.0;
}

}  // namespace grains::solver_detail
