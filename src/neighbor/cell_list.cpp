#include "grains/neighbor/cell_list.hpp"

#include "grains/core/parallel_loops.hpp"
#include "grains/geometry/contact_geometry.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

namespace grains {
namespace {

struct Grid {
  Vec3 origin = Vec3::Zero();
  double cell = 1.0;
  std::array<std::int64_t, 3> dims{1, 1, 1};

  std::array<std::int64_t, 3> coords(const Vec3& x) const {
    std::array<std::int64_t, 3> c{};
    for (int d = 0; d < 3; ++d) {
      const auto v = static_cast<std::int64_t>(std::floor((x[d] - origin[d]) / cell));
      c[d] = std::clamp<std::int64_t>(v, 0, dims[d] - 1);
    }
    return c;
  }
  std::int64_t index(std::int64_t x, std::int64_t y, std::int64_t z) const {
    return (z * dims[1] + y) * dims[0] + x;
  }
};

// A grid whose cells are at least one interaction distance wide, so that all
// partners of a body lie in the 27 surrounding cells; cells are coarsened when
// the bodies are spread out so the grid never has many more cells than bodies.
Grid makeGrid(const std::vector<Body>& bodies, double interaction) {
  Grid grid;
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::max());
  Vec3 hi = Vec3::Constant(std::numeric_limits<double>::lowest());
  for (const Body& b : bodies) {
    lo = lo.cwiseMin(b.position);
    hi = hi.cwiseMax(b.position);
  }
  grid.origin = lo;
  grid.cell = std::max(interaction, 1e-12);
  const double max_cells = 8.0 * static_cast<double>(bodies.size()) + 64.0;
  for (;;) {
    double total = 1.0;
    for (int d = 0; d < 3; ++d) {
      grid.dims[d] = static_cast<std::int64_t>(std::floor((hi[d] - lo[d]) / grid.cell)) + 1;
      total *= static_cast<double>(grid.dims[d]);
    }
    if (total <= max_cells) break;
    grid.cell *= 1.5;
  }
  return grid;
}

}  // namespace

std::vector<BodyPair> findNeighbourPairs(const std::vector<Body>& bodies, std::size_t num_owned,
                                         double envelope) {
  const auto n = static_cast<std::int64_t>(bodies.size());
  if (n < 2 || num_owned == 0) return {};

  // Bounding radii once per body: the pair loop below reads each many times.
  std::vector<double> bound(bodies.size());
  double max_radius = 0.0;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    bound[i] = boundingRadius(bodies[i]);
    max_radius = std::max(max_radius, bound[i]);
  }
  const Grid grid = makeGrid(bodies, 2.0 * max_radius + envelope);

  // Counting sort of bodies into cells.
  const std::int64_t num_cells = grid.dims[0] * grid.dims[1] * grid.dims[2];
  std::vector<std::int64_t> cell_of(static_cast<std::size_t>(n));
  std::vector<std::int64_t> cell_start(static_cast<std::size_t>(num_cells) + 1, 0);
  for (std::int64_t i = 0; i < n; ++i) {
    const auto c = grid.coords(bodies[static_cast<std::size_t>(i)].position);
    cell_of[static_cast<std::size_t>(i)] = grid.index(c[0], c[1], c[2]);
    ++cell_start[static_cast<std::size_t>(cell_of[static_cast<std::size_t>(i)]) + 1];
  }
  for (std::int64_t c = 0; c < num_cells; ++c)
    cell_start[static_cast<std::size_t>(c) + 1] += cell_start[static_cast<std::size_t>(c)];
  std::vector<int> sorted(static_cast<std::size_t>(n));
  {
    std::vector<std::int64_t> fill(cell_start.begin(), cell_start.end() - 1);
    for (std::int64_t i = 0; i < n; ++i)
      sorted[static_cast<std::size_t>(
          fill[static_cast<std::size_t>(cell_of[static_cast<std::size_t>(i)])]++)] =
          static_cast<int>(i);
  }

  // What the pair test reads of each body, in cell order: the bodies of a
  // row of three neighbouring cells are then one contiguous run of entries.
  struct Entry {
    double x, y, z, bound;
    int index;
  };
  std::vector<Entry> entries(static_cast<std::size_t>(n));
  parallelFor(entries.size(), [&](std::size_t k) {
    const auto j = static_cast<std::size_t>(sorted[k]);
    const Vec3& p = bodies[j].position;
    entries[k] = Entry{p.x(), p.y(), p.z(), bound[j], sorted[k]};
  });

  const auto owned = static_cast<std::int64_t>(num_owned);
  // Items in increasing i (contiguous per-thread ranges joined in order) with
  // each i's partners sorted: the pairs come out in key order without a
  // global sort (which had been serial: with two threads the search took
  // longer than with one).
  return parallelCollect<BodyPair>(
      static_cast<std::size_t>(n), [&](std::size_t index, std::vector<BodyPair>& local) {
        const auto i = static_cast<std::int64_t>(index);
        const std::size_t first = local.size();
        const Vec3& pi = bodies[index].position;
        const auto c = grid.coords(pi);
        const double ri = bound[index];
        const bool ghost_i = i >= owned;
        const std::int64_t x0 = std::max<std::int64_t>(c[0] - 1, 0);
        const std::int64_t x1 = std::min(c[0] + 1, grid.dims[0] - 1);
        for (std::int64_t z = std::max<std::int64_t>(c[2] - 1, 0);
             z <= std::min(c[2] + 1, grid.dims[2] - 1); ++z)
          for (std::int64_t y = std::max<std::int64_t>(c[1] - 1, 0);
               y <= std::min(c[1] + 1, grid.dims[1] - 1); ++y) {
            const auto begin = cell_start[static_cast<std::size_t>(grid.index(x0, y, z))];
            const auto end = cell_start[static_cast<std::size_t>(grid.index(x1, y, z)) + 1];
            for (std::int64_t k = begin; k < end; ++k) {
              const Entry& e = entries[static_cast<std::size_t>(k)];
              if (e.index <= i) continue;
              if (ghost_i && e.index >= owned) continue;  // ghost-ghost: not ours
              const double dx = e.x - pi.x(), dy = e.y - pi.y(), dz = e.z - pi.z();
              const double reach = ri + e.bound + envelope;
              if (dx * dx + dy * dy + dz * dz <= reach * reach)
                local.emplace_back(static_cast<int>(i), e.index);
            }
          }
        std::sort(local.begin() + static_cast<std::ptrdiff_t>(first), local.end());
      });
}

}  // namespace grains
