#!/usr/bin/env bash
#
# clearance_tests.sh -- `astar solve --size K --capability LIST`: units
# bigger than one cell and terrain capabilities (astar/clearance.h), end to
# end: paths of the unit's anchor, what fits, water opened for boats, and
# the usage errors. Usage: clearance_tests.sh PATH/TO/astar REPO_ROOT
# Prints one line per failed check and "N passed, M failed" at the end;
# exits non-zero if any check failed.
set -u

# shellcheck source=tests/cli/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_args "$@"
cli_tmp clr

# A corridor one cell wide at x=4 (rows 0-2) and a gap two cells wide at the
# bottom: a 1x1 unit goes through the narrow gap, a 2x2 unit around.
cat >"$TMP/gap.txt" <<'M'
....#....
.........
....#....
....#....
....#....
.........
.........
M
# A lake: only a unit that may enter water crosses it.
cat >"$TMP/lake.map" <<'M'
type octile
height 6
width 8
map
........
..WWWW..
..WWWW..
@@WWWW@@
........
........
M

run solve "$TMP/gap.txt" 0 0 8 0 --no-picture
expect_rc "1x1 narrow gap" 0
expect_out "1x1 narrow gap: through (4,1)" "\(4,1\)"
run solve "$TMP/gap.txt" 0 0 7 0 --size 2 --no-picture
expect_rc "2x2" 0
expect_out "2x2 says the unit" "^unit: +2x2, may enter ground,swamp; [0-9]+ anchor cells fit"
expect_out "2x2 goes around, through the wide gap" "\(4,5\)"
if grep -q "(4,1)" "$OUT"; then fail "2x2 squeezed through the one-cell gap"; else ok; fi
run solve "$TMP/gap.txt" 0 0 8 0 --size 2 --no-picture
expect_rc "2x2 anchor does not fit at the right edge" 1
expect_out "2x2 goal blocked" "goal cell is blocked"
run solve "$TMP/gap.txt" 0 0 7 0 --size 3 --no-picture
expect_rc "3x3 cannot pass" 1
run solve "$TMP/gap.txt" 0 0 7 0 --size 2 --algo jps --no-picture
expect_rc "2x2 with JPS" 0
expect_out "2x2 with JPS: same cost" "^cost: +14\.65685"
run solve "$TMP/gap.txt" 0 0 7 0 --size 2 --no-picture
expect_out "2x2 with A*: cost" "^cost: +14\.65685"
# Every method runs on the derived grid: JPS+, the engine, the sliced search.
for extra in "--algo jps-plus" "--space graph --algo bidir" "--budget 5"; do
  # shellcheck disable=SC2086
  run solve "$TMP/gap.txt" 0 0 7 0 --size 2 --no-picture $extra
  expect_out "2x2 with $extra: cost" "^cost: +14\.65685"
done

run solve "$TMP/lake.map" 0 0 0 4 --size 2 --no-picture
expect_rc "walker: the lake and walls block" 1
run solve "$TMP/lake.map" 0 0 0 4 --size 2 --capability ground,water --no-picture
expect_rc "amphibious 2x2 crosses" 0
expect_out "amphibious names its types" "may enter ground,water;"
run solve "$TMP/lake.map" 2 1 4 2 --capability water --no-picture
expect_rc "a boat stays on water" 0
run solve "$TMP/lake.map" 0 0 7 0 --capability water --no-picture
expect_rc "a boat cannot start on ground" 1
expect_out "boat start blocked" "start cell is blocked"

run solve "$TMP/gap.txt" 0 0 7 0 --size 0
expect_rc "--size 0" 2
expect_err "--size range" "--size: expected an integer from 1 to 255, got '0'"
run solve "$TMP/gap.txt" 0 0 7 0 --size 256
expect_rc "--size 256" 2
run solve "$TMP/gap.txt" 0 0 7 0 --capability lava
expect_rc "--capability lava" 2
expect_err "--capability names the list" "--capability: expected a comma-separated list of ground, swamp, water, trees, got 'lava'"
run solve "$TMP/gap.txt" 0 0 7 0 --size 2 --space waypoints
expect_rc "--size with waypoints" 2
expect_err "--size with waypoints says why" "--size 2 needs grid moves"
run solve "$TMP/gap.txt" 0 0 7 0 --size 2 --algo theta
expect_rc "--size with theta" 2
run solve "$TMP/gap.txt" 0 0 7 0 --size 2 --smooth
expect_rc "--size with --smooth" 2
# A 1x1 unit with a capability may take any-angle paths.
run solve "$TMP/lake.map" 0 0 0 5 --capability ground,water --algo theta --no-picture
expect_rc "--capability with theta" 0
run solve --help
expect_out "help lists --size" "--size K"
expect_out "help lists --capability" "--capability LIST"

cli_summary
