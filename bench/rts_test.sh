#!/usr/bin/env bash
#
# rts_test.sh -- the RTS benchmark (bench/rts.c) on small runs, as a ctest
# test (bench_rts), not a timed one: every delivered path is well formed,
# every path of a unit that sees the true map costs what the one-shot
# search on the map of that moment costs (--verify) and crosses no wall
# (--check: exit 1 otherwise), and the same seed prints the same figures
# (milliseconds aside). Usage: rts_test.sh PATH/TO/rts
# Prints one line per failed check and "N passed, M failed"; exits non-zero
# if any check failed.
set -u
RTS=$1
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SMALL=$HERE/../tests/data/small
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# The row without its two millisecond columns (15 and 16 of the |-split).
figures() { cut -d'|' -f1-14,17- <<<"$1"; }

# Small worlds, walls every few frames, both players, all sizes.
runs=(
  "--map gen:64 --units 30 --frames 300 --budget 300 --wall-every 3 --fog 50"
  "--map gen:80x48 --sizes 10,5,5 --frames 300 --budget 1000 --wall-every 2 --fog 30 --fog-start map"
  "--map $SMALL/rooms64-8.map --units 40 --frames 300 --budget 500 --wall-every 4 --restarts 0"
  "--map $SMALL/cave64.map --units 25 --mix 40,30,30 --frames 250 --budget 2000 --step-frames 2"
)
for args in "${runs[@]}"; do
  # shellcheck disable=SC2086 # the arguments are meant to split
  if out1=$("$RTS" $args --verify --check 2>&1); then ok; else bad "rts $args --verify --check: $out1"; continue; fi
  # shellcheck disable=SC2086
  out2=$("$RTS" $args --verify --check 2>&1)
  if [[ $(figures "$out1") == "$(figures "$out2")" ]]; then ok; else
    bad "rts $args: two runs differ:"$'\n'"$out1"$'\n'"$out2"
  fi
  # Columns: 8 requests; 21 stale truth; 22 violations.
  req=$(cut -d'|' -f8 <<<"$out1" | tr -d ' ')
  viol=$(cut -d'|' -f22 <<<"$out1" | tr -d ' ')
  if [[ $req -gt 20 && $viol == 0 ]]; then ok; else bad "rts $args: requests $req, violations $viol"; fi
done

# The text report names every figure the table has.
out=$("$RTS" --map gen:48 --units 8 --frames 50 --format text 2>&1)
for want in "latency (frames)" "stale deliveries" "violations" "restarts" "arrivals" "expansions a frame"; do
  if grep -qF "$want" <<<"$out"; then ok; else bad "--format text lacks '$want': $out"; fi
done

# Usage errors: exit 2, the argument named on stderr.
check_usage() { # EXPECTED-TEXT ARGS...
  local want=$1
  shift
  local err
  err=$("$RTS" "$@" 2>&1 >/dev/null)
  local rc=$?
  if [[ $rc == 2 && $err == *"$want"* ]]; then ok; else bad "rts $*: exit $rc, stderr '$err' (want 2, '$want')"; fi
}
check_usage "--units" --units 0
check_usage "--mix" --mix 50,40,5
check_usage "--map" --map gen:8
check_usage "--map" --map /nonexistent.map
check_usage "--policy" --policy nosuch
check_usage "--method" --method jps
check_usage "--format" --format csv
check_usage "unknown option" --frobnicate 1
check_usage "missing value" --budget

echo "$pass passed, $fail failed"
[[ $fail == 0 ]]
