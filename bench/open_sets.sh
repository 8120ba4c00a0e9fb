#!/usr/bin/env bash
# open_sets.sh -- A* with each open-list structure on the same Moving AI
# queries, in one sitting; prints the Markdown table of docs/open-sets.md.
#
# usage: bench/open_sets.sh [-n N] [-r R] [MAP ...]
#   -n N   queries per map, an evenly spread subset (default 500)
#   -r R   runs per structure, the median time is kept (default 3)
#   MAP    .map files with .map.scen beside them (default: den520d brc202d
#          maze512-1-0 random512-40-0 32room_000 AR0011SR Berlin_0_512)
# env: SHARED (default <repo>/../shared), ASTAR (default <repo>/build/astar)
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${SHARED:-$REPO/../shared}
ASTAR=${ASTAR:-$REPO/build/astar}
N=500; R=3
while getopts "n:r:h" opt; do
  case $opt in n) N=$OPTARG ;; r) R=$OPTARG ;; *) sed -n '2,12p' "$0"; exit 2 ;; esac
done
shift $((OPTIND - 1))
B=$SHARED/bench/movingai
MAPS=("$@")
(( ${#MAPS[@]} )) || MAPS=("$B/dao/den520d.map" "$B/dao/brc202d.map" "$B/maze/maze512-1-0.map"
  "$B/random/random512-40-0.map" "$B/room/32room_000.map" "$B/bg512/AR0011SR.map"
  "$B/street/Berlin_0_512.map")
SETS="heap4 heap2 bucket"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| map | queries | mean expansions | $(for s in $SETS; do printf '%s µs/query | ' "$s"; done)best |"
echo "|---|---:|---:|$(for s in $SETS; do printf -- '---:|'; done)---|"
for map in "${MAPS[@]}"; do
  sub=$tmp/$(basename "$map").scen
  python3 "$SHARED/peers/tools/subsample_scen.py" "$map.scen" "$sub" "$N" >/dev/null
  line="| $(basename "$map" .map) |"
  best=""; bestus=""
  for s in $SETS; do
    us=$(for ((i = 0; i < R; i++)); do
      "$ASTAR" bench --open "$s" --map "$map" "$sub" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["us_per_query"])'
    done | sort -g | sed -n "$(((R + 1) / 2))p")
    if [[ $s == heap4 ]]; then
      read -r q e < <("$ASTAR" bench --map "$map" "$sub" --json |
        python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["queries"], round(j["mean_expansions"]))')
      line="$line $q | $e |"
    fi
    line="$line $us |"
    if [[ -z $bestus ]] || python3 -c "import sys; sys.exit(0 if $us < $bestus else 1)"; then best=$s; bestus=$us; fi
  done
  echo "$line $best |"
done
