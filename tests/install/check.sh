#!/usr/bin/env bash
# tests/install/check.sh -- checks an installed libastar the way users meet it:
# `cmake --install` into a temporary prefix, then find_package(astar) from a
# stand-alone CMake project (tests/install/CMakeLists.txt), pkg-config builds
# of examples/basic.c (shared and static), the installed headers on their own,
# the shared library's exported symbols, and that only the tool uses libpng.
#
#   tests/install/check.sh [BUILD_DIR]      (default: build; it must be built)
#
# KEEP=1 keeps the temporary directory. Ends with "N passed, M failed" and
# exits non-zero if anything failed.

# The check functions are called through check(); shellcheck cannot see that.
# shellcheck disable=SC2317
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" 2>/dev/null && pwd) || {
  echo "check.sh: build directory ${1:-$ROOT/build} not found (run make first)" >&2
  exit 2
}
CC=${CC:-cc}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/astar-install.XXXXXX")
if [[ "${KEEP:-0}" != 1 ]]; then trap 'rm -rf "$TMP"' EXIT; else echo "keeping $TMP"; fi
PREFIX=$TMP/prefix
LOG=$TMP/log

# check NAME COMMAND..., $passed, $failed
. "$ROOT/tests/util/check.sh"
# needs_libastar BINARY: true if BINARY loads libastar.so at run time.
needs_libastar() { readelf -d "$1" | grep -q 'NEEDED.*\[libastar\.so'; }
not() { ! "$@"; }
summary() {
  echo "$passed passed, $failed failed"
  [[ $failed == 0 ]]
  exit
}

version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$BUILD/CMakeCache.txt")
major=${version%%.*}

check "cmake --install into a fresh prefix" cmake --install "$BUILD" --prefix "$PREFIX"
[[ $failed == 0 ]] || summary

# GNUInstallDirs may pick lib, lib64 or lib/<multiarch>; find where it went.
libdir=$(dirname "$(find "$PREFIX" -name libastar.a -print -quit)")
[[ -d "$libdir" ]] || libdir=$PREFIX/lib

files_installed() {
  local f missing=0
  for f in include/astar/astar.h include/astar/base.h include/astar/grid.h \
    include/astar/search.h include/astar/format.h; do
    [[ -f "$PREFIX/$f" ]] || { echo "missing $f"; missing=1; }
  done
  for f in libastar.a libastar.so "libastar.so.$major" "libastar.so.$version" \
    pkgconfig/astar.pc cmake/astar/astarConfig.cmake cmake/astar/astarConfigVersion.cmake \
    cmake/astar/astarTargets.cmake; do
    [[ -e "$libdir/$f" ]] || { echo "missing $libdir/$f"; missing=1; }
  done
  if [[ -x "$BUILD/astar" && ! -x "$PREFIX/bin/astar" ]]; then
    echo "missing bin/astar"
    missing=1
  fi
  if [[ -x "$BUILD/astar" && ! -f "$PREFIX/share/man/man1/astar.1" ]]; then
    echo "missing share/man/man1/astar.1"
    missing=1
  fi
  [[ $missing == 0 ]]
}
check "headers, libastar.a, libastar.so, CLI, man page, astar.pc, CMake package installed" \
  files_installed

# The installed manual page is the tool's: what the installed astar --man prints.
man_page_current() {
  "$PREFIX/bin/astar" --man | cmp - "$PREFIX/share/man/man1/astar.1" &&
    if command -v man >/dev/null; then
      MANPATH=$PREFIX/share/man man -P cat astar 2>/dev/null | grep -q 'astar solve'
    fi
}
if [[ -x "$BUILD/astar" ]]; then
  check "share/man/man1/astar.1 is what the installed astar --man prints (and man finds it)" \
    man_page_current
fi

soname_is_major() { readelf -d "$libdir/libastar.so" | grep -q "SONAME.*\[libastar\.so\.$major\]"; }
check "libastar.so has SONAME libastar.so.$major" soname_is_major

