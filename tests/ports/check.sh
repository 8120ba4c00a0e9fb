#!/usr/bin/env bash
# tests/ports/check.sh -- what can be tested of the vcpkg port and the Conan
# recipe (ports/) without vcpkg or Conan, neither of which CI can reach:
#
#  1. vcpkg.json against vcpkg's manifest rules, conanfile.py's declared
#     attributes (imported with a stand-in `conan` module: not Conan), both
#     versions = include/astar/base.h's (tests/ports/recipes.py);
#  2. the options each recipe gives CMake, taken from the recipes themselves:
#     the portfile runs under tests/ports/vcpkg-stub.cmake (vcpkg's helpers
#     reduced to this port's needs), generate()'s cache_variables are read
#     from conanfile.py with Python's ast -- for every feature / option set;
#  3. two real builds with those options: the vcpkg port for a static
#     triplet with the tool feature, the Conan recipe with shared=True; each
#     installed layout as its ecosystem expects it (vcpkg: include/, lib/,
#     share/astar/ CMake files, share/libastar/copyright and usage,
#     tools/libastar/astar, no bin/; Conan: include/, lib/, licenses/, no
#     CMake or pkg-config files of the project's own);
#  4. consumers of those installs: tests/install's find_package(astar)
#     project (only the installed kind), a project made from the port's usage
#     file, ports/conan/test_package, and examples/basic.c through pkg-config.
#
#   tests/ports/check.sh          (KEEP=1 keeps the temporary folder)
#
# Ends with "N passed, M failed"; exits non-zero if anything failed.
# shellcheck disable=SC2317 # check functions are called through check()
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
HERE=$ROOT/tests/ports
PORT=$ROOT/ports/vcpkg/libastar
CC=${CC:-cc}
JOBS=${JOBS:-2}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/astar-ports.XXXXXX")
if [[ "${KEEP:-0}" != 1 ]]; then trap 'rm -rf "$TMP"' EXIT; else echo "keeping $TMP"; fi
LOG=$TMP/log
# check NAME COMMAND..., $passed, $failed
. "$ROOT/tests/util/check.sh"
# count_lines: recipes.py prints its own ok/FAIL lines; count them.
count_lines() {
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  echo "$out"
  passed=$((passed + $(grep -c '^ok ' <<<"$out")))
  failed=$((failed + $(grep -c '^FAIL ' <<<"$out")))
  if [[ $rc != 0 ]] && ! grep -q '^FAIL ' <<<"$out"; then
    echo "FAIL $* exited $rc"
    failed=$((failed + 1))
  fi
}
not() { ! "$@"; }
has() { grep -qxF -- "$2" "$1" || { echo "$1 lacks $2:"; cat "$1"; return 1; }; }
needs_libastar() { readelf -d "$1" | grep -q 'NEEDED.*\[libastar\.so'; }

echo "--- 1. recipe files"
count_lines python3 "$HERE/recipes.py" vcpkg-manifest "$ROOT"
count_lines python3 "$HERE/recipes.py" conan-attributes "$ROOT"

echo "--- 2. the CMake options each recipe asks for"
# vcpkg_stub LINKAGE FEATURES DIR [DRY]: the portfile under the stub.
vcpkg_stub() {
  cmake -DPORTFILE="$PORT/portfile.cmake" -DVCPKG_LIBRARY_LINKAGE="$1" -DFEATURES="$2" \
    -DCURRENT_PACKAGES_DIR="$3/packages" -DSTUB_WORK="$3/work" -DSTUB_DRY="${4:-OFF}" \
    -DSTUB_SOURCE_DIR="$ROOT" -DSTUB_JOBS="$JOBS" -P "$HERE/vcpkg-stub.cmake"
}
vcpkg_dry() { LIBASTAR_SOURCE_DIR=$ROOT vcpkg_stub "$1" "$2" "$3" ON; }
# The library kind follows the triplet's linkage, the features switch the
# tool and MPI, the debug build never makes the tool, tests stay off.
V=$TMP/vcpkg-dry-dynamic
check "vcpkg, dynamic triplet, no feature: shared library only, no tool" \
  bash -c "$(declare -f vcpkg_stub vcpkg_dry has); PORT='$PORT' HERE='$HERE' ROOT='$ROOT' JOBS=$JOBS
    vcpkg_dry dynamic '' '$V' && o='$V/work/options-release.txt' &&
    has \$o -DASTAR_BUILD_SHARED=1 && has \$o -DASTAR_BUILD_STATIC=0 &&
    has \$o -DASTAR_BUILD_TOOLS=OFF && has \$o -DASTAR_USE_MPI=OFF && has \$o -DASTAR_BUILD_TESTS=OFF &&
    has \$o -DASTAR_BUILD_EXAMPLES=OFF && has \$o -DASTAR_BUILD_BENCH=OFF"
