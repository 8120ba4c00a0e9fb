#!/usr/bin/env bash
# landmarks_tests.sh -- the tool's landmark (ALT) options end to end:
# --landmarks K and --landmark-choice (bench, solve; square, hex and
# DIMACS graph maps), precompute --algo
# landmarks and loading the file back with --pre; bad values name the
# option and the accepted range (exit 2); a damaged file exits 1 naming it.
# Usage: landmarks_tests.sh PATH/TO/astar REPO_ROOT
set -u

# shellcheck source=tests/cli/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_args "$@"
cli_tmp lmk
SMALL=$ROOT/tests/data/small

for bad in 0 65 x; do
  run bench "$SMALL" --landmarks "$bad"
  expect_rc "--landmarks $bad" 2
  expect_err "--landmarks $bad names the option" "--landmarks"
done
run bench "$SMALL" --landmarks 0
expect_err "--landmarks names the range" "64"
run bench "$SMALL" --landmark-choice nearest
expect_rc "--landmark-choice nearest" 2
expect_err "--landmark-choice names the choices" "farthest or avoid"
run bench "$SMALL" --algo jps --landmarks 4
expect_rc "--landmarks with jps" 2

run bench "$SMALL" --landmarks 4 --check --quiet
expect_rc "bench --landmarks 4 exact" 0
run bench "$SMALL" --landmarks 2 --landmark-choice avoid --check --quiet
expect_rc "bench avoid exact" 0
run solve "$SMALL/cave64.map" 1 1 60 60 --landmarks 4 --no-picture
run solve "$SMALL/maze64-1.map" 1 1 61 61 --no-picture
base=$(grep '^cost' "$OUT")
run solve "$SMALL/maze64-1.map" 1 1 61 61 --landmarks 4 --no-picture
if [ "$(grep '^cost' "$OUT")" = "$base" ]; then ok; else fail "solve --landmarks cost differs"; fi

run precompute "$SMALL/maze64-1.map" -o "$TMP/x" --method astar
expect_rc "precompute --method astar" 2
expect_err "precompute names its methods" "jps-plus|landmarks|hpa"
run precompute "$SMALL/maze64-1.map" -o "$TMP/m.lmk" --algo landmarks
expect_rc "precompute --algo landmarks" 0
run bench "$SMALL/maze64-1.map.scen" --algo landmarks --pre "$TMP/m.lmk" --check --quiet
expect_rc "bench --pre landmarks file" 0
printf 'garbage' | dd of="$TMP/m.lmk" bs=1 seek=100 conv=notrunc 2>/dev/null
run bench "$SMALL/maze64-1.map.scen" --algo landmarks --pre "$TMP/m.lmk" --check --quiet
expect_rc "damaged --pre file" 1
expect_err "damaged file named" "m.lmk"

# A DIMACS graph (the engine over a CSR space): exact with landmarks, for
# A* and the bidirectional search; the table is described.
GR=$TMP/maze.gr
run convert "$SMALL/maze64-1.map" -o "$GR" --coords "$TMP/maze.co" \
  --scen "$SMALL/maze64-1.map.scen" --queries "$TMP/maze.q"
expect_rc "convert for the graph runs" 0
run bench --graph "$GR" --coords "$TMP/maze.co" --queries "$TMP/maze.q" --check
base_exp=$(awk 'NF==7 && $1 ~ /^[0-9]+$/ {print $6}' "$OUT")
for algo in astar bidir; do
  run bench --graph "$GR" --coords "$TMP/maze.co" --queries "$TMP/maze.q" --check \
    --landmarks 4 --algo $algo
  expect_rc "bench --graph --landmarks 4 --algo $algo exact" 0
  expect_out "bench --graph describes the table" "landmarks: 4 .consistent."
done
run bench --graph "$GR" --coords "$TMP/maze.co" --queries "$TMP/maze.q" --landmarks 4
lm_exp=$(awk 'NF==7 && $1 ~ /^[0-9]+$/ {print $6}' "$OUT")
if awk -v a="$lm_exp" -v b="$base_exp" 'BEGIN { exit !(a < b) }'; then ok; else
  fail "graph landmarks expanded $lm_exp, not fewer than $base_exp"
fi
run solve --graph "$GR" 1 2 --landmarks 65
expect_rc "solve --graph --landmarks 65" 2
expect_err "solve --graph names the range" "1 to 64"

# A hex map (the engine over the hex space): the same cost with landmarks,
# the table reported as the preprocessing; a bad K names the range.
for hex in "$ROOT"/tests/data/hex/*.hex; do
  run solve "$hex" --no-picture
  base=$(grep '^cost' "$OUT")
  run solve "$hex" --no-picture --landmarks 4 --landmark-choice avoid
  expect_rc "hex solve --landmarks 4 ($hex)" 0
  if [ -n "$base" ] && [ "$(grep '^cost' "$OUT")" = "$base" ]; then ok; else
    fail "hex solve --landmarks cost differs on $hex"
  fi
  expect_out "hex solve reports the table" "prepared: precomputed"
done
run solve "$ROOT/tests/data/hex/flat.hex" --landmarks 65
expect_rc "hex solve --landmarks 65" 2
expect_err "hex --landmarks names the range" "1 to 64"

cli_summary
