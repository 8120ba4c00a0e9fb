"""Build of the libastar Python package: the C extension libastar._core is
compiled from the C library's own sources (../src, ../include), so the
package needs nothing installed but a C compiler and Python's headers.

    pip install --no-build-isolation ./python          (from the repository)
    python3 setup.py build --build-base DIR            (what `make test` does)

The library is compiled with its determinism flag (-ffp-contract=off: no
fused multiply-add, the same paths on every platform) and -O3, as CMake
builds it. Metadata is in pyproject.toml; the version is the C library's
(ASTAR_VERSION_STRING in include/astar/base.h).
"""
import glob
import os
import re

from setuptools import Extension, setup
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


setup(
    version=library_version(),
    ext_modules=[core],
    cmdclass={"build_ext": parallel_build_ext},
)
