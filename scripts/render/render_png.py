#!/usr/bin/python3
"""Render one frame of a grains run to a PNG with VTK's own Python
(python3-vtk9), offscreen: every body drawn as its shape (spheres, capsules,
cylinders, ellipsoids, tori), coloured by a point field with a colour bar,
walls (walls.vtp) half transparent, the contact-force network (contacts.pvd)
as lines if the run wrote it.

Usage: render_png.py RUN_DIR [--step N] [--color-by FIELD] [--output FILE.png]
                     [--size WxH] [--view iso|top|front|side] [--no-walls] [--no-network]
RUN_DIR is a grains output directory (with bodies.pvd). FIELD is any point
array of the bodies (velocity, angular_velocity, contact_force_magnitude,
radius, gid, rank, ...); vectors are coloured by magnitude. Without an X
display the script runs itself again under xvfb-run (Debian: xvfb, xauth).
"""
import argparse
import math
import os
import re
import shutil
import sys
import xml.etree.ElementTree as ElementTree

SPHERE, CYLINDER, CAPSULE, ELLIPSOID, TORUS = range(5)


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", help="grains output directory (holds bodies.pvd)")
    parser.add_argument("--step", type=int, help="output step to draw (default: the last)")
    parser.add_argument("--color-by", default="velocity", help="point field (default velocity)")
    parser.add_argument("--output", default=None, help="PNG to write (default RUN_DIR/frame_<step>.png)")
    parser.add_argument("--size", default="1200x900", help="image size WxH (1200x900)")
    parser.add_argument("--view", default="iso", choices=["iso", "top", "front", "side"])
    parser.add_argument("--no-walls", action="store_true", help="do not draw walls.vtp")
    parser.add_argument("--no-network", action="store_true", help="do not draw contacts.pvd")
    args = parser.parse_args()
    if not re.fullmatch(r"[1-9][0-9]*x[1-9][0-9]*", args.size):
        parser.error(f"--size {args.size}: expected WxH, e.g. 1200x900")
    return args


def rerun_under_xvfb():
    """VTK's X11 render window needs a display even offscreen: provide one."""
    if os.environ.get("DISPLAY") or os.environ.get("GRAINS_RENDER_UNDER_XVFB"):
        return
    xvfb = shutil.which("xvfb-run")
    if xvfb is None:
        sys.exit("render_png: no X display and no xvfb-run (Debian packages xvfb, xauth)")
    env = dict(os.environ, GRAINS_RENDER_UNDER_XVFB="1")
    command = [xvfb, "-a", "-s", "-screen 0 1920x1080x24", sys.executable] + sys.argv
    os.execve(xvfb, command, env)


def series(run_dir, name):
    """(step, time, file) of every frame of RUN_DIR/<name>.pvd, by step."""
    path = os.path.join(run_dir, name + ".pvd")
    if not os.path.exists(path):
        return []
    frames = []
    for data_set in ElementTree.parse(path).getroot().iter("DataSet"):
        file = data_set.get("file")
        match = re.search(r"_(\d+)\.pvtp$", file)
        if match:
            frames.append((int(match.group(1)), float(data_set.get("timestep")), file))
    return sorted(frames)


def pick_frame(frames, step, run_dir):
    if not frames:
        sys.exit(f"render_png: no frames in {run_dir}/bodies.pvd (output.vtk_every = 0?)")
    if step is None:
        return frames[-1]
    for frame in frames:
        if frame[0] == step:
            return frame
    steps = ", ".join(str(f[0]) for f in frames[-10:])
    sys.exit(f"render_png: no frame of step {step} (last frames: {steps})")


def read_pvtp(vtk, path):
    reader = vtk.vtkXMLPPolyDataReader()
    reader.SetFileName(path)
    reader.Update()
    return reader.GetOutput()


def rotation(quaternion):
    """Rotation matrix rows of a unit quaternion (w, x, y, z)."""
    w, x, y, z = quaternion
    return [
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ]


def unit_sphere(vtk):
    """The sphere glyph (radius 0.5, scaled per body by its diameter)."""
    sphere = vtk.vtkSphereSource()
    sphere.SetThetaResolution(20)
    sphere.SetPhiResolution(14)
    sphere.Update()
    return sphere.GetOutput()


