#!/usr/bin/env bash
# performance.sh -- every table of docs/performance.md and docs/open-sets.md
# in one sitting: libastar (A*, JPS, JPS+) against the peers on five maps,
# every method on all 31 shared maps, the open-list structures, the CSR
# graph against Boost.Graph, and libastar beside Warthog (bench/warthog.sh;
# its columns stay empty, with a note on how to build it, when Warthog's
# binaries are not found).
# Takes 30-45 minutes on the project's 2-vCPU VM (the first run also generates
# five maze maps for bench/warthog.sh, a few minutes); run nothing else meanwhile.
#
# usage: bench/performance.sh [OUTDIR]      (default build/performance-<date>)
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${1:-$REPO/build/performance-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
[[ -x $REPO/build/astar ]] || make -C "$REPO" build
echo "== peers and libastar on five maps (bench/compare.sh)" >&2
"$REPO/bench/compare.sh" -n 500 -r 3 -a "astar jps jps-plus" -o "$OUT/compare" > "$OUT/compare.md"
echo "== libastar beside Warthog, pinned to one core (bench/warthog.sh)" >&2
"$REPO/bench/warthog.sh" -n 300 -r 3 -o "$OUT/warthog" > "$OUT/warthog.md"
echo "== exact ties on open maps (bench/open_maps.sh, up to 16384 x 2048)" >&2
SIZES="1024x1024 4096x1024 16384x2048" "$REPO/bench/open_maps.sh" > "$OUT/open_maps.md"
echo "== every method on every shared map (bench/all_maps.sh)" >&2
"$REPO/bench/all_maps.sh" -n 200 -r 3 > "$OUT/all_maps.md"
echo "== open-list structures (bench/open_sets.sh)" >&2
"$REPO/bench/open_sets.sh" -n 300 -r 3 > "$OUT/open_sets.md"
echo "== CSR graphs against Boost.Graph (bench/graph_vs_boost.sh)" >&2
"$REPO/bench/graph_vs_boost.sh" -n 500 -r 3 > "$OUT/graph_vs_boost.md"
echo "== the engine over spaces, bidirectional, the variants (bench/engine.sh)" >&2
taskset -c 1 "$REPO/bench/engine.sh" -n 100 -r 3 > "$OUT/engine.md" 2>/dev/null ||
  "$REPO/bench/engine.sh" -n 100 -r 3 > "$OUT/engine.md"
for f in compare warthog open_maps all_maps open_sets graph_vs_boost engine; do
  echo; echo "### $f"; echo; cat "$OUT/$f.md"
done
