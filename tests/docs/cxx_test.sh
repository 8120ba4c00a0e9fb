#!/usr/bin/env bash
#
# cxx_test.sh -- the library from C++: every public header compiles on its
# own as C++17 under the strictest warnings a C++ user turns on; one
# program that includes astar/astar.h, expands every ASTAR_* macro of the
# headers and takes the address of every ASTAR_API function links against
# the C library (so every declaration sits inside extern "C": a missing
# guard leaves a C++-mangled name the link cannot find); and the programs
# of examples/cpp compile under the same warnings.
# Usage: cxx_test.sh CXX REPO_ROOT LIBASTAR_A [EXTRA_FLAGS]
# Prints one line per check and "N passed, M failed"; exits 1 if a check
# failed, 2 on bad usage.
set -u

if [ $# -lt 3 ] || [ $# -gt 4 ]; then
  echo "usage: $0 CXX REPO_ROOT LIBASTAR_A [EXTRA_FLAGS]" >&2
  exit 2
fi
CXX=$1
ROOT=$2
LIB=$3
read -r -a EXTRA <<<"${4:-}"
FLAGS=(-std=c++17 -Wall -Wextra -Wpedantic -Wold-style-cast -Werror -I"$ROOT/include")
TMP=$(mktemp -d "${TMPDIR:-/tmp}/astar-cxx.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT

passed=0
failed=0
ok() {
  echo "ok   $1"
  passed=$((passed + 1))
}
# fail NAME: a failed check, shown with the compiler's first complaints.
fail() {
  echo "FAIL $1"
  head -n 12 "$TMP/log" | sed 's/^/     | /'
  failed=$((failed + 1))
}

for h in "$ROOT"/include/astar/*.h; do
  name=astar/$(basename "$h")
  printf '#include <%s>\n#include <%s>\nint main() { return 0; }\n' "$name" "$name" >"$TMP/one.cpp"
  if "$CXX" "${FLAGS[@]}" "${EXTRA[@]}" -fsyntax-only "$TMP/one.cpp" >"$TMP/log" 2>&1; then
    ok "$name compiles alone (and twice) as C++17"
  else
    fail "$name does not compile alone as C++17 without warnings"
  fi
done

# The program: every ASTAR_API function's address into a volatile sink (a
# reference the link must resolve), every macro expanded once.
{
  echo '#include <astar/astar.h>'
  echo 'using any_fn = void (*)();'
  echo 'static any_fn volatile sink;'
  echo 'static void use(unsigned long long) {}'
  echo 'int main() {'
  # Declarations, with their comments and line breaks gone.
  sed -e 's://.*$::' "$ROOT"/include/astar/*.h | tr '\n' ' ' | sed -e 's:/\*[^*]*\*\+\([^/*][^*]*\*\+\)*/: :g' |
    grep -o 'ASTAR_API[^;(]*(' | sed -n 's/.*\b\(astar_[A-Za-z0-9_]*\)\s*($/\1/p' | sort -u |
    while read -r fn; do echo "  sink = reinterpret_cast<any_fn>(&$fn);"; done
  # Macros: object-like ones as values, function-like ones applied to 0.
  grep -h '^#define ASTAR_' "$ROOT"/include/astar/*.h |
    awk '{ print $2 }' | grep -v -e '_H$' -e '^ASTAR_API$' | sort -u |
    while read -r m; do
      case $m in
        *\(*) args=$(echo "$m" | sed 's/^[^(]*(\(.*\))$/\1/' | sed 's/[^,]\+/0/g')
              echo "  use(static_cast<unsigned long long>(${m%%(*}($args)));" ;;
        ASTAR_VERSION_STRING) echo "  static_cast<void>(sizeof $m);" ;;
        *) echo "  use(static_cast<unsigned long long>($m));" ;;
      esac
    done
  echo '  return sink == nullptr ? 1 : 0;'
  echo '}'
} >"$TMP/all.cpp"
n=$(grep -c 'sink = ' "$TMP/all.cpp")
m=$(grep -c 'use(static_cast\|static_cast<void>' "$TMP/all.cpp")
if [ "$n" -lt 100 ]; then
  echo "cxx_test.sh: found only $n ASTAR_API functions in the headers" >"$TMP/log"
  fail "the headers' functions were not found"
elif "$CXX" "${FLAGS[@]}" "${EXTRA[@]}" "$TMP/all.cpp" "$LIB" -lm -pthread -o "$TMP/all" \
  >"$TMP/log" 2>&1 && "$TMP/all" >>"$TMP/log" 2>&1; then
  ok "a C++ program using all $n functions and $m macros links against the C library"
else
  fail "a C++ program using every function and macro does not build (or run) cleanly"
fi

found=0
for src in "$ROOT"/examples/cpp/*.cpp; do
  [ -e "$src" ] || continue
  found=1
  if "$CXX" "${FLAGS[@]}" "${EXTRA[@]}" -fsyntax-only "$src" >"$TMP/log" 2>&1; then
    ok "examples/cpp/$(basename "$src") compiles under ${FLAGS[*]:0:6}"
  else
    fail "examples/cpp/$(basename "$src") does not compile cleanly"
  fi
done
if [ "$found" = 0 ]; then
  echo "no examples/cpp/*.cpp" >"$TMP/log"
  fail "examples/cpp holds no C++ program"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