def body_geometry(vtk, shape, radius, half_length, semi_axes, major_radius):
    """One body's surface in body coordinates (centre at the origin, axis z)."""
    if shape == CAPSULE:
        source = vtk.vtkCapsuleSource()
        source.SetRadius(radius)
        source.SetCylinderLength(2 * half_length)
        source.SetThetaResolution(20)
        source.SetPhiResolution(12)
        rotate = True
    elif shape == CYLINDER:
        source = vtk.vtkCylinderSource()
        source.SetRadius(radius)
        source.SetHeight(2 * half_length)
        source.SetResolution(24)
        source.CappingOn()
        rotate = True
    elif shape == TORUS:
        torus = vtk.vtkParametricTorus()
        torus.SetRingRadius(major_radius)
        torus.SetCrossSectionRadius(radius)
        source = vtk.vtkParametricFunctionSource()
        source.SetParametricFunction(torus)
        source.SetUResolution(48)
        source.SetVResolution(16)
        rotate = False
    else:  # ellipsoid (sphere scaled by its semi-axes)
        source = vtk.vtkSphereSource()
        source.SetThetaResolution(24)
        source.SetPhiResolution(16)
        source.SetRadius(1.0)
        rotate = False
    source.Update()
    output = source.GetOutput()
    transform = vtk.vtkTransform()
    if rotate:
        transform.RotateX(90)  # VTK's cylinders and capsules stand along y
    if shape == ELLIPSOID:
        transform.Scale(*semi_axes)
    moved = vtk.vtkTransformPolyDataFilter()
    moved.SetTransform(transform)
    moved.SetInputData(output)
    moved.Update()
    return moved.GetOutput()


def scalar_of(array, index):
    if array.GetNumberOfComponents() == 1:
        return array.GetTuple1(index)
    return math.sqrt(sum(c * c for c in array.GetTuple(index)))


def bodies_actor(vtk, bodies, field):
    """All bodies as one PolyData with a per-body scalar, and the scalar range."""
    data = bodies.GetPointData()
    values = data.GetArray(field)
    if values is None:
        names = [data.GetArrayName(i) for i in range(data.GetNumberOfArrays())]
        sys.exit(f"render_png: no point field '{field}'; the bodies have: {', '.join(names)}")
    shape = data.GetArray("shape")
    radius = data.GetArray("radius")
    half_length = data.GetArray("half_length")
    semi_axes = data.GetArray("semi_axes")
    major_radius = data.GetArray("major_radius")
    orientation = data.GetArray("orientation")
    append = vtk.vtkAppendPolyData()
    # Spheres, usually most of the bodies: one glyph filter, scaled by radius.
    sphere_points = vtk.vtkPoints()
    sphere_radius = vtk.vtkDoubleArray()
    sphere_radius.SetName("radius")
    sphere_scalar = vtk.vtkDoubleArray()
    sphere_scalar.SetName("scalar")
    lo, hi = math.inf, -math.inf
    for i in range(bodies.GetNumberOfPoints()):
        value = scalar_of(values, i)
        lo, hi = min(lo, value), max(hi, value)
        kind = int(shape.GetTuple1(i))
        if kind == SPHERE:
            sphere_points.InsertNextPoint(bodies.GetPoint(i))
            sphere_radius.InsertNextValue(radius.GetTuple1(i))
            sphere_scalar.InsertNextValue(value)
            continue
        local = body_geometry(vtk, kind, radius.GetTuple1(i), half_length.GetTuple1(i),
                              semi_axes.GetTuple(i), major_radius.GetTuple1(i))
        matrix = vtk.vtkMatrix4x4()
        centre = bodies.GetPoint(i)
        rows = rotation(orientation.GetTuple(i))
        for r in range(3):
            for c in range(3):
                matrix.SetElement(r, c, rows[r][c])
            matrix.SetElement(r, 3, centre[r])
        transform = vtk.vtkTransform()
        transform.SetMatrix(matrix)
        placed = vtk.vtkTransformPolyDataFilter()
        placed.SetTransform(transform)
        placed.SetInputData(local)
        placed.Update()
        body = placed.GetOutput()
        scalar = vtk.vtkDoubleArray()
        scalar.SetName("scalar")
        scalar.SetNumberOfTuples(body.GetNumberOfPoints())
        scalar.Fill(value)
        body.GetPointData().SetScalars(scalar)
        append.AddInputData(body)
    if sphere_points.GetNumberOfPoints() > 0:
        centres = vtk.vtkPolyData()
        centres.SetPoints(sphere_points)
        centres.GetPointData().AddArray(sphere_radius)
        centres.GetPointData().AddArray(sphere_scalar)
        centres.GetPointData().SetActiveScalars("radius")
        glyphs = vtk.vtkGlyph3D()
        glyphs.SetInputData(centres)
        glyphs.SetSourceData(unit_sphere(vtk))
        glyphs.SetScaleModeToScaleByScalar()
        glyphs.SetScaleFactor(2.0)  # the unit sphere source has radius 0.5
        glyphs.OrientOff()
        glyphs.SetColorModeToColorByScalar()
        glyphs.Update()
        sphere_surface = glyphs.GetOutput()
        # Glyph3D copies the input's point data: colour by the body's scalar.
        sphere_surface.GetPointData().SetActiveScalars("scalar")
        append.AddInputData(sphere_surface)
    append.Update()
    surface = append.GetOutput()
    surface.GetPointData().SetActiveScalars("scalar")
    if not math.isfinite(lo):
        lo, hi = 0.0, 1.0
    if hi <= lo:
        hi = lo + 1.0
    return surface, (lo, hi)


