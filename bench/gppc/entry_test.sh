#!/usr/bin/env bash
# bench/gppc/entry_test.sh CXX SOURCE_DIR LIBASTAR_A [SANITIZE] -- the ctest gppc_entry:
# bench/gppc/Entry.cpp (libastar as a GPPC entry) compiled against
# bench/gppc/test/Entry.h (the harness's interface, declared; the harness
# itself stays outside the repository) and bench/gppc/test/mini_driver.cpp,
# then every method answers every pair of cells of the driver's map through
# the preprocess / load / query phases, checked by the driver. Any failure
# fails the test. SANITIZE 1 or ON (the library built with ASTAR_SANITIZE): the
# driver is built with the same sanitizers, which the library's objects need,
# and run without the leak check: the GPPC interface has no call that frees
# the state PrepareForSearch returns (the harness's process just exits).
set -u
CXX=$1 SRC=$2 LIB=$3 SAN=()
case ${4:-0} in 1 | ON | on) SAN=(-fsanitize=address,undefined -fno-omit-frame-pointer);; esac
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gppc_entry.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
"$CXX" -std=c++17 -O1 "${SAN[@]}" -W -Wall -Werror -I"$SRC/bench/gppc/test" -I"$SRC/include" \
  "$SRC/bench/gppc/Entry.cpp" "$SRC/bench/gppc/test/mini_driver.cpp" "$LIB" -lm -lpthread \
  -o "$TMP/driver" || { echo "FAIL: Entry.cpp does not compile"; exit 1; }
fail=0
for m in astar jps jps-plus cpd subgoal; do
  mkdir -p "$TMP/$m"
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 ASTAR_GPPC_METHOD=$m "$TMP/driver" "$TMP/$m" >"$TMP/$m.out" 2>"$TMP/$m.err"
  rc=$?
  if [ $rc != 0 ]; then
    echo "FAIL: $m (exit $rc)"; cat "$TMP/$m.out" "$TMP/$m.err"; fail=1; continue
  fi
  case $m in jps-plus | cpd | subgoal)  # the preprocessing wrote the file the queries loaded
    [ -s "$TMP/$m/libastar-$m-mini" ] || { echo "FAIL: $m wrote no preprocessed file"; fail=1; } ;;
  esac
  cat "$TMP/$m.out"
done
# A wrong method name is refused by name.
ASTAR_GPPC_METHOD=dijkstra "$TMP/driver" "$TMP" >/dev/null 2>"$TMP/bad.err"
rc=$?
if [ $rc != 3 ] || ! grep -q "'dijkstra' is not one of astar, jps, jps-plus, cpd, subgoal" "$TMP/bad.err"; then
  echo "FAIL: ASTAR_GPPC_METHOD=dijkstra: exit $rc: $(cat "$TMP/bad.err")"; fail=1
fi
# The query phase without the preprocessing's file says so.
mkdir -p "$TMP/none"
ASTAR_GPPC_METHOD=cpd "$TMP/driver" "$TMP/none/missing-dir" >/dev/null 2>"$TMP/nofile.err"
rc=$?
if [ $rc != 3 ] || ! grep -q 'cannot write' "$TMP/nofile.err"; then
  echo "FAIL: a preprocessing file that cannot be written: exit $rc: $(cat "$TMP/nofile.err")"; fail=1
fi
exit $fail
