#!/usr/bin/env bash
# The generated man pages (packaging/CMakeLists.txt) exist, are roff that groff reads without a
# warning, name their program, and pegsim-cli's lists every command its help lists.
#   check_man_pages.sh MAN_DIR PEGSIM_CLI [PEGSIM]
set -euo pipefail
dir=$1
cli=$2
gui=${3:-}
pages=("$dir/pegsim-cli.1")
[ -n "$gui" ] && pages+=("$dir/pegsim.1")
status=0
for page in "${pages[@]}"; do
  name=$(basename "$page" .1)
  if [ ! -s "$page" ]; then
    echo "$page: missing or empty"
    status=1
    continue
  fi
  warnings=$(groff -z -ww -man "$page" 2>&1 || true)
  if [ -n "$warnings" ]; then
    echo "$page: groff warns: $warnings"
    status=1
  fi
  grep -qF "$name \\- " "$page" || { echo "$page: no NAME line for $name"; status=1; }
done
# Every command of `pegsim-cli help` (the words starting its lines under "commands:").
while read -r command; do
  grep -qF -- "${command//-/\\-}" "$dir/pegsim-cli.1" ||
    { echo "pegsim-cli.1: command '$command' missing"; status=1; }
done < <("$cli" help | sed -n '/^commands:/,/^exit status/p' | grep -E '^  [a-z]' | awk '{print $1}' | sort -u)
[ $status -eq 0 ] && echo "man pages: ${#pages[@]} checked"
exit $status
