#!/usr/bin/env bash
# scripts/python-dist.sh -- `make python-dist`: the Python package's sdist
# and wheel, both in OUT (default build/python/dist), made from a clean copy
# of the working tree (the files git tracks or would track: no build
# folder, no egg-info, no stale state), offline:
#   1. python/setup.py sdist: the package with the C library and its tests
#      in repository/ (python/setup.py, VENDORED);
#   2. the wheel built by pip FROM THAT SDIST alone (what a user's
#      `pip install libastar-X.tar.gz` does), its module stripped;
#   3. python/wheeltag.py: the wheel's module checked against the
#      manylinux policy (libraries, glibc symbol versions) and retagged
#      manylinux_2_N (docs/python-guide.md, "Installing from one file").
# PYTHON (default /usr/bin/python3, Debian's: setuptools 66 + python3-wheel;
# scripts/python-deps.sh installs them) builds both.
#
#   scripts/python-dist.sh [OUT]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)
PY=${PYTHON:-/usr/bin/python3}
OUT=${1:-build/python/dist}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/astar-pydist.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# The parts of the repository the sdist takes (python/setup.py's VENDORED
# lists what it copies from them; it stops if one is missing).
PARTS=(python src include tests/data README.md docs/python-guide.md docs/python-api-map.md bench/python)
[[ -f LICENSE ]] && PARTS+=(LICENSE)
mkdir "$WORK/tree"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git ls-files -z -co --exclude-standard -- "${PARTS[@]}" | xargs -0 cp --parents -t "$WORK/tree"
else  # a release tarball: leave out what builds and tests leave behind
  tar -cf - --exclude=build --exclude='*.egg-info' --exclude=__pycache__ \
    --exclude=.pytest_cache "${PARTS[@]}" | tar -xf - -C "$WORK/tree"
fi

rm -f "$OUT"/libastar-*.tar.gz "$OUT"/libastar-*.whl
(cd "$WORK/tree/python" && "$PY" setup.py -q sdist -d "$OUT") >"$WORK/sdist.log" 2>&1 ||
  { cat "$WORK/sdist.log" >&2; exit 1; }
sdist=$(ls "$OUT"/libastar-*.tar.gz)

# The wheel from the sdist alone, in a folder of its own (pip unpacks the
# tarball in a temporary folder: no ../src to fall back on).
"$PY" -m pip wheel -q --no-index --no-build-isolation --no-deps --no-cache-dir \
  -w "$WORK/wheel" "$sdist"
"$PY" "$ROOT/python/wheeltag.py" "$WORK"/wheel/libastar-*.whl
mv "$WORK"/wheel/libastar-*.whl "$OUT/"
ls -l "$OUT"
