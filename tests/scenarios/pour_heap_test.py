#!/usr/bin/python3
"""config/pour_heap.yaml on 1, 2 and 3 ranks (docs/boundaries.md#pouring).

150 spheres are poured at 1000 per second for 0.15 s onto a round table and
settle in a heap. Checks, on every rank count: the source inserts exactly
rate * time = 150 bodies (in batches of 10 every 10 ms, none missed), the
poured bodies never overlap (max_overlap stays below 0.1 % of the radius),
every body poured is either on the table or left through the outlet below
it (discharged_below, with the mass of as many spheres), and at the end the table carries the weight of the bodies left
within 1 %. The inserted bodies and the run are the same on every rank
count: the table's load is the same bits on 1, 2 and 3 ranks. A restart
on 3 ranks from a checkpoint the 2-rank run wrote mid-pour (step 75)
reproduces the uninterrupted run's bodies, insertions, kinetic energy,
overlaps and loads bit for bit.

Usage: pour_heap_test.py GRAINS_BINARY SOURCE_DIR MPIEXEC
"""
import os
import sys
import tempfile

from scenario_runs import bed_weight, metrics, run_config, use_mpi_as_root

STEPS = 500
LAST = 20  # steps the final load is averaged over
RADIUS, DENSITY = 0.003, 2500.0
RATE, END, EVERY_STEPS = 1000.0, 0.15, 10
POURED = round(RATE * END)
CHECKPOINT = 75


def main():
    grains, source, mpiexec = sys.argv[1:4]
    use_mpi_as_root()
    failures = []
    loads = {}
    with tempfile.TemporaryDirectory(prefix="grains_pour.") as work:
        for ranks in (1, 2, 3):
            out = os.path.join(work, f"np{ranks}")
            extra = ["--set", f"output.checkpoint_every={CHECKPOINT}", "--set",
                     "output.checkpoint_keep=10"] if ranks == 2 else []
            run_config(grains, mpiexec, source, "pour_heap.yaml", ranks, out, STEPS,
                       "--set", "output.vtk_every=0", *extra)
            table = metrics(out)
            inserted = [int(float(r["inserted_hopper"])) for r in table]
            missed = sum(int(float(r["insertion_missed"])) for r in table)
            removed = sum(int(float(r["bodies_removed"])) for r in table)
            discharged = sum(int(float(r["discharged_below"])) for r in table)
            discharged_mass = sum(float(r["discharged_below_mass"]) for r in table)
            batches = [i + 1 for i, n in enumerate(inserted) if n > 0]
            overlap = max(float(r["max_overlap"]) for r in table)
            left = int(table[-1]["bodies"])
            load = -sum(float(r["wall_table_fz"]) for r in table[-LAST:]) / LAST
            weight = bed_weight(left, RADIUS, DENSITY)
            loads[ranks] = [r["wall_table_fz"] for r in table]
            print(f"np={ranks}: inserted {sum(inserted)} in {len(batches)} batches "
                  f"({missed} missed), max overlap {overlap:.3g} m, {discharged} discharged "
                  f"({discharged_mass:.6g} kg), "
                  f"{left} on the table carrying {load:.5f} N (weight {weight:.5f} N)")
            if sum(inserted) != POURED or missed != 0:
                failures.append(f"np={ranks}: {sum(inserted)} inserted, {missed} missed; "
                                f"expected {POURED} and 0")
            if batches != list(range(1, POURED // 10 * EVERY_STEPS, EVERY_STEPS)):
                failures.append(f"np={ranks}: batches at steps {batches}")
            if overlap > 1e-3 * RADIUS:
                failures.append(f"np={ranks}: bodies overlap by {overlap} m")
            if left + discharged != POURED or removed != 0 or discharged == 0:
                failures.append(f"np={ranks}: {left} left, {discharged} discharged and "
                                f"{removed} removed of {POURED}")
            mass = bed_weight(discharged, RADIUS, DENSITY) / 9.81
            if abs(discharged_mass - mass) > 1e-12:
                failures.append(f"np={ranks}: {discharged} discharged weigh {discharged_mass} kg, "
                                f"expected {mass} kg")
            if abs(load - weight) > 0.01 * weight:
                failures.append(f"np={ranks}: the table carries {load} N, the heap weighs "
                                f"{weight} N")
        for ranks in (2, 3):
            if loads[ranks] != loads[1]:
                failures.append(f"np={ranks}: the table's load differs from np=1's")
        # Restart mid-pour on another rank count: the pouring continues as if
        # the run had not stopped.
        restarted = os.path.join(work, "restarted")
        checkpoint = os.path.join(work, "np2", f"checkpoint_{CHECKPOINT:08d}.h5")
        run_config(grains, mpiexec, source, "pour_heap.yaml", 3, restarted, STEPS,
                   "--set", "output.vtk_every=0", "--restart", checkpoint)
        again = metrics(restarted)
        before = [r for r in metrics(os.path.join(work, "np2")) if int(r["step"]) > CHECKPOINT]
        columns = ("bodies", "inserted_hopper", "discharged_below", "kinetic_energy", "max_overlap", "wall_table_fz")
        differ = [(a["step"], c) for a, b in zip(before, again) for c in columns if a[c] != b[c]]
        print(f"restart at step {CHECKPOINT} on 3 ranks: {len(again)} rows, "
              f"{len(differ)} values differ from the uninterrupted run")
        if len(again) != len(before) or differ:
            failures.append(f"the restarted run differs from the uninterrupted one: {differ[:3]}")
    for line in failures:
        print("FAIL:", line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
