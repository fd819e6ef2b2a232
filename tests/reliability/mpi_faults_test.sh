#!/usr/bin/env bash
# MPI faults (docs/reliability.md): an error on one rank ends every rank
# promptly with the message printed once, never a hang. Injected with
# GRAINS_FAULT_INJECTION on the last rank of 2- and 3-rank runs:
#   throw  an exception on that rank only (the others wait in collectives)
#   exit   that rank's process ends without MPI_Finalize
#   nan    a NaN velocity on that rank, detected collectively; the emergency
#          checkpoint then restarts and reproduces an uninterrupted run
# Usage: mpi_faults_test.sh GRAINS_BINARY MPIEXEC
set -uo pipefail
GRAINS=$1
MPIEXEC=$2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
export OMPI_MCA_rmaps_base_oversubscribe=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

cat >"$work/pile.yaml" <<'YAML'
simulation: {dt: 0.005, steps: 8}
bodies:
  radius: 0.1
  mass: 1.0
  generator: {type: lattice, count: 27, spacing: 0.2,
              region: {type: box, min: [0, 0, 0], max: [0.6, 0.6, 0.6]}}
walls: [{type: plane, point: [0, 0, 0], normal: [0, 0, 1]}]
solver: {name: bbpgd, tolerance: 1.0e-8, max_iterations: 500}
output: {log_every: 1}
YAML

# Runs grains on $1 ranks with fault $2 (may be empty), output $3, extra args;
# sets $status, $elapsed (s) and the log in $work/$3.log.
run() {
  local np=$1 fault=$2 out=$3
  shift 3
  local start end
  start=$(date +%s%N)
  GRAINS_FAULT_INJECTION="$fault" timeout 120 "$MPIEXEC" -np "$np" --oversubscribe \
    -x GRAINS_FAULT_INJECTION "$GRAINS" run "$work/pile.yaml" --output "$work/$out" \
    "$@" >"$work/$out.log" 2>&1
  status=$?
  end=$(date +%s%N)
  elapsed=$(((end - start) / 1000000000))
}

# metrics.csv of two runs agree in every column but the wall-time ones.
same_metrics() {
  /usr/bin/python3 "$(dirname "$0")/../support/same_metrics.py" "$1" "$2"
}

for np in 2 3; do
  rank=$((np - 1))
  for kind in throw exit nan; do
    name="${kind}_np$np"
    run "$np" "$kind@4:$rank" "$name" --overwrite
    log="$work/$name.log"
    summary="np=$np $kind@4:$rank: exit $status after ${elapsed}s"
    if ((status == 124)); then
      fail "$summary: hung (killed by timeout)"
      continue
    fi
    ((status != 0)) || fail "$summary: exit status 0"
    ((elapsed <= 60)) || fail "$summary: took ${elapsed}s (> 60 s)"
    grep -q "^step 3/8" "$log" || fail "$summary: steps before the fault did not run"
    if grep -q "^step 4/8" "$log"; then fail "$summary: step 4 completed"; fi
    if grep -q "^done:" "$log"; then fail "$summary: reported done"; fi
    messages=$(grep -c "grains: error" "$log")
    echo "$summary, $messages grains error line(s)"
    sed -n '/grains: error/p' "$log" | head -2
    case $kind in
      throw)
        ((messages == 1)) || fail "$summary: $messages error messages (want 1)"
        grep -q "grains: error (rank $rank): injected fault" "$log" ||
          fail "$summary: message does not name rank $rank"
        ;;
      exit)
        # The rank vanished without a word; mpirun reports it and ends the rest.
        ((messages == 0)) || fail "$summary: $messages grains messages (want 0)"
        ;;
      nan)
        ((messages == 1)) || fail "$summary: $messages error messages (want 1)"
        grep -q "non-finite state after step 4: body [0-9]* has a non-finite velocity on rank $rank" \
          "$log" || fail "$summary: message lacks body, step or rank"
        checkpoint="$work/$name/emergency_checkpoint_00000003.h5"
        if [[ -f $checkpoint ]]; then
          run "$np" "" "clean_np$np" --overwrite
          ((status == 0)) || fail "np=$np: clean run failed"
          run "$np" "" "$name" --restart "$checkpoint"
          ((status == 0)) || fail "$summary: restart from the emergency checkpoint failed"
          same_metrics "$work/clean_np$np/metrics.csv" "$work/$name/metrics.csv" ||
            fail "$summary: the restarted run differs from an uninterrupted one"
        else
          fail "$summary: no emergency checkpoint $checkpoint"
        fi
        ;;
    esac
  done
done
if ((failures > 0)); then
  echo "$failures failure(s)"
  exit 1
fi
echo "all MPI fault injections ended every rank promptly"
