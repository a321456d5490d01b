#!/usr/bin/env bash
# Builds the Debian package from a build tree (cpack, into a temporary folder: the tree's own
# files are left alone), unpacks it with dpkg-deb -x into a temporary root, and runs what it
# installed: pegsim-cli on an installed scene (the mesh scene, whose model file must come along)
# and pegsim under Xvfb on the installed robot scene (the Panda, whose URDF and meshes must come
# along), taking a screenshot; then checks the file types it declares and runs lintian on it.
#   check_package.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
source=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! cpack --config "$build/CPackConfig.cmake" -G DEB -B "$tmp/out" >"$tmp/cpack.log" 2>&1; then
  cat "$tmp/cpack.log"
  exit 1
fi
deb=$(ls "$tmp"/out/*.deb)
[ "$(dpkg-deb -f "$deb" Package)" = pegsim ] || { echo "$deb: not the pegsim package"; exit 1; }
dpkg-deb -x "$deb" "$tmp/root"
usr=$tmp/root/usr
status=0
for f in bin/pegsim-cli bin/pegsim share/applications/pegsim.desktop \
  share/icons/hicolor/scalable/apps/pegsim.svg share/man/man1/pegsim.1.gz share/man/man1/pegsim-cli.1.gz \
  share/mime/packages/pegsim.xml share/doc/pegsim/copyright share/doc/pegsim/changelog.gz \
  share/pegsim/scenes/hello_world.json share/pegsim/scenes/meshes/bracket.obj \
  share/pegsim/scenes/robots/panda_description/urdf/panda.urdf \
  share/pegsim/scenes/robots/panda_description/LICENSE share/pegsim/scenes/robots/NOTICE.md \
  share/pegsim/sweeps/gear_grasp.json share/doc/pegsim/README.md; do
  [ -e "$usr/$f" ] || { echo "the package lacks /usr/$f"; status=1; }
done
[ $status -eq 0 ] || exit 1
"$usr/bin/pegsim-cli" --version
"$usr/bin/pegsim-cli" run "$usr/share/pegsim/scenes/mesh_tumble.json" --steps 20 --quiet >"$tmp/run.txt"
# An installed sweep file finds its scene beside it (../scenes): every value's scene is checked.
"$usr/bin/pegsim-cli" sweep slurm "$usr/share/pegsim/sweeps/gear_grasp.json" --array 2 --out "$tmp/sweep" >/dev/null
grep -q "steps            20 of 20" "$tmp/run.txt" || { cat "$tmp/run.txt"; exit 1; }
"$source/tests/gui/with_xvfb.sh" "$usr/bin/pegsim" "$usr/share/pegsim/scenes/panda_push.json" \
  --steps 5 --screenshot "$tmp/shot.png" --quit >"$tmp/gui.txt" 2>&1 || { cat "$tmp/gui.txt"; exit 1; }
[ -s "$tmp/shot.png" ] || { echo "the unpacked pegsim wrote no screenshot"; cat "$tmp/gui.txt"; exit 1; }
# The file type of robot descriptions: a MIME database built from the installed definition
# gives *.urdf that type, and the desktop entry offers pegsim for it.
mkdir -p "$tmp/mime/packages"
cp "$usr/share/mime/packages/pegsim.xml" "$tmp/mime/packages/"
update-mime-database "$tmp/mime"
grep -q '^50:application/x-urdf+xml:\*\.urdf$' "$tmp/mime/globs2" ||
  { echo "the MIME database does not map *.urdf"; cat "$tmp/mime/globs2"; exit 1; }
grep -q '^MimeType=.*application/x-urdf+xml;' "$usr/share/applications/pegsim.desktop" ||
  { echo "the desktop entry does not open robot files"; exit 1; }
# Debian's checks: lintian reports no error (its warnings are printed).
command -v lintian >/dev/null || { echo "lintian is missing (scripts/install-deps.sh)"; exit 1; }
lintian --tag-display-limit 0 "$deb" >"$tmp/lintian.txt" 2>&1 || true
cat "$tmp/lintian.txt"
if grep -q '^E: ' "$tmp/lintian.txt"; then echo "lintian reports errors"; exit 1; fi
echo "package: $(basename "$deb") unpacked and run; lintian reports no error"
