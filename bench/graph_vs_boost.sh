#!/usr/bin/env bash
# graph_vs_boost.sh -- libastar's CSR graph (astar/graph.h, searched by the
# engine) against Boost.Graph's astar_search on the same graph: the passable
# cells of a Moving AI map, 8-connected without corner cutting, costs 1 and
# sqrt 2, octile heuristic on both sides, the same queries.
#
# usage: bench/graph_vs_boost.sh [-n N] [-r R] [MAP ...]
#   -n N   queries per map: an evenly spread subset of the map's .scen
#          (../shared/peers/tools/subsample_scen.py; default 500, 0 = all)
#   -r R   runs of every program, interleaved; the median is kept (default 3)
#   MAP    Moving AI maps with their X.map.scen beside them; default:
#          den520d, brc202d, maze512-1-0, random512-40-0, 32room_000 from
#          $SHARED/bench/movingai
# env: SHARED (default <repo>/../shared), BUILD (default <repo>/build)
#
# What runs: ../shared/peers/boost_driver.cpp, compiled here into
# $BUILD/peers/ (c++ -O2 -std=c++17, as ../shared/peers/run_all.sh does), in
# its two modes -- astar (boost::astar_search, which initialises every vertex
# per query) and astar-noinit (astar_search_no_init, resetting only what the
# search touched) -- and `astar bench --graph` on the map written by `astar
# convert` (DIMACS .gr/.co/.p2p in $BUILD/graph-vs-boost/), --heuristic
# octile (scale 1: exactly Boost's heuristic), --repeat 3 (median pass: the
# first pass pays the workspace's first touches, which Boost's driver pays
# before its clock starts), --check (every cost against the scen's optimal
# length). Per expansion = time per query / mean expansions of each program.
# Prints a Markdown table. Needs cc, c++, python3, Boost.Graph headers
# (Debian: libboost-graph-dev) and a built $BUILD/astar (make build).
# Run nothing else while it is timing.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${SHARED:-$REPO/../shared}
BUILD=${BUILD:-$REPO/build}
N=500
REPS=3
usage() { sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while getopts "n:r:h" opt; do
  case $opt in
    n) N=$OPTARG ;; r) REPS=$OPTARG ;; *) usage ;;
  esac
done
shift $((OPTIND - 1))
[[ $N =~ ^[0-9]+$ && $REPS =~ ^[1-9][0-9]*$ ]] || { echo "graph_vs_boost.sh: -n/-r must be integers" >&2; exit 2; }
[[ -d $SHARED/peers ]] || { echo "graph_vs_boost.sh: $SHARED/peers not found (set SHARED=...)" >&2; exit 1; }
ASTAR=$BUILD/astar
[[ -x $ASTAR ]] || { echo "graph_vs_boost.sh: $ASTAR not found (make build)" >&2; exit 1; }
printf '#include <boost/graph/astar_search.hpp>\n' | c++ -E -x c++ - >/dev/null 2>&1 ||
  { echo "graph_vs_boost.sh: Boost.Graph headers missing (apt-get install -y libboost-graph-dev)" >&2; exit 1; }

maps=("$@")
if (( ${#maps[@]} == 0 )); then
  for m in dao/den520d dao/brc202d maze/maze512-1-0 random/random512-40-0 room/32room_000; do
    maps+=("$SHARED/bench/movingai/$m.map")
  done
fi

OUT=$BUILD/graph-vs-boost
mkdir -p "$BUILD/peers" "$OUT"
DRIVER=$BUILD/peers/boost_driver
if [[ ! -x $DRIVER || $SHARED/peers/boost_driver.cpp -nt $DRIVER ]]; then
  c++ -O2 -std=c++17 -I"$SHARED/peers" -o "$DRIVER" "$SHARED/peers/boost_driver.cpp"
fi

RESULTS=$OUT/results.txt
: >"$RESULTS"
for map in "${maps[@]}"; do
  name=$(basename "$map" .map)
  scen=$map.scen
  [[ -r $map && -r $scen ]] || { echo "graph_vs_boost.sh: cannot read $map or $scen" >&2; exit 1; }
  sub=$OUT/$name.scen
  python3 "$SHARED/peers/tools/subsample_scen.py" "$scen" "$sub" "$N" >/dev/null
  "$ASTAR" convert "$map" -o "$OUT/$name.gr" --coords "$OUT/$name.co" --scen "$sub" \
    --queries "$OUT/$name.p2p"
  for ((r = 1; r <= REPS; r++)); do
    for mode in astar astar-noinit; do
      line=$("$DRIVER" "$mode" "$map" "$sub" 2>/dev/null)
      echo "$name boost-$mode $line" >>"$RESULTS"
    done
    json=$("$ASTAR" bench --graph "$OUT/$name.gr" --coords "$OUT/$name.co" --heuristic octile \
      --queries "$OUT/$name.p2p" --repeat 3 --check --json)
    echo "$name libastar $json" >>"$RESULTS"
  done
done

python3 - "$RESULTS" <<'EOF'
import json, re, statistics, sys
rows = {}
order = []
for line in open(sys.argv[1]):
    name, peer, rest = line.rstrip("\n").split(" ", 2)
    if peer == "libastar":
        d = json.loads(rest)
        us, exp, bad = d["us_per_query"], d["mean_expansions"], d["mismatches"]
        meta = (d["nodes"], d["arcs"], d["queries"])
    else:
        kv = dict(re.findall(r"(\w+)=(\S+)", rest))
        us, exp, bad = float(kv["us_per_query"]), float(kv["mean_exp"]), int(kv["mismatch"]) + int(kv["fail"])
        meta = None
    if name not in rows:
        rows[name] = {}
        order.append(name)
    r = rows[name].setdefault(peer, {"us": [], "exp": exp, "bad": 0})
    r["us"].append(us)
    r["bad"] += bad
    if meta:
        rows[name]["meta"] = meta
print("| map | nodes | arcs | queries | Boost astar_search µs/query (exp) | Boost no_init µs/query | "
      "libastar CSR µs/query (exp) | ns/expansion Boost / no_init / libastar | "
      "ratio per expansion (Boost ÷ libastar) | ratio per query |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for name in order:
    r = rows[name]
    med = {p: statistics.median(r[p]["us"]) for p in ("boost-astar", "boost-astar-noinit", "libastar")}
    ns = {p: med[p] * 1000.0 / r[p]["exp"] for p in med}
    n, m, q = r["meta"]
    bad = sum(r[p]["bad"] for p in med)
    print(f"| {name} | {n:,} | {m:,} | {q} | {med['boost-astar']:,.1f} ({r['boost-astar']['exp']:,.0f}) | "
          f"{med['boost-astar-noinit']:,.1f} | **{med['libastar']:,.1f}** ({r['libastar']['exp']:,.0f}) | "
          f"{ns['boost-astar']:.1f} / {ns['boost-astar-noinit']:.1f} / **{ns['libastar']:.1f}** | "
          f"{ns['boost-astar'] / ns['libastar']:.2f}× / {ns['boost-astar-noinit'] / ns['libastar']:.2f}× | "
          f"{med['boost-astar'] / med['libastar']:.2f}× / {med['boost-astar-noinit'] / med['libastar']:.2f}×"
          + ("" if bad == 0 else f" ({bad} mismatches!)") + " |")
EOF
