#pragma once
// The bodies visible on one rank: those it owns (first) and ghost copies of
// bodies owned by other ranks within the halo width (after). Collective calls
// move bodies to their owners and refresh ghosts; refreshGhosts() is the one
// reusable halo routine.
#include "grains/core/body.hpp"
#include "grains/linalg/tpetra_types.hpp"
#include "grains/parallel/slab_decomposition.hpp"

#include <cstddef>
#include <vector>

namespace grains {

class BodyDomain {
 public:
  BodyDomain(RCP<const Comm> comm, std::vector<Body> owned);

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

  /// Collective: recompute the decomposition from the current positions.
  void rebalance();
  /// Collective: drop ghosts and send every owned body to the rank whose
  /// subdomain contains it. Keeps owned bodies sorted by GID.
  void migrate();
  /// Collective: replace the ghosts by fresh copies of every body within
  /// `reach` of this rank's subdomain.
  void refreshGhosts(double reach);

  long globalBodyCount() const;

 private:
  void exchange(const std::vector<std::vector<Body>>& outgoing, std::vector<Body>& incoming,
                std::vector<int>* source_ranks) const;

  RCP<const Comm> comm_;
  std::vector<Body> bodies_;
  std::size_t num_owned_ = 0;
  std::vector<int> ghost_ranks_;
  SlabDecomposition decomposition_;
};

}  // namespace grains
