#!/usr/bin/env bash
# engine.sh -- the search engine over spaces (astar/engine.h) on the Moving AI
# maps, in one sitting: per map family (one representative map, N evenly
# spread queries, median of R passes), the grid's own A* against the
# engine's A* on the grid as a space (ns per expansion: the cost of
# generality), unidirectional against bidirectional A* (expansions and
# µs), and the variants of Patel 4 that trade optimality for speed (beam,
# dynamic weighting, greedy) with their mean cost / optimal. Prints the
# Markdown tables of docs/performance.md ("The engine over any space").
#
# usage: bench/engine.sh [-n N] [-r R] [-w WIDTH] [DIR]
#   -n N      queries per map (default 200)   -r R  passes, median kept (default 3)
#   -w WIDTH  beam width (default 64)         DIR   the Moving AI folder
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${SHARED:-$REPO/../shared}
ASTAR=${ASTAR:-$REPO/build/astar}
N=200; R=3; WIDTH=64
while getopts "n:r:w:h" opt; do
  case $opt in n) N=$OPTARG ;; r) R=$OPTARG ;; w) WIDTH=$OPTARG ;; *) sed -n '2,14p' "$0"; exit 2 ;; esac
done
shift $((OPTIND - 1))
DIR=${1:-$SHARED/bench/movingai}
MAPS="bg512/AR0011SR dao/den520d iron/scene_mp_2p_01 maze/maze512-8-0 random/random512-25-0
room/32room_000 sc1/CatwalkAlley street/Berlin_0_512"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run NAME ARGS...: one bench run of the current map, its JSON summary in $tmp/NAME.
run() {
  local name=$1
  shift
  "$ASTAR" bench --map "$map" "$sub" --repeat "$R" --json "$@" |
    python3 -c 'import json,sys; j=json.load(sys.stdin)
print(j["us_per_query"], j["mean_expansions"], j.get("mean_cost_ratio", 1), j["mismatches"], j["solved"], j["queries"], j.get("mean_dropped", 0))' >"$tmp/$name"
}
field() { cut -d' ' -f"$2" "$tmp/$1"; }

{
  echo "AS | family | map | grid µs | engine µs | ns/exp grid | ns/exp engine | engine/grid |"
  echo "BI | family | map | A* exp | bidir exp | bidir/A* exp | A* µs | bidir µs | bidir/A* µs |"
  echo "VA | family | map | A* µs | beam µs (cost, drops) | dynamic µs (cost) | greedy µs (cost) |"
} >"$tmp/rows"
for m in $MAPS; do
  map=$DIR/$m.map
  [[ -f $map ]] || continue
  sub=$tmp/$(basename "$m").map.scen
  python3 "$SHARED/peers/tools/subsample_scen.py" "$map.scen" "$sub" "$N" >/dev/null
  run grid --algo astar --check
  run engine --algo astar --space graph --check
  run bidir --algo bidir --check
  run beam --algo beam --width "$WIDTH"
  run dynamic --algo dynamic --epsilon 1
  run greedy --algo greedy
  fam=${m%%/*}
  name=$(basename "$m")
  python3 - "$tmp" "$fam" "$name" >>"$tmp/rows" <<'PY'
import sys
tmp, fam, name = sys.argv[1:]
def f(n):
    us, exp, ratio, mism, solved, q, drop = open(f"{tmp}/{n}").read().split()
    return float(us), float(exp), float(ratio), int(mism), int(solved), int(q), float(drop)
g, e, b = f("grid"), f("engine"), f("bidir")
assert g[3] == 0 and e[3] == 0 and b[3] == 0, "a mismatch in an optimal method"
nsg, nse = g[0] * 1e3 / g[1], e[0] * 1e3 / e[1]
print(f"AS | {fam} | {name} | {g[0]:,.1f} | {e[0]:,.1f} | {nsg:.1f} | {nse:.1f} | {nse / nsg:.2f}× |")
print(f"BI | {fam} | {name} | {g[1]:,.0f} | {b[1]:,.0f} | {b[1] / g[1]:.2f} | {e[0]:,.1f} | {b[0]:,.1f} | {b[0] / e[0]:.2f} |")
va = []
for n in ("beam", "dynamic", "greedy"):
    us, exp, ratio, mism, solved, q, drop = f(n)
    miss = "" if solved == q else f", {q - solved} unsolved"
    miss += f", {drop:,.0f} dropped" if n == "beam" else ""
    va.append(f"{us:,.1f} ({ratio:.3f}{miss})")
print(f"VA | {fam} | {name} | {e[0]:,.1f} | " + " | ".join(va) + " |")
PY
done
for t in AS BI VA; do
  echo
  grep "^$t |" "$tmp/rows" | sed "s/^$t | /| /" | awk 'NR==1 {print; n=gsub(/\|/,"|"); s="|"; for(i=1;i<n;i++) s=s (i<=2?"---|":"---:|"); print s; next} {print}'
done
