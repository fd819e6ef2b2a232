#!/usr/bin/env python3
"""Restarts anywhere (docs/restart.md), with every output on: VTK frames, the
contact network and checkpoints.

The demo (1000 frictional spheres falling into a cylinder, APGD) runs 60
steps on 2 ranks straight: the reference. Its checkpoint of step 30 (about
300 contacts) is restarted

  * into a new directory on the same 2 ranks: metrics rows 31..60 and the
    final bodies are bit for bit the reference's, and the VTK and contact
    series start afresh at the checkpoint's step;
  * into its own series (append): a run stopped after 30 steps and restarted
    in its directory ends with a directory that is byte for byte the
    reference's (metrics.csv but for wall times; timing.csv not compared;
    walls.vtp is redrawn at each start around the bodies of that moment);
  * on another rank count, 2 -> 1 and 1 -> 3 (a one-rank run's checkpoint):
    with APGD and parallel.reproducible (the defaults) any two rank counts
    give the same bits, so the final bodies, the contact counts and the
    kinetic energies are the reference's exactly (TOLERANCES are zero).

Usage: restart_anywhere_test.py GRAINS_BINARY SOURCE_DIR MPIEXEC
"""
import csv
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checkpoint_bodies import max_differences, read_bodies  # noqa: E402

GRAINS, SOURCE, MPIEXEC = sys.argv[1:4]
STEPS, RESTART_STEP = 60, 30
OUTPUTS = ["--set", "output.vtk_every=10", "--set", "output.contact_network=true",
           "--set", "output.checkpoint_every=30", "--set", "solver.tolerance=1e-9", "-q"]
# Reproducible sums: another rank count continues bit for bit.
TOLERANCES = {"pose": 0.0, "velocity": 0.0, "kinetic_energy_relative": 0.0, "contacts": 0}
failures = []


