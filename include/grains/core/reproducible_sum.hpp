#pragma once
// Sums whose result does not depend on the order of the terms, and so not on
// how they are split over threads and ranks. Each term is cut into parts on
// fixed grids (quanta 2^e1 > 2^e2 > 2^e3, set by a bound on the terms'
// magnitude and their count); parts on one grid add exactly in any order, and
// the grids' totals are added last in a fixed order. This is the pre-rounding
// ("K-fold") summation of Demmel & Nguyen, "Parallel reproducible summation",
// IEEE Trans. Computers 64(7), 2015. With three folds the result is within
// 2^-70 x bound of the exact sum for up to a million terms (2^-90 for ten
// thousand), far below the round-off of an ordinary sum; two folds suit short
// sums (2^-60 x bound for a few dozen terms of a grid sized for 65536).
//
// The bound and the count must be the same everywhere the parts are formed
// (the global maximum and the global count), or the grids differ.
#include <cmath>
#include <limits>

namespace grains {

template <int Folds>
class FoldedSummation {
 public:
  static constexpr int kFolds = Folds;

  /// Parts of a partial sum, one per grid; partial sums merge exactly.
  struct Parts {
    double on_grid[kFolds] = {};
    void merge(const Parts& other) {
      for (int k = 0; k < kFolds; ++k) on_grid[k] += other.on_grid[k];
    }
  };

  /// Grids for sums of zeros (replace before use).
  FoldedSummation() : FoldedSummation(0.0, 2.0) {}
  /// For sums of at most `count` terms, each of magnitude at most `bound`.
  /// A non-finite bound makes every total NaN (a sum of non-finite terms).
  FoldedSummation(double bound, double count) {
    if (!std::isfinite(bound)) {
      poisoned_ = true;
      bound = 1.0;
    }
    // Bits a grid needs above its largest term to hold `count` of them.
    const int headroom = std::ilogb(std::max(count, 2.0)) + 2;
    // The first grid's quantum is 2^e with count x bound < 2^(e + 51), so
    // every part and every partial sum stays below 2^52 quanta.
    int exponent = std::ilogb(std::max(bound, std::numeric_limits<double>::min())) + headroom - 50;
    for (int k = 0; k < kFolds; ++k) {
      // Adding and subtracting 1.5 x 2^(e + 52) rounds a term below 2^(e + 51)
      // in magnitude to the nearest multiple of 2^e, exactly.
      split_[k] = std::ldexp(1.5, std::max(exponent, -1000) + 52);
      // The remainder is at most half a quantum: the next grid starts there.
      exponent += headroom - 52;
    }
  }

  /// Adds one term (|term| <= bound) to `parts`.
  void add(Parts& parts, double term) const {
    for (int k = 0; k < kFolds; ++k) {
      const double on_grid = (split_[k] + term) - split_[k];
      parts.on_grid[k] += on_grid;
      term -= on_grid;  // exact
    }
  }

  /// The constant that rounds a term to grid k ((split + t) - split), for
  /// kernels that fold many terms at once.
  double split(int k) const { return split_[k]; }

  /// The sum, smallest grid first (a fixed order of three additions).
  double total(const Parts& parts) const {
    if (poisoned_) return std::numeric_limits<double>::quiet_NaN();
    double sum = parts.on_grid[kFolds - 1];
    for (int k = kFolds - 2; k >= 0; --k) sum += parts.on_grid[k];
    return sum;
  }

 private:
  double split_[kFolds] = {};
  bool poisoned_ = false;
};

/// Long sums (vectors over all constraint rows, energies over all bodies).
using ReproducibleFolding = FoldedSummation<3>;

}  // namespace grains
