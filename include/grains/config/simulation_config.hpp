#pragma once
// The validated, typed form of a scenario's YAML config. Every field has the
// default documented in docs/config.md.
#include "grains/constraint/force_field.hpp"
#include "grains/core/body.hpp"
#include "grains/core/types.hpp"
#include "grains/core/wall.hpp"
#include "grains/dynamics/constraint_method.hpp"
#include "grains/dynamics/rest_tolerance.hpp"
#include "grains/io/log_level.hpp"
#include "grains/io/measurement_settings.hpp"
#include "grains/parallel/parallel_settings.hpp"
#include "grains/solver/cone_set.hpp"
#include "grains/solver/solver.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace grains {

/// Inertial: Newton's laws (Palmer et al. (2025) eqs. 3-6). Overdamped: velocities follow
/// from forces through a local-drag mobility (Palmer et al. (2025) eqs. 7-9, eq. 27).
enum class DynamicsKind : int { Inertial = 0, Overdamped = 1 };

struct SimulationSection {
  DynamicsKind dynamics = DynamicsKind::Inertial;
  double dt = 1e-3;                      ///< [s], > 0
  std::optional<long> steps;             ///< exactly one of steps / end_time
  std::optional<double> end_time;        ///< [s]
  Vec3 gravity = Vec3(0.0, 0.0, -9.81);  ///< [m/s^2]
  unsigned long seed = 12345;            ///< random generators
  /// Overdamped: drag coefficient xi of the local-drag mobility (Palmer et al. (2025)
  /// eq. 27: U = F / (xi l), Omega = 12 T / (xi l^3), l the body length) [N s/m^2].
  double drag = 1.0;
  /// Monolayer: bodies move in the x-y plane only (no z velocity, rotation
  /// about z only); exact for coplanar rods, whose contact normals lie in the plane.
  bool planar = false;
  long totalSteps() const;  ///< steps, or ceil(end_time / dt)
};

/// How bodies are created.
/// Chainmail: a 2D lattice of interlaced rings (tori) in the x-y plane.
enum class GeneratorKind : int { Lattice = 0, RandomPacking = 1, File = 2, Chainmail = 3 };

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
  ShapeKind shape = ShapeKind::Sphere;  ///< a shape the generators make (ShapeTraits::generated)
  double radius = 0.1;                  ///< [m] > 0 (torus: tube radius)
  double half_length = 0.0;             ///< spherocylinder: half the segment length [m]
  Vec3 semi_axes = Vec3::Ones();        ///< ellipsoid: semi-axes along body x, y, z [m]
  double major_radius = 1.0;            ///< torus: centre-circle radius [m]
  bool random_orientation = false;      ///< random: uniformly random orientations
  /// random: if set, bodies are placed in a cube centred on the region's
  /// centre whose size gives this volume fraction (0 < phi < 0.5).
  std::optional<double> volume_fraction;
  int rings_x = 4, rings_y = 4;   ///< chainmail: flat rings along x and y
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
  double mu = 0.0;  ///< Coulomb coefficient (>= 0)
  /// Rolling and spinning resistance (dimensionless, >= 0; torque bounds
  /// mu_r rho N and mu_s rho N, rho the contact's rolling radius). Either > 0
  /// with friction coulomb makes the model coulomb_rolling.
  double rolling_friction = 0.0;
  double spinning_friction = 0.0;
  double envelope = 0.0;  ///< speculative contact distance [m]; 0 = 0.1 * max radius
  /// Lacoursiere's SPOOK regularisation (Lacoursiere (2013) eqs. 17-21): damping
  /// d = tau / dt in steps (> 0) and compliance eps [m/N] (>= 0).
  double damping_steps = 4.0;
  double compliance = 0.0;
  /// Overlap depth [m] (>= 0) that SPOOK's gap correction leaves in place.
  double overlap_slop = 0.0;
  /// Passes of de Saxce's fixed point per solve (0: off; coulomb, pyramid
  /// and coulomb_rolling): sliding contacts keep touching instead of lifting
  /// off at mu times their slip.
  int lift_correction = 0;
  /// How non-spherical pairs are constrained (Palmer et al. (2025) sections 2.5 and 3).
  ConstraintMethod method = ConstraintMethod::Single;
  int subspheres = 7;  ///< multisphere: sub-spheres per body (>= 1; odd for ellipsoids)
  /// multisphere: also constrain sub-sphere pairs closer than this multiple
  /// of their radii's sum (>= 0; SimToolBox's colBuf).
  double subsphere_buffer = 0.0;
  /// relcp: stop recursing when no true overlap exceeds this [m] (> 0).
  double overlap_tolerance = 1e-5;
  int max_recursions = 50;  ///< relcp: LCP solves per step at most (>= 1)
  /// Widen the detection envelope to the largest approach within a step
  /// (true), or detect within `envelope` only and let the ReLCP recursion add
  /// the contacts the step creates (false; needs method relcp).
  bool adaptive_envelope = true;
  /// With adaptive_envelope false: also constrain, before the first solve,
  /// the pairs beyond the envelope whose gap the bodies' free velocities
  /// close within the step (fewer ReLCP re-solves when bodies land).
  bool predict_contacts = true;
};

