#!/usr/bin/env bash
#
# mapf_tests.sh -- `astar mapf` end to end (tools/cmd_mapf.c, mapf_check.c,
# mapf_picture.c): every solver's JSON passes --check and holds what the
# help says; faults planted in a solution are named with their kind, agents
# and time (exit 1); the solution files of lacam3 and EECBS (hand-written
# samples of their formats, tests/data/mapf) are read and checked; bad option
# values, missing files, malformed scen and JSON files are refused with the
# option's range or the file's line and column; a generated instance written
# with --write-scen reads back as the same instance, its optimal column the
# octile distance; the pictures are SVG with the agents walking, and PNG.
# Usage: mapf_tests.sh PATH/TO/astar REPO_ROOT
set -u

# shellcheck source=tests/cli/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_args "$@"
case $ASTAR in /*) ;; *) ASTAR=$PWD/$ASTAR ;; esac
case $ROOT in /*) ;; *) ROOT=$PWD/$ROOT ;; esac
cli_tmp mapf
DATA=$ROOT/tests/data/mapf
cp "$DATA"/tiny.* "$TMP"/
cd "$TMP" || exit 2

# A 16 x 16 map with walls, for instances the solvers must work at.
python3 - <<'EOF'
rows = []
for y in range(16):
    row = ''
    for x in range(16):
        wall = (x * 7 + y * 11) % 13 == 0 and 0 < x < 15 and 0 < y < 15
        row += '@' if wall else '.'
    rows.append(row)
open('room.map', 'w').write('type octile\nheight 16\nwidth 16\nmap\n' + '\n'.join(rows) + '\n')
EOF

# json_get FILE EXPR: a Python expression over the JSON `j`, printed.
json_get() {
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# ---- every solver: exit 0, the JSON's fields, the paths pass --check -------------------

run mapf tiny.map tiny.scen --algo no-such
expect_rc "--algo no-such" 2
expect_one_line_err "--algo no-such"
algos=$(sed -n "s/.*--algo: expected one of \([a-z|-]*\), got 'no-such'.*/\1/p" "$ERR" | tr '|' ' ')
if [ -n "$algos" ] && [[ " $algos " == *" lacam-star "* ]]; then ok; else fail "--algo's range lists no algorithm: '$algos'"; fi
SOLVER=lacam # complete and quick: the solver of the tests below that need a solution

for algo in $algos; do
  for inst in "tiny.map tiny.scen" "room.map --random 12 --seed 3"; do
    # shellcheck disable=SC2086
    run mapf $inst --algo "$algo" --time-limit 0.5 -o "sol-$algo.json"
    label="$algo on ${inst%% *}"
    expect_rc "$label" 0
    expect_out "$label: summary" "^status: +solved"
    expect_out "$label: JSON written" "^wrote: +sol-$algo.json"
    run mapf --check "sol-$algo.json"
    expect_rc "$label: its JSON passes --check" 0
    expect_out "$label: --check says valid" "^valid:"
  done
  # The JSON holds what the help says, the paths from each start to its goal.
  if python3 - "sol-$algo.json" "$algo" <<'EOF'; then ok; else fail "$algo: JSON fields"; fi
import json, sys
j = json.load(open(sys.argv[1]))
keys = {"map", "scen", "generated", "agents", "algo", "solved", "status", "sum_of_costs",
        "makespan", "lower_bound", "bound", "optimal", "time_ms", "time_first_ms",
        "improvements", "high_level", "low_level", "peak_memory", "paths"}
missing = keys - set(j)
assert not missing, missing
assert ("w" in j) == (sys.argv[2] == "eecbs"), "w only for eecbs"
assert j["algo"] == sys.argv[2] and j["solved"] is True and j["status"] == "ok"
assert j["scen"] is None and j["generated"] == {"seed": 3}
assert j["agents"] == 12 == len(j["paths"])
def cost(p):
    t = len(p) - 1
    while t > 0 and p[t - 1] == p[-1]:
        t -= 1
    return t
