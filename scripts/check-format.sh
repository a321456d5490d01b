#!/usr/bin/env bash
# Fails, listing the files, when a tracked C++ file drifts from .clang-format (clang-format 14,
# the version install-deps.sh installs). scripts/check-format.sh --fix formats them instead.
set -euo pipefail
cd "$(dirname "$0")/.."
format=clang-format-14
command -v "$format" >/dev/null || { echo "check-format: $format not found (scripts/install-deps.sh installs it)" >&2; exit 1; }
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.c')
if [ "${1:-}" = "--fix" ]; then
  "$format" -i "${files[@]}"
  exit 0
fi
drifting=()
for f in "${files[@]}"; do
  "$format" --dry-run --Werror "$f" >/dev/null 2>&1 || drifting+=("$f")
done
if [ ${#drifting[@]} -gt 0 ]; then
  echo "check-format: ${#drifting[@]} file(s) drift from .clang-format (scripts/check-format.sh --fix):" >&2
  printf '  %s\n' "${drifting[@]}" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files follow .clang-format"