/// Growing and dividing rods (Palmer et al. (2025) section 4.3; docs/colony.md). Applies
/// to spherocylinders: the tip-to-tip length l grows as dl/dt = rate * l, and
/// a cell whose l reaches division_length splits into two daughters of
/// length l / 2 end to end, each turned by a uniform random angle in
/// [-reorientation_deg, reorientation_deg].
struct GrowthSection {
  double rate = 0.0;                ///< g [1/s] (>= 0); 0 = no growth
  double division_length = 4.0;     ///< [m] (> 4 * radius: daughters need a segment)
  double reorientation_deg = 0.01;  ///< [deg] (>= 0, < 90)
  /// Stop the run once the body count reaches (initial count) * 2^k (0 = run
  /// the configured steps; the steps / end_time bound applies either way).
  int max_generations = 0;
};

/// What a step does when the solver stops short of its tolerance
/// (docs/reliability.md): keep the result and count it, redo the step as 2,
/// 4, ... substeps of dt / 2^k, or end the run.
enum class UnconvergedPolicy : int { Warn = 0, Retry = 1, Abort = 2 };

struct SolverSection {
  std::string name = "apgd";
  SolverSettings settings;  ///< tolerance, max_iterations, options (validated)
  UnconvergedPolicy on_unconverged = UnconvergedPolicy::Warn;
  int max_halvings = 3;  ///< retry: dt is halved at most this many times (1..20)
  /// Time stepping: a step that has to iterate is solved below the tolerance
  /// (grains/dynamics/rest_tolerance.hpp).
  RestTolerance rest;
};

/// The region bodies must stay in; one that leaves is removed (with a
/// warning naming it) or ends the run. Unbounded unless min/max are given.
enum class DomainExitPolicy : int { Remove = 0, Abort = 1 };

struct DomainSection {
  bool bounded = false;
  Vec3 min = Vec3::Zero();  ///< [m]
  Vec3 max = Vec3::Zero();  ///< [m], > min in every component
  DomainExitPolicy on_exit = DomainExitPolicy::Remove;
  /// Axes x, y, z along which the box [min, max) is periodic (needs min/max).
  std::array<bool, 3> periodic{false, false, false};
};

/// The periodic box of domain.periodic (no periodic axis without it).
PeriodicBox periodicBoxOf(const DomainSection& domain);
/// Throws ConfigError (naming domain.max, its value and the least length)
/// when a periodic box length is below two bounding diameters of the largest
/// body, `max_radius` its bounding radius [m]: a body would touch two images
/// of one neighbour.
void checkPeriodicBoxFits(const DomainSection& domain, double max_radius);

