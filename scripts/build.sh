#!/usr/bin/env bash
# Configures and builds grains (Release) in build/ (or $GRAINS_BUILD_DIR).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${GRAINS_BUILD_DIR:-$ROOT/build}"
JOBS="${GRAINS_JOBS:-$(nproc)}"
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build "$BUILD" -j "$JOBS"
