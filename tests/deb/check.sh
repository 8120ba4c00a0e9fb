#!/usr/bin/env bash
# tests/deb/check.sh -- the Debian packages the way a user meets them
# (docs/packaging.md, "Debian"; .ci/run's deb stage):
#
#   1. `make deb`: scripts/deb-deps.sh, then scripts/deb-build.sh (the
#      changelog at base.h's version, dpkg-buildpackage in a temporary copy
#      of the tree with the package's quick tests, lintian --info clean);
#   2. the .debs: the package set and each package's files, the library
#      package named after the soname, the shipped code compiled with the
#      project's flags (-ffp-contract=off, -O3) and Debian's hardening (read
#      from the -dbgsym packages' DWARF), the tool without Open MPI;
#   3. installed with apt-get: `astar --version`, `man astar` and
#      `man -l`, hardening-check on the tool and the library, the symbols
#      file against the library's exports, and the README's example built
#      against the installed packages alone -- with pkg-config (shared and
#      static) and with CMake (find_package(astar): tests/deb/CMakeLists.txt
#      for the example, tests/install/CMakeLists.txt's consumer for the
#      three targets and the version check).
#
#   tests/deb/check.sh [--no-build] [DEB_DIR]     (default: build/deb)
#
# --no-build checks the packages already in DEB_DIR. Installing needs root
# (apt-get); without it the script stops after step 2 and fails. The
# packages it installed are purged at the end -- those that were installed
# before are left installed, at the version built here -- unless
# KEEP_INSTALLED=1. KEEP=1 keeps the temporary directory. Ends with
# "N passed, M failed" and exits non-zero if anything failed.

# The check functions are called through check(); shellcheck cannot see that.
# shellcheck disable=SC2317
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=1
deb_dir=
for arg in "$@"; do
  case $arg in
    --no-build) build=0 ;;
    -*)
      echo "usage: $0 [--no-build] [DEB_DIR]" >&2
      exit 2
      ;;
    *) deb_dir=$arg ;;
  esac
done
deb_dir=${deb_dir:-$ROOT/build/deb}
# Absolute: apt-get takes a path for a .deb only when it looks like one.
if [[ $build == 1 ]]; then mkdir -p "$deb_dir" || exit 2; fi
abs=$(cd "$deb_dir" 2>/dev/null && pwd) || {
  echo "check.sh: $deb_dir not found (run make deb, or leave out --no-build)" >&2
  exit 2
}
deb_dir=$abs
CC=${CC:-cc}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/astar-debcheck.XXXXXX")
LOG=$TMP/log

# check NAME COMMAND..., $passed, $failed
. "$ROOT/tests/util/check.sh"

