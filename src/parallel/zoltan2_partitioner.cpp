#include "grains/parallel/zoltan2_partitioner.hpp"

#include "grains/parallel/mpi_utils.hpp"

#include <Zoltan2_BasicVectorAdapter.hpp>
#include <Zoltan2_PartitioningProblem.hpp>

#include <limits>
#include <stdexcept>

namespace grains {

Partition partitionBodies(const std::vector<Body>& owned, const std::vector<double>& weights,
                          PartitionerKind kind, RCP<const Comm> comm) {
  if (weights.size() != owned.size())
    throw std::invalid_argument("partitionBodies: one weight per body expected");
  const int nranks = comm->getSize();
  Partition result;
  if (nranks == 1) {
    result.owner.assign(owned.size(), 0);
    return result;
  }

  using UserTypes = Zoltan2::BasicUserTypes<double, LocalOrdinal, GlobalOrdinal>;
  using Adapter = Zoltan2::BasicVectorAdapter<UserTypes>;
  const std::size_t n = owned.size();
  std::vector<GlobalOrdinal> ids(n);
  std::vector<double> x(n), y(n), z(n);
  for (std::size_t i = 0; i < n; ++i) {
    ids[i] = owned[i].gid;
    x[i] = owned[i].position.x();
    y[i] = owned[i].position.y();
    z[i] = owned[i].position.z();
  }
  Adapter adapter(static_cast<LocalOrdinal>(n), ids.data(), x.data(), y.data(), z.data(), 1, 1, 1,
                  true, weights.data(), 1);

  Teuchos::ParameterList params("grains partitioning");
  params.set("algorithm", "multijagged");
  params.set("num_global_parts", nranks);
  params.set("mj_keep_part_boxes", true);
  params.set("imbalance_tolerance", 1.02);
  // RCB = multi-jagged with one cut per level (log2(P) levels).
  if (kind == PartitionerKind::Rcb) params.set("mj_enable_rcb", true);
  params.set("error_check_level", "no_assertions");

  Zoltan2::PartitioningProblem<Adapter> problem(&adapter, &params, comm);
  problem.solve();
  const auto& solution = problem.getSolution();

  // Boxes of all parts; faces on the global bounding box go to infinity so
  // the boxes tile all of space and bodies that move out stay owned.
  double lo[3], hi[3];
  for (int d = 0; d < 3; ++d) {
    lo[d] = std::numeric_limits<double>::max();
    hi[d] = std::numeric_limits<double>::lowest();
  }
  for (const Body& b : owned)
    for (int d = 0; d < 3; ++d) {
      lo[d] = std::min(lo[d], b.position[d]);
      hi[d] = std::max(hi[d], b.position[d]);
    }
  const MPI_Comm raw = rawMpiComm(*comm);
  MPI_Allreduce(MPI_IN_PLACE, lo, 3, MPI_DOUBLE, MPI_MIN, raw);
  MPI_Allreduce(MPI_IN_PLACE, hi, 3, MPI_DOUBLE, MPI_MAX, raw);

  const auto& part_boxes = solution.getPartBoxesView();
  if (static_cast<int>(part_boxes.size()) != nranks)
    throw std::runtime_error("Zoltan2 returned " + std::to_string(part_boxes.size()) +
                             " part boxes for " + std::to_string(nranks) + " ranks");
  std::vector<RankBox> boxes(static_cast<std::size_t>(nranks));
  const double inf = std::numeric_limits<double>::infinity();
  for (const auto& pb : part_boxes) {
    const int part = static_cast<int>(pb.getpId());
    if (part < 0 || part >= nranks) throw std::runtime_error("Zoltan2 part id out of range");
    RankBox& box = boxes[static_cast<std::size_t>(part)];
    for (int d = 0; d < 3; ++d) {
      const double bl = pb.getlmins()[d];
      const double bh = pb.getlmaxs()[d];
      const double tol = 1e-12 * std::max(1.0, hi[d] - lo[d]);
      if (!(bl < bh)) {
        // Zoltan2 13.2 leaves dimensions that RCB never cut at [0, 0]; an
        // empty extent can only mean "not cut" (or all bodies in one plane).
        box.lo[d] = -inf;
        box.hi[d] = inf;
        continue;
      }
      box.lo[d] = bl <= lo[d] + tol ? -inf : bl;
      box.hi[d] = bh >= hi[d] - tol ? inf : bh;
    }
  }
  result.boxes = BoxDecomposition(std::move(boxes), comm->getRank());
  // Owners come from the boxes, not from Zoltan2's part list: a body exactly
  // on a cut may be in either part there, and the boxes are the rule from now on.
  result.owner.resize(n);
  for (std::size_t i = 0; i < n; ++i) result.owner[i] = result.boxes.ownerOf(owned[i].position);
  return result;
}

}  // namespace grains
