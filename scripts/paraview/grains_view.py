"""The grains view in ParaView: every body drawn as its own shape, coloured
by a point field; the walls half transparent; the contact network as tubes
whose thickness follows the normal force; the time.

Used by render.py (one PNG), animate.py (every output step, an MP4) and, in
the ParaView GUI, as a macro: Macros -> Import new macro... -> this file;
open a run's bodies.pvd, keep it selected, click "grains_view" in the
Macros toolbar. Only paraview.simple and properties that exist in ParaView
5.11 and newer, so it also runs with a cluster's own ParaView.

The bodies are drawn by a Programmable Filter (SHAPES_SCRIPT below): each
body point becomes the surface of its shape, placed by its centre and
orientation quaternion (docs/output.md):
  sphere (shape 0): radius r;  cylinder (1): radius r, half height h;
  spherocylinder (2): capsule with core segment 2h and radius r;
  ellipsoid (3): semi-axes (a, b, c) along the body x, y, z axes;
  torus (4): ring radius R (major_radius), tube radius r;
every shape's axis being the body z axis. It runs on each rank's own
pieces when pvbatch runs in parallel.
"""
import os

from paraview import simple as pv

# Kept as text: a saved ParaView state or an imported macro carries it along.
SHAPES_SCRIPT = r'''
import numpy as np
from vtkmodules.util import numpy_support as ns
from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonDataModel import vtkCellArray

AROUND = 20  # vertices around a ring; rows follow from it


def rotation_matrices(q):
    """Rotation matrices (N, 3, 3) of unit quaternions (w, x, y, z)."""
    q = q / np.linalg.norm(q, axis=1, keepdims=True)
    w, x, y, z = q.T
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
        np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
        np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1),
    ], -2)


def unit_sphere(rows):
    """(rows, AROUND, 3) points of a latitude-longitude grid, pole to pole."""
    theta = np.linspace(0.0, np.pi, rows)[:, None]
    phi = np.linspace(0.0, 2 * np.pi, AROUND, endpoint=False)[None, :]
    return np.stack([np.sin(theta) * np.cos(phi), np.sin(theta) * np.sin(phi),
                     np.cos(theta) * np.ones_like(phi)], -1)


def surfaces(shape, n, get):
    """Local points and normals (n, rows, AROUND, 3) of n bodies of a shape."""
    if shape in (0, 3):  # sphere, ellipsoid
        u = unit_sphere(2 * (AROUND // 4) + 1)[None]
        s = get("semi_axes") if shape == 3 else np.repeat(get("radius")[:, None], 3, 1)
        s = s[:, None, None, :]
        return s * u, u / s
    if shape == 2:  # capsule: two hemispheres, equator row doubled
        half = AROUND // 4 + 1
        u = unit_sphere(2 * half - 1)
        u = np.concatenate([u[:half], u[half - 1:]])[None]
        shift = np.where(np.arange(2 * half) < half, 1.0, -1.0)[None, :, None, None]
        r = get("radius")[:, None, None, None]
        h = get("half_length")[:, None, None, None]
        return r * u + h * shift * np.array([0, 0, 1.0]), np.broadcast_to(
            u, (n,) + u.shape[1:])
    phi = np.linspace(0.0, 2 * np.pi, AROUND, endpoint=False)
    ring = np.stack([np.cos(phi), np.sin(phi), np.zeros_like(phi)], -1)  # (AROUND, 3)
    r = get("radius")[:, None, None, None]
    if shape == 1:  # cylinder: top centre, top rim, side, bottom rim, bottom centre
        ez = np.array([0, 0, 1.0])
        z = np.array([1, 1, 1, -1, -1, -1.0])[None, :, None, None]
        radial = np.array([0, 1, 1, 1, 1, 0.0])[None, :, None, None]
        h = get("half_length")[:, None, None, None]
        points = r * radial * ring + h * z * ez
        normal = np.array([[0, 0, 1.0]] * 2 + [[0, 0, 0]] * 2 + [[0, 0, -1.0]] * 2)
        normals = normal[:, None, :] + np.array([0, 0, 1, 1, 0, 0.0])[:, None, None] * ring
        return points, np.broadcast_to(normals, points.shape)
    if shape == 4:  # torus: rows around the tube, columns around the ring
        # psi runs backwards so that the faces wind counter-clockwise seen
        # from outside, as on the other shapes (VTK lights back faces as such).
        psi = np.linspace(2 * np.pi, 0.0, AROUND // 2 + 1)[:, None, None]
        big = get("major_radius")[:, None, None, None]
        tube = np.cos(psi) * ring + np.sin(psi) * np.array([0, 0, 1.0])  # (rows, AROUND, 3)
        return big * ring + r * tube, np.broadcast_to(tube, (n,) + tube.shape)
    raise ValueError(f"unknown shape {shape} (docs/output.md: 0 sphere ... 4 torus)")


def quads(n, rows):
    """Connectivity of n grids of rows x AROUND points, periodic around."""
    i, j = np.meshgrid(np.arange(rows - 1), np.arange(AROUND), indexing="ij")
    nxt = (j + 1) % AROUND
    cell = np.stack([i * AROUND + j, (i + 1) * AROUND + j, (i + 1) * AROUND + nxt,
                     i * AROUND + nxt], -1).reshape(-1, 4)
    return (cell[None] + (np.arange(n) * rows * AROUND)[:, None, None]).reshape(-1, 4)


def draw(bodies, output):
    output.Initialize()  # the filter hands over a copy of the input's points and cells
    data = bodies.GetPointData()
    count = bodies.GetNumberOfPoints()
    centres = ns.vtk_to_numpy(bodies.GetPoints().GetData()) if count else np.zeros((0, 3))

    def array(name, rows=None):
        values = ns.vtk_to_numpy(data.GetArray(name))
        return values if rows is None else values[rows]

    shape_ids = array("shape") if count else np.zeros(0, int)
    points, normals, cells, owners = [], [], [], []
    offset = 0
    for shape in np.unique(shape_ids):
        rows_of = np.nonzero(shape_ids == shape)[0]
        local, normal = surfaces(int(shape), len(rows_of), lambda name: array(name, rows_of))
        rot = rotation_matrices(array("orientation", rows_of))
        world = np.einsum("nij,nrkj->nrki", rot, local) + centres[rows_of][:, None, None, :]
        normal = np.einsum("nij,nrkj->nrki", rot, normal)
        length = np.linalg.norm(normal, axis=-1, keepdims=True)
        normal = normal / np.where(length > 0, length, 1.0)
        rows = local.shape[1]
        points.append(world.reshape(-1, 3))
        normals.append(normal.reshape(-1, 3))
        cells.append(quads(len(rows_of), rows) + offset)
        owners.append(np.repeat(rows_of, rows * AROUND))
        offset += len(rows_of) * rows * AROUND
    points = np.concatenate(points) if points else np.zeros((0, 3))
    cells = np.concatenate(cells) if cells else np.zeros((0, 4), np.int64)
    owners = np.concatenate(owners) if owners else np.zeros(0, np.int64)

    vtk_points = vtkPoints()
    vtk_points.SetData(ns.numpy_to_vtk(np.ascontiguousarray(points, dtype=np.float64), deep=1))
    output.SetPoints(vtk_points)
    polys = vtkCellArray()
    polys.SetData(ns.numpy_to_vtk(np.arange(0, 4 * len(cells) + 1, 4, dtype=np.int64), deep=1),
                  ns.numpy_to_vtk(cells.astype(np.int64).ravel(), deep=1))
    output.SetPolys(polys)
    out_data = output.GetPointData()
    for k in range(data.GetNumberOfArrays()):
        source = data.GetArray(k)
        values = ns.vtk_to_numpy(source)
        copied = ns.numpy_to_vtk(np.ascontiguousarray(values[owners]), deep=1,
                                 array_type=source.GetDataType())
        copied.SetName(source.GetName())
        out_data.AddArray(copied)
    vtk_normals = ns.numpy_to_vtk(
        np.ascontiguousarray(np.concatenate(normals) if normals else np.zeros((0, 3))), deep=1)
    vtk_normals.SetName("Normals")
    out_data.SetNormals(vtk_normals)


draw(self.GetInput(), self.GetOutput())
'''

