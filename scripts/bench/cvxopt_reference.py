#!/usr/bin/python3
"""Check every registered contact solver against an independent reference.

    cvxopt_reference.py QP_DIR [QP_DIR ...] [--grains build/grains] [options]

QP_DIR is a problem written by `grains run CONFIG --export-qp STEP DIR`
(A.mtx, b.mtx, cones.mtx, problem.yaml). For each one the script

1. solves  min 1/2 g^T A g + b^T g  over the problem's cones with cvxopt's
   interior-point cone QP solver (cvxopt.solvers.coneqp, Andersen, Dahl and
   Vandenberghe), at the tightest of the tolerances 1e-12, 1e-11, 1e-10, 1e-9
   at which cvxopt reports 'optimal' (no answer at all is an error):
     frictionless  g_n >= 0
     coulomb       per contact |(g_u, g_w)| <= mu g_n (a second-order cone;
                   with mu = 0: g_n >= 0 and g_u = g_w = 0)
     pyramid       |g_u| <= mu g_n, |g_w| <= mu g_n, g_n >= 0
   (the KKT systems are factored sparsely, with A's pattern; --kkt dense
   uses cvxopt's own dense factorisation);
2. asks grains for its solver registry (`grains qp solvers`) and runs every
   solver that handles the problem's friction model directly with
   `grains qp solve QP_DIR --solver NAME --tolerance TOL --max-iterations N`,
   from zero;
3. prints a table (solver, iterations, operator_applies, objective, cvxopt
   objective, relative difference, converged, pass/fail) and exits 1 if any
   solver's objective differs from cvxopt's by more than --rel-tol (relative
   to |cvxopt objective|) or the solver did not report convergence.

Solvers that reach a coupled model (coulomb, pyramid) only through the
Tresca-to-Coulomb fixed point solve a different problem (friction with the
unrelaxed normal condition, not the cone QP): they are skipped on it with
the reason printed, and checked on frictionless problems. Box and cylinder
problems are not QPs with fixed sets (the export stores no bounds): refused.

Example (docs/solvers.md, "Checked against an independent reference"):

    /usr/bin/python3 scripts/bench/cvxopt_reference.py --grains build/grains \
        --budget jacobi=100000 qp/pile/step_120 qp/pile0/step_120

Must run with /usr/bin/python3 (Debian's python3-cvxopt, python3-numpy,
python3-scipy). Exit status: 0 all checks passed, 1 a check failed,
2 bad input or cvxopt failed.
"""
import argparse
import os
import re
import subprocess
import sys
import time

import numpy as np
import scipy.io
import scipy.sparse as sp

try:
    import cvxopt
    import cvxopt.cholmod
    import cvxopt.solvers
except ImportError:
    sys.exit("cvxopt_reference.py: cvxopt is missing: apt-get install python3-cvxopt "
             "(and run this script with /usr/bin/python3)")

CVXOPT_TOLERANCES = (1e-12, 1e-11, 1e-10, 1e-9)
SUPPORTED_MODELS = ("frictionless", "coulomb", "pyramid")


