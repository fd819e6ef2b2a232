#!/usr/bin/python3
"""config/mesh_hopper.yaml on 1, 2 and 3 ranks (docs/boundaries.md).

The bed settles in a hopper read from an STL mesh (config/meshes/hopper.stl)
and on the gate under its outlet; at 0.3 s (step 150) the gate drops away and
the bed discharges through the outlet, and the bodies falling out leave the
domain box. Checks, on every rank count: before the gate opens the bed's
weight rests on the mesh and the gate (their vertical loads sum to -m g
within 0.5 %) and their horizontal loads cancel (within 0.5 % of it); the walls.vtp
file holds the mesh's 192 triangles; bodies leave through the outlet
(metrics.csv counts them in bodies and bodies_removed) and, 0.2 s after the
gate opened, as many within 10 % on every rank count.

Usage: mesh_hopper_test.py GRAINS_BINARY SOURCE_DIR MPIEXEC
"""
import os
import re
import sys
import tempfile

from scenario_runs import bed_weight, metrics, run_config, use_mpi_as_root

STEPS = 250
OPEN = 150  # the step the gate starts to drop
LAST = 30   # steps the settled loads are averaged over
RADIUS, DENSITY, COUNT = 0.003, 2500.0, 300
TRIANGLES = 192


def main():
    grains, source, mpiexec = sys.argv[1:4]
    use_mpi_as_root()
    weight = bed_weight(COUNT, RADIUS, DENSITY)
    failures = []
    discharged = {}
    with tempfile.TemporaryDirectory(prefix="grains_mesh_hopper.") as work:
        for ranks in (1, 2, 3):
            out = os.path.join(work, f"np{ranks}")
            # One VTK frame (step 0) for walls.vtp.
            run_config(grains, mpiexec, source, "mesh_hopper.yaml", ranks, out, STEPS,
                       "--set", f"output.vtk_every={10 * STEPS}")
            table = metrics(out)
            settled = table[OPEN - LAST:OPEN]
            load = -sum(float(r[f"wall_{w}_fz"]) for r in settled
                        for w in ("hopper", "gate")) / LAST
            sideways = max(abs(sum(float(r[f"wall_{w}_f{c}"]) for r in settled
                                   for w in ("hopper", "gate"))) / LAST for c in "xy")
            removed = sum(int(float(r["bodies_removed"])) for r in table)
            left = int(table[-1]["bodies"])
            print(f"np={ranks}: settled bed on the walls {load:.4f} N (weight {weight:.4f} N), "
                  f"sideways {sideways:.2e} N; after {STEPS - OPEN} steps open: {removed} bodies "
                  f"removed, {left} left")
            if abs(load - weight) > 0.005 * weight:
                failures.append(f"np={ranks}: the walls carry {load} N, the bed weighs {weight} N")
            if sideways > 0.005 * weight:
                failures.append(f"np={ranks}: the walls take {sideways} N sideways")
            if removed + left != COUNT or removed < 30:
                failures.append(f"np={ranks}: {removed} removed and {left} left of {COUNT}")
            with open(os.path.join(out, "walls.vtp")) as f:
                cells = [int(n) for n in re.findall(r'NumberOfPolys="(\d+)"', f.read())]
            if sum(cells) != TRIANGLES + 64:  # the mesh and the gate's 64 quads
                failures.append(f"np={ranks}: walls.vtp has {sum(cells)} cells, expected "
                                f"{TRIANGLES} triangles and 64 quads")
            discharged[ranks] = removed
        for ranks in (2, 3):
            if abs(discharged[ranks] - discharged[1]) > 0.1 * discharged[1]:
                failures.append(f"np={ranks}: {discharged[ranks]} bodies discharged, np=1: "
                                f"{discharged[1]}")
    for line in failures:
        print("FAIL:", line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
