#!/usr/bin/env bash
#
# methods_tests.sh -- every command that searches a square map, with every
# method --algo names (issue 26 part 3). The methods are read from the
# tool's own list (the --algo error message, which comes from the
# library's method table): a method added to the library is tested here
# without an edit, at least for running and for agreeing with A* when it
# is one of the optimal ones below.
#
#   solve      every method runs; the optimal ones cost what
#              `astar solve --algo astar` costs, the bounded and
#              hierarchical ones no less, the any-angle ones no more;
#              --algo before, between and after the positionals and as
#              --algo=NAME give the same report
#   bench      every method over a scenario, one by one and as a batch
#              (--threads 2), the same costs both ways; --check for the
#              optimal ones
#   group      every grid method agrees with the distance field (optimal)
#              or is never below it; any-angle methods refused, exit 2
#   render     the methods that report search events draw; the others are
#              refused with the library's reason, exit 2
#   simulate   the request queue runs every method it serves (anya refused,
#              exit 2), each result identical to a one-shot finder search;
#              --sizes 1,2,3 (units of three sides in one queue) for the
#              methods without a precomputation or any-angle paths
#   refusals   a method that cannot honour an option says which option,
#              exit 2: the library's sentence, the tool's option name
# Usage: methods_tests.sh PATH/TO/astar REPO_ROOT
set -u

# shellcheck source=tests/cli/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_args "$@"
cli_tmp methods

# A small uniform map with walls (every method takes it), its scenario.
cat >"$TMP/m.txt" <<'EOF'
S.........
.####.###.
....#...#.
.##.#.#.#.
.#..#.#...
.#.##.#.#.
...#....#G
EOF
printf 'type octile\nheight 7\nwidth 10\nmap\n' >"$TMP/m.map"
sed -e 's/[SG]/./g' -e 's/#/@/g' "$TMP/m.txt" >>"$TMP/m.map"
{
  printf 'version 1\n'
  for q in "0 0 9 6" "0 6 9 0" "2 2 7 4" "0 4 9 2" "5 0 2 6"; do
    # shellcheck disable=SC2086
    set -- $q
    cost=$("$ASTAR" solve "$TMP/m.txt" "$1" "$2" "$3" "$4" --no-picture |
      sed -n 's/^cost: *//p')
    printf '0\tm.map\t10\t7\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$cost"
  done
} >"$TMP/m.map.scen"

# A roomier map for units of sides 1 to 3 (the one above has no 2 x 2
# open square): rooms joined by doors three cells wide.
cat >"$TMP/rooms.txt" <<'EOF'
..............#.........
..............#.........
..............#.........
......................##
........................
..............#.........
########...#######...###
..............#.........
..............#.........
.....................#..
..............#......#..
..............#.........
EOF

# The methods, from the tool's own list.
"$ASTAR" solve "$TMP/m.txt" --algo no-such-method >/dev/null 2>"$TMP/list"
read -r -a METHODS <<<"$(sed -n "s/.*expected one of \([^,]*\), got.*/\1/p" "$TMP/list" | tr '|' ' ')"
if [ "${#METHODS[@]}" -ge 15 ]; then ok; else fail "the --algo list: ${METHODS[*]}"; fi