# Camera directions (from the focal point towards the camera), view up +z
# except from the top.
VIEWS = {
    "iso": ([1.0, -1.2, 0.8], [0, 0, 1]),
    "top": ([0.0, 0.0, 1.0], [0, 1, 0]),
    "front": ([0.0, -1.0, 0.0], [0, 0, 1]),
    "side": ([1.0, 0.0, 0.0], [0, 0, 1]),
}


def set_existing(proxy, **values):
    """Sets the properties the proxy has (names differ between versions)."""
    names = set(proxy.ListProperties())
    for name, value in values.items():
        if name in names:
            setattr(proxy, name, value)


def point_array_range(source, field):
    """(min, max) of a point field at the source's current time; vectors by magnitude."""
    info = source.GetPointDataInformation().GetArray(field)
    if info is None:
        return None
    return info.GetRange(-1 if info.GetNumberOfComponents() > 1 else 0)


def time_steps(reader):
    """The reader's physical times (one step comes back as a number)."""
    values = reader.TimestepValues
    try:
        times = [float(v) for v in values]
    except TypeError:
        times = [float(values)]
    return times or [0.0]


def nearest_time(times, t):
    """The output time closest to t."""
    return min(times, key=lambda s: abs(s - t))


class GrainsView:
    """The pipeline and display of one run in a render view."""

    def __init__(self, run_dir, field="velocity", view=None, bodies=None, walls=True,
                 network=True, size=(1200, 900)):
        self.run_dir = run_dir
        self.field = field
        self.size = list(size)
        if view is None:  # batch; in the GUI the window sets the size
            view = pv.GetActiveViewOrCreate("RenderView")
            view.ViewSize = self.size
        self.view = view
        self.view.Background = [1.0, 1.0, 1.0]
        set_existing(self.view, OrientationAxesVisibility=0, UseColorPaletteForBackground=0)
        self.bodies = bodies or pv.PVDReader(registrationName="bodies.pvd",
                                             FileName=os.path.join(run_dir, "bodies.pvd"))
        self.times = time_steps(self.bodies)
        self.bodies.UpdatePipeline(self.times[-1])
        fields = [self.bodies.PointData.GetArray(i).GetName()
                  for i in range(self.bodies.PointData.GetNumberOfArrays())]
        if field not in fields:
            raise SystemExit(f"no point field '{field}'; the bodies have: {', '.join(fields)}")

        self.shapes = pv.ProgrammableFilter(registrationName="shapes", Input=self.bodies)
        self.shapes.Script = SHAPES_SCRIPT
        set_existing(self.shapes, OutputDataSetType="vtkPolyData", CopyArrays=0)
        self.shapes_display = pv.Show(self.shapes, self.view)
        vector = self.bodies.PointData[field].GetNumberOfComponents() > 1
        pv.ColorBy(self.shapes_display, ("POINTS", field, "Magnitude") if vector
                   else ("POINTS", field))
        self.lut = pv.GetColorTransferFunction(field)
        set_existing(self.lut, AutomaticRescaleRangeMode="Never")
        # Viridis: saturated from end to end (cool-to-warm turns white in
        # the middle) and readable in grey print.
        self.lut.ApplyPreset("Viridis (matplotlib)", True)
        self.shapes_display.SetScalarBarVisibility(self.view, True)
        bar = pv.GetScalarBar(self.lut, self.view)
        set_existing(bar, Title=field + (" (magnitude)" if vector else ""), ComponentTitle="",
                     TitleColor=[0, 0, 0], LabelColor=[0, 0, 0], TitleFontSize=20,
                     LabelFontSize=18, ScalarBarLength=0.4)
        self.colour_range(*point_array_range(self.bodies, field))

        # Moving walls: walls.pvd holds them at each frame's time; still
        # walls: walls.vtp, drawn once.
        self.walls = None
        walls_series = os.path.join(run_dir, "walls.pvd")
        walls_file = os.path.join(run_dir, "walls.vtp")
        if walls and os.path.exists(walls_series):
            self.walls = pv.PVDReader(registrationName="walls.pvd", FileName=walls_series)
        elif walls and os.path.exists(walls_file):
            self.walls = pv.XMLPolyDataReader(registrationName="walls.vtp",
                                              FileName=[walls_file])
        if self.walls is not None:
            display = pv.Show(self.walls, self.view)
            display.ColorArrayName = ["POINTS", ""]  # one solid colour
            display.DiffuseColor = [0.6, 0.6, 0.65]
            display.AmbientColor = [0.6, 0.6, 0.65]
            display.Opacity = 0.2

        self.network = None
        network_file = os.path.join(run_dir, "contacts.pvd")
        if network and os.path.exists(network_file):
            contacts = pv.PVDReader(registrationName="contacts.pvd", FileName=network_file)
            # The tube radius follows point scalars: each contact line has
            # points of its own, so the cell force carries over exactly.
            forces = pv.CellDatatoPointData(registrationName="forces", Input=contacts)
            self.network = pv.Tube(registrationName="network", Input=forces)
            size = self.body_size()
            set_existing(self.network, Scalars=["POINTS", "normal_force"],
                         VaryRadius="By Scalar", Radius=0.05 * size, RadiusFactor=6.0,
                         NumberofSides=10, Capping=1)
            display = pv.Show(self.network, self.view)
            display.ColorArrayName = ["POINTS", ""]  # one solid colour
            display.DiffuseColor = [0.15, 0.15, 0.15]
            display.AmbientColor = [0.15, 0.15, 0.15]
            # The lines run through the bodies' centres: show them through.
            self.shapes_display.Opacity = 0.55

        self.time_text = pv.AnnotateTimeFilter(registrationName="time", Input=self.bodies)
        default_format = self.time_text.Format
        self.time_text.Format = ("Time: {time:.4g} s" if "{" in default_format
                                 else "Time: %.4g s")
        display = pv.Show(self.time_text, self.view)
        set_existing(display, WindowLocation="Upper Left Corner", FontSize=22, Color=[0, 0, 0])
        self.show_time(self.times[-1])

    def body_size(self):
        """The largest body radius of the last step (ellipsoids: their largest
        semi-axis), a scale for the tubes."""
        high = (point_array_range(self.bodies, "radius") or (0.0, 0.0))[1]
        return high if high > 0 else 1.0

    def colour_range(self, low, high):
        if high <= low:
            high = low + 1e-12
        self.lut.RescaleTransferFunction(low, high)
        opacity = pv.GetOpacityTransferFunction(self.field)
        opacity.RescaleTransferFunction(low, high)

    def colour_range_over(self, times):
        """Fixes the colours to the field's range over these times."""
        ranges = []
        for t in times:
            self.bodies.UpdatePipeline(t)
            ranges.append(point_array_range(self.bodies, self.field))
        self.colour_range(min(r[0] for r in ranges), max(r[1] for r in ranges))

    def show_time(self, t):
        self.view.ViewTime = t
        for source in (self.shapes, self.walls, self.network, self.time_text):
            if source is not None:
                source.UpdatePipeline(t)

    def frame(self, direction="iso", times=None):
        """Points the camera from a direction at everything the given times show
        (default: the first and last step), so that frames share one view."""
        times = times or [self.times[0], self.times[-1]]
        bounds = [1e300, -1e300] * 3
        for t in times:
            for source in (self.shapes, self.walls):
                if source is None:
                    continue
                source.UpdatePipeline(t)
                b = source.GetDataInformation().GetBounds()
                if b[0] > b[1]:
                    continue
                for k in range(3):
                    bounds[2 * k] = min(bounds[2 * k], b[2 * k])
                    bounds[2 * k + 1] = max(bounds[2 * k + 1], b[2 * k + 1])
        position, up = VIEWS[direction]
        centre = [(bounds[2 * k] + bounds[2 * k + 1]) / 2 for k in range(3)]
        self.view.CameraFocalPoint = centre
        self.view.CameraPosition = [c + p for c, p in zip(centre, position)]
        self.view.CameraViewUp = up
        self.view.ResetCamera(*bounds)
        # ResetCamera fits the bounding sphere: come closer to fill the picture.
        self.view.GetActiveCamera().Dolly(1.3)

    def save(self, path):
        pv.SaveScreenshot(path, self.view, ImageResolution=self.size)


def run_from_gui():
    """Macro: builds the view on the selected bodies.pvd of a run."""
    source = pv.GetActiveSource()
    name = getattr(source, "FileName", None) if source is not None else None
    if not name or not str(name).endswith("bodies.pvd"):
        raise RuntimeError("grains_view: open a run's bodies.pvd and select it first")
    grains = GrainsView(os.path.dirname(str(name)), view=pv.GetActiveViewOrCreate("RenderView"),
                        bodies=source)
    pv.Hide(source, grains.view)
    grains.frame("iso")
    # Start at the last step; the time toolbar steps through the run.
    scene = pv.GetAnimationScene()
    scene.UpdateAnimationUsingDataTimeSteps()
    scene.GoToLast()
    grains.show_time(grains.times[-1])
    pv.Render(grains.view)


if __name__ == "__main__":
    run_from_gui()
