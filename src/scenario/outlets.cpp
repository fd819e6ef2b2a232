#include "grains/scenario/outlets.hpp"

#include "grains/linalg/reproducible_reduction.hpp"
#include "grains/parallel/mpi_utils.hpp"

namespace grains {

bool insideOutlet(const OutletSpec& outlet, const Vec3& x) {
  if (outlet.kind == OutletSpec::Kind::Plane) return outlet.normal.dot(x - outlet.point) < 0.0;
  return (x.array() >= outlet.min.array()).all() && (x.array() <= outlet.max.array()).all();
}

std::vector<OutletDischarge> dischargeOutlets(BodyDomain& domain,
                                              const std::vector<OutletSpec>& outlets) {
  std::vector<OutletDischarge> out(outlets.size());
  if (outlets.empty()) return out;
  std::vector<Body> kept;
  std::vector<std::pair<std::size_t, double>> taken;  // (outlet, mass)
  for (std::size_t i = 0; i < domain.numOwned(); ++i) {
    const Body& b = domain.bodies()[i];
    std::size_t hit = outlets.size();
    for (std::size_t o = 0; o < outlets.size() && hit == outlets.size(); ++o)
      if (insideOutlet(outlets[o], b.position)) hit = o;
    if (hit == outlets.size())
      kept.push_back(b);
    else
      taken.emplace_back(hit, b.mass);
  }
  const auto local = static_cast<long>(taken.size());
  const long total = globalSum(domain.comm(), local);
  if (total == 0) return out;
  if (local > 0) domain.replaceOwned(std::move(kept));
  for (std::size_t o = 0; o < outlets.size(); ++o) {
    long count = 0;
    for (const auto& t : taken) count += t.first == o ? 1 : 0;
    out[o].count = globalSum(domain.comm(), count);
    out[o].mass =
        reproducibleSums<1>(domain.comm(), local, static_cast<double>(total), [&](long long i) {
          const auto& t = taken[static_cast<std::size_t>(i)];
          return std::array<double, 1>{t.first == o ? t.second : 0.0};
        })[0];
  }
  return out;
}

}  // namespace grains
