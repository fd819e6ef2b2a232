#pragma once
// The configuration a step would reach with given velocities (Palmer et al. (2025),
// intermediate configuration C_i, eqs. 20 and 24), for every body this rank
// sees: owned bodies move with their own velocities, ghosts with velocities
// imported from their owners (the halo refresh of each ReLCP recursion). The
// maps and the Import plan come from an AssemblyMaps kept by the caller, so
// they are built only when the owned bodies or the ghosts change, and are
// reused by every recursion and every step in between.
#include "grains/constraint/assembly_maps.hpp"
#include "grains/constraint/body_motion.hpp"
#include "grains/linalg/tpetra_types.hpp"
#include "grains/parallel/body_domain.hpp"

#include <Tpetra_Import.hpp>

#include <vector>

namespace grains {

class IntermediateConfiguration {
 public:
  /// Collective: `halo_maps` is updated to the domain's owned bodies and all
  /// of its ghosts.
  IntermediateConfiguration(const BodyDomain& domain, AssemblyMaps& halo_maps);

  /// Move copies of all local bodies by dt with the owned bodies' twists
  /// `owned_velocities` (6 per owned body, domain order). Collective.
  void update(const Vector& owned_velocities, double dt);

  /// Owned bodies then ghosts, in the domain's order, at the intermediate configuration.
  const std::vector<Body>& bodies() const { return moved_; }
  /// Twist of local body i used for the last update.
  const Twist& twist(std::size_t i) const { return twists_[i]; }

 private:
  const BodyDomain& domain_;
  RCP<const AssemblyMaps::Import> import_;  ///< null on one rank
  RCP<Vector> owned_;
  RCP<Vector> local_;
  /// Column of each local body in the column map: images (periodic boxes)
  /// share their body's column. Empty when every body has its own.
  std::vector<std::size_t> column_of_body_;
  std::vector<Twist> twists_;
  std::vector<Body> moved_;
};

}  // namespace grains
