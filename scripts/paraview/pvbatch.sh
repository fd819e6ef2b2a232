#!/usr/bin/env bash
# Runs ParaView's pvbatch on a script of scripts/paraview/, headless.
#   scripts/paraview/pvbatch.sh [-n RANKS] SCRIPT.py [ARGS...]
# - Debian's pvbatch finds its Python modules in the folder that
#   scripts/install-deps.sh unpacked (GRAINS_PARAVIEW_DIR, default
#   /opt/grains/paraview); another ParaView (a cluster's module, a
#   Kitware binary) brings its own and is used as it is.
# - PVBATCH picks the pvbatch to run (default: the one on PATH).
# - Without an X display it runs under xvfb-run when that exists (Debian's
#   ParaView renders through X); ParaView builds with EGL or OSMesa need none.
# - -n RANKS runs it with mpirun on RANKS processes (each reads its own
#   pieces of a multi-rank run).
# Exits 77 when no pvbatch is found.
set -euo pipefail
ranks=0
if [[ ${1:-} == -n ]]; then
  ranks=$2
  shift 2
fi
PVBATCH=${PVBATCH:-$(command -v pvbatch || true)}
if [[ -z $PVBATCH ]]; then
  echo "pvbatch.sh: no pvbatch on PATH (Debian: scripts/install-deps.sh; a cluster: module load paraview)" >&2
  exit 77
fi
pv_python="${GRAINS_PARAVIEW_DIR:-/opt/grains/paraview}/usr/lib/python3/dist-packages"
if [[ $(readlink -f "$PVBATCH") == /usr/bin/* ]]; then
  if [[ ! -d $pv_python/paraview ]]; then
    echo "pvbatch.sh: Debian's pvbatch needs ParaView's Python in $pv_python: run scripts/install-deps.sh" >&2
    exit 1
  fi
  export PYTHONPATH="$pv_python${PYTHONPATH:+:$PYTHONPATH}"
fi
cmd=("$PVBATCH")
if ((ranks > 0)); then
  cmd=(mpirun -n "$ranks" "$PVBATCH" --mpi)
fi
if [[ -n ${DISPLAY:-} ]] || ! command -v xvfb-run >/dev/null; then
  exec "${cmd[@]}" "$@"
fi
# Under xvfb-run. -a searches a free display from -n on: a random start keeps
# runs that begin at the same moment (parallel tests, several users) apart.
# Now and then the new X server refuses the first connection ("bad X server
# connection", pvbatch aborts before doing anything): then try again.
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT
for attempt in 1 2 3; do
  status=0
  xvfb-run -a -n $((100 + RANDOM % 5000)) -s "-screen 0 1920x1080x24" "${cmd[@]}" "$@" \
    2> >(tee "$errors" >&2) || status=$?
  wait # for tee
  if ((status == 0)) || ! grep -q "bad X server connection" "$errors"; then
    exit "$status"
  fi
  echo "pvbatch.sh: the X server refused pvbatch (attempt $attempt of 3)" >&2
done
exit "$status"
