#!/usr/bin/env bash
# Determinism (docs/reliability.md): the same config, seed and rank count give
# bitwise identical outputs. The demo scenario (1000 frictional spheres,
# jittered lattice, APGD) runs twice on 1 and on 2 ranks with 2 OpenMP
# threads per rank, with VTK frames, the contact network and a checkpoint;
# every output file must be byte for byte the same, except the wall-clock
# measurements (timing.csv and the wall-time columns of metrics.csv, compared
# without those columns).
# Usage: determinism_test.sh SOURCE_DIR GRAINS_BINARY MPIEXEC
set -uo pipefail
SOURCE=$1
GRAINS=$2
MPIEXEC=$3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMP_NUM_THREADS=2
work=$(mktemp -d /tmp/grains_determinism.XXXXXX)
trap 'rm -rf "$work"' EXIT
failures=0
for np in 1 2; do
  for copy in a b; do
    "$MPIEXEC" -np "$np" --oversubscribe -x OMP_NUM_THREADS "$GRAINS" run \
      "$SOURCE/config/demo_settle.yaml" --steps 80 --output "$work/np${np}_$copy" -q \
      --set output.vtk_every=20 --set output.contact_network=true \
      --set output.checkpoint_every=80 || {
      echo "FAIL: run np=$np ($copy) failed"
      exit 1
    }
  done
  compared=0
  while IFS= read -r file; do
    case $file in
      ./timing.csv | ./metrics.csv) continue ;;
    esac
    compared=$((compared + 1))
    cmp -s "$work/np${np}_a/$file" "$work/np${np}_b/$file" || {
      echo "FAIL: np=$np: $file differs between two identical runs"
      failures=$((failures + 1))
    }
  done < <(cd "$work/np${np}_a" && find . -type f | sort)
  /usr/bin/python3 "$SOURCE/tests/support/same_metrics.py" "$work/np${np}_a/metrics.csv" \
    "$work/np${np}_b/metrics.csv" --rows 80 || failures=$((failures + 1))
  echo "np=$np, $OMP_NUM_THREADS threads per rank: $compared output files identical byte for byte," \
    "metrics.csv identical but for wall times"
done
if ((failures > 0)); then
  echo "$failures failure(s)"
  exit 1
fi
