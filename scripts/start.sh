#!/usr/bin/env bash
# Sets up, builds and starts pegsim on its default scene (cascading_polyhedra). Without a
# display it says so and runs the default scene headless with pegsim-cli instead.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
scene=scenes/cascading_polyhedra.json
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec build/release/src/gui/pegsim "$scene" "$@"
fi
echo "start: no display (DISPLAY and WAYLAND_DISPLAY are unset); running $scene headless with pegsim-cli" >&2
exec build/release/src/cli/pegsim-cli run "$scene" "$@"