costs = [cost(p) for p in j["paths"]]
assert j["sum_of_costs"] == sum(costs), (j["sum_of_costs"], costs)
assert j["makespan"] == max(costs)
assert j["lower_bound"] <= j["sum_of_costs"]
assert all(len(c) == 2 and all(isinstance(v, int) for v in c) for p in j["paths"] for c in p)
assert len(j["improvements"]) >= 1 and j["improvements"][-1][1] == j["sum_of_costs"]
EOF
done

# The optimal solvers on the tiny instance: sum of costs 8, proven.
for algo in cbs lacam-star; do
  run mapf tiny.map tiny.scen --algo "$algo" --time-limit 5 --json
  expect_rc "$algo --json" 0
  if [ "$(python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["sum_of_costs"], j["optimal"])' <"$OUT")" = "8 True" ]; then ok; else fail "$algo: not proven optimal (8) on tiny"; fi
done

# Not solved within the limits: exit 1, said so.
run mapf room.map --random 12 --algo pibt --max-work 1
expect_rc "--max-work 1" 1
expect_out "--max-work 1: says so" "not solved within the limits"
run mapf room.map --random 12 --algo pibt --max-work 1 --json
expect_rc "--max-work 1 --json" 1
if [ "$(json_get "$OUT" 'j["solved"], j["status"], j["paths"]')" = "(False, 'limit_reached', [])" ]; then ok; else fail "--max-work 1 --json: solved false"; fi

# ---- the three formats of --check -------------------------------------------------------

run mapf --check tiny.json
expect_rc "tiny.json" 0
expect_out "tiny.json: costs" "sum of costs 8, makespan 4 \(lower bound 8\)"
run mapf --check tiny.lacam3.txt
expect_rc "lacam3 result, map from map_file=, agents from starts=/goals=" 0
expect_out "lacam3: format" "lacam3 format"
run mapf tiny.map tiny.scen --check tiny.lacam3.txt
expect_rc "lacam3 result with MAP SCEN" 0
run mapf tiny.map tiny.scen --check tiny.eecbs.txt
expect_rc "EECBS paths with MAP SCEN" 0
expect_out "EECBS: costs" "sum of costs 8, makespan 4"
run mapf --check tiny.eecbs.txt
expect_rc "EECBS paths without MAP SCEN" 2
expect_err "EECBS: names no map" "names no map: give MAP SCEN"
# (row,col) is (y,x): the same file read as (x,y) would start off the map.
sed 's/(1,2)/(2,1)/' tiny.eecbs.txt >eecbs-xy.txt
run mapf tiny.map tiny.scen --check eecbs-xy.txt
expect_rc "EECBS: agent 2 at (row 2, col 1)" 1
expect_out "EECBS: wrong start named" "INVALID: +.*agent 2"
# lacam3: agent 1 and agent 0 swapped at time 3 -> 4.
sed -e 's/^3:(3,0),(1,2)/3:(3,0),(4,0)/' -e 's/^4:(4,0),(0,2)/4:(4,0),(4,0)/' tiny.lacam3.txt >l-bad.txt
run mapf tiny.map tiny.scen --check l-bad.txt
expect_rc "lacam3: planted fault" 1
expect_out "lacam3: planted fault named" "^INVALID:"

# The JSON's names are relative to its own folder; MAP SCEN override them.
mkdir -p elsewhere/deeper
cp tiny.json elsewhere/deeper/
run mapf --check elsewhere/deeper/tiny.json
expect_rc "moved JSON: its names resolved against its folder" 2
expect_err "moved JSON: names the map it looked for" "elsewhere/deeper/tiny.map"
run mapf tiny.map tiny.scen --check elsewhere/deeper/tiny.json
expect_rc "moved JSON with MAP SCEN" 0
# -o writes names relative to the JSON's folder.
run mapf tiny.map tiny.scen --algo "$SOLVER" -o elsewhere/deeper/out.json
expect_rc "-o into a folder" 0
if [ "$(json_get elsewhere/deeper/out.json 'j["map"], j["scen"]')" = "('../../tiny.map', '../../tiny.scen')" ]; then ok; else fail "-o: names not relative to the JSON's folder"; fi
run mapf --check elsewhere/deeper/out.json
expect_rc "-o into a folder, then --check" 0

