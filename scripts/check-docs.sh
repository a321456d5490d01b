#!/usr/bin/env bash
# Checks that the documentation points at things that exist: every relative link in README.md
# and docs/*.md resolves to a file of the repository, and every repository path they name in
# backticks (src/..., tests/..., scripts/..., fuzz/..., scenes/..., resources/..., docs/...,
# cmake/...) exists. Run by the test suite (Docs.PathsAndLinksExist); prints each broken one.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - <<'PY'
import glob, os, re, sys

files = ["README.md"] + sorted(glob.glob("docs/*.md"))
broken = []
for f in files:
    text = open(f, encoding="utf-8").read()
    base = os.path.dirname(f)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = os.path.normpath(os.path.join(base, target.split("#")[0]))
        if path.startswith("..") or not os.path.exists(path):
            broken.append(f"{f}: link {target}")
    for path in re.findall(r"`((?:src|tests|scripts|fuzz|scenes|resources|docs|cmake)/[^`\s]*)`", text):
        if any(c in path for c in "*<>{}") or os.path.exists(path.rstrip("/")):
            continue
        broken.append(f"{f}: path {path}")
for b in broken:
    print(b)
print(f"check-docs: {len(files)} files, {len(broken)} broken")
sys.exit(1 if broken else 0)
PY
