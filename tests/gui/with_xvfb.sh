#!/usr/bin/env bash
# Runs a command under a private Xvfb server. Xvfb picks a free display number itself
# (-displayfd), so parallel tests (ctest -j) never race for the same display.
set -u
dir=$(mktemp -d)
Xvfb -displayfd 3 -screen 0 1600x1200x24 -nolisten tcp 3>"$dir/display" 2>"$dir/xvfb.log" &
xvfb=$!
for _ in $(seq 200); do
  [ -s "$dir/display" ] && break
  kill -0 "$xvfb" 2>/dev/null || { cat "$dir/xvfb.log" >&2; echo "with_xvfb: Xvfb did not start" >&2; exit 1; }
  sleep 0.05
done
[ -s "$dir/display" ] || { echo "with_xvfb: Xvfb gave no display" >&2; kill "$xvfb"; exit 1; }
export DISPLAY=":$(head -n1 "$dir/display")"
unset WAYLAND_DISPLAY
# Qt3D needs OpenGL: Mesa's software rasterizer (llvmpipe) on the X server.
export QT_QPA_PLATFORM=xcb LIBGL_ALWAYS_SOFTWARE=1
"$@"
status=$?
kill "$xvfb" 2>/dev/null
wait "$xvfb" 2>/dev/null
rm -rf "$dir"
exit $status
