#pragma once
// Settings of the domain decomposition and of the bodies' order in memory
// (the parallel: section of the config), and the periodic box the domain
// wraps bodies into (set from the domain: section).
#include "grains/core/periodic_box.hpp"

namespace grains {

/// Domain decomposition across MPI ranks (docs/config.md, docs/scaling.md).
enum class PartitionerKind : int { Rcb = 0, MultiJagged = 1 };

/// Order of a rank's owned bodies in memory (and so of its contacts and of
/// the solver's body and contact rows). Gid: by global id, as the input gave
/// them. Spatial: along a Morton curve of the positions, re-sorted every
/// parallel.sort_every steps, with contacts in body order too, so that
/// neighbours are near in memory whatever order the input had. Auto: spatial
/// when bodies consecutive in GID order lie far apart at the start, else gid
/// (docs/performance.md, "Body order in memory").
enum class BodyOrder : int { Gid = 0, Spatial = 1, Auto = 2 };

struct ParallelSection {
  PartitionerKind partitioner = PartitionerKind::Rcb;
  /// Repartition when max/mean of the per-rank load exceeds this (>= 1).
  double imbalance_threshold = 1.1;
  /// Also repartition every this many steps (0 = only on imbalance).
  long repartition_every = 0;
  /// Never repartition more often than this (steps, >= 1).
  long min_repartition_interval = 20;
  BodyOrder body_order = BodyOrder::Auto;
  /// Spatial order: re-sort every this many steps (>= 1).
  long sort_every = 20;
  /// The same bits on any rank and thread count (docs/reliability.md).
  bool reproducible = true;
  /// Periodic axes and their box (domain.periodic; none by default): owned
  /// bodies are wrapped into it and images cross its faces as ghosts.
  PeriodicBox periodic;
};

}  // namespace grains
