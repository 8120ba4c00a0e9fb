#!/usr/bin/env bash
#
# exit_tests.sh -- the exit-status table of `astar --help` (0 success, 1 no
# path or a failure at run time, 2 usage error), checked across the
# commands: the same bad case, met by every command that can meet it, gives
# every time the same status. Also checks that the README's copy of the table
# and the manual page's EXIT STATUS are the text the tool prints, and that
# the algorithm-specific refusals name the algorithm and give the reason.
# Usage: exit_tests.sh PATH/TO/astar REPO_ROOT

set -u

# shellcheck source=tests/cli/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_args "$@"
cli_tmp exit

# ---- fixtures ----------------------------------------------------------------

cat >"$TMP/t.txt" <<'EOF'
.......
...#...
.S.#.G.
...#...
.......
EOF
printf 'S.#.\n..#G\n..#.\n' >"$TMP/nopath.txt"
printf '..3.\n.2..\n....\n' >"$TMP/terrain.txt"
printf 'a map? no\n' >"$TMP/bad.txt"
printf 'hex pointy odd-r\n . . . .\n  . # . .\n . . . .\n' >"$TMP/h.hex"
# A Moving AI map and scenario, and the same scenario beside a bad map.
printf 'type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n' >"$TMP/m.map"
printf 'version 1\n0\tm.map\t4\t3\t0\t0\t3\t0\t3\n' >"$TMP/m.map.scen"
mkdir -p "$TMP/badmap" "$TMP/terr"
printf 'type octile\nheight 3\nwidth 4\nmap\n....\n.@?.\n....\n' >"$TMP/badmap/m.map"
cp "$TMP/m.map.scen" "$TMP/badmap/m.map.scen"
printf '....\n.23.\n....\n' >"$TMP/terr/m.map"
cp "$TMP/m.map.scen" "$TMP/terr/m.map.scen"
"$ASTAR" convert "$TMP/t.txt" -o "$TMP/t.gr" >/dev/null 2>&1 || echo "convert failed" >&2
printf 'p sp 3 1\na 1 2 1\n' >"$TMP/cut.gr" # node 3 has no arc: no path 1 -> 3

NOWHERE=$TMP/no/such/dir

# each CODE CASE -- CMDLINE [-- CMDLINE ...]: every command line (its words
# separated by spaces; no word has one) exits CODE. A case is one kind of
# mistake; the command lines are the commands that can meet it.
each() {
  local code=$1 name=$2
  shift 3
  local words=()
  for a in "$@" --; do
    if [ "$a" = -- ]; then
      run "${words[@]}"
      expect_rc "$name: astar ${words[*]}" "$code"
      # a usage error says what is wrong on stderr
      if [ "$code" -eq 2 ] && [ ! -s "$ERR" ]; then fail "$name: astar ${words[*]}: no message"; fi
      words=()
    else
      words+=("$a")
    fi
  done
}

# ---- 2: the command line --------------------------------------------------------

each 2 "unknown option" -- run --bogus -- solve "$TMP/t.txt" --bogus -- \
  bench "$TMP/m.map.scen" --bogus -- precompute "$TMP/t.txt" -o "$TMP/x" --bogus -- \
  simulate "$TMP/t.txt" --agents 2 --budget 5 --bogus -- group "$TMP/t.txt" 5 2 --bogus -- \
  render "$TMP/t.txt" -o "$TMP/x.png" --bogus -- convert "$TMP/t.txt" -o "$TMP/x.gr" --bogus -- \
  solve --graph "$TMP/t.gr" 1 2 --bogus -- bench --graph "$TMP/t.gr" --random 3 --bogus -- \
  solve "$TMP/h.hex" 0 0 3 2 --bogus -- render "$TMP/h.hex" 0 0 3 2 -o "$TMP/x.png" --bogus -- \
  mapf "$TMP/m.map" "$TMP/m.map.scen" --bogus -- mapf --check "$TMP/x.json" --bogus