# What each is (the library's table says it too; here the test's own
# expectations): optimal, never below optimal, any-angle (never above).
OPTIMAL=" astar landmarks dijkstra bidir ida f2f jps jps-plus cpd "
ANYANGLE=" theta lazy-theta anya "
is() { case "$2" in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

cost_of() { sed -n 's/^cost: *\([0-9.]*\).*/\1/p' "$OUT" | head -1; }
REF=$("$ASTAR" solve "$TMP/m.txt" --no-picture | sed -n 's/^cost: *\([0-9.]*\).*/\1/p')
if [ -n "$REF" ]; then ok; else fail "solve --algo astar: no cost"; fi

# cmp_cost WHAT COST OP: COST OP the reference (eq, ge, le), to 1e-6.
cmp_cost() {
  if [ -z "$2" ]; then
    fail "$1: no cost"
  elif python3 - "$2" "$REF" "$3" <<'PY'; then ok; else fail "$1: cost $2 vs astar $REF ($3)"; fi
import sys
c, r, op = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
e = 1e-6 * max(1.0, r)
sys.exit(0 if {"eq": abs(c - r) <= e, "ge": c >= r - e, "le": c <= r + e}[op] else 1)
PY
}

# Mask the times of a report.
masked() { sed -E 's/ *[0-9]+\.[0-9]+ ms/ # ms/g; s/in [0-9.]+ (ms|s)/in #/g' "$OUT"; }

# Settings a method needs on this map: bandwidth's band (with the default 0
# it drops the way to the goal here, as its help says it may).
settings() { case "$1" in bandwidth) echo "--band-e 1 --band-d 10" ;; esac; }

for m in "${METHODS[@]}"; do
  read -r -a S <<<"$(settings "$m")"
  # ---- solve, --algo in every position
  run solve "$TMP/m.txt" --algo "$m" --no-picture "${S[@]}"
  expect_rc "solve --algo $m" 0
  if is "$m" "$OPTIMAL"; then
    cmp_cost "solve --algo $m: optimal" "$(cost_of)" eq
  elif is "$m" "$ANYANGLE"; then
    cmp_cost "solve --algo $m: any-angle" "$(cost_of)" le
  else
    cmp_cost "solve --algo $m: never below optimal" "$(cost_of)" ge
  fi
  masked >"$TMP/after"
  for form in "--algo $m $TMP/m.txt --no-picture" "--no-picture $TMP/m.txt --algo=$m" \
    "$TMP/m.txt 0 0 --algo $m 9 6 --no-picture"; do
    # shellcheck disable=SC2086 # the words of the command line
    run solve $form "${S[@]}"
    masked >"$TMP/other"
    if [ "$RC" = 0 ] && cmp -s "$TMP/after" "$TMP/other"; then ok; else
      fail "solve $form: not the same report"
    fi
  done

  # ---- bench: one by one and as a batch
  if is "$m" "$OPTIMAL"; then check=--check; else check=; fi
  # shellcheck disable=SC2086 # empty or one word
  run bench "$TMP/m.map.scen" --algo "$m" $check --json "${S[@]}"
  expect_rc "bench --algo $m $check" 0
  cp "$OUT" "$TMP/one.json"
  # shellcheck disable=SC2086
  run bench "$TMP/m.map.scen" --algo "$m" $check --threads 2 --json "${S[@]}"
  expect_rc "bench --algo $m --threads 2 $check" 0
  if python3 - "$TMP/one.json" "$OUT" <<'PY'; then ok; else fail "bench --algo $m: batch and one by one differ"; fi
import json, sys
def load(p):
    return json.loads(open(p).read())
a, b = load(sys.argv[1]), load(sys.argv[2])
keys = ("queries", "solved", "mismatches", "no_path_found", "mean_expansions", "mean_cost_ratio",
        "max_cost_ratio")
sys.exit(0 if all(k in a and a[k] == b.get(k) for k in keys[:3]) and
         all(a.get(k) == b.get(k) for k in keys) else 1)
