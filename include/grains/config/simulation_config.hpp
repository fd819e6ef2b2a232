#pragma once
// The validated, typed form of a scenario's YAML config. Every field has the
// default documented in docs/config.md.
#include "grains/core/body.hpp"
#include "grains/core/types.hpp"
#include "grains/core/wall.hpp"
#include "grains/solver/cone_set.hpp"
#include "grains/solver/solver.hpp"

#include <optional>
#include <string>
#include <vector>

namespace grains {

enum class DynamicsKind : int { Inertial = 0 };

struct SimulationSection {
  DynamicsKind dynamics = DynamicsKind::Inertial;
  double dt = 1e-3;                      ///< [s], > 0
  std::optional<long> steps;             ///< exactly one of steps / end_time
  std::optional<double> end_time;        ///< [s]
  Vec3 gravity = Vec3(0.0, 0.0, -9.81);  ///< [m/s^2]
  unsigned long seed = 12345;            ///< random generators
  long totalSteps() const;               ///< steps, or ceil(end_time / dt)
};

/// How bodies are created.
enum class GeneratorKind : int { Lattice = 0, RandomPacking = 1, File = 2 };

/// Region for generators: an axis-aligned box, or a vertical cylinder
/// (axis along z through center, radius, z from min_corner.z to max_corner.z).
struct Region {
  enum class Kind : int { Box = 0, Cylinder = 1 } kind = Kind::Box;
  Vec3 min_corner = Vec3::Zero();  ///< box corners; for a cylinder only z is used
  Vec3 max_corner = Vec3::Ones();
  Vec3 center = Vec3::Zero();  ///< cylinder axis point (x, y used)
  double radius = 0.0;         ///< cylinder radius
};

struct BodiesSection {
  std::string shape = "sphere";
  double radius = 0.1;            ///< [m] > 0
  double radius_spread = 0.0;     ///< relative uniform spread in [0, 0.5): r*(1 +- spread)
  std::optional<double> density;  ///< [kg/m^3]; exactly one of density / mass
  std::optional<double> mass;     ///< [kg] per body
  GeneratorKind generator = GeneratorKind::Lattice;
  long count = 1000;     ///< lattice / random: number of bodies
  Region region;         ///< lattice / random: where bodies are placed
  double spacing = 0.0;  ///< lattice: centre spacing [m]; 0 = 2.5 * radius
  double jitter = 0.0;   ///< lattice: random displacement, fraction of the gap
  std::string file;      ///< file: CSV path (relative to the config file)
  Vec3 initial_velocity = Vec3::Zero();
};

struct ContactSection {
  FrictionModel friction = FrictionModel::Frictionless;
  double mu = 0.0;        ///< Coulomb coefficient (>= 0)
  double envelope = 0.0;  ///< speculative contact distance [m]; 0 = 0.1 * max radius
  /// Lacoursiere's SPOOK regularisation (seed 000 eqs. 17-21): damping
  /// d = tau / dt in steps (> 0) and compliance eps [m/N] (>= 0).
  double damping_steps = 4.0;
  double compliance = 0.0;
};

struct SolverSection {
  std::string name = "bbpgd";
  SolverSettings settings;  ///< tolerance, max_iterations, options (validated)
};

/// Domain decomposition across MPI ranks (docs/config.md, docs/scaling.md).
enum class PartitionerKind : int { Rcb = 0, MultiJagged = 1 };

struct ParallelSection {
  PartitionerKind partitioner = PartitionerKind::Rcb;
  /// Repartition when max/mean of the per-rank load exceeds this (>= 1).
  double imbalance_threshold = 1.1;
  /// Also repartition every this many steps (0 = only on imbalance).
  long repartition_every = 0;
  /// Never repartition more often than this (steps, >= 1).
  long min_repartition_interval = 20;
};

struct OutputSection {
  std::string dir = "output";
  long vtk_every = 0;    ///< 0 = no VTK output
  long log_every = 100;  ///< progress line on rank 0; 0 = silent
  long metrics_every = 1;
};

/// One body placed explicitly (an intruder, a heavy lid, a probe), appended
/// after the generated bodies with the next global ids.
struct ExplicitBody {
  ShapeKind shape = ShapeKind::Sphere;
  double radius = 0.1;       ///< [m]
  double half_length = 0.0;  ///< cylinder: half its height [m]
  double mass = 1.0;         ///< [kg]
  Vec3 position = Vec3::Zero();
  Vec3 axis = Vec3::UnitZ();  ///< cylinder axis (world frame)
  Vec3 velocity = Vec3::Zero();
};

struct SimulationConfig {
  std::string source = "<built-in>";  ///< file the config came from (messages)
  std::string base_dir = ".";         ///< directory relative file paths resolve against
  SimulationSection simulation;
  BodiesSection bodies;
  std::vector<ExplicitBody> extra_bodies;
  std::vector<Wall> walls;  ///< boxes already expanded to planes
  ContactSection contact;
  SolverSection solver;
  ParallelSection parallel;
  OutputSection output;
};

}  // namespace grains
