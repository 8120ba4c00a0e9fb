#!/usr/bin/env bash
# scripts/build-deps.sh -- installs the Debian packages a build needs beyond
# gcc, cmake and make, when any is missing. `make run` and `make test` need
# only libpng-dev and libcjson-dev (`astar render` writes PNG with libpng,
# `astar mapf --check` reads JSON with cJSON; the library itself needs
# nothing), and that is all this installs by default -- the README's Quick
# start lists them. The options add what other targets need:
#
#   --mpi             libopenmpi-dev + openmpi-bin: the MPI tool (`make mpi`,
#                     mpirun -np P astar precompute --method cpd, docs/scaling.md)
#   --install-checks  pkg-config: the pkg-config builds of tests/install/check.sh
#                     (.ci/run's install stage)
#
# Needs root (apt-get) only when something is missing; the Makefile's
# configure step, `make asan`, `make deps`, `make mpi` and .ci/run call it.
# On a system without dpkg it checks nothing: CMake then says what it cannot
# find.
#
#   scripts/build-deps.sh [--mpi] [--install-checks]           install what is missing (quiet)
#   scripts/build-deps.sh --check [--mpi] [--install-checks]   only say what is missing (exit 1 if anything)
set -euo pipefail

PACKAGES=(libpng-dev libcjson-dev)
mode=install
for arg in "$@"; do
  case $arg in
    --check) mode=--check ;;
    --mpi) PACKAGES+=(libopenmpi-dev openmpi-bin) ;;
    --install-checks) PACKAGES+=(pkg-config) ;;
    *)
      echo "usage: $0 [--check] [--mpi] [--install-checks]" >&2
      exit 2
      ;;
  esac
done
if ! command -v dpkg-query >/dev/null; then
  echo "build packages: not a Debian system, not checked (the build needs libpng and cJSON; MPI is optional)"
  exit 0
fi
exec "$(dirname "${BASH_SOURCE[0]}")/debian-packages.sh" build "$mode" "${PACKAGES[@]}"
