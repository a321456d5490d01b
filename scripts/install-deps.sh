#!/usr/bin/env bash
# Installs every Debian package pegsim needs for the whole roadmap (idempotent).
# Run as root, or with sudo available.
set -euo pipefail

packages=(
  # build tools
  build-essential cmake ninja-build pkg-config
  # engine
  libeigen3-dev libqhull-dev
  # io
  nlohmann-json3-dev libhdf5-dev libassimp-dev liburdfdom-dev
  # real model files in many formats for the mesh import tests
  assimp-testmodels
  # external frictional-contact problems (FCLib) for compare-solvers
  libfclib-dev
  # gui
  qt6-base-dev qt6-3d-dev qt6-charts-dev libqt6opengl6-dev libgl-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev
  # headless GUI tests
  xvfb xauth libgl1-mesa-dri mesa-utils
  # sanitizers and fuzzing (the sanitize preset, scripts/fuzz.sh): clang, its runtimes and
  # llvm-symbolizer for readable stack traces
  clang-14 libclang-rt-14-dev llvm-14
  # the formatting check (scripts/check-format.sh, .clang-format)
  clang-format-14
  # the cluster path of `pegsim-cli sweep`: a one-node Slurm cluster in the tests
  slurmctld slurmd slurm-client munge
  # packaging: man pages from the programs' help (help2man), the desktop entry's check, the
  # MIME database tool and Debian's package checker
  help2man desktop-file-utils shared-mime-info lintian
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo_cmd=(sudo)
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
