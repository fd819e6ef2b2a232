#include "grains/constraint/contact_frame_jacobian.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace grains {

namespace {
using Index = long;
}  // namespace

ContactFrameJacobian::ContactFrameJacobian(int rows_per_contact, std::vector<int> bodies,
                                           std::vector<double> frames, std::size_t column_bodies,
                                           bool reproducible)
    : block_(rows_per_contact),
      reproducible_(reproducible),
      bodies_(std::move(bodies)),
      frames_(std::move(frames)) {
  if (block_ != 1 && block_ != 3 && block_ != 6)
    throw std::logic_error("ContactFrameJacobian: " + std::to_string(block_) +
                           " rows per contact (expected 1, 3 or 6)");
  const std::size_t ncontacts = bodies_.size() / 2;
  if (bodies_.size() % 2 != 0 ||
      frames_.size() != ncontacts * static_cast<std::size_t>(frameStride(block_)))
    throw std::logic_error("ContactFrameJacobian: " + std::to_string(bodies_.size()) +
                           " body indices and " + std::to_string(frames_.size()) +
                           " frame values do not describe whole contacts");
  for (std::size_t k = 0; k < bodies_.size(); ++k) {
    const int body = bodies_[k];
    const bool wall_side = k % 2 == 0 && body == -1;
    if (!wall_side && (body < 0 || static_cast<std::size_t>(body) >= column_bodies))
      throw std::logic_error("ContactFrameJacobian: body " + std::to_string(body) +
                             " outside the " + std::to_string(column_bodies) + " column bodies");
  }
  force_.assign(static_cast<std::size_t>(forceStride()) * ncontacts, 0.0);
  // Incidences by counting sort, contacts in increasing order within a body
  // (the summation order of D x then does not depend on threads).
  body_start_.assign(column_bodies + 1, 0);
  for (int body : bodies_)
    if (body >= 0) ++body_start_[static_cast<std::size_t>(body) + 1];
  for (std::size_t b = 0; b < column_bodies; ++b) body_start_[b + 1] += body_start_[b];
  for (std::size_t b = 0; b < column_bodies; ++b)
    if (body_start_[b + 1] - body_start_[b] > static_cast<int>(kMaxBodyTerms))
      throw std::logic_error("ContactFrameJacobian: body " + std::to_string(b) + " has " +
                             std::to_string(body_start_[b + 1] - body_start_[b]) +
                             " contacts, more than the reproducible sums are sized for");
  const auto nincidences = static_cast<std::size_t>(body_start_[column_bodies]);
  incidence_.resize(nincidences);
  incidence_arm_.resize(3 * nincidences);
  // The slots in one serial pass over the indices; the arms, most of the
  // bytes, are then copied in parallel.
  std::vector<int> fill(body_start_.begin(), body_start_.end() - 1);
  for (std::size_t c = 0; c < ncontacts; ++c) {
    for (std::size_t side = 0; side < 2; ++side) {
      const int body = bodies_[2 * c + side];
      if (body < 0) continue;
      const auto slot = static_cast<std::size_t>(fill[static_cast<std::size_t>(body)]++);
      incidence_[slot] = static_cast<int>(2 * c + side);
    }
  }
  const auto n = static_cast<Index>(nincidences);
  const int* incidence = incidence_.data();
  const double* frame_values = frames_.data();
  double* arms = incidence_arm_.data();
  const Index stride = frameStride(block_);
  const Index arm_offset = 3 * block_;
#pragma omp parallel for schedule(static)
  for (Index slot = 0; slot < n; ++slot) {
    const int code = incidence[slot];
    const double* arm = frame_values + (code >> 1) * stride + arm_offset + 3 * (code & 1);
    for (int k = 0; k < 3; ++k) arms[3 * slot + k] = arm[k];
  }
}

