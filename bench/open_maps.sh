#!/usr/bin/env bash
# open_maps.sh -- exact ties on open maps up to the grid's size limit
# (issue 12's cliff): A* corner to corner and on two inner queries of
# obstacle-free maps, printing the path's cells and the nodes expanded as a
# Markdown table. With exact ties (src/search/query.c) expansions equal the
# path's cells; before, rounding in g + h let A* fan out over the whole tie
# front (23.7 M expansions on 16384 x 2048).
# The largest maps need about 40 bytes a cell of memory (11 GB at 2^28
# cells); SIZES overrides the list.
#
# usage: bench/open_maps.sh [ASTAR_TOOL]     (default build/astar)
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ASTAR=${1:-$REPO/build/astar}
SIZES=${SIZES:-"1024x1024 4096x1024 16384x2048 8192x8192 16384x16384 32768x8192"}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "| map | query | path cells | expanded | expanded / cells | time |"
echo "|---|---|---:|---:|---:|---:|"
for size in $SIZES; do
  w=${size%x*} h=${size#*x}
  map=$TMP/open.map
  python3 - "$w" "$h" "$map" <<'PY'
import sys
w, h, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
row = "." * w + "\n"
with open(path, "w") as f:
    f.write(f"type octile\nheight {h}\nwidth {w}\nmap\n")
    for _ in range(h):
        f.write(row)
PY
  for q in "0 0 $((w - 1)) $((h - 1))" "0 $((h / 20)) $((w - 1)) $((h - 1 - h / 20))" \
    "$((w / 3)) $((h - 1)) $((w - 1 - w / 5)) 0"; do
    out=$("$ASTAR" solve "$map" $q --no-picture)
    cells=$(sed -n 's/^length: *\([0-9]*\) cells.*/\1/p' <<<"$out")
    exp=$(sed -n 's/^work: *expanded \([0-9]*\),.*/\1/p' <<<"$out")
    ms=$(sed -n 's/^work:.* in \([0-9.]*\) ms.*/\1/p' <<<"$out")
    printf '| %s | (%s,%s)->(%s,%s) | %s | %s | %s | %s ms |\n' "$size" $q "$cells" "$exp" \
      "$(awk -v e="$exp" -v c="$cells" 'BEGIN { printf "%.3f", e / c }')" "$ms"
  done
  rm -f "$map"
done
