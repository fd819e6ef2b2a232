#!/usr/bin/python3
"""How the natural residual of exported contact QPs spreads over the contacts
(docs/solvers.md, "The bulk of the pile: rest_quantile").

    qp_residual_spread.py QP_DIR [QP_DIR ...]

For each directory written by `grains run ... --export-qp` (three unknowns
per contact: Coulomb or its zero-friction variant) and for its warm start
(warm_start.mtx, projected onto the cones first, as the time stepper does)
and its solution (solution.mtx), prints each contact's share of the natural
residual, max over its rows of |g - Pi_K(g - (A g + b))|, at the quantiles
50, 90, 99 and 99.9 % and at the worst contact, and how many contacts exceed
the tolerance the run stopped at (problem.yaml's run_tolerance) and 1 / 0.3 of
it (above which rest_reduction 0.3 no longer tightens the step). A warm start
exported after a ReLCP re-solve is zero (the export's rule) and is reported
as such.
"""
import os
import sys

import numpy as np
import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qp_face_conditioning import contact_residuals, dense, project, read_friction_qp  # noqa: E402

QUANTILES = (50.0, 90.0, 99.0, 99.9)


def main(paths):
    if not paths:
        sys.exit(__doc__)
    print("| QP | iterate | contacts | 50 % | 90 % | 99 % | 99.9 % | worst | > τ | > τ / 0.3 |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for path in paths:
        A, b, mu = read_friction_qp(path, "qp_residual_spread.py")
        with open(os.path.join(path, "problem.yaml")) as f:
            tolerance = float(yaml.safe_load(f)["run_tolerance"])
        for name, file in (("warm start", "warm_start.mtx"), ("solution", "solution.mtx")):
            gamma = dense(os.path.join(path, file))
            if name == "warm start":
                if not gamma.any():
                    print(f"| {path} | warm start | zero (exported after a re-solve) |"
                          " | | | | | | |")
                    continue
                gamma = project(gamma, mu)
            shares = contact_residuals(gamma, A @ gamma + b, mu)
            values = " | ".join(f"{v:.1e}" for v in np.percentile(shares, QUANTILES))
            print(f"| {path} | {name} | {shares.size} | {values} | {shares.max():.1e} |"
                  f" {(shares > tolerance).sum()} | {(shares > tolerance / 0.3).sum()} |")


if __name__ == "__main__":
    main(sys.argv[1:])
