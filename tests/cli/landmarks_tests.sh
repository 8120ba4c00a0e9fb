#!/usr/bin/env bash
# landmarks_tests.sh -- the tool's landmark (ALT) options end to end:
# --landmarks K and --landmark-choice (bench, solve; square, hex and
# DIMACS graph maps), precompute --algo
# landmarks and loading the file back with --pre; bad values name the
# option and the accepted range (exit 2); a damaged file exits 1 naming it.
# The movement rules: precompute builds for --moves / --corner / --costs
# and the file records them; solve and bench --pre refuse a file built for
# other rules than the search's (exit 1, naming the file, both rule sets
# and how to make a matching file) and, under its own rules, find the
# paths plain A* finds; precompute refuses search options (exit 2).
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
expect_err "--landmark-choice names the choices" "one of farthest\|avoid"
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

# The rules a file is built for. The old tool loaded a file of the default
# rules for any search: with --costs 1,1.1 the table's distances (diagonals
# of sqrt 2) overestimate, and the path from (9,24) to (60,12) cost 58.5
# against A*'s 53.4.
CAVE=$SMALL/cave64.map
run precompute "$CAVE" -o "$TMP/cave.lmk" --method landmarks
expect_rc "precompute landmarks, default rules" 0
expect_out "precompute names the rules" "^rules: +8 moves, corners no-cut, costs 1/1\.414213562 "
for rules in "--moves 4" "--costs 10,14" "--corner always" "--costs 1,1.1"; do
  # shellcheck disable=SC2086 # several words
  run solve "$CAVE" 9 24 60 12 --algo landmarks --pre "$TMP/cave.lmk" $rules --no-picture
  expect_rc "solve --pre $rules: refused" 1
  expect_one_line_err "solve --pre $rules: one message, no path"
  expect_err "solve --pre $rules: names the file and both rule sets" \
    "cave\.lmk: the landmark table was built for 8 moves, corners no-cut, costs 1/1\.414213562, not for this search's [48] moves"
  expect_err "solve --pre $rules: says how to make a file for them" \
    "astar precompute MAP --method landmarks $rules -o FILE"
  # shellcheck disable=SC2086
  run bench "$CAVE.scen" --algo landmarks --pre "$TMP/cave.lmk" $rules
  expect_rc "bench --pre $rules: refused" 1
  expect_err "bench --pre $rules: says why" "cave\.lmk: .*not for this search's"
done

# same_as_astar FILE RULES...: each query of every 3rd line of cave64's scenario,
# with the file and by plain A* under the same rules: the same status and
# cost (the table is exact and admissible for the rules it was built for).
same_as_astar() {
  local file=$1 a b c d want got n=0 bad=0
  shift
  while read -r a b c d; do
    n=$((n + 1))
    run solve "$CAVE" "$a" "$b" "$c" "$d" "$@" --no-picture
    want=$(grep -E '^(status|cost):' "$OUT")
    run solve "$CAVE" "$a" "$b" "$c" "$d" --algo landmarks --pre "$file" "$@" --no-picture
    got=$(grep -E '^(status|cost):' "$OUT")
    if [ "$RC" -gt 1 ] || [ -z "$want" ] || [ "$got" != "$want" ]; then
      bad=$((bad + 1))
      echo "  $* ($a,$b)->($c,$d): A* '$want', --pre '$got'"
    fi
  done < <(awk 'NR > 1 && NR % 3 == 0 {print $5, $6, $7, $8}' "$CAVE.scen")
  if [ "$n" -gt 5 ] && [ "$bad" -eq 0 ]; then ok; else
    fail "--pre $file $*: $bad of $n queries differ from A*"
  fi
}
for rules in "--moves 4" "--costs 10,14" "--corner always" "--costs 1,1.1" \
  "--corner one-side --costs 2,3" "--moves 4 --costs 3,5"; do
  # shellcheck disable=SC2086
  run precompute "$CAVE" -o "$TMP/r.lmk" --method landmarks $rules
  expect_rc "precompute $rules" 0
  expect_out "precompute $rules: the rules line" "^rules: +[48] moves"
  run solve "$CAVE" 9 24 60 12 --algo landmarks --pre "$TMP/r.lmk" --no-picture
  expect_rc "the $rules file under the default rules: refused" 1
  expect_err "the $rules file: names what it was built for" \
    "r\.lmk: the landmark table was built for .*, not for this search's 8 moves, corners no-cut, costs 1/1\.414213562 \(make a file for them: astar precompute MAP --method landmarks -o FILE; or drop --pre\)"
  # shellcheck disable=SC2086
  run bench "$CAVE.scen" --algo landmarks --pre "$TMP/r.lmk" $rules --quiet
  expect_rc "bench --pre $rules under its rules" 0
  # shellcheck disable=SC2086
  same_as_astar "$TMP/r.lmk" $rules
done
run precompute "$CAVE" -o "$TMP/r.lmk" --method landmarks --corner always
expect_out "the corner rule in the rules line" "^rules: +8 moves, corners always, costs 1/1\.414213562 "
run precompute "$CAVE" -o "$TMP/r.lmk" --method landmarks --moves 4 --costs 3,5
expect_out "4 moves: one cost in the rules line" "^rules: +4 moves, cost 3 "

# The table holds the exact terrain costs: --terrain-scale is refused with
# its reason (the old tool said only "not supported", exit 1).
run solve "$CAVE" 9 24 60 12 --algo landmarks --terrain-scale 0.5 --no-picture
expect_rc "landmarks --terrain-scale 0.5" 2
expect_err "landmarks --terrain-scale says why" "--algo landmarks: astar: a landmark table holds the exact terrain costs: it takes --terrain-scale 1 only"
run bench "$CAVE.scen" --algo landmarks --pre "$TMP/cave.lmk" --terrain-scale 0.5
expect_rc "bench --pre --terrain-scale 0.5" 2

# precompute takes the movement rules alone; bad values name the option.
run precompute "$CAVE" -o "$TMP/x.lmk" --method landmarks --weight 2
expect_rc "precompute --weight" 2
expect_err "precompute --weight: a search option" \
  "precompute: --weight is a search option: a file depends on the movement rules alone"
if [ -e "$TMP/x.lmk" ]; then fail "precompute --weight wrote a file"; else ok; fi
run precompute "$CAVE" -o "$TMP/x.lmk" --method landmarks --moves 6
expect_rc "precompute --moves 6" 2
expect_err "precompute --moves 6 names the values" "--moves: expected one of 4\|8, got '6'"
run precompute "$CAVE" -o "$TMP/x.lmk" --method landmarks --costs 10
expect_rc "precompute --costs 10" 2
expect_err "precompute --costs names the form" "--costs: expected two numbers S,D"
run precompute --help
expect_out "precompute --help lists --moves" "--moves 4\|8 +neighbours per cell"
expect_out "precompute --help lists --costs" "--costs S,D"
expect_out "precompute --help lists --corner" "--corner RULE"

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
