#!/usr/bin/python3
"""scripts/bench/qp_polish.py on the demo's exported QP (1000 spheres landing,
Coulomb friction). Its plain method is grains' apgd: the same applications of
A as `grains qp solve --solver apgd` to the same tolerance. With a trigger of 0
it never polishes and costs what the plain method costs; with a trigger it
polishes at least once, still meets the tolerance at every contact, and both
reach apgd's optimum (1e-9) within a relative 1e-6. The studies' cone
projection sends a separating frictionless contact (mu = 0, t = 0, n < 0) to
zero, as grains' does (a frictionless QP's plain method stalled on it).
usage: qp_polish_test.py SOURCE_DIR GRAINS"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

from qp_study_support import ENVIRONMENT, apgd_optimum, export_demo_qp, finish

TOLERANCE = "1e-7"
LINE = re.compile(r"plain (\d+) applications \(\d+ iterations, objective (\S+)\); polished (\d+) "
                  r"\((\d+) rounds, (met|NOT met[^,]*), objective (\S+);")


def polish(source, qp, trigger):
    out = subprocess.run(["/usr/bin/python3", os.path.join(source, "scripts", "bench", "qp_polish.py"),
                          "--tolerance", TOLERANCE, "--trigger", trigger, qp], check=True,
                         capture_output=True, text=True, env=ENVIRONMENT).stdout
    print(out)
    found = LINE.search(out)
    if not found:
        sys.exit(f"FAIL: no result line in {out!r}")
    plain, plain_objective, applies, rounds, met, objective = found.groups()
    return int(plain), float(plain_objective), int(applies), int(rounds), met, float(objective)


def main():
    source, grains = sys.argv[1], sys.argv[2]
    failures = []
    sys.path.insert(0, os.path.join(source, "scripts", "bench"))
    from qp_face_conditioning import project
    cases = np.array([-0.5, 0.0, 0.0, 0.5, 0.2, 0.0, -0.5, 0.3, 0.4])
    projected = project(cases, np.zeros(3))
    if not np.array_equal(projected, [0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0]):
        failures.append(f"projection at mu = 0 of {cases} gave {projected}")
    with tempfile.TemporaryDirectory() as work:
        qp = export_demo_qp(source, grains, work)
        optimum = apgd_optimum(source, grains, qp)
        summary = subprocess.run([grains, "qp", "solve", qp, "--solver", "apgd", "--tolerance", TOLERANCE,
                                  "--max-iterations", "20000"], check=True, capture_output=True,
                                 text=True, env=ENVIRONMENT).stdout
        grains_applies = int(re.search(r"\((\d+) applications of A\)", summary).group(1))
        never = polish(source, qp, "0")
        some = polish(source, qp, "0.02")
    plain, plain_objective = never[0], never[1]
    if plain != grains_applies:
        failures.append(f"plain method: {plain} applications, grains' apgd {grains_applies}")
    if never[2:5] != (plain, 0, "met"):
        failures.append(f"trigger 0: {never[2]} applications in {never[3]} rounds ({never[4]}), "
                        f"expected {plain} in 0 rounds")
    if some[3] < 1 or some[4] != "met":
        failures.append(f"trigger 0.02: {some[3]} rounds, tolerance {some[4]}")
    for label, value in (("plain", plain_objective), ("polished", some[5])):
        gap = abs(value - optimum) / abs(optimum)
        print(f"{label}: objective {value:.12g}, apgd at 1e-9 {optimum:.12g}, relative gap {gap:.1e}")
        if not gap <= 1e-6:
            failures.append(f"{label}: objective off the optimum by {gap:.1e}")
    finish("qp_polish", failures)


if __name__ == "__main__":
    main()
