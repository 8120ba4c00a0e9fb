#!/usr/bin/env bash
#
# graph_tests.sh -- end-to-end checks of the tool on graphs: `solve --graph`,
# `bench --graph` and `convert` (outputs, exit statuses 0 / 1 / 2, errors
# naming file:line:column). Usage: graph_tests.sh PATH/TO/astar REPO_ROOT
# Prints one line per failed check and "N passed, M failed"; exits non-zero
# if any check failed.

set -u

# shellcheck source=tests/cli/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_args "$@"
D=$ROOT/tests/data/dimacs
cli_tmp graph

# ---- solve --graph ------------------------------------------------------------------

run solve --graph "$D/tiny.gr" --coords "$D/tiny.co" 1 5
expect_rc "solve tiny" 0
expect_out "solve tiny cost" "^cost: +20$"
expect_out "solve tiny path (DIMACS ids)" "^path: +1 3 6 5$"
expect_out "solve tiny heuristic" "heuristic euclidean x 0\.2747"

for algo in astar dijkstra bidir; do
  run solve --graph "$D/tiny.gr" 1 5 --algo "$algo"
  expect_out "solve --algo $algo cost" "^cost: +20$"
done
run solve --graph "$D/tiny.gr" 1 5 --algo greedy
expect_rc "solve --algo greedy" 0

run solve --graph "$D/tiny.gr" 5 1
expect_rc "solve: no path" 1
expect_out "solve reports no path" "no path"

run solve --graph "$D/tiny.gr" --undirected 5 1
expect_rc "solve --undirected" 0
expect_out "solve --undirected cost" "^cost: +20$"

run solve --graph "$D/tiny.gr" 1 7
expect_rc "solve: node out of range" 2
expect_err "names the range" "T: expected an integer from 1 to 6, got '7'"

run solve --graph "$D/tiny.gr" 1
expect_rc "solve: one node id" 2

run solve --graph "$D/bad_arc.gr" 1 2
expect_rc "solve: malformed graph" 1
expect_err "error names file:line:column" "bad_arc\.gr:5:5: arc: head 9 is out of range"

printf 'p aux sp co 6\nv 1 0 0\nv 2 0 x\n' >"$TMP/bad.co"
run solve --graph "$D/tiny.gr" --coords "$TMP/bad.co" 1 5
expect_rc "solve: malformed coordinates" 1
expect_err "coordinate error names file:line:column" "bad\.co:3:7: node: Y 'x' is not a number"

run solve --graph "$D/tiny.gr" --coords "$D/tiny.co" --scale 2 1 5
expect_rc "solve: inadmissible scale" 1
expect_err "scale refused with the largest one" "exceeds the largest admissible scale .* 0\.27472"

run solve --graph "$D/tiny.gr" --coords "$D/tiny.co" --scale 0.1 --heuristic manhattan 1 5
expect_rc "solve: smaller scale, manhattan" 0
expect_out "solve manhattan" "heuristic manhattan x 0\.1"

run solve --graph "$D/tiny.gr" --heuristic octile 1 5
expect_rc "solve: heuristic without coordinates" 2

run solve --graph "$D/tiny.gr" 1 5 --moves 4
expect_rc "solve: grid option with --graph" 2

run solve --graph "$D/missing.gr" 1 5
expect_rc "solve: missing file" 1

run solve --graph "$D/tiny.gr" --help
expect_rc "solve --graph --help" 0
expect_out "solve --graph help" "usage: astar solve --graph"

# ---- bench --graph ------------------------------------------------------------------

run bench --graph "$D/tiny.gr" --coords "$D/tiny.co" --queries "$D/tiny.p2p" --check
expect_rc "bench tiny queries" 0
expect_out "bench table" "^ +3 +2 +0 "

run bench --graph "$D/tiny.gr" --coords "$D/tiny.co" --random 300 --seed 7 --check --algo bidir --json
expect_rc "bench random bidir" 0
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["queries"]==300 and d["mismatches"]==0 and d["algo"]=="bidir" and d["solved"]>0' "$OUT" 2>/dev/null; then ok; else fail "bench --json fields"; fi

