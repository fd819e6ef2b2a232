#pragma once
// On several ranks a body's contacts may be held by other ranks (the body is
// their ghost). To add a body's terms of D x in contact-key order on its
// owner, as one rank would, each such term travels to the owner on its own
// (6 doubles), not pre-summed: partial sums of several ranks would add in
// another order and round differently. The plan (who sends which incidence
// to whom, and where each received term goes in its body's order) is made
// once per contact operator; every product then moves only the terms.
#include "grains/constraint/local_jacobian.hpp"
#include "grains/linalg/tpetra_types.hpp"

#include <mpi.h>

#include <vector>

namespace grains {

class GhostTermExchange {
 public:
  /// Collective over the maps' communicator. `body_map`: 6 DOFs per owned
  /// body (GIDs 6 gid + k); `column_map`: the owned bodies, then the ghost
  /// columns of `jacobian`.
  GhostTermExchange(const LocalJacobian& jacobian, const Map& body_map, const Map& column_map);
  ~GhostTermExchange();
  GhostTermExchange(const GhostTermExchange&) = delete;
  GhostTermExchange& operator=(const GhostTermExchange&) = delete;

  /// Collective. After jacobian.formForces(x): owned = D x on the owned
  /// bodies (6 per body), each the sum of its terms in key order.
  void sum(const LocalJacobian& jacobian, double* owned) const;

 private:
  struct Peer {
    int rank = 0;
    int begin = 0;  ///< first term (of the send or receive list)
    int count = 0;
  };
  MPI_Comm comm_ = MPI_COMM_NULL;  // a duplicate: its messages meet no others
  std::vector<int> send_slots_;    // this rank's ghost incidences, by destination
  std::vector<Peer> destinations_;
  std::vector<Peer> sources_;
  BodySumOrder order_;
  mutable std::vector<double> send_terms_;
  mutable std::vector<double> received_terms_;
  mutable std::vector<MPI_Request> requests_;
};

}  // namespace grains
