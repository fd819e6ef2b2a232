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

class NgsSolver final : public Solver {
 public:
  explicit NgsSolver(SolverSettings settings)
      : settings_(std::move(settings)),
        omega_(solverOption(settings_, "omega")),
        check_every_(std::max(1, static_cast<int>(solverOption(settings_, "check_every")))),
        split_mass_(solverOption(settings_, "split_mass") != 0.0),
        newton_iterations_(static_cast<int>(solverOption(settings_, "newton_iterations"))) {}
  std::string name() const override { return "ngs"; }
  SolveReport solve(const QuadraticProgram& qp, Vector& gamma) const override;

 private:
  SolverSettings settings_;
  double omega_;
  int check_every_;
  bool split_mass_;
  int newton_iterations_;
};

SolveReport NgsSolver::solve(const QuadraticProgram& qp, Vector& gamma) const {
  checkLayout(qp, gamma, "ngs");
  RowSweep sweep(qp, gamma, "ngs", split_mass_);
  const FrictionModel model = qp.cones.model;
  const bool friction = qp.cones.blockSize() == 3;
  // Coulomb / pyramid: continuous bound adaptation r = mu * g_n; measured as
  // the quasi-variational cylinder / box problem (bounds from the iterate).
  const bool adapt = model == FrictionModel::Coulomb || model == FrictionModel::Pyramid;
  const bool disc = model == FrictionModel::Coulomb || model == FrictionModel::Cylinder;
  QuadraticProgram measured = qp;
  if (adapt) {
    measured.cones.model = disc ? FrictionModel::Cylinder : FrictionModel::Box;
    measured.cones.normal_bound.clear();
  }
  const ConeSet& cones = qp.cones;
  const double tol = scaledTolerance(settings_.tolerance);
  const Index n_rows = sweep.localRows();
  const Index contacts = static_cast<Index>(cones.localContacts());

  // Frictionless: the row diagonals; friction: the contacts' 3x3 blocks (with
  // the mass-splitting factors, consistent with the sweep's du updates).
  std::vector<double> diagonal;
  std::vector<Eigen::Matrix3d> blocks;
  if (friction) {
    blocks = contactBlocks(sweep.rows(), contacts, sweep.factored(), sweep.split());
  } else {
    diagonal = rowDiagonals(sweep.rows(), n_rows, sweep.factored(), sweep.split());
  }

  Vector gradient(gamma.getMap(), false);
  Vector best(gamma.getMap(), false);
  const double* b = qp.b->getLocalViewHost(Tpetra::Access::ReadOnly).data();
  const double omega = omega_;

  // Scalar projected update of row i with diagonal d onto [lo, hi] (§3.1).
  auto scalarUpdate = [&](Index i, double d, double lo, double hi, double* du, double* g) {
    double z = g[i];
    if (d > 0.0) z -= omega * sweep.residual(i, du, g, b) / d;  // a zero row cannot move
    z = std::clamp(z, lo, hi);
    const double dg = z - g[i];
    g[i] = z;
    if (dg != 0.0) sweep.scatter(i, dg, du);
  };
  const double inf = std::numeric_limits<double>::infinity();

  cones.project(gamma);  // warm start onto K
  double best_residual = -1.0;
  int sweeps = 0;
  for (;;) {
    double* du = sweep.velocities(gamma);  // global du = W D gamma (Jacobi between ranks)
    double* g = gamma.getLocalViewHost(Tpetra::Access::ReadWrite).data();

    const bool last = sweeps >= settings_.max_iterations;
    if (last || sweeps % check_every_ == 0) {
      sweep.gradient(du, g, b, gradient);
      const double residual = naturalResidual(measured.cones, gamma, gradient, nullptr);
      if (best_residual < 0.0 || residual < best_residual) {
        best_residual = residual;
        Tpetra::deep_copy(best, gamma);
      }
      if (residual <= tol) break;
    }
    if (last) break;

    if (!friction) {
      for (Index i = 0; i < n_rows; ++i)
        scalarUpdate(i, diagonal[static_cast<std::size_t>(i)], 0.0, inf, du, g);
    } else {
      for (Index c = 0; c < contacts; ++c) {
        const std::size_t cs = static_cast<std::size_t>(c);
        const Eigen::Matrix3d& M = blocks[cs];
        const Index i0 = 3 * c;
        scalarUpdate(i0, M(0, 0), 0.0, inf, du, g);  // normal component
        const double radius = cones.mu[cs] * (adapt ? g[i0] : cones.normal_bound[cs]);
        if (disc) {
          // Eq. 14 for the tangential pair, the rest of gamma fixed.
          const Eigen::Matrix2d Att = M.bottomRightCorner<2, 2>();
          const Eigen::Vector2d gt(g[i0 + 1], g[i0 + 2]);
          const Eigen::Vector2d rt(sweep.residual(i0 + 1, du, g, b),
                                   sweep.residual(i0 + 2, du, g, b));
          const DiscSolution s = solveDiscProblem(Att, rt - Att * gt, radius, newton_iterations_);
          Eigen::Vector2d z = gt + omega * (s.x - gt);
          const double length = z.norm();
          if (length > radius) z *= radius > 0.0 ? radius / length : 0.0;
          for (int k = 0; k < 2; ++k) {
            const Index i = i0 + 1 + k;
            const double dg = z[k] - g[i];
            g[i] = z[k];
            if (dg != 0.0) sweep.scatter(i, dg, du);
          }
        } else {
          for (int k = 1; k < 3; ++k) scalarUpdate(i0 + k, M(k, k), -radius, radius, du, g);
        }
      }
    }
    ++sweeps;
    observe(sweeps, gamma);
  }
  return finishReport(name(), measured, best, gamma, sweeps, sweeps, tol);
}

}  // namespace

std::unique_ptr<Solver> makeNgsSolver(const SolverSettings& settings) {
  return std::make_unique<NgsSolver>(settings);
}

}  // namespace grains::solver_detail
