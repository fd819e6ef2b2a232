#!/usr/bin/python3
"""config/silo_discharge.yaml on 1, 2 and 3 ranks (docs/boundaries.md).

The bed settles on the floor and on the gate under the orifice; at 0.4 s
(step 400) the gate drops away and the bed discharges through the orifice,
and the bodies falling out leave the domain box. Checks, on every rank
count: before the gate opens the bed's weight rests on floor, gate and silo
wall (their vertical loads sum to -m g within 0.5 %); the gate carries no
load once it has dropped; bodies leave through the orifice (metrics.csv
counts them in bodies and bodies_removed) and, 0.2 s after the gate opened,
as many within 10 % on every rank count.

Usage: silo_discharge_test.py GRAINS_BINARY SOURCE_DIR MPIEXEC
"""
import os
import sys
import tempfile

from scenario_runs import bed_weight, metrics, run_config, use_mpi_as_root

STEPS = 600
OPEN = 400  # the step the gate starts to drop
LAST = 50   # steps the settled loads are averaged over
RADIUS, DENSITY, COUNT = 0.003, 2500.0, 600


def main():
    grains, source, mpiexec = sys.argv[1:4]
    use_mpi_as_root()
    weight = bed_weight(COUNT, RADIUS, DENSITY)
    failures = []
    discharged = {}
    with tempfile.TemporaryDirectory(prefix="grains_silo.") as work:
        for ranks in (1, 2, 3):
            out = os.path.join(work, f"np{ranks}")
            run_config(grains, mpiexec, source, "silo_discharge.yaml", ranks, out, STEPS,
                       "--set", "output.vtk_every=0")
            table = metrics(out)
            settled = table[OPEN - LAST:OPEN]
            load = -sum(float(r[f"wall_{w}_fz"]) for r in settled
                        for w in ("floor", "gate", "silo")) / LAST
            gate = max(abs(float(r["wall_gate_fz"])) for r in table[OPEN + 10:])
            removed = sum(int(float(r["bodies_removed"])) for r in table)
            left = int(table[-1]["bodies"])
            print(f"np={ranks}: settled bed on the walls {load:.4f} N (weight {weight:.4f} N); "
                  f"after {STEPS - OPEN} steps open: {removed} bodies removed, {left} left")
            if abs(load - weight) > 0.005 * weight:
                failures.append(f"np={ranks}: the walls carry {load} N, the bed weighs {weight} N")
            if gate != 0.0:
                failures.append(f"np={ranks}: the dropped gate still carries {gate} N")
            if removed + left != COUNT or removed < 50:
                failures.append(f"np={ranks}: {removed} removed and {left} left of {COUNT}")
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
