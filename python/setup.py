"""Build of the libastar Python package: the C extension libastar._core is
compiled from the C library's own sources, so the package needs nothing
installed but a C compiler, Python's headers and setuptools (>= 58: the
build runs with the setuptools of every CPython >= 3.9, offline).

    pip install --no-index --no-build-isolation libastar-X.tar.gz   (the sdist)
    pip install --no-build-isolation ./python         (from the repository)
    python3 setup.py build --build-base DIR           (what `make test` does)
    make python-dist           (sdist + wheel in build/python/dist/)

Where the C library is: in the repository, beside python/ (../src,
../include); in an unpacked sdist, in repository/ (src/, include/). `setup.py
sdist` copies it into repository/, with the package's tests and examples
and the files they read (VENDORED below), and the LICENSE when the
repository has one: the sdist is self-contained, and git holds one copy of
the sources.

Metadata is here, not in pyproject.toml's [project]: setuptools before 61
(Python 3.9's bundled 58.1) does not read that table. The version is the
C library's (ASTAR_VERSION_STRING in include/astar/base.h).

pip builds a wheel, with the bdist_wheel command of setuptools >= 70.1 or,
before that, of the `wheel` package. Where neither is installed (pyenv's
3.9 and 3.11: setuptools 58 and 65, no wheel; no PyPI here), the small
bdist_wheel below makes the wheel instead, so `pip install
--no-build-isolation` works with any of them.

The library is compiled with its determinism flag (-ffp-contract=off: no
fused multiply-add, the same paths on every platform) and -O3, as CMake
builds it; on Linux the module is linked stripped (-s: 4.4 MB with debug
information, 821 KB without) unless built with `build_ext --debug`.
"""
import base64
import csv
import glob
import hashlib
import importlib.util
import io
import os
import re
import shutil
import sys
import sysconfig
import zipfile

from setuptools import Command, Extension, find_packages, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.sdist import sdist

HERE = os.path.dirname(os.path.abspath(__file__))
os.chdir(HERE)  # the paths below are relative to it (pip runs us there too)
VENDOR = "repository"  # an unpacked sdist's copy of the library's repository, in part


def find_library_root():
    """The folder holding the C library's src/ and include/: in an unpacked
    sdist its own repository/ (first: whatever folder it was unpacked in),
    else the repository (python/..)."""
    for root in (os.path.join(HERE, VENDOR), os.path.dirname(HERE)):
        if os.path.isfile(os.path.join(root, "include", "astar", "astar.h")):
            return root
    raise SystemExit(
        "libastar: the C library's sources were not found: neither beside python/ "
        f"({os.path.dirname(HERE)}/src, include) nor in {os.path.join(HERE, VENDOR)} (an sdist's "
        "copy). Build from the libastar repository or from a complete sdist "
        "(`make python-dist` makes one)")


ROOT = find_library_root()
IN_REPOSITORY = ROOT == os.path.dirname(HERE)
SRC = os.path.join(ROOT, "src")
INCLUDE = os.path.join(ROOT, "include")

# What `setup.py sdist` copies from the repository into repository/, at the
# same paths: the C library (src/, include/), and the package's tests and
# examples with what they read (tests/data, the READMEs, the guide), so
# that they run from the unpacked sdist as from the repository:
#     pytest libastar-X/repository/python/tests   (against the installed package)
# There is no python/src in it: the tests import the installed package.
VENDORED = ("src", "include", os.path.join("tests", "data"), "README.md",
            os.path.join("docs", "python-guide.md"), os.path.join("docs", "python-api-map.md"),
            os.path.join("python", "README.md"),
            os.path.join("python", "tests"), os.path.join("python", "examples"),
            os.path.join("bench", "python"))


def library_version():
    with open(os.path.join(INCLUDE, "astar", "base.h"), encoding="utf-8") as f:
        m = re.search(r'#define ASTAR_VERSION_STRING "([^"]+)"', f.read())
    if not m:
        raise SystemExit("libastar: ASTAR_VERSION_STRING not found in include/astar/base.h")
    return m.group(1)


