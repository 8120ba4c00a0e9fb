#!/usr/bin/env bash
#
# table_tests.sh -- end-to-end checks of the waypoint-table heuristic in the
# tool (astar/waypoint_table.h): `solve` and `bench` with --heuristic-table
# seed|bound, --table-gap W, --table-tile S -- the optimal costs of bound,
# the table line, and the usage errors naming the option and its range.
# Usage: table_tests.sh PATH/TO/astar REPO_ROOT
# Prints one line per failed check and "N passed, M failed"; exits non-zero
# if any check failed.

set -u

# shellcheck source=tests/cli/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_args "$@"
cli_tmp table

ROOMS=$ROOT/tests/data/small/rooms64-8.map

# S and G in rooms that no door joins: still no path (exit 1).
cat >"$TMP/two.txt" <<'MAP'
#####.####
#S.......#
##########
#........#
#######.##
#.......G#
MAP
run solve "$TMP/two.txt" --heuristic-table bound --no-picture
expect_rc "bound, no path" 1
printf '.....#....\n.S...#..G.\n.....#....\n..........\n' >"$TMP/wall.txt"
run solve "$TMP/wall.txt" --heuristic-table bound --no-picture
expect_rc "solve bound" 0
expect_out "table line" "^table:    bound form, [0-9]+ waypoints \(automatic\), [0-9]+ bytes, built in"
expect_out "heuristic named" "heuristic callback"
cost_plain=$("$ASTAR" solve "$TMP/wall.txt" --no-picture | grep '^cost:')
cost_bound=$(grep '^cost:' "$OUT")
if [ -n "$cost_plain" ] && [ "$cost_plain" = "$cost_bound" ]; then ok; else
  fail "bound cost '$cost_bound' differs from octile A* '$cost_plain'"; fi

run solve "$ROOMS" 1 1 60 60 --heuristic-table seed --table-gap 1 --no-picture
expect_out "doors" "^table:    seed form, [0-9]+ waypoints \(doors\)"
run solve "$ROOMS" 1 1 60 60 --heuristic-table bound --table-tile 8 --no-picture
expect_out "coarse grid: 64 tiles" "^table:    bound form, 64 waypoints \(coarse grid\)"

# bench: bound is optimal on every query (--check), seed reports cost/opt.
run bench "$ROOT/tests/data/small/rooms64-8.map.scen" --heuristic-table bound --check --warmup 0
expect_rc "bench bound --check" 0
expect_out "pre columns" "pre bytes"
run bench "$ROOT/tests/data/small/rooms64-8.map.scen" --heuristic-table seed --warmup 0
expect_rc "bench seed" 0
expect_out "cost/opt column" "cost/opt"

# Usage errors: one line naming the option (and its range), exit 2.
run solve "$ROOMS" 1 1 60 60 --heuristic-table best
expect_rc "bad form" 2
expect_err "bad form message" "--heuristic-table: expected one of bound\|seed, got 'best'"
expect_one_line_err "bad form one line"
run solve "$ROOMS" 1 1 60 60 --heuristic-table bound --table-gap 65
expect_rc "gap too wide" 2
expect_err "gap range" "--table-gap: expected an integer from 1 to 64, got '65'"
run solve "$ROOMS" 1 1 60 60 --heuristic-table bound --table-tile 0
expect_rc "tile 0" 2
expect_err "tile range" "--table-tile: expected an integer from 1 to 32768, got '0'"
run solve "$ROOMS" 1 1 60 60 --table-gap 2
expect_rc "gap without table" 2
expect_err "gap needs table" "need --heuristic-table"
run solve "$ROOMS" 1 1 60 60 --heuristic-table seed --table-gap 2 --table-tile 4
expect_rc "gap and tile" 2
expect_err "one way" "give one"
run solve "$ROOMS" 1 1 60 60 --heuristic-table seed --algo jps
expect_rc "jps" 2
expect_err "astar only" "needs --algo astar"
run bench "$ROOT/tests/data/small/rooms64-8.map.scen" --heuristic-table bound --threads 2
expect_rc "bench threads" 2
expect_one_line_err "bench threads one line"
run solve --help
expect_out "help lists the option" "--heuristic-table F"
run bench --help
expect_out "bench help lists the option" "--table-tile S"

cli_summary
