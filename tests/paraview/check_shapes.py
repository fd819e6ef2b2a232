"""pvbatch script: every vertex that grains_view.py's shape filter draws lies
on its body's true surface, for all five shapes, and its normal points out.
The surfaces are checked against arrays the filter does not use for placing:
shape_tensor (the ellipsoid's frame) and axis (the other shapes' axes).
Usage: pvbatch check_shapes.py RUN_DIR SCRIPTS_DIR
"""
import sys

import numpy as np
from paraview import servermanager as sm
from paraview import simple as pv
from vtkmodules.util import numpy_support as ns

sys.path.insert(0, sys.argv[2])
import grains_view  # noqa: E402

bodies = pv.PVDReader(FileName=sys.argv[1] + "/bodies.pvd")
last = grains_view.time_steps(bodies)[-1]
shapes = pv.ProgrammableFilter(Input=bodies)
shapes.Script = grains_view.SHAPES_SCRIPT
shapes.UpdatePipeline(last)
bodies.UpdatePipeline(last)
drawn = sm.Fetch(shapes)
source = sm.Fetch(bodies)


def arrays(data):
    pd = data.GetPointData()
    out = {pd.GetArray(i).GetName(): ns.vtk_to_numpy(pd.GetArray(i))
           for i in range(pd.GetNumberOfArrays())}
    out["points"] = ns.vtk_to_numpy(data.GetPoints().GetData())
    return out


b, d = arrays(source), arrays(drawn)
normals = ns.vtk_to_numpy(drawn.GetPointData().GetNormals())
failed = []
seen = set()
for k, gid in enumerate(b["gid"]):
    mine = d["gid"] == gid
    x = d["points"][mine] - b["points"][k]
    n = normals[mine]
    r, h, shape = b["radius"][k], b["half_length"][k], b["shape"][k]
    axis = b["axis"][k]
    along = x @ axis
    across = np.linalg.norm(x - np.outer(along, axis), axis=1)
    if shape == 0:
        error = np.linalg.norm(x, axis=1) - r
    elif shape == 1:  # on the side or on a cap, never outside
        side = np.abs(across - r) * (np.abs(along) <= h + 1e-12)
        cap = np.abs(np.abs(along) - h) * (across <= r + 1e-12)
        error = np.where(across <= r + 1e-12, np.minimum(side, cap), side + 1)
    elif shape == 2:  # distance to the core segment is r
        t = np.clip(along, -h, h)
        error = np.linalg.norm(x - np.outer(t, axis), axis=1) - r
    elif shape == 3:  # x^T S^-2 x = 1, S the shape tensor
        s_inv = np.linalg.inv(b["shape_tensor"][k].reshape(3, 3))
        error = np.einsum("ni,ij,nj->n", x, s_inv @ s_inv, x) - 1
    inside = x  # from a point inside the surface: the centre (convex shapes)
    if shape == 4:  # torus: (rho - R)^2 + z^2 = r^2
        error = np.hypot(across - b["major_radius"][k], along) - r
        radial = (x - np.outer(along, axis)) / across[:, None]
        inside = x - b["major_radius"][k] * radial  # from the tube's centre circle
    outward = np.einsum("ni,ni->n", n, inside)
    if np.abs(np.linalg.norm(n, axis=1) - 1).max() > 1e-12:
        outward = -outward - 1  # not unit: fail below
    seen.add(int(shape))
    if mine.sum() < 50 or np.abs(error).max() > 1e-9 * np.maximum(1.0, r) or outward.min() < -1e-12:
        failed.append(f"body {gid} (shape {shape}): {mine.sum()} vertices, largest surface "
                      f"error {np.abs(error).max():.3g}, smallest n.x {outward.min():.3g}")
# Faces wind counter-clockwise seen from outside: VTK lights a face seen
# from its back with its normals flipped (dark bodies otherwise).
polys = drawn.GetPolys()
faces = ns.vtk_to_numpy(polys.GetConnectivityArray()).reshape(-1, 4)
corner = d["points"][faces]
area = np.cross(corner[:, 2] - corner[:, 0], corner[:, 3] - corner[:, 1])
facing = np.einsum("ni,ni->n", area, normals[faces].sum(axis=1))
big = np.linalg.norm(area, axis=1) > 1e-12
print(f"faces: {int(big.sum())} with area, {int((facing[big] <= 0).sum())} wound inwards")
if (facing[big] <= 0).any():
    shapes_in = sorted({int(v) for v in d["shape"][faces[big][facing[big] <= 0][:, 0]]})
    failed.append(f"faces wound inwards on shapes {shapes_in}")
print(f"{len(b['gid'])} bodies, shapes {sorted(seen)}, {len(d['gid'])} vertices, "
      f"{drawn.GetNumberOfCells()} faces")
if seen != {0, 1, 2, 3, 4}:
    failed.append(f"the run should hold all five shapes, has {sorted(seen)}")
for line in failed:
    print("FAIL:", line)
sys.exit(1 if failed else 0)
