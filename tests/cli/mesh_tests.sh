#!/usr/bin/env bash
#
# mesh_tests.sh -- end-to-end checks of the tool on navigation meshes (issue
# 30): `astar mesh` (grid maps, polygon maps and meshes in; the mesh, its
# figures and an SVG out), `solve --mesh` and `bench --mesh` (Polyanya and
# the funnel; --check on the shared meshes of ../shared/bench/navmesh when
# present), every error path (a bad file named with line and column, a bad
# argument with its range, usage errors exit 2) and a mesh written by
# `astar mesh` read back. Usage: mesh_tests.sh PATH/TO/astar REPO_ROOT
# Prints one line per failed check and "N passed, M failed"; exits non-zero
# if any check failed.

set -u

# shellcheck source=tests/cli/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_args "$@"
NAV=${ASTAR_NAVMESH_DIR:-$ROOT/../shared/bench/navmesh}
cli_tmp mesh

# check NAME PYTHON-EXPRESSION FILE: the expression, over the parsed JSON
# object `j` of FILE, is true.
check_json() {
  if python3 -c 'import json,sys; j=json.load(open(sys.argv[2])); sys.exit(0 if eval(sys.argv[1]) else 1)' "$2" "$3" 2>/dev/null; then ok; else fail "$1: $2"; fi
}
# svg_ok NAME FILE [ELEMENT]: FILE is well-formed SVG (with ELEMENT).
svg_ok() {
  if python3 - "$2" "${3:-}" <<'EOF'; then ok; else fail "$1: $2 is not an SVG${3:+ with <$3>}"; fi
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
assert root.tag == ns + "svg"
assert not sys.argv[2] or root.find(ns + sys.argv[2]) is not None
EOF
}

# ---- fixtures ------------------------------------------------------------------------

# Three unit squares in an L, the square (0,1)-(1,2) left out: the path from
# (0.5,0.5) to (1.5,1.9) bends at the corner (1,1):
# sqrt(0.5) + sqrt(0.25 + 0.81) = 1.736670...
cat >"$TMP/l.mesh" <<'EOF'
mesh
2
8 3
0 0 2 0 -1
1 0 3 0 1 -1
2 0 2 1 -1
0 1 2 0 -1
1 1 4 0 1 2 -1
2 1 3 1 2 -1
1 2 2 2 -1
2 2 2 2 -1
4 0 1 4 3 -1 -1 1 -1
4 1 2 5 4 0 -1 -1 2
4 4 5 7 6 -1 1 -1 -1
EOF
L_LEN=1.73666979
printf 'version 1\n0\tl.mesh\t2\t2\t0.5\t0.5\t1.5\t1.9\t1.7366697953\n0\tl.mesh\t2\t2\t0.2\t0.2\t1.8\t0.8\t1.7088007490635\n0\tl.mesh\t2\t2\t1.5\t1.5\t1.5\t1.5\t0\n' >"$TMP/l.scen"
# A grid: a wall with a gap; and a polygon map: a 10 x 10 border, a square
# obstacle in the middle.
printf '........\n..###...\n..#.....\n..#..##.\n........\n' >"$TMP/g.txt"
printf 'poly\n1\n2\n4 0 0 10 0 10 10 0 10\n4 4 4 6 4 6 6 4 6\n' >"$TMP/p.poly"

# ---- astar mesh ----------------------------------------------------------------------

run mesh --help
expect_rc "mesh --help" 0
expect_out "mesh --help: usage" "^usage: astar mesh MAP"
run --help
expect_out "astar --help lists mesh" "^  mesh "

run mesh "$TMP/g.txt" -o "$TMP/g.mesh"
expect_rc "mesh from a grid" 0
expect_out "mesh: polygons and vertices" "^mesh: +[0-9]+ polygons, [0-9]+ vertices, area 33$"
expect_out "mesh: build time" "^build: +[0-9.]+ ms"
expect_out "mesh: memory" "^memory: +builder [0-9]+ bytes"
expect_out "mesh: written" "^written: +.*g\.mesh \([0-9]+ bytes\)"
if head -2 "$TMP/g.mesh" | tr '\n' ' ' | grep -q '^mesh 2 $'; then ok; else fail "g.mesh: header"; fi

# A mesh written by `astar mesh` is read back: by the tool (written again,
# the same bytes) and searched.
run mesh "$TMP/g.mesh" -o "$TMP/g2.mesh"
expect_rc "mesh: a written mesh read back" 0
expect_out "mesh read back: area" "area 33$"
if cmp -s "$TMP/g.mesh" "$TMP/g2.mesh"; then ok; else fail "mesh read back and written: bytes differ"; fi
run solve --mesh "$TMP/g.mesh" 0.5 0.5 7.5 4.5
expect_rc "solve on a built mesh" 0
# Around the wall's top end (3,1)... the optimum is the Euclidean one on the
# grid's free space; Polyanya's length is at least the straight line.
expect_out "solve on a built mesh: length" "^length: +[0-9.]+ \([0-9]+ points\)"

