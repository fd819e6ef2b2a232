// The one table of contact solvers: adding a solver is one new file plus one
// line here. Option ranges are inclusive; create() validates and completes
// the options before the factory runs.
#include "grains/solver/solver.hpp"

#include "grains/core/text.hpp"
#include "solver_factories.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace grains {
namespace {

std::string describeRange(const SolverOptionSpec& spec) {
  return std::string(spec.integer ? "an integer" : "a value") + " in [" +
         formatNumber(spec.min_value) + ", " + formatNumber(spec.max_value) + "]";
}

}  // namespace

SolverRegistry::SolverRegistry() {
  using solver_detail::makeApgdSolver;
  using solver_detail::makeBbpgdSolver;
  using solver_detail::makePgsSolver;
  const std::vector<FrictionModel> every_model = allFrictionModels();
  // Contact-wise sweeps with one step per contact: not for the six rows of
  // coulomb_rolling, whose linear and angular rows differ in scale.
  const std::vector<FrictionModel> sliding_models = {FrictionModel::Frictionless,
                                                     FrictionModel::Coulomb, FrictionModel::Pyramid,
                                                     FrictionModel::Box, FrictionModel::Cylinder};
  // clang-format off
  entries_ = {
    {"bbpgd", "Barzilai-Borwein projected gradient, alternating BB1/BB2 steps, non-monotone, returns the best iterate",
     {}, false, every_model, makeBbpgdSolver},
    {"apgd", "Nesterov accelerated projected gradient with adaptive restart (Mazhar et al. 2015)",
     {{"max_backtracks", 50, 1, 200, true, "bound on the L <- 2L backtracking steps per iteration"},
      {"lipschitz_shrink", 0.9, 0.5, 1.0, false, "factor applied to L after each iteration"},
      {"preconditioned", 1, 0, 1, true, "1: diagonal metric, diag(A) per contact's normal and tangential rows, 0: Euclidean"},
      {"check_every", 3, 1, 1000, true, "iterations between natural-residual checks (the restart test has a pass of its own between them)"}},
     false, every_model, makeApgdSolver},
    {"pgs", "projected Gauss-Seidel with compliance (Lacoursiere Alg. 2.1/2.2), Jacobi between MPI ranks; needs the factored operator",
     {{"omega", 1.0, 0.01, 1.99, false, "relaxation factor of the row/contact update"},
      {"check_every", 1, 1, 1000, true, "sweeps between residual checks"},
      {"split_mass", 1, 0, 1, true, "1: mass splitting for bodies shared by several ranks, 0: plain Jacobi between ranks"},
      {"metric", 0, 0, 1, true, "friction: 1 = per-row diagonal metric step with the projection in that metric, 0 = one step omega / mean(d) per contact"},
      {"order", 0, 0, 2, true, "sweep order within a rank: 0 = constraint order, 1 = reversed, 2 = symmetric (alternating directions)"}},
     true, sliding_models, makePgsSolver},
    {"jacobi", "projected Jacobi as in Chrono (Heyn et al. (2013) eq. 12), B = 1/trace of each contact's diagonal block, omega halved if the step overshoots",
     {{"omega", 0.3, 1e-4, 2.0, false, "step factor omega of eq. 12 (paper: about 0.3 for large problems)"},
      {"lambda", 1.0, 0.01, 1.0, false, "damping lambda of eq. 12: g <- lambda Pi_K(...) + (1 - lambda) g"},
      {"safeguard", 1, 0, 1, true, "1: halve omega when omega*lambda*(step curvature in the B metric) >= 2 (divergence guard), 0: fixed omega"}},
     false, every_model, solver_detail::makeJacobiSolver},
    {"spg", "preconditioned spectral projected gradient with GLL line search and fallback, P-SPG-FB (Heyn et al. (2013) sec. 4.3)",
     {{"n_gll", 10, 0, 1000, true, "non-monotone GLL memory: compare with the max of the last n_gll+1 objective values"},
      {"xi", 1e-4, 0.0, 0.5, false, "Armijo sufficient-decrease parameter"},
      {"sigma_min", 0.1, 1e-3, 0.99, false, "line search: lambda_new >= sigma_min * lambda"},
      {"sigma_max", 0.9, 1e-3, 0.99, false, "line search: lambda_new <= sigma_max * lambda"},
      {"alpha_min", 1e-9, 1e-30, 1.0, false, "lower safeguard of the spectral step"},
      {"alpha_max", 1e9, 1.0, 1e30, false, "upper safeguard of the spectral step"},
      {"tau_g", 1e-6, 1e-12, 1e6, false, "gradient scaling of the fallback residual (eq. 24)"},
      {"preconditioned", 1, 0, 1, true, "1: P = diag(A) averaged per contact, 0: P = I"},
      {"max_backtracks", 50, 1, 1000, true, "bound on the line-search reductions per iteration"}},
     false, every_model, solver_detail::makeSpgSolver},
    {"gpminres", "gradient projection + MINRES (Belos) on the free set, GPMINRES (Heyn et al. (2013) sec. 4.2); separable bounds",
     {{"gp_steps", 10, 1, 1000, true, "N_GP: at most this many gradient projections per iteration"},
      {"eta1", 0.1, 0.0, 1.0, false, "eq. 18: leave gradient projection when a decrease <= eta1 * the largest earlier one"},
      {"eta2", 0.25, 0.0, 0.99, false, "eq. 20: MINRES stalls when a decrease <= eta2 * the largest earlier one"},
      {"mu", 0.01, 1e-6, 0.49, false, "eq. 16: sufficient-decrease parameter of the gradient and projected searches"},
      {"projected_searches", 10, 1, 60, true, "N_PS: at most this many trials alpha = 1, 1/2, ... along the MINRES direction"},
      {"minres_iterations", 10, 1, 100000, true, "N_minres: MINRES steps per subproblem before the projected search"},
      {"additional_iterations", 10, 0, 100000, true, "N_AI: more MINRES steps when the active and binding sets agree"}},
     false, {FrictionModel::Frictionless, FrictionModel::Box}, solver_detail::makeGpminresSolver},
    {"cpg", "conjugate projected gradient (Preclik et al., Preclik et al. (2009) Alg. 2): tangent-cone projections, A-conjugate directions, projection onto K; monotone",
     {{"conjugate", 1, 0, 1, true, "1: conjugate directions (Alg. 2), 0: projected gradient descent (Alg. 1)"},
      {"max_backtracks", 60, 1, 200, true, "bound on the step halvings of the projected-arc fallback per iteration"}},
     false, {FrictionModel::Frictionless, FrictionModel::Box, FrictionModel::Cylinder}, solver_detail::makeCpgSolver},
    {"newton", "semi-smooth Newton on the min-max function (Preclik et al. (2009) eqs. 17-20), Schur complement on the free rows by MINRES (Belos), Armijo line search on 1/2|F|^2, projected-gradient fallback",
     {{"krylov_tolerance", 1e-8, 1e-16, 0.5, false, "relative residual tolerance of the MINRES solve of the Newton equation"},
      {"krylov_iterations", 200, 1, 100000, true, "maximum MINRES iterations per Newton step"},
      {"armijo", 1e-4, 1e-12, 0.5, false, "sufficient decrease: merit(x + t dx) <= (1 - 2 armijo t) merit(x)"},
      {"min_step", 1e-8, 1e-16, 0.5, false, "smallest line-search step before the projected-gradient fallback"}},
     false, {FrictionModel::Frictionless, FrictionModel::Box}, solver_detail::makeNewtonSolver},
    {"ngs", "nonlinear Gauss-Seidel (Preclik et al. (2009) eqs. 14-16): scalar normal update, disc subproblem by Newton on the angle; Jacobi between MPI ranks; needs the factored operator",
     {{"omega", 1.0, 0.01, 1.99, false, "relaxation factor of the row/contact update"},
      {"check_every", 1, 1, 1000, true, "sweeps between residual checks"},
      {"split_mass", 1, 0, 1, true, "1: mass splitting for bodies shared by several ranks, 0: plain Jacobi between ranks"},
      {"newton_iterations", 30, 1, 1000, true, "maximum Newton iterations on the angle per disc subproblem (then the secular-equation safeguard)"}},
     true, {FrictionModel::Frictionless, FrictionModel::Box, FrictionModel::Cylinder}, solver_detail::makeNgsSolver},
    {"kucera", "Kucera's proportioning / expansion / CG active-set method (Heyn et al. (2013) sec. 4.4); separable bounds",
     {{"gamma", 1.0, 1e-3, 1e3, false, "Gamma of the proportionality test beta~.g <= Gamma^2 phi~.g (larger: fewer proportioning steps)"},
      {"step_factor", 1.0, 0.01, 1.9, false, "alpha~ = step_factor / ||A|| for the expansion and proportioning steps"},
      {"power_iterations", 10, 1, 1000, true, "power iterations estimating ||A|| once per solve"}},
     false, {FrictionModel::Frictionless, FrictionModel::Box}, solver_detail::makeKuceraSolver},
    {"admm", "ADMM on the cone complementarity problem (Tasora et al. 2021): (A + rho R) x = rho R (z - u) - b by matrix-free PCG, z = projection onto K in the diagonal metric R, adaptive rho",
     {{"rho", 0.1, 1e-8, 1e8, false, "initial penalty rho, relative to the diagonal metric R (diag(A) per contact's normal and tangential rows)"},
      {"relaxation", 1.6, 1.0, 1.9, false, "over-relaxation alpha: h = alpha x + (1 - alpha) z"},
      {"cg_factor", 0.5, 1e-12, 1.0, false, "inner PCG (at least one step) stops when |R^-1 r|_inf <= cg_factor * the smallest natural residual so far"},
      {"cg_iterations", 50, 1, 100000, true, "bound on the PCG steps per iteration"},
      {"rho_threshold", 2.0, 1.0, 1e12, false, "rho <- rho sqrt(r_primal / r_dual) when that factor leaves [1/rho_threshold, rho_threshold] (1e12: fixed rho)"},
      {"rho_max_factor", 10.0, 1.0, 1e6, false, "cap on one change of rho (factor and its inverse)"}},
     false, every_model, solver_detail::makeAdmmSolver},
    // Further solvers: one line each, above this comment.
  };
  // clang-format on
}