def license_file():
    """The repository's LICENSE (the sdist's copy of it in its top folder),
    or None while the repository has none."""
    for path in (os.path.join(HERE, "LICENSE"), os.path.join(os.path.dirname(HERE), "LICENSE")):
        if os.path.isfile(path):
            return path
    return None


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
    include_dirs=[os.path.relpath(INCLUDE, HERE), os.path.relpath(SRC, HERE)],
    depends=headers + ([prebuilt] if prebuilt else []),  # relink when the library changes
    extra_compile_args=["-std=c11", "-O3", "-ffp-contract=off", "-fvisibility=hidden", "-pthread"],
    extra_objects=[prebuilt] if prebuilt else [],
    # -pthread: astar/batch.h's worker threads
    extra_link_args=["-pthread"] + (["-Wl,--exclude-libs,ALL"] if prebuilt else []),
    libraries=["m"],
)


class parallel_build_ext(build_ext):
    """build_ext compiling on every CPU unless told otherwise (-j N): the
    library is some 30 files, and pip passes no -j. On Linux the module is
    linked stripped (no debug information, no symbol table: what a wheel
    ships) unless --debug asks for debug information."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1

    def build_extension(self, ext):
        if sys.platform.startswith("linux") and not self.debug and "-s" not in ext.extra_link_args:
            ext.extra_link_args = ext.extra_link_args + ["-s"]
        super().build_extension(ext)


class vendoring_sdist(sdist):
    """sdist whose tarball holds the C library: the repository's src/ and
    include/ (and the files VENDORED lists) are copied into the release
    tree's repository/ -- at sdist time only, so git keeps one copy. From
    an unpacked sdist, MANIFEST.in's `graft repository` carries it on."""

    def run(self):
        # egg_info adds the files of its previous SOURCES.txt to the new
        # list: an old sdist's members (a file since deleted, a layout since
        # changed) would come back. The list is made from MANIFEST.in alone.
        stale = os.path.join(self.get_finalized_command("egg_info").egg_info, "SOURCES.txt")
        if os.path.exists(stale):
            os.remove(stale)
        super().run()

    def make_release_tree(self, base_dir, files):
        # setuptools adds the extension's sources to the file list, and
        # those of the library are ../src/*.c: never write outside base_dir.
        files = [f for f in files if not os.path.normpath(f).startswith(os.pardir)]
        super().make_release_tree(base_dir, files)
        if IN_REPOSITORY:
            dest = os.path.join(base_dir, VENDOR)
            for part in VENDORED:
                src = os.path.join(ROOT, part)
                if os.path.isdir(src):
                    shutil.copytree(src, os.path.join(dest, part), ignore=shutil.ignore_patterns(
                        "__pycache__", "*.py[cod]", ".pytest_cache", "*.o", "*.a", "*.so"))
                elif os.path.isfile(src):
                    os.makedirs(os.path.dirname(os.path.join(dest, part)), exist_ok=True)
                    shutil.copy2(src, os.path.join(dest, part))
                else:
                    raise SystemExit(f"libastar: sdist: {src} is missing")
            lic = license_file()
            if lic and not os.path.exists(os.path.join(base_dir, "LICENSE")):
                shutil.copy2(lic, os.path.join(base_dir, "LICENSE"))


def wheel_tag():
    """(python, abi, platform) of a wheel of this interpreter: cp39, cp39,
    linux_x86_64 (make python-dist then retags it manylinux after its
    checks: python/wheeltag.py)."""
    impl = "cp" if sys.implementation.name == "cpython" else sys.implementation.name[:2]
    ver = f"{sys.version_info[0]}{sys.version_info[1]}"
    soabi = sysconfig.get_config_var("SOABI") or ""
    m = re.match(r"cpython-(\d+\w*)", soabi)
    abi = f"cp{m.group(1)}" if m else (impl + ver)
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return impl + ver, abi, plat