def fail_input(message):
    print(f"cvxopt_reference.py: {message}", file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------- the QP


def read_meta(qp_dir):
    path = os.path.join(qp_dir, "problem.yaml")
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        fail_input(f"cannot read {path}: {e}")
    meta = {}
    for line in text.splitlines():
        m = re.match(r"^([A-Za-z_]+):\s*(.*?)\s*$", line)
        if m:
            meta[m.group(1)] = m.group(2)
    if meta.get("format") != "grains-qp-2":
        fail_input(f"{path}: expected 'format: grains-qp-2'")
    return meta


def read_qp(qp_dir):
    """(model, A as CSR, b, mu per contact, block size) of an exported problem."""
    meta = read_meta(qp_dir)
    model = {"none": "frictionless", "cone": "coulomb"}.get(meta.get("model"), meta.get("model"))
    if model not in SUPPORTED_MODELS:
        fail_input(f"{qp_dir}: model '{model}' is not a fixed cone QP; this script checks "
                   f"{', '.join(SUPPORTED_MODELS)} (box and cylinder problems need bounds "
                   "that the export does not store)")
    block = 1 if model == "frictionless" else 3
    def matrix(name):
        try:
            return sp.csr_matrix(scipy.io.mmread(os.path.join(qp_dir, name)))
        except (OSError, ValueError) as e:
            fail_input(f"cannot read {os.path.join(qp_dir, name)}: {e}")

    A = matrix("A.mtx")
    b = matrix("b.mtx").toarray().ravel()
    mu = matrix("cones.mtx").toarray().ravel()
    n = A.shape[0]
    if n == 0:
        fail_input(f"{qp_dir}: the problem has no contacts")
    if A.shape != (n, n) or b.size != n or mu.size * block != n:
        fail_input(f"{qp_dir}: sizes do not match: A {A.shape}, b {b.size}, "
                   f"{mu.size} contacts x block {block}")
    if int(meta.get("contacts", -1)) != mu.size:
        fail_input(f"{qp_dir}: problem.yaml says {meta.get('contacts')} contacts, "
                   f"cones.mtx has {mu.size}")
    # A should be symmetric: anything else means a bad export, not a solver question.
    asym = abs(A - A.T).max()
    if asym > 1e-12 * max(abs(A).max(), 1e-300):
        fail_input(f"{qp_dir}: A is not symmetric (max |A - A^T| = {asym:.3e})")
    return model, A, b, mu, block


def objective(A, b, g):
    return 0.5 * g @ (A @ g) + b @ g


def project(model, mu, g):
    """Exact Euclidean projection onto the set (None for the pyramid: not reported)."""
    if model == "frictionless":
        return np.maximum(g, 0.0)
    if model == "pyramid":
        return None
    out = g.reshape(-1, 3).copy()
    for c, m in enumerate(mu):
        n, u, w = out[c]
        t = np.hypot(u, w)
        if n >= 0 and t <= m * n:  # n >= 0 matters at m = 0, where t = 0 passes
            continue
        if m * t <= -n:
            out[c] = 0.0
            continue
        nn = (n + m * t) / (1.0 + m * m)
        out[c] = (nn, m * nn * u / t, m * nn * w / t)
    return out.ravel()


def natural_residual(model, A, b, mu, g):
    p = project(model, mu, g - (A @ g + b))
    if p is None:
        return None
    return float(np.max(np.abs(g - p))) if g.size else 0.0


def free_unknowns(model, mu):
    """Indices of the unknowns cvxopt solves for: all but the tangential
    impulses of contacts with mu = 0, which are zero (a cone with empty interior)."""
    n = mu.size * (1 if model == "frictionless" else 3)
    keep = np.ones(n, dtype=bool)
    if model != "frictionless":
        zero = np.flatnonzero(mu == 0.0)
        keep[3 * zero + 1] = False
        keep[3 * zero + 2] = False
    return np.flatnonzero(keep)


def cone_constraints(model, mu, column):
    """G (scipy CSR) and cvxopt's dims for G x + s = 0, s in the cone, where
    column[k] is the position of unknown k among the free ones."""
    rows, cols, vals = [], [], []
    r = 0

    def add(entries):  # one row of G: [(unknown, value), ...]
        nonlocal r
        for k, v in entries:
            rows.append(r), cols.append(column[k]), vals.append(v)
        r += 1

    socs = []
    if model == "frictionless":
        for c in range(mu.size):
            add([(c, -1.0)])
    else:
        # The linear block comes first (cvxopt orders 'l' before 'q').
        for c in np.flatnonzero(mu == 0.0):  # g_n >= 0 (g_u = g_w = 0: not free)
            add([(3 * c, -1.0)])
        positive = np.flatnonzero(mu > 0.0)
        if model == "pyramid":
            for c in positive:  # mu g_n -+ g_u >= 0, mu g_n -+ g_w >= 0, g_n >= 0
                for k in (1, 2):
                    for sign in (1.0, -1.0):
                        add([(3 * c, -mu[c]), (3 * c + k, sign)])
                add([(3 * c, -1.0)])
        if model == "coulomb":
            for c in positive:  # (mu g_n, g_u, g_w) in the second-order cone of R^3
                for k in range(3):
                    add([(3 * c + k, -mu[c] if k == 0 else -1.0)])
            socs = [3] * positive.size
    n_linear = r - 3 * len(socs)
    G = sp.csr_matrix((vals, (rows, cols)), shape=(r, int(np.count_nonzero(column >= 0))))
    return G, {"l": n_linear, "q": socs, "s": []}


def sparse_kkt_solver(P, G, dims):
    """cvxopt kktsolver for coneqp that keeps A's sparsity: every cone block
    touches one contact, so H = P + (W^{-T} G)^T (W^{-T} G) is as sparse as A;
    it is factored by cvxopt's CHOLMOD. (cvxopt's default for second-order
    cones factors a dense matrix of order n.)"""
    n_linear, n_soc = dims["l"], len(dims["q"])
    J = np.diag([1.0, -1.0, -1.0])
    m = n_linear + 3 * n_soc
    base = n_linear + 3 * np.arange(n_soc)
    soc_rows = (base[:, None, None] + np.arange(3)[None, :, None]).repeat(3, axis=2).ravel()
    soc_cols = (base[:, None, None] + np.arange(3)[None, None, :]).repeat(3, axis=1).ravel()
    diag = np.arange(n_linear)
    rows, cols = np.concatenate([diag, soc_rows]), np.concatenate([diag, soc_cols])

    def factor(W):
        # W^{-1}: 1/d on the linear block; on each second-order cone block
        # (1/beta)(2 J v v^T J - J) for the Nesterov-Todd scaling
        # W = beta (2 v v^T - J), J = diag(1, -1, -1) (cvxopt's conventions).
        di = np.array(W["di"]).ravel()
        if n_soc:
            Jv = np.array([np.array(vk).ravel() for vk in W["v"]]) * np.array([1.0, -1.0, -1.0])
            beta = np.array(W["beta"])
            blocks = (2.0 * Jv[:, :, None] * Jv[:, None, :] - J) / beta[:, None, None]
        else:
            blocks = np.zeros(0)
        Wi = sp.csr_matrix((np.concatenate([di, blocks.ravel()]), (rows, cols)), shape=(m, m))
        WG = sp.csr_matrix(Wi.T @ G)
        H = to_cvxopt(sp.tril(P + WG.T @ WG))
        F = cvxopt.cholmod.symbolic(H)
        cvxopt.cholmod.numeric(H, F)

        def solve(x, y, z):
            bz = np.array(z).ravel()
            ux = cvxopt.matrix(np.array(x).ravel() + WG.T @ (Wi.T @ bz))
            cvxopt.cholmod.solve(F, ux)
            x[:] = ux
            z[:] = cvxopt.matrix(WG @ np.array(ux).ravel() - Wi.T @ bz)

        return solve

    return factor


def to_cvxopt(M):
    coo = M.tocoo()
    return cvxopt.spmatrix(coo.data.tolist(), coo.row.tolist(), coo.col.tolist(), M.shape)


def solve_reference(model, A, b, mu, kkt="sparse"):
    """cvxopt's optimum at the tightest tolerance it reaches: (g, info dict)."""
    n = A.shape[0]
    free = free_unknowns(model, mu)
    column = np.full(n, -1)
    column[free] = np.arange(free.size)
    # Scale to a unit mean diagonal: same minimiser, better-conditioned tolerances.
    d = float(np.mean(A.diagonal()))
    if not d > 0.0:
        fail_input("A has a non-positive mean diagonal")
    P = sp.csr_matrix(A[free][:, free] / d)
    q = cvxopt.matrix(b[free] / d)
    G, dims = cone_constraints(model, mu, column)
    h = cvxopt.matrix(0.0, (G.shape[0], 1))
    solver = sparse_kkt_solver(P, G, dims) if kkt == "sparse" else None
    attempts = []
    for tol in CVXOPT_TOLERANCES:
        cvxopt.solvers.options.update(
            {"show_progress": False, "abstol": tol, "reltol": tol, "feastol": tol,
             "maxiters": 200, "refinement": 2})
        start = time.perf_counter()
        try:
            sol = cvxopt.solvers.coneqp(to_cvxopt(P), q, to_cvxopt(G), h, dims,
                                        kktsolver=solver)
        except (ValueError, ArithmeticError, RuntimeError) as e:
            attempts.append(f"tol {tol:g}: {e}")
            continue
        seconds = time.perf_counter() - start
        attempts.append(f"tol {tol:g}: {sol['status']}")
        if sol["status"] == "optimal":
            g = np.zeros(n)
            g[free] = np.array(sol["x"]).ravel()
            return g, {"tolerance": tol, "iterations": sol["iterations"], "seconds": seconds,
                       "attempts": attempts}
    print(f"cvxopt_reference.py: cvxopt found no optimum ({'; '.join(attempts)})",
          file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------- grains


def registry(grains):
    """[(name, direct models, fixed-point models)] from `grains qp solvers`."""
    try:
        out = subprocess.run([grains, "qp", "solvers"], check=True, capture_output=True,
                             text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        fail_input(f"'{grains} qp solvers' failed: {e}")
    lines = [line for line in out.splitlines() if line.strip()]
    if not lines or lines[0] != "solver,direct_models,fixed_point_models,needs_factored_operator":
        fail_input(f"'{grains} qp solvers' printed an unexpected header: {lines[:1]}")
    solvers = []
    for line in lines[1:]:
        name, direct, fixed, _ = line.split(",")
        solvers.append((name, direct.split(), fixed.split()))
    if not solvers:
        fail_input(f"'{grains} qp solvers' lists no solver")
    return solvers


def run_solver(grains, qp_dir, name, tolerance, max_iterations, extra):
    cmd = [grains, "qp", "solve", qp_dir, "--solver", name, "--tolerance", repr(tolerance),
           "--max-iterations", str(max_iterations)] + extra
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode not in (0, 3):
        return {"error": f"exit {proc.returncode}: {(proc.stderr or proc.stdout).strip()}",
                "cmd": cmd}
    lines = proc.stdout.strip().splitlines()
    header, row = lines[-2].split(","), lines[-1].split(",")
    if header[0] != "solver":
        return {"error": f"unexpected output: {proc.stdout.strip()}", "cmd": cmd}
    fields = dict(zip(header, row))
    return {"iterations": int(fields["iterations"]),
            "operator_applies": int(fields["operator_applies"]),
            "objective": float(fields["objective"]), "residual": float(fields["residual"]),
            "converged": fields["converged"] == "1", "seconds": seconds, "cmd": cmd}


def parse_budgets(items):
    budgets = {}
    for item in items:
        name, _, value = item.partition("=")
        if not name or not value.isdigit():
            fail_input(f"--budget '{item}': expected SOLVER=ITERATIONS")
        budgets[name] = int(value)
    return budgets


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("qp_dirs", nargs="+", metavar="QP_DIR")
    default_grains = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                  "build", "grains")
    parser.add_argument("--grains", default=os.path.normpath(default_grains),
                        help="the grains executable (default: build/grains of this checkout)")
    parser.add_argument("--tolerance", type=float, default=1e-10,
                        help="solver tolerance on the natural residual (default 1e-10)")
    parser.add_argument("--max-iterations", type=int, default=20000,
                        help="iteration budget of every solver (default 20000)")
    parser.add_argument("--budget", action="append", default=[], metavar="SOLVER=N",
                        help="iteration budget of one solver (repeatable)")
    parser.add_argument("--rel-tol", type=float, default=1e-6,
                        help="largest accepted |f - f_cvxopt| / |f_cvxopt| (default 1e-6)")
    parser.add_argument("--solvers", default="",
                        help="comma list: check only these registered solvers")
    parser.add_argument("--kkt", choices=("sparse", "dense"), default="sparse",
                        help="cvxopt's KKT systems: sparse (CHOLMOD on A's pattern, the "
                        "default) or dense (cvxopt's own 'chol', for small problems)")
    parser.add_argument("--require-all", action="store_true",
                        help="fail unless every registered solver (or every one of --solvers) "
                        "was checked on at least one QP_DIR")
    parser.add_argument("--option", action="append", default=[], metavar="SOLVER:KEY=VALUE",
                        help="a solver option passed to `grains qp solve` (repeatable)")
    args = parser.parse_args()

    budgets = parse_budgets(args.budget)
    solvers = registry(args.grains)
    known = {name for name, _, _ in solvers}
    wanted = [s for s in args.solvers.split(",") if s]
    for name in wanted + list(budgets):
        if name not in known:
            fail_input(f"unknown solver '{name}'; grains has: {', '.join(sorted(known))}")
    options = {}
    for item in args.option:
        name, _, kv = item.partition(":")
        if name not in known or "=" not in kv:
            fail_input(f"--option '{item}': expected SOLVER:KEY=VALUE with a registered solver")
        options.setdefault(name, []).extend(["--option", kv])

    failures = 0
    checked = set()
    for qp_dir in args.qp_dirs:
        model, A, b, mu, block = read_qp(qp_dir)
        g, info = solve_reference(model, A, b, mu, args.kkt)
        f_ref = objective(A, b, g)
        res = natural_residual(model, A, b, mu, g)
        contacts = mu.size
        sliding = ""
        if model != "frictionless" and contacts:
            # Contacts on the cone's boundary with a real normal impulse: sliding.
            gn = g[0::3]
            if model == "pyramid":
                gt = np.maximum(np.abs(g[1::3]), np.abs(g[2::3]))
            else:
                gt = np.hypot(g[1::3], g[2::3])
            loaded = gn > 1e-6 * max(gn.max(), 1e-300)
            on_cone = loaded & (gt >= (1.0 - 1e-6) * mu * gn) & (mu > 0)
            sliding = (f", {int(loaded.sum())} loaded contacts: {int(on_cone.sum())} sliding "
                       f"(on the boundary of the set), {int((loaded & ~on_cone).sum())} sticking")
        print(f"\n{qp_dir}: {model}, {contacts} contacts, {A.shape[0]} unknowns, "
              f"mu in [{mu.min() if contacts else 0:g}, {mu.max() if contacts else 0:g}]{sliding}")
        print(f"cvxopt coneqp: optimal at tolerance {info['tolerance']:g} "
              f"({info['iterations']} iterations, {info['seconds']:.2f} s), objective "
              f"{f_ref:.12e}" + (f", natural residual {res:.2e}" if res is not None else ""))
        scale = max(abs(f_ref), 1e-300)

        header = ("solver", "iterations", "operator_applies", "objective", "cvxopt objective",
                  "rel. diff", "converged", "result")
        rows = []
        for name, direct, fixed in solvers:
            if wanted and name not in wanted:
                continue
            if model not in direct:
                if model in fixed:
                    why = ("reaches %s only through the Tresca-to-Coulomb fixed point over %s, "
                           "whose limit has the unrelaxed normal condition "
                           "g_n >= 0 _|_ (A g + b)_n >= 0: a different problem from this QP" %
                           (model, "box" if model == "pyramid" else "cylinder"))
                else:
                    why = f"does not support {model}"
                print(f"skip {name}: {why}")
                continue
            checked.add(name)
            budget = budgets.get(name, args.max_iterations)
            r = run_solver(args.grains, qp_dir, name, args.tolerance, budget,
                           options.get(name, []))
            if "error" in r:
                rows.append((name, "-", "-", "-", f"{f_ref:.12e}", "-", "-", "FAIL"))
                print(f"{name}: {' '.join(r['cmd'])}: {r['error']}", file=sys.stderr)
                failures += 1
                continue
            rel = abs(r["objective"] - f_ref) / scale
            ok = rel <= args.rel_tol and r["converged"]
            failures += 0 if ok else 1
            rows.append((name, str(r["iterations"]), str(r["operator_applies"]),
                         f"{r['objective']:.12e}", f"{f_ref:.12e}", f"{rel:.1e}",
                         "yes" if r["converged"] else f"NO (residual {r['residual']:.1e})",
                         "pass" if ok else "FAIL"))
        print("\n| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for row in rows:
            print("| " + " | ".join(row) + " |")

    unchecked = [name for name, _, _ in solvers
                 if (not wanted or name in wanted) and name not in checked]
    if unchecked:
        print(f"\nnot checked on any of these problems: {', '.join(unchecked)}")
        if args.require_all:
            failures += len(unchecked)
    print(f"\n{'FAIL' if failures else 'ok'}: {failures} check(s) failed "
          f"(tolerance {args.tolerance:g}, relative objective difference <= {args.rel_tol:g})")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
