#!/usr/bin/python3
"""Applications of A of mprgp against apgd on exported Coulomb QPs and their
frictionless variants (docs/solvers.md, "MPRGP on the cones, measured").

Usage:
  mprgp_table.py --grains BUILD/grains [--tolerances 1e-4,1e-6]
                 [--solvers apgd,mprgp] [--max-iterations N] [--warm-start]
                 LABEL=COULOMB_DIR[:MU0_DIR] ...

For every QP and tolerance it runs `grains qp solve` (one rank, from gamma = 0,
or from the stored warm start with --warm-start) with each solver on the
Coulomb QP and, when MU0_DIR is given (scripts/bench/qp_variant.py
zero-friction), on the frictionless variant, and prints a markdown table of
operator_applies (iterations in brackets; "(cap)" when not converged) with
the ratio of each solver's Coulomb count to apgd's frictionless count.
"""
import argparse
import csv
import io
import os
import subprocess
import sys


def solve(grains, qp_dir, solver, tolerance, max_iterations, warm_start):
    cmd = [grains, "qp", "solve", qp_dir, "--solver", solver, "--tolerance",
           str(tolerance), "--max-iterations", str(max_iterations)]
    if warm_start:
        cmd += ["--warm-start", "stored"]
    env = dict(os.environ, OMP_NUM_THREADS="1")
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if done.returncode not in (0, 3):
        sys.exit("failed: " + " ".join(cmd) + "\n" + done.stderr)
    lines = done.stdout.strip().splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("solver,"))
    row = next(csv.DictReader(io.StringIO("\n".join(lines[header:header + 2]))))
    return {
        "applies": int(row["operator_applies"]),
        "iterations": int(row["iterations"]),
        "converged": row["converged"] == "1",
        "objective": float(row["objective"]),
    }


def cell(result):
    text = f"{result['applies']:,} ({result['iterations']:,})"
    return text if result["converged"] else text + " (cap)"


def qp_table_parser(doc):
    """The options every table over exported QPs takes (here and in
    anderson_qp.py); the caller adds its own before parsing."""
    parser = argparse.ArgumentParser(description=doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--grains", required=True)
    parser.add_argument("--tolerances", default="1e-4,1e-6")
    parser.add_argument("--max-iterations", type=int, default=20000)
    parser.add_argument("qps", nargs="+", metavar="LABEL=COULOMB_DIR[:MU0_DIR]")
    return parser


def qp_spec(spec):
    """LABEL=COULOMB_DIR[:MU0_DIR] -> (label, Coulomb dir, mu = 0 dir or '')."""
    label, dirs = spec.rsplit("=", 1)
    coulomb, _, mu0 = dirs.partition(":")
    return label, coulomb, mu0


def print_row(cells):
    """One markdown table row, flushed (the tables are printed as they run)."""
    print("| " + " | ".join(cells) + " |", flush=True)


def print_header(columns):
    print_row(columns)
    print("|" + "---|" * len(columns))


def apgd_columns(grains, coulomb, mu0, tolerance, max_iterations):
    """apgd's results on the frictionless variant (None without MU0_DIR) and
    on the Coulomb QP, from gamma = 0, and the row's first four cells: label
    and tolerance are the caller's."""
    base = solve(grains, mu0, "apgd", tolerance, max_iterations, False) if mu0 else None
    friction = solve(grains, coulomb, "apgd", tolerance, max_iterations, False)
    cells = [f"{tolerance:g}", f"{base['applies']:,}" if base else "", f"{friction['applies']:,}"]
    return base, friction, cells


def best_over_base(counts, base):
    """The fewest applications of `counts` (None: not reached) over apgd's
    frictionless ones, as a table cell."""
    reached = [n for n in counts if n is not None]
    return f"{min(reached) / base['applies']:.1f}" if base and reached else ""


def main():
    parser = qp_table_parser(__doc__)
    parser.add_argument("--solvers", default="apgd,mprgp")
    parser.add_argument("--warm-start", action="store_true")
    args = parser.parse_args()
    solvers = args.solvers.split(",")
    tolerances = [float(t) for t in args.tolerances.split(",")]

    columns = ["QP", "tolerance"]
    columns += [f"`{s}`, μ = 0" for s in solvers]
    columns += [f"`{s}`, Coulomb" for s in solvers]
    columns += [f"`{s}` Coulomb / `apgd` μ = 0" for s in solvers]
    print_header(columns)
    for spec in args.qps:
        label, coulomb, mu0 = qp_spec(spec)
        for tol in tolerances:
            frictionless = {s: solve(args.grains, mu0, s, tol, args.max_iterations,
                                     args.warm_start) if mu0 else None for s in solvers}
            friction = {s: solve(args.grains, coulomb, s, tol, args.max_iterations,
                                 args.warm_start) for s in solvers}
            row = [label, f"{tol:g}"]
            row += [cell(frictionless[s]) if frictionless[s] else "" for s in solvers]
            row += [cell(friction[s]) for s in solvers]
            base = frictionless.get("apgd")
            row += [f"{friction[s]['applies'] / base['applies']:.1f}" if base else ""
                    for s in solvers]
            print_row(row)


if __name__ == "__main__":
    main()