V=$TMP/vcpkg-dry-mpi
check "vcpkg, static triplet, features tool+mpi: tool with MPI (release only)" \
  bash -c "$(declare -f vcpkg_stub vcpkg_dry has); PORT='$PORT' HERE='$HERE' ROOT='$ROOT' JOBS=$JOBS
    vcpkg_dry static 'tool;mpi' '$V' && o='$V/work/options-release.txt' &&
    has \$o -DASTAR_BUILD_SHARED=0 && has \$o -DASTAR_BUILD_STATIC=1 &&
    has \$o -DASTAR_BUILD_TOOLS=ON && has \$o -DASTAR_USE_MPI=ON &&
    [[ \$(grep ASTAR_BUILD_TOOLS= '$V/work/options-debug.txt' | tail -n 1) == -DASTAR_BUILD_TOOLS=OFF ]]"
V=$TMP/vcpkg-dry-github
check "vcpkg, no LIBASTAR_SOURCE_DIR: vcpkg_from_github at tag v\${VERSION}" \
  bash -c "$(declare -f vcpkg_stub has); PORT='$PORT' HERE='$HERE' ROOT='$ROOT' JOBS=$JOBS
    env -u LIBASTAR_SOURCE_DIR bash -c '$(declare -f vcpkg_stub); PORT=$PORT HERE=$HERE ROOT=$ROOT JOBS=$JOBS
      vcpkg_stub static \"\" $V ON' &&
    has '$V/work/from-github.txt' REF=v$(sed -n 's/^#define ASTAR_VERSION_STRING "\(.*\)"/\1/p' "$ROOT/include/astar/base.h")"
conan_opts() { python3 "$HERE/recipes.py" conan-cmake "$ROOT" "$@"; }
conan_case() { # NAME OPTIONS... -- EXPECTED...
  local name=$1 opts=() want
  shift
  while [[ $1 != -- ]]; do opts+=("$1"); shift; done
  shift
  conan_opts "${opts[@]}" >"$TMP/conan-opts" || return 1
  for want in "$@"; do has "$TMP/conan-opts" "$want" || return 1; done
}
check "conan, shared=True: shared library only, no tool" conan_case a shared=True tool=False mpi=False -- \
  -DASTAR_BUILD_SHARED=ON -DASTAR_BUILD_STATIC=OFF -DASTAR_BUILD_TOOLS=OFF -DASTAR_USE_MPI=OFF \
  -DASTAR_BUILD_TESTS=OFF -DASTAR_BUILD_EXAMPLES=OFF -DASTAR_BUILD_BENCH=OFF
check "conan, tool=True mpi=True: static library, tool with MPI" conan_case b shared=False tool=True mpi=True -- \
  -DASTAR_BUILD_SHARED=OFF -DASTAR_BUILD_STATIC=ON -DASTAR_BUILD_TOOLS=ON -DASTAR_USE_MPI=ON

echo "--- 3. vcpkg: the port for a static triplet with the tool feature"
V=$TMP/vcpkg
VP=$V/packages
check "portfile builds and installs (LIBASTAR_SOURCE_DIR, overlay-port style)" \
  env LIBASTAR_SOURCE_DIR="$ROOT" bash -c "$(declare -f vcpkg_stub); PORT='$PORT' HERE='$HERE'
    ROOT='$ROOT' JOBS=$JOBS; vcpkg_stub static tool '$V'"
vcpkg_layout() {
  local f missing=0
  for f in include/astar/astar.h include/astar/base.h lib/libastar.a lib/pkgconfig/astar.pc \
    share/astar/astarConfig.cmake share/astar/astarConfigVersion.cmake share/astar/astarTargets.cmake \
    share/libastar/copyright share/libastar/usage tools/libastar/astar; do
    [[ -e $VP/$f ]] || { echo "missing $f"; missing=1; }
  done
  for f in bin debug/include debug/share share/man lib/cmake; do
    [[ ! -e $VP/$f ]] || { echo "$f should not be there"; missing=1; }
  done
  if compgen -G "$VP/lib/libastar.so*" >/dev/null; then echo "a shared library in a static triplet"; missing=1; fi
  cmp "$VP/share/libastar/copyright" "$ROOT/LICENSE" || missing=1
  [[ $missing == 0 ]]
}
check "vcpkg layout: include/, lib/libastar.a, share/astar/, share/libastar/{copyright,usage}, tools/libastar/astar" \
  vcpkg_layout
# vcpkg refuses packages whose files name the folder they were built in.
no_absolute_paths() { ! grep -rIl -F "$VP" "$VP"; }
check "no installed file names the packages folder (relocatable)" no_absolute_paths
check "tools/libastar/astar runs (--version)" bash -c "'$VP/tools/libastar/astar' --version | grep -q '^astar '"
consumer() { # DIR KIND [cmake args]
  cmake -S "$ROOT/tests/install" -B "$1" -DCMAKE_PREFIX_PATH="$2" -DASTAR_EXPECT_KINDS="$3" \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_BUILD_TYPE=Release &&
    cmake --build "$1" -j "$JOBS" && "$1/consumer" && "$1/consumer_$3"
}
check "find_package(astar) consumer (tests/install, astar::astar = the static library) builds and runs" \
  consumer "$TMP/vcpkg-consumer" "$VP" static
