#!/usr/bin/env bash
# Builds pegsim with AddressSanitizer and UndefinedBehaviorSanitizer (the sanitize preset:
# clang, no GUI, in build/sanitize) and runs every non-GUI test under them. Any invalid memory
# access, leak or undefined behaviour fails the test that caused it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset sanitize >/dev/null
cmake --build --preset sanitize
ctest --preset sanitize -j2