run bench --graph "$D/tiny.gr" --random 50 --seed 7 --json
cp "$OUT" "$TMP/a.json"
run bench --graph "$D/tiny.gr" --random 50 --seed 7 --json
if python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); assert a["solved"]==b["solved"] and a["mean_expansions"]==b["mean_expansions"]' "$TMP/a.json" "$OUT" 2>/dev/null; then ok; else fail "bench --random is reproducible"; fi

printf 'p aux sp p2p 2\nq 1 5 20\nq 1 4 99\n' >"$TMP/wrong.p2p"
run bench --graph "$D/tiny.gr" --queries "$TMP/wrong.p2p" --check
expect_rc "bench --check mismatch" 1
expect_err "mismatch names file and line" "mismatch: .*wrong\.p2p:3: 1 -> 4: expected 99, got 20"
# A GPPC scenario's unreachable pair (length 0), converted: the .p2p holds
# cost 0 between two nodes, which bench --graph expects to have no path.
printf 'type octile\nheight 3\nwidth 5\nmap\n..@..\n..@..\n..@..\n' >"$TMP/gppc.map"
printf 'version 1\n0\tg.map\t5\t3\t0\t0\t1\t2\t2.41421356\n0\tg.map\t5\t3\t0\t0\t4\t2\t0\n0\tg.map\t5\t3\t4\t0\t3\t0\t0\n' \
  >"$TMP/gppc.scen"
run convert "$TMP/gppc.map" -o "$TMP/gppc.gr" --scen "$TMP/gppc.scen" --queries "$TMP/gppc.p2p"
expect_rc "convert a GPPC scenario" 0
run bench --graph "$TMP/gppc.gr" --queries "$TMP/gppc.p2p" --check
expect_rc "bench --graph --check: a reachable pair written 0 mismatches" 1
expect_err "bench --graph: that mismatch by FILE:LINE" "mismatch: .*gppc\.p2p:5: 4 -> 3: expected no path, got 1$"
expect_out "bench --graph: the no-path queries counted apart" "^no path expected: 2 of the 3 queries .*GPPC.*, 1 answered no path$"
head -n 4 "$TMP/gppc.p2p" | sed 's/^p aux sp p2p 3$/p aux sp p2p 2/' >"$TMP/gppc-ok.p2p"
run bench --graph "$TMP/gppc.gr" --queries "$TMP/gppc-ok.p2p" --check --json
expect_rc "bench --graph --check: an unreachable pair written 0 matches" 0
expect_out "bench --graph --json: counts them" '"no_path_expected":1,"no_path_found":1'

printf 'p aux sp p2p 1\nq 1 9\n' >"$TMP/bad.p2p"
run bench --graph "$D/tiny.gr" --queries "$TMP/bad.p2p"
expect_rc "bench: malformed queries" 1
expect_err "query error names file:line:column" "bad\.p2p:2:5: query: target 9 is out of range"

run bench --graph "$D/tiny.gr"
expect_rc "bench without queries" 2
run bench --graph "$D/tiny.gr" --random 5 --queries "$D/tiny.p2p"
expect_rc "bench with both query sources" 2
run bench --graph "$D/tiny.gr" --random 0
expect_rc "bench --random 0" 2

# ---- convert --------------------------------------------------------------------------

printf 'type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n' >"$TMP/walls.map"
printf 'version 1\n0\tw\t4\t3\t0\t0\t3\t0\t3\n0\tw\t4\t3\t0\t0\t3\t2\t5\n0\tw\t4\t3\t0\t0\t1\t2\t3\n' \
  >"$TMP/walls.map.scen"
run convert "$TMP/walls.map" -o "$TMP/walls.gr" --coords "$TMP/walls.co" \
  --scen "$TMP/walls.map.scen" --queries "$TMP/walls.p2p"
expect_rc "convert" 0
if grep -q '^p sp 10 20$' "$TMP/walls.gr" && grep -q '^p aux sp co 10$' "$TMP/walls.co" &&
  grep -q '^q 1 10 5$' "$TMP/walls.p2p"; then ok; else fail "convert output: $(grep '^p' "$TMP/walls.gr")"; fi
