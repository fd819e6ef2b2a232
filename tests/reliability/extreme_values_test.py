#!/usr/bin/env python3
"""Extreme numbers never hang or crash a run (docs/reliability.md).

Each numeric key of config/demo_settle.yaml below is set (with --set, every
component of a vector) to 1e300, 1e-300, -0.0 and a huge count (2^63 - 1),
one at a time, and the demo runs 3 steps under a 60 s timeout. Every run
must end on its own with

  * exit status 2 and a "grains: error" message (input rejected), or
  * exit status 1 and a "grains: error" message naming the step (a fault
    found while stepping: non-finite state, excessive motion, too many
    contacts), or
  * exit status 0 (the value is legal and the 3 steps ran; counted apart),

never a timeout, a signal, another status or a failure without a message.

Usage: extreme_values_test.py GRAINS_BINARY SOURCE_DIR
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

GRAINS, SOURCE = sys.argv[1:3]
VALUES = {"1e300": "1e300", "1e-300": "1e-300", "-0": "-0.0", "2^63-1": "9223372036854775807"}
SCALARS = ["simulation.dt", "simulation.end_time", "bodies.radius", "bodies.mass",
           "bodies.generator.count", "bodies.generator.spacing", "bodies.generator.jitter",
           "bodies.generator.region.radius", "walls.1.radius", "contact.mu",
           "contact.rolling_friction", "contact.spinning_friction", "contact.envelope",
           "contact.damping_steps", "contact.compliance", "solver.tolerance",
           "solver.max_iterations", "output.vtk_every"]
VECTORS = ["simulation.gravity", "bodies.initial_velocity", "walls.0.normal"]
TIMEOUT = 60


def main():
    work = tempfile.mkdtemp(prefix="grains_extreme.")
    env = dict(os.environ, OMP_NUM_THREADS="1")
    counts = {"rejected (2)": 0, "fault (1)": 0, "ran (0)": 0}
    failures = []
    slowest = (0.0, "")
    try:
        for key in SCALARS + VECTORS:
            for label, value in VALUES.items():
                setting = "%s=[%s,%s,%s]" % (key, value, value, value) if key in VECTORS \
                    else "%s=%s" % (key, value)
                out = os.path.join(work, "run")
                shutil.rmtree(out, ignore_errors=True)
                cmd = [GRAINS, "run", os.path.join(SOURCE, "config", "demo_settle.yaml"),
                       "--steps", "3", "--output", out, "-q", "--set", setting]
                start = time.monotonic()
                try:
                    r = subprocess.run(cmd, env=env, capture_output=True, text=True,
                                       timeout=TIMEOUT)
                except subprocess.TimeoutExpired:
                    failures.append("%s: no end within %d s" % (setting, TIMEOUT))
                    continue
                seconds = time.monotonic() - start
                slowest = max(slowest, (seconds, setting))
                text = r.stdout + r.stderr
                said = "grains: error" in text
                message = text[text.find("grains: error"):].splitlines()[0] if said else ""
                print("%-48s exit %d %.1f s %s" % (setting, r.returncode, seconds, message[:150]))
                if r.returncode == 2 and said:
                    counts["rejected (2)"] += 1
                elif r.returncode == 1 and said and " step " in text:
                    counts["fault (1)"] += 1
                elif r.returncode == 0:
                    counts["ran (0)"] += 1
                else:
                    last = text.strip().splitlines()[-1:] or ["(no output)"]
                    failures.append("%s: exit status %d%s: %s"
                                    % (setting, r.returncode,
                                       " (signal %d)" % -r.returncode if r.returncode < 0 else "",
                                       last[0][:300]))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    total = len(SCALARS + VECTORS) * len(VALUES)
    print("%d runs (%d keys x %s): %s; slowest %.1f s (%s)"
          % (total, len(SCALARS + VECTORS), "/".join(VALUES),
             ", ".join("%s %d" % kv for kv in counts.items()), slowest[0], slowest[1]))
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
