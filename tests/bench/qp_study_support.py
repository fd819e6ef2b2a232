"""Steps shared by the tests of the QP studies in scripts/bench (Anderson,
interior point, two-level): the demo's exported QP, apgd's optimum on it,
the check of a study's printed table, and the verdict."""
import os
import subprocess
import sys

ENVIRONMENT = dict(os.environ, OMP_NUM_THREADS="1")


def export_demo_qp(source, grains, work):
    """Runs the demo with Coulomb friction alone (rolling and spinning
    resistance off) for 150 steps (1000 spheres falling onto the floor) and
    exports that step's contact QP; returns its directory."""
    subprocess.run([grains, "run", os.path.join(source, "config", "demo_settle.yaml"),
                    "--steps", "150", "--output", os.path.join(work, "run"),
                    "--set", "contact.rolling_friction=0", "--set", "contact.spinning_friction=0",
                    "--export-qp", "150", os.path.join(work, "qp"), "-q"],
                   check=True, env=ENVIRONMENT)
    return os.path.join(work, "qp", "step_150")


def apgd_optimum(source, grains, qp):
    """apgd's objective on the QP at a residual of 1e-9 (`grains qp solve`);
    exits when it does not get there."""
    sys.path.insert(0, os.path.join(source, "scripts", "bench"))
    from mprgp_table import solve
    reference = solve(grains, qp, "apgd", 1e-9, 20000, False)
    if not reference["converged"]:
        sys.exit(f"apgd did not reach 1e-9 on {qp}: no reference")
    return reference["objective"]


def check_optimum(label, applies, objective, optimum, failures, detail=""):
    """Adds a failure unless a study's method reached its tolerance
    (applies not None) at apgd's optimum within a relative 1e-6."""
    if applies is None:
        failures.append(f"{label}: tolerance not reached{detail}")
        return
    gap = abs(objective - optimum) / abs(optimum)
    print(f"{label}: {applies} applications of A{detail}, objective {objective:.12g}, "
          f"apgd {optimum:.12g}, relative gap {gap:.2e}")
    if not gap <= 1e-6:
        failures.append(f"{label}: objective off apgd's optimum by {gap:.2e}")


def check_table_row(source, grains, script, arguments, row_start, not_reached, failures):
    """Runs scripts/bench/SCRIPT with --grains and ARGUMENTS, prints its
    table, and adds a failure unless exactly one row starts with ROW_START
    and none of its cells reads NOT_REACHED."""
    table = subprocess.run(["/usr/bin/python3", os.path.join(source, "scripts", "bench", script),
                            "--grains", grains] + arguments, check=True, capture_output=True,
                           text=True, env=ENVIRONMENT).stdout
    print(table)
    rows = [line for line in table.splitlines() if line.startswith(row_start)]
    if len(rows) != 1 or not_reached in rows[0]:
        failures.append(f"{script}: the table has no row '{row_start}' with every count reached")


def finish(name, failures):
    if failures:
        sys.exit("FAIL:\n  " + "\n  ".join(failures))
    print(f"{name}: all checks passed")