each 2 "a bad number" -- solve "$TMP/t.txt" --weight x -- bench "$TMP/m.map.scen" --repeat x -- \
  precompute "$TMP/t.txt" -o "$TMP/x" --method cpd --threads x -- \
  simulate "$TMP/t.txt" --agents x --budget 5 -- group "$TMP/t.txt" 5 2 --units x -- \
  render "$TMP/t.txt" -o "$TMP/x.png" --cell x -- convert "$TMP/t.txt" -o "$TMP/x.gr" --moves 5 -- \
  solve --graph "$TMP/t.gr" 1 2 --weight x -- bench --graph "$TMP/t.gr" --random x -- \
  solve "$TMP/h.hex" 0 0 3 2 --weight x -- render "$TMP/h.hex" 0 0 3 2 -o "$TMP/x.png" --cell x -- \
  mapf "$TMP/m.map" "$TMP/m.map.scen" --agents x -- mapf "$TMP/m.map" --random x

each 2 "a cell that is no integer" -- solve "$TMP/t.txt" 1 2 5.5 2 -- \
  render "$TMP/t.txt" 1 2 5.5 2 -o "$TMP/x.png" -- group "$TMP/t.txt" 5.5 2 -- \
  solve "$TMP/h.hex" 0 0 1e3 2 -- render "$TMP/h.hex" 0 0 1e3 2 -o "$TMP/x.png" -- \
  solve "$TMP/t.txt" --goals 5.9,1.1 -- solve "$TMP/t.txt" --region 0,0,nan,1 -- \
  solve "$TMP/t.txt" --cone 1e20,1,5,1

each 2 "a cell outside the map" -- solve "$TMP/t.txt" 1 2 9 2 -- \
  render "$TMP/t.txt" 1 2 9 2 -o "$TMP/x.png" -- group "$TMP/t.txt" 9 2 -- \
  solve "$TMP/h.hex" 0 0 9 2 -- render "$TMP/h.hex" 0 0 9 2 -o "$TMP/x.png" -- \
  solve "$TMP/t.txt" --goals 9,2 -- solve "$TMP/t.txt" --region 0,0,9,2 -- \
  solve --graph "$TMP/t.gr" 1 99

each 2 "options the algorithm never supports" -- solve "$TMP/t.txt" --algo cpd --moves 4 -- \
  bench "$TMP/m.map.scen" --algo cpd --moves 4 -- render "$TMP/t.txt" -o "$TMP/x.png" --algo hpa -- \
  solve "$TMP/t.txt" --algo cpd --costs 10,14 -- bench "$TMP/m.map.scen" --algo cpd --costs 10,14 -- \
  solve "$TMP/t.txt" --algo jps --moves 4

# ---- 1: what the files, the map and the search held -------------------------------

each 1 "an input file that does not exist" -- solve "$TMP/none.txt" 0 0 1 1 -- \
  bench "$TMP/none.scen" -- precompute "$TMP/none.txt" -o "$TMP/x" -- \
  simulate "$TMP/none.txt" --agents 2 --budget 5 -- group "$TMP/none.txt" 1 1 -- \
  render "$TMP/none.txt" 0 0 1 1 -o "$TMP/x.png" -- convert "$TMP/none.txt" -o "$TMP/x.gr" -- \
  solve --graph "$TMP/none.gr" 1 2 -- bench --graph "$TMP/none.gr" --random 3 -- \
  mapf "$TMP/none.map" "$TMP/m.map.scen" -- mapf "$TMP/m.map" "$TMP/none.scen"

each 1 "a malformed map" -- solve "$TMP/bad.txt" 0 0 1 1 -- bench "$TMP/badmap" -- \
  precompute "$TMP/bad.txt" -o "$TMP/x" -- simulate "$TMP/bad.txt" --agents 2 --budget 5 -- \
  group "$TMP/bad.txt" 1 1 -- render "$TMP/bad.txt" 0 0 1 1 -o "$TMP/x.png" -- \
  convert "$TMP/bad.txt" -o "$TMP/x.gr" -- mapf "$TMP/badmap/m.map" "$TMP/badmap/m.map.scen"

each 1 "a start or goal on a blocked cell" -- solve "$TMP/t.txt" 1 2 3 2 -- \
  render "$TMP/t.txt" 1 2 3 2 -o "$TMP/x.png" -- group "$TMP/t.txt" 3 2 -- \
  solve "$TMP/h.hex" 0 0 1 1 -- render "$TMP/h.hex" 0 0 1 1 -o "$TMP/x.png"

