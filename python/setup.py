"""Build of the libastar Python package: the C extension libastar._core is
compiled from the C library's own sources (../src, ../include), so the
package needs nothing installed but a C compiler and Python's headers.

    pip install --no-build-isolation ./python          (from the repository)
    python3 setup.py build --build-base DIR            (what `make test` does)

pip installs a wheel, and the command making it, bdist_wheel, comes with
setuptools >= 70.1 or, before that, with the `wheel` package (pyproject.toml
requires both, for builds that install them). --no-build-isolation builds
with what the interpreter has: Debian's setuptools 66 and python3-wheel. An
interpreter with an older setuptools and no `wheel` (pyenv's 3.11 with
setuptools 65.5) failed with "invalid command 'bdist_wheel'"; it now stops
with a message saying what is missing and which interpreter to use.

The library is compiled with its determinism flag (-ffp-contract=off: no
fused multiply-add, the same paths on every platform) and -O3, as CMake
builds it. Metadata is in pyproject.toml; the version is the C library's
(ASTAR_VERSION_STRING in include/astar/base.h).
"""
import glob
import importlib.util
import os
import re
import sys

import setuptools
from setuptools import Command, Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
os.chdir(HERE)  # pyproject.toml's paths are relative to it (pip runs us there too)
ROOT = os.path.dirname(HERE)
SRC = os.path.join(ROOT, "src")
INCLUDE = os.path.join(ROOT, "include")

if not os.path.isfile(os.path.join(INCLUDE, "astar", "astar.h")):
    raise SystemExit(
        "libastar: the C library's sources were not found beside python/ "
        f"({SRC}, {INCLUDE}); build the package from the libastar repository"
    )


def library_version():
    with open(os.path.join(INCLUDE, "astar", "base.h"), encoding="utf-8") as f:
        m = re.search(r'#define ASTAR_VERSION_STRING "([^"]+)"', f.read())
    if not m:
        raise SystemExit("libastar: ASTAR_VERSION_STRING not found in include/astar/base.h")
    return m.group(1)


# Paths relative to python/ (setuptools refuses absolute ones); the objects
# of ../src/X.c go to BUILD_TEMP/../src/X.o, inside the build directory.
library_sources = sorted(
    os.path.relpath(p, HERE) for p in glob.glob(os.path.join(SRC, "**", "*.c"), recursive=True)
)
headers = sorted(
    glob.glob(os.path.join(SRC, "**", "*.h"), recursive=True)
    + glob.glob(os.path.join(INCLUDE, "astar", "*.h"))
)

# ASTAR_PREBUILT_LIB=/path/libastar.a: link the static library CMake built
# (position-independent, -O3 -ffp-contract=off: the same code) instead of
# compiling the sources again -- what the `python` test of `make test`
# does, to spare CI a second build of the library. The library's symbols
# stay inside the extension (--exclude-libs), as -fvisibility=hidden keeps
# them when compiled here. pip and plain builds leave it unset.
prebuilt = os.environ.get("ASTAR_PREBUILT_LIB", "")
if prebuilt and not os.path.isfile(prebuilt):
    raise SystemExit(f"libastar: ASTAR_PREBUILT_LIB={prebuilt}: no such file")

core = Extension(
    "libastar._core",
    sources=["src/libastar/_core.c"] + ([] if prebuilt else library_sources),
    include_dirs=[INCLUDE, SRC],
    depends=headers + ([prebuilt] if prebuilt else []),  # relink when the library changes
    extra_compile_args=["-std=c11", "-O3", "-ffp-contract=off", "-fvisibility=hidden", "-pthread"],
    extra_objects=[prebuilt] if prebuilt else [],
    # -pthread: astar/batch.h's worker threads
    extra_link_args=["-pthread"] + (["-Wl,--exclude-libs,ALL"] if prebuilt else []),
    libraries=["m"],
)

class parallel_build_ext(build_ext):
    """build_ext compiling on every CPU unless told otherwise (-j N): the
    library is some 30 files, and pip passes no -j."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1


NO_BDIST_WHEEL = f"""libastar: pip cannot build the package with this Python:
  {sys.executable} (Python {sys.version.split()[0]}, setuptools {setuptools.__version__})
has no bdist_wheel command, which pip needs to build a wheel: it comes with
setuptools >= 70.1, or with the 'wheel' package for older setuptools, and
`pip install --no-build-isolation` installs neither. Either
  - use Debian's interpreter, whose setuptools and python3-wheel provide it
    (`sudo make python-deps` installs them; python/README.md):
        /usr/bin/python3 -m venv --system-site-packages ENV
        ENV/bin/pip install --no-build-isolation ./python
  - or install 'wheel' (or setuptools >= 70.1) into this Python,
  - or, where PyPI is reachable, drop --no-build-isolation (pip then builds
    with the setuptools and wheel pyproject.toml asks for)."""


class missing_bdist_wheel(Command):
    """Stands in for bdist_wheel where neither setuptools (< 70.1) nor the
    `wheel` package provides it: pip's metadata step asks for the command
    and would stop at "invalid command 'bdist_wheel'", which names neither
    the cause nor the way out. Plain `setup.py build` (make test) never
    uses it."""

    def initialize_options(self):
        raise SystemExit(NO_BDIST_WHEEL)

    def finalize_options(self):  # pragma: no cover - initialize_options stops first
        pass

    def run(self):  # pragma: no cover
        pass


commands = {"build_ext": parallel_build_ext}
if (importlib.util.find_spec("setuptools.command.bdist_wheel") is None
        and importlib.util.find_spec("wheel") is None):
    commands["bdist_wheel"] = missing_bdist_wheel

setup(
    version=library_version(),
    ext_modules=[core],
    cmdclass=commands,
)
