// Diagonal metric for projected-gradient solvers; see diagonal_metric.hpp.
#include "diagonal_metric.hpp"

#include "contact_projection.hpp"
#include "solver_kernels.hpp"

#include <Teuchos_CommHelpers.hpp>

#include <algorithm>
#include <cmath>

namespace grains::solver_detail {
namespace {

using Index = long long;

const double* readOnly(const Vector& v) {
  return v.getLocalViewHost(Tpetra::Access::ReadOnly).data();
}

bool usable(double diagonal) { return diagonal > 0.0 && std::isfinite(diagonal); }

}  // namespace

DiagonalMetric diagonalMetric(const QuadraticProgram& qp) {
  const std::vector<double> diagonal = localDiagonal(qp);
  const std::size_t contacts = qp.cones.localContacts();
  const auto block = static_cast<std::size_t>(qp.cones.blockSize());
  DiagonalMetric metric;
  metric.cones = qp.cones;
  metric.scale.assign(diagonal.size(), 0.0);
  // Per contact: the normal row alone, the tangential rows averaged (the
  // friction set is isotropic in the tangent plane, and so must its scaling be).
  double smallest = 0.0;  // smallest usable diagonal entry: the largest scale
  for (std::size_t c = 0; c < contacts; ++c) {
    const double* d = diagonal.data() + block * c;
    const double normal = d[0];
    const double tangential = block == 3 ? 0.5 * (d[1] + d[2]) : normal;
    for (double p : {normal, tangential})
      if (usable(p)) smallest = smallest > 0.0 ? std::min(smallest, p) : p;
    double* s = metric.scale.data() + block * c;
    s[0] = usable(normal) ? 1.0 / std::sqrt(normal) : 0.0;
    for (std::size_t k = 1; k < block; ++k)
      s[k] = usable(tangential) ? 1.0 / std::sqrt(tangential) : 0.0;
  }
  double global_smallest = 0.0;
  const double local_largest_inverse = smallest > 0.0 ? 1.0 / smallest : 0.0;
  Teuchos::reduceAll(*qp.b->getMap()->getComm(), Teuchos::REDUCE_MAX, local_largest_inverse,
                     Teuchos::outArg(global_smallest));
  const double fallback = global_smallest > 0.0 ? std::sqrt(global_smallest) : 1.0;
  for (double& s : metric.scale)
    if (!(s > 0.0)) s = fallback;
  metric.inverse.resize(metric.scale.size());
  for (std::size_t i = 0; i < metric.scale.size(); ++i) metric.inverse[i] = 1.0 / metric.scale[i];
  if (block == 3) {
    for (std::size_t c = 0; c < contacts; ++c) {
      const double s_n = metric.scale[block * c];
      const double s_t = metric.scale[block * c + 1];
      metric.cones.mu[c] *= s_n / s_t;
      if (c < metric.cones.normal_bound.size()) metric.cones.normal_bound[c] /= s_n;
    }
  }
  return metric;
}

namespace {

template <ProjectionKind Kind>
void scaledProjectedStep(const DiagonalMetric& metric, const double* px, const double* pAx,
                         const double* pb, double alpha, double* po) {
  const double* ps = metric.scale.data();
  const double* pinv = metric.inverse.data();
  const ConeSet& cones = metric.cones;
  constexpr int block = kindBlockSize<Kind>();
  const auto contacts = static_cast<Index>(cones.localContacts());
#pragma omp parallel for schedule(static)
  for (Index c = 0; c < contacts; ++c) {
    double z[block];
    for (int k = 0; k < block; ++k) {
      const Index i = block * c + k;
      z[k] = px[i] * pinv[i] - alpha * ps[i] * (pAx[i] + (pb ? pb[i] : 0.0));
    }
    projectContactAs<Kind>(cones, static_cast<std::size_t>(c), z);
    for (int k = 0; k < block; ++k) po[block * c + k] = ps[block * c + k] * z[k];
  }
}

}  // namespace

void scaledProjectedStep(const DiagonalMetric& metric, const Vector& x, const Vector& Ax,
                         const Vector* b, double alpha, Vector& out) {
  const double* px = readOnly(x);
  const double* pAx = readOnly(Ax);
  const double* pb = b ? readOnly(*b) : nullptr;
  double* po = out.getLocalViewHost(Tpetra::Access::OverwriteAll).data();
  metric.cones.requireBounds("projected step");
  withProjectionKind(metric.cones, [&](auto kind) {
    scaledProjectedStep<decltype(kind)::value>(metric, px, pAx, pb, alpha, po);
  });
}

std::pair<double, double> scaledDifferenceCurvature(const DiagonalMetric& metric, const Vector& x,
                                                    const Vector& y, const Vector& Ax,
                                                    const Vector& Ay) {
  const double* px = readOnly(x);
  const double* py = readOnly(y);
  const double* pAx = readOnly(Ax);
  const double* pAy = readOnly(Ay);
  const double* pinv = metric.inverse.data();
  const auto n = static_cast<Index>(x.getLocalLength());
  double curvature = 0.0;
  double length = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : curvature, length)
  for (Index i = 0; i < n; ++i) {
    const double d = px[i] - py[i];
    curvature += d * (pAx[i] - pAy[i]);
    const double scaled = d * pinv[i];
    length += scaled * scaled;
  }
  double local[2] = {curvature, length};
  double global[2] = {0.0, 0.0};
  Teuchos::reduceAll(*x.getMap()->getComm(), Teuchos::REDUCE_SUM, 2, local, global);
  return {global[0], global[1]};
}

double scaledLipschitzEstimate(const DiagonalMetric& metric, const Vector& d, const Vector& Ad) {
  const double* pd = readOnly(d);
  const double* pAd = readOnly(Ad);
  const double* ps = metric.scale.data();
  const double* pinv = metric.inverse.data();
  const auto n = static_cast<Index>(d.getLocalLength());
  double image = 0.0;
  double length = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : image, length)
  for (Index i = 0; i < n; ++i) {
    const double a = ps[i] * pAd[i];
    const double l = pd[i] * pinv[i];
    image += a * a;
    length += l * l;
  }
  double local[2] = {image, length};
  double global[2] = {0.0, 0.0};
  Teuchos::reduceAll(*d.getMap()->getComm(), Teuchos::REDUCE_SUM, 2, local, global);
  return global[1] > 0.0 ? std::sqrt(global[0] / global[1]) : 0.0;
}

}  // namespace grains::solver_detail
