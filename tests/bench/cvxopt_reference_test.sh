#!/usr/bin/env bash
# scripts/bench/cvxopt_reference.py on QPs exported by grains itself: every
# registered solver must reach cvxopt's optimum (relative objective difference
# <= 1e-6 at solver tolerance 1e-10) on
#   - a frictional pile (tests/bench/cvxopt_pile.yaml, Coulomb mu = 0.3, step
#     120: sticking and sliding contacts), the solvers that handle the cone;
#   - the same QP with mu = 0 (scripts/bench/qp_variant.py zero-friction), a
#     cone problem whose tangential impulses must vanish;
#   - step 120 of the same config with the pyramid model;
#   - the frictionless run of the same config, every solver.
# Then a negative control: solvers stopped at a loose tolerance report
# convergence, and the check must still reject their objectives.
# Exit 77 only if Debian's python3-cvxopt (or numpy/scipy) is missing.
# usage: cvxopt_reference_test.sh SOURCE_DIR GRAINS
set -euo pipefail
src=$1
grains=$2
PY=/usr/bin/python3
$PY -c "import cvxopt, numpy, scipy" 2>/dev/null || {
  echo "SKIPPED: python3-cvxopt, python3-numpy or python3-scipy is not installed"
  exit 77
}
work=$(mktemp -d /tmp/grains_cvxopt.XXXXXX)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1
config=$src/tests/bench/cvxopt_pile.yaml
check=$src/scripts/bench/cvxopt_reference.py

"$grains" run "$config" --output "$work/coulomb" --export-qp 120 "$work/qp_coulomb" -q
"$grains" run "$config" --output "$work/frictionless" --export-qp 120 "$work/qp_frictionless" -q \
  --set contact.friction=frictionless --set contact.mu=0
"$grains" run "$config" --output "$work/pyramid" --export-qp 120 "$work/qp_pyramid" -q \
  --set contact.friction=pyramid
$PY "$src/scripts/bench/qp_variant.py" "$work/qp_coulomb/step_120" "$work/qp_mu0" zero-friction

$PY "$check" --grains "$grains" --require-all "$work/qp_coulomb/step_120" "$work/qp_mu0" \
  "$work/qp_pyramid/step_120" "$work/qp_frictionless/step_120" | tee "$work/out.txt"

# The QPs must be the intended ones: a real Coulomb pile with sliding and
# sticking contacts, and Coulomb-only solvers skipped with their reason.
grep -Eq "coulomb, [0-9]+ contacts.*loaded contacts: [1-9][0-9]* sliding [^,]*, [1-9][0-9]* sticking" \
  "$work/out.txt" || {
  echo "FAIL: the Coulomb QP has no mix of sliding and sticking contacts"
  exit 1
}
while IFS=, read -r name direct fixed _; do
  rows=$(grep -c "^| $name | .* | yes | pass |$" "$work/out.txt" || true)
  expected=1
  [[ " $direct " == *" coulomb "* ]] && expected=$((expected + 2))
  [[ " $direct " == *" pyramid "* ]] && expected=$((expected + 1))
  if [[ $rows -ne $expected ]]; then
    echo "FAIL: $name passed $rows checks, expected $expected"
    exit 1
  fi
  if [[ " $fixed " == *" coulomb "* ]] && ! grep -q "^skip $name: reaches coulomb only through the Tresca-to-Coulomb" "$work/out.txt"; then
    echo "FAIL: $name (coulomb by fixed point) was not skipped with its reason"
    exit 1
  fi
done < <("$grains" qp solvers | tail -n +2)

# Negative control: at tolerance 1e-5 apgd and pgs stop early and say they
# converged; their objectives are off by more than 1e-6: the check must fail.
status=0
$PY "$check" --grains "$grains" --tolerance 1e-5 --solvers apgd,pgs \
  "$work/qp_coulomb/step_120" >"$work/loose.txt" || status=$?
cat "$work/loose.txt"
if [[ $status -ne 1 ]] || grep -q "| pass |$" "$work/loose.txt" ||
  ! grep -q "| yes | FAIL |$" "$work/loose.txt"; then
  echo "FAIL: the check accepted (or did not judge) objectives of solves stopped at tolerance 1e-5"
  exit 1
fi
echo "ok: every registered solver agrees with cvxopt; the loose-tolerance control is rejected"
