"""Running one validation case with grains (shared by the scripts in
scripts/validate/)."""
import os
import subprocess


def run_case(grains, directory, config, ranks):
    """Runs DIRECTORY/CONFIG on RANKS ranks with one thread each, into
    DIRECTORY/run (overwritten), its log in DIRECTORY/run.log."""
    env = dict(os.environ, OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1")
    cmd = ["mpirun", "-n", str(ranks), grains, "run", os.path.join(directory, config),
           "--output", os.path.join(directory, "run"), "--overwrite", "-q"]
    with open(os.path.join(directory, "run.log"), "w") as log:
        subprocess.run(cmd, env=env, check=True, stdout=log, stderr=subprocess.STDOUT)
