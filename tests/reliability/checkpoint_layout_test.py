#!/usr/bin/env python3
"""A checkpoint describes its own layout (docs/restart.md, file layout).

The demo runs 10 steps on 2 ranks, writing a checkpoint and a VTK frame at
step 10. h5dump (a tool that knows nothing of grains) must list one dataset
per body member with a units attribute, and the positions, velocities and
GIDs it reads by name must be the bodies of the VTK frame of the same step.

Usage: checkpoint_layout_test.py GRAINS_BINARY SOURCE_DIR MPIEXEC
"""
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import vtk
from vtk.util.numpy_support import vtk_to_numpy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checkpoint_bodies import read_dataset  # noqa: E402

GRAINS, SOURCE, MPIEXEC = sys.argv[1:4]
BODY_FIELDS = {
    "gid": "1", "shape": None, "generation": "1", "num_contacts": "1", "radius": "m",
    "half_length": "m", "semi_axes": "m", "major_radius": "m", "mass": "kg",
    "inertia": "kg m^2", "position": "m", "orientation": "1", "velocity": "m/s",
    "angular_velocity": "rad/s", "external_force": "N", "growth_rate": "1/s",
    "contact_force": "N", "contact_torque": "N m"
}


def units_of(path, dataset):
    text = subprocess.run(["h5dump", "-a", dataset + "/units", path], check=True,
                          capture_output=True, text=True).stdout
    return text.split('(0): "', 1)[1].split('"', 1)[0]


def vtk_frame(directory, step):
    reader = vtk.vtkXMLPPolyDataReader()
    reader.SetFileName(os.path.join(directory, "vtk", "bodies_%06d.pvtp" % step))
    reader.Update()
    data = reader.GetOutput()
    point_data = data.GetPointData()
    return (vtk_to_numpy(point_data.GetArray("gid")).astype(np.int64),
            vtk_to_numpy(data.GetPoints().GetData()).astype(float),
            vtk_to_numpy(point_data.GetArray("velocity")).astype(float))


def main():
    if shutil.which("h5dump") is None:
        print("h5dump missing (scripts/install-deps.sh installs hdf5-tools)")
        return 1
    work = tempfile.mkdtemp(prefix="grains_ckpt_layout.")
    env = dict(os.environ, OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    try:
        out = os.path.join(work, "run")
        subprocess.run([MPIEXEC, "-np", "2", "--oversubscribe", GRAINS, "run",
                        os.path.join(SOURCE, "config", "demo_settle.yaml"), "--steps", "10",
                        "--output", out, "-q", "--set", "output.vtk_every=10",
                        "--set", "output.checkpoint_every=10"], check=True, env=env)
        path = os.path.join(out, "checkpoint_00000010.h5")
        header = subprocess.run(["h5dump", "-H", path], check=True, capture_output=True,
                                text=True).stdout
        failures = []
        for name, units in BODY_FIELDS.items():
            if 'DATASET "%s"' % name not in header:
                failures.append("no dataset bodies/%s" % name)
            elif units is not None and units_of(path, "/bodies/" + name) != units:
                failures.append("bodies/%s: units %r, expected %r"
                                % (name, units_of(path, "/bodies/" + name), units))
        for name in ("key_a", "key_b", "key_sub", "impulse"):
            if 'DATASET "%s"' % name not in header:
                failures.append("no dataset warm_start/%s" % name)

        gid = read_dataset(path, "/bodies/gid", "<i8", 1)
        position = read_dataset(path, "/bodies/position", "<f8", 3)
        velocity = read_dataset(path, "/bodies/velocity", "<f8", 3)
        vtk_gid, vtk_position, vtk_velocity = vtk_frame(out, 10)
        if len(gid) != 1000 or sorted(gid) != sorted(vtk_gid):
            failures.append("checkpoint GIDs (%d) are not the VTK frame's (%d)"
                            % (len(gid), len(vtk_gid)))
        else:
            order, vtk_order = np.argsort(gid), np.argsort(vtk_gid)
            # VTK stores float32 points: compare to its precision.
            dp = np.max(np.abs(position[order] - vtk_position[vtk_order]))
            dv = np.max(np.abs(velocity[order] - vtk_velocity[vtk_order]))
            print("1000 bodies by GID: max |position difference| %.2e m, "
                  "max |velocity difference| %.2e m/s" % (dp, dv))
            if not dp < 1e-6 or not dv < 1e-5:
                failures.append("positions/velocities differ from the VTK frame")
            if not np.any(velocity != 0.0):
                failures.append("all velocities zero after 10 steps of falling")
        for failure in failures:
            print("FAIL:", failure)
        return 1 if failures else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
