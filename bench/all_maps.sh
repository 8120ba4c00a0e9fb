#!/usr/bin/env bash
# all_maps.sh -- every shared Moving AI map, every optimal libastar method,
# in one sitting: µs per query, mean expansions and the speed-up over A*.
# Prints the Markdown table of docs/performance.md ("all 31 maps").
#
# usage: bench/all_maps.sh [-n N] [-r R] [-a "ALGOS"] [DIR]
#   -n N   queries per map: an evenly spread subset of its scen (default 300)
#   -r R   timed passes per method, median kept (bench --repeat; default 3)
#   -a     methods (default "astar jps jps-plus")
#   DIR    the Moving AI folder (default <repo>/../shared/bench/movingai)
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${SHARED:-$REPO/../shared}
ASTAR=${ASTAR:-$REPO/build/astar}
N=300; R=3; ALGOS="astar jps jps-plus"
while getopts "n:r:a:h" opt; do
  case $opt in n) N=$OPTARG ;; r) R=$OPTARG ;; a) ALGOS=$OPTARG ;; *) sed -n '2,11p' "$0"; exit 2 ;; esac
done
shift $((OPTIND - 1))
DIR=${1:-$SHARED/bench/movingai}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '| map | queries |'; for a in $ALGOS; do printf ' %s µs | %s exp |' "$a" "$a"; done; echo ' best | best vs astar |'
printf '|---|---:|'; for a in $ALGOS; do printf -- '---:|---:|'; done; echo '---|---:|'
find "$DIR" -name '*.map.scen' | sort | while read -r scen; do
  map=${scen%.scen}
  sub=$tmp/$(basename "$scen")
  python3 "$SHARED/peers/tools/subsample_scen.py" "$scen" "$sub" "$N" >/dev/null
  line="| $(basename "$map" .map) |"
  declare -A us=()
  q=0
  for a in $ALGOS; do
    read -r q u e < <("$ASTAR" bench --algo "$a" --map "$map" "$sub" --repeat "$R" --check --json |
      python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["queries"], j["us_per_query"], round(j["mean_expansions"]))')
    us[$a]=$u
    line="$line $u | $e |"
  done
  best=$(for a in $ALGOS; do echo "${us[$a]} $a"; done | sort -g | head -1 | cut -d' ' -f2)
  ratio=$(python3 -c "print('%.1f×' % (${us[astar]:-0} / ${us[$best]}))" 2>/dev/null || echo "")
  echo "| $(basename "$map" .map) | $q |${line#*|*|} $best | $ratio |"
done
