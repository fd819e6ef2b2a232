// Nonlinear Gauss-Seidel ("ngs"), Preclik, Iglberger, Ruede (seeds/002 §3.1,
// eqs. 14-16), on the factored operator A = scale * D^T W D + reg * I with the
// row machinery of pgs (row_sweep_kernels.hpp: Gauss-Seidel inside a rank,
// Jacobi between ranks with mass splitting). One sweep visits the contacts of
// this rank in order; for contact c with diagonal block A_cc (3x3):
//   normal:   g_n <- max(0, g_n - omega (A g + b)_n / (A_cc)_nn)
//             (the order-1 complementarity problem solved by projection, §3.1)
//   friction, disc models (cylinder; coulomb, see below): with the other
//             unknowns fixed, the tangential pair solves eq. 14,
//               x* = argmin_{|x| <= r} 1/2 x^T A_tt x + x^T b_t,
//               b_t = (A g + b)_t - A_tt g_t,
//             by Cramer's rule for the unconstrained solution and, outside the
//             disc, Newton's method on the polar angle (eqs. 15-16) started at
//             the projection of the unconstrained solution (a secular-equation
//             solve is the safeguard when the angle iteration fails, see
//             solveDiscProblem); then g_t <- Pi_disc(g_t + omega (x* - g_t)).
//   friction, box models (box; pyramid): each tangential row by the scalar
//             projected update g_k <- clamp(g_k - omega (A g + b)_k / (A_cc)_kk, -r, r).
// Radius r = mu * normal_bound for the fixed-bound models box and cylinder
// (a Tresca problem: the contact QP of Preclik et al. (2009) eq. 10 with a cylinder or box
// set, whose unique fixed point this iteration converges to).
//
// Coulomb and pyramid: the registry lists only frictionless, box and cylinder
// as native models, so through the registry these are solved by the
// Tresca-to-Coulomb fixed point over cylinder / box (friction_fixed_point.cpp).
// The reason: with r = mu * g_n (bounds adapted continuously inside the
// sweep, §3.1 last paragraph) the fixed point of this iteration satisfies the
// unrelaxed normal complementarity 0 <= g_n _|_ (A g + b)_n >= 0, i.e.
// Coulomb friction, not the cone QP of Preclik et al. (2009) eq. 10 whose normal condition
// (eq. 12) carries the extra mu |(A g + b)_t| at sliding contacts; the natural
// residual of the cone (or pyramid) QP does not vanish there. A Solver
// created without a model (SolverRegistry::create(name, settings)) and given
// a coulomb or pyramid problem runs that continuous adaptation and reports,
// like the fixed point, the residual of the quasi-variational problem (the
// natural residual of cylinder / box with the bounds taken from the iterate).
//
// Cost accounting as in pgs: one operator application per sweep (a sweep
// touches D^T about as often as one application of A) plus the final
// evaluation of the measures. The residual is checked at the start of every
// check_every-th sweep (and at sweep 0, so a converged warm start returns at once).
#include "row_sweep_kernels.hpp"
#include "solver_factories.hpp"
#include "solver_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace grains::solver_detail {
namespace {

using Index = long long;
constexpr double kInf = std::numeric_limits<double>::infinity();

/// The options of ngs (see the header).
struct NgsOptions {
  double omega;
  int check_every;
  bool split_mass;
  int newton_iterations;
};

class NgsSolver final : public Solver {
 public:
  explicit NgsSolver(SolverSettings settings)
      : settings_(std::move(settings)),
        options_{solverOption(settings_, "omega"),
                 std::max(1, static_cast<int>(solverOption(settings_, "check_every"))),
                 solverOption(settings_, "split_mass") != 0.0,
                 static_cast<int>(solverOption(settings_, "newton_iterations"))} {}
  std::string name() const override { return "ngs"; }
  SolveReport solve(const QuadraticProgram& qp, Vector& gamma) const override;

 private:
  SolverSettings settings_;
  NgsOptions options_;
};

/// The problem whose residual is reported: qp itself, or for Coulomb / pyramid
/// (continuous bound adaptation r = mu * g_n) the quasi-variational cylinder /
/// box problem (bounds from the iterate).
QuadraticProgram measuredProblem(const QuadraticProgram& qp, bool adapt, bool disc) {
  QuadraticProgram measured = qp;
  if (adapt) {
    measured.cones.model = disc ? FrictionModel::Cylinder : FrictionModel::Box;
    measured.cones.normal_bound.clear();
  }
  return measured;
}

/// The state of one solve: the row machinery (du, residual rows, scatter),
/// the friction model's flags, the row diagonals (frictionless) or contact
/// blocks (friction), the gradient for the residual checks and the best
/// iterate so far.
class NgsRun {
 public:
  NgsRun(const QuadraticProgram& qp, Vector& gamma, const NgsOptions& options)
      : cones_(qp.cones),
        gamma_(gamma),
        omega_(options.omega),
        newton_iterations_(options.newton_iterations),
        sweep_(qp, gamma, "ngs", options.split_mass),
        friction_(qp.cones.blockSize() == 3),
        adapt_(qp.cones.model == FrictionModel::Coulomb ||
               qp.cones.model == FrictionModel::Pyramid),
        disc_(qp.cones.model == FrictionModel::Coulomb ||
              qp.cones.model == FrictionModel::Cylinder),
        measured_(measuredProblem(qp, adapt_, disc_)),
        n_rows_(sweep_.localRows()),
        contacts_(static_cast<Index>(qp.cones.localContacts())),
        residual_(gamma),
        b_(readOnly(*qp.b)) {
    // Frictionless: the row diagonals; friction: the contacts' 3x3 blocks (with
    // the mass-splitting factors, consistent with the sweep's du updates).
    if (friction_) {
      blocks_ = contactBlocks(sweep_.rows(), contacts_, sweep_.factored(), sweep_.split());
    } else {
      diagonal_ = rowDiagonals(sweep_.rows(), n_rows_, sweep_.factored(), sweep_.split());
    }
  }

