#!/usr/bin/env bash
# subgoal_tests.sh -- the tool's subgoal graphs (astar/subgoal.h) end to
# end: precompute --method subgoal [--levels N] writes the graph (the same
# bytes twice, its report lines), bench --algo subgoal --check with the file
# (--pre) and built in process, at several level counts (exact lengths);
# solve --algo subgoal gives A*'s cost, with and without --pre. A damaged or
# truncated file, or another map's, exits 1 naming the file; a file searched
# with other costs exits 1 saying so; bad --levels values exit 2 naming the
# option and its range; --levels with another method exits 2; the rules a
# graph cannot serve (4 moves, corner cutting, terrain) are refused.
# Usage: subgoal_tests.sh PATH/TO/astar REPO_ROOT
set -u

# shellcheck source=tests/cli/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_args "$@"
cli_tmp subgoal
SMALL=$ROOT/tests/data/small

run precompute "$SMALL/cave64.map" --method subgoal -o "$TMP/a.sg"
expect_rc "precompute --method subgoal" 0
expect_out "precompute reports the graph" "^subgoal: +[0-9]+ subgoals, [0-9]+ arcs, [0-9]+ levels"
if [ -s "$ERR" ]; then fail "precompute wrote to stderr"; else ok; fi
if [ "$(head -c 8 "$TMP/a.sg")" = "ASTARSGG" ]; then ok; else fail "not a subgoal graph file"; fi
run precompute "$SMALL/cave64.map" --algo subgoal -o "$TMP/b.sg"
if cmp -s "$TMP/a.sg" "$TMP/b.sg"; then ok; else fail "two builds give other bytes"; fi
run precompute "$SMALL/cave64.map" --method subgoal --levels 1 -o "$TMP/one.sg"
expect_rc "precompute --levels 1" 0
expect_out "one level" "^subgoal: .* 1 level "

run bench "$SMALL/cave64.map.scen" --algo subgoal --pre "$TMP/a.sg" --check --quiet
expect_rc "bench --algo subgoal --pre" 0
run bench "$SMALL/cave64.map.scen" --algo subgoal --pre "$TMP/one.sg" --check --quiet
expect_rc "bench --pre a one-level file" 0
for levels in 0 1 2 3; do
  run bench "$SMALL" --algo subgoal --levels "$levels" --check --quiet --every 3
  expect_rc "bench --algo subgoal --levels $levels built in process" 0
done
run solve "$SMALL/cave64.map" 36 43 26 52 --no-picture
base=$(grep '^cost' "$OUT")
run solve "$SMALL/cave64.map" 36 43 26 52 --algo subgoal --no-picture
expect_rc "solve --algo subgoal" 0
if [ -n "$base" ] && [ "$(grep '^cost' "$OUT")" = "$base" ]; then ok; else
  fail "solve --algo subgoal cost differs from A*'s"
fi
run solve "$SMALL/cave64.map" 36 43 26 52 --algo subgoal --pre "$TMP/a.sg" --no-picture
expect_rc "solve --algo subgoal --pre" 0
if [ "$(grep '^cost' "$OUT")" = "$base" ]; then ok; else fail "solve --pre cost differs"; fi

# Bad files: named, exit 1.
run bench "$SMALL/maze64-1.map.scen" --algo subgoal --pre "$TMP/a.sg" --check
expect_rc "another map's file" 1
expect_err "another map's file named" "a.sg: the subgoal graph was built for another map"
head -c 2000 "$TMP/a.sg" >"$TMP/cut.sg"
run bench "$SMALL/cave64.map.scen" --algo subgoal --pre "$TMP/cut.sg" --check
expect_rc "truncated file" 1
expect_err "truncated file named" "cut.sg: not a valid precomputation file"
cp "$TMP/a.sg" "$TMP/bad.sg"
printf '\377' | dd of="$TMP/bad.sg" bs=1 seek=2000 conv=notrunc 2>/dev/null
run solve "$SMALL/cave64.map" 36 43 26 52 --algo subgoal --pre "$TMP/bad.sg" --no-picture
expect_rc "damaged file" 1
expect_err "damaged file named" "bad.sg: not a valid precomputation file"
printf 'not a graph' >"$TMP/text.sg"
run bench "$SMALL/cave64.map.scen" --algo subgoal --pre "$TMP/text.sg"
expect_rc "another format" 1
expect_err "another format named" "text.sg"
run bench "$SMALL/cave64.map.scen" --algo subgoal --pre "$TMP/a.sg" --costs 1,1.5
expect_rc "a file searched with other costs" 1
expect_err "other costs said" "built for other movement costs"

# Bad --levels: exit 2, the option and its range named.
for bad in -1 65 x 1.5; do
  run precompute "$SMALL/cave64.map" --method subgoal --levels "$bad" -o "$TMP/x.sg"
  expect_rc "--levels $bad" 2
  expect_err "--levels $bad names the option and range" "--levels: expected an integer from 0 to 64"
  if [ -e "$TMP/x.sg" ]; then fail "--levels $bad wrote a file"; else ok; fi
  run bench "$SMALL/cave64.map.scen" --algo subgoal --levels "$bad"
  expect_rc "bench --levels $bad" 2
done
run solve "$SMALL/cave64.map" 36 43 26 52 --algo hpa --levels 0 --no-picture
expect_rc "hpa --levels 0" 2
expect_err "hpa's range" "--levels: expected an integer from 1 to 4 with --algo hpa"
run precompute "$SMALL/cave64.map" --method jps-plus --levels 2 -o "$TMP/x.jpp"
expect_rc "--levels with jps-plus" 2
expect_err "--levels names its methods" "--levels needs --method hpa or --method subgoal"

# The rules a graph cannot serve.
for rules in "--moves 4" "--corner always"; do
  # shellcheck disable=SC2086 # two words
  run precompute "$SMALL/cave64.map" --method subgoal -o "$TMP/r.sg" $rules
  expect_rc "precompute --method subgoal $rules" 2
  expect_err "precompute $rules says why" "precompute: --method subgoal: "
  if [ -e "$TMP/r.sg" ]; then fail "precompute $rules wrote a file"; else ok; fi
done
cli_summary
