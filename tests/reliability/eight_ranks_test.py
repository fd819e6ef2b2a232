#!/usr/bin/env python3
"""Eight ranks against one (docs/scaling.md, docs/reliability.md).

Three scenarios run a few steps on 1 rank and on 8 ranks (oversubscribed,
one thread each), and their final checkpoints are compared body by body (by
GID).

  * the demo: 1000 frictional spheres falling into a cylinder, 40 steps
    (~600 contacts at the end), with APGD and reproducible sums (the
    defaults): bit for bit the same bodies on 8 ranks as on 1;
  * a ReLCP scenario: config/relcp_chainmail.yaml, 40 interlaced rings
    pulled apart, 60 steps (ReLCP recursions add contacts in steps 11-30);
  * the colony: config/colony.yaml grown from one rod to 16 cells.

The last two use Kucera, whose Krylov sums follow the partition: poses
within 1e-6 and velocities within 1e-4, the bounds of the other rank-count
tests (tests/mpi/checkpoint_restart_test.cpp, colony_distributed_test.cpp),
with solver tolerances tightened so that round-off, not the stopping point,
is what the partition changes.

The 8-rank run must also warn once that 8 ranks x 1 thread exceed the
node's cores (when they do).

Usage: eight_ranks_test.py GRAINS_BINARY SOURCE_DIR MPIEXEC
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checkpoint_bodies import max_differences, read_bodies  # noqa: E402

GRAINS, SOURCE, MPIEXEC = sys.argv[1:4]
# (name, config, steps, settings, pose and velocity bounds)
SCENARIOS = [
    ("demo", "demo_settle.yaml", 40, [], 0.0, 0.0),
    # The rings' velocities follow the solver's stopping point closely: at
    # the config's 1e-8 they differ by 4e-2 m/s between 1 and 8 ranks, at
    # 1e-10 by 8e-5, at 1e-12 by 4e-6 (poses by 1e-9).
    ("relcp chainmail", "relcp_chainmail.yaml", 60, ["solver.tolerance=1e-12"], 1e-6, 1e-4),
    ("colony", "colony.yaml", 300, ["solver.tolerance=1e-10"], 1e-6, 1e-4),
]


def run(np, config, steps, settings, out):
    env = dict(os.environ, OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    cmd = [MPIEXEC, "-np", str(np), "--oversubscribe", "-x", "OMP_NUM_THREADS", GRAINS, "run",
           os.path.join(SOURCE, "config", config), "--steps", str(steps), "--output", out,
           "--set", "output.vtk_every=0", "--set", "output.log_every=0",
           "--set", "output.checkpoint_every=%d" % steps]
    for s in settings:
        cmd += ["--set", s]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stdout + r.stderr)
        raise SystemExit("FAIL: %s exited with %d" % (" ".join(cmd), r.returncode))
    return r.stdout + r.stderr


def main():
    if shutil.which("h5dump") is None:
        print("h5dump missing (scripts/install-deps.sh installs hdf5-tools)")
        return 1
    work = tempfile.mkdtemp(prefix="grains_eight_ranks.")
    failures = []
    try:
        for name, config, steps, settings, pose_bound, velocity_bound in SCENARIOS:
            final = "checkpoint_%08d.h5" % steps
            one = os.path.join(work, config + ".np1")
            eight = os.path.join(work, config + ".np8")
            run(1, config, steps, settings, one)
            log = run(8, config, steps, settings, eight)
            a = read_bodies(os.path.join(one, final))
            b = read_bodies(os.path.join(eight, final))
            if len(a["gid"]) != len(b["gid"]):
                failures.append("%s: %d bodies on 1 rank, %d on 8"
                                % (name, len(a["gid"]), len(b["gid"])))
                continue
            pose, velocity = max_differences(a, b)
            print("%s, %d steps: %d bodies; 8 ranks vs 1: max pose difference %.2e, "
                  "max velocity difference %.2e" % (name, steps, len(a["gid"]), pose, velocity))
            if not pose <= pose_bound:
                failures.append("%s: poses differ by %.3g" % (name, pose))
            if not velocity <= velocity_bound:
                failures.append("%s: velocities differ by %.3g" % (name, velocity))
            if (os.cpu_count() or 0) < 8 and log.count("8 ranks x 1 thread = 8 on a node") != 1:
                failures.append("%s: no single oversubscription warning on 8 ranks" % name)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
