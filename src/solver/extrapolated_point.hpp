#pragma once
// Nesterov's extrapolated point kept implicit (internal to src/solver):
//   y = (1 + beta) x - beta z,   A y = (1 + beta) A x - beta A z,
// or x itself when beta = 0 (the first iterate and after a restart). The
// kernels that read y form it entry by entry where they read it, so APGD
// never writes y and A y to memory only to read them back: on piles too large
// for the cache the solve is bound by memory traffic, not by arithmetic.
#include "grains/linalg/tpetra_types.hpp"

namespace grains::solver_detail {

struct Extrapolation {
  const Vector* x = nullptr;
  const Vector* Ax = nullptr;
  const Vector* z = nullptr;   ///< read only when beta != 0
  const Vector* Az = nullptr;  ///< read only when beta != 0
  double beta = 0.0;
};

/// Entry-wise form of an Extrapolation; Extrapolated false reads x alone.
/// Every kernel forms y with this one expression, so all see the same bits.
template <bool Extrapolated>
struct ExtrapolatedEntries {
  const double* x;
  const double* Ax;
  const double* z;
  const double* Az;
  double keep;  ///< 1 + beta
  double beta;

  double y(long long i) const {
    if constexpr (Extrapolated) {
      return keep * x[i] - beta * z[i];
    } else {
      return x[i];
    }
  }
  double Ay(long long i) const {
    if constexpr (Extrapolated) {
      return keep * Ax[i] - beta * Az[i];
    } else {
      return Ax[i];
    }
  }
};

}  // namespace grains::solver_detail
