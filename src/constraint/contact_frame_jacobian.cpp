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
                                           std::vector<ContactKey> keys)
    : block_(rows_per_contact),
      bodies_(std::move(bodies)),
      keys_(std::move(keys)),
      frames_(std::move(frames)) {
  if (block_ != 1 && block_ != 3 && block_ != 6)
    throw std::logic_error("ContactFrameJacobian: " + std::to_string(block_) +
                           " rows per contact (expected 1, 3 or 6)");
  const std::size_t ncontacts = bodies_.size() / 2;
  if (bodies_.size() % 2 != 0 ||
      frames_.size() != ncontacts * static_cast<std::size_t>(frameStride(block_)) ||
      keys_.size() != ncontacts)
    throw std::logic_error("ContactFrameJacobian: " + std::to_string(bodies_.size()) +
                           " body indices, " + std::to_string(frames_.size()) +
                           " frame values and " + std::to_string(keys_.size()) +
                           " keys do not describe whole contacts");
  // The first entry naming a body outside the columns (any thread finds it).
  const auto nentries = static_cast<Index>(bodies_.size());
  Index first_bad = nentries;
  const int* entry = bodies_.data();
#pragma omp parallel for schedule(static) reduction(min : first_bad)
  for (Index k = 0; k < nentries; ++k) {
    const int body = entry[k];
    const bool wall_side = k % 2 == 0 && body == -1;
    if (!wall_side && (body < 0 || static_cast<std::size_t>(body) >= column_bodies))
      first_bad = std::min(first_bad, k);
  }
  if (first_bad < nentries)
    throw std::logic_error("ContactFrameJacobian: body " + std::to_string(entry[first_bad]) +
                           " outside the " + std::to_string(column_bodies) + " column bodies");
  force_.assign(static_cast<std::size_t>(forceStride()) * ncontacts, 0.0);
  // Incidences by counting sort, then each body's in key order: the order a
  // body's terms add in, whatever the contacts' order in memory.
  body_start_.assign(column_bodies + 1, 0);
  for (int body : bodies_)
    if (body >= 0) ++body_start_[static_cast<std::size_t>(body) + 1];
  for (std::size_t b = 0; b < column_bodies; ++b) body_start_[b + 1] += body_start_[b];
  const auto nincidences = static_cast<std::size_t>(body_start_[column_bodies]);
  incidence_.resize(nincidences);
  incidence_arm_.resize(3 * nincidences);
  std::vector<int> fill(body_start_.begin(), body_start_.end() - 1);
  for (std::size_t c = 0; c < ncontacts; ++c) {
    for (std::size_t side = 0; side < 2; ++side) {
      const int body = bodies_[2 * c + side];
      if (body < 0) continue;
      const auto slot = static_cast<std::size_t>(fill[static_cast<std::size_t>(body)]++);
      incidence_[slot] = static_cast<int>(2 * c + side);
    }
  }
  const auto nbodies = static_cast<Index>(column_bodies);
  const ContactKey* key = keys_.data();
  int* incidence = incidence_.data();
  const int* start = body_start_.data();
#pragma omp parallel for schedule(static)
  for (Index b = 0; b < nbodies; ++b) {
    // Contacts detected in key order are sorted already (a key occurs once
    // per body: its two sides are different bodies).
    std::sort(incidence + start[b], incidence + start[b + 1],
              [key](int x, int y) { return key[x >> 1] < key[y >> 1]; });
  }
  const auto n = static_cast<Index>(nincidences);
  const double* contact_arms = frames_.data() + armsAt(block_, ncontacts, 0);
  double* arms = incidence_arm_.data();
#pragma omp parallel for schedule(static)
  for (Index slot = 0; slot < n; ++slot) {
    const int code = incidence[slot];
    const double* arm = contact_arms + 6 * static_cast<Index>(code >> 1) + 3 * (code & 1);
    for (int k = 0; k < 3; ++k) arms[3 * slot + k] = arm[k];
  }
}

void ContactFrameJacobian::formForces(const double* x) const {
  // Stage 1, in contact order (streaming): the force of each contact on its
  // body b, f = sum over the linear rows of direction * impulse, and with
  // rolling the pure torque of the angular rows, tau = sum direction * impulse.
  const auto ncontacts = static_cast<Index>(contacts());
  double* force = force_.data();
  const double* directions = frames_.data();
  const int block = block_;
#pragma omp parallel for schedule(static)
  for (Index c = 0; c < ncontacts; ++c) {
    const double* t = directions + c * 3 * block;
    double* out = force + (block == 6 ? 6 : 3) * c;
    if (block == 6) {
      const double* xc = x + 6 * c;
      for (int k = 0; k < 3; ++k) {
        out[k] = t[k] * xc[0] + t[3 + k] * xc[1] + t[6 + k] * xc[2];
        out[3 + k] = t[9 + k] * xc[3] + t[12 + k] * xc[4] + t[15 + k] * xc[5];
      }
    } else if (block == 3) {
      const double* xc = x + 3 * c;
      for (int k = 0; k < 3; ++k) out[k] = t[k] * xc[0] + t[3 + k] * xc[1] + t[6 + k] * xc[2];
    } else {
      for (int k = 0; k < 3; ++k) out[k] = t[k] * x[c];
    }
  }
}