double ContactFrameJacobian::formForces(const double* x) const {
  // Stage 1, in contact order (streaming): the force of each contact on its
  // body b, f = sum over the linear rows of direction * impulse, and with
  // rolling the pure torque of the angular rows, tau = sum direction * impulse.
  // Each body-sum term is a force component, a torque component
  // (r x f)_k <= |r|_1 |f|_inf, or that plus tau_k: bounded per contact by
  // |f|_inf max(1, |r_a|_1, |r_b|_1) + |tau|_inf.
  const auto ncontacts = static_cast<Index>(contacts());
  double* force = force_.data();
  const double* frames = frames_.data();
  const Index stride = frameStride(block_);
  const int block = block_;
  double bound = 0.0;
#pragma omp parallel for schedule(static) reduction(max : bound)
  for (Index c = 0; c < ncontacts; ++c) {
    const double* t = frames + c * stride;
    double f[3];
    double torque = 0.0;
    if (block == 6) {
      const double* xc = x + 6 * c;
      for (int k = 0; k < 3; ++k) {
        f[k] = t[k] * xc[0] + t[3 + k] * xc[1] + t[6 + k] * xc[2];
        const double tau = t[9 + k] * xc[3] + t[12 + k] * xc[4] + t[15 + k] * xc[5];
        force[6 * c + 3 + k] = tau;
        torque = std::max(torque, std::abs(tau));
      }
    } else if (block == 3) {
      const double* xc = x + 3 * c;
      for (int k = 0; k < 3; ++k) f[k] = t[k] * xc[0] + t[3 + k] * xc[1] + t[6 + k] * xc[2];
    } else {
      for (int k = 0; k < 3; ++k) f[k] = t[k] * x[c];
    }
    const Index out = (block == 6 ? 6 : 3) * c;
    double largest = 0.0;
    for (int k = 0; k < 3; ++k) {
      force[out + k] = f[k];
      largest = std::max(largest, std::abs(f[k]));
    }
    const double* ra = t + 3 * block;
    const double* rb = ra + 3;
    const double arm = std::max({1.0, std::abs(ra[0]) + std::abs(ra[1]) + std::abs(ra[2]),
                                 std::abs(rb[0]) + std::abs(rb[1]) + std::abs(rb[2])});
    // NaN must reach the bound (max drops it): it poisons the sums.
    const double term = largest * arm + torque;
    bound = std::max(bound, std::isnan(term) ? std::numeric_limits<double>::infinity() : term);
  }
  return bound;
}

template <bool Folded>
void ContactFrameJacobian::gatherBody(std::size_t b, const BodySums& grids,
                                      BodySums::Parts sum[6]) const {
  // Stage 2, per body: its contacts' forces (b: +f, a: -f) and torques
  // r x f, plus (b: +tau, a: -tau) with rolling, each term on the two grids
  // of BodySums, written out as six lanes so that the compiler vectorises them.
  static_assert(BodySums::kFolds == 2, "gatherBody folds onto two grids");
  [[maybe_unused]] const double split0 = grids.split(0), split1 = grids.split(1);
  double grid0[6] = {0, 0, 0, 0, 0, 0};
  double grid1[6] = {0, 0, 0, 0, 0, 0};
  const double* force = force_.data();
  const Index force_stride = forceStride();
  for (int inc = body_start_[b]; inc < body_start_[b + 1]; ++inc) {
    const int code = incidence_[static_cast<std::size_t>(inc)];
    const double* f = force + force_stride * static_cast<Index>(code >> 1);
    const double sign = (code & 1) != 0 ? 1.0 : -1.0;
    const double f0 = sign * f[0], f1 = sign * f[1], f2 = sign * f[2];
    const double* arm = incidence_arm_.data() + 3 * static_cast<Index>(inc);
    double term[6] = {f0,
                      f1,
                      f2,
                      arm[1] * f2 - arm[2] * f1,
                      arm[2] * f0 - arm[0] * f2,
                      arm[0] * f1 - arm[1] * f0};
    if (force_stride == 6) {
      term[3] += sign * f[3];
      term[4] += sign * f[4];
      term[5] += sign * f[5];
    }
    if constexpr (Folded) {
      for (int k = 0; k < 6; ++k) {
        const double on0 = (split0 + term[k]) - split0;
        const double rest = term[k] - on0;
        grid0[k] += on0;
        grid1[k] += (split1 + rest) - split1;
      }
    } else {
      for (int k = 0; k < 6; ++k) grid0[k] += term[k];
    }
  }
  for (int k = 0; k < 6; ++k) {
    sum[k].on_grid[0] = grid0[k];
    sum[k].on_grid[1] = grid1[k];
  }
}

void ContactFrameJacobian::sumForces(double bound, double* grid0, double* grid1) const {
  const BodySums grids(bound, kMaxBodyTerms);
  const auto nbodies = static_cast<Index>(columnBodies());
#pragma omp parallel for schedule(static)
  for (Index b = 0; b < nbodies; ++b) {
    BodySums::Parts sum[6];
    gather(static_cast<std::size_t>(b), grids, sum);
    for (int k = 0; k < 6; ++k) {
      grid0[6 * b + k] = sum[k].on_grid[0];
      grid1[6 * b + k] = sum[k].on_grid[1];
    }
  }
}

void ContactFrameJacobian::multiplyD(const double* x, double* v) const {
  const BodySums grids(formForces(x), kMaxBodyTerms);
  const auto nbodies = static_cast<Index>(columnBodies());
#pragma omp parallel for schedule(static)
  for (Index b = 0; b < nbodies; ++b) {
    BodySums::Parts sum[6];
    gather(static_cast<std::size_t>(b), grids, sum);
    for (int k = 0; k < 6; ++k) v[6 * b + k] = grids.total(sum[k]);
  }
}