check "that consumer does not load libastar.so" not needs_libastar "$TMP/vcpkg-consumer/consumer"
# The usage file is what vcpkg prints after the install: its CMake lines must work.
usage_consumer() {
  local d=$TMP/usage-consumer
  mkdir -p "$d"
  cp "$ROOT/tests/install/consumer.c" "$d/main.c"
  { echo "cmake_minimum_required(VERSION 3.16)"; echo "project(usage LANGUAGES C)"
    echo "add_executable(main main.c)"
    grep -E '^ *(find_package|target_link_libraries)\(' "$PORT/usage"; } >"$d/CMakeLists.txt"
  grep -q find_package "$d/CMakeLists.txt" || { echo "usage has no find_package line"; return 1; }
  cmake -S "$d" -B "$d/build" -DCMAKE_PREFIX_PATH="$VP" && cmake --build "$d/build" && "$d/build/main"
}
check "the usage file's find_package/target_link_libraries lines build a program that runs" usage_consumer
pkgconfig_static() {
  local m
  m=$(sed -n '/pkg-config modules/,$ s/^ \{2\}\([a-z0-9_-]\+\)$/\1/p' "$PORT/usage")
  [[ $m == astar ]] || { echo "usage names pkg-config module '$m'"; return 1; }
  # shellcheck disable=SC2046
  PKG_CONFIG_PATH=$VP/lib/pkgconfig "$CC" -std=c11 "$ROOT/examples/basic.c" -o "$TMP/basic-vcpkg" \
    $(PKG_CONFIG_PATH=$VP/lib/pkgconfig pkg-config --cflags --static --libs "$m") && "$TMP/basic-vcpkg"
}
check "examples/basic.c through pkg-config --static astar (relocated .pc) builds and runs" pkgconfig_static

echo "--- 4. Conan: the recipe with shared=True"
C=$TMP/conan
conan_build() {
  local -a opts
  mapfile -t opts < <(conan_opts shared=True tool=False mpi=False fPIC=True) || return 1
  # What Conan's CMakeToolchain and CMake.install() add: the build type and prefix.
  cmake -S "$ROOT" -B "$C/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$C/install" \
    "${opts[@]}" && cmake --build "$C/build" -j "$JOBS" && cmake --install "$C/build"
}
check "configure with generate()'s cache_variables, build, install" conan_build
# package(): copy the license, then remove what the recipe removes.
conan_package() {
  local op a b
  cp -a "$C/install" "$C/package" || return 1
  while read -r op a b; do
    case $op in
      copy) mkdir -p "$C/package/$b" && cp "$ROOT/$a" "$C/package/$b/" || return 1 ;;
      remove) rm -rf "${C:?}/package/$a" ;;
    esac
  done < <(python3 "$HERE/recipes.py" conan-package "$ROOT")
}
check "package(): license copied, project's CMake/pkg-config files removed" conan_package
conan_layout() {
  local f bad=0
  for f in include/astar/astar.h lib/libastar.so licenses/LICENSE; do
    [[ -e $C/package/$f ]] || { echo "missing $f"; bad=1; }
  done
  for f in lib/libastar.a lib/cmake lib/pkgconfig share bin; do
    [[ ! -e $C/package/$f ]] || { echo "$f should not be there"; bad=1; }
  done
  [[ $bad == 0 ]]
}
check "Conan package folder: include/, lib/libastar.so, licenses/LICENSE; no .a, lib/cmake, share, bin" \
  conan_layout
# package_info() names the project's own file and targets (astar, astar::astar,
# pkg-config astar): a consumer of the project's install sees the same names.
test_package() {
  cmake -S "$ROOT/ports/conan/test_package" -B "$C/test_package" -DCMAKE_PREFIX_PATH="$C/install" \
    -DCMAKE_BUILD_TYPE=Release && cmake --build "$C/test_package" && "$C/test_package/test_package"
}
check "ports/conan/test_package builds (find_package(astar), astar::astar) and runs" test_package
check "test_package loads libastar.so (shared=True)" needs_libastar "$C/test_package/test_package"
check "tests/install consumer against the shared-only install" \
  consumer "$TMP/conan-consumer" "$C/install" shared
conan_pkgconfig() {
  # shellcheck disable=SC2046
  "$CC" -std=c11 "$ROOT/examples/basic.c" -o "$TMP/basic-conan" \
    $(PKG_CONFIG_PATH=$C/install/lib/pkgconfig pkg-config --cflags --libs astar) && "$TMP/basic-conan"
}
check "examples/basic.c through pkg-config astar (shared-only install) builds and runs" conan_pkgconfig

echo "$passed passed, $failed failed"
[[ $failed == 0 ]]
