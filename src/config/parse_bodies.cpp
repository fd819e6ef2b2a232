// Parser for the bodies section (shape, size, mass, generator and region).
#include <cmath>
#include <sstream>

#include "config_sections.hpp"

namespace grains::config_detail {

namespace {

Region parseRegion(MapReader r) {
  Region region;
  const std::string type = r.requiredChoice("type", {"box", "cylinder"});
  if (type == "box") {
    region.kind = Region::Kind::Box;
    region.min_corner = r.requiredVec3("min");
    region.max_corner = r.requiredVec3("max");
    for (int i = 0; i < 3; ++i) {
      if (!(region.max_corner[i] > region.min_corner[i])) {
        r.fail("max", "every component greater than " + r.keyPath("min"));
      }
    }
  } else {
    region.kind = Region::Kind::Cylinder;
    const Eigen::Vector2d center = r.vec2("center", Eigen::Vector2d::Zero());
    region.center = Vec3(center.x(), center.y(), 0.0);
    region.radius = r.requiredNumber("radius", Range::positive());
    const double z_min = r.requiredNumber("z_min", Range::any());
    const double z_max = r.requiredNumber("z_max", Range::any());
    if (!(z_max > z_min)) r.fail("z_max", "a number > " + r.keyPath("z_min"));
    region.min_corner = Vec3(center.x() - region.radius, center.y() - region.radius, z_min);
    region.max_corner = Vec3(center.x() + region.radius, center.y() + region.radius, z_max);
  }
  r.finish();
  return region;
}

void parseGenerator(MapReader g, BodiesSection& out) {
  const std::string type = g.choice("type", "lattice", {"lattice", "random", "file"});
  if (type == "file") {
    out.generator = GeneratorKind::File;
    out.file = g.string("file", "");
    if (out.file.empty()) g.failMissing("file", "the path of a CSV file");
    g.finish();
    return;
  }
  out.generator = type == "lattice" ? GeneratorKind::Lattice : GeneratorKind::RandomPacking;
  out.count = g.integer("count", out.count, Range::atLeast(1.0));
  if (!g.has("region")) g.failMissing("region", "a map with type: box or type: cylinder");
  out.region = parseRegion(g.map("region"));
  if (type == "lattice") {
    const double max_radius = out.radius * (1.0 + out.radius_spread);
    out.spacing = g.number("spacing", 0.0, Range::nonNegative());
    if (out.spacing > 0.0 && out.spacing < 2.0 * max_radius) {
      std::ostringstream expected;
      expected << "0 (automatic) or a number >= " << 2.0 * max_radius
               << " (the largest body diameter)";
      g.fail("spacing", expected.str());
    }
    out.jitter = g.number("jitter", 0.0, Range::closed(0.0, 1.0));
  }
  g.finish();
}

}  // namespace

BodiesSection parseBodies(MapReader s) {
  BodiesSection out;
  out.shape = s.choice("shape", "sphere", {"sphere"});
  out.radius = s.number("radius", out.radius, Range::positive());
  out.radius_spread = s.number("radius_spread", 0.0, Range::closedOpen(0.0, 0.5));
  out.mass = s.optionalNumber("mass", Range::positive());
  out.density = s.optionalNumber("density", Range::positive());
  if (out.mass.has_value() == out.density.has_value()) {
    throwPathError(s.context(), s.yaml(), s.path(),
                   std::string(out.mass ? "both" : "neither") + " of " + s.keyPath("mass") +
                       " and " + s.keyPath("density") + " given" +
                       (out.mass ? " (mass = " + describeValue(s.get("mass")) +
                                       ", density = " + describeValue(s.get("density")) + ")"
                                 : "") +
                       "; expected exactly one of them");
  }
  out.initial_velocity = s.vec3("initial_velocity", out.initial_velocity);
  if (!s.has("generator")) s.failMissing("generator", "a map with type: lattice|random|file");
  parseGenerator(s.map("generator"), out);
  s.finish();
  return out;
}

}  // namespace grains::config_detail
