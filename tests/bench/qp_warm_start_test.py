#!/usr/bin/python3
"""scripts/bench/qp_warm_start.py on the demo's exported QP (1000 spheres
landing, Coulomb friction, the run's warm start). Its method needs grains'
apgd iterations from zero and from the stored warm start (`grains qp solve
--warm-start stored`); the starts it builds take the reference on exactly
the rows they name and the warm start elsewhere; and the exact start stops
at the first check.

Then the settle benchmark's first steps (1000 spheres, its deck), whose
impact steps have ReLCP re-solves: such a step's export also holds its first
QP (step_<N>_first) with the run's warm start, from which grains' apgd needs
the run's first-solve iterations and qp_warm_start.py's method the same,
while the step's last QP, larger, has a zero warm start.
usage: qp_warm_start_test.py SOURCE_DIR GRAINS"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import yaml

from qp_study_support import ENVIRONMENT, export_demo_qp, finish

TOLERANCE = 1e-6


def grains_iterations(grains, qp, warm_start, tolerance=TOLERANCE):
    summary = subprocess.run([grains, "qp", "solve", qp, "--solver", "apgd", "--tolerance",
                              str(tolerance), "--max-iterations", "20000", "--warm-start",
                              warm_start], check=True, capture_output=True, text=True,
                             env=ENVIRONMENT).stdout
    found = re.search(r"converged, (\d+) iterations", summary)
    if not found:
        sys.exit(f"grains qp solve did not converge from {warm_start}:\n{summary}")
    return int(found.group(1))


IMPACT_STEPS = range(8, 15)


def run_iterations(qp):
    """The run's solver iterations on the exported QP (problem.yaml)."""
    with open(qp + "/problem.yaml") as meta:
        return int(yaml.safe_load(meta)["run_iterations"])


def check_first_qps(source, grains, work, failures):
    """The first QPs of the settle benchmark's impact steps with re-solves."""
    from qp_face_conditioning import dense, read_friction_qp
    from qp_warm_start import carried, iterations_from
    init = os.path.join(work, "init")
    subprocess.run(["/usr/bin/python3", os.path.join(source, "scripts", "bench", "liggghts",
                                                     "make_tp2_initial.py"), "1000", init],
                   check=True, capture_output=True, env=ENVIRONMENT)
    deck = os.path.join(init, "grains_tp2.yaml")
    shutil.copy(os.path.join(source, "scripts", "bench", "liggghts", "grains_tp2.yaml"), deck)
    exports = os.path.join(work, "impact")
    subprocess.run([grains, "run", deck, "--output", os.path.join(work, "settle"), "--steps",
                    str(IMPACT_STEPS[-1]), "--set", "simulation.dt=0.02", "--set",
                    "solver.tolerance=1e-4", "--set", "contact.mu=0.3", "--export-qp",
                    ",".join(map(str, IMPACT_STEPS)), exports, "-q"], check=True, env=ENVIRONMENT)
    firsts = [step for step in IMPACT_STEPS
              if os.path.isdir(os.path.join(exports, f"step_{step}_first"))]
    print(f"impact steps {IMPACT_STEPS[0]}-{IMPACT_STEPS[-1]}: first QPs of steps {firsts}")
    if not firsts:
        failures.append("no impact step exported a first QP: no step with re-solves?")
    for step in firsts:
        first = os.path.join(exports, f"step_{step}_first")
        last = os.path.join(exports, f"step_{step}")
        A, b, mu = read_friction_qp(first, "qp_warm_start_test.py")
        warm = dense(first + "/warm_start.mtx")
        expected = run_iterations(first)
        from_grains = grains_iterations(grains, first, "stored", 1e-4)
        mine, _ = iterations_from(A, b, mu, warm, 1e-4)
        last_warm = dense(last + "/warm_start.mtx")
        print(f"step {step}: first QP {mu.size} contacts ({carried(warm).sum()} carried), run "
              f"{expected} iterations, grains qp solve {from_grains}, qp_warm_start {mine}; "
              f"last QP {last_warm.size // 3} contacts")
        if not carried(warm).any():
            failures.append(f"step {step}: the first QP's warm start is zero")
        if not expected == from_grains == mine:
            failures.append(f"step {step}: first solve {expected} iterations in the run, "
                            f"{from_grains} by grains qp solve, {mine} by qp_warm_start")
        if not (last_warm.size > warm.size and not carried(last_warm).any()):
            failures.append(f"step {step}: the last QP should be larger, with a zero warm start")


def main():
    source, grains = sys.argv[1], sys.argv[2]
    sys.path.insert(0, os.path.join(source, "scripts", "bench"))
    from qp_face_conditioning import dense, read_friction_qp, rows_of
    from qp_warm_start import CHECK_EVERY, carried, iterations_from, reference_solution, starts
    failures = []
    with tempfile.TemporaryDirectory() as work:
        qp = export_demo_qp(source, grains, work)
        A, b, mu = read_friction_qp(qp, "qp_warm_start_test.py")
        warm = dense(qp + "/warm_start.mtx")
        reference = reference_solution(A, b, mu, dense(qp + "/solution.mtx"))
        expected = {"zero": grains_iterations(grains, qp, "zero"),
                    "warm": grains_iterations(grains, qp, "stored")}
        check_first_qps(source, grains, work, failures)
    kept = carried(warm)
    print(f"{kept.sum()} of {mu.size} contacts carried by the warm start")
    if not 0 < kept.sum() < mu.size:
        failures.append("the demo's warm start should carry some contacts and not others")
    built = starts(warm, reference)
    for name, start in built.items():
        iterations, residual = iterations_from(A, b, mu, start, TOLERANCE)
        print(f"{name}: {iterations} iterations from a residual of {residual:.2e}"
              + (f" (grains' apgd {expected[name]})" if name in expected else ""))
        if name in expected and iterations != expected[name]:
            failures.append(f"{name}: {iterations} iterations, grains' apgd {expected[name]}")
        if name == "exact" and iterations != CHECK_EVERY:
            failures.append(f"exact start: {iterations} iterations, expected {CHECK_EVERY}")
    # Per row: which of the reference and the warm start each start takes.
    rows = rows_of(np.flatnonzero(kept))
    normal = np.zeros(warm.size, bool)
    normal[0::3] = True
    on_carried = np.zeros(warm.size, bool)
    on_carried[rows] = True
    from_reference = {"zero exact": ~on_carried, "carried exact": on_carried,
                      "normals exact": on_carried & normal,
                      "tangents exact": on_carried & ~normal}
    for name, mask in from_reference.items():
        if not np.array_equal(built[name], np.where(mask, reference, warm)):
            failures.append(f"{name}: not the reference and the warm start on the rows it names")
    finish("qp_warm_start", failures)


if __name__ == "__main__":
    main()