# ---- planted faults: the kind, the agents, the time ----------------------------------------

# plant NAME PYTHON: tiny.json with `paths` edited by PYTHON into NAME.json.
plant() {
  python3 - "$1" "$2" <<'EOF'
import json, sys
j = json.load(open("tiny.json"))
paths = j["paths"]
exec(sys.argv[2])
json.dump(j, open(sys.argv[1] + ".json", "w"))
EOF
}
plant vertex 'paths[1] = [[4,2],[4,1],[4,0],[3,0],[2,0],[1,0],[0,0],[0,1],[0,2]]'
plant swap 'paths[0] = [[0,0],[0,0],[1,0],[2,0],[3,0],[4,0]]; paths[1] = [[4,2],[4,1],[4,0],[3,0],[2,0],[1,0],[0,0],[0,1],[0,2]]'
plant goal 'paths[0] = [[0,0],[1,0],[2,0],[2,1],[2,0],[3,0],[4,0]]'
plant jump 'paths[0] = [[0,0],[2,0],[3,0],[4,0]]'
plant wall 'paths[0] = [[0,0],[1,0],[1,1],[1,0],[2,0],[3,0],[4,0]]'
plant start 'paths[0][0] = [1,0]'
plant end 'paths[0] = paths[0][:-1]'
plant count 'del paths[2]'
plant empty 'paths[2] = []'
check_fault() {
  run mapf --check "$1.json"
  expect_rc "planted $1" 1
  expect_out "planted $1: named" "$2"
  expect_out "planted $1: costs still printed" "^cost: +sum of costs [0-9]+, makespan [0-9]+"
}
check_fault vertex "^INVALID: +vertex conflict: agents 0 and 1 at time 3 in cell \(3,0\)"
check_fault swap "^INVALID: +swap conflict: agents 0 and 1 at time 4"
check_fault goal "^INVALID: +goal.*agents 0 and 2 at time 3 in cell \(2,1\)"
check_fault jump "^INVALID: +.*move.*agent 0 at time 1"
check_fault wall "^INVALID: +.*agent 0 at time 2 in cell \(1,1\)"
check_fault start "^INVALID: +.*start.*agent 0"
check_fault end "^INVALID: +.*goal.*agent 0"
check_fault count "^INVALID: +[a-z ]+: the solution has 2 paths, the instance 3 agents"
check_fault empty "^INVALID: +.*agent 2"

# ---- bad command lines, files and values -----------------------------------------------------

# bad CODE REGEX ARGS...: exit CODE, one line on stderr matching REGEX.
bad() {
  local code=$1 re=$2
  shift 2
  run mapf "$@"
  expect_rc "mapf $*" "$code"
  expect_one_line_err "mapf $*"
  expect_err "mapf $*: message" "$re"
}
bad 2 "--agents: expected an integer from 1 to 1048576, got '0'" tiny.map tiny.scen --agents 0
bad 2 "--agents: expected an integer from 1 to 3 \(the lines of tiny.scen\), got '4'" tiny.map tiny.scen --agents 4
bad 2 "--w: expected a number >= 1 and <= 1000, got '0.5'" tiny.map tiny.scen --algo eecbs --w 0.5
bad 2 "--w needs --algo eecbs \(got --algo pibt\)" tiny.map tiny.scen --algo pibt --w 1.5
bad 2 "--time-limit: expected a number >= 0 and <= 1e\+06, got '-1'" tiny.map tiny.scen --time-limit -1
bad 2 "--random: expected an integer from 1 to 1048576, got 'x'" tiny.map --random x
bad 2 "--agents is an option of scenario files, not of generated instances" tiny.map --random 2 --agents 2
bad 2 "expected MAP SCEN" tiny.map
bad 2 "unexpected argument 'extra'" tiny.map tiny.scen extra
bad 1 "no-such.map: No such file" no-such.map tiny.scen
bad 1 "no-such.scen: No such file" tiny.map no-such.scen
bad 2 "no-such.json: No such file" --check no-such.json
bad 1 "--random 14: more agents than" tiny.map --random 14

