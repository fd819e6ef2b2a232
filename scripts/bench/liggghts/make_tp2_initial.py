#!/usr/bin/env python3
"""Initial state of Heyn et al. (2013), Test Problem 2 for the grains-vs-LIGGGHTS benchmark.

Writes the same N sphere centres twice: bodies.csv (grains, bodies.generator.type
file) and tp2.data (LIGGGHTS read_data, atom_style granular). The spheres
(r = 0.1 m, density 1499.3 kg/m^3, i.e. m = 6.28 kg) sit on a loose simple
cubic lattice (spacing 0.25 m, gap 0.05 m) filled layer by layer inside the
cylinder of radius 2 m (centres within 1.75 m, lowest layer at z = 0.15 m),
each centre jittered by up to +-0.025 m per axis (seeded) so that the lattice
symmetry breaks; jitter never closes the 0.05 m gap, so nothing overlaps.

Usage: make_tp2_initial.py N OUT_DIR [SEED]
"""
import math
import os
import random
import sys

RADIUS = 0.1
MASS = 6.28
DENSITY = MASS / (4.0 / 3.0 * math.pi * RADIUS**3)
SPACING = 0.25
JITTER = 0.025
CENTRE_RADIUS = 1.75
Z0 = 0.15
BOX_HALF_SIDE = 2.1


def lattice(count, seed):
    rng = random.Random(seed)
    steps = int(CENTRE_RADIUS / SPACING)
    layer = [(i * SPACING, j * SPACING)
             for i in range(-steps, steps + 1) for j in range(-steps, steps + 1)
             if math.hypot(i * SPACING, j * SPACING) <= CENTRE_RADIUS - JITTER * math.sqrt(2)]
    centres = []
    k = 0
    while len(centres) < count:
        for x, y in layer:
            if len(centres) == count:
                break
            centres.append((x + rng.uniform(-JITTER, JITTER),
                            y + rng.uniform(-JITTER, JITTER),
                            Z0 + k * SPACING + rng.uniform(-JITTER, JITTER)))
        k += 1
    return centres


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    count = int(sys.argv[1])
    out = sys.argv[2]
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    if count <= 0:
        sys.exit(f"N = {count}: expected a positive number of spheres")
    os.makedirs(out, exist_ok=True)
    centres = lattice(count, seed)
    z_top = max(c[2] for c in centres) + 1.0
    with open(os.path.join(out, "bodies.csv"), "w") as f:
        f.write(f"# Heyn et al. (2013), Test Problem 2, N = {count}, seed {seed}; x, y, z in m\n")
        f.write("x, y, z\n")
        for x, y, z in centres:
            f.write(f"{x:.17g}, {y:.17g}, {z:.17g}\n")
    with open(os.path.join(out, "tp2.data"), "w") as f:
        f.write(f"Heyn et al. (2013), Test Problem 2, N = {count}, seed {seed}\n\n")
        f.write(f"{count} atoms\n1 atom types\n\n")
        f.write(f"{-BOX_HALF_SIDE} {BOX_HALF_SIDE} xlo xhi\n")
        f.write(f"{-BOX_HALF_SIDE} {BOX_HALF_SIDE} ylo yhi\n")
        f.write(f"-0.05 {z_top:.6f} zlo zhi\n\n")
        f.write("Atoms\n\n")
        for i, (x, y, z) in enumerate(centres, start=1):
            # atom_style granular: id type diameter density x y z
            f.write(f"{i} 1 {2 * RADIUS} {DENSITY:.10g} {x:.17g} {y:.17g} {z:.17g}\n")
    print(f"{count} spheres up to z = {z_top - 1.0:.3f} m -> {out}")


if __name__ == "__main__":
    main()
