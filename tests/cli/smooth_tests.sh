#!/usr/bin/env bash
#
# smooth_tests.sh -- `astar solve --smooth` (astar_path_smooth) on maps
# where a straight line is not the cheap way: terrain (the 20 x 9 map of
# issue 25 with a cost-9 swamp between S and G), an influence cone, and fog
# of war. The reported cost is recomputed here, independently of the tool
# (segment-square clipping in Python over the map text), and must be the
# cost of the waypoints printed and no more than the grid path's; with
# --fog the path is judged on what the searcher knows: a legal walk there,
# never "NOT a legal grid path".
# Usage: smooth_tests.sh PATH/TO/astar REPO_ROOT
set -u

# shellcheck source=tests/cli/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_args "$@"
cli_tmp smooth

# check_cost NAME MAP: the "cost:" of the last run equals the weighted
# length of its "waypoints:" on MAP ('#' blocked, a digit its terrain cost,
# anything else 1), and is at most the grid path's cost of the
# "smoothed:" line (when the grid path's cells all cost 1, as here).
check_cost() {
  if python3 - "$2" "$OUT" <<'EOF'; then ok; else fail "$1: the cost is not the waypoints' weighted length"; fi
import math, re, sys
rows = open(sys.argv[1]).read().split("\n")
rows = [r for r in rows if r]
def cost(x, y):
    c = rows[y][x]
    return int(c) if c.isdigit() else 1.0
out = open(sys.argv[2]).read()
reported = float(re.search(r"^cost: +([0-9.e+-]+)", out, re.M).group(1))
grid = float(re.search(r"^smoothed: the grid path of \d+ cells and cost ([0-9.e+-]+)", out, re.M).group(1))
text = re.search(r"^waypoints: .*?:((?: \(\d+,\d+\))+(?:\n +(?: \(\d+,\d+\))+)*)", out, re.M).group(1)
pts = [tuple(map(int, p)) for p in re.findall(r"\((\d+),(\d+)\)", text)]
total = 0.0
for (ax, ay), (bx, by) in zip(pts, pts[1:]):
    p0, d = (ax + 0.5, ay + 0.5), (bx - ax, by - ay)
    length = math.hypot(*d)
    for y in range(min(ay, by), max(ay, by) + 1):
        for x in range(min(ax, bx), max(ax, bx) + 1):
            t0, t1 = 0.0, 1.0
            for k, lo in ((0, x), (1, y)):
                if d[k] == 0:
                    if not lo <= p0[k] <= lo + 1: t1 = -1
                    continue
                ta, tb = sorted(((lo - p0[k]) / d[k], (lo + 1 - p0[k]) / d[k]))
                t0, t1 = max(t0, ta), min(t1, tb)
            if t1 > t0:
                total += cost(x, y) * (t1 - t0) * length
ok = abs(total - reported) <= 1e-6 * max(1.0, total) and reported <= grid + 1e-6
if not ok:
    print("reported %r, recomputed %r, grid path %r" % (reported, total, grid))
sys.exit(0 if ok else 1)
EOF
}

# ---- terrain: the swamp of issue 25 ------------------------------------------
# Grid optimum 11 + 8 sqrt 2 = 22.31 round the swamp; the straight line S-G
# is 19 long and its cells cost 99. The old smoothing printed that line at
# cost 19.
python3 - "$TMP/swamp.txt" <<'EOF'
import sys
rows = ["".join("9" if 5 <= x <= 14 and 1 <= y <= 7 else "." for x in range(20)) for y in range(9)]
rows[4] = "S" + rows[4][1:19] + "G"
open(sys.argv[1], "w").write("\n".join(rows) + "\n")
EOF
run solve "$TMP/swamp.txt" --smooth --no-picture
expect_rc "swamp --smooth" 0
expect_out "swamp: the grid path round the swamp" "^smoothed: the grid path of 20 cells and cost 22\.3137085"
if grep -Eq "^waypoints: 2 " "$OUT"; then
  fail "swamp: the straight line through the swamp"
