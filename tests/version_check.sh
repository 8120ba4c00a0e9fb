#!/usr/bin/env bash
# tests/version_check.sh -- one version across the library, the tool and every
# package (issue 28 item 4).
#
# include/astar/base.h says the version (ASTAR_VERSION_STRING and its three
# parts); CMake, the soname and the Python package read it from there. The
# files whose formats need the number spelled out (npm's package.json, the
# Debian changelog, the vcpkg and Conan recipes, CHANGELOG.md) are checked
# here, each with its own reader, so a release that bumps base.h and forgets
# one of them fails `make test`.
#
#   tests/version_check.sh SOURCE_DIR CMAKE_PROJECT_VERSION ASTAR_TOOL [LIBASTAR_SO]
#
# Prints one line per check and "N passed, N failed" last; exits 1 on a failure.
set -uo pipefail
src=${1:?usage: version_check.sh SOURCE_DIR CMAKE_VERSION ASTAR_TOOL [LIBASTAR_SO]}
cmake_version=${2:?CMAKE_VERSION missing}
tool=${3:?ASTAR_TOOL missing}
solib=${4:-}
cd "$src" || exit 1

pass=0 fail=0
check() { # check WHAT GOT
  if [[ $2 == "$version" ]]; then
    echo "ok   $1: $2"
    pass=$((pass + 1))
  else
    echo "FAIL $1: '${2}', expected '$version'"
    fail=$((fail + 1))
  fi
}

header=include/astar/base.h
part() { sed -n "s/^#define ASTAR_VERSION_$1 \"\\{0,1\\}\\([0-9.]*\\)\"\\{0,1\\}\$/\\1/p" "$header"; }
version=$(part STRING)
if [[ ! $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  echo "FAIL $header: ASTAR_VERSION_STRING '$version' is not MAJOR.MINOR.PATCH"
  echo "0 passed, 1 failed"
  exit 1
fi
major=${version%%.*}
check "$header MAJOR.MINOR.PATCH" "$(part MAJOR).$(part MINOR).$(part PATCH)"
check "CMake project()" "$cmake_version"

# The tool prints its own and the library's version (astar_version()).
out=$("$tool" --version 2>&1)
re='^astar ([^ ]+) \(libastar ([^ )]+)\)$'
if [[ $out =~ $re ]]; then
  check "astar --version (tool)" "${BASH_REMATCH[1]}"
  check "astar --version (astar_version())" "${BASH_REMATCH[2]}"
else
  echo "FAIL astar --version printed '$out'"
  fail=$((fail + 1))
fi

# The soname follows the major version: libastar.so.MAJOR.
if [[ -n $solib ]]; then
  soname=$(objdump -p "$solib" 2>/dev/null | awk '$1 == "SONAME" { print $2 }')
  if [[ $soname == "libastar.so.$major" ]]; then
    echo "ok   soname: $soname"
    pass=$((pass + 1))
  else
    echo "FAIL soname: '$soname', expected 'libastar.so.$major'"
    fail=$((fail + 1))
  fi
fi

# The Python package computes its version from base.h (python/setup.py).
if command -v python3 >/dev/null; then
  check "python/setup.py --version" "$(cd python && python3 setup.py --version 2>/dev/null | tail -1)"
fi

# CHANGELOG.md: the newest released section is this version.
check "CHANGELOG.md newest release" \
  "$(sed -n 's/^## \[\([0-9][0-9.]*\)\].*/\1/p' CHANGELOG.md | head -1)"

# Package files that must spell the number out. Each one listed here must
# exist: a missing file fails rather than being skipped.
json_version() { # json_version FILE [KEY...]: the first of the keys found at the top level
  python3 - "$@" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1], encoding="utf-8"))
for key in sys.argv[2:] or ["version"]:
    if key in doc:
        print(doc[key])
        break
EOF
}
for f in $(cat tests/version_files.txt | sed 's/#.*//'); do
  if [[ ! -f $f ]]; then
    echo "FAIL $f: missing (listed in tests/version_files.txt)"
    fail=$((fail + 1))
    continue
  fi
  case $f in
    */package.json) check "$f" "$(json_version "$f")" ;;
    */package-lock.json)
      check "$f" "$(json_version "$f")"
      check "$f packages[\"\"]" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["packages"][""]["version"])' "$f")"
      ;;
    */vcpkg.json) check "$f" "$(json_version "$f" version version-semver version-string)" ;;
    debian/changelog) check "$f" "$(sed -n '1s/^[^ ]* (\([^)-]*\)\(-[^)]*\)\{0,1\}).*/\1/p' "$f")" ;;
    ports/conan/conanfile.py)
      # The recipe reads base.h in set_version(); run it (under the stand-in
      # for the conan module that tests/ports/recipes.py brings).
      check "$f (set_version)" "$(python3 tests/ports/recipes.py conan-version . 2>&1 | tail -1)"
      ;;
    *) echo "FAIL $f: no reader for this file in tests/version_check.sh"; fail=$((fail + 1)) ;;
  esac
done

echo "$pass passed, $fail failed"
[[ $fail == 0 ]]
