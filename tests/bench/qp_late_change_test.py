#!/usr/bin/python3
"""scripts/bench/qp_late_change.py.

* Self-stresses: a unit sphere wedged between a floor and a wall (contacts
  at its bottom and its side) has exactly one, the floor pushing up and out
  along z + x and the wall in and down, equal and opposite (no force, no
  torque); either contact alone has none, and two wedged spheres have two.
* On the demo's exported QP (1000 spheres landing, Coulomb friction) at
  1e-7: its method needs grains' apgd iterations, stopped at the last
  iteration nothing is left to change, and stopped earlier dgamma.A.dgamma
  from A equals scale du.M.du from the factored form (Dt.mtx, mobility.mtx).
usage: qp_late_change_test.py SOURCE_DIR GRAINS"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import scipy.sparse as sp

from qp_study_support import ENVIRONMENT, export_demo_qp, finish

TOLERANCE = "1e-7"


def contact_rows(point, normal):
    """The three rows of D^T (normal, two tangents) of a contact on a sphere at the origin."""
    normal = np.asarray(normal, dtype=float)
    first = np.cross(normal, [0.0, 1.0, 0.0] if abs(normal[1]) < 0.9 else [1.0, 0.0, 0.0])
    first /= np.linalg.norm(first)
    second = np.cross(normal, first)
    return [np.concatenate([d, np.cross(point, d)]) for d in (normal, first, second)]


def wedged_spheres(count, scale=0.01):
    """A = scale D^T W D for `count` unit spheres (m = 1, I = 2/5), each on a
    floor and against a wall."""
    blocks = []
    for _ in range(count):
        rows = contact_rows([0.0, 0.0, -1.0], [0.0, 0.0, 1.0]) + contact_rows([1.0, 0.0, 0.0], [-1.0, 0.0, 0.0])
        blocks.append(np.array(rows))
    Dt = sp.block_diag(blocks).tocsr()
    W = sp.block_diag([np.diag([1.0, 1.0, 1.0, 2.5, 2.5, 2.5])] * count)
    return sp.csr_matrix(scale * Dt @ W @ Dt.T), np.full(2 * count, 0.5)


def main():
    source, grains = sys.argv[1], sys.argv[2]
    sys.path.insert(0, os.path.join(source, "scripts", "bench"))
    from qp_late_change import self_stresses
    failures = []
    for label, count, contacts, expected in (("one wedged sphere", 1, [0, 1], 1),
                                             ("its floor contact alone", 1, [0], 0),
                                             ("its wall contact alone", 1, [1], 0),
                                             ("two wedged spheres", 2, [0, 1, 2, 3], 2)):
        A, mu = wedged_spheres(count)
        found = self_stresses(A, mu, np.array(contacts))
        print(f"{label}: {found} self-stresses")
        if found != expected:
            failures.append(f"{label}: {found} self-stresses, expected {expected}")
    with tempfile.TemporaryDirectory() as work:
        qp = export_demo_qp(source, grains, work)
        summary = subprocess.run([grains, "qp", "solve", qp, "--solver", "apgd", "--tolerance", TOLERANCE,
                                  "--max-iterations", "20000"], check=True, capture_output=True,
                                 text=True, env=ENVIRONMENT).stdout
        grains_iterations = int(re.search(r"converged, (\d+) iterations", summary).group(1))
        out = subprocess.run(["/usr/bin/python3", os.path.join(source, "scripts", "bench", "qp_late_change.py"),
                              "--tolerance", TOLERANCE, "--at", "0.333,1", qp], check=True,
                             capture_output=True, text=True, env=ENVIRONMENT).stdout
    print(out)
    met = re.search(r"met after (\d+) iterations", out)
    rows = re.findall(r"after (\d+): .*largest change to come (\S+) at .*dgamma\.A\.dgamma (\S+), "
                      r"from the bodies (\S+)", out)
    if not met or len(rows) != 2:
        sys.exit(f"FAIL: unexpected output {out!r}")
    if int(met.group(1)) != grains_iterations:
        failures.append(f"{met.group(1)} iterations, grains' apgd {grains_iterations}")
    early, last = rows
    if int(last[0]) != grains_iterations or float(last[1]) != 0.0:
        failures.append(f"stopped after {last[0]}: change to come {last[1]}, expected 0 after {grains_iterations}")
    from_A, from_bodies = float(early[2]), float(early[3])
    if not (from_A > 0 and abs(from_A - from_bodies) <= 1e-4 * from_A):
        failures.append(f"after {early[0]}: dgamma.A.dgamma {from_A:g} from A, {from_bodies:g} from the bodies")
    finish("qp_late_change", failures)


if __name__ == "__main__":
    main()