# Malformed scen files: the library's parser names line and column; the
# tool checks the map column, the size and the agents against the map.
printf 'version 1\n0\ttiny.map\t5\t3\t0\tx\t4\t0\t4\n' >bad.scen
bad 1 "^bad.scen:2:[0-9]+: " tiny.map bad.scen
printf 'version 1\n0\ttiny.map\t6\t3\t0\t0\t4\t0\t4\n' >size.scen
bad 1 "^astar: size.scen:2: the scenario is for a 6 x 3 map; tiny.map is 5 x 3" tiny.map size.scen
printf 'version 1\n0\tother.map\t5\t3\t0\t0\t4\t0\t4\n' >name.scen
bad 1 "^astar: name.scen:2: the scenario is for the map 'other.map', not tiny.map" tiny.map name.scen
printf 'version 1\n0\ttiny.map\t5\t3\t0\t0\t4\t0\t4\n0\ttiny.map\t5\t3\t1\t1\t0\t2\t4\n' >wall.scen
bad 1 "wall.scen:3: agent 1: the start \(1,1\) is blocked" tiny.map wall.scen
printf 'version 1\n0\ttiny.map\t5\t3\t0\t0\t4\t0\t4\n0\ttiny.map\t5\t3\t4\t2\t4\t0\t4\n' >twice.scen
bad 1 "twice.scen:3: agent 1: the goal \(4,0\) is agent 0's goal too" tiny.map twice.scen

# Malformed solution files: exit 2, file:line:column (a JSON value of the
# wrong type: its JSON path), never 1 (an invalid solution).
printf '{"map": "tiny.map", "scen": "tiny.scen",\n "paths": [[[0, 0],]]}\n' >syntax.json
bad 2 "^syntax.json:2:[0-9]+: malformed JSON" --check syntax.json
printf '{"map": "tiny.map", "scen": "tiny.scen", "paths": [[[0, 0], [1, "a"]]]}\n' >type.json
bad 2 '^type.json: "paths"\[0\]\[1\]: expected a cell \[x, y\], two integers' --check type.json
printf '{"map": 3, "paths": []}\n' >map.json
bad 2 '^map.json: "map": expected' --check map.json
printf 'solution=\n0:(0,0),(4,2),(2,1),\n1:(1,0),(3,2)\n' >short.txt
bad 2 "^short.txt:3:[0-9]+: 2 cells at time 1, 3 at time 0" tiny.map tiny.scen --check short.txt
printf 'Agent 0: (0,0)->(0,1)->\nAgent 2: (1,2)->\n' >skip.txt
bad 2 '^skip.txt:2:[0-9]+: expected "Agent 1:"' tiny.map tiny.scen --check skip.txt
printf 'Agent 0: (0,0)->(0;1)->\n' >semi.txt
bad 2 "^semi.txt:1:19: expected \(row,col\)" tiny.map tiny.scen --check semi.txt
printf 'hello\n' >what.txt
bad 2 "^what.txt:1:1: not a MAPF solution" --check what.txt
bad 2 "unexpected argument" a b c --check tiny.json
head -n 3 tiny.scen >two.scen
bad 2 "^astar: tiny.json: 3 agents, but two.scen has 2 lines" tiny.map two.scen --check tiny.json

# ---- generated instances: --random, --write-scen ---------------------------------------------

