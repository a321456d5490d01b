#!/usr/bin/env bash
# Sets up (installs the Debian packages), configures and builds pegsim in build/release.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
