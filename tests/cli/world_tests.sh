#!/usr/bin/env bash
# world_tests.sh -- `astar simulate` with units walking on a changing map
# (tools/sim_world.c): --replan astar|splice|dstar, --recompute every:N|change|
# waypoint|blocked, --walls / --wall-period, --doors / --door-period. Checks
# the options work, a static map gives optimal walks and no stale step,
# the watch index (--recompute change) leaves no unit stepping into a wall
# while --recompute blocked does, the output is the same for a fixed --seed
# (but the time line), --replan dstar works and has a memory ceiling, and
# usage errors exit 2 naming the argument and its range.
# Usage: world_tests.sh PATH/TO/astar REPO_ROOT
set -u

# shellcheck source=tests/cli/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_args "$@"
cli_tmp world
MAP=$ROOT/tests/data/small/rooms64-8.map

# A static map (no walls, no doors): everyone arrives on an optimal walk.
for mode in astar splice dstar; do
  run simulate "$MAP" --agents 10 --replan $mode --seed 2
  expect_rc "static $mode" 0
  expect_out "static $mode arrives" "^arrived:  10 of 10"
  expect_out "static $mode no stale step" "^steps: .* 0 blocked"
  expect_out "static $mode optimal" "ratio 1\.0000$"
done

# Walls and doors: every policy runs; with the watch index no unit steps
# into a closed cell, with `blocked` some do.
for mode in astar splice; do
  for rc in change blocked every:5 waypoint; do
    [ $mode = astar ] && [ $rc = waypoint ] && continue # astar: the same path as every:N
    run simulate "$MAP" --agents 20 --replan $mode --recompute $rc --walls 30 --doors 10 \
      --wall-period 23 --seed 3
    expect_rc "$mode $rc" 0
    expect_out "$mode $rc world" "^world:    30 walls \(period 23\), 10 doors"
    expect_out "$mode $rc replans" "^replans: "
    case $rc in
    change)
      expect_out "$mode change: no stale step" "^steps: .* 0 blocked"
      expect_out "$mode change: the watch" "^watch: "
      ;;
    blocked) expect_out "$mode blocked: stale steps" "^steps: .* [1-9][0-9]* blocked" ;;
    esac
  done
done
expect_out "splice outcomes" "^splice:   [0-9]+ intact, [0-9]+ spliced, [0-9]+ full searches"

# D* Lite: a planner a unit, repaired after every edit; the same walls.
run simulate "$MAP" --agents 20 --replan dstar --walls 30 --doors 10 --wall-period 23 --seed 3
expect_rc "dstar walls" 0
expect_out "dstar mode line" "replan dstar \(a D\* Lite planner a unit"
expect_out "dstar arrives" "^arrived:  20 of 20"
expect_out "dstar repairs after edits" "^replans: .* changed [1-9][0-9]*"
# Planners too big for memory: a clear error, not a crash.
run simulate "$MAP" --agents 100000 --replan dstar
expect_rc "dstar memory ceiling" 1
expect_err "dstar memory ceiling message" "use fewer --agents"

# Deterministic for a fixed seed (the time line aside).
run simulate "$MAP" --agents 15 --replan splice --walls 20 --doors 5 --seed 7
grep -v '^time' "$OUT" >"$TMP/a"
run simulate "$MAP" --agents 15 --replan splice --walls 20 --doors 5 --seed 7
grep -v '^time' "$OUT" >"$TMP/b"
if cmp -s "$TMP/a" "$TMP/b"; then ok; else fail "same seed, different output"; fi
run simulate "$MAP" --agents 15 --replan splice --walls 20 --doors 5 --seed 8
grep -v '^time' "$OUT" >"$TMP/c"
if cmp -s "$TMP/a" "$TMP/c"; then fail "another seed, same output"; else ok; fi

# Usage errors: exit 2, one line naming the argument and the range.
check_usage() { # NAME REGEX ARGS...
  local name=$1 re=$2
  shift 2
  run simulate "$MAP" "$@"
  expect_rc "$name" 2
  expect_err "$name names it" "$re"
  expect_one_line_err "$name"
}
check_usage "--replan foo" "--replan: expected one of astar\|splice\|dstar" --agents 3 --replan foo
check_usage "--cooperative with walls" "--cooperative is an option of agents moving at once.*not of units walking" --agents 3 --walls 2 --cooperative
check_usage "--recompute foo" "--recompute: expected every:N .* change, waypoint or blocked" \
  --agents 3 --recompute foo
check_usage "--recompute every:0" "--recompute: expected every:N \(N from 1 to 1000000\)" \
  --agents 3 --recompute every:0
check_usage "--walls -1" "--walls: expected an integer from 0 to 100000" --agents 3 --walls -1
check_usage "--wall-period 0" "--wall-period: expected an integer from 1 to 1000000" \
  --agents 3 --walls 2 --wall-period 0
check_usage "--doors x" "--doors: expected an integer from 0 to 100000" --agents 3 --doors x
check_usage "--door-period 0" "--door-period: expected an integer from 1" --agents 3 --door-period 0
check_usage "--splice-ratio -1" "--splice-ratio" --agents 3 --replan splice --splice-ratio -1
check_usage "no --agents" "missing --agents" --replan splice
check_usage "--agents 0" "--agents: expected an integer from 1 to 100000" --agents 0 --replan astar
check_usage "--budget 0" "--budget" --agents 3 --replan astar --budget 0
check_usage "--turn-penalty" "without --turn-penalty" --agents 3 --replan splice --turn-penalty 1

# The help names the walking options (the manual page is made from it).
run simulate --help
expect_out "help: --replan" "--replan astar\|splice"
expect_out "help: --recompute" "every:N"

cli_summary