if grep -q '^a 1 2 1$' "$TMP/walls.gr" && grep -q '^v 5 0 1$' "$TMP/walls.co"; then ok; else fail "convert arcs and cells"; fi

# A map of more lone cells than a .gr may declare (2 x arcs + 2^20): a
# 2048 x 1100 checkerboard in 4 moves has 1,126,400 cells and no arc. convert
# refuses it rather than write a file the reader refuses, and leaves no file.
python3 -c 'import sys
w, h = 2048, 1100
sys.stdout.write("type octile\nheight %d\nwidth %d\nmap\n" % (h, w))
for y in range(h): sys.stdout.write("".join(".@"[(x + y) % 2] for x in range(w)) + "\n")' >"$TMP/lone.map"
run convert "$TMP/lone.map" -o "$TMP/lone.gr" --moves 4
expect_rc "convert of more lone cells than a .gr may declare" 1
expect_err "convert names the lone-node limit" 'lone.map: 1126400 passable cells but only 0 arcs.*ASTAR_DIMACS_MAX_LONE_NODES'
if [[ ! -e $TMP/lone.gr ]]; then ok; else fail "convert left $TMP/lone.gr behind"; fi

run bench --graph "$TMP/walls.gr" --coords "$TMP/walls.co" --heuristic octile --queries "$TMP/walls.p2p" --check
expect_rc "bench on a converted map matches the optimal lengths" 0
run bench --graph "$TMP/walls.gr" --coords "$TMP/walls.co" --heuristic octile --random 100 --check
expect_rc "bench --random on a converted map against Dijkstra" 0

run solve --graph "$TMP/walls.gr" --coords "$TMP/walls.co" --heuristic octile 1 10
expect_out "converted graph: the grid's cost" "^cost: +5$"
run solve "$TMP/walls.map" 0 0 3 2
expect_out "the grid agrees" "^cost: +5$"

run convert "$TMP/walls.map" -o "$TMP/w4.gr" --moves 4 --costs 10,14
expect_rc "convert --moves 4" 0
if grep -q '^p sp 10 20$' "$TMP/w4.gr" && grep -q '^a 1 2 10$' "$TMP/w4.gr"; then ok; else fail "convert --moves 4 --costs"; fi

# The costs the .gr's comment line and `convert --help` give are those its
# arcs hold: on a map without terrain the grid's searches round sqrt 2 (to
# 1.4142135623733338 on 49 x 49), and the help said 1.4142135623730951.
python3 -c "print('\n'.join(['.' * 49] * 49))" >"$TMP/open49.txt"
run convert "$TMP/open49.txt" -o "$TMP/open49.gr"
expect_rc "convert a 49 x 49 map" 0
"$ASTAR" convert --help >"$TMP/convert-help.txt"
if python3 - "$TMP/open49.gr" "$TMP/convert-help.txt" <<'EOF'; then ok; else fail "convert: the costs said are the costs written"; fi
import re, sys
lines = open(sys.argv[1]).read().split('\n')
m = re.search(r'arc costs (\S+) \(straight\) and (\S+) \(diagonal\)', lines[0])
assert m, lines[0]
arcs = {l.split()[3] for l in lines if l.startswith('a ')}
assert arcs == {m.group(1), m.group(2)}, (arcs, m.groups())
assert float(m.group(2)) != 2 ** 0.5  # rounded: the file does not hold sqrt 2 itself
helptext = ' '.join(open(sys.argv[2]).read().split())
h = re.search(r'is written (\S+) on a 49 x 49 map', helptext)
assert h and h.group(1) == m.group(2), (h and h.group(1), m.group(2))
EOF
run convert "$TMP/walls.map"
expect_rc "convert without -o" 2
run convert "$TMP/walls.map" -o "$TMP/x.gr" --scen "$TMP/walls.map.scen"
expect_rc "convert --scen without --queries" 2
run convert "$TMP/nowhere.map" -o "$TMP/x.gr"
expect_rc "convert a missing map" 1
run convert "$TMP/walls.map" -o "$TMP/no/such/dir/x.gr"
expect_rc "convert to an unwritable file" 1
run convert --help
expect_rc "convert --help" 0

cli_summary
