// The effective config as YAML (round-trips through loadConfigString), and a
// plain-text schema summary.
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "grains/config/config_loader.hpp"
#include "grains/geometry/shape_traits.hpp"
#include "grains/geometry/triangle_mesh.hpp"

namespace grains {

namespace {

/// Shortest text that reads back as exactly v (and 0 for -0).
std::string num(double v) {
  if (v == 0.0) return "0";
  char buffer[32];
  for (int precision = 15; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, v);
    if (std::strtod(buffer, nullptr) == v) break;
  }
  return buffer;
}

void emitVec3(YAML::Emitter& out, const char* key, const Vec3& v) {
  out << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginSeq << num(v.x()) << num(v.y())
      << num(v.z()) << YAML::EndSeq;
}

void emitRegion(YAML::Emitter& out, const Region& region) {
  out << YAML::Key << "region" << YAML::Value << YAML::BeginMap;
  if (region.kind == Region::Kind::Box) {
    out << YAML::Key << "type" << YAML::Value << "box";
    emitVec3(out, "min", region.min_corner);
    emitVec3(out, "max", region.max_corner);
  } else {
    out << YAML::Key << "type" << YAML::Value << "cylinder";
    out << YAML::Key << "center" << YAML::Value << YAML::Flow << YAML::BeginSeq
        << num(region.center.x()) << num(region.center.y()) << YAML::EndSeq;
    out << YAML::Key << "radius" << YAML::Value << num(region.radius);
    out << YAML::Key << "z_min" << YAML::Value << num(region.min_corner.z());
    out << YAML::Key << "z_max" << YAML::Value << num(region.max_corner.z());
  }
  out << YAML::EndMap;
}

/// The size keys a shape is made of (radius_spread, if given, after radius).
void emitShapeSize(YAML::Emitter& out, const ShapeTraits& shape, double radius, double half_length,
                   const Vec3& semi_axes, double major_radius, const double* radius_spread) {
  if (shape.uses(kSemiAxesParameter)) emitVec3(out, "semi_axes", semi_axes);
  if (shape.uses(kRadiusParameter)) out << YAML::Key << "radius" << YAML::Value << num(radius);
  if (radius_spread) out << YAML::Key << "radius_spread" << YAML::Value << num(*radius_spread);
  if (shape.uses(kHalfLengthParameter)) {
    out << YAML::Key << "half_length" << YAML::Value << num(half_length);
  }
  if (shape.uses(kMajorRadiusParameter)) {
    out << YAML::Key << "major_radius" << YAML::Value << num(major_radius);
  }
}

void emitBodies(YAML::Emitter& out, const BodiesSection& b) {
  out << YAML::Key << "bodies" << YAML::Value << YAML::BeginMap;
  const ShapeTraits& shape = shapeTraits(b.shape);
  out << YAML::Key << "shape" << YAML::Value << shape.name;
  emitShapeSize(out, shape, b.radius, b.half_length, b.semi_axes, b.major_radius,
                b.shape == ShapeKind::Sphere ? &b.radius_spread : nullptr);
  if (b.generator == GeneratorKind::Lattice || b.generator == GeneratorKind::RandomPacking) {
    out << YAML::Key << "random_orientation" << YAML::Value << b.random_orientation;
  }
  if (b.volume_fraction) {
    out << YAML::Key << "volume_fraction" << YAML::Value << num(*b.volume_fraction);
  }
  if (b.mass) out << YAML::Key << "mass" << YAML::Value << num(*b.mass);
  if (b.density) out << YAML::Key << "density" << YAML::Value << num(*b.density);
  emitVec3(out, "initial_velocity", b.initial_velocity);
  out << YAML::Key << "generator" << YAML::Value << YAML::BeginMap;
  if (b.generator == GeneratorKind::File) {
    out << YAML::Key << "type" << YAML::Value << "file";
    out << YAML::Key << "file" << YAML::Value << b.file;
  } else if (b.generator == GeneratorKind::Chainmail) {
    out << YAML::Key << "type" << YAML::Value << "chainmail";
    out << YAML::Key << "rings_x" << YAML::Value << b.rings_x;
    out << YAML::Key << "rings_y" << YAML::Value << b.rings_y;
    emitRegion(out, b.region);
  } else {
    const bool lattice = b.generator == GeneratorKind::Lattice;
    out << YAML::Key << "type" << YAML::Value << (lattice ? "lattice" : "random");
    out << YAML::Key << "count" << YAML::Value << b.count;
    if (lattice) {
      out << YAML::Key << "spacing" << YAML::Value << num(b.spacing);
      out << YAML::Key << "jitter" << YAML::Value << num(b.jitter);
    }
    emitRegion(out, b.region);
  }
  out << YAML::EndMap << YAML::EndMap;
}

/// A wall's load name (when it is not its name) and its motion, as a table.
void emitWallExtras(YAML::Emitter& out, const Wall& w) {
  if (w.hasRectangularHole()) {
    out << YAML::Key << "hole" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "type" << YAML::Value << "rectangle";
    out << YAML::Key << "size" << YAML::Value << YAML::Flow << YAML::BeginSeq
        << num(2.0 * w.hole_half_length) << num(2.0 * w.hole_half_width) << YAML::EndSeq;
    emitVec3(out, "axis", w.hole_axis);
    out << YAML::EndMap;
  }
  if (w.load_name != w.name)
    out << YAML::Key << "load" << YAML::Value << (w.load_name.empty() ? "none" : w.load_name);
  if (w.friction.any()) {
    out << YAML::Key << "friction" << YAML::Value << YAML::BeginMap;
    if (w.friction.mu) out << YAML::Key << "mu" << YAML::Value << num(*w.friction.mu);
    if (w.friction.rolling)
      out << YAML::Key << "rolling_friction" << YAML::Value << num(*w.friction.rolling);
    if (w.friction.spinning)
      out << YAML::Key << "spinning_friction" << YAML::Value << num(*w.friction.spinning);
    out << YAML::EndMap;
  }
  if (w.force_control.enabled()) {
    out << YAML::Key << "motion" << YAML::Value << YAML::BeginMap;
    emitVec3(out, "pivot", w.motion.pivot);
    out << YAML::Key << "force_control" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "mass" << YAML::Value << num(w.force_control.mass);
    emitVec3(out, "force", w.force_control.force);
    out << YAML::Key << "gravity" << YAML::Value << w.force_control.gravity;
    if (!w.force_control.velocity.isZero()) emitVec3(out, "velocity", w.force_control.velocity);
    out << YAML::EndMap << YAML::EndMap;
    return;
  }
  if (!w.motion.moves()) return;
  out << YAML::Key << "motion" << YAML::Value << YAML::BeginMap;
  emitVec3(out, "pivot", w.motion.pivot);
  out << YAML::Key << "table" << YAML::Value << YAML::BeginSeq;
  for (const WallMotionRow& row : w.motion.table) {
    out << YAML::BeginMap << YAML::Key << "time" << YAML::Value << num(row.time);
    emitVec3(out, "velocity", row.velocity);
    emitVec3(out, "angular_velocity", row.angular_velocity);
    out << YAML::EndMap;
  }
  out << YAML::EndSeq << YAML::EndMap;
}

void emitWalls(YAML::Emitter& out, const std::vector<Wall>& walls) {
  out << YAML::Key << "walls" << YAML::Value << YAML::BeginSeq;
  for (const auto& w : walls) {
    out << YAML::Flow << YAML::BeginMap;
    const bool holed_plane = w.kind == WallKind::Disc && std::isinf(w.radius);
    if (w.kind == WallKind::Mesh) {
      const MeshSource& s = w.mesh->source;
      out << YAML::Key << "type" << YAML::Value << "mesh";
      out << YAML::Key << "name" << YAML::Value << w.name;
      out << YAML::Key << "file" << YAML::Value << s.file;
      emitVec3(out, "scale", s.scale);
      emitVec3(out, "translate", s.translate);
      out << YAML::Key << "rotate" << YAML::Value << YAML::BeginMap;
      emitVec3(out, "axis", s.rotate_axis);
      out << YAML::Key << "angle_deg" << YAML::Value << num(s.rotate_angle_deg) << YAML::EndMap;
    } else if (w.kind == WallKind::Plane || holed_plane) {
      out << YAML::Key << "type" << YAML::Value << "plane";
      out << YAML::Key << "name" << YAML::Value << w.name;
      emitVec3(out, "point", w.point);
      emitVec3(out, "normal", w.normal);
      if (holed_plane && !w.hasRectangularHole())
        out << YAML::Key << "hole_radius" << YAML::Value << num(w.inner_radius);
    } else if (w.kind == WallKind::Disc) {
      out << YAML::Key << "type" << YAML::Value << "disc";
      out << YAML::Key << "name" << YAML::Value << w.name;
      emitVec3(out, "point", w.point);
      emitVec3(out, "normal", w.normal);
      out << YAML::Key << "radius" << YAML::Value << num(w.radius);
      out << YAML::Key << "inner_radius" << YAML::Value << num(w.inner_radius);
    } else if (w.kind == WallKind::Cone) {
      out << YAML::Key << "type" << YAML::Value << "cone";
      out << YAML::Key << "name" << YAML::Value << w.name;
      emitVec3(out, "point", w.point);
      emitVec3(out, "axis", w.normal);
      out << YAML::Key << "radius" << YAML::Value << num(w.radius);
      out << YAML::Key << "top_radius" << YAML::Value << num(w.top_radius);
      out << YAML::Key << "height" << YAML::Value << num(w.height);
    } else {
      out << YAML::Key << "type" << YAML::Value << "cylinder";
      out << YAML::Key << "name" << YAML::Value << w.name;
      out << YAML::Key << "side" << YAML::Value
          << (w.kind == WallKind::CylinderInside ? "inside" : "outside");
      emitVec3(out, "point", w.point);
      emitVec3(out, "axis", w.normal);
      out << YAML::Key << "radius" << YAML::Value << num(w.radius);
    }
    emitWallExtras(out, w);
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void emitExtraBodies(YAML::Emitter& out, const std::vector<ExplicitBody>& bodies) {
  if (bodies.empty()) return;
  out << YAML::Key << "extra_bodies" << YAML::Value << YAML::BeginSeq;
  for (const auto& b : bodies) {
    out << YAML::Flow << YAML::BeginMap;
    const ShapeTraits& shape = shapeTraits(b.shape);
    out << YAML::Key << "shape" << YAML::Value << shape.name;
    emitShapeSize(out, shape, b.radius, b.half_length, b.semi_axes, b.major_radius, nullptr);
    if (b.orientation) {
      const Quat& q = *b.orientation;
      out << YAML::Key << "orientation" << YAML::Value << YAML::Flow << YAML::BeginSeq << num(q.w())
          << num(q.x()) << num(q.y()) << num(q.z()) << YAML::EndSeq;
    } else if (b.shape != ShapeKind::Sphere) {
      emitVec3(out, "axis", b.axis);
    }
    out << YAML::Key << "mass" << YAML::Value << num(b.mass);
    emitVec3(out, "position", b.position);
    emitVec3(out, "velocity", b.velocity);
    emitVec3(out, "force", b.force);
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void emitSimulationSection(YAML::Emitter& out, const SimulationConfig& c) {
  out << YAML::Key << "simulation" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "dynamics" << YAML::Value
      << (c.simulation.dynamics == DynamicsKind::Overdamped ? "overdamped" : "inertial");
  out << YAML::Key << "drag" << YAML::Value << num(c.simulation.drag);
  out << YAML::Key << "dt" << YAML::Value << num(c.simulation.dt);
  if (c.simulation.steps) out << YAML::Key << "steps" << YAML::Value << *c.simulation.steps;
  if (c.simulation.end_time) {
    out << YAML::Key << "end_time" << YAML::Value << num(*c.simulation.end_time);
  }
  emitVec3(out, "gravity", c.simulation.gravity);
  out << YAML::Key << "seed" << YAML::Value << c.simulation.seed;
  out << YAML::Key << "planar" << YAML::Value << c.simulation.planar;
  out << YAML::EndMap;
}

void emitContactSection(YAML::Emitter& out, const SimulationConfig& c) {
  out << YAML::Key << "contact" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "friction" << YAML::Value << frictionModelName(c.contact.friction);
  out << YAML::Key << "mu" << YAML::Value << num(c.contact.mu);
  out << YAML::Key << "rolling_friction" << YAML::Value << num(c.contact.rolling_friction);
  out << YAML::Key << "spinning_friction" << YAML::Value << num(c.contact.spinning_friction);
  out << YAML::Key << "envelope" << YAML::Value << num(c.contact.envelope);
  out << YAML::Key << "damping_steps" << YAML::Value << num(c.contact.damping_steps);
  out << YAML::Key << "compliance" << YAML::Value << num(c.contact.compliance);
  out << YAML::Key << "overlap_slop" << YAML::Value << num(c.contact.overlap_slop);
  out << YAML::Key << "lift_correction" << YAML::Value << c.contact.lift_correction;
  out << YAML::Key << "method" << YAML::Value << c.contact.method.name();
  out << YAML::Key << "subspheres" << YAML::Value << c.contact.subspheres;
  out << YAML::Key << "subsphere_buffer" << YAML::Value << num(c.contact.subsphere_buffer);
  out << YAML::Key << "overlap_tolerance" << YAML::Value << num(c.contact.overlap_tolerance);
  out << YAML::Key << "max_recursions" << YAML::Value << c.contact.max_recursions;
  out << YAML::Key << "adaptive_envelope" << YAML::Value << c.contact.adaptive_envelope;
  out << YAML::Key << "predict_contacts" << YAML::Value << c.contact.predict_contacts;
  out << YAML::EndMap;
}

void emitForceFieldSection(YAML::Emitter& out, const SimulationConfig& c) {
  out << YAML::Key << "force_field" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "type" << YAML::Value
      << (c.force_field.kind == ForceFieldKind::RadialCompaction  ? "compaction"
          : c.force_field.kind == ForceFieldKind::RadialExtension ? "extension"
                                                                  : "none");
  out << YAML::Key << "strength" << YAML::Value << num(c.force_field.strength);
  emitVec3(out, "center", c.force_field.center);
  out << YAML::EndMap;
}

void emitGrowthSection(YAML::Emitter& out, const SimulationConfig& c) {
  out << YAML::Key << "growth" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "rate" << YAML::Value << num(c.growth.rate);
  out << YAML::Key << "division_length" << YAML::Value << num(c.growth.division_length);
  out << YAML::Key << "reorientation_deg" << YAML::Value << num(c.growth.reorientation_deg);
  out << YAML::Key << "max_generations" << YAML::Value << c.growth.max_generations;
  out << YAML::EndMap;
}

void emitSolverSection(YAML::Emitter& out, const SimulationConfig& c) {
  out << YAML::Key << "solver" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << c.solver.name;
  out << YAML::Key << "tolerance" << YAML::Value << num(c.solver.settings.tolerance);
  out << YAML::Key << "max_iterations" << YAML::Value << c.solver.settings.max_iterations;
  out << YAML::Key << "outer_iterations" << YAML::Value << c.solver.settings.outer_iterations;
  out << YAML::Key << "outer_tolerance" << YAML::Value << num(c.solver.settings.outer_tolerance);
  out << YAML::Key << "on_unconverged" << YAML::Value
      << (c.solver.on_unconverged == UnconvergedPolicy::Retry   ? "retry"
          : c.solver.on_unconverged == UnconvergedPolicy::Abort ? "abort"
                                                                : "warn");
  out << YAML::Key << "max_halvings" << YAML::Value << c.solver.max_halvings;
  out << YAML::Key << "rest_reduction" << YAML::Value << num(c.solver.rest.reduction);
  out << YAML::Key << "rest_floor" << YAML::Value << num(c.solver.rest.floor);
  out << YAML::Key << "rest_quantile" << YAML::Value << num(c.solver.rest.quantile);
  out << YAML::Key << "rest_quantile_limit" << YAML::Value << num(c.solver.rest.quantile_limit);
  out << YAML::Key << "rest_bulk_stop" << YAML::Value << c.solver.rest.bulk_stop;
  if (!c.solver.settings.options.empty()) {
    out << YAML::Key << "options" << YAML::Value << YAML::BeginMap;
    for (const auto& [key, value] : c.solver.settings.options) {
      out << YAML::Key << key << YAML::Value << num(value);
    }
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
}

void emitParallelSection(YAML::Emitter& out, const SimulationConfig& c) {
  out << YAML::Key << "parallel" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "partitioner" << YAML::Value
      << (c.parallel.partitioner == PartitionerKind::MultiJagged ? "multijagged" : "rcb");
  out << YAML::Key << "imbalance_threshold" << YAML::Value << num(c.parallel.imbalance_threshold);
  out << YAML::Key << "repartition_every" << YAML::Value << c.parallel.repartition_every;
  out << YAML::Key << "min_repartition_interval" << YAML::Value
      << c.parallel.min_repartition_interval;
  out << YAML::Key << "body_order" << YAML::Value
      << (c.parallel.body_order == BodyOrder::Spatial ? "spatial"
          : c.parallel.body_order == BodyOrder::Gid   ? "gid"
                                                      : "auto");
  out << YAML::Key << "sort_every" << YAML::Value << c.parallel.sort_every;
  out << YAML::Key << "reproducible" << YAML::Value << c.parallel.reproducible;
  out << YAML::EndMap;
}

void emitOutputSection(YAML::Emitter& out, const SimulationConfig& c) {
  out << YAML::Key << "output" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "dir" << YAML::Value << c.output.dir;
  out << YAML::Key << "vtk_every" << YAML::Value << c.output.vtk_every;
  out << YAML::Key << "contact_network" << YAML::Value << c.output.contact_network;
  out << YAML::Key << "log_every" << YAML::Value << c.output.log_every;
  out << YAML::Key << "log_level" << YAML::Value << logLevelName(c.output.log_level);
  out << YAML::Key << "metrics_every" << YAML::Value << c.output.metrics_every;
  out << YAML::Key << "checkpoint_every" << YAML::Value << c.output.checkpoint_every;
  out << YAML::Key << "checkpoint_keep" << YAML::Value << c.output.checkpoint_keep;
  out << YAML::EndMap;
}

void emitInsertion(YAML::Emitter& out, const std::vector<InsertionSource>& sources) {
  if (sources.empty()) return;
  out << YAML::Key << "insertion" << YAML::Value << YAML::BeginSeq;
  for (const InsertionSource& s : sources) {
    out << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << s.name;
    const BodiesSection& b = s.bodies;
    const ShapeTraits& shape = shapeTraits(b.shape);
    out << YAML::Key << "shape" << YAML::Value << shape.name;
    const double* spread = b.shape == ShapeKind::Sphere ? &b.radius_spread : nullptr;
    emitShapeSize(out, shape, b.radius, b.half_length, b.semi_axes, b.major_radius, spread);
    if (b.random_orientation) out << YAML::Key << "random_orientation" << YAML::Value << true;
    if (b.mass) out << YAML::Key << "mass" << YAML::Value << num(*b.mass);
    if (b.density) out << YAML::Key << "density" << YAML::Value << num(*b.density);
    emitRegion(out, s.region);
    if (s.mass_rate)
      out << YAML::Key << "mass_rate" << YAML::Value << num(*s.mass_rate);
    else
      out << YAML::Key << "rate" << YAML::Value << num(s.rate);
    out << YAML::Key << "start" << YAML::Value << num(s.start);
    if (s.end) out << YAML::Key << "end" << YAML::Value << num(*s.end);
    if (s.count) out << YAML::Key << "count" << YAML::Value << *s.count;
    out << YAML::Key << "every" << YAML::Value << num(s.every);
    emitVec3(out, "velocity", s.velocity);
    out << YAML::Key << "velocity_spread" << YAML::Value << num(s.velocity_spread);
    out << YAML::Key << "attempts" << YAML::Value << s.attempts;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void emitOutlets(YAML::Emitter& out, const std::vector<OutletSpec>& outlets) {
  if (outlets.empty()) return;
  out << YAML::Key << "outlets" << YAML::Value << YAML::BeginSeq;
  for (const OutletSpec& o : outlets) {
    out << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << o.name;
    if (o.kind == OutletSpec::Kind::Box) {
      out << YAML::Key << "type" << YAML::Value << "box";
      emitVec3(out, "min", o.min);
      emitVec3(out, "max", o.max);
    } else {
      out << YAML::Key << "type" << YAML::Value << "plane";
      emitVec3(out, "point", o.point);
      emitVec3(out, "normal", o.normal);
    }
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void emitDomainSection(YAML::Emitter& out, const SimulationConfig& c) {
  out << YAML::Key << "domain" << YAML::Value << YAML::BeginMap;
  if (c.domain.bounded) {
    emitVec3(out, "min", c.domain.min);
    emitVec3(out, "max", c.domain.max);
  }
  out << YAML::Key << "on_exit" << YAML::Value
      << (c.domain.on_exit == DomainExitPolicy::Abort ? "abort" : "remove");
  if (c.domain.periodic[0] || c.domain.periodic[1] || c.domain.periodic[2]) {
    out << YAML::Key << "periodic" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (int d = 0; d < 3; ++d)
      if (c.domain.periodic[static_cast<std::size_t>(d)]) out << std::string(1, "xyz"[d]);
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;
}

void emitMeasurements(YAML::Emitter& out, const MeasurementsSection& section) {
  if (section.list.empty()) return;
  static const char* const kinds[] = {"coordination", "packing_fraction", "stress", "fabric",
                                      "grid",         "mass_flow"};
  out << YAML::Key << "measurements" << YAML::Value << YAML::BeginSeq;
  for (const Measurement& m : section.list) {
    out << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << m.name;
    out << YAML::Key << "type" << YAML::Value << kinds[static_cast<int>(m.kind)];
    out << YAML::Key << "every" << YAML::Value << m.every;
    if (m.region.bounded) {
      out << YAML::Key << "region" << YAML::Value << YAML::BeginMap;
      emitVec3(out, "lower", m.region.lower);
      emitVec3(out, "upper", m.region.upper);
      out << YAML::EndMap;
    }
    if (m.kind == MeasurementKind::Coordination || m.kind == MeasurementKind::Fabric) {
      out << YAML::Key << "walls" << YAML::Value << m.walls;
      out << YAML::Key << "contacts" << YAML::Value
          << (m.contacts == ContactCount::Touching ? "touching" : "carrying");
    }
    if (m.kind == MeasurementKind::Stress || m.kind == MeasurementKind::Grid) {
      out << YAML::Key << "kinetic" << YAML::Value
          << (m.kinetic == KineticStress::Full   ? "full"
              : m.kinetic == KineticStress::None ? "none"
                                                 : "fluctuating");
    }
    if (m.kind == MeasurementKind::Grid)
      out << YAML::Key << "cells" << YAML::Value << YAML::Flow << YAML::BeginSeq << m.cells[0]
          << m.cells[1] << m.cells[2] << YAML::EndSeq;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

}  // namespace

std::string configToYaml(const SimulationConfig& c) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  emitSimulationSection(out, c);
  emitBodies(out, c.bodies);
  emitExtraBodies(out, c.extra_bodies);
  emitWalls(out, c.walls);
  emitContactSection(out, c);
  emitForceFieldSection(out, c);
  emitGrowthSection(out, c);
  emitSolverSection(out, c);
  emitParallelSection(out, c);
  emitOutputSection(out, c);
  emitDomainSection(out, c);
  emitInsertion(out, c.insertion);
  emitOutlets(out, c.outlets);
  emitMeasurements(out, c.measurements);
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

std::string describeSchema() {
  return R"(grains scenario schema (full reference: docs/config.md)
simulation: dynamics (inertial|overdamped, inertial), drag (>0, 1; overdamped),
            dt (>0, 0.001), exactly one of steps (int >=0) | end_time (>=0),
            gravity ([x,y,z], [0,0,-9.81]), seed (int >=0, 12345),
            planar (bool, false: motion in the x-y plane only)
bodies:     shape (sphere|spherocylinder|ellipsoid|torus, sphere), radius (>0, 0.1; torus: tube),
            radius_spread (sphere, [0,0.5), 0), half_length (spherocylinder, >0, required),
            semi_axes (ellipsoid, [a,b,c] >0, required), major_radius (torus, >radius, required),
            random_orientation (lattice/random, false), volume_fraction (random, (0,0.5)),
            exactly one of mass (>0) | density (>0), initial_velocity ([0,0,0]),
            generator: type (lattice|random|file|chainmail, lattice)
              lattice/random: count (int >=1, 1000), region (required)
                region: type box: min, max | type cylinder: center ([x,y]), radius, z_min, z_max
              lattice: spacing (0 = 2.5 x largest bounding radius), jitter ([0,1], 0)
              file: file (CSV with header among x,y,z,radius,mass,vx,vy,vz; spheres)
              chainmail (torus): rings_x, rings_y (int >=1, 4), region (optional: its centre)
walls:      list of {type: plane, point, normal} | {type: cylinder, side (inside|outside),
            point, axis ([0,0,1]), radius} | {type: box, min, max} | {type: disc, point,
            normal, radius, inner_radius (0)} | {type: cone, point, axis ([0,0,1]), radius,
            top_radius, height} | {type: mesh, file (.stl|.vtp|.vtk, relative to the
            config), scale (1), translate ([0,0,0]), rotate {axis, angle_deg}}; a plane
            may have hole_radius, a plane or disc hole: {type: rectangle, size: [a,b],
            axis}; each may have a name,
            load (metrics name of its load; default its name if given), motion: pivot (the
            wall's point; box: centre; mesh: translate), velocity, angular_velocity
            ([0,0,0]) | table (rows time, velocity, angular_velocity) | force_control
            (plane/disc: mass (>0), force ([0,0,0]), gravity (true), velocity (plane:
            along it, [0,0,0]); needs contact.compliance >0); friction: mu,
            rolling_friction, spinning_friction (>=0; the run's contact values)
contact:    friction (frictionless|coulomb|pyramid|box|cylinder; none = frictionless,
            cone = coulomb), mu (>=0, 0), envelope (>=0, 0 = auto),
            damping_steps (>0, 4), compliance (>=0, 0), overlap_slop (>=0 m, 0;
            < overlap_tolerance with relcp), lift_correction (int 0..100, 0;
            coulomb, pyramid, coulomb_rolling; not with relcp),
            method (single|multisphere|relcp, single), subspheres (int >=1, 7; odd with
            ellipsoids), subsphere_buffer (>=0, 0), overlap_tolerance (>0, 1e-5),
            max_recursions (int >=1, 50),
            adaptive_envelope (bool, true; false needs method relcp),
            predict_contacts (bool, true; with adaptive_envelope false)
force_field: type (none|compaction|extension, none), strength (>=0, 1), center ([0,0,0])
growth:     rate (>=0, 0 = off; >0 needs spherocylinders), division_length (>0, 4; with rate >0
            > 4 x radius and > the initial tip-to-tip length of every rod),
            reorientation_deg ([0,90), 0.01), max_generations (int >=0, 0 = no limit)
solver:     name (registered solver, apgd), tolerance (>0, 1e-6) or velocity_tolerance (>0 m/s,
            = tolerance / simulation.dt), max_iterations (int >=1, 1000),
            outer_iterations (int >=1, 20), outer_tolerance (>=0, 1e-6): friction fixed point,
            on_unconverged (warn|retry|abort, warn), max_halvings (int 1..20, 3; retry),
            rest_reduction ([0,1], 1 = off), rest_floor ([0,1], 1), rest_quantile ((0,1], 1),
            rest_quantile_limit (>=1, 30), rest_bulk_stop (true|false, false),
            options (map of solver-specific numbers)
parallel:   partitioner (rcb|multijagged, rcb), imbalance_threshold (>=1, 1.1),
            repartition_every (int >=0, 0 = on imbalance only), min_repartition_interval (int >=1, 20),
            body_order (auto|gid|spatial, auto), sort_every (int >=1, 20; spatial order),
            reproducible (bool, true: the same bits on any rank and thread count)
extra_bodies: optional list of {shape (sphere|cylinder|spherocylinder|ellipsoid|torus),
            radius (>0; torus: tube), half_length (>0, cylinder/spherocylinder),
            semi_axes (ellipsoid), major_radius (torus, >radius), axis ([0,0,1]) or
            orientation ([w,x,y,z]), mass (>0), position, velocity ([0,0,0]), force ([0,0,0])}
output:     dir (output), vtk_every (int >=0, 0), contact_network (bool, false; needs vtk_every),
            log_every (int >=0, 100),
            log_level (error|warn|info|debug, info), metrics_every (int >=0, 1),
            checkpoint_every (int >=0, 0), checkpoint_keep (int >=1, 2)
domain:     min, max ([x,y,z], both or neither; none = unbounded),
            on_exit (remove|abort, remove): bodies leaving the box
insertion:  optional list of {name, shape and size keys as bodies, mass | density, region,
            rate (>0, bodies/s) | mass_rate (>0, kg/s), start (>=0, 0), end (>start) |
            count (int >=1), every (>=0 s, 0 = each step), velocity ([0,0,0]),
            velocity_spread (>=0, 0), attempts (int >=1, 50)}
outlets:    optional list of {name, type: box, min, max | type: plane, point, normal}
measurements: optional list of {type (coordination|packing_fraction|stress|fabric|grid|
            mass_flow), name (the type; names measurements_<name>.csv), every (int >=1, 1),
            region ({lower, upper}; required by packing_fraction, stress, grid),
            walls (bool, false) and contacts (carrying|touching, carrying): coordination,
            fabric; kinetic (fluctuating|full|none, fluctuating): stress, grid;
            cells ([nx,ny,nz], required): grid} (docs/measurements.md)
)";
}

}  // namespace grains
