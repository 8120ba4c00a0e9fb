#!/usr/bin/env bash
# rts.sh -- the RTS benchmark's table (issue 26, docs/rts-benchmark.md), from
# one command: builds build/bench/rts when needed, runs every configuration
# and prints one Markdown table.
#
# usage: bench/rts.sh [-s SEED] [-f FRAMES] [-c CONFIGS] [-q] [-b] [-- RTS-ARGS...]
#   -s SEED     random seed of every row (default 1): the same seed prints the
#               same figures but the milliseconds
#   -f FRAMES   frames per run (default 600)
#   -c CONFIGS  space-separated POLICY:METHOD pairs, each run on every row,
#               next to each other (default "queue-astar:astar queue:hpa-lm
#               queue:astar-lm": the A*-only queue with one queue per unit
#               size, then issue 26's one queue for every method and size,
#               its truth 1x1 units by HPA* or by A*; "queue-astar-view:astar"
#               keeps the fog player's knowledge as grids of its own;
#               `build/bench/rts --help` lists the policies)
#   -q          quick: the issue's row and the 256x256 rows only
#   -b          big: also 1024x1024 and den520d with 1,000 units over 3,000
#               frames (several minutes)
#   RTS-ARGS    passed to every run (e.g. --fog-start map, --wall-every 10)
# env: BUILD (default <repo>/build), SHARED (default <repo>/../shared): the
# Moving AI maps are $SHARED/bench/movingai (rows skipped when missing).
#
# Budgets grow with the units: 40 expansions a unit a frame (2,000 for 50
# units, the issue's budget). The first row is the issue's scenario: 256x256
# with terrain and roads, 50 units under fog, one of them 2x2, walls
# appearing, 2,000 expansions a frame, 600 frames.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
SHARED=${SHARED:-$REPO/../shared}
MAI=$SHARED/bench/movingai
SEED=1; FRAMES=600; CONFIGS="queue-astar:astar queue:hpa-lm queue:astar-lm"; QUICK=0; BIG=0
usage() { sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while getopts "s:f:c:qbh" opt; do
  case $opt in
    s) SEED=$OPTARG ;; f) FRAMES=$OPTARG ;; c) CONFIGS=$OPTARG ;; q) QUICK=1 ;; b) BIG=1 ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
EXTRA=("$@")

if [[ ! -f $BUILD/CMakeCache.txt ]]; then
  cmake -S "$REPO" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$BUILD" -j2 --target bench_rts >/dev/null
RTS=$BUILD/bench/rts

# row LABEL MAP ARGS...: one table row per POLICY:METHOD.
row() {
  local label=$1 map=$2
  shift 2
  local pm
  for pm in $CONFIGS; do
    "$RTS" --map "$map" --label "$label" --seed "$SEED" --frames "$FRAMES" \
      --policy "${pm%%:*}" --method "${pm#*:}" "$@" ${EXTRA[@]+"${EXTRA[@]}"}
  done
}
# mai LABEL FILE ARGS...: a Moving AI map row, skipped when the file is missing.
mai() {
  local label=$1 file=$MAI/$2
  shift 2
  if [[ -f $file ]]; then row "$label" "$file" "$@"; else
    echo "rts.sh: $file not found: row $label skipped" >&2
  fi
}

echo "RTS benchmark (bench/rts.sh $*): seed $SEED, $FRAMES frames; walls of 8 cells every"
echo "20 frames; half the units under fog (sight 8, shroud), unless the row says otherwise;"
echo "sizes 1/2/3 in the mix 80/15/5 %; libastar $(git -C "$REPO" describe --always --dirty 2>/dev/null || echo '?')."
echo
"$RTS" --help >/dev/null # fails early on a broken build
printf '%s' "$("$RTS" --map gen:16 --units 1 --frames 1 --format header | head -2)"
echo
row "issue: 256² terrain+roads, 1 unit 2x2, all fogged" gen:256 --sizes 49,1,0 --fog 100 --budget 2000
row "256² terrain+roads" gen:256 --units 50 --budget 2000
row "256² terrain+roads" gen:256 --units 200 --budget 8000
row "256² terrain+roads" gen:256 --units 1000 --budget 40000
if [[ $QUICK == 0 ]]; then
  row "1024² terrain+roads" gen:1024 --units 50 --budget 2000
  row "1024² terrain+roads" gen:1024 --units 200 --budget 8000
  row "1024² terrain+roads" gen:1024 --units 1000 --budget 40000
  mai "den520d (256x257)" dao/den520d.map --units 50 --budget 2000
  mai "den520d (256x257)" dao/den520d.map --units 200 --budget 8000
  mai "den520d (256x257)" dao/den520d.map --units 1000 --budget 40000
  mai "AR0011SR (bg512, 512²)" bg512/AR0011SR.map --units 50 --budget 2000
  mai "AR0011SR (bg512, 512²)" bg512/AR0011SR.map --units 200 --budget 8000
fi
if [[ $BIG == 1 ]]; then
  row "1024² terrain+roads, 3,000 frames" gen:1024 --units 1000 --budget 40000 --frames 3000
  mai "den520d, 3,000 frames" dao/den520d.map --units 1000 --budget 40000 --frames 3000
fi
