#!/usr/bin/env bash
#
# path_tests.sh -- end-to-end checks of the tool's use of astar/path.h:
# `solve --encode NAME` (sizes and the exact bytes of hand-checked paths),
# `bench --encodings` (round trips of every path found), and the usage
# errors of both. Usage: path_tests.sh PATH/TO/astar REPO_ROOT
# Prints one line per failed check and "N passed, M failed"; exits non-zero
# if any check failed.

set -u

# shellcheck source=tests/cli/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_args "$@"
cli_tmp path

# A corridor: 5 steps east from (0,0). The bytes follow astar/path.h's
# format by hand: header 1N 01 (FOUR) 00 00 05, then the payload.
printf 'S....G\n' >"$TMP/line.txt"
run solve "$TMP/line.txt" --encode all --no-picture
expect_rc "encode all" 0
expect_out "positions bytes" "^encoded:  positions 25 bytes \(5\.000 bytes/step\): 10000000050100000002000000030000000400000005000000$"
# E = 01 five times: 0x55 0x01.
expect_out "directions bytes" "^encoded:  directions 7 bytes .*: 11010000055501$"
# E, then four turns 0 (straight on).
expect_out "turns bytes" "^encoded:  turns 7 bytes .*: 12010000050100$"
# One run: E (01) and length-1 = 4 in 8 bits.
expect_out "runs bytes" "^encoded:  runs 7 bytes .*: 13010000051100$"
# E (01), gamma(5) = 00 1 01 (least significant bit first): 0x31.
expect_out "variable bytes" "^encoded:  variable 6 bytes \(1\.200 bytes/step\): 140100000531$"
n=$(grep -c '^encoded:' "$OUT")
if [ "$n" -eq 5 ]; then ok; else fail "encode all: $n encoded lines, expected 5"; fi

# One encoding on a Moving AI map: one line, as many hex digits as 2 x bytes.
run solve "$ROOT/tests/data/small/cave64.map" 1 1 60 60 --encode variable --no-picture
if [ "$RC" -eq 0 ]; then
  line=$(grep '^encoded:' "$OUT")
  bytes=$(echo "$line" | sed -n 's/^encoded:  variable \([0-9]*\) bytes.*/\1/p')
  hex=$(echo "$line" | sed -n 's/.*: \([0-9a-f]*\)$/\1/p')
  if [ -n "$bytes" ] && [ "${#hex}" -eq $((2 * bytes)) ] && [ "${hex:0:2}" = "14" ]; then ok
  else fail "encode variable: '$line'"; fi
  if [ "$(grep -c '^encoded:' "$OUT")" -eq 1 ]; then ok; else fail "encode variable: one line"; fi
else
  # The query may have no path on this map; then no encoded line.
  if ! grep -q '^encoded:' "$OUT"; then ok; else fail "encode: a line without a path"; fi
fi

# Usage errors: the option named, the accepted values listed; exit 2.
run solve "$TMP/line.txt" --encode zip
expect_rc "encode bad name" 2
expect_err "encode bad name message" "--encode: expected one of positions\|directions\|turns\|runs\|variable\|all, got 'zip'"
run solve "$TMP/line.txt" --encode runs --space waypoints
expect_rc "encode waypoints" 2
expect_err "encode waypoints message" "--encode.*any-angle.*--space waypoints"
run solve "$TMP/line.txt" --encode runs --algo theta
expect_rc "encode theta" 2
expect_err "encode theta message" "--encode.*any-angle.*--algo theta"
run solve "$TMP/line.txt" --encode runs --smooth
expect_rc "encode smooth" 2
run solve --help
expect_out "solve help" "--encode NAME"

# bench --encodings: every path of the small maps comes back unchanged.
for algo in astar jps-plus; do
  run bench "$ROOT/tests/data/small" --algo "$algo" --encodings --check --quiet
  expect_rc "bench --encodings $algo" 0
done
run bench "$ROOT/tests/data/small" --encodings --space graph --algo astar --check --quiet
expect_rc "bench --encodings graph" 0
run bench "$ROOT/tests/data/small" --encodings --threads 2
expect_rc "bench --encodings --threads" 2
run bench "$ROOT/tests/data/small" --encodings --algo theta
expect_rc "bench --encodings theta" 2
expect_err "bench --encodings --threads message" "--encodings.*--threads"
run bench --help
expect_out "bench help" "--encodings"

cli_summary
