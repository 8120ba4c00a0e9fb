#!/usr/bin/env bash
#
# hpa_tests.sh -- `--algo hpa` (astar/hierarchy.h) end to end: solve and
# bench find every path at or above the optimal length, precompute writes a
# file that bench --pre loads, and the usage errors: a bad --cluster or
# --levels names the option and its range (exit 2), the HPA* settings with
# another algorithm (exit 2), a damaged --pre file names the file (exit 1),
# a --pre file built for other movement rules than the search's (--moves,
# --costs, --corner) is refused naming both and how to make a matching file
# (exit 1); precompute builds for the rules given, and that file gives the
# paths of the hierarchy built in process under them.
# Usage: hpa_tests.sh PATH/TO/astar REPO_ROOT
set -u

# shellcheck source=tests/cli/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_args "$@"
cli_tmp hpa
SMALL=$ROOT/tests/data/small

run solve "$SMALL/maze64-1.map" 1 1 61 61 --algo hpa --no-picture
expect_rc "solve --algo hpa finds the maze path" 0
expect_out "solve reports a cost" "cost"

run bench "$SMALL" --algo hpa --check
expect_rc "bench --algo hpa --check: every path found, none below optimal" 0
expect_out "bench shows the largest cost/opt" "max c/opt"

run bench "$SMALL" --algo hpa --levels 2 --cluster 8 --no-smooth --check
expect_rc "two levels, cluster 8, no smoothing: checked" 0

run precompute "$SMALL/cave64.map" -o "$TMP/cave.hpa" --algo hpa --cluster 8
expect_rc "precompute --algo hpa" 0
expect_out "precompute reports bytes per cell" "bytes/cell"

run bench "$SMALL/cave64.map.scen" --algo hpa --pre "$TMP/cave.hpa" --check
expect_rc "bench --pre loads the hierarchy" 0

head -c 100 "$TMP/cave.hpa" >"$TMP/cut.hpa"
run bench "$SMALL/cave64.map.scen" --algo hpa --pre "$TMP/cut.hpa"
expect_rc "a truncated --pre file fails" 1
expect_err "the error names the file" "cut.hpa"

run bench "$SMALL/maze64-1.map.scen" --algo hpa --pre "$TMP/cave.hpa"
expect_rc "a --pre file of another map fails" 1

# The file records the movement rules it was built for (precompute: the
# defaults, 8 moves, no corner cutting, costs 1/1.414...); a search under
# other rules is refused, naming both -- the old tool searched with the
# file's rules and printed "4 moves" beside a path with a diagonal step.
run precompute "$SMALL/cave64.map" -o "$TMP/cave16.hpa" --algo hpa
expect_rc "precompute --algo hpa, default rules" 0
run solve "$SMALL/cave64.map" 56 14 55 11 --algo hpa --pre "$TMP/cave16.hpa" --no-picture
expect_rc "solve --pre under the rules it was built for" 0
expect_out "the path of the file's rules" "^path: +\(56,14\) \(56,13\) \(56,12\) \(55,11\)$"
for rules in "--moves 4" "--costs 10,14" "--corner always"; do
  # shellcheck disable=SC2086 # two words
  run solve "$SMALL/cave64.map" 56 14 55 11 --algo hpa --pre "$TMP/cave16.hpa" $rules --no-picture
  expect_rc "solve --pre $rules: refused" 1
  expect_one_line_err "solve --pre $rules: one message, no path"
  expect_err "solve --pre $rules: names the file and both rules" \
    "cave16\.hpa: .*built for 8 moves, corners no-cut, costs 1/1\.414213562, not for this search's"
  # shellcheck disable=SC2086
  run bench "$SMALL/cave64.map.scen" --algo hpa --pre "$TMP/cave16.hpa" $rules
  expect_rc "bench --pre $rules: refused" 1
  expect_err "bench --pre $rules: says why" "cave16\.hpa: .*not for this search's"
done
run solve "$SMALL/cave64.map" 56 14 55 11 --algo hpa --pre "$TMP/cave16.hpa" --moves 4 --no-picture
expect_err "the 4-move search's rules" "not for this search's 4 moves, cost 1 "
expect_err "how to make a file for them" \
  "\(make a file for them: astar precompute MAP --method hpa --moves 4 -o FILE; or drop --pre\)"