run mapf room.map --random 12 --seed 7 --write-scen gen.scen
expect_rc "--write-scen" 0
expect_out "--write-scen: says generated" "wrote: +gen.scen \(12 agents generated on room.map with seed 7\)"
if python3 - <<'EOF'; then ok; else fail "--write-scen: the file is not a benchmark scen with octile lengths"; fi
import heapq, math
rows = open("room.map").read().split("map\n", 1)[1].split()
ok = lambda x, y: 0 <= x < 16 and 0 <= y < 16 and rows[y][x] == "."
def octile(s, g):
    # 8-connected, diagonal sqrt 2, no corner cutting: Dijkstra.
    dist = {s: 0.0}
    q = [(0.0, s)]
    while q:
        d, (x, y) = heapq.heappop(q)
        if (x, y) == g:
            return d
        if d > dist[(x, y)]:
            continue
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if (dx, dy) == (0, 0) or not ok(x + dx, y + dy):
                    continue
                if dx and dy and not (ok(x + dx, y) and ok(x, y + dy)):
                    continue
                nd = d + (math.sqrt(2) if dx and dy else 1)
                if nd < dist.get((x + dx, y + dy), 1e18):
                    dist[(x + dx, y + dy)] = nd
                    heapq.heappush(q, (nd, (x + dx, y + dy)))
lines = open("gen.scen").read().split("\n")
assert lines[0] == "version 1" and lines[-1] == "" and len(lines) == 14
for line in lines[1:-1]:
    f = line.split("\t")
    assert len(f) == 9 and f[0] == "0" and f[1] == "room.map" and f[2:4] == ["16", "16"], f
    sx, sy, gx, gy = map(int, f[4:8])
    assert abs(float(f[8]) - octile((sx, sy), (gx, gy))) < 1e-6, f
EOF
# Read back, the scen is the same instance as --random's.
run mapf room.map --random 12 --seed 7 --algo "$SOLVER" -o gen.json
expect_rc "--random 12 --seed 7" 0
expect_out "--random: says generated" "^agents: +12 generated at random \(seed 7\)"
run mapf room.map gen.scen --algo "$SOLVER" -o back.json
expect_rc "the written scen, solved" 0
if [ "$(json_get gen.json '[(p[0], p[-1]) for p in j["paths"]]')" = "$(json_get back.json '[(p[0], p[-1]) for p in j["paths"]]')" ]; then ok; else fail "--write-scen read back: another instance"; fi
if [ "$(json_get gen.json 'j["generated"], j["scen"]')" = "({'seed': 7}, None)" ]; then ok; else fail "--random: JSON says generated"; fi
run mapf --check gen.json
expect_rc "a generated instance's JSON passes --check (regenerated from its seed)" 0
# --write-scen never leaves a partial file: a folder that does not exist.
run mapf room.map --random 2 --write-scen no/such/dir/x.scen
expect_rc "--write-scen into a missing folder" 1
if [ ! -e no/such/dir ]; then ok; else fail "--write-scen created a folder"; fi

# ---- pictures -------------------------------------------------------------------------------

run mapf tiny.map tiny.scen --algo "$SOLVER" --svg walk.svg --png walk.png
expect_rc "--svg --png" 0
expect_out "--svg: written" "^wrote: +walk.svg"
if python3 - <<'EOF'; then ok; else fail "--svg: not an SVG with 3 paths, 3 agents walking"; fi
import xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse("walk.svg").getroot()
assert root.tag == ns + "svg"
assert len(root.findall(".//" + ns + "polyline")) == 3
moves = root.findall(".//" + ns + "animateMotion")
assert len(moves) == 3
# One value a step on one clock: makespan 4 + the rest at the goals, 0.3 s a step.
counts = {len(m.get("values").split(";")) for m in moves}
durs = {m.get("dur") for m in moves}
assert len(counts) == 1 and len(durs) == 1, (counts, durs)
n = counts.pop()
assert abs(float(durs.pop().rstrip("s")) - 0.3 * (n - 1)) < 1e-6
EOF
if [ "$(head -c 8 walk.png | od -An -c | tr -d ' ')" = '211PNG\r\n032\n' ]; then ok; else fail "--png: not a PNG"; fi

cli_summary