run mesh "$TMP/g.txt" --no-merge --json
expect_rc "mesh --no-merge --json" 0
check_json "mesh --no-merge: triangles" 'j["polygons"] == j["free_triangles"] and j["merge"] is False' "$OUT"
tri=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["polygons"])' "$OUT")
run mesh "$TMP/g.txt" --json
check_json "mesh: merged has fewer polygons than triangles" "j['polygons'] < $tri and j['area'] == 33" "$OUT"

run mesh "$TMP/g.txt" --radius 0.25 --json
expect_rc "mesh --radius" 0
check_json "mesh --radius: less free area" 'j["area"] < 33 and j["radius"] == 0.25' "$OUT"

run mesh "$TMP/p.poly" -o "$TMP/p.mesh" --svg "$TMP/p.svg"
expect_rc "mesh from a polygon map" 0
expect_out "mesh from a poly: input" "polygon map, 2 polygons"
expect_out "mesh from a poly: area 96" "area 96$"
svg_ok "mesh --svg" "$TMP/p.svg" path
run solve --mesh "$TMP/p.mesh" 1 5 9 5
expect_rc "solve around the obstacle" 0
# (1,5) -> (4,4) -> (6,4) -> (9,5): 2 sqrt(10) + 2
expect_out "solve around the obstacle: length" "^length: +8\.32455532"

# Errors of `astar mesh`.
run mesh
expect_rc "mesh: no map" 2
expect_err "mesh: no map: says what" "expected MAP"
run mesh "$TMP/g.txt" "$TMP/g.txt"
expect_rc "mesh: two maps" 2
run mesh "$TMP/g.txt" --radius -1
expect_rc "mesh --radius -1" 2
expect_err "mesh --radius -1: the range" "--radius: expected .*0.*1e\+?0?6.*, got '-1'"
run mesh "$TMP/g.txt" --radius nan
expect_rc "mesh --radius nan" 2
run mesh "$TMP/g.mesh" --radius 1
expect_rc "mesh --radius on a mesh" 2
expect_err "mesh --radius on a mesh: why" "--radius.*a mesh already"
run mesh "$TMP/missing.map"
expect_rc "mesh: missing file" 1
expect_err "mesh: missing file named" "missing\.map"
printf 'mesh\n2\n3 1\n0 0 1 0\n1 0 1 0\n0 x 1 0\n3 0 1 2 -1 -1 -1\n' >"$TMP/bad.mesh"
run mesh "$TMP/bad.mesh"
expect_rc "mesh: malformed mesh" 1
expect_err "mesh: malformed mesh: file:line:column" "bad\.mesh:6:3: "
# Clockwise: the polygon's line is named.
printf 'mesh\n2\n3 1\n0 0 1 0\n1 0 1 0\n0 1 1 0\n3 0 2 1 -1 -1 -1\n' >"$TMP/cw.mesh"
run mesh "$TMP/cw.mesh"
expect_rc "mesh: clockwise polygon" 1
expect_err "mesh: clockwise polygon: file:line" "cw\.mesh:7(:[0-9]+)?: .*polygon 0"
printf 'poly\n1\n1\n3 0 0 4 0 4\n' >"$TMP/bad.poly"
run mesh "$TMP/bad.poly"
expect_rc "mesh: malformed poly" 1
expect_err "mesh: malformed poly: file:line:column" "bad\.poly:[45]:[0-9]+: "
printf '###\n###\n' >"$TMP/full.txt"
run mesh "$TMP/full.txt"
expect_rc "mesh: no free space" 1
expect_err "mesh: no free space: why" "no free space"
printf 'hex pointy odd-r\nheight 1\nwidth 2\nmap\n..\n' >"$TMP/h.hex"
run mesh "$TMP/h.hex"
expect_rc "mesh: a hex map" 1
expect_err "mesh: a hex map: why" "hex map"
echo keep >"$TMP/kept.mesh"
run mesh "$TMP/g.txt" -o "$TMP/nodir/x.mesh"
expect_rc "mesh: unwritable output" 1
run mesh "$TMP/bad.mesh" -o "$TMP/kept.mesh"
if [ "$(cat "$TMP/kept.mesh")" = keep ]; then ok; else fail "a failed mesh run replaced its output"; fi

# ---- solve --mesh --------------------------------------------------------------------