class minimal_bdist_wheel(Command):
    """bdist_wheel for interpreters with neither setuptools >= 70.1 nor the
    `wheel` package (pyenv's 3.9 and 3.11 here, offline): builds the
    package (build: the pure modules and the extension) and zips the build
    folder with a .dist-info made from egg_info's PKG-INFO (PEP 427: WHEEL,
    METADATA, RECORD with sha256 digests). Also answers egg2dist, which
    setuptools' dist_info (pip's metadata step) asks bdist_wheel for."""

    description = "build a wheel (libastar's own, for setuptools without bdist_wheel)"
    user_options = [
        ("bdist-dir=", "b", "temporary build folder"),
        ("dist-dir=", "d", "where the wheel goes (default: dist)"),
        ("plat-name=", "p", "platform tag (default: this interpreter's)"),
        ("keep-temp", "k", "keep the build folder"),
    ]
    boolean_options = ["keep-temp"]

    def initialize_options(self):
        self.bdist_dir = None
        self.dist_dir = None
        self.plat_name = None
        self.keep_temp = False

    def finalize_options(self):
        self.dist_dir = self.dist_dir or "dist"

    def egg2dist(self, egginfo_path, distinfo_path):
        """The .dist-info of egg_info's folder: METADATA (PKG-INFO with the
        requirements of requires.txt as Requires-Dist), the licence files,
        top_level.txt."""
        if os.path.isdir(distinfo_path):
            shutil.rmtree(distinfo_path)
        os.makedirs(distinfo_path)
        with open(os.path.join(egginfo_path, "PKG-INFO"), encoding="utf-8") as f:
            pkg_info = f.read()
        head, sep, body = pkg_info.partition("\n\n")
        extra_lines = []
        requires = os.path.join(egginfo_path, "requires.txt")
        if "\nRequires-Dist:" not in head and os.path.isfile(requires):
            extra = None
            with open(requires, encoding="utf-8") as f:
                for line in f:
                    line = line.strip()
                    if not line:
                        continue
                    if line.startswith("["):
                        extra = line.strip("[]").split(":")[0]
                        extra_lines.append(f"Provides-Extra: {extra}")
                    elif extra:
                        extra_lines.append(f'Requires-Dist: {line}; extra == "{extra}"')
                    else:
                        extra_lines.append(f"Requires-Dist: {line}")
        head = head.rstrip("\n") + "".join("\n" + x for x in extra_lines)
        with open(os.path.join(distinfo_path, "METADATA"), "w", encoding="utf-8") as f:
            f.write(head + (sep + body if sep else "\n"))
        for line in head.splitlines():
            if line.startswith("License-File: "):
                name = line.split(": ", 1)[1]
                if os.path.isfile(name):
                    os.makedirs(os.path.dirname(os.path.join(distinfo_path, name)) or distinfo_path,
                                exist_ok=True)
                    shutil.copy2(name, os.path.join(distinfo_path, name))
        top = os.path.join(egginfo_path, "top_level.txt")
        if os.path.isfile(top):
            shutil.copy2(top, os.path.join(distinfo_path, "top_level.txt"))

    def run(self):
        if self.bdist_dir:
            self.reinitialize_command("build").build_base = self.bdist_dir
        self.run_command("build")
        build_lib = self.get_finalized_command("build").build_lib
        egg_info = self.get_finalized_command("egg_info")
        self.run_command("egg_info")

        py, abi, plat = wheel_tag()
        plat = (self.plat_name or plat).replace("-", "_").replace(".", "_")
        tag = f"{py}-{abi}-{plat}"
        name = self.distribution.get_name().replace("-", "_")
        version = self.distribution.get_version()
        distinfo = f"{name}-{version}.dist-info"
        stage = os.path.join(os.path.dirname(build_lib), "wheel-distinfo")
        self.egg2dist(egg_info.egg_info, os.path.join(stage, distinfo))
        with open(os.path.join(stage, distinfo, "WHEEL"), "w", encoding="utf-8") as f:
            f.write("Wheel-Version: 1.0\nGenerator: libastar setup.py (minimal_bdist_wheel)\n"
                    f"Root-Is-Purelib: false\nTag: {tag}\n")

        os.makedirs(self.dist_dir, exist_ok=True)
        path = os.path.join(self.dist_dir, f"{name}-{version}-{tag}.whl")
        write_wheel(path, [build_lib, stage], distinfo)
        if not self.keep_temp:
            shutil.rmtree(stage)
        self.distribution.dist_files.append(
            ("bdist_wheel", f"{sys.version_info[0]}.{sys.version_info[1]}", path))
        print(f"libastar: wrote {path}")


