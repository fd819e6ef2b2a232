#!/usr/bin/python3
"""scripts/bench/anderson_qp.py on a Coulomb QP exported from the demo (step
150, 1000 spheres falling onto the floor): the Anderson-accelerated projected
gradient must reach a natural residual of 1e-8 within its iteration cap and
the optimum apgd reaches (`grains qp solve`, tolerance 1e-9) to a relative
1e-6, with and without the extrapolation (m = 0 is plain projected gradient),
and the table's command line must print a converged count for that QP.
usage: anderson_qp_test.py SOURCE_DIR GRAINS"""
import os
import subprocess
import sys
import tempfile


def main(source, grains):
    sys.path.insert(0, os.path.join(source, "scripts", "bench"))
    from anderson_qp import anderson  # noqa: E402
    from mprgp_table import solve  # noqa: E402

    env = dict(os.environ, OMP_NUM_THREADS="1")
    failures = []
    with tempfile.TemporaryDirectory() as work:
        subprocess.run([grains, "run", os.path.join(source, "config", "demo_settle.yaml"),
                        "--steps", "150", "--output", os.path.join(work, "run"),
                        "--export-qp", "150", os.path.join(work, "qp"), "-q"],
                       check=True, env=env)
        qp = os.path.join(work, "qp", "step_150")
        reference = solve(grains, qp, "apgd", 1e-9, 20000, False)
        if not reference["converged"]:
            sys.exit("apgd did not reach 1e-9 on the demo QP: no reference")
        for memory in (5, 0):
            applies, objective = anderson(qp, 1e-8, memory, 1.9 if memory else 1.0, 20000)
            gap = abs(objective - reference["objective"]) / abs(reference["objective"])
            print(f"m = {memory}: {applies} applications of A, objective {objective:.12g}, "
                  f"apgd {reference['objective']:.12g}, relative gap {gap:.2e}")
            if applies is None:
                failures.append(f"m = {memory}: residual 1e-8 not reached within 20000 iterations")
            if not gap <= 1e-6:
                failures.append(f"m = {memory}: objective off apgd's optimum by {gap:.2e}")
        table = subprocess.run(["/usr/bin/python3",
                                os.path.join(source, "scripts", "bench", "anderson_qp.py"),
                                "--grains", grains, "--tolerances", "1e-6", "--memories", "5",
                                f"demo={qp}"], check=True, capture_output=True, text=True,
                               env=env).stdout
    print(table)
    rows = [line for line in table.splitlines() if line.startswith("| demo | 1e-06 |")]
    if len(rows) != 1 or "(cap)" in rows[0]:
        failures.append("the table has no converged row for the demo QP at 1e-6")
    if failures:
        sys.exit("FAIL:\n  " + "\n  ".join(failures))
    print("anderson_qp_test: all checks passed")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