else
  ok
fi
check_cost "swamp" "$TMP/swamp.txt"
expect_out "swamp: the cost says it weighs the cells" "^cost: .*weighted by its cost"
# --terrain-scale 0: the swamp ignored, the one segment of length 19.
run solve "$TMP/swamp.txt" --smooth --terrain-scale 0 --no-picture
expect_rc "swamp, terrain ignored" 0
expect_out "swamp, terrain ignored: the straight line" "^waypoints: 2 \(1 segments\): \(0,4\) \(19,4\)"
expect_out "swamp, terrain ignored: its length" "^cost: +19 "

# 4 moves and other costs: the same checks.
run solve "$TMP/swamp.txt" --smooth --moves 4 --no-picture
expect_rc "swamp, 4 moves" 0
check_cost "swamp, 4 moves" "$TMP/swamp.txt"
run solve "$TMP/swamp.txt" --smooth --costs 10,14 --no-picture
expect_rc "swamp, costs 10,14" 0
expect_out "costs 10,14: the grid path as segments, what smoothing compares" \
  "^smoothed: the grid path of [0-9]+ cells and cost [0-9.]+ \([0-9.]+ as straight segments\)"

# ---- an influence cone: a line through it costs its weight ---------------------
printf '%s\n' "S..................G" "...................." "...................." >"$TMP/open.txt"
run solve "$TMP/open.txt" --cone 10,0,3,20 --smooth --no-picture
expect_rc "cone --smooth" 0
if grep -Eq "^waypoints: 2 " "$OUT"; then
  fail "cone: the straight line through the cone"
else
  ok
fi
expect_out "cone: the cost says it weighs the cells" "^cost: .*weighted by its cost"

# ---- fog of war: judged on what the searcher knows ------------------------------
# A block the searcher cannot see (--fog 3 from S) lies on the diagonal:
# the grid path crosses it (unknown cells count as passable) and the
# smoothed path is judged on the searcher's map, where the line S-G is
# free. The old smoothing judged it on the true map: bends at every cell of
# the block, and its walk "NOT a legal grid path (a bug)".
python3 - "$TMP/fog.txt" <<'EOF'
import sys
rows = ["".join("#" if 5 <= x <= 7 and 5 <= y <= 7 else "." for x in range(22)) for y in range(12)]
open(sys.argv[1], "w").write("\n".join(rows) + "\n")
EOF
run solve "$TMP/fog.txt" 1 1 20 10 --fog 3 --smooth --no-picture
expect_rc "fog --smooth" 0
if grep -q "NOT a legal grid path" "$OUT"; then fail "fog: judged on the true map"; else ok; fi
expect_out "fog: a legal walk on the searcher's map" \
  "^cells: +[0-9]+ walked along the segments, a legal grid path on the map as the searcher knows it"
expect_out "fog: one segment, as the searcher sees the way" "^waypoints: 2 \(1 segments\): \(1,1\) \(20,10\)"
# Seen from close enough, the block is known: the path goes round it.
run solve "$TMP/fog.txt" 1 1 20 10 --fog 30 --smooth --no-picture
expect_rc "fog 30 --smooth" 0
if grep -q "NOT a legal grid path" "$OUT"; then fail "fog 30: not legal"; else ok; fi
if grep -Eq "^waypoints: 2 " "$OUT"; then fail "fog 30: through the known block"; else ok; fi
# Unknown cells priced: the cost is theirs.
run solve "$TMP/fog.txt" 1 1 20 10 --fog 3 --unknown cost --unknown-cost 3 --smooth --no-picture
expect_rc "fog, unknown cost 3" 0
expect_out "fog, unknown cost: weighted" "^cost: .*weighted by its cost"
if grep -q "NOT a legal grid path" "$OUT"; then fail "fog, unknown cost: not legal"; else ok; fi

cli_summary
