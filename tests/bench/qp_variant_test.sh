#!/usr/bin/env bash
# scripts/bench/qp_variant.py on a QP exported from the demo: the zero-friction
# variant and the normal-only (frictionless) variant are the same problem, so
# APGD and Kucera must reach the same optimum on them, and the Coulomb problem,
# minimised over a larger set, must reach at most that optimum; the pyramid
# variant, whose set holds the Coulomb cone, at most the Coulomb optimum, with
# APGD and PGS agreeing on it. The compliance variant (A + eps I) raises the
# Coulomb optimum, and APGD (on A.mtx) and PGS (on D^T, the mobility and the
# regularisation of problem.yaml) agree on it. The tangential-compliance
# variant adds eps to the tangential diagonal alone (the normal rows and every
# off-diagonal entry unchanged), raises the Coulomb optimum, and leaves out the
# factored form, which solvers that need it then refuse.
# usage: qp_variant_test.sh SOURCE_DIR GRAINS
source "$(dirname "${BASH_SOURCE[0]}")/demo_qp.sh" "$@"
/usr/bin/python3 "$src/scripts/bench/qp_variant.py" "$qp" "$work/mu0" zero-friction
/usr/bin/python3 "$src/scripts/bench/qp_variant.py" "$qp" "$work/normal" normal-only
/usr/bin/python3 "$src/scripts/bench/qp_variant.py" "$qp" "$work/pyramid" pyramid
grep -q "^model: pyramid$" "$work/pyramid/problem.yaml" || { echo "FAIL: no pyramid model"; exit 1; }
/usr/bin/python3 "$src/scripts/bench/qp_variant.py" "$qp" "$work/compliant" compliance 0.01
/usr/bin/python3 "$src/scripts/bench/qp_variant.py" "$qp" "$work/tangential" tangential-compliance 0.01
for bad in 0 -1 x; do
  for kind in compliance tangential-compliance; do
    if /usr/bin/python3 "$src/scripts/bench/qp_variant.py" "$qp" "$work/bad" "$kind" "$bad" 2>/dev/null; then
      echo "FAIL: $kind $bad was accepted"; exit 1
    fi
  done
done
if [[ -e "$work/tangential/Dt.mtx" || -e "$work/tangential/mobility.mtx" ]]; then
  echo "FAIL: the tangential-compliance variant kept the factored form"; exit 1
fi
if "$grains" qp solve "$work/tangential" --solver pgs --tolerance 1e-6 >/dev/null 2>&1; then
  echo "FAIL: pgs solved the tangential-compliance variant without D^T"; exit 1
fi
/usr/bin/python3 - "$qp" "$work/tangential" <<'PY' || exit 1
import sys
import numpy as np
import scipy.io
import scipy.sparse as sp
a = scipy.io.mmread(sys.argv[1] + "/A.mtx").tocsr()
t = scipy.io.mmread(sys.argv[2] + "/A.mtx").tocsr()
eps = 0.01 * np.mean(a.diagonal().reshape(-1, 3)[:, 1:])
expected = a + sp.diags(np.tile([0.0, eps, eps], a.shape[0] // 3))
difference = abs(t - expected).max()
if difference != 0:
    sys.exit(f"FAIL: tangential-compliance A differs from A + eps on the tangential diagonal "
             f"by {difference:.3e}")
print(f"ok   tangential-compliance adds eps = {eps:.4g} to the tangential diagonal alone")
PY
if /usr/bin/python3 "$src/scripts/bench/qp_variant.py" "$qp" "$work/normal" normal-only 2>/dev/null; then
  echo "FAIL: an existing destination was overwritten"; exit 1
fi

coulomb=$(objective "$qp" apgd)
mu0=$(objective "$work/mu0" apgd)
normal_apgd=$(objective "$work/normal" apgd)
normal_kucera=$(objective "$work/normal" kucera)
pyramid_apgd=$(objective "$work/pyramid" apgd)
pyramid_pgs=$(objective "$work/pyramid" pgs)
compliant_apgd=$(objective "$work/compliant" apgd)
compliant_pgs=$(objective "$work/compliant" pgs)
tangential_apgd=$(objective "$work/tangential" apgd)
echo "objectives: coulomb $coulomb, mu=0 $mu0, normal-only apgd $normal_apgd, kucera $normal_kucera," \
  "pyramid apgd $pyramid_apgd, pgs $pyramid_pgs, compliant apgd $compliant_apgd, pgs $compliant_pgs," \
  "tangential-compliance apgd $tangential_apgd"

/usr/bin/python3 - "$coulomb" "$mu0" "$normal_apgd" "$normal_kucera" "$pyramid_apgd" "$pyramid_pgs" \
  "$compliant_apgd" "$compliant_pgs" "$tangential_apgd" <<'PY'
import sys
(coulomb, mu0, normal_apgd, normal_kucera, pyramid_apgd, pyramid_pgs, compliant_apgd,
 compliant_pgs, tangential_apgd) = map(float, sys.argv[1:])
scale = max(abs(mu0), 1e-30)
checks = [
    ("the demo step has contacts to solve", mu0 < 0.0),
    ("mu=0 and normal-only agree (apgd)", abs(mu0 - normal_apgd) <= 1e-6 * scale),
    ("normal-only: apgd and kucera agree", abs(normal_apgd - normal_kucera) <= 1e-6 * scale),
    ("friction lowers the optimum", coulomb < mu0 - 1e-6 * scale),
    ("pyramid: apgd and pgs agree", abs(pyramid_apgd - pyramid_pgs) <= 1e-6 * scale),
    ("the pyramid holds the cone: its optimum is at most the cone's",
     pyramid_apgd <= coulomb + 1e-6 * scale),
    ("compliance raises the optimum", compliant_apgd > coulomb + 1e-6 * scale),
    ("compliance: apgd and pgs agree", abs(compliant_apgd - compliant_pgs) <= 1e-6 * scale),
    ("tangential compliance raises the optimum", tangential_apgd > coulomb + 1e-6 * scale),
    ("tangential compliance keeps friction: its optimum is below mu = 0's",
     tangential_apgd < mu0 - 1e-6 * scale),
]
failed = [name for name, ok in checks if not ok]
for name, ok in checks:
    print(("ok   " if ok else "FAIL ") + name)
sys.exit(1 if failed else 0)
PY
