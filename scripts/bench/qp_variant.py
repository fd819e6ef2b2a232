#!/usr/bin/python3
"""Derive a variant of a contact QP written by `grains run --export-qp`.

    qp_variant.py SRC DST zero-friction   same QP with every mu set to 0
    qp_variant.py SRC DST pyramid         same QP and mu on the friction
                                          pyramid |g_u|, |g_w| <= mu g_n
    qp_variant.py SRC DST normal-only     the normal rows only, as a
                                          frictionless problem (block size 1)
    qp_variant.py SRC DST compliance R    A + eps I with eps = R times the
                                          mean normal diagonal of A: a contact
                                          compliance (docs/model.md), which
                                          lets contacts overlap by eps g_n
    qp_variant.py SRC DST tangential-compliance R
                                          eps added to the tangential rows
                                          alone, eps = R times their mean
                                          diagonal: friction that yields by
                                          eps g_t per step before it holds
                                          (the factored form, Dt.mtx and
                                          mobility.mtx, is left out: its
                                          regularisation is one number)

The variants let the solver laboratory (`grains qp solve DST ...`) separate
what friction costs a solver from what the normal problem costs, and the
cone's curvature from friction itself; see docs/performance.md and
docs/solvers.md. SRC must hold a problem with three rows per contact
(Coulomb or pyramid friction).
"""
import os
import re
import shutil
import sys

import numpy as np
import scipy.io
import scipy.sparse as sp


def read(path):
    """A sparse .mtx as CSR, a dense one as a 2-D array (scipy.io.mmread)."""
    m = scipy.io.mmread(path)
    return m.tocsr() if sp.issparse(m) else np.asarray(m)


def write(path, m):
    # At least 17 significant digits: every value reads back exactly.
    scipy.io.mmwrite(path, m, comment=" written by qp_variant.py", precision=17,
                     symmetry="general")


def set_meta(text, key, value):
    pattern = rf"^{key}: .*$"
    if not re.search(pattern, text, flags=re.M):
        sys.exit(f"qp_variant.py: problem.yaml has no '{key}:' line")
    return re.sub(pattern, f"{key}: {value}", text, flags=re.M)


def main():
    plain = len(sys.argv) == 4 and sys.argv[3] in ("zero-friction", "normal-only", "pyramid")
    compliant = len(sys.argv) == 5 and sys.argv[3] in ("compliance", "tangential-compliance")
    if not plain and not compliant:
        sys.exit(__doc__)
    src, dst, variant = sys.argv[1:4]
    with open(os.path.join(src, "problem.yaml")) as f:
        meta = f.read()
    block = int(re.search(r"^block_size: (\d+)$", meta, flags=re.M).group(1))
    if block != 3:
        sys.exit(f"qp_variant.py: {src}: block_size is {block}, expected 3")
    if os.path.exists(dst):
        sys.exit(f"qp_variant.py: {dst} exists; give a new directory")

    mu = read(os.path.join(src, "cones.mtx"))
    if variant == "zero-friction":
        shutil.copytree(src, dst)
        write(os.path.join(dst, "cones.mtx"), np.zeros_like(mu))
        return
    if variant == "pyramid":
        shutil.copytree(src, dst)
        with open(os.path.join(dst, "problem.yaml"), "w") as f:
            f.write(set_meta(meta, "model", "pyramid"))
        return

    if compliant:
        try:
            relative = float(sys.argv[4])
        except ValueError:
            sys.exit(f"qp_variant.py: {variant} '{sys.argv[4]}': expected a number")
        if not relative > 0:
            sys.exit(f"qp_variant.py: {variant} {relative}: expected a positive number")
        A = read(os.path.join(src, "A.mtx"))
    if variant == "tangential-compliance":
        eps = relative * float(np.mean(A.diagonal().reshape(-1, 3)[:, 1:]))
        added = np.zeros(A.shape[0])
        added.reshape(-1, 3)[:, 1:] = eps
        shutil.copytree(src, dst, ignore=shutil.ignore_patterns("Dt.mtx", "mobility.mtx"))
        write(os.path.join(dst, "A.mtx"), (A + sp.diags(added)).tocoo())
        print(f"{dst}: eps = {eps:.6g} on the tangential rows")
        return
    if variant == "compliance":
        eps = relative * float(np.mean(A.diagonal()[::3]))
        shutil.copytree(src, dst)
        write(os.path.join(dst, "A.mtx"), (A + eps * sp.identity(A.shape[0])).tocoo())
        # The factored form (Dt.mtx, mobility.mtx) adds the regularisation itself.
        old = float(re.search(r"^regularisation: (.*)$", meta, flags=re.M).group(1))
        with open(os.path.join(dst, "problem.yaml"), "w") as f:
            f.write(set_meta(meta, "regularisation", repr(old + eps)))
        print(f"{dst}: eps = {eps:.6g}")
        return

    # normal-only: keep the rows/columns of the normal unknowns (0, 3, 6, ...).
    os.makedirs(dst)
    A = read(os.path.join(src, "A.mtx"))
    n = A.shape[0] // 3
    write(os.path.join(dst, "A.mtx"), A[::3, ::3].tocoo())
    for name in ("b.mtx", "warm_start.mtx", "solution.mtx"):
        write(os.path.join(dst, name), read(os.path.join(src, name))[::3])
    write(os.path.join(dst, "cones.mtx"), np.zeros((mu.shape[0], 1)))
    meta = set_meta(meta, "model", "frictionless")
    meta = set_meta(meta, "block_size", "1")
    meta = set_meta(meta, "unknowns", str(n))
    with open(os.path.join(dst, "problem.yaml"), "w") as f:
        f.write(meta)


if __name__ == "__main__":
    main()
