#!/usr/bin/python3
"""How still a settled pile is at the end of a run (docs/solvers.md, "Overlap
slop: piles that stand still").

    demo_rest.py RUN_DIR [RUN_DIR ...]

For each output directory of `grains run` (metrics.csv every step, and a VTK
frame at the end for the median sphere speed, e.g. `--set
output.vtk_every=1600` for the demo run to t = 8 s) prints the kinetic energy
at the end over the run's peak, its translational part over the same peak,
the median sphere speed of the last frame, the APGD iterations of the
whole run and per step over its last 100 steps, and the applications of A
per step over those steps. The translational kinetic energy is also printed
in joules: a run continued from a checkpoint (`grains run --restart`) has
only its own steps in metrics.csv, so its peak is not the whole run's.
"""
import csv
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarize_vs_liggghts import grains_final_speeds  # noqa: E402


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print("run  KE/peak  translational KE/peak  translational KE [J]  median speed [m/s]  iterations  "
          "it/step last 100  applications/step last 100")
    for path in sys.argv[1:]:
        with open(os.path.join(path, "metrics.csv")) as f:
            rows = list(csv.DictReader(f))
        if not rows:
            sys.exit(f"demo_rest.py: {path}/metrics.csv has no rows")
        energies = [float(r["kinetic_energy"]) for r in rows]
        peak = max(energies)
        iterations = [int(r["iterations"]) for r in rows]
        applications = [int(r["operator_applies"]) for r in rows]
        speeds = grains_final_speeds(path)
        median = f"{statistics.median(speeds):.2g}" if speeds else "no frame"
        translational = float(rows[-1]["kinetic_energy_translational"])
        print(f"{path}  {energies[-1] / peak:.2g}  {translational / peak:.2g}  {translational:.2g}  "
              f"{median}  {sum(iterations)}  {statistics.mean(iterations[-100:]):.1f}  "
              f"{statistics.mean(applications[-100:]):.1f}")


if __name__ == "__main__":
    main()
