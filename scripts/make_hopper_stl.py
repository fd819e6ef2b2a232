#!/usr/bin/python3
"""Writes config/meshes/hopper.stl: a conical hopper with a round outlet under
a cylindrical section, as one open ASCII STL surface (config/mesh_hopper.yaml).

The cone runs from the outlet (radius OUTLET at z = 0) to the cylinder's
radius RADIUS at z = CONE_HEIGHT, the cylinder from there up to z = TOP.
Both are polygons of SEGMENTS sides, each side split into two triangles;
shared corners are written with the same digits so that they weld.

Usage: make_hopper_stl.py [OUTPUT]
"""
import math
import os
import sys

OUTLET = 0.015       # [m] outlet radius (5 grain diameters of 6 mm)
RADIUS = 0.04        # [m] cylinder radius
CONE_HEIGHT = 0.03   # [m]
TOP = 0.12           # [m]
SEGMENTS = 48


def ring(radius, z):
    return [(radius * math.cos(2 * math.pi * k / SEGMENTS),
             radius * math.sin(2 * math.pi * k / SEGMENTS), z) for k in range(SEGMENTS)]


def band(lower, upper):
    """Two triangles per side between two rings, normals pointing inwards."""
    out = []
    for k in range(SEGMENTS):
        a, b = lower[k], lower[(k + 1) % SEGMENTS]
        c, d = upper[(k + 1) % SEGMENTS], upper[k]
        out += [(a, d, b), (b, d, c)]
    return out


def normal(tri):
    (ax, ay, az), (bx, by, bz), (cx, cy, cz) = tri
    u = (bx - ax, by - ay, bz - az)
    v = (cx - ax, cy - ay, cz - az)
    n = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
    length = math.sqrt(sum(x * x for x in n))
    return tuple(x / length for x in n)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.path.normpath(os.path.join(here, "..", "config", "meshes", "hopper.stl"))
    path = sys.argv[1] if len(sys.argv) > 1 else default
    outlet, rim, top = ring(OUTLET, 0.0), ring(RADIUS, CONE_HEIGHT), ring(RADIUS, TOP)
    triangles = band(outlet, rim) + band(rim, top)
    fmt = lambda p: " ".join(f"{x:.7e}" for x in p)
    with open(path, "w") as f:
        f.write("solid hopper\n")
        for tri in triangles:
            f.write(f"  facet normal {fmt(normal(tri))}\n    outer loop\n")
            for p in tri:
                f.write(f"      vertex {fmt(p)}\n")
            f.write("    endloop\n  endfacet\n")
        f.write("endsolid hopper\n")
    print(f"{path}: {len(triangles)} triangles")


if __name__ == "__main__":
    main()
