#!/usr/bin/python3
"""scripts/bench/anderson_qp.py on a Coulomb QP exported from the demo (step
150, 1000 spheres falling onto the floor): the Anderson-accelerated projected
gradient must reach a natural residual of 1e-8 within its iteration cap and
the optimum apgd reaches (`grains qp solve`, tolerance 1e-9) to a relative
1e-6, with and without the extrapolation (m = 0 is plain projected gradient),
and the table's command line must print a converged count for that QP.
usage: anderson_qp_test.py SOURCE_DIR GRAINS"""
import os
import sys
import tempfile


def main(source, grains):
    sys.path.insert(0, os.path.join(source, "scripts", "bench"))
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from anderson_qp import anderson  # noqa: E402
    from qp_study_support import (apgd_optimum, check_optimum, check_table_row, export_demo_qp,
                                  finish)

    failures = []
    with tempfile.TemporaryDirectory() as work:
        qp = export_demo_qp(source, grains, work)
        optimum = apgd_optimum(source, grains, qp)
        for memory in (5, 0):
            applies, objective = anderson(qp, 1e-8, memory, 1.9 if memory else 1.0, 20000)
            check_optimum(f"m = {memory}", applies, objective, optimum, failures)
        check_table_row(source, grains, "anderson_qp.py",
                        ["--tolerances", "1e-6", "--memories", "5", f"demo={qp}"],
                        "| demo | 1e-06 |", "(cap)", failures)
    finish("anderson_qp_test", failures)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