each 1 "no path" -- solve "$TMP/nopath.txt" -- solve "$TMP/h.hex" 0 0 1 1 -- \
  solve --graph "$TMP/cut.gr" 1 3

each 1 "an output that cannot be written" -- render "$TMP/t.txt" -o "$NOWHERE/x.png" -- \
  precompute "$TMP/t.txt" -o "$NOWHERE/x.pre" -- convert "$TMP/t.txt" -o "$NOWHERE/x.gr" -- \
  mapf "$TMP/m.map" --random 2 --write-scen "$NOWHERE/x.scen" -- \
  mapf "$TMP/m.map" "$TMP/m.map.scen" --algo prioritized -o "$NOWHERE/x.json"

each 1 "a map the algorithm cannot search" -- solve "$TMP/terrain.txt" 0 0 3 2 --algo jps -- \
  solve "$TMP/terrain.txt" 0 0 3 2 --algo cpd -- bench "$TMP/terr" --algo jps -- \
  precompute "$TMP/terrain.txt" -o "$TMP/x" --method cpd

# ---- 0: done, whatever the search found ---------------------------------------------

each 0 "render draws a search that found no path" -- render "$TMP/nopath.txt" -o "$TMP/np.png"

# ---- the messages name the algorithm and say why -------------------------------

run solve "$TMP/t.txt" --algo cpd --moves 4
expect_err "cpd --moves 4 names the CPD" "^astar: solve: --algo cpd: a CPD needs 8 moves"
if grep -q JPS "$ERR"; then fail "cpd --moves 4 speaks of JPS"; else ok; fi
run solve "$TMP/t.txt" --algo cpd --costs 10,14
expect_err "cpd --costs 10,14 says why" "a CPD needs straight cost 1 and diagonal cost sqrt 2"
run precompute "$TMP/terrain.txt" -o "$TMP/x" --method cpd
expect_err "precompute cpd on terrain says why" "cannot precompute cpd: the grid has terrain costs"
if grep -q "says why" "$ERR"; then fail "precompute cpd: points at a reason it does not give"; else ok; fi
run solve "$TMP/terrain.txt" 0 0 3 2 --algo cpd
expect_err "solve cpd on terrain says why" "cpd: the grid has terrain costs; a CPD needs uniform"

# ---- the table: one text in --help, the manual page and the README -------------------

"$ASTAR" --help | sed -n '/^Exit status (the same for every command):$/,$p' | tail -n +2 >"$TMP/help.txt"
if [ -s "$TMP/help.txt" ] && grep -q '^  2  usage error' "$TMP/help.txt"; then ok; else
  fail "astar --help has the exit-status table"
fi
sed -n '/^### Exit status$/,/^## /p' "$ROOT/README.md" | sed -n '/^```$/,/^```$/p' | sed '1d;$d' \
  >"$TMP/readme.txt"
if cmp -s "$TMP/help.txt" "$TMP/readme.txt"; then ok; else
  fail "README's exit-status table differs from astar --help: $(diff "$TMP/help.txt" "$TMP/readme.txt" | head -5 | tr '\n' '|')"
fi
"$ASTAR" --man | sed -n '/^\.SH "EXIT STATUS"$/,/^\.SH /p' | sed '1,2d;$d' | sed '$d' |
  sed 's/\\-/-/g' >"$TMP/man.txt"
if cmp -s "$TMP/help.txt" "$TMP/man.txt"; then ok; else
  fail "the manual page's EXIT STATUS differs from astar --help: $(diff "$TMP/help.txt" "$TMP/man.txt" | head -5 | tr '\n' '|')"
fi
# Each command's own line agrees: a start or goal outside the map is a
# usage error wherever the command takes one.
for cmd in solve render group; do
  run "$cmd" --help
  if tr '\n' ' ' <"$OUT" | grep -Eq "2 usage error \((a start|a goal)[^)]*outside the map"; then
    ok
  else
    fail "astar $cmd --help: a cell outside the map is exit 2"
  fi
done

cli_summary
