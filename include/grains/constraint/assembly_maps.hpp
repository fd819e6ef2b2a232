#pragma once
// The body side of the contact system's Tpetra layout: the owned body-DOF map
// (domain of D^T), the column map (owned bodies, then the ghosts this rank's
// constraints touch) and the Import plan between them. Building them is
// collective and, on a settled pile, costs more than filling D^T itself, yet
// they change only when bodies migrate or a constraint reaches another ghost;
// so they are kept from one assembly to the next (time steps and ReLCP
// recursions) and rebuilt only when some rank's lists differ.
#include "grains/linalg/tpetra_types.hpp"

#include <Tpetra_Import.hpp>

#include <vector>

namespace grains {

class AssemblyMaps {
 public:
  using Import = Tpetra::Import<LocalOrdinal, GlobalOrdinal, Node>;

  /// Collective. Makes the maps describe these bodies (global ids; owned in
  /// body-map order, ghosts in column order after them): keeps the current
  /// maps when no rank's lists changed, rebuilds all of them otherwise.
  void update(const RCP<const Comm>& comm, const std::vector<GlobalOrdinal>& owned,
              const std::vector<GlobalOrdinal>& ghosts);

  /// 6 DOFs per owned body, GIDs 6 * gid + k.
  const RCP<const Map>& bodyMap() const { return body_map_; }
  /// The owned bodies' DOFs, then the ghosts'; on one rank the body map itself.
  const RCP<const Map>& columnMap() const { return column_map_; }
  /// Body map to column map; null on one rank (nothing to bring in).
  const RCP<const Import>& importer() const { return importer_; }
  /// How often update() had to build the maps.
  long builds() const { return builds_; }

 private:
  const Comm* comm_ = nullptr;
  std::vector<GlobalOrdinal> owned_;
  std::vector<GlobalOrdinal> ghosts_;
  RCP<const Map> body_map_;
  RCP<const Map> column_map_;
  RCP<const Import> importer_;
  long builds_ = 0;
};

}  // namespace grains
