#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer run of the unit tests
# (docs/reliability.md): builds grains with -DGRAINS_SANITIZE=ON in
# build-asan/ (or $GRAINS_ASAN_BUILD_DIR), then runs every unit test, those
# that start the grains executable included, and the MPI tests on 1 and 2
# ranks. Any ASan or UBSan report fails the run (leaks: scripts/valgrind.sh).
# Usage: scripts/sanitize.sh [extra gtest arguments]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/install-deps.sh"
BUILD="${GRAINS_ASAN_BUILD_DIR:-$ROOT/build-asan}"
source "$ROOT/scripts/env.sh"
export OMP_NUM_THREADS=1
# Leaks are checked by scripts/valgrind.sh instead: LeakSanitizer's tracer
# crashes at exit next to Open MPI's progress threads ("Tracer caught signal 11").
export ASAN_OPTIONS="detect_leaks=0:exitcode=86:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=87"
# (Set before building: test discovery runs the sanitized test executable.)
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGRAINS_SANITIZE=ON >/dev/null
cmake --build "$BUILD" -j "${GRAINS_JOBS:-$(nproc)}" --target grains grains_unit_tests grains_mpi_tests
cd "$BUILD"
start=$(date +%s)
status=0
./tests/grains_unit_tests "$@" || status=$?
for np in 1 2; do
  mpirun -np "$np" --oversubscribe -x ASAN_OPTIONS -x UBSAN_OPTIONS \
    ./tests/grains_mpi_tests "$@" || status=$?
done
echo "sanitize.sh: unit tests and MPI tests (1, 2 ranks) under ASan+UBSan:" \
  "exit status $status after $(($(date +%s) - start)) s"
exit "$status"