def write_wheel(path, roots, distinfo):
    """Zips the files under each of roots (their paths relative to it) into
    the wheel `path`, the .dist-info's RECORD last (PEP 427)."""
    members = []
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for fn in sorted(filenames):
                full = os.path.join(dirpath, fn)
                members.append((os.path.relpath(full, root).replace(os.sep, "/"), full))
    members.sort(key=lambda m: (m[0].startswith(distinfo), m[0]))
    record = io.StringIO()
    writer = csv.writer(record, lineterminator="\n")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for arc, full in members:
            with open(full, "rb") as f:
                data = f.read()
            z.writestr(zip_info(arc, os.stat(full).st_mode), data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            writer.writerow([arc, "sha256=" + digest.decode(), len(data)])
        writer.writerow([f"{distinfo}/RECORD", "", ""])
        z.writestr(zip_info(f"{distinfo}/RECORD", 0o100644), record.getvalue())


def zip_info(arcname, mode):
    info = zipfile.ZipInfo(arcname, date_time=(1980, 1, 1, 0, 0, 0))  # reproducible
    info.external_attr = (mode & 0xFFFF) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


commands = {"build_ext": parallel_build_ext, "sdist": vendoring_sdist}
if (importlib.util.find_spec("setuptools.command.bdist_wheel") is None
        and importlib.util.find_spec("wheel") is None):
    commands["bdist_wheel"] = minimal_bdist_wheel

with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
    long_description = f.read()

lic = license_file()
setup(
    name="libastar",
    version=library_version(),
    description="A* pathfinding on grids and graphs (libastar) with NumPy grids",
    long_description=long_description,
    long_description_content_type="text/markdown",
    author="the libastar maintainers",
    license="MIT",
    # No public address of the project yet: add Homepage / Source /
    # Documentation / Issues here when there is one.
    project_urls={},
    # The repository's LICENSE travels as a file: the sdist's top folder,
    # then the wheel's .dist-info.
    license_files=[os.path.relpath(lic, HERE)] if lic and os.path.dirname(lic) == HERE else [],
    python_requires=">=3.9",
    install_requires=["numpy"],
    extras_require={"test": ["pytest"]},
    classifiers=[
        "Development Status :: 4 - Beta",
        "Intended Audience :: Developers",
        "Intended Audience :: Science/Research",
        "License :: OSI Approved :: MIT License",
        "Operating System :: POSIX :: Linux",
        "Programming Language :: C",
        "Programming Language :: Python :: 3",
        "Programming Language :: Python :: 3 :: Only",
        "Programming Language :: Python :: 3.9",
        "Programming Language :: Python :: 3.10",
        "Programming Language :: Python :: 3.11",
        "Programming Language :: Python :: 3.12",
        "Programming Language :: Python :: 3.13",
        "Programming Language :: Python :: Implementation :: CPython",
        "Topic :: Games/Entertainment",
        "Topic :: Scientific/Engineering",
        "Typing :: Typed",
    ],
    keywords=["pathfinding", "a-star", "jps", "grid", "graph", "numpy"],
    package_dir={"": "src"},
    packages=find_packages("src"),
    package_data={"libastar": ["py.typed", "*.pyi"]},
    include_package_data=False,  # not _core.c
    zip_safe=False,
    ext_modules=[core],
    cmdclass=commands,
)