inline void ContactFrameJacobian::termOf(int slot, double term[6]) const {
  // One incidence's terms: b gets +f, a gets -f, and the torque r x f, plus
  // (b: +tau, a: -tau) with rolling. Every body sum, on any rank, forms its
  // terms here, so a term is the same bits wherever it is formed.
  const int code = incidence_[static_cast<std::size_t>(slot)];
  const Index force_stride = forceStride();
  const double* f = force_.data() + force_stride * static_cast<Index>(code >> 1);
  const double sign = (code & 1) != 0 ? 1.0 : -1.0;
  const double f0 = sign * f[0], f1 = sign * f[1], f2 = sign * f[2];
  const double* arm = incidence_arm_.data() + 3 * static_cast<Index>(slot);
  term[0] = f0;
  term[1] = f1;
  term[2] = f2;
  term[3] = arm[1] * f2 - arm[2] * f1;
  term[4] = arm[2] * f0 - arm[0] * f2;
  term[5] = arm[0] * f1 - arm[1] * f0;
  if (force_stride == 6) {
    term[3] += sign * f[3];
    term[4] += sign * f[4];
    term[5] += sign * f[5];
  }
}

void ContactFrameJacobian::gatherBody(std::size_t b, double sum[6]) const {
  // Stage 2, per body: its terms in key order, one after the other from zero.
  for (int k = 0; k < 6; ++k) sum[k] = 0.0;
  for (int slot = body_start_[b]; slot < body_start_[b + 1]; ++slot) {
    double term[6];
    termOf(slot, term);
    for (int k = 0; k < 6; ++k) sum[k] += term[k];
  }
}

void ContactFrameJacobian::appendIncidences(std::size_t body,
                                            std::vector<std::pair<ContactKey, int>>& out) const {
  for (int slot = body_start_[body]; slot < body_start_[body + 1]; ++slot)
    out.emplace_back(
        keys_[static_cast<std::size_t>(incidence_[static_cast<std::size_t>(slot)] >> 1)], slot);
}

void ContactFrameJacobian::incidenceTerms(const std::vector<int>& slots, double* terms) const {
  const auto n = static_cast<Index>(slots.size());
#pragma omp parallel for schedule(static)
  for (Index i = 0; i < n; ++i) termOf(slots[static_cast<std::size_t>(i)], terms + 6 * i);
}

void ContactFrameJacobian::sumInOrder(const BodySumOrder& order, const double* received,
                                      double* v) const {
  const auto nbodies = static_cast<Index>(order.start.size()) - 1;
#pragma omp parallel for schedule(static)
  for (Index b = 0; b < nbodies; ++b) {
    double sum[6] = {0, 0, 0, 0, 0, 0};
    for (int i = order.start[static_cast<std::size_t>(b)];
         i < order.start[static_cast<std::size_t>(b) + 1]; ++i) {
      const int code = order.code[static_cast<std::size_t>(i)];
      double local[6];
      const double* term = local;
      if (code >= 0)
        termOf(code, local);
      else
        term = received + 6 * static_cast<Index>(-code - 1);
      for (int k = 0; k < 6; ++k) sum[k] += term[k];
    }
    for (int k = 0; k < 6; ++k) v[6 * b + k] = sum[k];
  }
}

void ContactFrameJacobian::multiplyD(const double* x, double* v) const {
  formForces(x);
  const auto nbodies = static_cast<Index>(columnBodies());
#pragma omp parallel for schedule(static)
  for (Index b = 0; b < nbodies; ++b) gatherBody(static_cast<std::size_t>(b), v + 6 * b);
}

void ContactFrameJacobian::multiplyWD(const double* x, const std::vector<BodyMobility>& mobility,
                                      double* v) const {
  if (mobility.size() > columnBodies())
    throw std::logic_error("ContactFrameJacobian::multiplyWD: more mobilities than column bodies");
  formForces(x);
  const auto nbodies = static_cast<Index>(mobility.size());
#pragma omp parallel for schedule(static)
  for (Index b = 0; b < nbodies; ++b) {
    double total[6];
    gatherBody(static_cast<std::size_t>(b), total);
    mobility[static_cast<std::size_t>(b)].apply(total, v + 6 * b);
  }
}

namespace {
// D^T w for contacts with Block rows each (a compile-time count, so that the
// row loop unrolls).
template <int Block>
void contactRates(Index ncontacts, const int* bodies, const double* frames, const double* w,
                  double alpha, const double* x, double reg, double beta, double* y) {
  const double* arms =
      frames + ContactFrameJacobian::armsAt(Block, static_cast<std::size_t>(ncontacts), 0);
#pragma omp parallel for schedule(static)
  for (Index c = 0; c < ncontacts; ++c) {
    const double* t = frames + c * 3 * Block;
    // Relative velocity of the contact points, v_b - v_a with v = u + w x r.
    const double* ra = arms + 6 * c;
    const double* rb = ra + 3;
    const double* wb = w + 6 * static_cast<Index>(bodies[2 * c + 1]);
    double v0 = wb[0] + wb[4] * rb[2] - wb[5] * rb[1];
    double v1 = wb[1] + wb[5] * rb[0] - wb[3] * rb[2];
    double v2 = wb[2] + wb[3] * rb[1] - wb[4] * rb[0];
    const int a = bodies[2 * c];
    if (a >= 0) {
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
