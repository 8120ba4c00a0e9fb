#!/usr/bin/env bash
# performance.sh -- every table of docs/performance.md and docs/open-sets.md
# in one sitting: libastar (A*, JPS, JPS+) against the peers on five maps,
# every method on all 31 shared maps, the open-list structures, and the CSR
# graph against Boost.Graph.
# Takes 20-30 minutes on the project's 2-vCPU VM; run nothing else meanwhile.
#
# usage: bench/performance.sh [OUTDIR]      (default build/performance-<date>)
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${1:-$REPO/build/performance-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
[[ -x $REPO/build/astar ]] || make -C "$REPO" build
echo "== peers and libastar on five maps (bench/compare.sh)" >&2
"$REPO/bench/compare.sh" -n 500 -r 3 -a "astar jps jps-plus" -o "$OUT/compare" > "$OUT/compare.md"
echo "== every method on every shared map (bench/all_maps.sh)" >&2
"$REPO/bench/all_maps.sh" -n 200 -r 3 > "$OUT/all_maps.md"
echo "== open-list structures (bench/open_sets.sh)" >&2
"$REPO/bench/open_sets.sh" -n 300 -r 3 > "$OUT/open_sets.md"
echo "== CSR graphs against Boost.Graph (bench/graph_vs_boost.sh)" >&2
"$REPO/bench/graph_vs_boost.sh" -n 500 -r 3 > "$OUT/graph_vs_boost.md"
echo "== the engine over spaces, bidirectional, the variants (bench/engine.sh)" >&2
taskset -c 1 "$REPO/bench/engine.sh" -n 100 -r 3 > "$OUT/engine.md" 2>/dev/null ||
  "$REPO/bench/engine.sh" -n 100 -r 3 > "$OUT/engine.md"
for f in compare all_maps open_sets graph_vs_boost engine; do
  echo; echo "### $f"; echo; cat "$OUT/$f.md"
done
