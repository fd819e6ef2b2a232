#!/usr/bin/env bash
# scripts/paraview/pvbatch.sh's time limit (PVBATCH_TIMEOUT, PVBATCH_ATTEMPTS)
# with a stand-in for pvbatch that hangs, with a child of its own, until a
# given attempt: an attempt that passes the limit is ended with every process
# it started (also those in process groups of their own) and made again; the run succeeds on the first attempt that
# finishes, exits 124 when none does, and refuses a malformed limit.
# Needs no ParaView. Usage: pvbatch_timeout_test.sh SOURCE_DIR
set -uo pipefail
pvbatch_sh="$1/scripts/paraview/pvbatch.sh"
work=$(mktemp -d -t grains_pvbatch_timeout.XXXXXX)
trap 'pkill -f "$work/" 2>/dev/null; rm -rf "$work"' EXIT
fake="$work/pvbatch"
cat >"$fake" <<'FAKE'
#!/usr/bin/env bash
# Attempt k (counted in $STATE) hangs while k < $SUCCEED_AT, else succeeds.
k=$(($(cat "$STATE" 2>/dev/null || echo 0) + 1))
echo "$k" >"$STATE"
if ((k < SUCCEED_AT)); then
  # A child in a process group of its own, as mpirun starts its ranks (and
  # not holding our output open): it must be ended too.
  set -m
  sleep 1000 >/dev/null 2>&1 &
  wait
fi
echo "fake pvbatch: attempt $k finished"
FAKE
chmod +x "$fake"
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
run() { # SUCCEED_AT ATTEMPTS TIMEOUT -> sets rc, attempts, err
  rm -f "$work/state"
  err=$(DISPLAY=:0 PVBATCH="$fake" STATE="$work/state" SUCCEED_AT=$1 PVBATCH_ATTEMPTS=$2 \
    PVBATCH_TIMEOUT=$3 "$pvbatch_sh" script.py 2>&1 >/dev/null)
  rc=$?
  attempts=$(cat "$work/state" 2>/dev/null || echo 0)
  sleep 0.5
  if pgrep -f "$work/" >/dev/null || pgrep -f "sleep 1000" >/dev/null; then
    fail "processes of an ended attempt are left: $(pgrep -af "$work/|sleep 1000")"
  fi
}

run 2 3 1
((rc == 0)) || fail "hang on attempt 1, success on 2: exit $rc, expected 0 ($err)"
((attempts == 2)) || fail "$attempts attempts, expected 2"
grep -q "not finished after 1 s (attempt 1 of 3)" <<<"$err" || fail "no retry message: $err"

run 99 2 1
((rc == 124)) || fail "every attempt hangs: exit $rc, expected 124"
((attempts == 2)) || fail "$attempts attempts, expected PVBATCH_ATTEMPTS = 2"

run 1 3 1
((rc == 0 && attempts == 1)) || fail "no hang: exit $rc after $attempts attempts, expected 0 after 1"

run 1 3 soon
((rc == 2)) || fail "PVBATCH_TIMEOUT=soon: exit $rc, expected 2"
grep -q "PVBATCH_TIMEOUT is 'soon'; expected whole seconds" <<<"$err" ||
  fail "message for PVBATCH_TIMEOUT=soon: $err"

if ((failures > 0)); then
  echo "$failures check(s) failed"
  exit 1
fi
echo "PASS: pvbatch.sh time limit"
