#!/usr/bin/python3
"""Checks that PNG pictures have the expected size and are not blank.
Usage: png_stats.py WxH [--min-colours N] FILE.png [FILE.png ...]
Per file it prints the size, the share of drawn pixels (differing from the
white background), the share of coloured ones (saturated: the colour map,
unlike grey walls, black text and tubes) and the distinct colour bins among
those. Fails when the size differs, under 5 % of the pixels are drawn,
under 0.5 % are coloured, or fewer than N (default 4) colour bins show.
"""
import argparse
import sys

import vtk
from vtk.util.numpy_support import vtk_to_numpy

parser = argparse.ArgumentParser()
parser.add_argument("size")
parser.add_argument("--min-colours", type=int, default=4)
parser.add_argument("files", nargs="+")
args = parser.parse_args()
width, height = (int(v) for v in args.size.split("x"))
failed = False
for path in args.files:
    reader = vtk.vtkPNGReader()
    reader.SetFileName(path)
    reader.Update()
    image = reader.GetOutput()
    w, h, _ = image.GetDimensions()
    rgb = vtk_to_numpy(image.GetPointData().GetScalars()).reshape(h, w, -1)[:, :, :3].astype(int)
    drawn = (255 - rgb).max(axis=2) > 30
    coloured = (rgb.max(axis=2) - rgb.min(axis=2)) > 40
    bins = len({tuple(p // 32) for p in rgb[coloured][::7]})
    print(f"{path}: {w}x{h}, {100 * drawn.mean():.1f} % drawn, {100 * coloured.mean():.1f} % "
          f"coloured, {bins} colour bins")
    if (w, h) != (width, height) or drawn.mean() < 0.05 or coloured.mean() < 0.005 \
            or bins < args.min_colours:
        print(f"FAIL: {path} is not a {width}x{height} picture of the bodies")
        failed = True
sys.exit(1 if failed else 0)
