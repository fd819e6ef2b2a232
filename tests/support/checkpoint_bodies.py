"""The bodies of a grains checkpoint, read by dataset name with h5dump (no
h5py needed; docs/restart.md, file layout). Used by the script tests."""
import os
import subprocess
import tempfile

import numpy as np

# Members read by read_bodies and their columns per body.
WIDTHS = {"gid": 1, "position": 3, "orientation": 4, "velocity": 3, "angular_velocity": 3}


def read_dataset(path, dataset, dtype, width):
    """One dataset of the file as a numpy array of `width` columns."""
    with tempfile.TemporaryDirectory(prefix="grains_h5dump.") as work:
        out = os.path.join(work, "data.bin")
        subprocess.run(["h5dump", "-d", dataset, "-b", "LE", "-o", out, path], check=True,
                       stdout=subprocess.DEVNULL)
        values = np.fromfile(out, dtype=dtype)
    return values.reshape(-1, width) if width > 1 else values


def read_bodies(path):
    """Dict of gid-sorted arrays: gid, position, orientation (w x y z),
    velocity, angular_velocity."""
    bodies = {name: read_dataset(path, "/bodies/" + name, "<i8" if name == "gid" else "<f8",
                                 width) for name, width in WIDTHS.items()}
    order = np.argsort(bodies["gid"], kind="stable")
    return {name: values[order] for name, values in bodies.items()}


def max_differences(a, b):
    """(pose, velocity) largest differences of two read_bodies results with
    the same GIDs: positions and orientation quaternions, linear and angular
    velocities (the measures of tests/mpi/checkpoint_restart_test.cpp)."""
    if not np.array_equal(a["gid"], b["gid"]):
        raise ValueError("the checkpoints hold different bodies (%d and %d)"
                         % (len(a["gid"]), len(b["gid"])))
    def worst(name):
        return float(np.max(np.linalg.norm(a[name] - b[name], axis=1))) if len(a[name]) else 0.0
    return (max(worst("position"), worst("orientation")),
            max(worst("velocity"), worst("angular_velocity")))