installed_by_us=()
cleanup() {
  local p now=()
  for p in "${installed_by_us[@]}"; do
    if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      now+=("$p")
    fi
  done
  installed_by_us=("${now[@]}")
  if [[ ${#installed_by_us[@]} -gt 0 ]]; then
    if [[ ${KEEP_INSTALLED:-0} == 1 ]]; then
      echo "kept installed (KEEP_INSTALLED=1): ${installed_by_us[*]}"
    elif DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq "${installed_by_us[@]}" \
      >"$TMP/purge.log" 2>&1; then
      echo "purged what this script installed: ${installed_by_us[*]}"
    else
      echo "warning: could not purge ${installed_by_us[*]}:" >&2
      cat "$TMP/purge.log" >&2
    fi
  fi
  if [[ ${KEEP:-0} == 1 ]]; then echo "kept $TMP"; else rm -rf "$TMP"; fi
}
trap cleanup EXIT
summary() {
  echo "$passed passed, $failed failed"
  [[ $failed == 0 ]]
  exit
}

version=$(sed -n 's/^#define ASTAR_VERSION_STRING "\(.*\)"$/\1/p' "$ROOT/include/astar/base.h")
major=${version%%.*}
libpkg=libastar$major
arch=$(dpkg-architecture -qDEB_HOST_ARCH 2>/dev/null || dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
libdir=/usr/lib/$multiarch

# --- 1. make deb ---------------------------------------------------------------------
if [[ $build == 1 ]]; then
  make_deb() {
    "$ROOT/scripts/deb-deps.sh" && JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)} \
      "$ROOT/scripts/deb-build.sh" "$deb_dir"
  }
  t=$SECONDS
  check "make deb: dpkg-buildpackage (with the package's tests) and lintian --info clean" make_deb
  echo "     (make deb: $((SECONDS - t)) s)"
  [[ $failed == 0 ]] || summary
fi

changes=$deb_dir/libastar_${version}_$arch.changes
if [[ ! -f $changes ]]; then
  echo "FAIL no $changes (run make deb, or leave out --no-build)"
  failed=$((failed + 1))
  summary
fi
deb() { echo "$deb_dir/${1}_${version}_$arch.deb"; }

# --- 2. the .debs ------------------------------------------------------------------------
package_set() {
  local binary want
  binary=$(sed -n 's/^Binary: //p' "$changes" | tr ' ' '\n' | sort | tr '\n' ' ')
  want=$(printf '%s\n' astar astar-dbgsym libastar-dev "$libpkg" "$libpkg-dbgsym" | sort | tr '\n' ' ')
  [[ $binary == "$want" ]] || { echo "Binary: $binary, expected $want"; return 1; }
  for p in astar libastar-dev "$libpkg"; do
    [[ -f $(deb "$p") ]] || { echo "missing $(deb "$p")"; return 1; }
  done
}
check "the .changes lists $libpkg, libastar-dev, astar (+ -dbgsym) at $version" package_set
[[ $failed == 0 ]] || summary

# contents PACKAGE: its files, one path a line (directories left out).
contents() { dpkg-deb -c "$(deb "$1")" | awk '$1 !~ /^d/ {print $6}' | sed 's|^\./|/|'; }
has_files() { # PACKAGE PATH...: PACKAGE holds every PATH
  local p=$1 f list
  shift
  list=$(contents "$p")
  for f in "$@"; do
    grep -qxF "$f" <<<"$list" || { echo "$p lacks $f; it holds:"; echo "$list"; return 1; }
  done
}
# Only these files besides /usr/share/doc/PACKAGE/ (changelog, copyright).
only_files() { # PACKAGE EXTENDED-REGEX
  local extra
  extra=$(contents "$1" | grep -v "^/usr/share/doc/$1/" | grep -vE "^($2)$" || true)
  [[ -z $extra ]] || { echo "$1 also holds:"; echo "$extra"; return 1; }
}
lib_files() {
  has_files "$libpkg" "$libdir/libastar.so.$version" "$libdir/libastar.so.$major" \
    "/usr/share/doc/$libpkg/copyright" &&
    only_files "$libpkg" "$libdir/libastar\.so\.$major(\.[0-9]+\.[0-9]+)?"
}
check "$libpkg: libastar.so.$major -> libastar.so.$version and nothing else" lib_files
dev_files() {
  local h hs=()
  for h in "$ROOT"/include/astar/*.h; do hs+=("/usr/include/astar/${h##*/}"); done
  has_files libastar-dev "${hs[@]}" "$libdir/libastar.a" "$libdir/libastar.so" \
    "$libdir/pkgconfig/astar.pc" "$libdir/cmake/astar/astarConfig.cmake" \
    "$libdir/cmake/astar/astarConfigVersion.cmake" "$libdir/cmake/astar/astarTargets.cmake" \
    /usr/share/doc/libastar-dev/README.md.gz /usr/share/doc/libastar-dev/examples/basic.c &&
    only_files libastar-dev "/usr/include/astar/[a-z_]+\.h|$libdir/libastar\.(a|so)|$libdir/pkgconfig/astar\.pc|$libdir/cmake/astar/astar[A-Za-z-]+\.cmake"
}
check "libastar-dev: every header of include/astar, libastar.a, the .so link, astar.pc, the CMake package, README, examples" \
  dev_files
tool_files() {
  has_files astar /usr/bin/astar /usr/share/man/man1/astar.1.gz &&
    only_files astar "/usr/bin/astar|/usr/share/man/man1/astar\.1\.gz"
}
check "astar: /usr/bin/astar and its manual page astar.1" tool_files

X=$TMP/x
for p in "$libpkg" astar "$libpkg-dbgsym" astar-dbgsym; do
  mkdir -p "$X/$p" && dpkg-deb -x "$(deb "$p")" "$X/$p"
done
soname_is_package() {
  local soname
  soname=$(readelf -d "$X/$libpkg$libdir/libastar.so.$version" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
  [[ $soname == "libastar.so.$major" ]] || { echo "SONAME $soname, package $libpkg"; return 1; }
  dpkg-deb -f "$(deb "$libpkg")" Multi-Arch | grep -qx same
}
check "SONAME libastar.so.$major in package $libpkg (Debian policy 8.1), Multi-Arch: same" \
  soname_is_package

# GCC records its options in each compile unit's DW_AT_producer; the -dbgsym
# packages hold that DWARF for the shipped (stripped) files.
flags_of() { # PACKAGE-dbgsym: the distinct producer strings of its .debug files
  find "$X/$1" -name '*.debug' -exec readelf --debug-dump=info {} + 2>/dev/null |
    sed -n 's/.*DW_AT_producer *: *\(([^)]*): \)\{0,1\}//p' | sort -u
}
built_with() { # PACKAGE-dbgsym FLAG...: every compile unit of the project has every FLAG
  local p=$1 producers f bad=0
  shift
  producers=$(flags_of "$p" | grep -- '-std=c11')
  [[ -n $producers ]] || { echo "no compile unit of the project in $p"; return 1; }
  for f in "$@"; do
    if grep -v -q -- " $f\( \|$\)" <<<"$producers"; then
      echo "a compile unit of $p lacks $f:"
      grep -v -- " $f\( \|$\)" <<<"$producers" | head -n 3
      bad=1
    fi
  done
  [[ $bad == 0 ]]
}
flags=(-ffp-contract=off -O3 -fstack-protector-strong -g)
check "libastar.so compiled with ${flags[*]} (its -dbgsym's DWARF)" built_with "$libpkg-dbgsym" \
  "${flags[@]}"
check "astar compiled with ${flags[*]}" built_with astar-dbgsym "${flags[@]}"
tool_without_mpi() {
  local dep
  dep=$(dpkg-deb -f "$(deb astar)" Depends)
  echo "Depends: $dep"
  [[ $dep == *libpng* ]] && [[ $dep == *libcjson* ]] && [[ $dep != *mpi* ]] &&
    ! readelf -d "$X/astar/usr/bin/astar" | grep -iE 'NEEDED.*(mpi|libastar)'
}
check "astar depends on libpng and libcjson, not on Open MPI (nor on $libpkg: it links libastar.a)" \
  tool_without_mpi

# --- 3. installed ------------------------------------------------------------------------
if [[ $(id -u) != 0 ]]; then
  echo "FAIL installing the packages needs root (apt-get): run sudo $0 --no-build $deb_dir"
  failed=$((failed + 1))
  summary
fi
for p in "$libpkg" libastar-dev astar; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    installed_by_us+=("$p")
  fi
done
install_debs() {
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "$(deb "$libpkg")" "$(deb libastar-dev)" "$(deb astar)" &&
    for p in "$libpkg" libastar-dev astar; do
      [[ $(dpkg-query -W -f='${Version}' "$p") == "$version" ]] || return 1
    done
}
before=$failed
check "apt-get install ./$libpkg.deb ./libastar-dev.deb ./astar.deb ($version)" install_debs
[[ $failed == "$before" ]] || summary

tool_version() {
  local out
  [[ $(command -v astar) == /usr/bin/astar ]] || { echo "astar is $(command -v astar)"; return 1; }
  out=$(astar --version) || return 1
  echo "$out"
  [[ $out == "astar $version (libastar $version)" ]]
}
check "astar --version says $version (tool and library)" tool_version
man_pages() {
  # man -l renders the installed file; man astar finds it through man-db.
  MANWIDTH=100 man -P cat -l /usr/share/man/man1/astar.1.gz >"$TMP/man-l.txt" 2>"$TMP/man.err" &&
    [[ ! -s $TMP/man.err ]] && grep -q '^NAME' "$TMP/man-l.txt" &&
    grep -q 'astar solve' "$TMP/man-l.txt" &&
    [[ $(man -w astar) == /usr/share/man/man1/astar.1.gz ]] &&
    MANWIDTH=100 man -P cat astar | cmp - "$TMP/man-l.txt" &&
    zcat /usr/share/man/man1/astar.1.gz | cmp - <(astar --man)
}
check "man astar and man -l astar.1.gz render the page, which is what astar --man prints" man_pages
# Control-flow protection is required only where dpkg-buildflags asks for it
# (hardening=+all: dpkg >= 1.22 on x86; Debian 12's dpkg does not).
hardening_opts=()
if ! DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get CFLAGS | grep -q -- -fcf-protection; then
  hardening_opts+=(--nocfprotection)
fi
hardened() {
  hardening-check "${hardening_opts[@]}" /usr/bin/astar "$libdir/libastar.so.$major"
}
check "hardening-check ${hardening_opts[*]}: PIE, stack protector, fortify, RELRO, bind now" hardened

# The symbols file (debian/$libpkg.symbols) against what the library
# exports: a listed symbol that is gone already fails the build (an ABI
# break); a new one is versioned by dpkg-gensymbols and listed here.
symbols_file() {
  local exported listed gone new
  exported=$(nm -D --defined-only "$libdir/libastar.so.$major" | awk '$2 == "T" {print $3}' | sort)
  listed=$(sed -n 's/^ \([a-z_0-9]*\)@Base .*/\1/p' "$ROOT/debian/$libpkg.symbols" | sort)
  gone=$(comm -13 <(echo "$exported") <(echo "$listed"))
  new=$(comm -23 <(echo "$exported") <(echo "$listed"))
  if grep -v '^astar_' <<<"$exported"; then echo "^ exported beyond astar_*"; return 1; fi
  [[ -z $gone ]] || { echo "listed but not exported:"; echo "$gone"; return 1; }
  if [[ -n $new ]]; then
    echo "note: exported, not yet in debian/$libpkg.symbols (add them with version $version):" >&2
    # shellcheck disable=SC2086 # one symbol a word
    printf '  %s\n' $new >&2
  fi
  grep -q "^ astar_find_path@Base" "/var/lib/dpkg/info/$libpkg:$arch.symbols"
}
check "the library exports astar_* only, every symbol of debian/$libpkg.symbols among them" \
  symbols_file
[[ -s $LOG ]] && grep -q '^note' "$LOG" && sed 's/^/     /' "$LOG"

# --- the README's example against the installed packages alone -------------------------
# Built in the temporary directory, with no path into this checkout.
awk '/^```c$/{on=1; next} /^```$/{if (on) exit} on' "$ROOT/README.md" >"$TMP/readme.c"
readme_runs() { # BINARY: runs and prints the example's line
  env -u LD_LIBRARY_PATH "$1" >"$1.out" && grep -qE '^[0-9]+ cells, cost [0-9.]+, [0-9]+ expanded$' "$1.out"
}
loads_installed_lib() { # BINARY (ldd may say /lib/<multiarch>: merged /usr)
  local lib
  lib=$(ldd "$1" | sed -n "s/^[[:space:]]*libastar\.so\.$major => \([^ ]*\) .*/\1/p")
  echo "libastar.so.$major => $lib"
  [[ -n $lib && $(readlink -f "$lib") == $(readlink -f "$libdir/libastar.so.$major") ]]
}
pc_shared() {
  [[ -s $TMP/readme.c ]] || { echo "no C block in README.md"; return 1; }
  [[ $(pkg-config --modversion astar) == "$version" ]] || return 1
  # shellcheck disable=SC2046 # word splitting of pkg-config output is intended
  (cd "$TMP" && "$CC" -std=c11 -Wall -Wextra -Werror readme.c -o readme-pc \
    $(pkg-config --cflags --libs astar)) &&
    readme_runs "$TMP/readme-pc" && loads_installed_lib "$TMP/readme-pc"
}
check "README example: cc readme.c \$(pkg-config --cflags --libs astar) builds, runs, loads $libdir/libastar.so.$major" \
  pc_shared
pc_static() {
  # shellcheck disable=SC2046
  (cd "$TMP" && "$CC" -std=c11 -Wall -Wextra -Werror readme.c -o readme-pc-static \
    $(pkg-config --cflags astar) $(pkg-config --static --libs astar | sed 's/-lastar\b/-l:libastar.a/')) &&
    readme_runs "$TMP/readme-pc-static" &&
    ! readelf -d "$TMP/readme-pc-static" | grep -q 'NEEDED.*libastar'
}
check "README example: static (pkg-config --static, -l:libastar.a) builds and runs without the .so" \
  pc_static
cmake_readme() {
  cmake -S "$ROOT/tests/deb" -B "$TMP/cmake-readme" -DREADME_C="$TMP/readme.c" \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_BUILD_TYPE=Release &&
    cmake --build "$TMP/cmake-readme" &&
    [[ $(cat "$TMP/cmake-readme/astar_dir.txt") == "$libdir/cmake/astar" ]] &&
    readme_runs "$TMP/cmake-readme/readme" && loads_installed_lib "$TMP/cmake-readme/readme" &&
    readme_runs "$TMP/cmake-readme/readme_static" &&
    ! readelf -d "$TMP/cmake-readme/readme_static" | grep -q 'NEEDED.*libastar'
}
check "README example: CMake find_package(astar) finds $libdir/cmake/astar; astar::astar and astar::astar_static run" \
  cmake_readme
same_output() {
  cmp "$TMP/readme-pc.out" "$TMP/readme-pc-static.out" &&
    cmp "$TMP/readme-pc.out" "$TMP/cmake-readme/readme.out"
}
check "README example: the same output every way ($(cat "$TMP/readme-pc.out" 2>/dev/null))" same_output
# What examples/basic.c's own comment tells a user to type.
# shellcheck disable=SC2046
installed_example() {
  (cd "$TMP" && cp /usr/share/doc/libastar-dev/examples/basic.c . &&
    "$CC" basic.c $(pkg-config --cflags --libs astar) -o basic && ./basic)
}
check "/usr/share/doc/libastar-dev/examples/basic.c: cc basic.c \$(pkg-config --cflags --libs astar) && ./basic" \
  installed_example
consumer() {
  # tests/install's consumer: rejects find_package(astar 99), defines the
  # three targets, checks astar_version() against the header and a path.
  cmake -S "$ROOT/tests/install" -B "$TMP/consumer" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
    -DCMAKE_BUILD_TYPE=Release && cmake --build "$TMP/consumer" &&
    "$TMP/consumer/consumer" && "$TMP/consumer/consumer_shared" && "$TMP/consumer/consumer_static"
}
check "tests/install's find_package(astar) consumer (version check, three targets) builds and runs" \
  consumer

summary
