#include "grains/scenario/insertion.hpp"

#include "cell_grid.hpp"
#include "generators.hpp"
#include "grains/parallel/mpi_utils.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace grains {

namespace {

using scenario_detail::uniform01;

/// Streams of their own, apart from the generators' (generators.hpp).
enum class InsertionStream : std::uint32_t { Velocity = 101, Placement = 102 };

std::mt19937_64 insertionStream(unsigned long seed, GlobalId gid, InsertionStream purpose) {
  const auto g = static_cast<std::uint64_t>(gid);
  std::seed_seq seq{static_cast<std::uint32_t>(seed & 0xffffffffUL),
                    static_cast<std::uint32_t>(static_cast<std::uint64_t>(seed) >> 32),
                    static_cast<std::uint32_t>(g & 0xffffffffULL),
                    static_cast<std::uint32_t>(g >> 32), static_cast<std::uint32_t>(purpose)};
  return std::mt19937_64(seq);
}

/// Uniform random centre of a body of bounding radius r lying inside the region.
Vec3 samplePosition(const Region& region, double r, std::mt19937_64& rng) {
  const Vec3& lo = region.min_corner;
  const Vec3& hi = region.max_corner;
  const double z = lo.z() + r + (hi.z() - lo.z() - 2.0 * r) * uniform01(rng);
  if (region.kind == Region::Kind::Box) {
    const double x = lo.x() + r + (hi.x() - lo.x() - 2.0 * r) * uniform01(rng);
    const double y = lo.y() + r + (hi.y() - lo.y() - 2.0 * r) * uniform01(rng);
    return Vec3(x, y, z);
  }
  const double reach = region.radius - r;
  for (;;) {  // rejection from the square
    const double dx = reach * (2.0 * uniform01(rng) - 1.0);
    const double dy = reach * (2.0 * uniform01(rng) - 1.0);
    if (dx * dx + dy * dy <= reach * reach)
      return Vec3(region.center.x() + dx, region.center.y() + dy, z);
  }
}

/// One body of a batch and the places it may take.
struct Candidate {
  Body body;
  double reach = 0.0;  ///< bounding radius
  std::vector<Vec3> places;
};

Candidate makeCandidate(const InsertionSource& s, std::size_t source, long index,
                        unsigned long seed) {
  using namespace scenario_detail;
  const BodiesSection& b = s.bodies;
  const GlobalId gid = insertedBodyId(source, index);
  const double r = bodyRadius(b, seed, gid);
  const Quat orientation = b.random_orientation ? randomOrientation(seed, gid) : Quat::Identity();
  Candidate c;
  c.body = makeShapeBody(b, gid, r, bodyMass(b, r), Vec3::Zero(), orientation);
  c.reach = shapeBoundingRadius(b, r);
  std::mt19937_64 v = insertionStream(seed, gid, InsertionStream::Velocity);
  c.body.velocity = s.velocity;
  if (s.velocity_spread > 0.0)
    for (int k = 0; k < 3; ++k)
      c.body.velocity[k] += s.velocity_spread * (2.0 * uniform01(v) - 1.0);
  std::mt19937_64 p = insertionStream(seed, gid, InsertionStream::Placement);
  c.places.reserve(static_cast<std::size_t>(s.attempts));
  for (long a = 0; a < s.attempts; ++a) c.places.push_back(samplePosition(s.region, c.reach, p));
  return c;
}

/// Marks (1) the places of `batch` that overlap a body this rank owns.
std::vector<int> locallyBlocked(const BodyDomain& domain, const std::vector<Candidate>& batch) {
  std::size_t places = 0;
  double reach = 0.0;
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (const Candidate& c : batch) {
    places += c.places.size();
    reach = std::max(reach, c.reach);
    for (const Vec3& p : c.places) {
      lo = lo.cwiseMin(p);
      hi = hi.cwiseMax(p);
    }
  }
  std::vector<int> blocked(places, 0);
  if (batch.empty()) return blocked;
  // The owned bodies that can touch a place, in a grid of cells wide enough
  // for the largest pair.
  std::vector<std::size_t> near;
  double near_reach = 0.0;
  for (std::size_t i = 0; i < domain.numOwned(); ++i) {
    const Body& b = domain.bodies()[i];
    const double r = boundingRadius(b);
    const Vec3 margin = Vec3::Constant(r + reach);
    if (((b.position - lo).array() >= -margin.array()).all() &&
        ((b.position - hi).array() <= margin.array()).all()) {
      near.push_back(i);
      near_reach = std::max(near_reach, r);
    }
  }
  if (near.empty()) return blocked;
  scenario_detail::CellGrid grid(reach + near_reach);
  for (std::size_t i : near) grid.insert(i, domain.bodies()[i].position);
  std::size_t k = 0;
  for (const Candidate& c : batch) {
    for (const Vec3& p : c.places) {
      grid.forNeighbours(p, [&](std::size_t i) {
        const Body& b = domain.bodies()[i];
        const double touch = c.reach + boundingRadius(b);
        if ((b.position - p).squaredNorm() < touch * touch) blocked[k] = 1;
      });
      ++k;
    }
  }
  return blocked;
}

}  // namespace