run solve --mesh "$TMP/l.mesh" 0.5 0.5 1.5 1.9
expect_rc "solve --mesh" 0
expect_out "solve --mesh: mesh line" "^mesh: +.*l\.mesh \(3 polygons, 8 vertices"
expect_out "solve --mesh: length" "^length: +$L_LEN"
expect_out "solve --mesh: bends at the corner" "^path: +\(0\.5,0\.5\) \(1,1\) \(1\.5,1\.9\)$"
run solve --mesh "$TMP/l.mesh" 0.5 0.5 1.5 1.9 --algo funnel
expect_rc "solve --mesh --algo funnel" 0
expect_out "solve --mesh funnel: length" "^length: +$L_LEN"
run solve --mesh "$TMP/l.mesh" 0.5 0.5 1.5 1.9 --json
expect_rc "solve --mesh --json" 0
check_json "solve --mesh --json: length and points" \
  'abs(j["length"] - 1.7366697953) < 1e-9 and j["points"] == [[0.5,0.5],[1,1],[1.5,1.9]] and j["found"]' "$OUT"
run solve --mesh "$TMP/l.mesh" 0.5 0.5 1.5 1.9 --compare --svg "$TMP/l.svg" --nodes
expect_rc "solve --mesh --compare --svg --nodes" 0
expect_out "solve --compare: the other's length" "^funnel +1\.73666979"
svg_ok "solve --mesh --svg: the path" "$TMP/l.svg" polyline
if grep -q 'stroke-dasharray' "$TMP/l.svg"; then ok; else fail "--compare: no dashed path"; fi
run solve --mesh "$TMP/l.mesh" 0.5 0.5 0.5 0.5
expect_rc "solve --mesh: start = goal" 0
expect_out "solve --mesh: start = goal: length 0" "^length: +0 \(1 points\)"

run solve --mesh "$TMP/l.mesh" 0.5 0.5 0.5 1.5
expect_rc "solve --mesh: goal in the obstacle" 1
expect_out "solve --mesh: goal outside named" "goal is outside the mesh"
run solve --mesh "$TMP/l.mesh" -3 0.5 0.5 0.5
expect_rc "solve --mesh: start off the mesh" 1
expect_out "solve --mesh: start outside named" "start is outside the mesh"
run solve --mesh "$TMP/l.mesh" 0.5 x 1 1
expect_rc "solve --mesh: a bad coordinate" 2
expect_err "solve --mesh: the bad coordinate named" "SY: expected a finite number .*got 'x'"
run solve --mesh "$TMP/l.mesh" 0.5 0.5 inf 1
expect_rc "solve --mesh: inf" 2
expect_err "solve --mesh: inf named" "GX: expected a finite number"
run solve --mesh "$TMP/l.mesh" 0.5 0.5 1
expect_rc "solve --mesh: three numbers" 2
expect_err "solve --mesh: three numbers: why" "expected the points SX SY GX GY"
run solve --mesh "$TMP/l.mesh" 0.5 0.5 1 1 1
expect_rc "solve --mesh: five numbers" 2
run solve --mesh "$TMP/l.mesh" 0.5 0.5 1 1 --algo astar
expect_rc "solve --mesh --algo astar" 2
expect_err "solve --mesh --algo: the choices" "--algo: expected .*polyanya.*funnel.*got 'astar'"
run solve --mesh "$TMP/l.mesh" 0.5 0.5 1 1 --nodes
expect_rc "solve --mesh --nodes without --svg" 2
run solve "$TMP/g.txt" 0 0 1 0 --svg x.svg
expect_rc "solve --svg on a grid map" 2
run solve --mesh "$TMP/bad.mesh" 0 0 1 1
expect_rc "solve --mesh: malformed mesh" 1
expect_err "solve --mesh: malformed mesh: file:line:column" "bad\.mesh:6:3: "
run solve --mesh "$TMP/l.mesh" --help
expect_rc "solve --mesh --help" 0
expect_out "solve --mesh --help: usage" "^usage: astar solve --mesh FILE"

# ---- bench --mesh --------------------------------------------------------------------

for algo in polyanya funnel; do
  run bench --mesh "$TMP/l.mesh" "$TMP/l.scen" --check --algo "$algo"
  expect_rc "bench --mesh --check ($algo)" 0
  expect_out "bench --mesh ($algo): the total" "^$algo: 3 queries, 3 solved, 0 mismatches"