def run(np, out, *extra):
    env = dict(os.environ, OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    cmd = [MPIEXEC, "-np", str(np), "--oversubscribe", GRAINS, "run",
           os.path.join(SOURCE, "config", "demo_settle.yaml"), "--output", out] + OUTPUTS
    result = subprocess.run(cmd + list(extra), env=env, capture_output=True, text=True)
    if result.returncode != 0:
        print(result.stdout + result.stderr)
        raise SystemExit("FAIL: %s exited with %d" % (" ".join(cmd + list(extra)),
                                                      result.returncode))


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def metrics(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def same_metrics(a, b, after_step=-1):
    script = os.path.join(SOURCE, "tests", "support", "same_metrics.py")
    return subprocess.run(["/usr/bin/python3", script, a, b, "--after-step", str(after_step)],
                          capture_output=True, text=True)


def series_steps(pvd):
    """Steps of the frames a .pvd lists (from the frame file names)."""
    with open(pvd) as f:
        return [int(line.split('file="', 1)[1].split('"', 1)[0].rsplit("_", 1)[1].split(".")[0])
                for line in f if 'file="' in line]


def checkpoint(directory, step):
    return os.path.join(directory, "checkpoint_%08d.h5" % step)


def compare_other_rank_count(name, directory, reference):
    pose, velocity = max_differences(read_bodies(checkpoint(reference, STEPS)),
                                     read_bodies(checkpoint(directory, STEPS)))
    print("%s: step %d bodies differ from the 2-rank reference by %.2e (pose), %.2e (velocity)"
          % (name, STEPS, pose, velocity))
    check(pose <= TOLERANCES["pose"], "%s: poses differ by %.3g" % (name, pose))
    check(velocity <= TOLERANCES["velocity"], "%s: velocities differ by %.3g" % (name, velocity))
    rows = {int(r["step"]): r for r in metrics(os.path.join(directory, "metrics.csv"))}
    expected = [r for r in metrics(os.path.join(reference, "metrics.csv"))
                if int(r["step"]) > RESTART_STEP]
    check(sorted(rows) == [int(r["step"]) for r in expected],
          "%s: metrics steps %s" % (name, sorted(rows)[:3]))
    worst_ke = worst_contacts = 0.0
    for r in expected:
        mine = rows.get(int(r["step"]))
        if mine is None:
            continue
        check(mine["time"] == r["time"] and mine["bodies"] == r["bodies"],
              "%s: step %s time/bodies differ" % (name, r["step"]))
        worst_contacts = max(worst_contacts, abs(int(mine["contacts"]) - int(r["contacts"])))
        ke, ke_ref = float(mine["kinetic_energy"]), float(r["kinetic_energy"])
        worst_ke = max(worst_ke, abs(ke - ke_ref) / abs(ke_ref))
    print("%s: metrics rows %d..%d: contact counts differ by at most %d, kinetic energy by "
          "%.2e (relative)" % (name, RESTART_STEP + 1, STEPS, worst_contacts, worst_ke))
    check(worst_contacts <= TOLERANCES["contacts"], "%s: contact counts differ" % name)
    check(worst_ke <= TOLERANCES["kinetic_energy_relative"], "%s: kinetic energy differs" % name)
    for series in ("bodies.pvd", "contacts.pvd"):
        check(series_steps(os.path.join(directory, series)) == [30, 40, 50, 60],
              "%s: %s lists steps %s" % (name, series,
                                         series_steps(os.path.join(directory, series))))


def main():
    if shutil.which("h5dump") is None:
        print("h5dump missing (scripts/install-deps.sh installs hdf5-tools)")
        return 1
    work = tempfile.mkdtemp(prefix="grains_restart_anywhere.")
    try:
        reference = os.path.join(work, "reference")
        run(2, reference, "--steps", str(STEPS))
        start = checkpoint(reference, RESTART_STEP)

        # New directory, same ranks.
        fresh = os.path.join(work, "fresh")
        run(2, fresh, "--steps", str(STEPS), "--restart", start)
        result = same_metrics(os.path.join(reference, "metrics.csv"),
                              os.path.join(fresh, "metrics.csv"), RESTART_STEP)
        print("new directory, 2 ranks:", result.stdout.strip())
        check(result.returncode == 0, "new directory: metrics differ from the reference")
        check(len(metrics(os.path.join(fresh, "metrics.csv"))) == STEPS - RESTART_STEP,
              "new directory: metrics.csv holds other rows than steps 31..60")
        pose, velocity = max_differences(read_bodies(checkpoint(reference, STEPS)),
                                         read_bodies(checkpoint(fresh, STEPS)))
        check(pose == 0.0 and velocity == 0.0,
              "new directory: final bodies differ (%.3g, %.3g)" % (pose, velocity))
        for series in ("bodies.pvd", "contacts.pvd"):
            check(series_steps(os.path.join(fresh, series)) == [30, 40, 50, 60],
                  "new directory: %s lists steps %s"
                  % (series, series_steps(os.path.join(fresh, series))))
        for frame in ("vtk/bodies_000040_r1.vtp", "vtk/contacts_000060_r0.vtp"):
            check(filecmp.cmp(os.path.join(reference, frame), os.path.join(fresh, frame),
                              shallow=False), "new directory: %s differs" % frame)

        # Existing series (append): stop after 30 steps, restart in place.
        appended = os.path.join(work, "appended")
        run(2, appended, "--steps", str(RESTART_STEP))
        run(2, appended, "--steps", str(STEPS), "--restart", appended)
        result = same_metrics(os.path.join(reference, "metrics.csv"),
                              os.path.join(appended, "metrics.csv"))
        print("append, 2 ranks:", result.stdout.strip())
        check(result.returncode == 0, "append: metrics differ from the reference")
        compared = 0
        for root, _, files in os.walk(reference):
            for f in files:
                relative = os.path.relpath(os.path.join(root, f), reference)
                if relative in ("metrics.csv", "timing.csv", "walls.vtp"):
                    continue
                compared += 1
                other = os.path.join(appended, relative)
                check(os.path.exists(other) and filecmp.cmp(os.path.join(root, f), other,
                                                            shallow=False),
                      "append: %s differs from the reference" % relative)
        extra = sorted(set(os.listdir(appended)) - set(os.listdir(reference)))
        check(not extra, "append: files the reference lacks: %s" % extra)
        print("append: %d output files byte for byte the reference's" % compared)

        # Another rank count: 2 -> 1, and a one-rank run's checkpoint on 3 ranks.
        serial = os.path.join(work, "two_to_one")
        run(1, serial, "--steps", str(STEPS), "--restart", start)
        compare_other_rank_count("2 -> 1 ranks", serial, reference)
        first = os.path.join(work, "one_rank_first_half")
        run(1, first, "--steps", str(RESTART_STEP))
        three = os.path.join(work, "one_to_three")
        run(3, three, "--steps", str(STEPS), "--restart", checkpoint(first, RESTART_STEP))
        compare_other_rank_count("1 -> 3 ranks", three, reference)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
