#include "grains/constraint/assembly_maps.hpp"

#include "grains/parallel/mpi_utils.hpp"

#include <Teuchos_OrdinalTraits.hpp>

#include <stdexcept>

namespace grains {

namespace {
RCP<const Map> dofMap(const RCP<const Comm>& comm, const std::vector<GlobalOrdinal>& first,
                      const std::vector<GlobalOrdinal>& second) {
  std::vector<GlobalOrdinal> dofs;
  dofs.reserve(6 * (first.size() + second.size()));
  for (const auto* bodies : {&first, &second})
    for (GlobalOrdinal gid : *bodies)
      for (int k = 0; k < 6; ++k) dofs.push_back(6 * gid + k);
  const auto invalid = Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid();
  return rcp(new Map(invalid, dofs.data(), dofs.size(), 0, comm));
}
}  // namespace

void AssemblyMaps::update(const RCP<const Comm>& comm, const std::vector<GlobalOrdinal>& owned,
                          const std::vector<GlobalOrdinal>& ghosts) {
  if (comm.is_null()) throw std::invalid_argument("AssemblyMaps::update: null communicator");
  if (comm->getSize() == 1 && !ghosts.empty())
    throw std::logic_error("AssemblyMaps::update: ghost bodies on a single rank");
  // Every rank takes part in the decision: the maps and the Import plan are
  // built collectively, so one rank's change rebuilds them everywhere.
  const bool same_comm = comm.get() == comm_;
  const long changed = same_comm && owned == owned_ && ghosts == ghosts_ ? 0 : 1;
  if (globalMax(*comm, changed) == 0) return;
  comm_ = comm.get();
  owned_ = owned;
  ghosts_ = ghosts;
  body_map_ = dofMap(comm, owned_, {});
  if (comm->getSize() == 1) {
    column_map_ = body_map_;
    importer_ = Teuchos::null;
  } else {
    column_map_ = dofMap(comm, owned_, ghosts_);
    importer_ = rcp(new Import(body_map_, column_map_));
  }
  ++builds_;
}

}  // namespace grains
