#!/usr/bin/env pvpython
"""Render the last frame of a grains run with ParaView's Python (pvpython):
bodies as glyphs (spheres scaled by radius; other shapes as their tensor
ellipsoid), coloured by a point field, walls half transparent, the contact
network if present; one PNG.

Usage: pvpython render.py RUN_DIR [FIELD] [OUTPUT.png]
       (FIELD default: velocity; OUTPUT default: RUN_DIR/paraview.png)
For the exact shape of every body use scripts/render/render_png.py (VTK's
Python), which CI tests; on Debian 12 pvpython (python3-paraview) cannot be
installed beside the build dependencies, so this script is kept to the same
few paraview.simple calls ParaView's own Python shell records.
"""
import os
import sys

from paraview.simple import (  # pvpython provides it
    ColorBy, GetActiveViewOrCreate, PVDReader, ResetCamera, SaveScreenshot, Show, TensorGlyph,
    XMLPolyDataReader,
)

run_dir = sys.argv[1] if len(sys.argv) > 1 else "."
field = sys.argv[2] if len(sys.argv) > 2 else "velocity"
output = sys.argv[3] if len(sys.argv) > 3 else os.path.join(run_dir, "paraview.png")

view = GetActiveViewOrCreate("RenderView")
view.Background = [1, 1, 1]
bodies = PVDReader(FileName=os.path.join(run_dir, "bodies.pvd"))
bodies.UpdatePipeline(max(bodies.TimestepValues or [0.0]))
view.ViewTime = max(bodies.TimestepValues or [0.0])

# Every shape as the ellipsoid of its shape_tensor (R diag(semi-axes) R^T):
# exact for spheres and ellipsoids, the bounding ellipsoid for the others.
# (the recipe of docs/output.md: eigenvalues x 2 x the source's radius 0.5)
glyphs = TensorGlyph(Input=bodies, GlyphType="Sphere")
glyphs.Tensors = ["POINTS", "shape_tensor"]
glyphs.ExtractEigenvalues = 1
glyphs.ScaleFactor = 2.0
glyphs.ClampScaling = 0
glyphs.ColorGlyphs = 0
display = Show(glyphs, view)
ColorBy(display, ("POINTS", field, "Magnitude"))
display.SetScalarBarVisibility(view, True)

walls_file = os.path.join(run_dir, "walls.vtp")
if os.path.exists(walls_file):
    walls = Show(XMLPolyDataReader(FileName=[walls_file]), view)
    walls.Opacity = 0.2
    ColorBy(walls, None)

network_file = os.path.join(run_dir, "contacts.pvd")
if os.path.exists(network_file):
    network = Show(PVDReader(FileName=network_file), view)
    ColorBy(network, ("CELLS", "normal_force"))
    network.LineWidth = 2.0

view.CameraPosition = [1, -1.2, 0.8]
view.CameraViewUp = [0, 0, 1]
ResetCamera(view)
SaveScreenshot(output, view, ImageResolution=[1200, 900])
print("wrote", output)