long insertedBy(const InsertionSource& s, double time, double dt) {
  const double every = s.every > 0.0 ? s.every : dt;
  // Batch boundaries fall on step starts up to round-off.
  const double batch = std::floor((time - s.start) / every + 1e-6);
  if (batch < 0.0) return 0;
  long total = std::numeric_limits<long>::max();
  if (s.count) total = *s.count;
  if (s.end) total = static_cast<long>(std::floor(s.rate * (*s.end - s.start) + 1e-6));
  const double due = std::floor(s.rate * (batch + 1.0) * every + 1e-6);
  return due >= static_cast<double>(total) ? total : static_cast<long>(due);
}

double maxInsertedRadius(const std::vector<InsertionSource>& sources) {
  double r = 0.0;
  for (const InsertionSource& s : sources)
    r = std::max(r, scenario_detail::maxBoundingRadius(s.bodies));
  return r;
}

GlobalId insertedBodyId(std::size_t source, long index) {
  return (static_cast<GlobalId>(source) + 1) * (GlobalId{1} << 40) + index;
}

InsertionResult insertBodies(BodyDomain& domain, const std::vector<InsertionSource>& sources,
                             unsigned long seed, long step, double dt) {
  InsertionResult result;
  result.inserted.assign(sources.size(), 0);
  const double time = static_cast<double>(step - 1) * dt;
  // Every rank draws the same batch (all sources of this step).
  std::vector<Candidate> batch;
  std::vector<std::size_t> source_of;
  for (std::size_t q = 0; q < sources.size(); ++q) {
    const long first = insertedBy(sources[q], time - dt, dt);
    const long last = insertedBy(sources[q], time, dt);
    for (long k = first; k < last; ++k) {
      batch.push_back(makeCandidate(sources[q], q, k, seed));
      source_of.push_back(q);
    }
  }
  if (batch.empty()) return result;
  std::vector<int> blocked = locallyBlocked(domain, batch);
  // Logical or over the ranks: the same on any rank count.
  MPI_Allreduce(MPI_IN_PLACE, blocked.data(), static_cast<int>(blocked.size()), MPI_INT, MPI_MAX,
                rawMpiComm(domain.comm()));
  std::vector<Body> accepted;
  std::vector<double> accepted_reach;
  std::size_t first_place = 0;  // of this candidate in `blocked`
  for (std::size_t c = 0; c < batch.size(); ++c) {
    const Candidate& cand = batch[c];
    bool placed = false;
    for (std::size_t a = 0; a < cand.places.size() && !placed; ++a) {
      const Vec3& p = cand.places[a];
      if (blocked[first_place + a] != 0) continue;
      bool free = true;
      for (std::size_t j = 0; j < accepted.size() && free; ++j) {
        const double touch = cand.reach + accepted_reach[j];
        free = (accepted[j].position - p).squaredNorm() >= touch * touch;
      }
      if (!free) continue;
      Body b = cand.body;
      b.position = p;
      accepted.push_back(b);
      accepted_reach.push_back(cand.reach);
      ++result.inserted[source_of[c]];
      placed = true;
    }
    first_place += cand.places.size();
    if (!placed) ++result.missed;
  }
  if (domain.comm().getRank() == 0 && !accepted.empty()) {
    std::vector<Body> owned(domain.bodies().begin(),
                            domain.bodies().begin() + static_cast<long>(domain.numOwned()));
    owned.insert(owned.end(), accepted.begin(), accepted.end());
    domain.replaceOwned(std::move(owned));
  }
  return result;
}

}  // namespace grains