  bool converged(double tol, double* du, const double* g);
  void sweep(double* du, double* g) const;
  double* velocities() { return sweep_.velocities(gamma_); }
  const QuadraticProgram& measured() const { return measured_; }
  const Vector& best() const { return residual_.best(); }

 private:
  void contactUpdate(Index c, double* du, double* g) const;
  void discUpdate(Index i0, const Eigen::Matrix3d& M, double radius, double* du, double* g) const;
  void scalarUpdate(Index i, double d, double lo, double hi, double* du, double* g) const;

  const ConeSet& cones_;
  Vector& gamma_;
  const double omega_;
  const int newton_iterations_;
  RowSweep sweep_;
  const bool friction_;
  const bool adapt_;  ///< Coulomb / pyramid: continuous bound adaptation r = mu * g_n
  const bool disc_;   ///< disc models (coulomb, cylinder): eq. 14 for the tangential pair
  const QuadraticProgram measured_;
  const Index n_rows_;
  const Index contacts_;
  std::vector<double> diagonal_;
  std::vector<Eigen::Matrix3d> blocks_;
  SweepResidual residual_;
  const double* b_;
};

// The natural residual of the measured problem at the start of a sweep (du
// is the global one); keeps the best iterate so far.
bool NgsRun::converged(double tol, double* du, const double* g) {
  return residual_.converged(sweep_, measured_.cones, tol, du, g, b_, gamma_);
}

// One sweep over this rank's rows or contacts, in order (sequential by nature).
void NgsRun::sweep(double* du, double* g) const {
  if (!friction_) {
    for (Index i = 0; i < n_rows_; ++i)
      scalarUpdate(i, diagonal_[static_cast<std::size_t>(i)], 0.0, kInf, du, g);
  } else {
    for (Index c = 0; c < contacts_; ++c) contactUpdate(c, du, g);
  }
}

// Contact c: the normal row first, then the tangential pair within the
// radius that the (possibly just updated) normal gives.
void NgsRun::contactUpdate(Index c, double* du, double* g) const {
  const std::size_t cs = static_cast<std::size_t>(c);
  const Eigen::Matrix3d& M = blocks_[cs];
  const Index i0 = 3 * c;
  scalarUpdate(i0, M(0, 0), 0.0, kInf, du, g);  // normal component
  const double radius = cones_.mu[cs] * (adapt_ ? g[i0] : cones_.normal_bound[cs]);
  if (disc_) {
    discUpdate(i0, M, radius, du, g);
  } else {
    for (int k = 1; k < 3; ++k) scalarUpdate(i0 + k, M(k, k), -radius, radius, du, g);
  }
}

// Eq. 14 for the tangential pair, the rest of gamma fixed, then
// g_t <- Pi_disc(g_t + omega (x* - g_t)).
void NgsRun::discUpdate(Index i0, const Eigen::Matrix3d& M, double radius, double* du,
                        double* g) const {
  const Eigen::Matrix2d Att = M.bottomRightCorner<2, 2>();
  const Eigen::Vector2d gt(g[i0 + 1], g[i0 + 2]);
  const Eigen::Vector2d rt(sweep_.residual(i0 + 1, du, g, b_), sweep_.residual(i0 + 2, du, g, b_));
  const DiscSolution s = solveDiscProblem(Att, rt - Att * gt, radius, newton_iterations_);
  Eigen::Vector2d z = gt + omega_ * (s.x - gt);
  const double length = z.norm();
  if (length > radius) z *= radius > 0.0 ? radius / length : 0.0;
  for (int k = 0; k < 2; ++k) sweep_.setRow(i0 + 1 + k, z[k], du, g);
}

// Scalar projected update of row i with diagonal d onto [lo, hi] (§3.1).
void NgsRun::scalarUpdate(Index i, double d, double lo, double hi, double* du, double* g) const {
  double z = g[i];
  if (d > 0.0) z -= omega_ * sweep_.residual(i, du, g, b_) / d;  // a zero row cannot move
  sweep_.setRow(i, std::clamp(z, lo, hi), du, g);
}

SolveReport NgsSolver::solve(const QuadraticProgram& qp, Vector& gamma) const {
  checkLayout(qp, gamma, "ngs");
  NgsRun run(qp, gamma, options_);
  const double tol = scaledTolerance(settings_.tolerance);
  qp.cones.project(gamma);  // warm start onto K
  const int sweeps = sweepUntilConverged(run, gamma, settings_.max_iterations, options_.check_every,
                                         tol, [&](int sweep) { observe(sweep, gamma); });
  return finishReport(name(), run.measured(), run.best(), gamma, sweeps, sweeps, tol);
}

}  // namespace

std::unique_ptr<Solver> makeNgsSolver(const SolverSettings& settings) {
  return std::make_unique<NgsSolver>(settings);
}

}  // namespace grains::solver_detail
