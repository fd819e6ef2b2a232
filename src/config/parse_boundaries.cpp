// Parsers for the open boundaries: insertion sources and outlets
// (docs/boundaries.md#pouring, #outlets).
#include "config_sections.hpp"
#include "grains/config/generated_shapes.hpp"
#include "grains/core/text.hpp"

#include <cmath>
#include <set>

namespace grains::config_detail {

namespace {

/// The body template of an insertion source: the keys of `bodies` that
/// describe one body.
BodiesSection parseTemplate(MapReader& s) {
  BodiesSection out;
  out.shape = shapeKindFromName(
      s.choice("shape", shapeName(out.shape), shapeNames(/*generated_only=*/true)),
      s.keyPath("shape"));
  const ShapeTraits& shape = shapeTraits(out.shape);
  rejectOtherShapeKeys(s, shape, s.keyPath("shape"), /*generated_only=*/true);
  if (shape.uses(kRadiusParameter)) out.radius = s.requiredNumber("radius", Range::positive());
  rejectUnless(s, "radius_spread", out.shape == ShapeKind::Sphere,
               "only spheres have a radius spread; " + s.keyPath("shape") + " = " + shape.name);
  out.radius_spread = s.number("radius_spread", 0.0, Range::closedOpen(0.0, 0.5));
  if (shape.uses(kHalfLengthParameter))
    out.half_length = s.requiredNumber("half_length", Range::positive());
  if (shape.uses(kSemiAxesParameter)) {
    out.semi_axes = s.requiredVec3("semi_axes");
    if (!(out.semi_axes.minCoeff() > 0.0)) s.fail("semi_axes", "three numbers > 0 [a, b, c]");
  }
  if (!shape.uses(kRadiusParameter)) out.radius = shapeBoundingRadius(out, out.radius);
  if (shape.uses(kMajorRadiusParameter)) {
    out.major_radius = s.requiredNumber("major_radius", Range::positive());
    if (!(out.major_radius > out.radius))
      s.fail("major_radius", "a number > " + s.keyPath("radius") + " (the tube radius)");
  }
  out.random_orientation = s.boolean("random_orientation", false);
  out.mass = s.optionalNumber("mass", Range::positive());
  out.density = s.optionalNumber("density", Range::positive());
  if (out.mass.has_value() == out.density.has_value())
    throwPathError(s.context(), s.yaml(), s.path(),
                   std::string(out.mass ? "both" : "neither") + " of " + s.keyPath("mass") +
                       " and " + s.keyPath("density") + " given; expected exactly one of them");
  return out;
}

/// Mean mass of the template's bodies: spheres of radius r (1 + s u), u
/// uniform in [-1, 1], have E[(1 + s u)^3] = 1 + s^2.
double meanBodyMass(const BodiesSection& b) {
  if (b.mass) return *b.mass;
  const double spread = b.radius_spread;
  return *b.density * shapeVolume(b, b.radius) * (1.0 + spread * spread);
}

InsertionSource parseSource(MapReader s, std::size_t index) {
  InsertionSource out;
  out.name = s.string("name", "insertion." + std::to_string(index));
  out.bodies = parseTemplate(s);
  if (!s.has("region")) s.failMissing("region", "a map with type: box or type: cylinder");
  out.region = parseRegion(s.map("region"));
  const std::optional<double> rate = s.optionalNumber("rate", Range::positive());
  out.mass_rate = s.optionalNumber("mass_rate", Range::positive());
  if (rate.has_value() == out.mass_rate.has_value())
    throwPathError(s.context(), s.yaml(), s.path(),
                   std::string(rate ? "both" : "neither") + " of " + s.keyPath("rate") + " and " +
                       s.keyPath("mass_rate") + " given; expected exactly one of them");
  out.rate = rate ? *rate : *out.mass_rate / meanBodyMass(out.bodies);
  out.start = s.number("start", 0.0, Range::nonNegative());
  out.end = s.optionalNumber("end", Range::nonNegative());
  out.count = s.optionalInteger("count", Range::atLeast(1.0));
  if (out.end && out.count)
    s.fail("count",
           "no count when " + s.keyPath("end") + " is given (one of them ends the source)");
  if (out.end && !(*out.end > out.start))
    s.fail("end", "a time > " + s.keyPath("start") + " = " + formatNumber("%g", out.start));
  out.every = s.number("every", 0.0, Range::nonNegative());
  out.velocity = s.vec3("velocity", Vec3::Zero());
  out.velocity_spread = s.number("velocity_spread", 0.0, Range::nonNegative());
  out.attempts = s.integer("attempts", out.attempts, Range::closed(1.0, 1e6));
  // Each body is placed inside the region by its bounding sphere.
  const double reach =
      shapeBoundingRadius(out.bodies, out.bodies.radius * (1.0 + out.bodies.radius_spread));
  const Region& r = out.region;
  const Vec3 extent = r.max_corner - r.min_corner;
  const bool fits = r.kind == Region::Kind::Cylinder ? r.radius > reach && extent.z() > 2.0 * reach
                                                     : extent.minCoeff() > 2.0 * reach;
  if (!fits)
    s.fail("region", "a region wider than a body (bounding diameter " +
                         formatNumber("%g", 2.0 * reach) + " m) in every direction");
  s.finish();
  return out;
}

OutletSpec parseOutlet(MapReader s, std::size_t index) {
  OutletSpec out;
  out.name = s.string("name", "outlet" + std::to_string(index));
  const std::string type = s.requiredChoice("type", {"box", "plane"});
  if (type == "box") {
    out.kind = OutletSpec::Kind::Box;
    out.min = s.requiredVec3("min");
    out.max = s.requiredVec3("max");
    for (int i = 0; i < 3; ++i)
      if (!(out.max[i] > out.min[i]))
        s.fail("max", "every component greater than " + s.keyPath("min"));
  } else {
    out.kind = OutletSpec::Kind::Plane;
    out.point = s.vec3("point", Vec3::Zero());
    out.normal = s.requiredVec3("normal", /*nonzero=*/true).normalized();
  }
  s.finish();
  return out;
}

template <typename T, typename Parse>
std::vector<T> parseList(const ParseContext& ctx, const YAML::Node& node, const std::string& key,
                         const std::string& expected, Parse parse) {
  std::vector<T> out;
  if (!node.IsDefined()) return out;
  if (!node.IsSequence()) throwValueError(ctx, node, key, expected);
  std::set<std::string> names;
  for (std::size_t i = 0; i < node.size(); ++i) {
    const std::string path = key + "." + std::to_string(i);
    out.push_back(parse(MapReader(ctx, node[i], path), i));
    if (!names.insert(out.back().name).second)
      throwValueError(ctx, node[i]["name"], path + ".name",
                      "a name no other entry of " + key + " has");
  }
  return out;
}

}  // namespace

std::vector<InsertionSource> parseInsertion(const ParseContext& ctx, const YAML::Node& node) {
  return parseList<InsertionSource>(
      ctx, node, "insertion",
      "a list of sources (- {name, shape, radius, density, region, rate ...})", parseSource);
}

std::vector<OutletSpec> parseOutlets(const ParseContext& ctx, const YAML::Node& node) {
  return parseList<OutletSpec>(ctx, node, "outlets",
                               "a list of outlets (- {name, type: box|plane, ...})", parseOutlet);
}

}  // namespace grains::config_detail
