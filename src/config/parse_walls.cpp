// Parser for the walls list. Boxes are expanded to six inward-facing planes.
#include "config_sections.hpp"
#include "grains/core/text.hpp"

#include "grains/geometry/triangle_mesh.hpp"
#include "grains/io/mesh_reader.hpp"

#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>

namespace grains::config_detail {

namespace {

/// A unit vector perpendicular to `normal` (the default first side of a hole).
Vec3 anyAxisIn(const Vec3& normal) {
  const Vec3 trial = std::abs(normal.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  return (trial - trial.dot(normal) * normal).normalized();
}

/// One row of walls.N.motion.table.
WallMotionRow parseMotionRow(MapReader r, double after, bool first) {
  WallMotionRow row;
  row.time = r.requiredNumber("time", Range::nonNegative());
  if (!first && !(row.time > after))
    r.fail("time", "a time greater than the previous row's (" + formatNumber("%g", after) + " s)");
  row.velocity = r.vec3("velocity", Vec3::Zero());
  row.angular_velocity = r.vec3("angular_velocity", Vec3::Zero());
  r.finish();
  return row;
}

/// walls.N.motion.force_control: a piston of a mass driven by a force
/// along the wall's normal (core/force_control.hpp).
ForceControl parseForceControl(MapReader f, const std::string& type) {
  if (type != "plane" && type != "disc")
    throwPathError(f.context(), f.yaml(), f.path(),
                   "not available for a wall of type " + type +
                       "; expected a plane or a disc (a force-controlled wall moves along its "
                       "normal)");
  ForceControl out;
  out.mass = f.requiredNumber("mass", Range::positive());
  out.force = f.vec3("force", Vec3::Zero());
  out.gravity = f.boolean("gravity", true);
  out.velocity = f.vec3("velocity", Vec3::Zero());
  if (!out.velocity.isZero() && type != "plane")
    f.fail("velocity", "[0, 0, 0] for a wall of type " + type +
                           " (only an unbounded plane may slide along itself)");
  f.finish();
  return out;
}

/// A force-controlled plane slides along itself only: its velocity must be
/// perpendicular to its normal, and a hole in it would have to move.
void checkSlidingPiston(MapReader motion, const Wall& wall) {
  const Vec3& v = wall.force_control.velocity;
  if (v.isZero()) return;
  MapReader f = motion.map("force_control");
  if (wall.kind != WallKind::Plane)
    f.fail("velocity", "[0, 0, 0] for a plane with a hole (the hole would have to move)");
  if (std::abs(v.dot(wall.normal)) > 1e-12 * v.norm())
    f.fail("velocity",
           "a velocity perpendicular to the wall's normal (the force moves it "
           "along the normal)");
}

/// walls.N.motion: constant velocities, or a table of them; the pivot
/// defaults to `default_pivot`. Or a force control (`force`).
WallMotion parseMotion(MapReader m, const Vec3& default_pivot, const std::string& type,
                       ForceControl& force) {
  WallMotion motion;
  motion.pivot = default_pivot;  // also the point a resting wall's torque is about
  if (!m.yaml().IsDefined()) return motion;
  motion.pivot = m.vec3("pivot", default_pivot);
  if (m.has("force_control")) {
    for (const char* key : {"velocity", "angular_velocity", "table"})
      rejectUnless(m, key, false,
                   "a force-controlled wall moves as its force drives it; " +
                       m.keyPath("force_control") + " is given");
    force = parseForceControl(m.map("force_control"), type);
    m.finish();
    return motion;
  }
  const YAML::Node table = m.get("table");
  if (table.IsDefined()) {
    for (const char* key : {"velocity", "angular_velocity"})
      rejectUnless(m, key, false, "given per row of " + m.keyPath("table"));
    if (!table.IsSequence() || table.size() == 0)
      throwValueError(m.context(), table, m.keyPath("table"),
                      "a list of rows {time, velocity, angular_velocity}");
    for (std::size_t i = 0; i < table.size(); ++i) {
      const double after = i > 0 ? motion.table.back().time : 0.0;
      motion.table.push_back(parseMotionRow(
          MapReader(m.context(), table[i], m.keyPath("table") + "." + std::to_string(i)), after,
          i == 0));
    }
  } else {
    WallMotionRow row;
    row.velocity = m.vec3("velocity", Vec3::Zero());
    row.angular_velocity = m.vec3("angular_velocity", Vec3::Zero());
    motion.table.push_back(row);
  }
  m.finish();
  return motion;
}

/// walls.N.friction: the wall's own coefficients, each optional.
WallFriction parseWallFriction(MapReader f) {
  WallFriction out;
  if (!f.yaml().IsDefined()) return out;
  out.mu = f.optionalNumber("mu", Range::nonNegative());
  out.rolling = f.optionalNumber("rolling_friction", Range::nonNegative());
  out.spinning = f.optionalNumber("spinning_friction", Range::nonNegative());
  f.finish();
  if (!out.any())
    throwPathError(f.context(), f.yaml(), f.path(),
                   "a map with mu, rolling_friction and/or spinning_friction");
  return out;
}

/// walls.N.scale: one number for every axis or [sx, sy, sz], all > 0.
Vec3 parseScale(MapReader& w) {
  const YAML::Node node = w.get("scale");
  if (!node.IsDefined()) return Vec3::Ones();
  if (node.IsScalar()) return Vec3::Constant(w.number("scale", 1.0, Range::positive()));
  const Vec3 scale = w.vec3("scale", Vec3::Ones());
  if (!(scale.minCoeff() > 0.0)) w.fail("scale", "a number > 0 or three numbers > 0 [sx, sy, sz]");
  return scale;
}

/// A `type: mesh` wall: the file's triangles scaled, rotated, then
/// translated; zero-area triangles are dropped (the mesh counts them).
Wall parseMeshWall(MapReader& w, const std::string& name) {
  const std::string given = w.string("file", "");
  if (given.empty()) w.failMissing("file", "the path of an .stl, .vtp or .vtk surface mesh");
  std::filesystem::path path(given);
  if (path.is_relative()) path = std::filesystem::path(w.context().base_dir) / path;
  path = path.lexically_normal();
  MeshSource source;
  {
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
    source.file = ec ? path.string() : absolute.string();
  }
  source.scale = parseScale(w);
  source.translate = w.vec3("translate", Vec3::Zero());
  MapReader rotate = w.map("rotate");
  if (rotate.yaml().IsDefined()) {
    source.rotate_axis = rotate.requiredVec3("axis", /*nonzero=*/true).normalized();
    source.rotate_angle_deg = rotate.requiredNumber("angle_deg", Range::any());
    rotate.finish();
  }
  std::vector<std::array<Vec3, 3>> read;
  try {
    read = readMeshTriangles(source.file);
  } catch (const std::exception& e) {
    w.fail("file", std::string("a readable surface mesh with triangles (") + e.what() + ")");
  }
  const Quat rotation(Eigen::AngleAxisd(source.rotate_angle_deg * kPi / 180.0, source.rotate_axis));
  double size = 0.0;
  for (auto& tri : read)
    for (Vec3& x : tri) {
      x = rotation * x.cwiseProduct(source.scale) + source.translate;
      size = std::max(size, x.cwiseAbs().maxCoeff());
    }
  std::vector<std::array<Vec3, 3>> kept;
  kept.reserve(read.size());
  for (const auto& tri : read) {
    const double area2 = (tri[1] - tri[0]).cross(tri[2] - tri[0]).norm();
    // Zero area up to rounding of the corners' coordinates.
    if (area2 > 1e-24 * size * size) kept.push_back(tri);
  }
  if (kept.empty())
    w.fail("file", "a surface mesh with triangles of non-zero area ('" + source.file + "' has " +
                       std::to_string(read.size()) + " triangles, all of zero area)");
  auto mesh = std::make_shared<TriangleMesh>(kept, source.file);
  mesh->source = source;
  mesh->degenerate_triangles = read.size() - kept.size();
  Wall wall;
  wall.kind = WallKind::Mesh;
  wall.name = name;
  wall.mesh = std::move(mesh);
  return wall;
}

/// walls.N.hole: a rectangular orifice about the wall's point, sides `size`
/// along `axis` (projected into the sheet) and normal x axis.
void parseRectangularHole(MapReader h, Wall& wall) {
  h.requiredChoice("type", {"rectangle"});
  const YAML::Node size_node = h.get("size");
  if (!size_node.IsDefined()) h.failMissing("size", "[a, b]: the sides of the hole [m]");
  const Eigen::Vector2d size = h.vec2("size", Eigen::Vector2d::Zero());
  if (!(size.minCoeff() > 0.0)) h.fail("size", "two numbers > 0 [a, b] (the sides of the hole)");
  const Vec3 axis = h.vec3("axis", anyAxisIn(wall.normal), /*nonzero=*/true);
  const Vec3 in_sheet = axis - axis.dot(wall.normal) * wall.normal;
  if (!(in_sheet.norm() > 1e-6 * axis.norm()))
    h.fail("axis", "a direction not along the wall's normal (the first side of the hole)");
  // A unit axis in the sheet is kept as given (the effective config reads
  // back to the same bits).
  wall.hole_axis = std::abs(in_sheet.norm() - 1.0) < 1e-12 ? in_sheet : in_sheet.normalized();
  wall.hole_half_length = 0.5 * size.x();
  wall.hole_half_width = 0.5 * size.y();
  if (!(0.5 * size.norm() < wall.radius))
    h.fail("size", "a hole inside the disc: half its diagonal (" +
                       formatNumber("%g", 0.5 * size.norm()) + ") < the disc's radius (" +
                       formatNumber("%g", wall.radius) + ")");
  h.finish();
}

void parseWall(MapReader w, std::size_t index, std::vector<Wall>& walls) {
  const std::size_t first = walls.size();
  const std::string type =
      w.requiredChoice("type", {"plane", "cylinder", "box", "disc", "cone", "mesh"});
  const bool named = w.has("name");
  const std::string name = w.string("name", "walls." + std::to_string(index));
  // The metrics name of the wall's load: by default its name if it has one;
  // "none" reports none.
  std::string load = w.string("load", named ? name : "none");
  if (load == "none") load.clear();
  if (type == "mesh") {
    walls.push_back(parseMeshWall(w, name));
  } else if (type == "plane") {
    const Vec3 point = w.vec3("point", Vec3::Zero());
    const Vec3 normal = w.requiredVec3("normal", /*nonzero=*/true);
    // A plane with a round hole about `point` (a silo floor with an orifice)
    // is a disc without an outer rim: a two-sided sheet.
    const std::optional<double> hole = w.optionalNumber("hole_radius", Range::positive());
    rejectUnless(w, "hole", !hole, w.keyPath("hole_radius") + " is given");
    walls.push_back(
        hole ? Wall::disc(point, normal, std::numeric_limits<double>::infinity(), *hole, name)
             : Wall::plane(point, normal, name));
    // A plane with a rectangular hole (a silo floor with a slot): a two-sided
    // sheet without an outer rim.
    if (w.has("hole")) {
      walls.back() = Wall::disc(point, normal, std::numeric_limits<double>::infinity(), 0.0, name);
      parseRectangularHole(w.map("hole"), walls.back());
    }
  } else if (type == "disc") {
    const Vec3 point = w.vec3("point", Vec3::Zero());
    const Vec3 normal = w.requiredVec3("normal", /*nonzero=*/true);
    const double radius = w.requiredNumber("radius", Range::positive());
    const double inner = w.number("inner_radius", 0.0, Range::nonNegative());
    if (!(inner < radius))
      w.fail("inner_radius", "a number < " + w.keyPath("radius") + " = " +
                                 formatNumber("%g", radius) +
                                 " (the hole must lie inside the disc)");
    walls.push_back(Wall::disc(point, normal, radius, inner, name));
    rejectUnless(w, "hole", inner == 0.0, w.keyPath("inner_radius") + " is given");
    if (w.has("hole")) parseRectangularHole(w.map("hole"), walls.back());
  } else if (type == "cone") {
    const Vec3 point = w.vec3("point", Vec3::Zero());
    const Vec3 axis = w.vec3("axis", Vec3::UnitZ(), /*nonzero=*/true);
    const double radius = w.requiredNumber("radius", Range::nonNegative());
    const double top = w.requiredNumber("top_radius", Range::nonNegative());
    const double height = w.requiredNumber("height", Range::positive());
    if (!(radius > 0.0 || top > 0.0))
      w.fail("top_radius",
             "a number > 0 when " + w.keyPath("radius") + " is 0 (a cone needs a rim)");
    walls.push_back(Wall::cone(point, axis, radius, top, height, name));
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
  // A box moves as one body about its centre by default, a mesh about the
  // point its file's origin was translated to.
  const Vec3 pivot = type == "box"    ? Vec3(0.5 * (walls[first].point + walls[first + 1].point))
                     : type == "mesh" ? walls[first].mesh->source.translate
                                      : walls[first].point;
  ForceControl force;
  const WallMotion motion = parseMotion(w.map("motion"), pivot, type, force);
  const WallFriction friction = parseWallFriction(w.map("friction"));
  for (std::size_t i = first; i < walls.size(); ++i) {
    walls[i].load_name = load;
    walls[i].motion = motion;
    walls[i].force_control = force;
    walls[i].friction = friction;
  }
  if (force.enabled()) checkSlidingPiston(w.map("motion"), walls[first]);
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
  out.shape = shapeKindFromName(b.requiredChoice("shape", shapeNames()), b.keyPath("shape"));
  const ShapeTraits& shape = shapeTraits(out.shape);
  const std::string shape_is = b.keyPath("shape") + " = " + shape.name;
  rejectOtherShapeKeys(b, shape, b.keyPath("shape"), /*generated_only=*/false);
  if (shape.uses(kRadiusParameter)) out.radius = b.requiredNumber("radius", Range::positive());
  if (shape.uses(kHalfLengthParameter)) {
    out.half_length = b.requiredNumber("half_length", Range::positive());
  }
  if (shape.uses(kSemiAxesParameter)) {
    out.semi_axes = b.requiredVec3("semi_axes");
    if (!(out.semi_axes.minCoeff() > 0.0)) b.fail("semi_axes", "three numbers > 0 [a, b, c]");
  }
  // A shape without a radius keeps its bounding radius there (as makeBody does).
  if (!shape.uses(kRadiusParameter)) {
    ShapeSize size;
    size.half_length = out.half_length;
    size.semi_axes = out.semi_axes;
    size.major_radius = out.major_radius;
    out.radius = shape.bounding_radius(size);
  }
  if (shape.uses(kMajorRadiusParameter)) {
    out.major_radius = b.requiredNumber("major_radius", Range::positive());
    if (!(out.major_radius > out.radius)) {
      b.fail("major_radius", "a number > " + b.keyPath("radius") + " = " +
                                 describeValue(b.get("radius")) + " (the tube radius)");
    }
  }
  rejectUnless(b, "axis", out.shape != ShapeKind::Sphere, "a sphere has no axis; " + shape_is);
  out.axis = b.vec3("axis", Vec3::UnitZ(), /*nonzero=*/true).normalized();
  out.orientation = b.optionalQuaternion("orientation");
  if (out.orientation && b.has("axis")) {
    throwPathError(b.context(), b.get("orientation"), b.keyPath("orientation"),
                   "given together with " + b.keyPath("axis") +
                       "; expected only one of them (orientation fixes the axis too)");
  }
  out.mass = b.requiredNumber("mass", Range::positive());
  out.position = b.requiredVec3("position");
  out.velocity = b.vec3("velocity", Vec3::Zero());
  out.force = b.vec3("force", Vec3::Zero());
  b.finish();
  return out;
}

}  // namespace

std::vector<ExplicitBody> parseExtraBodies(const ParseContext& ctx, const YAML::Node& node) {
  std::vector<ExplicitBody> bodies;
  if (!node.IsDefined()) return bodies;
  if (!node.IsSequence()) {
    std::string names;
    for (const std::string& name : shapeNames()) names += (names.empty() ? "" : "|") + name;
    throwValueError(ctx, node, "extra_bodies",
                    "a list of bodies (- shape: " + names + ", radius, mass, position ...)");
  }
  for (std::size_t i = 0; i < node.size(); ++i) {
    bodies.push_back(
        parseExplicitBody(MapReader(ctx, node[i], "extra_bodies." + std::to_string(i))));
  }
  return bodies;
}

}  // namespace grains::config_detail