run solve "$SMALL/cave64.map" 56 14 55 11 --algo hpa --pre "$TMP/cave16.hpa" --corner one-side \
  --costs 2,3 --no-picture
expect_err "how to make a file for two rules" \
  "astar precompute MAP --method hpa --corner one-side --costs 2,3 -o FILE"
run solve "$SMALL/cave64.map" 56 14 55 11 --algo hpa --moves 4 --no-picture
expect_rc "without --pre the hierarchy is built for 4 moves" 0
expect_out "its path: 4 moves" "^path: +\(56,14\) \(56,13\) \(56,12\) \(56,11\) \(55,11\)$"

run bench "$SMALL" --algo hpa --cluster 3
expect_rc "--cluster 3 is a usage error" 2
expect_err "the message names --cluster and its range" "--cluster.*4.*64"
expect_one_line_err "one line"

run bench "$SMALL" --algo hpa --levels 9
expect_rc "--levels 9 is a usage error" 2
expect_err "the message names --levels and its range" "--levels.*1.*4"

run bench "$SMALL" --algo hpa --cluster 64 --levels 4 --check
expect_rc "the largest hierarchy (top clusters of 512) runs" 0

run bench "$SMALL" --algo astar --cluster 8
expect_rc "--cluster without --algo hpa is a usage error" 2
expect_err "it says so" "needs --algo hpa"

run bench --help
expect_out "bench --help lists --cluster" "--cluster N"

# What HPA* cannot hold is refused with the reason (the old tool said only
# "not supported", exit 1).
for opt in "--turn-penalty 1" "--terrain-scale 0.5"; do
  # shellcheck disable=SC2086 # two words
  run solve "$SMALL/cave64.map" 56 14 55 11 --algo hpa $opt --no-picture
  expect_rc "solve --algo hpa $opt" 2
  expect_err "solve --algo hpa $opt says why" "--algo hpa: hpa: its abstract costs cannot hold a turn penalty \(--turn-penalty\), a terrain scale"
done

# precompute builds for the rules given (the file records them): refused
# under the defaults, and under its own rules the same paths as the
# hierarchy built in process (solve without --pre) on every 3rd query.
CAVE=$SMALL/cave64.map
for rules in "--moves 4" "--costs 10,14" "--corner always" "--moves 4 --costs 3,5"; do
  # shellcheck disable=SC2086 # several words
  run precompute "$CAVE" -o "$TMP/r.hpa" --method hpa $rules
  expect_rc "precompute --method hpa $rules" 0
  expect_out "precompute $rules: the rules line" "^rules: +[48] moves"
  run solve "$CAVE" 56 14 55 11 --algo hpa --pre "$TMP/r.hpa" --no-picture
  expect_rc "the $rules file under the default rules: refused" 1
  expect_err "the $rules file: what it was built for" \
    "r\.hpa: the HPA\* hierarchy was built for .*, not for this search's 8 moves, corners no-cut"
  # shellcheck disable=SC2086
  run bench "$CAVE.scen" --algo hpa --pre "$TMP/r.hpa" $rules --quiet
  expect_rc "bench --pre $rules under its rules" 0
  n=0
  bad=0
  while read -r a b c d; do
    n=$((n + 1))
    # shellcheck disable=SC2086
    run solve "$CAVE" "$a" "$b" "$c" "$d" --algo hpa $rules --no-picture
    want=$(grep -E '^(status|cost|path):' "$OUT")
    # shellcheck disable=SC2086
    run solve "$CAVE" "$a" "$b" "$c" "$d" --algo hpa --pre "$TMP/r.hpa" $rules --no-picture
    got=$(grep -E '^(status|cost|path):' "$OUT")
    if [ "$RC" -gt 1 ] || [ -z "$want" ] || [ "$got" != "$want" ]; then bad=$((bad + 1)); fi
  done < <(awk 'NR > 1 && NR % 3 == 0 {print $5, $6, $7, $8}' "$CAVE.scen")
  if [ "$n" -gt 5 ] && [ "$bad" -eq 0 ]; then ok; else
    fail "--pre $rules: $bad of $n paths differ from the hierarchy built in process"
  fi
done
run solve "$CAVE" 56 14 55 11 --algo hpa --pre "$TMP/r.hpa" --moves 4 --costs 3,5 --no-picture
expect_out "the 4-move file: a 4-move path" "^path: +\(56,14\) \(56,13\) \(56,12\) \(56,11\) \(55,11\)$"

cli_summary