def main():
    args = parse_args()
    rerun_under_xvfb()
    import vtk  # noqa: E402 (after the display is settled)

    step, time, file = pick_frame(series(args.run_dir, "bodies"), args.step, args.run_dir)
    bodies = read_pvtp(vtk, os.path.join(args.run_dir, file))
    if bodies.GetNumberOfPoints() == 0:
        sys.exit(f"render_png: step {step} has no bodies")
    surface, (lo, hi) = bodies_actor(vtk, bodies, args.color_by)

    renderer = vtk.vtkRenderer()
    renderer.SetBackground(1.0, 1.0, 1.0)
    lut = vtk.vtkLookupTable()
    lut.SetHueRange(0.667, 0.0)  # blue (low) to red (high)
    lut.SetTableRange(lo, hi)
    lut.Build()
    mapper = vtk.vtkPolyDataMapper()
    mapper.SetInputData(surface)
    mapper.SetLookupTable(lut)
    mapper.SetScalarRange(lo, hi)
    mapper.SetScalarModeToUsePointData()
    actor = vtk.vtkActor()
    actor.SetMapper(mapper)
    renderer.AddActor(actor)

    bar = vtk.vtkScalarBarActor()
    bar.SetLookupTable(lut)
    bar.SetTitle(args.color_by)
    bar.SetNumberOfLabels(5)
    bar.GetTitleTextProperty().SetColor(0, 0, 0)
    bar.GetLabelTextProperty().SetColor(0, 0, 0)
    bar.SetWidth(0.08)
    bar.SetHeight(0.6)
    bar.SetPosition(0.9, 0.2)
    renderer.AddActor2D(bar)

    walls_file = os.path.join(args.run_dir, "walls.vtp")
    if not args.no_walls and os.path.exists(walls_file):
        reader = vtk.vtkXMLPolyDataReader()
        reader.SetFileName(walls_file)
        walls_mapper = vtk.vtkPolyDataMapper()
        walls_mapper.SetInputConnection(reader.GetOutputPort())
        walls_mapper.ScalarVisibilityOff()
        walls = vtk.vtkActor()
        walls.SetMapper(walls_mapper)
        walls.GetProperty().SetColor(0.6, 0.6, 0.6)
        walls.GetProperty().SetOpacity(0.2)
        renderer.AddActor(walls)

    network = {f[0]: f for f in series(args.run_dir, "contacts")}
    if not args.no_network and step in network:
        lines = read_pvtp(vtk, os.path.join(args.run_dir, network[step][2]))
        if lines.GetNumberOfCells() > 0:
            lines_mapper = vtk.vtkPolyDataMapper()
            lines_mapper.SetInputData(lines)
            lines_mapper.ScalarVisibilityOff()
            network_actor = vtk.vtkActor()
            network_actor.SetMapper(lines_mapper)
            network_actor.GetProperty().SetColor(0.1, 0.1, 0.1)
            network_actor.GetProperty().SetLineWidth(2.0)
            renderer.AddActor(network_actor)

    title = vtk.vtkTextActor()
    title.SetInput(f"step {step}   t = {time:.6g} s   {bodies.GetNumberOfPoints()} bodies")
    title.GetTextProperty().SetColor(0, 0, 0)
    title.GetTextProperty().SetFontSize(18)
    title.SetPosition(10, 10)
    renderer.AddActor2D(title)

    camera = renderer.GetActiveCamera()
    bounds = surface.GetBounds()
    centre = [(bounds[0] + bounds[1]) / 2, (bounds[2] + bounds[3]) / 2, (bounds[4] + bounds[5]) / 2]
    direction = {"iso": (1.0, -1.2, 0.8), "top": (0, 0, 1), "front": (0, -1, 0), "side": (1, 0, 0)}
    d = direction[args.view]
    camera.SetFocalPoint(centre)
    camera.SetPosition([centre[k] + d[k] for k in range(3)])
    camera.SetViewUp((0, 1, 0) if args.view == "top" else (0, 0, 1))
    renderer.ResetCamera(bounds)  # frames the bodies (walls may extend beyond)
    camera.Zoom(1.1)

    width, height = (int(v) for v in args.size.split("x"))
    window = vtk.vtkRenderWindow()
    window.SetOffScreenRendering(1)
    window.SetSize(width, height)
    window.AddRenderer(renderer)
    window.Render()
    image = vtk.vtkWindowToImageFilter()
    image.SetInput(window)
    image.ReadFrontBufferOff()
    image.Update()
    output = args.output or os.path.join(args.run_dir, f"frame_{step:06d}.png")
    writer = vtk.vtkPNGWriter()
    writer.SetFileName(output)
    writer.SetInputConnection(image.GetOutputPort())
    writer.Write()
    print(f"wrote {output}: step {step}, t = {time:.6g} s, {bodies.GetNumberOfPoints()} bodies, "
          f"{args.color_by} in [{lo:.4g}, {hi:.4g}]")


if __name__ == "__main__":
    main()
