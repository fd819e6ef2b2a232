#!/usr/bin/python3
"""Check every registered contact solver against an independent reference.

    cvxopt_reference.py QP_DIR [QP_DIR ...] --grains build/grains [options]

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
2. asks grains for its solver registry (`grains qp solvers`) and runs every
   solver that handles the problem's friction model directly with
   `grains qp solve QP_DIR --solver NAME --tolerance TOL --max-iterations N`,
   from zero;
3. prints a table (solver, iterations, operator_applies, objective, cvxopt
   objective, relative difference, converged, pass/fail) and exits 1 if any
   solver's objective differs from cvxopt's by more than --rel-tol (relative
   to |cvxopt objective|) or the solver did not report convergence.

Solvers that reach a coupled model (coulomb, pyramid) only through the
Tresca-to-Coulomb fixed point solve a different problem (Coulomb friction
with the unrelaxed normal condition, not the cone QP): they are skipped on it
with the reason printed, and checked on frictionless problems.

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
    if meta.get("format") != "grains-qp-1":
        fail_input(f"{path}: expected 'format: grains-qp-1'")
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
    A = sp.csr_matrix(scipy.io.mmread(os.path.join(qp_dir, "A.mtx")))
    b = np.asarray(sp.csr_matrix(scipy.io.mmread(os.path.join(qp_dir, "b.mtx"))).todense()).ravel()
    mu = np.asarray(sp.csr_matrix(scipy.io.mmread(os.path.join(qp_dir, "cones.mtx"))).todense()).ravel()
    n = A.shape[0]
    if A.shape != (n, n) or b.size != n or mu.size * block != n:
        fail_input(f"{qp_dir}: sizes do not match: A {A.shape}, b {b.size}, "
                   f"{mu.size} contacts x block {block}")
    if int(meta.get("contacts", -1)) != mu.size:
        fail_input(f"{qp_dir}: problem.yaml says {meta.get('contacts')} contacts, "
                   f"cones.mtx has {mu.size}")
    # A should be symmetric: anything else means a bad export, not a solver question.
    asym = abs(A - A.T).max() if n else 0.0
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
        if t <= m * n:
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


def cone_constraints(model, mu, n):
    """cvxopt's G, h, dims (G g + s = h, s in the cone) and equalities (Ae g = 0)."""
    rows, cols, vals = [], [], []
    eq_rows = []
    n_linear = 0
    if model == "frictionless":
        for i in range(n):
            rows.append(i), cols.append(i), vals.append(-1.0)
        n_linear = n
        socs = []
    else:
        zero = [c for c, m in enumerate(mu) if m == 0.0]
        positive = [c for c, m in enumerate(mu) if m > 0.0]
        r = 0
        # Linear block first (cvxopt orders 'l' before 'q').
        for c in zero:  # g_n >= 0, tangential impulses zero
            rows.append(r), cols.append(3 * c), vals.append(-1.0)
            r += 1
            eq_rows += [3 * c + 1, 3 * c + 2]
        if model == "pyramid":
            for c in positive:  # mu g_n -+ g_u >= 0, mu g_n -+ g_w >= 0, g_n >= 0
                m = mu[c]
                for k in (1, 2):
                    for sign in (1.0, -1.0):
                        rows += [r, r]
                        cols += [3 * c, 3 * c + k]
                        vals += [-m, sign]
                        r += 1
                rows.append(r), cols.append(3 * c), vals.append(-1.0)
                r += 1
            socs = []
        else:
            socs = [3] * len(positive)
        n_linear = r
        for c in (positive if model == "coulomb" else []):  # (mu g_n, g_u, g_w) in SOC(3)
            rows += [r, r + 1, r + 2]
            cols += [3 * c, 3 * c + 1, 3 * c + 2]
            vals += [-mu[c], -1.0, -1.0]
            r += 3
    m_rows = n_linear + 3 * len(socs)
    G = cvxopt.spmatrix(vals, rows, cols, (m_rows, n)) if m_rows else None
    h = cvxopt.matrix(0.0, (m_rows, 1))
    Ae = None
    if eq_rows:
        Ae = cvxopt.spmatrix([1.0] * len(eq_rows), list(range(len(eq_rows))), eq_rows,
                             (len(eq_rows), n))
    return G, h, {"l": n_linear, "q": socs, "s": []}, Ae


def solve_reference(model, A, b, mu):
    """cvxopt's optimum at the tightest tolerance it reaches: (g, info dict)."""
    n = A.shape[0]
    # Scale to a unit mean diagonal: same minimiser, better-conditioned tolerances.
    d = float(np.mean(A.diagonal())) if n else 1.0
    if not d > 0.0:
        fail_input("A has a non-positive mean diagonal")
    coo = (A / d).tocoo()
    P = cvxopt.spmatrix(coo.data.tolist(), coo.row.tolist(), coo.col.tolist(), (n, n))
    q = cvxopt.matrix((b / d).tolist(), (n, 1))
    G, h, dims, Ae = cone_constraints(model, mu, n)
    be = cvxopt.matrix(0.0, (Ae.size[0], 1)) if Ae is not None else None
    attempts = []
    for tol in CVXOPT_TOLERANCES:
        cvxopt.solvers.options.update(
            {"show_progress": False, "abstol": tol, "reltol": tol, "feastol": tol,
             "maxiters": 200, "refinement": 2})
        start = time.perf_counter()
        try:
            sol = cvxopt.solvers.coneqp(P, q, G, h, dims, Ae, be)
        except (ValueError, ArithmeticError) as e:
            attempts.append(f"tol {tol:g}: {e}")
            continue
        seconds = time.perf_counter() - start
        attempts.append(f"tol {tol:g}: {sol['status']}")
        if sol["status"] == "optimal":
            g = np.array(sol["x"]).ravel()
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
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="See the module docstring (head of this file) and docs/solvers.md.")
    parser.add_argument("qp_dirs", nargs="+", metavar="QP_DIR")
    parser.add_argument("--grains", required=True, help="the grains executable")
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
        g, info = solve_reference(model, A, b, mu)
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
