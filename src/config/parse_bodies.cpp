// Parser for the bodies section (shape, size, mass, generator and region).
#include <unistd.h>

#include <cmath>
#include <sstream>

#include "config_sections.hpp"
#include "grains/config/generated_shapes.hpp"

namespace grains::config_detail {

namespace {

/// Every rank generates the whole list of bodies before keeping its share
/// (docs/scaling.md), so a count is refused before allocating when it exceeds
/// grains' limit or half of this machine's memory.
constexpr long kMaxGeneratedBodies = 100'000'000;

void checkAffordable(MapReader& g, const std::string& key, long count) {
  if (count > kMaxGeneratedBodies) {
    g.fail(key, "at most " + std::to_string(kMaxGeneratedBodies) +
                    " generated bodies (grains' limit: every rank builds the whole list); this "
                    "gives " +
                    std::to_string(count));
  }
  const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return;
  const double memory = static_cast<double>(pages) * static_cast<double>(page_size);
  const double needed = 2.0 * static_cast<double>(count) * sizeof(Body);  // list + share
  if (needed > 0.5 * memory) {
    g.fail(key, "a count whose bodies fit in half of this machine's memory (" +
                    std::to_string(static_cast<long>(0.25 * memory / sizeof(Body))) +
                    " bodies at " + std::to_string(sizeof(Body)) + " bytes each); this gives " +
                    std::to_string(count));
  }
}

/// Where a chainmail lies when no region is given: a box centred on the origin
/// just enclosing the rings (spacing 2.9 R, see chainmail_generator.cpp).
Region chainmailDefaultRegion(const BodiesSection& b) {
  const double reach = b.major_radius + b.radius;
  const Vec3 half(0.5 * (b.rings_x - 1) * 2.9 * b.major_radius + reach,
                  0.5 * (b.rings_y - 1) * 2.9 * b.major_radius + reach, reach);
  Region region;
  region.kind = Region::Kind::Box;
  region.min_corner = -half;
  region.max_corner = half;
  return region;
}

void parseGenerator(MapReader g, BodiesSection& out) {
  const std::string type = g.choice("type", "lattice", {"lattice", "random", "file", "chainmail"});
  if (type == "file") {
    out.generator = GeneratorKind::File;
    if (out.shape != ShapeKind::Sphere) {
      g.fail("type", "lattice, random or chainmail with bodies.shape = " +
                         std::string(shapeName(out.shape)) + " (CSV files hold spheres only)");
    }
    out.file = g.string("file", "");
    if (out.file.empty()) g.failMissing("file", "the path of a CSV file");
    g.finish();
    return;
  }
  if (type == "chainmail") {
    out.generator = GeneratorKind::Chainmail;
    if (out.shape != ShapeKind::Torus) {
      g.fail("type", "a generator other than chainmail with bodies.shape = " +
                         std::string(shapeName(out.shape)) +
                         " (chainmail is made of rings: bodies.shape: torus)");
    }
    out.rings_x = static_cast<int>(g.integer("rings_x", out.rings_x, Range::closed(1.0, 1e4)));
    out.rings_y = static_cast<int>(g.integer("rings_y", out.rings_y, Range::closed(1.0, 1e4)));
    const long nx = out.rings_x, ny = out.rings_y;
    out.count = nx * ny + (nx - 1) * ny + nx * (ny - 1);
    checkAffordable(g, "rings_x", out.count);
    out.region = g.has("region") ? parseRegion(g.map("region")) : chainmailDefaultRegion(out);
    g.finish();
    return;
  }
  out.generator = type == "lattice" ? GeneratorKind::Lattice : GeneratorKind::RandomPacking;
  // 0 is allowed when extra_bodies lists every body (checked by the loader).
  out.count = g.integer("count", out.count, Range::atLeast(0.0));
  checkAffordable(g, "count", out.count);
  if (!g.has("region")) g.failMissing("region", "a map with type: box or type: cylinder");
  out.region = parseRegion(g.map("region"));
  if (type == "lattice") {
    const double reach = shapeBoundingRadius(out, out.radius * (1.0 + out.radius_spread));
    out.spacing = g.number("spacing", 0.0, Range::nonNegative());
    if (out.spacing > 0.0 && out.spacing < 2.0 * reach) {
      std::ostringstream expected;
      expected << "0 (automatic) or a number >= " << 2.0 * reach
               << " (twice the largest bounding radius of a body)";
      g.fail("spacing", expected.str());
    }
    out.jitter = g.number("jitter", 0.0, Range::closed(0.0, 1.0));
  }
  g.finish();
}

}  // namespace

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

void rejectUnless(MapReader& s, const std::string& key, bool applies, const std::string& why) {
  if (applies || !s.has(key)) return;
  throwPathError(s.context(), s.get(key), s.keyPath(key),
                 "does not apply here (" + why + "); remove it");
}

void rejectOtherShapeKeys(MapReader& s, const ShapeTraits& shape, const std::string& shape_key,
                          bool generated_only) {
  std::string takes;
  for (const ShapeParameterName& p : kShapeParameterNames) {
    if (shape.uses(p.parameter)) takes += (takes.empty() ? "" : ", ") + s.keyPath(p.name);
  }
  const std::string shape_is = shape_key + " = " + shape.name + " takes " + takes;
  for (const ShapeParameterName& p : kShapeParameterNames) {
    rejectUnless(s, p.name, shape.uses(p.parameter),
                 "used with " + shape_key + ": " + shapesUsing(p.parameter, generated_only) + "; " +
                     shape_is);
  }
}

BodiesSection parseBodies(MapReader s) {
  BodiesSection out;
  out.shape = shapeKindFromName(
      s.choice("shape", shapeName(out.shape), shapeNames(/*generated_only=*/true)), "bodies.shape");
  const ShapeTraits& shape = shapeTraits(out.shape);
  const std::string shape_is = "bodies.shape = " + std::string(shape.name);
  rejectOtherShapeKeys(s, shape, "bodies.shape", /*generated_only=*/true);

  out.radius = s.number("radius", out.radius, Range::positive());
  rejectUnless(s, "radius_spread", out.shape == ShapeKind::Sphere,
               "only spheres have a radius spread; " + shape_is);
  out.radius_spread = s.number("radius_spread", 0.0, Range::closedOpen(0.0, 0.5));
  if (shape.uses(kHalfLengthParameter)) {
    out.half_length = s.requiredNumber("half_length", Range::positive());
  }
  if (shape.uses(kSemiAxesParameter)) {
    out.semi_axes = s.requiredVec3("semi_axes");
    if (!(out.semi_axes.minCoeff() > 0.0)) s.fail("semi_axes", "three numbers > 0 [a, b, c]");
  }
  // A shape without a radius keeps its bounding radius there (as makeBody does).
  if (!shape.uses(kRadiusParameter)) {
    out.radius = shapeBoundingRadius(out, out.radius);
  }
  if (shape.uses(kMajorRadiusParameter)) {
    out.major_radius = s.requiredNumber("major_radius", Range::positive());
    if (!(out.major_radius > out.radius)) {
      std::ostringstream expected;
      expected << "a number > bodies.radius = " << out.radius
               << " (the tube radius; a ring needs a hole)";
      s.fail("major_radius", expected.str());
    }
  }
  out.random_orientation = s.boolean("random_orientation", false);
  out.volume_fraction =
      s.optionalNumber("volume_fraction", Range{0.0, 0.5, true, true, true, true});

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
  if (!s.has("generator")) {
    s.failMissing("generator", "a map with type: lattice|random|file|chainmail");
  }
  parseGenerator(s.map("generator"), out);
  rejectUnless(s, "volume_fraction", out.generator == GeneratorKind::RandomPacking,
               "used with bodies.generator.type: random");
  if (out.random_orientation &&
      (out.generator == GeneratorKind::File || out.generator == GeneratorKind::Chainmail)) {
    s.fail("random_orientation",
           "false with bodies.generator.type = " +
               std::string(out.generator == GeneratorKind::File ? "file" : "chainmail") +
               " (only lattice and random orient bodies randomly)");
  }
  s.finish();
  return out;
}

}  // namespace grains::config_detail