void Solver::setStopQuantile(double quantile) {
  if (!(quantile > 0.0 && quantile <= 1.0))
    throw std::invalid_argument("solver " + name() + ": a stop quantile must lie in (0, 1], not " +
                                formatNumber(quantile));
  if (quantile < 1.0 && !supportsStopQuantile())
    throw std::invalid_argument("solver " + name() +
                                " stops on its worst contact only (no stop quantile)");
  stop_quantile_ = quantile;
}

bool SolverEntry::solvesDirectly(FrictionModel model) const {
  return std::find(models.begin(), models.end(), model) != models.end();
}

bool SolverEntry::supports(FrictionModel model) const {
  if (solvesDirectly(model)) return true;
  if (model == FrictionModel::Pyramid) return solvesDirectly(FrictionModel::Box);
  if (model == FrictionModel::Coulomb) return solvesDirectly(FrictionModel::Cylinder);
  return false;
}

std::string SolverEntry::describeModels() const {
  std::vector<std::string> parts;
  for (FrictionModel m : allFrictionModels()) {
    if (solvesDirectly(m)) {
      parts.push_back(frictionModelName(m));
    } else if (supports(m)) {
      parts.push_back(frictionModelName(m) + " (fixed point over " +
                      (m == FrictionModel::Pyramid ? "box" : "cylinder") + ")");
    }
  }
  return joined(parts);
}

