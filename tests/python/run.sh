#!/usr/bin/env bash
# tests/python/run.sh -- the `python` test of ctest: builds the Python package
# (python/) into BUILD/python/lib with Debian's interpreter and runs its
# pytest suite (python/tests) against it. Nothing is installed: the package
# is imported from the build directory (PYTHONPATH).
#
#   tests/python/run.sh SOURCE_DIR BUILD_DIR [PYTEST ARGS...]
#
# The interpreter is $ASTAR_PYTHON, else /usr/bin/python3 (Debian's, whose
# packages python3-dev, python3-numpy, python3-pytest and python3-setuptools
# the suite needs), else python3 on PATH. When one of them is missing the
# test is skipped: exit 77 (SKIP_RETURN_CODE) after a message saying which
# and how to install it. The environment passes on to the suite:
#   ASTAR_TOOL       the astar tool, for the parity tests (set by ctest)
#   ASTAR_MOVINGAI   the Moving AI folder for the conformance subset
#   ASTAR_REQUIRE_MOVINGAI=1   fail rather than skip without it (CI)
#   ASTAR_PREBUILT_LIB  CMake's libastar.a, linked into the extension instead
#                    of compiling the library again (set by ctest; the
#                    extension is then built with --force: one file, and
#                    never an older build of the other kind left in place)
# ASTAR_REQUIRE_PYTHON=1 turns the skip for a missing package into a
# failure (CI, which installs them).
set -uo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: $0 SOURCE_DIR BUILD_DIR [PYTEST ARGS...]" >&2
  exit 2
fi
SRC=$(cd "$1" && pwd) || exit 2
mkdir -p "$2/python" && BUILD=$(cd "$2" && pwd) || exit 2
shift 2

SKIP=77
[[ ${ASTAR_REQUIRE_PYTHON:-0} == 1 ]] && SKIP=1
PY=${ASTAR_PYTHON:-}
if [[ -z $PY ]]; then
  if [[ -x /usr/bin/python3 ]]; then PY=/usr/bin/python3; else PY=$(command -v python3 || true); fi
fi
if [[ -z $PY ]]; then
  echo "$([[ $SKIP == 1 ]] && echo error || echo skipped): python3 not found (apt-get install python3 python3-dev python3-numpy" \
    "python3-pytest python3-setuptools)"
  exit $SKIP
fi
if ! "$PY" -c pass 2>/dev/null; then
  echo "$([[ $SKIP == 1 ]] && echo error || echo skipped): $PY does not run"
  exit $SKIP
fi
missing=$("$PY" - <<'PYEOF'
import importlib.util, os, sysconfig
need = {"numpy": "python3-numpy", "pytest": "python3-pytest", "setuptools": "python3-setuptools"}
out = [pkg for mod, pkg in need.items() if importlib.util.find_spec(mod) is None]
if not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")):
    out.append("python3-dev")
print(" ".join(out))
PYEOF
)
if [[ -n $missing ]]; then
  echo "$([[ $SKIP == 1 ]] && echo error || echo skipped): $PY lacks $missing (apt-get install $missing; .ci/run installs them)"
  exit $SKIP
fi

echo "python: $PY ($("$PY" -c 'import sys, numpy, pytest; print(sys.version.split()[0], "numpy", numpy.__version__, "pytest", pytest.__version__)'))"
LOG=$BUILD/python/build.log
t0=$SECONDS
# setup.py build is incremental: only changed sources are compiled again.
if ! (cd "$SRC/python" && PYTHONDONTWRITEBYTECODE=1 "$PY" setup.py build \
  --build-base "$BUILD/python" --build-lib "$BUILD/python/lib" -j 2 \
  ${ASTAR_PREBUILT_LIB:+--force}) >"$LOG" 2>&1; then
  echo "error: building the extension failed ($LOG):" >&2
  tail -n 40 "$LOG" >&2
  exit 1
fi
echo "built the extension in $((SECONDS - t0)) s ($BUILD/python/lib)"

# No .pytest_cache or __pycache__ in the source tree.
export PYTHONPATH=$BUILD/python/lib${PYTHONPATH:+:$PYTHONPATH}
export PYTHONDONTWRITEBYTECODE=1
export ASTAR_SOURCE_DIR=$SRC
exec "$PY" -m pytest -p no:cacheprovider -q -rs "$SRC/python/tests" "$@"
