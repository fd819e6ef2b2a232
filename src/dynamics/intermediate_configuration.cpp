#include "grains/dynamics/intermediate_configuration.hpp"

#include "grains/core/parallel_loops.hpp"

#include <stdexcept>
#include <unordered_map>

namespace grains {

IntermediateConfiguration::IntermediateConfiguration(const BodyDomain& domain,
                                                     AssemblyMaps& halo_maps)
    : domain_(domain) {
  const auto& bodies = domain.bodies();
  std::vector<GlobalOrdinal> owned(domain.numOwned()), ghosts;
  for (std::size_t i = 0; i < owned.size(); ++i) owned[i] = bodies[i].gid;
  if (domain.periodic().any()) {
    // An image takes the velocity of its body: one column per GID.
    std::unordered_map<GlobalId, std::size_t> column_of_gid;
    column_of_body_.resize(bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      const auto [at, fresh] = column_of_gid.emplace(bodies[i].gid, column_of_gid.size());
      if (fresh && i >= owned.size()) ghosts.push_back(bodies[i].gid);
      column_of_body_[i] = at->second;
    }
  } else {
    for (std::size_t i = owned.size(); i < bodies.size(); ++i) ghosts.push_back(bodies[i].gid);
  }
  halo_maps.update(domain.commPtr(), owned, ghosts);
  import_ = halo_maps.importer();
  owned_ = rcp(new Vector(halo_maps.bodyMap(), false));
  if (!import_.is_null()) local_ = rcp(new Vector(halo_maps.columnMap(), false));
}

void IntermediateConfiguration::update(const Vector& owned_velocities, double dt) {
  {
    auto src = owned_velocities.getData();
    auto dst = owned_->getDataNonConst();
    if (src.size() != dst.size())
      throw std::logic_error(
          "IntermediateConfiguration::update: expected 6 velocities per owned body");
    for (long k = 0; k < dst.size(); ++k) dst[k] = src[k];
  }
  // One rank: the owned bodies are all the bodies, nothing to import.
  const Vector& all = import_.is_null() ? *owned_ : *local_;
  if (!import_.is_null()) local_->doImport(*owned_, *import_, Tpetra::INSERT);
  const auto& bodies = domain_.bodies();
  const auto u = all.getData();
  twists_.resize(bodies.size());
  moved_.resize(bodies.size());
  parallelFor(bodies.size(), [&](std::size_t i) {
    const std::size_t column = column_of_body_.empty() ? i : column_of_body_[i];
    for (std::size_t k = 0; k < 6; ++k) twists_[i][static_cast<long>(k)] = u[6 * column + k];
    moved_[i] = movedBody(bodies[i], twists_[i], dt);
  });
}

}  // namespace grains
