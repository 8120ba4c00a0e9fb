#!/usr/bin/env bash
#
# coop_tests.sh -- end-to-end checks of `astar simulate --cooperative` and
# `--walk` (astar/spacetime.h): agents moving at once on a crowded small
# map collide when they walk independent A* paths and never with the
# reservation table (full search and windowed), and the usage errors name
# the option and its accepted range.
# Usage: coop_tests.sh PATH/TO/astar REPO_ROOT
# Prints one line per failed check and "N passed, M failed"; exits non-zero
# if any check failed.

set -u

# shellcheck source=tests/cli/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_args "$@"
cli_tmp coop

CAVE=$ROOT/tests/data/small/cave64.map

# A crowded little room: 20 or 30 agents on its 56 open cells.
cat >"$TMP/room.txt" <<'MAP'
############
#..........#
#..........#
#....##....#
#....##....#
#..........#
#..........#
############
MAP

# collisions N: the count on the last run's "collisions:" line.
collisions() {
  sed -n 's/^collisions: \([0-9]*\) .*/\1/p' "$OUT"
}

run simulate "$TMP/room.txt" --agents 30 --walk
expect_rc "walk" 0
c=$(collisions)
if [ -n "$c" ] && [ "$c" -gt 0 ]; then ok; else fail "independent paths: collisions '$c', expected > 0"; fi
expect_out "walk names its mode" "independent A\* paths walked at once"

run simulate "$TMP/room.txt" --agents 20 --cooperative
expect_rc "cooperative, full" 0
expect_out "full: no collision" "^collisions: 0 \(0 vertex, 0 swap\)"
expect_out "full: makespan" "^makespan: [0-9]+ steps; sum of costs [0-9.]+"
expect_out "full: expansions" "^search:   [0-9]+ searches, [0-9]+ expanded"

run simulate "$TMP/room.txt" --agents 30 --cooperative --window 6 --seed 3
expect_rc "cooperative, windowed" 0
expect_out "windowed: no collision" "^collisions: 0 \(0 vertex, 0 swap\)"
expect_out "windowed: named" "windowed \(WHCA\*\): window 6, replanned every 3 frames"

run simulate "$CAVE" --agents 40 --cooperative --window 16 --moves 4
expect_rc "cave, 4 moves, windowed" 0
expect_out "cave: no collision" "^collisions: 0 "
expect_out "cave: all arrive" "^arrived:  40 of 40"

# Usage errors: exit 2, one line naming the option and the range.
run simulate "$TMP/room.txt" --agents 3 --cooperative --window 0
expect_rc "window 0" 2
expect_err "window range" "--window: expected an integer from 1 to 4096, got '0'"
expect_one_line_err "window 0"
run simulate "$TMP/room.txt" --agents 3 --window 4
expect_rc "window without cooperative" 2
expect_err "window needs cooperative" "--window needs --cooperative"
run simulate "$TMP/room.txt" --agents 3 --cooperative --walk
expect_rc "cooperative and walk" 2
expect_err "exclusive" "--cooperative and --walk exclude each other"
run simulate "$TMP/room.txt" --agents 3 --cooperative --budget 10
expect_rc "budget with cooperative" 2
expect_err "budget is the queue's" "--budget is an option of the request queue.*not of agents moving at once"
run simulate "$TMP/room.txt" --agents 0 --cooperative
expect_rc "agents 0" 2
expect_err "agents range" "--agents: expected an integer from 1 to"
run simulate "$TMP/room.txt" --agents 200 --cooperative
expect_rc "too many agents" 1
expect_err "too few cells" "too few open cells"

cli_summary