# Hidden visibility: only the public astar_* API leaves the shared library.
exports_only_api() {
  local bad
  nm -D --defined-only "$libdir/libastar.so" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' >"$TMP/syms"
  grep -q '^astar_find_path$' "$TMP/syms" || { echo "astar_find_path not exported"; return 1; }
  bad=$(grep -v '^astar_[a-z]' "$TMP/syms" | grep -v '^_' || true)
  bad+=$(grep '^astar__' "$TMP/syms" || true)
  [[ -z "$bad" ]] || { echo "unexpected exports:"; echo "$bad"; return 1; }
}
check "libastar.so exports only astar_* API symbols" exports_only_api

# Only the tool links libpng (astar render writes PNG with it): the library,
# its astar.pc and its CMake package need nothing of it.
library_without_png() {
  if readelf -d "$libdir/libastar.so" | grep -i 'NEEDED.*png'; then return 1; fi
  if grep -il png "$libdir/pkgconfig/astar.pc" "$libdir"/cmake/astar/*.cmake; then return 1; fi
}
check "libastar.so, astar.pc and the CMake package do not depend on libpng" library_without_png
# Nor on MPI, which only the tool may link (precompute --method cpd under mpirun).
library_without_mpi() {
  if readelf -d "$libdir/libastar.so" | grep -i 'NEEDED.*mpi'; then return 1; fi
  if grep -E 'MPI::|libmpi|-lmpi' "$libdir/pkgconfig/astar.pc" "$libdir"/cmake/astar/*.cmake; then
    return 1
  fi
}
check "libastar.so, astar.pc and the CMake package do not depend on MPI" library_without_mpi
# The tool links MPI only when built with ASTAR_USE_MPI (`make mpi`): the
# default astar loads none of Open MPI's libraries (libmpi, Open RTE, Open
# PAL, hwloc, ...), directly (readelf) or through another library (ldd).
mpi_libs() { # BINARY: the Open MPI libraries it loads, one a line
  { readelf -d "$1" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p'; ldd "$1" 2>/dev/null | awk '{print $1}'; } |
    grep -E '^lib(mpi|open-rte|open-pal|hwloc|pmix|ucp|ucs|fabric)[^a-z]' | sort -u
}
tool_mpi_matches_option() { # BINARY
  local libs
  libs=$(mpi_libs "$1")
  if [[ $use_mpi == ON ]]; then
    [[ $libs == *libmpi* ]] || { echo "ASTAR_USE_MPI=ON, yet $1 does not load libmpi"; return 1; }
  elif [[ -n $libs ]]; then
    echo "ASTAR_USE_MPI is $use_mpi, yet $1 loads:"
    echo "$libs"
    return 1
  fi
}
use_mpi=$(sed -n 's/^ASTAR_USE_MPI:BOOL=//p' "$BUILD/CMakeCache.txt")
case ${use_mpi^^} in ON | 1 | YES | TRUE | Y) use_mpi=ON ;; *) use_mpi=OFF ;; esac
if [[ -x "$BUILD/astar" ]]; then
  check "the built astar loads Open MPI only with ASTAR_USE_MPI=ON (here $use_mpi)" \
    tool_mpi_matches_option "$BUILD/astar"
  check "the installed astar likewise" tool_mpi_matches_option "$PREFIX/bin/astar"
fi
installed_tool_writes_png() {
  "$PREFIX/bin/astar" render "$ROOT/tests/data/small/rooms64-8.map" 44 35 1 3 -o "$TMP/r.png" &&
    [[ $(head -c 8 "$TMP/r.png" | od -An -tx1 | tr -d ' ') == 89504e470d0a1a0a ]]
}
if [[ -x "$BUILD/astar" ]]; then
  check "the installed astar writes a PNG (astar render)" installed_tool_writes_png
fi

# Each installed header compiles alone, as strict C11 (and as C++ if there is
# a C++ compiler): no missing includes, no extensions.
headers_alone() {
  local h
  for h in "$PREFIX"/include/astar/*.h; do
    echo "#include <astar/$(basename "$h")>" >"$TMP/h.c"
    "$CC" -std=c11 -Wall -Wextra -pedantic -Werror -I"$PREFIX/include" -c "$TMP/h.c" \
      -o "$TMP/h.o" || return 1
    if command -v c++ >/dev/null; then
      cp "$TMP/h.c" "$TMP/h.cpp"
      c++ -Wall -Wextra -Werror -I"$PREFIX/include" -c "$TMP/h.cpp" -o "$TMP/h.o" || return 1
    fi
  done
}
check "installed headers compile on their own (-std=c11 -pedantic -Werror)" headers_alone

# --- CMake: find_package(astar) ------------------------------------------------
consumer_build() { # DIR [cmake args...]
  local dir=$1
  shift
  cmake -S "$ROOT/tests/install" -B "$dir" -DCMAKE_PREFIX_PATH="$PREFIX" \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_BUILD_TYPE=Release "$@" &&
    cmake --build "$dir"
}
C1=$TMP/consumer
check "find_package(astar) consumer configures and builds" consumer_build "$C1"
check "astar::astar (default) links the shared library and runs" \
  bash -c "'$C1/consumer' && readelf -d '$C1/consumer' | grep -q 'NEEDED.*libastar.so'"
check "astar::astar_shared runs" bash -c "'$C1/consumer_shared'"
check "astar::astar_static runs" "$C1/consumer_static"
check "astar::astar_static does not load libastar.so" not needs_libastar "$C1/consumer_static"
C2=$TMP/consumer-static
check "ASTAR_USE_STATIC_LIBS=ON consumer builds" consumer_build "$C2" -DASTAR_USE_STATIC_LIBS=ON
check "ASTAR_USE_STATIC_LIBS=ON makes astar::astar static" not needs_libastar "$C2/consumer"

# --- pkg-config ------------------------------------------------------------------
if command -v pkg-config >/dev/null; then
  export PKG_CONFIG_PATH=$libdir/pkgconfig
  check "pkg-config --modversion astar is $version" \
    test "$(pkg-config --modversion astar 2>&1)" = "$version"
  check "pkg-config --static adds -lm" bash -c "pkg-config --static --libs astar | grep -q -- -lm"
  # shellcheck disable=SC2046 # word splitting of pkg-config output is intended
  check "examples/basic.c builds with \$(pkg-config --cflags --libs astar)" \
    "$CC" -std=c11 -Wall -Wextra -Werror "$ROOT/examples/basic.c" -o "$TMP/basic" \
    $(pkg-config --cflags --libs astar)
  check "basic (shared) runs without LD_LIBRARY_PATH (the .pc's RPATH)" env -u LD_LIBRARY_PATH "$TMP/basic"
  check "basic (shared) loads libastar.so" needs_libastar "$TMP/basic"
  # -lastar would pick the .so; -l:libastar.a forces the archive.
  # shellcheck disable=SC2046
  check "examples/basic.c links statically (pkg-config --static, -l:libastar.a)" \
    "$CC" -std=c11 -Wall -Wextra -Werror "$ROOT/examples/basic.c" -o "$TMP/basic-static" \
    $(pkg-config --cflags astar) $(pkg-config --static --libs astar | sed 's/-lastar\b/-l:libastar.a/')
  check "basic (static) runs without libastar.so" env -u LD_LIBRARY_PATH "$TMP/basic-static"
  check "basic (static) does not load libastar.so" not needs_libastar "$TMP/basic-static"
  unset PKG_CONFIG_PATH
else
  echo "skip pkg-config checks: pkg-config not installed"
fi

# --- Packaging: DESTDIR staging keeps the real prefix in astar.pc ---------------
staged_install() {
  DESTDIR=$TMP/stage cmake --install "$BUILD" --prefix /opt/astar &&
    grep -qx 'prefix=/opt/astar' "$TMP/stage/opt/astar/${libdir#"$PREFIX"/}/pkgconfig/astar.pc" &&
    [[ -f $TMP/stage/opt/astar/include/astar/astar.h ]]
}
check "DESTDIR install stages files and keeps prefix=/opt/astar in astar.pc" staged_install

# --- CMake: add_subdirectory(libastar) in a game's project -----------------------
# tests/subproject/ embeds this checkout (nothing installed). No build type:
# the game's empty one must stay empty (-O0, the quickest build of the two
# libraries).
S=$TMP/subproject
subproject_configure() { cmake -S "$ROOT/tests/subproject" -B "$S" -DASTAR_SOURCE_DIR="$ROOT" "$@"; }
subproject_build() { subproject_configure "$@" && cmake --build "$S" -j "$(nproc 2>/dev/null || echo 2)"; }
check "add_subdirectory consumer configures (library only, game's build type kept) and builds" \
  subproject_build
check "in-tree astar::astar (default) links the shared library and runs, as installed" \
  bash -c "'$S/consumer' && readelf -d '$S/consumer' | grep -q 'NEEDED.*libastar.so'"
check "in-tree astar::astar_shared runs" "$S/consumer_shared"
check "in-tree astar::astar_static runs without libastar.so" \
  bash -c "'$S/consumer_static' && ! readelf -d '$S/consumer_static' | grep -q 'NEEDED.*libastar'"
check "in-tree ASTAR_USE_STATIC_LIBS=ON makes astar::astar static, as installed" \
  bash -c "$(declare -f subproject_configure subproject_build); S='$S' ROOT='$ROOT'
    subproject_build -DASTAR_USE_STATIC_LIBS=ON && '$S/consumer' &&
    ! readelf -d '$S/consumer' | grep -q 'NEEDED.*libastar'"
# With the tool, tests and examples asked for, every path they use is this
# project's (PROJECT_SOURCE_DIR / PROJECT_BINARY_DIR, not the game's
# CMAKE_SOURCE_DIR: before, generating failed on tests/CMakeLists.txt's
# "Cannot find source file: .../tools/png.c"), checked in every test's
# command line, and a few tests run from the game's tree.
subproject_paths() {
  local bad
  subproject_configure -DASTAR_BUILD_TOOLS=ON -DASTAR_BUILD_TESTS=ON -DASTAR_BUILD_EXAMPLES=ON \
    -DASTAR_USE_STATIC_LIBS=OFF || return 1
  (cd "$S" && ctest --show-only=json-v1) >"$TMP/subtests.json" || return 1
  grep -q '"name" *: *"cli_hpa"' "$TMP/subtests.json" || { echo "no tests defined"; return 1; }
  # Any path into the game's folders but libastar's binary folder is wrong.
  bad=$(grep -oE "\"($ROOT/tests/subproject|$S)(/[^\"]*)?\"" "$TMP/subtests.json" |
    grep -vE "^\"$S/libastar(/|\")" || true)
  [[ -z $bad ]] || { echo "test paths outside libastar's folders:"; echo "$bad" | sort -u; return 1; }
}
check "add_subdirectory with ASTAR_BUILD_TOOLS/TESTS/EXAMPLES=ON: tests use libastar's paths" \
  subproject_paths
subproject_tests() {
  cmake --build "$S" -j "$(nproc 2>/dev/null || echo 2)" --target astar_man test_grid example_basic ||
    return 1
  if ! (cd "$S" && ctest --output-on-failure --no-tests=error \
    -R '^(test_grid|man|cli_hpa|conformance_small|readme_example|example_basic)$') >"$TMP/subctest.log" ||
    ! grep -q '100% tests passed, 0 tests failed out of 6' "$TMP/subctest.log"; then
    cat "$TMP/subctest.log"
    return 1
  fi
}
check "add_subdirectory: the tool, a unit test, the CLI, man page, example tests run there" \
  subproject_tests

summary