PY

  # ---- group
  run group "$TMP/m.txt" 9 6 --units 6 --algo "$m" "${S[@]}"
  if is "$m" "$ANYANGLE"; then
    expect_rc "group --algo $m refused" 2
    expect_err "group --algo $m: why" "any-angle"
  else
    expect_rc "group --algo $m" 0
    expect_out "group --algo $m: costs" "costs (agree for every unit|never below the field's)"
  fi

  # ---- simulate: the request queue
  # (The queue prepares a method from its name and the options: bandwidth
  # runs with its default band, which finds no path here -- exit 1 -- but
  # its results must still be the one-shot ones.)
  run simulate "$TMP/m.txt" --agents 12 --budget 40 --algo "$m"
  if [ "$m" = bandwidth ]; then
    expect_out "simulate --algo $m: checked" "results identical"
  elif [ "$m" = anya ]; then
    expect_rc "simulate --algo anya refused" 2
    expect_err "simulate --algo anya: why" "--algo anya: anya: its bends lie on grid corners"
  else
    expect_rc "simulate --algo $m" 0
    expect_out "simulate --algo $m: checked" "results identical"
    case " $m " in
    " jps-plus " | " cpd " | " hpa " | " landmarks " | " subgoal ")
      run simulate "$TMP/m.txt" --agents 12 --budget 40 --algo "$m" --sizes 1,2
      expect_rc "simulate --algo $m --sizes 1,2 refused" 2
      expect_err "simulate --algo $m --sizes: why" "a precomputation belongs to the map's grid"
      ;;
    *)
      if ! is "$m" "$ANYANGLE"; then
        # Every unit is drawn where it fits: no start or goal blocked.
        # shellcheck disable=SC2046
        run simulate "$TMP/rooms.txt" --agents 12 --budget 40 --algo "$m" --sizes 1,2,3 \
          $(settings "$m")
        expect_rc "simulate --algo $m --sizes 1,2,3" 0
        expect_out "simulate --algo $m --sizes 1,2,3: checked" "results identical"
        expect_out "simulate --algo $m --sizes 1,2,3: every unit fits" "finished: 12 of 12 \(ok 12\)"
      fi
      ;;
    esac
  fi

  # ---- render
  run render "$TMP/m.txt" --algo "$m" -o "$TMP/r.svg"
  case " $m " in
  " astar " | " landmarks " | " dijkstra " | " jps " | " jps-plus " | " theta " | " lazy-theta ")
    expect_rc "render --algo $m" 0
    ;;
  *)
    expect_rc "render --algo $m refused" 2
    expect_err "render --algo $m: the library's reason" "render: --algo $m: "
    ;;
  esac
done

# ---- refusals name the option -------------------------------------------------------
refuse() { # WHAT PATTERN ARGS...
  local what=$1 pattern=$2
  shift 2
  run "$@"
  expect_rc "$what" 2
  expect_err "$what: says why" "$pattern"
}
refuse "hpa with a turn penalty" "--algo hpa: .*a turn penalty \(--turn-penalty\)" \
  solve "$TMP/m.txt" --algo hpa --turn-penalty 1
refuse "theta with fog" "--algo theta: fog of war \(--fog\) is the grid A\*'s" \
  solve "$TMP/m.txt" --algo theta --fog 3
refuse "landmarks with a terrain scale" "--terrain-scale 1 only" \
  solve "$TMP/m.txt" --algo landmarks --terrain-scale 0.5
refuse "cpd with 4 moves" "--algo cpd: a CPD needs 8 moves" solve "$TMP/m.txt" --algo cpd --moves 4
refuse "render greedy: no search events" \
  "--algo greedy: the engine reports node events" render "$TMP/m.txt" --algo greedy -o "$TMP/x.svg"
refuse "trace with bidir" "--trace: --algo bidir: " solve "$TMP/m.txt" --algo bidir --trace "$TMP/t.jsonl"
refuse "an unknown method" "--algo: expected one of astar\|" solve "$TMP/m.txt" --algo nope

refuse "simulate --sizes out of range" "--sizes: expected a list of unit sides from 1 to 4" \
  simulate "$TMP/m.txt" --agents 2 --budget 10 --sizes 1,5
refuse "simulate theta for big units" "any-angle paths are for one-cell units" \
  simulate "$TMP/m.txt" --agents 2 --budget 10 --algo theta --sizes 2

# The library's other names of a method are --algo values too.
run solve "$TMP/m.txt" --algo bidirectional --no-picture
expect_rc "--algo bidirectional (astar_method_from_name)" 0
expect_out "--algo bidirectional is bidir" "algorithm bidir"

cli_summary
