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
# - PVBATCH_TIMEOUT=S (seconds, default 0: none) ends an attempt that has not
#   finished after S seconds, with every process it started, and starts it
#   again, up to PVBATCH_ATTEMPTS times in all (default 3). ParaView 5.11's
#   parallel pvbatch now and then deadlocks at its first render (rank 0
#   renders while the others wait for its next command; about 1 run in 20
#   on 2 ranks here, docs/visualisation.md), and a retry gets through.
# Exits 77 when no pvbatch is found, 124 when every attempt timed out.
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
timeout_s=${PVBATCH_TIMEOUT:-0}
attempts=${PVBATCH_ATTEMPTS:-3}
[[ $timeout_s =~ ^[0-9]+$ ]] || {
  echo "pvbatch.sh: PVBATCH_TIMEOUT is '$timeout_s'; expected whole seconds (0: no limit)" >&2
  exit 2
}
[[ $attempts =~ ^[1-9][0-9]*$ ]] || {
  echo "pvbatch.sh: PVBATCH_ATTEMPTS is '$attempts'; expected a whole number of at least 1" >&2
  exit 2
}

# Runs "$@" once; with a time limit, in a session of its own, whose every
# process (xvfb-run, Xvfb, mpirun, the pvbatch ranks) is ended when the limit
# passes: then returns 124. By session, not process group: mpirun puts each
# rank in a group of its own.
run_limited() {
  if ((timeout_s == 0)); then
    "$@"
    return
  fi
  local fired status=0
  fired=$(mktemp)
  rm -f "$fired"
  setsid "$@" &
  local pid=$!
  # Interrupted (Ctrl-C, a job's end), end the attempt's session too: it does
  # not receive the terminal's signals itself.
  trap 'pkill -TERM -s "$pid" 2>/dev/null; exit 130' INT TERM
  # The watchdog sleeps in the background so that ending it is immediate.
  (
    trap 'kill "$sleeper" 2>/dev/null; exit 0' TERM
    sleep "$timeout_s" &
    sleeper=$!
    wait "$sleeper"
    touch "$fired"
    pkill -TERM -s "$pid" || true
  ) &
  local watchdog=$!
  wait "$pid" || status=$?
  trap - INT TERM
  kill "$watchdog" 2>/dev/null || true
  wait "$watchdog" 2>/dev/null || true
  if [[ -e $fired ]]; then
    rm -f "$fired"
    sleep 2
    pkill -KILL -s "$pid" || true # what ignored the TERM
    return 124
  fi
  return "$status"
}

# One attempt: headless under xvfb-run where there is no display. -a searches a
# free display from -n on: a random start keeps runs that begin at the same
# moment (parallel tests, several users) apart. Now and then the new X server
# refuses the first connection ("bad X server connection", pvbatch aborts
# before doing anything): then the attempt is made again, at most twice.
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT
attempt_once() {
  if [[ -n ${DISPLAY:-} ]] || ! command -v xvfb-run >/dev/null; then
    run_limited "${cmd[@]}" "$@"
    return
  fi
  local status
  for x_attempt in 1 2 3; do
    status=0
    run_limited xvfb-run -a -n $((100 + RANDOM % 5000)) -s "-screen 0 1920x1080x24" \
      "${cmd[@]}" "$@" 2> >(tee "$errors" >&2) || status=$?
    wait # for tee
    if ((status == 0)) || ! grep -q "bad X server connection" "$errors"; then
      return "$status"
    fi
    echo "pvbatch.sh: the X server refused pvbatch (attempt $x_attempt of 3)" >&2
  done
  return "$status"
}

for ((attempt = 1; ; ++attempt)); do
  status=0
  attempt_once "$@" || status=$?
  if ((status != 124)) || ((timeout_s == 0)); then
    exit "$status"
  fi
  echo "pvbatch.sh: not finished after $timeout_s s (attempt $attempt of $attempts)" >&2
  ((attempt < attempts)) || exit 124
done
