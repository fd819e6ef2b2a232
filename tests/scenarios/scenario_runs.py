"""Shared by the scenario tests: running a config on some ranks and reading
its metrics.csv."""
import csv
import math
import os
import subprocess
import sys

G = 9.81


def use_mpi_as_root():
    """One OpenMP thread per rank; mpirun allowed as root (containers)."""
    os.environ.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                      OMP_NUM_THREADS="1")


def bed_weight(count, radius, density):
    """[N] of `count` spheres."""
    return count * density * 4.0 / 3.0 * math.pi * radius**3 * G


def run_config(grains, mpiexec, source, config, ranks, out, steps, *extra):
    """Runs config/<config> quietly; exits the test naming the command if it fails."""
    cmd = [mpiexec, "-np", str(ranks), "--oversubscribe", grains, "run",
           os.path.join(source, "config", config), "--steps", str(steps), "--output", out, "-q",
           *extra]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)}\n{done.stdout}\n{done.stderr}")


def metrics(out):
    with open(os.path.join(out, "metrics.csv"), newline="") as f:
        return list(csv.DictReader(f))
