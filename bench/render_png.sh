#!/usr/bin/env bash
# render_png.sh -- PNG size and time of `astar render`, two builds side by
# side: each picture is rendered RUNS times by each tool, alternating old and
# new so that machine noise hits both alike, pinned to one CPU (taskset -c 1
# when there is one), and the median wall time of the whole command --
# reading the map, the search, drawing and writing the PNG -- is printed with
# the file's size. The pictures: a 1024 x 1024 street map at 1 and 4 px a
# cell, a Dragon Age map (brc202d, 530 x 481), a StarCraft map and a 64 x 64
# map at 72 px a cell with F/G/H labels (4608 x 4608 px).
#
# usage: bench/render_png.sh [-r RUNS] OLD_ASTAR NEW_ASTAR
#   e.g. bench/render_png.sh /tmp/before/build/astar build/astar
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
M=${ASTAR_MOVINGAI:-$REPO/../shared/bench/movingai}
RUNS=5
while getopts "r:" o; do
  case $o in
  r) RUNS=$OPTARG ;;
  *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[[ $# == 2 ]] || { echo "usage: $0 [-r RUNS] OLD_ASTAR NEW_ASTAR" >&2; exit 2; }
OLD=$1
NEW=$2
PIN=()
if command -v taskset >/dev/null && taskset -c 1 true 2>/dev/null; then PIN=(taskset -c 1); fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/astar-render-png.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

CASES=(
  "$M/street/Berlin_0_1024.map 1013 1012 8 68"
  "$M/street/Berlin_0_1024.map 1013 1012 8 68 --cell 4"
  "$M/dao/brc202d.map 93 250 255 395"
  "$M/sc1/Expedition.map 110 1019 759 59"
  "$REPO/tests/data/small/rooms64-8.map 44 35 1 3 --fgh --cell 72"
)

# ms BIN ARGS...: wall time of one render, in milliseconds.
ms() {
  local t0 t1
  t0=$(date +%s%N)
  "${PIN[@]}" "$@" -o "$TMP/x.png" >/dev/null 2>&1
  t1=$(date +%s%N)
  echo $(((t1 - t0) / 1000000))
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '| picture | pixels | before bytes | after bytes | after / before | before ms | after ms |\n'
printf '|---|---:|---:|---:|---:|---:|---:|\n'
for c in "${CASES[@]}"; do
  read -r -a args <<<"$c"
  "$OLD" render "${args[@]}" -o "$TMP/old.png" >"$TMP/old.txt" 2>&1
  "$NEW" render "${args[@]}" -o "$TMP/new.png" >/dev/null 2>&1
  so=$(stat -c %s "$TMP/old.png")
  sn=$(stat -c %s "$TMP/new.png")
  px=$(sed -n 's/^wrote: .*(\([0-9]* x [0-9]*\) px.*/\1/p' "$TMP/old.txt")
  to=() tn=()
  for ((i = 0; i < RUNS; i++)); do
    to+=("$(ms "$OLD" render "${args[@]}")")
    tn+=("$(ms "$NEW" render "${args[@]}")")
  done
  name="$(basename "${args[0]}" .map) ${args[*]:1}"
  printf '| %s | %s | %s | %s | %.2f | %s | %s |\n' "$name" "$px" "$so" "$sn" \
    "$(awk -v a="$sn" -v b="$so" 'BEGIN { print a / b }')" \
    "$(printf '%s\n' "${to[@]}" | median)" "$(printf '%s\n' "${tn[@]}" | median)"
done
