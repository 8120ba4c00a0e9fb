#!/usr/bin/env bash
# scripts/build-deps.sh -- installs the Debian packages the build needs
# beyond gcc, cmake and make, when any is missing: libpng-dev (`astar
# render` writes PNG with libpng; the library itself needs nothing),
# pkg-config (tests/install/check.sh builds against the installed astar.pc)
# and Open MPI, libopenmpi-dev + openmpi-bin (`mpirun -np P astar precompute
# --method cpd`, docs/scaling.md; the tool builds without it, CI needs it).
# Needs root (apt-get) only when something is missing; the Makefile's
# configure step, `make asan`, `make deps` and .ci/run call it. On a system
# without dpkg it checks nothing: CMake then says what it cannot find.
#
#   scripts/build-deps.sh           install what is missing (quiet)
#   scripts/build-deps.sh --check   only say what is missing (exit 1 if anything)
set -euo pipefail

PACKAGES=(libpng-dev pkg-config libopenmpi-dev openmpi-bin)
if ! command -v dpkg-query >/dev/null; then
  echo "build packages: not a Debian system, not checked (the build needs libpng and pkg-config; MPI is optional)"
  exit 0
fi
exec "$(dirname "${BASH_SOURCE[0]}")/debian-packages.sh" build "${1:-}" "${PACKAGES[@]}"
