#!/usr/bin/python3
"""config/rotating_drum.yaml on 1, 2 and 3 ranks (docs/boundaries.md).

The bed settles for 0.8 s, then the drum turns. Checks, on every rank count:
the settled bed's weight rests on the walls (the vertical loads of drum and
caps sum to -m g within 0.5 % over the steps before the turn); turning, their
mean vertical load agrees within 1 % between the rank counts and the drum's
torque within 5 % (the grains take different paths on different rank
counts), and the bed loads the drum against its turn (tx < 0: the drum drags
the bed up its rising side); a restart from a checkpoint taken while the drum
turns reproduces the uninterrupted 2-rank run row for row; walls.pvd lists
the walls' frames.

Usage: rotating_drum_test.py GRAINS_BINARY SOURCE_DIR MPIEXEC
"""
import os
import subprocess
import sys
import tempfile

from scenario_runs import bed_weight, metrics, run_config, use_mpi_as_root

STEPS = 500          # 0.8 s of settling, then 0.2 s of turning
CHECKPOINT = 450     # while the drum turns
LAST = 50            # steps the loads are averaged over (before the turn, at the end)
TURN = 400           # the step the drum starts turning
WHAT = {"fz": "the vertical load of drum and caps", "tx": "the drum's torque tx"}
RADIUS, DENSITY, COUNT = 0.006, 2500.0, 500


def run(grains, mpiexec, source, ranks, out, *extra):
    run_config(grains, mpiexec, source, "rotating_drum.yaml", ranks, out, STEPS, "--set",
               f"output.vtk_every={STEPS // 5}", *extra)


def mean(table, column, end=None):
    window = table[-LAST:] if end is None else table[end - LAST:end]
    return sum(float(r[column]) for r in window) / LAST


def main():
    grains, source, mpiexec = sys.argv[1:4]
    use_mpi_as_root()
    weight = bed_weight(COUNT, RADIUS, DENSITY)
    failures = []
    loads = {}
    with tempfile.TemporaryDirectory(prefix="grains_drum.") as work:
        for ranks in (1, 2, 3):
            out = os.path.join(work, f"np{ranks}")
            extra = ["--set", f"output.checkpoint_every={CHECKPOINT}"] if ranks == 2 else []
            run(grains, mpiexec, source, ranks, out, *extra)
            table = metrics(out)
            if len(table) != STEPS:
                failures.append(f"np={ranks}: {len(table)} metrics rows, expected {STEPS}")
                continue
            fz = sum(mean(table, f"wall_{w}_fz", TURN) for w in ("drum", "front", "back"))
            turning = sum(mean(table, f"wall_{w}_fz") for w in ("drum", "front", "back"))
            print(f"np={ranks}: the settled bed puts {-fz:.4f} N on the walls (weight "
                  f"{weight:.4f} N); turning: {-turning:.4f} N on all walls, drum "
                  f"fz {mean(table, 'wall_drum_fz'):.4f} N, fy {mean(table, 'wall_drum_fy'):.4f} N, "
                  f"tx {mean(table, 'wall_drum_tx'):.5f} N m")
            if abs(-fz - weight) > 0.005 * weight:
                failures.append(f"np={ranks}: the walls carry {-fz} N, the bed weighs {weight} N")
            loads[ranks] = {"fz": turning, "tx": mean(table, "wall_drum_tx")}
            with open(os.path.join(out, "walls.pvd")) as f:
                frames = f.read().count("<DataSet")
            if frames != 6:
                failures.append(f"np={ranks}: walls.pvd lists {frames} frames")
        for ranks in (2, 3):
            for column, value in loads.get(ranks, {}).items():
                reference = loads[1][column]
                share = 0.01 if column == "fz" else 0.05
                if abs(value - reference) > share * abs(reference):
                    failures.append(f"np={ranks}: {WHAT[column]} {value} differs from np=1's "
                                    f"{reference} by more than {share:.0%}")
        # The drum drags the bed up its rising side (+y for a turn about +x):
        # the bed's weight there loads the drum against its turn.
        if not loads[1]["tx"] < 0.0:
            failures.append(f"the bed does not load the drum against its turn: tx = {loads[1]['tx']}")
        # A restart during the turn reproduces the uninterrupted run.
        restarted = os.path.join(work, "restarted")
        checkpoint = os.path.join(work, "np2", f"checkpoint_{CHECKPOINT:08d}.h5")
        run(grains, mpiexec, source, 2, restarted, "--restart", checkpoint)
        same = subprocess.run([sys.executable, os.path.join(source, "tests", "support",
                                                            "same_metrics.py"),
                               os.path.join(work, "np2", "metrics.csv"),
                               os.path.join(restarted, "metrics.csv"), "--after-step",
                               str(CHECKPOINT)], capture_output=True, text=True)
        print("restart at step", CHECKPOINT, "on 2 ranks:", same.stdout.strip())
        if same.returncode != 0:
            failures.append("the restarted run differs from the uninterrupted one")
    for line in failures:
        print("FAIL:", line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
