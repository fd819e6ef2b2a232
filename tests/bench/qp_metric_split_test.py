#!/usr/bin/python3
"""scripts/bench/qp_metric_split.py on the synthetic exported QP of
synthetic_qp.py (A = I, three Coulomb contacts), whose optimum is the
projection of -b onto the cones, objective -(1 + 0.01 + 1.8) / 2 = -1.405.
Every tangential factor must reach that optimum (a wrong rescaling of mu in
the metric reaches another one), and on A = I the metric of factor 1 (the
identity) must need the fewest applications of A: its first step is the
projection itself.
usage: qp_metric_split_test.py SOURCE_DIR"""
import os
import subprocess
import sys
import tempfile

from synthetic_qp import OBJECTIVE, write_three_contact_qp


def main():
    script = os.path.join(sys.argv[1], "scripts", "bench", "qp_metric_split.py")
    with tempfile.TemporaryDirectory() as tmp:
        qp = os.path.join(tmp, "qp")
        write_three_contact_qp(qp)
        out = subprocess.run(["/usr/bin/python3", script, qp, "0.5,1,2", "1e-10"], check=True,
                             capture_output=True, text=True).stdout
    print(out)
    rows = {}
    for line in out.splitlines()[2:]:
        factor, iterations, applications, objective = line.split()
        rows[float(factor)] = (int(iterations), int(applications), float(objective))
    failures = []
    if sorted(rows) != [0.5, 1.0, 2.0]:
        failures.append(f"factors printed: {sorted(rows)}")
    for factor, (_, _, objective) in rows.items():
        if abs(objective - OBJECTIVE) > 1e-8:
            failures.append(f"factor {factor}: objective {objective}, expected {OBJECTIVE}")
    if len(rows) == 3 and not rows[1.0][1] < min(rows[0.5][1], rows[2.0][1]):
        failures.append(f"applications {rows}: factor 1 should need the fewest")
    if failures:
        sys.exit("FAIL:\n  " + "\n  ".join(failures))
    print("qp_metric_split: all checks passed")


if __name__ == "__main__":
    main()
