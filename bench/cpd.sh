#!/usr/bin/env bash
# cpd.sh -- the compressed path database against JPS+, libastar's A* and
# the peers' reference A* (../shared/peers ref_astar), on 300-query subsets,
# pinned to one core, in one sitting: the query table of docs/performance.md
# ("Compressed path database"). CPD files are built beforehand (minutes to
# hours each; not by this script):
#   astar precompute MAP --method cpd --threads 2 -o CPD_DIR/NAME.cpd
# Maps without a file in CPD_DIR are skipped.
#
# usage: bench/cpd.sh CPD_DIR [MAP ...]   (MAP: family/name under the shared
#        movingai folder; default dao/den520d dao/brc202d maze/maze512-1-0
#        bg512/AR0011SR room/32room_000)
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ASTAR=${ASTAR:-$REPO/build/astar}
SHARED=${SHARED:-$REPO/../shared}
MAI=$SHARED/bench/movingai
REF=$SHARED/peers/build/ref_astar
[[ $# -ge 1 ]] || { echo "usage: $0 CPD_DIR [MAP ...]" >&2; exit 2; }
CPD_DIR=$1
shift
MAPS=${*:-dao/den520d dao/brc202d maze/maze512-1-0 bg512/AR0011SR room/32room_000}
[[ -x $REF ]] || cc -O2 -o "$REF" "$SHARED/peers/ref_astar.c" -lm
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
med() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
ours() { # algo map sub [extra...] -> "µs mismatches" (median of 3 passes)
  local algo=$1 map=$2 sub=$3
  shift 3
  taskset -c 1 "$ASTAR" bench "$sub" --map "$map" --algo "$algo" "$@" --check --warmup 0 \
    --repeat 3 2>/dev/null | awk '/^total/ { print $8, $6 }'
}
echo "| map | reference A* | libastar A* | JPS+ | CPD | CPD vs reference A* | CPD vs JPS+ | mismatches |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for spec in $MAPS; do
  name=$(basename "$spec") map=$MAI/$spec.map cpd=$CPD_DIR/$(basename "$spec").cpd
  [[ -f $cpd ]] || { echo "$name: no $cpd, skipped" >&2; continue; }
  sub=$TMP/$name.map.scen
  python3 "$SHARED/peers/tools/subsample_scen.py" "$MAI/$spec.map.scen" "$sub" 300 >/dev/null
  r=() a=() j=() c=() bad=0
  for _ in 1 2 3; do
    r+=("$(taskset -c 1 "$REF" "$map" "$sub" | sed -n 's/.*us_per_query=\([0-9.]*\).*/\1/p')")
  done
  read -r a m1 < <(ours astar "$map" "$sub")
  read -r j m2 < <(ours jps-plus "$map" "$sub")
  read -r c m3 < <(ours cpd "$map" "$sub" --pre "$cpd")
  bad=$((m1 + m2 + m3))
  rm=$(med "${r[@]}")
  printf '| %s | %s | %s | %s | %s | %.0f× | %.2f× | %d |\n' "$name" "$rm" "$a" "$j" "$c" \
    "$(awk -v x="$rm" -v y="$c" 'BEGIN { print x / y }')" \
    "$(awk -v x="$j" -v y="$c" 'BEGIN { print x / y }')" "$bad"
done
