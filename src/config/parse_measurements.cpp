// Parser for the measurements list (docs/measurements.md).
#include "config_sections.hpp"
#include "grains/core/text.hpp"

#include <algorithm>
#include <limits>
#include <set>

namespace grains::config_detail {

namespace {

const std::vector<std::string>& kindNames() {
  static const std::vector<std::string> names = {
      "coordination", "packing_fraction", "stress", "fabric", "grid", "mass_flow"};
  return names;
}

MeasurementRegion parseMeasurementRegion(MapReader r) {
  MeasurementRegion region;
  if (!r.yaml().IsDefined()) return region;
  region.bounded = true;
  region.lower = r.requiredVec3("lower");
  region.upper = r.requiredVec3("upper");
  if (!(region.upper.array() > region.lower.array()).all())
    r.fail("upper", "a corner greater than " + r.keyPath("lower") + " in every component");
  r.finish();
  return region;
}

Measurement parseMeasurement(MapReader m, std::set<std::string>& names) {
  Measurement out;
  const std::string type = m.requiredChoice("type", kindNames());
  out.kind = static_cast<MeasurementKind>(std::find(kindNames().begin(), kindNames().end(), type) -
                                          kindNames().begin());
  out.name = m.string("name", type);
  const bool plain = !out.name.empty() && out.name.find_first_not_of(
                                              "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVW"
                                              "XYZ0123456789_-") == std::string::npos;
  if (!plain) m.fail("name", "a name of letters, digits, '_' and '-' (it names the output files)");
  if (!names.insert(out.name).second)
    m.fail("name", "a name no other measurement has (each names its own output files)");
  out.every = m.integer("every", out.every,
                        Range::closed(1.0, static_cast<double>(std::numeric_limits<long>::max())));
  const bool regional = out.kind != MeasurementKind::MassFlow;
  const bool needs_volume = out.kind == MeasurementKind::PackingFraction ||
                            out.kind == MeasurementKind::Stress ||
                            out.kind == MeasurementKind::Grid;
  rejectUnless(m, "region", regional, "mass_flow measures the whole run");
  if (needs_volume && !m.has("region"))
    m.failMissing("region", "the box {lower: [x, y, z], upper: [x, y, z]} whose volume " + type +
                                " divides by");
  out.region = parseMeasurementRegion(m.map("region"));
  const bool counts =
      out.kind == MeasurementKind::Coordination || out.kind == MeasurementKind::Fabric;
  rejectUnless(m, "walls", counts, "only coordination and fabric choose their contacts");
  rejectUnless(m, "contacts", counts, "only coordination and fabric choose their contacts");
  out.walls = m.boolean("walls", out.walls);
  out.contacts = m.choice("contacts", "carrying", {"carrying", "touching"}) == "touching"
                     ? ContactCount::Touching
                     : ContactCount::Carrying;
  const bool stresses = out.kind == MeasurementKind::Stress || out.kind == MeasurementKind::Grid;
  rejectUnless(m, "kinetic", stresses, "only stress and grid have a kinetic stress");
  const std::string kinetic = m.choice("kinetic", "fluctuating", {"fluctuating", "full", "none"});
  out.kinetic = kinetic == "full"   ? KineticStress::Full
                : kinetic == "none" ? KineticStress::None
                                    : KineticStress::Fluctuating;
  rejectUnless(m, "cells", out.kind == MeasurementKind::Grid, "only grid has cells");
  if (out.kind == MeasurementKind::Grid) {
    const YAML::Node cells = m.get("cells");
    const std::string path = m.keyPath("cells");
    const std::string expected = "three integers [nx, ny, nz], each in [1, 1000]";
    if (!cells.IsDefined()) m.failMissing("cells", expected);
    if (!cells.IsSequence() || cells.size() != 3)
      throwValueError(m.context(), cells, path, expected);
    for (std::size_t k = 0; k < 3; ++k) {
      long n = 0;
      if (!decodeInteger(cells[k], n) || n < 1 || n > 1000)
        throwValueError(m.context(), cells, path, expected);
      out.cells[k] = static_cast<int>(n);
    }
  }
  m.finish();
  return out;
}

}  // namespace

MeasurementsSection parseMeasurements(const ParseContext& ctx, const YAML::Node& node) {
  MeasurementsSection out;
  if (!node.IsDefined() || node.IsNull()) return out;
  if (!node.IsSequence())
    throwValueError(ctx, node, "measurements",
                    "a list of measurements (- type: coordination|packing_fraction|stress|"
                    "fabric|grid|mass_flow ...)");
  std::set<std::string> names;
  for (std::size_t i = 0; i < node.size(); ++i)
    out.list.push_back(
        parseMeasurement(MapReader(ctx, node[i], "measurements." + std::to_string(i)), names));
  return out;
}

}  // namespace grains::config_detail
