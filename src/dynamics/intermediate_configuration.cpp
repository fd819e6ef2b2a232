#include "grains/dynamics/intermediate_configuration.hpp"

#include <Teuchos_OrdinalTraits.hpp>

namespace grains {

IntermediateConfiguration::IntermediateConfiguration(const BodyDomain& domain) : domain_(domain) {
  const auto& bodies = domain.bodies();
  const auto invalid = Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid();
  std::vector<GlobalOrdinal> dofs(6 * bodies.size());
  for (std::size_t i = 0; i < bodies.size(); ++i)
    for (int k = 0; k < 6; ++k) dofs[6 * i + static_cast<std::size_t>(k)] = 6 * bodies[i].gid + k;
  const auto comm = domain.commPtr();
  owned_map_ = rcp(new Map(invalid, dofs.data(), 6 * domain.numOwned(), 0, comm));
  local_map_ = rcp(new Map(invalid, dofs.data(), dofs.size(), 0, comm));
  import_ = rcp(new Tpetra::Import<LocalOrdinal, GlobalOrdinal, Node>(owned_map_, local_map_));
  owned_ = rcp(new Vector(owned_map_));
  local_ = rcp(new Vector(local_map_));
}

void IntermediateConfiguration::update(const Vector& owned_velocities, double dt) {
  {
    auto src = owned_velocities.getData();
    auto dst = owned_->getDataNonConst();
    for (long k = 0; k < dst.size(); ++k) dst[k] = src[k];
  }
  local_->doImport(*owned_, *import_, Tpetra::INSERT);
  const auto& bodies = domain_.bodies();
  auto u = local_->getData();
  twists_.resize(bodies.size());
  moved_.resize(bodies.size());
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    for (int k = 0; k < 6; ++k) twists_[i][k] = u[6 * i + static_cast<std::size_t>(k)];
    moved_[i] = movedBody(bodies[i], twists_[i], dt);
  }
}

}  // namespace grains
