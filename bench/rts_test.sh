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

# Columns are found by their header (the table may grow): field numbers of
# the |-split, where field 1 is the empty text before the first '|'.
HEADER=$("$RTS" --map gen:16 --units 1 --frames 1 --format header | head -1)
field() { # NAME: the field number of the column named NAME (the first one)
  awk -F'|' -v name="$1" '{ for (i = 2; i <= NF; i++) { c = $i; gsub(/^ +| +$/, "", c);
    if (c == name) { print i; exit } } }' <<<"$HEADER"
}
col() { cut -d'|' -f"$(field "$1")" <<<"$2" | tr -d ' '; } # NAME ROW
MS=$(field "ms/frame mean") # and the p95 after it: the only figures that vary
# The row without its milliseconds.
figures() { cut -d'|' -f1-$((MS - 1)),$((MS + 2))- <<<"$1"; }

# Small worlds, walls every few frames, both players, all sizes.
runs=(
  "--map gen:64 --units 30 --frames 300 --budget 300 --wall-every 3 --fog 50"
  "--map gen:80x48 --sizes 10,5,5 --frames 300 --budget 1000 --wall-every 2 --fog 30 --fog-start map"
  "--map $SMALL/rooms64-8.map --units 40 --frames 300 --budget 500 --wall-every 4 --restarts 0"
  "--map $SMALL/cave64.map --units 25 --mix 40,30,30 --frames 250 --budget 2000 --step-frames 2"
  "--map gen:64 --units 30 --mix 50,30,20 --frames 300 --budget 400 --fog 60 --policy queue-astar-view"
  # One queue for every size (issue 26): optimal methods, so --verify holds.
  "--map gen:64 --units 30 --mix 50,30,20 --frames 300 --budget 400 --wall-every 3 --fog 50 --policy queue --method astar-lm"
  "--map $SMALL/rooms64-8.map --units 40 --mix 50,30,20 --frames 300 --budget 500 --wall-every 4 --fog 50 --policy queue --method jps"
)
for args in "${runs[@]}"; do
  # shellcheck disable=SC2086 # the arguments are meant to split
  if out1=$("$RTS" $args --verify --check 2>&1); then ok; else bad "rts $args --verify --check: $out1"; continue; fi
  # shellcheck disable=SC2086
  out2=$("$RTS" $args --verify --check 2>&1)
  if [[ $(figures "$out1") == "$(figures "$out2")" ]]; then ok; else
    bad "rts $args: two runs differ:"$'\n'"$out1"$'\n'"$out2"
  fi
  req=$(col requests "$out1")
  viol=$(col violations "$out1")
  if [[ $req -gt 20 && $viol == 0 ]]; then ok; else bad "rts $args: requests $req, violations $viol"; fi
done

# queue-astar-view: the fog player's searches run on grids that follow its
# knowledge, so no path it gets crosses a wall it knows of, at the price of
# restarts -- with the shroud, many.
args="--map gen:64 --units 40 --frames 300 --budget 300 --fog 100 --policy queue-astar-view"
# shellcheck disable=SC2086
out=$("$RTS" $args --check)
stale_fog=$(col "stale fog" "$out")
restarts=$(col restarts "$out")
if [[ $stale_fog == 0 && $restarts -gt 0 ]]; then ok; else
  bad "rts $args: stale fog $stale_fog (want 0), restarts $restarts (want > 0): $out"
fi

# queue with HPA* (near-optimal: no --verify) and the fog player's A*
# restarting on knowledge versions: no stale path for either player.
args="--map gen:64 --units 40 --mix 60,30,10 --frames 300 --budget 300 --wall-every 3 --fog 60 --policy queue --method hpa-lm"
# shellcheck disable=SC2086
out=$("$RTS" $args --check)
if [[ $? == 0 && $(col "stale fog" "$out") == 0 && $(col "stale truth" "$out") == 0 &&
      $(col violations "$out") == 0 && $(col requests "$out") -gt 20 ]]; then ok; else
  bad "rts $args: $out"
fi

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
