#!/usr/bin/env bash
# Lists C++ files that clang-format would change (exit 1 if any).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v clang-format >/dev/null; then
  echo "check-format: clang-format not found (Debian package clang-format; scripts/install-deps.sh installs it)" >&2
  exit 2
fi
bad=0
while IFS= read -r f; do
  if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "needs clang-format: $f"
    bad=1
  fi
done < <(git ls-files '*.cpp' '*.hpp')
exit $bad
