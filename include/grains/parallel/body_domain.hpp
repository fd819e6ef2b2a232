#pragma once
// The bodies visible on one rank: those it owns (first) and ghost copies of
// bodies owned by other ranks within the halo width (after). Collective calls
// partition space (Zoltan2), move bodies to their owners and refresh ghosts;
// refreshGhosts() is the one reusable halo routine. All point-to-point traffic
// goes through the sparse (NBX) exchange on a private duplicate communicator.
// With a periodic box (ParallelSection::periodic) owned bodies are kept
// wrapped into it, and ghosts include images: copies of bodies near a
// periodic face, their centres shifted by a box length, sent to every rank
// (this one too) whose box they come near. An image has its body's GID, so
// the same GID can appear twice on a rank (owned and image, or two images).
#include "grains/core/body.hpp"
#include "grains/linalg/tpetra_types.hpp"
#include "grains/parallel/box_decomposition.hpp"
#include "grains/parallel/parallel_settings.hpp"
#include "grains/parallel/sparse_exchange.hpp"

#include <mpi.h>

#include <cstddef>
#include <map>
#include <unordered_map>
#include <vector>

namespace grains {

/// Global per-rank statistics (identical on every rank).
struct DomainStats {
  long bodies_min = 0, bodies_max = 0;
  double bodies_mean = 0.0;
  double load_imbalance = 1.0;  ///< max / mean of the per-rank load (bodies + contacts)
  long bytes_sent_max = 0;      ///< halo + migration bytes of the busiest rank since the last call
  double bytes_sent_mean = 0.0;
  long repartitions = 0;  ///< total so far
};

/// The partition state a checkpoint stores, so that a restart on the same
/// number of ranks continues exactly where the run stopped.
struct DomainLayout {
  std::vector<RankBox> boxes;  ///< one per rank; empty on one rank
  long last_repartition_step = 0;
  long repartitions = 0;
  /// The body order in force (parallel.body_order: auto decides once, at the
  /// start, and a restart keeps the decision).
  bool spatial_order = false;
};

class BodyDomain {
 public:
  /// Collective: partitions the bodies (Zoltan2) and moves them to their owners.
  BodyDomain(RCP<const Comm> comm, std::vector<Body> owned, ParallelSection settings = {});
  /// Collective: keeps `owned` on this rank and restores `layout` (one box per
  /// rank of comm, or none on one rank), without repartitioning.
  BodyDomain(RCP<const Comm> comm, std::vector<Body> owned, ParallelSection settings,
             const DomainLayout& layout);
  ~BodyDomain();
  BodyDomain(const BodyDomain&) = delete;
  BodyDomain& operator=(const BodyDomain&) = delete;

  const Comm& comm() const { return *comm_; }
  RCP<const Comm> commPtr() const { return comm_; }

  /// Owned bodies then ghosts; only the first numOwned() may be modified by
  /// the dynamics (ghosts are overwritten by the next refresh).
  std::vector<Body>& bodies() { return bodies_; }
  const std::vector<Body>& bodies() const { return bodies_; }
  std::size_t numOwned() const { return num_owned_; }
  std::size_t numGhosts() const { return bodies_.size() - num_owned_; }
  /// Owning rank of bodies()[i] (this rank for i < numOwned()).
  int ownerRank(std::size_t i) const;
  const BoxDecomposition& decomposition() const { return boxes_; }
  DomainLayout layout() const;

  /// Collective: repartition if the load imbalance exceeds the threshold (and
  /// the last repartition is old enough) or the periodic interval is due.
  /// Returns true if it repartitioned.
  bool maybeRepartition(long step);
  /// Collective: Zoltan2 partition of the current positions, weighted by
  /// 1 + contacts per body, and migration to the new owners.
  void repartition();
  /// Collective: drop ghosts and send every owned body that left this rank's
  /// box to its owner. Keeps owned bodies sorted by GID, or with
  /// parallel.body_order: spatial, the bodies that stay in their places and
  /// the arrivals after them (by GID).
  void migrate();
  /// Spatial body order only: on steps that are multiples of
  /// parallel.sort_every, drop the ghosts and re-sort the owned bodies along
  /// a Morton curve of their current positions (local, not collective).
  void maybeSortSpatially(long step);
  /// The order in force: Gid or Spatial (Auto is decided at construction).
  BodyOrder bodyOrder() const { return spatial_ ? BodyOrder::Spatial : BodyOrder::Gid; }
  /// Collective: replace the ghosts by fresh copies of every body within
  /// `reach` of this rank's box, images through periodic faces included.
  /// Throws if `reach` exceeds a periodic box length (an image would need
  /// more than one box length of shift).
  void refreshGhosts(double reach);
  /// The periodic box (no periodic axis unless the settings gave one).
  const PeriodicBox& periodic() const { return settings_.periodic; }
  /// Wraps the owned bodies' centres into the periodic box (local, not
  /// collective); returns how many box lengths they moved in all.
  long wrapOwned();

  /// Replaces this rank's owned bodies (e.g. after cell division) and drops
  /// the ghosts; bodies outside this rank's box move at the next migrate().
  void replaceOwned(std::vector<Body> owned);

  long globalBodyCount() const;
  /// Bodies that left this rank since the last call, with their new owner
  /// (so per-body data kept outside Body, e.g. warm starts, can follow them).
  std::unordered_map<GlobalId, int> takeDepartures();
  /// Collective sparse exchange of plain records (counted in the stats).
  template <typename T>
  std::vector<std::pair<int, std::vector<T>>> exchange(const std::map<int, std::vector<T>>& out) {
    return exchangeRecords(exchange_comm_, out, nextTag(), &volume_);
  }
  /// Account bytes sent by this rank outside the domain (e.g. Tpetra imports).
  void addSentBytes(long bytes) { volume_.bytes_sent += bytes; }
  /// Collective: statistics, resetting the byte counters.
  DomainStats collectStats();

 private:
  void dropGhosts();
  /// Sorts owned bodies into this domain's body order.
  void orderOwned(std::vector<Body>& owned) const;
  /// Collective: max / mean over ranks of the summed body loads.
  double loadImbalance() const;
  /// `resort`: sort a spatial order anew (after a repartition) instead of
  /// appending the arrivals.
  void adoptOwned(std::vector<Body> kept,
                  const std::vector<std::pair<int, std::vector<Body>>>& arrived, bool resort);
  int nextTag();

  RCP<const Comm> comm_;
  MPI_Comm exchange_comm_ = MPI_COMM_NULL;
  ParallelSection settings_;
  bool spatial_ = false;  ///< parallel.body_order resolved
  std::vector<Body> bodies_;
  std::size_t num_owned_ = 0;
  std::vector<int> ghost_ranks_;
  BoxDecomposition boxes_;
  long last_repartition_step_ = 0;
  long repartitions_ = 0;
  int tag_round_ = 0;
  ExchangeVolume volume_;
  std::unordered_map<GlobalId, int> departures_;
  std::vector<Vec3> image_shifts_;  ///< settings_.periodic.imageShifts()
};

}  // namespace grains
