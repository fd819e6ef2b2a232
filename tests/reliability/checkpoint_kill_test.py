#!/usr/bin/python3
"""A checkpoint interrupted mid-write by a killed process leaves the previous
checkpoint usable (docs/restart.md): a run writing a checkpoint every step is
SIGKILLed while a checkpoint_*.h5.tmp exists; the newest complete checkpoint
must then restart the run (from its directory), which must end exactly as an
uninterrupted run (metrics.csv, every column but wall times), and the
leftover .tmp must be cleaned up by the next checkpoint.

Usage: checkpoint_kill_test.py GRAINS_BINARY
"""
import csv
import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

GRAINS = sys.argv[1]
CONFIG = """simulation: {dt: 0.004, steps: 80}
bodies:
  radius: 0.05
  mass: 1.0
  generator: {type: lattice, count: 3000, spacing: 0.11,
              region: {type: box, min: [0, 0, 0], max: [1.65, 1.65, 2.0]}}
walls: [{type: plane, point: [0, 0, 0], normal: [0, 0, 1]}]
solver: {name: apgd, tolerance: 1.0e-8}
output: {log_every: 0, checkpoint_every: 1, checkpoint_keep: 3}
"""
ENV = dict(os.environ, OMP_NUM_THREADS="1")


def metrics(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    keep = [k for k in rows[0] if k != "wall_s" and not (k.startswith("time_") and k.endswith("_s"))]
    return [[r[k] for k in keep] for r in rows]


def main():
    work = tempfile.mkdtemp(prefix="grains_kill_")
    try:
        config = os.path.join(work, "pile.yaml")
        with open(config, "w") as f:
            f.write(CONFIG)
        out = os.path.join(work, "killed")
        caught = None
        for attempt in range(5):
            shutil.rmtree(out, ignore_errors=True)
            run = subprocess.Popen([GRAINS, "run", config, "--output", out, "-q"], env=ENV)
            deadline = time.time() + 120
            while run.poll() is None and time.time() < deadline:
                partial = glob.glob(os.path.join(out, "checkpoint_*.h5.tmp"))
                complete = glob.glob(os.path.join(out, "checkpoint_*.h5"))
                # Kill inside a write, once an earlier checkpoint is complete.
                if partial and len(complete) >= 2:
                    os.kill(run.pid, signal.SIGKILL)
                    run.wait()
                    caught = (partial[0], sorted(complete))
                    break
            if caught:
                break
            run.kill()
            run.wait()
            print(f"attempt {attempt + 1}: the run ended before a write could be interrupted")
        if not caught:
            print("FAIL: could not kill the run during a checkpoint write in 5 attempts")
            return 1
        partial, complete = caught
        print(f"killed (SIGKILL) while writing {os.path.basename(partial)}; "
              f"complete: {', '.join(os.path.basename(c) for c in complete)}")
        failures = []
        if not os.path.exists(partial) and not os.path.exists(partial[:-4]):
            failures.append("neither the partial file nor its renamed checkpoint is there")
        newest = sorted(glob.glob(os.path.join(out, "checkpoint_*.h5")))[-1]
        newest_step = int(os.path.basename(newest)[11:19])
        restart = subprocess.run([GRAINS, "run", config, "--restart", out, "--output", out],
                                 env=ENV, capture_output=True, text=True)
        if restart.returncode != 0:
            failures.append(f"restart failed ({restart.returncode}): {restart.stderr[-500:]}")
        elif f"restarting after step {newest_step} " not in restart.stdout:
            failures.append(f"restart did not start from step {newest_step}: {restart.stdout[:300]}")
        else:
            print(f"restarted from {os.path.basename(newest)} (step {newest_step}) to step 80")
        if glob.glob(os.path.join(out, "checkpoint_*.h5.tmp")):
            failures.append("the leftover .tmp file was not removed by the next checkpoint")
        straight = os.path.join(work, "straight")
        subprocess.run([GRAINS, "run", config, "--output", straight, "-q"], env=ENV, check=True)
        a = metrics(os.path.join(straight, "metrics.csv"))
        b = metrics(os.path.join(out, "metrics.csv"))
        if a != b:
            failures.append(f"the restarted run differs from an uninterrupted one "
                            f"({len(a)} vs {len(b)} rows)")
        else:
            print(f"restarted run identical to the uninterrupted one ({len(a)} metrics rows)")
        for failure in failures:
            print("FAIL:", failure)
        return 1 if failures else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
