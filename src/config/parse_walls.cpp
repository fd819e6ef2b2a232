// Parser for the walls list. Boxes are expanded to six inward-facing planes.
#include "config_sections.hpp"

namespace grains::config_detail {

namespace {

void parseWall(MapReader w, std::size_t index, std::vector<Wall>& walls) {
  const std::string type = w.requiredChoice("type", {"plane", "cylinder", "box"});
  const std::string name = w.string("name", "walls." + std::to_string(index));
  if (type == "plane") {
    const Vec3 point = w.vec3("point", Vec3::Zero());
    const Vec3 normal = w.requiredVec3("normal", /*nonzero=*/true);
    walls.push_back(Wall::plane(point, normal, name));
  } else if (type == "cylinder") {
    const std::string side = w.choice("side", "inside", {"inside", "outside"});
    const Vec3 point = w.vec3("point", Vec3::Zero());
    const Vec3 axis = w.vec3("axis", Vec3::UnitZ(), /*nonzero=*/true);
    const double radius = w.requiredNumber("radius", Range::positive());
    walls.push_back(Wall::cylinder(point, axis, radius, side == "inside", name));
  } else {
    const Vec3 lo = w.requiredVec3("min");
    const Vec3 hi = w.requiredVec3("max");
    for (int i = 0; i < 3; ++i) {
      if (!(hi[i] > lo[i])) w.fail("max", "every component greater than " + w.keyPath("min"));
    }
    const char* axis_names[3] = {"x", "y", "z"};
    for (int i = 0; i < 3; ++i) {
      walls.push_back(Wall::plane(lo, Vec3::Unit(i), name + "." + axis_names[i] + "min"));
      walls.push_back(Wall::plane(hi, -Vec3::Unit(i), name + "." + axis_names[i] + "max"));
    }
  }
  w.finish();
}

}  // namespace

std::vector<Wall> parseWalls(const ParseContext& ctx, const YAML::Node& node) {
  std::vector<Wall> walls;
  if (!node.IsDefined()) return walls;
  if (!node.IsSequence()) {
    throwValueError(ctx, node, "walls", "a list of walls (- type: plane|cylinder|box ...)");
  }
  for (std::size_t i = 0; i < node.size(); ++i) {
    parseWall(MapReader(ctx, node[i], "walls." + std::to_string(i)), i, walls);
  }
  return walls;
}

namespace {

ExplicitBody parseExplicitBody(MapReader b) {
  ExplicitBody out;
  const std::string shape = b.requiredChoice("shape", {"sphere", "cylinder", "spherocylinder"});
  out.shape = shape == "cylinder"         ? ShapeKind::Cylinder
              : shape == "spherocylinder" ? ShapeKind::Spherocylinder
                                          : ShapeKind::Sphere;
  out.radius = b.requiredNumber("radius", Range::positive());
  if (out.shape != ShapeKind::Sphere) {
    out.half_length = b.requiredNumber("half_length", Range::positive());
    out.axis = b.vec3("axis", Vec3::UnitZ(), /*nonzero=*/true).normalized();
  }
  out.mass = b.requiredNumber("mass", Range::positive());
  out.position = b.requiredVec3("position");
  out.velocity = b.vec3("velocity", Vec3::Zero());
  b.finish();
  return out;
}

}  // namespace

std::vector<ExplicitBody> parseExtraBodies(const ParseContext& ctx, const YAML::Node& node) {
  std::vector<ExplicitBody> bodies;
  if (!node.IsDefined()) return bodies;
  if (!node.IsSequence()) {
    throwValueError(ctx, node, "extra_bodies",
                    "a list of bodies (- shape: sphere|cylinder, radius, mass, position ...)");
  }
  for (std::size_t i = 0; i < node.size(); ++i) {
    bodies.push_back(
        parseExplicitBody(MapReader(ctx, node[i], "extra_bodies." + std::to_string(i))));
  }
  return bodies;
}

}  // namespace grains::config_detail