done
run bench --mesh "$TMP/l.mesh" "$TMP/l.scen" --json --repeat 3 --times "$TMP/t.csv"
expect_rc "bench --mesh --json --times" 0
check_json "bench --mesh --json" 'j["queries"] == 3 and j["solved"] == 3 and j["algo"] == "polyanya"' "$OUT"
if [ "$(head -1 "$TMP/t.csv")" = "pass,index,micros,length,expanded" ] && [ "$(wc -l <"$TMP/t.csv")" -eq 10 ]; then ok; else fail "bench --times: header and 9 lines"; fi
run bench --mesh "$TMP/l.mesh" "$TMP/l.scen" --limit 1
expect_out "bench --mesh --limit" "^polyanya: 1 queries"
# A wrong expected length: a mismatch named SCEN:LINE, exit 1.
printf 'version 1\n0\tl.mesh\t2\t2\t0.5\t0.5\t1.5\t1.9\t1.5\n' >"$TMP/wrong.scen"
run bench --mesh "$TMP/l.mesh" "$TMP/wrong.scen" --check
expect_rc "bench --mesh --check: a mismatch" 1
expect_err "bench --mesh --check: the mismatch named" "wrong\.scen:2: .*not the file's length"
# A grid scenario's length is an upper bound: a shorter any-angle path is fine.
printf 'version 1\n0\tmaps/l.map\t2\t2\t0.5\t0.5\t1.5\t1.9\t2.2\n0\tmaps/l.map\t2\t2\t0.5\t0.5\t1.5\t1.9\t1.6\n' >"$TMP/grid.scen"
run bench --mesh "$TMP/l.mesh" "$TMP/grid.scen" --check
expect_rc "bench --mesh --check: grid bounds" 1
expect_err "bench --mesh --check: above the grid's optimum" "grid\.scen:3: .*longer than the grid's optimum"
if grep -q "grid.scen:2:" "$ERR"; then fail "a path shorter than the grid optimum was refused"; else ok; fi
printf 'version 1\n0\tl.mesh\t2\t2\t0.5\t0.5\t1.5\n' >"$TMP/short.scen"
run bench --mesh "$TMP/l.mesh" "$TMP/short.scen"
expect_rc "bench --mesh: a short scen line" 1
expect_err "bench --mesh: short line named" "short\.scen:2:[0-9]+: expected 9 fields"
printf 'version 1\n0\tl.mesh\t2\t2\t0.5\tabc\t1.5\t1.9\t1\n' >"$TMP/nan.scen"
run bench --mesh "$TMP/l.mesh" "$TMP/nan.scen"
expect_rc "bench --mesh: a bad number" 1
expect_err "bench --mesh: bad number named" "nan\.scen:2:18: start y: expected a finite number, got 'abc'"
printf 'hello\n' >"$TMP/nohead.scen"
run bench --mesh "$TMP/l.mesh" "$TMP/nohead.scen"
expect_rc "bench --mesh: no header" 1
expect_err "bench --mesh: no header named" "nohead\.scen:1:1: expected the header"
run bench --mesh "$TMP/l.mesh"
expect_rc "bench --mesh: no scen" 2
run bench --mesh "$TMP/l.mesh" "$TMP/l.scen" --repeat 0
expect_rc "bench --mesh --repeat 0" 2
expect_err "bench --mesh --repeat 0: the range" "--repeat: expected an integer from 1 to"
run bench --mesh "$TMP/l.mesh" "$TMP/l.scen" --times "$TMP/nodir/t.csv"
expect_rc "bench --mesh: unwritable --times" 1

# --check on the shared meshes (Polyanya's own, with their scenarios), both
# methods: every path in the mesh; Polyanya's lengths equal the test meshes'
# and lie between the straight line and the grid optimum on arena.
if [ -d "$NAV/meshes" ]; then
  for t in square bad-ambig bad-collinear bad-collinear2-rot0 bad-collinear2-rot45 \
    bad-collinear2-rot90; do
    for algo in polyanya funnel; do
      run bench --mesh "$NAV/meshes/tests/$t.mesh" "$NAV/scenarios/tests/$t.scen" --check \
        --algo $algo --quiet
      expect_rc "bench --check on the shared $t ($algo)" 0
    done
  done
  for m in arena arena-merged; do
    for algo in polyanya funnel; do
      run bench --mesh "$NAV/meshes/$m.mesh" "$NAV/scenarios/arena.scen" --check --algo $algo --quiet
      expect_rc "bench --check on the shared $m ($algo)" 0
      expect_out "bench --check on $m ($algo): all solved" "160 queries, 160 solved, 0 mismatches"
    done
  done
  run bench --mesh "$NAV/meshes/aurora-merged.mesh" "$NAV/scenarios/aurora.scen" --check \
    --every 20 --quiet
  expect_rc "bench --check on the shared aurora-merged (every 20th)" 0
  # The arena grid map made into a mesh, searched with the same scenario.
  run mesh "$NAV/maps/arena.map" -o "$TMP/arena.mesh"
  expect_rc "mesh of arena.map" 0
  run bench --mesh "$TMP/arena.mesh" "$NAV/scenarios/arena.scen" --check --quiet
  expect_rc "bench --check on the mesh built from arena.map" 0
else
  echo "note: $NAV missing: the shared meshes were not checked"
fi

cli_summary
