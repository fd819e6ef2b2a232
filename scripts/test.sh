#!/usr/bin/env bash
# The whole test suite: install dependencies, check the C++ formatting, build,
# run every test via CTest (MPI tests run with 1, 2 and 3 ranks).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/install-deps.sh"
# Formatting first: a format error fails in seconds, not after the build.
if ! "$ROOT/ci/check-format.sh"; then
  echo "test.sh: the files above differ from .clang-format; run clang-format -i on them" >&2
  exit 1
fi
"$ROOT/scripts/build.sh"
source "$ROOT/scripts/env.sh"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-2}"
cd "${GRAINS_BUILD_DIR:-$ROOT/build}"
ctest --output-on-failure -j 1 "$@"
