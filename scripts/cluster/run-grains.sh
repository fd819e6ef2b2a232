#!/usr/bin/env bash
# The common part of the batch templates (scripts/slurm, scripts/pbs):
# runs `LAUNCHER... $GRAINS run $GRAINS_CONFIG --output $GRAINS_OUTPUT`,
# continuing from the newest checkpoint in the output directory if there is
# one, so a chain of jobs carries one run across wall-time limits.
# Usage: run-grains.sh LAUNCHER [LAUNCHER ARGS...]
# Environment: GRAINS (executable), GRAINS_CONFIG, GRAINS_OUTPUT, GRAINS_ARGS
# (extra words for `grains run`). Exit status: grains', or 0 when the run was
# already complete (a chain longer than needed).
set -euo pipefail
: "${GRAINS:?set GRAINS to the grains executable}"
: "${GRAINS_CONFIG:?set GRAINS_CONFIG to the scenario file}"
: "${GRAINS_OUTPUT:?set GRAINS_OUTPUT to the output directory}"
(($# >= 1)) || {
  echo "usage: $0 LAUNCHER [ARGS...]" >&2
  exit 2
}
if [[ ! -x $GRAINS ]]; then
  echo "run-grains: no executable at $GRAINS (set GRAINS)" >&2
  exit 2
fi

args=(run "$GRAINS_CONFIG" --output "$GRAINS_OUTPUT")
if compgen -G "$GRAINS_OUTPUT/checkpoint_*.h5" >/dev/null; then
  echo "run-grains: continuing from the newest checkpoint in $GRAINS_OUTPUT"
  args+=(--restart "$GRAINS_OUTPUT")
fi
# shellcheck disable=SC2206  # a list of words on purpose
args+=(${GRAINS_ARGS:-})

# grains' messages also go to a file, to tell "already complete" from a failure.
errlog=$(mktemp "${TMPDIR:-/tmp}/grains-stderr.XXXXXX")
trap 'rm -f "$errlog"' EXIT
echo "run-grains: $* $GRAINS ${args[*]} (OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset})"
status=0
"$@" "$GRAINS" "${args[@]}" 2> >(tee "$errlog" >&2) || status=$?
if ((status == 2)) && grep -q "nothing to do" "$errlog"; then
  echo "run-grains: the run in $GRAINS_OUTPUT is already complete"
  exit 0
fi
exit "$status"