const SolverRegistry& SolverRegistry::instance() {
  static const SolverRegistry registry;
  return registry;
}

const SolverEntry* SolverRegistry::find(const std::string& name) const {
  for (const auto& entry : entries_) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

std::vector<std::string> SolverRegistry::names() const {
  std::vector<std::string> result;
  result.reserve(entries_.size());
  for (const auto& entry : entries_) result.push_back(entry.name);
  return result;
}

std::unique_ptr<Solver> SolverRegistry::create(const std::string& name,
                                               SolverSettings settings) const {
  const SolverEntry* entry = find(name);
  if (entry == nullptr) {
    throw std::invalid_argument("unknown solver '" + name + "'; known solvers: " + joined(names()));
  }
  if (!(settings.tolerance >= 0.0) || !std::isfinite(settings.tolerance)) {
    throw std::invalid_argument("solver '" + name +
                                "': tolerance = " + formatNumber(settings.tolerance) +
                                " is invalid; expected a finite value >= 0");
  }
  if (settings.max_iterations < 0) {
    throw std::invalid_argument("solver '" + name +
                                "': max_iterations = " + std::to_string(settings.max_iterations) +
                                " is invalid; expected an integer >= 0");
  }
  std::vector<std::string> option_names;
  for (const auto& spec : entry->options) option_names.push_back(spec.name);
  for (const auto& [key, value] : settings.options) {
    const SolverOptionSpec* spec = nullptr;
    for (const auto& s : entry->options) {
      if (s.name == key) spec = &s;
    }
    if (spec == nullptr) {
      throw std::invalid_argument(
          "solver '" + name + "': unknown option '" + key + "' (value " + formatNumber(value) +
          "); accepted options: " + (option_names.empty() ? "(none)" : joined(option_names)));
    }
    const bool in_range = value >= spec->min_value && value <= spec->max_value;
    const bool integral = !spec->integer || std::floor(value) == value;
    if (!in_range || !integral) {
      throw std::invalid_argument("solver '" + name + "': option '" + key +
                                  "' = " + formatNumber(value) + " is out of range; expected " +
                                  describeRange(*spec));
    }
  }
  for (const auto& spec : entry->options) settings.options.emplace(spec.name, spec.default_value);
  return entry->create(settings);
}

std::unique_ptr<Solver> SolverRegistry::create(const std::string& name, SolverSettings settings,
                                               FrictionModel model) const {
  const SolverEntry* entry = find(name);
  if (entry != nullptr && !entry->supports(model)) {
    throw std::invalid_argument("solver '" + name + "' does not support friction model '" +
                                frictionModelName(model) +
                                "'; it supports: " + entry->describeModels());
  }
  if (settings.outer_iterations < 1) {
    throw std::invalid_argument(
        "solver '" + name + "': outer_iterations = " + std::to_string(settings.outer_iterations) +
        " is invalid; expected an integer >= 1");
  }
  if (!(settings.outer_tolerance >= 0.0) || !std::isfinite(settings.outer_tolerance)) {
    throw std::invalid_argument("solver '" + name +
                                "': outer_tolerance = " + formatNumber(settings.outer_tolerance) +
                                " is invalid; expected a finite value >= 0");
  }
  const bool fixed_point = hasFixedBounds(model) || (entry && !entry->solvesDirectly(model));
  SolverSettings inner_settings = settings;
  if (fixed_point) inner_settings.tolerance *= 0.5;  // see friction_fixed_point.cpp
  std::unique_ptr<Solver> solver = create(name, inner_settings);
  if (hasFixedBounds(model)) {
    return solver_detail::makeFrictionFixedPoint(std::move(solver), model, settings);
  }
  if (!entry->solvesDirectly(model)) {
    const FrictionModel inner =
        model == FrictionModel::Pyramid ? FrictionModel::Box : FrictionModel::Cylinder;
    return solver_detail::makeFrictionFixedPoint(std::move(solver), inner, settings);
  }
  return solver;
}

double solverOption(const SolverSettings& settings, const std::string& key) {
  const auto it = settings.options.find(key);
  if (it == settings.options.end()) {
    throw std::invalid_argument("solver option '" + key +
                                "' is not set (SolverRegistry::create fills the defaults)");
  }
  return it->second;
}

}  // namespace grains
