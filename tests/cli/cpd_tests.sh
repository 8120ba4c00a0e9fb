#!/usr/bin/env bash
# cpd_tests.sh -- the tool's compressed path database end to end: precompute
# --method cpd (the file is the same for --threads 1 and 2, its report
# lines), bench --algo cpd --pre FILE and built in process (exact lengths),
# nothing on stderr when it is not a terminal, a damaged file or another
# map's file exits 1, bad --threads / --memory-limit exit 2 naming the option,
# a memory limit too small refuses the build; solve --algo cpd. The CPD
# takes the default movement rules alone: precompute with other --moves,
# --corner or --costs exits 2 saying why, and so do solve and bench --pre.
# Usage: cpd_tests.sh PATH/TO/astar REPO_ROOT
set -u

# shellcheck source=tests/cli/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_args "$@"
cli_tmp cpd
SMALL=$ROOT/tests/data/small

run precompute "$SMALL/maze64-1.map" --method cpd -o "$TMP/a.cpd"
expect_rc "precompute --method cpd" 0
expect_out "precompute reports runs per row" "runs per row"
if [ -s "$ERR" ]; then fail "precompute wrote to stderr that is not a terminal"; else ok; fi
run precompute "$SMALL/maze64-1.map" --method cpd -o "$TMP/b.cpd" --threads 2
expect_rc "precompute --threads 2" 0
if cmp -s "$TMP/a.cpd" "$TMP/b.cpd"; then ok; else fail "--threads 2 gives another file"; fi

run bench "$SMALL/maze64-1.map.scen" --algo cpd --pre "$TMP/a.cpd" --check --quiet
expect_rc "bench --algo cpd --pre" 0
run bench "$SMALL" --algo cpd --check --quiet --every 7
expect_rc "bench --algo cpd built in process" 0
run solve "$SMALL/maze64-1.map" 1 1 61 61 --no-picture
base=$(grep '^cost' "$OUT")
run solve "$SMALL/maze64-1.map" 1 1 61 61 --algo cpd --no-picture
if [ -n "$base" ] && [ "$(grep '^cost' "$OUT")" = "$base" ]; then ok; else
  fail "solve --algo cpd cost differs"
fi

run bench "$SMALL/cave64.map.scen" --algo cpd --pre "$TMP/a.cpd"
expect_rc "another map's file" 1
head -c 100 "$TMP/a.cpd" >"$TMP/cut.cpd"
run bench "$SMALL/maze64-1.map.scen" --algo cpd --pre "$TMP/cut.cpd"
expect_rc "truncated file" 1
expect_err "truncated file named" "cut.cpd"

for bad in 0 257 x; do
  run precompute "$SMALL/maze64-1.map" --method cpd -o "$TMP/x" --threads "$bad"
  expect_rc "--threads $bad" 2
  expect_err "--threads $bad names the option" "--threads"
done
run precompute "$SMALL/maze64-1.map" --method cpd -o "$TMP/x" --memory-limit -1
expect_rc "--memory-limit -1" 2
run precompute "$SMALL/maze64-1.map" -o "$TMP/x" --threads 2
expect_rc "--threads without cpd" 2
run precompute "$SMALL/maze64-1.map" --method cpd -o "$TMP/x" --memory-limit 1000
expect_rc "--memory-limit too small" 1
expect_err "the refusal names the limit" "more than --memory-limit 1000"

for rules in "--moves 4:a CPD needs 8 moves" \
  "--corner always:a CPD needs the no-corner-cutting rule" \
  "--costs 10,14:a CPD needs straight cost 1 and diagonal cost sqrt 2"; do
  why=${rules#*:}
  rules=${rules%%:*}
  # shellcheck disable=SC2086 # two words
  run precompute "$SMALL/maze64-1.map" --method cpd -o "$TMP/r.cpd" $rules
  expect_rc "precompute --method cpd $rules" 2
  expect_err "precompute --method cpd $rules says why" "precompute: --method cpd: $why"
  if [ -e "$TMP/r.cpd" ]; then fail "precompute $rules wrote a file"; else ok; fi
  # shellcheck disable=SC2086
  run solve "$SMALL/maze64-1.map" 1 1 61 61 --algo cpd --pre "$TMP/a.cpd" $rules --no-picture
  expect_rc "solve --pre $rules" 2
  expect_err "solve --pre $rules says why" "--algo cpd: $why"
  # shellcheck disable=SC2086
  run bench "$SMALL/maze64-1.map.scen" --algo cpd --pre "$TMP/a.cpd" $rules
  expect_rc "bench --pre $rules" 2
  expect_err "bench --pre $rules says why" "--algo cpd: $why"
done
run precompute "$SMALL/maze64-1.map" --method cpd -o "$TMP/r.cpd" --costs 1,1.4142135623730951
expect_rc "precompute --method cpd with the default costs spelt out" 0
expect_out "the rules line" "^rules: +8 moves, corners no-cut, costs 1/1\.414213562 "

cli_summary
