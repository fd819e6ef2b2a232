#!/usr/bin/env bash
# scripts/bench/proximal_qp.py on a QP exported from the demo: the proximal
# point, plain and accelerated, solves the rigid problem although every inner
# solve is compliant, so both must reach the optimum APGD reaches on it (to a
# relative 1e-6), while the compliant problem's own optimum lies above it.
# usage: proximal_qp_test.sh SOURCE_DIR GRAINS
source "$(dirname "${BASH_SOURCE[0]}")/demo_qp.sh" "$@"
/usr/bin/python3 "$src/scripts/bench/qp_variant.py" "$qp" "$work/compliant" compliance 0.01 >/dev/null
rigid=$(objective "$qp" apgd)
compliant=$(objective "$work/compliant" apgd)
(cd "$src/scripts/bench" && /usr/bin/python3 proximal_qp.py "$qp" 0.01 1e-8) | tee "$work/out.txt"

/usr/bin/python3 - "$rigid" "$compliant" "$work/out.txt" <<'PY'
import re
import sys
rigid, compliant = float(sys.argv[1]), float(sys.argv[2])
found = dict(re.findall(r"^\s*(plain|accelerated): .* objective (\S+)$", open(sys.argv[3]).read(), re.M))
scale = abs(rigid)
checks = [("both variants report", set(found) == {"plain", "accelerated"}),
          ("the compliant optimum lies above the rigid one", compliant > rigid + 1e-4 * scale)]
checks += [(f"{name} reaches the rigid optimum ({value} against {rigid})",
            abs(float(value) - rigid) <= 1e-6 * scale) for name, value in found.items()]
for name, ok in checks:
    print(("ok   " if ok else "FAIL ") + name)
sys.exit(0 if all(ok for _, ok in checks) else 1)
PY