void ContactFrameJacobian::multiplyWD(const double* x, const std::vector<BodyMobility>& mobility,
                                      double* v) const {
  if (mobility.size() > columnBodies())
    throw std::logic_error("ContactFrameJacobian::multiplyWD: more mobilities than column bodies");
  const BodySums grids(formForces(x), kMaxBodyTerms);
  const auto nbodies = static_cast<Index>(mobility.size());
#pragma omp parallel for schedule(static)
  for (Index b = 0; b < nbodies; ++b) {
    BodySums::Parts sum[6];
    gather(static_cast<std::size_t>(b), grids, sum);
    double total[6];
    for (int k = 0; k < 6; ++k) total[k] = grids.total(sum[k]);
    mobility[static_cast<std::size_t>(b)].apply(total, v + 6 * b);
  }
}

namespace {
// D^T w for contacts with Block rows each (a compile-time count, so that the
// row loop unrolls).
template <int Block>
void contactRates(Index ncontacts, const int* bodies, const double* frames, const double* w,
                  double alpha, const double* x, double reg, double beta, double* y) {
  constexpr Index stride = 3 * Block + 6;
#pragma omp parallel for schedule(static)
  for (Index c = 0; c < ncontacts; ++c) {
    const double* t = frames + c * stride;
    // Relative velocity of the contact points, v_b - v_a with v = u + w x r.
    const double* rb = t + 3 * Block + 3;
    const double* wb = w + 6 * static_cast<Index>(bodies[2 * c + 1]);
    double v0 = wb[0] + wb[4] * rb[2] - wb[5] * rb[1];
    double v1 = wb[1] + wb[5] * rb[0] - wb[3] * rb[2];
    double v2 = wb[2] + wb[3] * rb[1] - wb[4] * rb[0];
    const int a = bodies[2 * c];
    if (a >= 0) {
      const double* ra = t + 3 * Block;
      const double* wa = w + 6 * static_cast<Index>(a);
      v0 -= wa[0] + wa[4] * ra[2] - wa[5] * ra[1];
      v1 -= wa[1] + wa[5] * ra[0] - wa[3] * ra[2];
      v2 -= wa[2] + wa[3] * ra[1] - wa[4] * ra[0];
    }
    // With rolling (Block 6) rows 3-5 see the relative angular velocity.
    double o0 = 0.0, o1 = 0.0, o2 = 0.0;
    if constexpr (Block == 6) {
      o0 = wb[3];
      o1 = wb[4];
      o2 = wb[5];
      if (a >= 0) {
        const double* wa = w + 6 * static_cast<Index>(a);
        o0 -= wa[3];
        o1 -= wa[4];
        o2 -= wa[5];
      }
    }
    for (int r = 0; r < Block; ++r) {
      const Index row = c * Block + r;
      const bool angular = Block == 6 && r >= 3;
      const double d0 = angular ? o0 : v0, d1 = angular ? o1 : v1, d2 = angular ? o2 : v2;
      double out = alpha * (t[3 * r] * d0 + t[3 * r + 1] * d1 + t[3 * r + 2] * d2);
      if (reg != 0.0) out += reg * x[row];
      // beta = 0 must overwrite (y may hold NaN from an earlier use).
      y[row] = beta == 0.0 ? out : out + beta * y[row];
    }
  }
}
}  // namespace

void ContactFrameJacobian::multiplyDt(const double* w, double alpha, const double* x, double reg,
                                      double beta, double* y) const {
  // An empty vector (no contacts on this rank) may have no storage at all.
  if (reg != 0.0 && x == nullptr && contacts() > 0)
    throw std::logic_error("ContactFrameJacobian::multiplyDt: regularisation needs x");
  const auto ncontacts = static_cast<Index>(contacts());
  if (block_ == 6)
    contactRates<6>(ncontacts, bodies_.data(), frames_.data(), w, alpha, x, reg, beta, y);
  else if (block_ == 3)
    contactRates<3>(ncontacts, bodies_.data(), frames_.data(), w, alpha, x, reg, beta, y);
  else
    contactRates<1>(ncontacts, bodies_.data(), frames_.data(), w, alpha, x, reg, beta, y);
}

std::size_t ContactFrameJacobian::bytesPerNormalProduct(std::size_t mobility_bodies) const {
  const std::size_t ncontacts = contacts();
  const std::size_t dt_pass =
      ncontacts *
      (static_cast<std::size_t>(frameStride(block_)) * sizeof(double) + 2 * sizeof(int));
  const std::size_t d_pass = incidence_.size() * (sizeof(int) + 3 * sizeof(double)) +
                             ncontacts * static_cast<std::size_t>(3 * block_) * sizeof(double) +
                             body_start_.size() * sizeof(int);
  // x read and y written (rows), the body vector written and read once.
  const std::size_t vectors = 2 * rows() * sizeof(double) + 2 * 6 * columnBodies() * sizeof(double);
  return dt_pass + d_pass + vectors + mobility_bodies * sizeof(BodyMobility);
}

}  // namespace grains
