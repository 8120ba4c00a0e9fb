#!/usr/bin/env bash
# scripts/python-deps.sh -- installs the Debian packages the Python package
# (python/) is built and tested with, when any is missing: Debian's own
# interpreter and python3-dev (Python.h), python3-numpy, python3-pytest,
# python3-setuptools, python3-wheel (pip builds a wheel: Debian's setuptools,
# older than 70.1, takes the bdist_wheel command from it), python3-pip and
# python3-venv (for `pip install` into a virtual environment; .ci/run's
# python stage), and what the package's other tests and comparisons use
# when present: python3-scipy and python3-networkx (graphs from a CSR
# matrix or a networkx graph, the benchmark), python3-skimage (the
# benchmark) and python3-mypy (the type checks). Nothing comes
# from PyPI. Needs root (apt-get); `make python-deps` and .ci/run call it.
# With --test only the first five: what the `python` test of `make test`
# needs (it builds the extension with setup.py build, no wheel; make test
# calls it so).
#
#   scripts/python-deps.sh [--test]           install what is missing (quiet)
#   scripts/python-deps.sh --check [--test]   only say what is missing (exit 1 if anything)
set -euo pipefail

PACKAGES=(python3 python3-dev python3-numpy python3-pytest python3-setuptools)
EXTRA=(python3-wheel python3-pip python3-venv python3-scipy python3-networkx python3-skimage
  python3-mypy)
mode=install
for arg in "$@"; do
  case $arg in
    --check) mode=--check ;;
    --test) EXTRA=() ;;
    *)
      echo "usage: $0 [--check] [--test]" >&2
      exit 2
      ;;
  esac
done
if ! command -v dpkg-query >/dev/null; then
  echo "python packages: not a Debian system, not checked (the python test says what it lacks)"
  exit 0
fi
exec "$(dirname "${BASH_SOURCE[0]}")/debian-packages.sh" python "$mode" "${PACKAGES[@]}" \
  "${EXTRA[@]}"
