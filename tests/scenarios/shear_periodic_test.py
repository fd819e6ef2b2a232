#!/usr/bin/python3
"""config/shear_periodic.yaml on 1, 2 and 3 ranks (docs/boundaries.md,
"Periodic boxes").

A bed of 300 spheres in a box periodic in x and y rests on a floor that
slides in +x at 0.1 m/s and drags the bed along; the bed leaves through the
+x face and comes back through the -x face. Checks, on every rank count: no
body is lost (domain.on_exit: abort would end the run, so every centre is
wrapped back into the box); the floor carries the bed's weight (mean wall
floor fz over the last 50 steps within 2 % of -m g); the floor's impulse on
the bed, -sum(fx) dt, equals the momentum m v of the bed moving at the
floor's speed within 1 % (the bed moves with the floor by the end: contacts
across the periodic faces transmit the drag); and the wall loads are the same
bits on 2 and 3 ranks as on 1 (parallel.reproducible).

Usage: shear_periodic_test.py GRAINS_BINARY SOURCE_DIR MPIEXEC
"""
import os
import sys
import tempfile

from scenario_runs import G, bed_weight, metrics, run_config, use_mpi_as_root

STEPS, DT, LAST = 200, 0.001, 50
RADIUS, DENSITY, COUNT, FLOOR_SPEED = 0.003, 2500.0, 300, 0.1
LOADS = [f"wall_{w}_{c}" for w in ("floor", "lid") for c in ("fx", "fy", "fz", "tx", "ty", "tz")]


def main():
    grains, source, mpiexec = sys.argv[1:4]
    use_mpi_as_root()
    weight = bed_weight(COUNT, RADIUS, DENSITY)
    momentum = weight / G * FLOOR_SPEED
    failures = []
    tables = {}
    with tempfile.TemporaryDirectory(prefix="grains_shear.") as work:
        for ranks in (1, 2, 3):
            out = os.path.join(work, f"np{ranks}")
            run_config(grains, mpiexec, source, "shear_periodic.yaml", ranks, out, STEPS, "--set",
                       "output.vtk_every=0", "--set", "domain.on_exit=abort")
            table = metrics(out)
            if len(table) != STEPS:
                failures.append(f"np={ranks}: {len(table)} metrics rows, expected {STEPS}")
                continue
            tables[ranks] = table
            bodies = {int(r["bodies"]) for r in table}
            if bodies != {COUNT}:
                failures.append(f"np={ranks}: body counts {sorted(bodies)}, expected {COUNT}")
            fz = sum(float(r["wall_floor_fz"]) for r in table[-LAST:]) / LAST
            impulse = -sum(float(r["wall_floor_fx"]) for r in table) * DT
            print(f"np={ranks}: the floor carries {-fz:.4f} N (weight {weight:.4f} N); its "
                  f"impulse on the bed {impulse:.6f} N s (m v at the floor's speed "
                  f"{momentum:.6f} N s)")
            if abs(-fz - weight) > 0.02 * weight:
                failures.append(f"np={ranks}: the floor carries {-fz} N, the bed weighs {weight} N")
            if abs(impulse - momentum) > 0.01 * momentum:
                failures.append(f"np={ranks}: the floor's impulse {impulse} N s is not the bed's "
                                f"momentum at the floor's speed, {momentum} N s")
        for ranks in (2, 3):
            if ranks not in tables or 1 not in tables:
                continue
            differing = [c for c in LOADS
                         if [r[c] for r in tables[ranks]] != [r[c] for r in tables[1]]]
            if differing:
                failures.append(f"np={ranks}: wall loads {differing} differ from np=1's")
            else:
                print(f"np={ranks}: every wall load is the same bits as on 1 rank")
    for line in failures:
        print("FAIL:", line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