/// One `insertion` source (docs/boundaries.md#pouring): bodies made like the
/// generators' (`bodies` holds shape, radius, radius_spread, density or mass,
/// random_orientation) appear in `region` at `rate` bodies per second from
/// `start`, in batches every `every` seconds, until `end` or `count` bodies.
struct InsertionSource {
  std::string name;
  BodiesSection bodies;  ///< the body template (its generator fields are unused)
  Region region;
  double rate = 0.0;                ///< [bodies/s] (> 0; derived from mass_rate if given)
  std::optional<double> mass_rate;  ///< [kg/s] as configured
  double start = 0.0;               ///< [s]
  std::optional<double> end;        ///< [s]; none: no end (or `count`)
  std::optional<long> count;        ///< total bodies of this source
  double every = 0.0;               ///< [s] between batches; 0 = every step
  Vec3 velocity = Vec3::Zero();     ///< initial velocity [m/s]
  double velocity_spread = 0.0;     ///< each component +- this, uniform [m/s]
  long attempts = 50;               ///< random positions tried per body
};

/// One `outlets` entry (docs/boundaries.md#outlets): a body whose centre is
/// inside the box, or behind the plane (n.(x - p) < 0), is removed and counted.
struct OutletSpec {
  enum class Kind : int { Box = 0, Plane = 1 } kind = Kind::Box;
  std::string name;
  Vec3 min = Vec3::Zero(), max = Vec3::Zero();        ///< box
  Vec3 point = Vec3::Zero(), normal = Vec3::UnitZ();  ///< plane (unit normal)
};

struct OutputSection {
  std::string dir = "output";
  long vtk_every = 0;                   ///< 0 = no VTK output
  bool contact_network = false;         ///< contacts.pvd beside bodies.pvd (needs vtk_every > 0)
  long log_every = 100;                 ///< progress line on rank 0; 0 = silent
  LogLevel log_level = LogLevel::Info;  ///< error | warn | info | debug
  long metrics_every = 1;
  /// Checkpoint (docs/restart.md) every N steps and at the end; 0 = none.
  long checkpoint_every = 0;
  long checkpoint_keep = 2;  ///< newest checkpoints kept in the output directory (>= 1)
};

/// One body placed explicitly (an intruder, a heavy lid, a probe), appended
/// after the generated bodies with the next global ids.
struct ExplicitBody {
  ShapeKind shape = ShapeKind::Sphere;
  double radius = 0.1;            ///< [m]
  double half_length = 0.0;       ///< cylinder: half its height [m]
  Vec3 semi_axes = Vec3::Ones();  ///< ellipsoid [m]
  double major_radius = 1.0;      ///< torus [m]
  double mass = 1.0;              ///< [kg]
  Vec3 position = Vec3::Zero();
  Vec3 axis = Vec3::UnitZ();  ///< direction of the body z axis (world frame)
  /// Full orientation (overrides axis), given as a unit quaternion [w, x, y, z].
  std::optional<Quat> orientation;
  Vec3 velocity = Vec3::Zero();
  Vec3 force = Vec3::Zero();  ///< constant applied force [N] (Body::external_force)
};

struct SimulationConfig {
  std::string source = "<built-in>";  ///< file the config came from (messages)
  std::string base_dir = ".";         ///< directory relative file paths resolve against
  SimulationSection simulation;
  BodiesSection bodies;
  std::vector<ExplicitBody> extra_bodies;
  std::vector<Wall> walls;  ///< boxes already expanded to planes
  ContactSection contact;
  ForceFieldSection force_field;
  GrowthSection growth;
  SolverSection solver;
  ParallelSection parallel;
  OutputSection output;
  DomainSection domain;
  std::vector<InsertionSource> insertion;
  std::vector<OutletSpec> outlets;
  MeasurementsSection measurements;  ///< docs/measurements.md; none by default
};

}  // namespace grains
