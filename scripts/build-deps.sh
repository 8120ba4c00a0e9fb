#!/usr/bin/env bash
# scripts/build-deps.sh -- installs the Debian packages the build needs
# beyond gcc, cmake and make, when any is missing: libpng-dev (`astar
# render` writes PNG with libpng; the library itself needs nothing) and
# pkg-config (tests/install/check.sh builds against the installed astar.pc).
# Needs root (apt-get) only when something is missing; the Makefile's
# configure step, `make asan`, `make deps` and .ci/run call it. On a system
# without dpkg it checks nothing: CMake then says what it cannot find.
#
#   scripts/build-deps.sh           install what is missing (quiet)
#   scripts/build-deps.sh --check   only say what is missing (exit 1 if anything)
set -euo pipefail

PACKAGES=(libpng-dev pkg-config)
if ! command -v dpkg-query >/dev/null; then
  echo "build packages: not a Debian system, not checked (the build needs libpng and pkg-config)"
  exit 0
fi
missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [[ ${#missing[@]} -eq 0 ]]; then
  echo "build packages: all installed (${PACKAGES[*]})"
  exit 0
fi
if [[ ${1:-} == --check ]]; then
  echo "build packages missing: ${missing[*]}"
  exit 1
fi
if [[ $(id -u) != 0 ]]; then
  echo "error: missing ${missing[*]}; install them as root:" >&2
  echo "       sudo apt-get install ${missing[*]}   (or: sudo make deps)" >&2
  exit 1
fi
echo "installing ${missing[*]}"
{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } \
  >/dev/null || {
  echo "error: could not install ${missing[*]} (apt-get needs the Debian mirrors)" >&2
  exit 1
}
