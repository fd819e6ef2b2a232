#!/usr/bin/python3
"""scripts/bench/qp_slow_contacts.py on the synthetic exported QP of
synthetic_qp.py, whose solution is known: one separating, one sticking and
one sliding contact. From gamma = 0 (0 iterations) the sticking and the
sliding contact miss (in their normal rows: the cone keeps |t| <= n / 2)
and are of another kind than at the solution, the separating one does not,
and the iterate is 100 % off in gamma and in A gamma; after 40 iterations
(the reference needs 20) nothing misses and every kind is found.
usage: qp_slow_contacts_test.py SOURCE_DIR"""
import os
import re
import subprocess
import sys
import tempfile

from synthetic_qp import write_three_contact_qp


def run(script, qp, iterations):
    out = subprocess.run(["/usr/bin/python3", script, qp, str(iterations)], check=True,
                         capture_output=True, text=True).stdout
    print(out)
    kinds = {}
    for line in out.splitlines():
        cells = line.split()
        if len(cells) == 4 and cells[0] in ("separating", "sticking", "sliding"):
            kinds[cells[0]] = (int(cells[1]), int(cells[2]))
    tangential = int(re.search(r"mostly in the tangential rows: (\d+)", out).group(1))
    other = re.search(r"of another kind than at the reference: (\d+) \(separating (\d+), "
                      r"sticking (\d+), sliding (\d+)", out)
    errors = [float(v) for v in re.findall(r"= ([0-9.e+-]+)", out)]
    return kinds, tangential, tuple(int(v) for v in other.groups()), errors


def main():
    script = os.path.join(sys.argv[1], "scripts", "bench", "qp_slow_contacts.py")
    failures = []

    def expect(what, ok):
        if not ok:
            failures.append(what)

    with tempfile.TemporaryDirectory() as tmp:
        qp = os.path.join(tmp, "qp")
        write_three_contact_qp(qp)
        kinds, tangential, other, errors = run(script, qp, 0)
        expect(f"kinds and misses at gamma = 0: {kinds}",
               kinds == {"separating": (1, 0), "sticking": (1, 1), "sliding": (1, 1)})
        expect(f"tangential misses at gamma = 0: {tangential}", tangential == 0)
        # gamma = 0 is a separating contact everywhere: the other two differ.
        expect(f"contacts of another kind at gamma = 0: {other}", other == (2, 0, 1, 1))
        expect(f"errors at gamma = 0: {errors}",
               len(errors) == 2 and all(abs(e - 1.0) < 1e-9 for e in errors))
        kinds, tangential, other, errors = run(script, qp, 40)
        expect(f"contacts of another kind after 40 iterations: {other}", other == (0, 0, 0, 0))
        expect(f"misses after 40 iterations: {kinds}",
               all(above == 0 for _, above in kinds.values()) and len(kinds) == 3)
        expect(f"errors after 40 iterations: {errors}",
               len(errors) == 2 and all(e < 1e-9 for e in errors))
    if failures:
        sys.exit("FAIL:\n  " + "\n  ".join(failures))
    print("qp_slow_contacts: all checks passed")


if __name__ == "__main__":
    main()
