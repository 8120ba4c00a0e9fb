#!/usr/bin/env bash
# fuzz/seed.sh -- (re)builds the committed seed corpora fuzz/corpus/<target>/
# from real files: the project's test data (tests/data/) and a few maps and
# scenarios of the Moving AI benchmark set beside the repository
# (../shared/bench/movingai, not in the repository: small files copied,
# large ones truncated), plus what fuzz/make_seeds.c makes of them for the
# binary-headed and derived formats. Every target's candidates are then
# minimised into its corpus with libFuzzer's -merge=1 (only inputs that add
# coverage are kept, under names that are their SHA-1 hashes).
#
#   fuzz/seed.sh [--fresh] [BUILD_DIR]     (default build-fuzz)
#   fuzz/seed.sh --add DIR TARGET [BUILD_DIR]
#
# --fresh empties the corpora first (otherwise new seeds are merged into
# what is there). --add merges the inputs of DIR (say, a long run's scratch
# corpus) into fuzz/corpus/TARGET. The harnesses must be built first
# (fuzz/run.sh --build-only).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

FRESH=0
if [[ ${1:-} == --fresh ]]; then
  FRESH=1
  shift
fi
if [[ ${1:-} == --add ]]; then
  [[ $# -ge 3 ]] || { echo "usage: $0 --add DIR TARGET [BUILD_DIR]" >&2; exit 2; }
  bin=${4:-build-fuzz}/fuzz/fuzz_$3
  mkdir -p "fuzz/corpus/$3"
  "$bin" -merge=1 -use_counters=0 "fuzz/corpus/$3" "$2" 2>&1 | grep -E "^MERGE-OUTER: [0-9]+ new files" || true
  exit 0
fi
BUILD=${1:-build-fuzz}
BENCH=../shared/bench/movingai
TARGETS=(movingai_map movingai_scen ascii_map hex_map dimacs jps_plus search mesh poly)
for t in "${TARGETS[@]}"; do
  [[ -x $BUILD/fuzz/fuzz_$t ]] || { echo "error: $BUILD/fuzz/fuzz_$t not built" >&2; exit 1; }
done
cmake --build "$BUILD" --target fuzz_make_seeds >/dev/null

SEEDS=$(mktemp -d "${TMPDIR:-/tmp}/astar-seeds.XXXXXX")
trap 'rm -rf "$SEEDS"' EXIT
for t in "${TARGETS[@]}"; do mkdir -p "$SEEDS/$t"; done

# Real maps used whole or cropped: the tests' own, and one or two of each
# benchmark family (when the benchmark set is there).
MAPS=(tests/data/small/*.map tests/data/parse/header_order.map tests/data/parse/terrain.txt)
SHARED_MAPS=(dao/arena.map dao/den312d.map bg512/AR0011SR.map maze/maze512-1-0.map
  random/random512-25-0.map room/8room_000.map sc1/CatwalkAlley.map street/Berlin_0_256.map)
SCENS=(tests/data/small/*.scen tests/data/parse/spaces.map.scen)
if [[ -d $BENCH ]]; then
  for m in "${SHARED_MAPS[@]}"; do
    [[ -f $BENCH/$m ]] && MAPS+=("$BENCH/$m") && SCENS+=("$BENCH/$m.scen")
  done
else
  echo "note: $BENCH not found; seeding from tests/data only"
fi

# Plain copies (a map or scenario larger than 8 KB keeps its first 8 KB:
# a truncated real file is a seed for the error paths too).
copy() { # TARGET FILE [NAME]
  head -c 8192 "$2" >"$SEEDS/$1/${3:-$(basename "$2")}"
}
for m in "${MAPS[@]}"; do
  copy movingai_map "$m"
  copy ascii_map "$m"
done
copy movingai_map tests/data/parse/bad_row.map
for s in "${SCENS[@]}"; do
  # Scenarios: the first 40 lines (a real header and queries).
  head -n 40 "$s" >"$SEEDS/movingai_scen/$(basename "$s")"
done
for h in tests/data/hex/*.hex; do copy hex_map "$h"; done
for d in tests/data/dimacs/*; do copy dimacs "$d"; done
# The tests' DIMACS triple as one fuzz_dimacs input: .gr, .co, .p2p.
{
  cat tests/data/dimacs/tiny.gr
  printf '\f'
  cat tests/data/dimacs/tiny.co
  printf '\f'
  cat tests/data/dimacs/tiny.p2p
} >"$SEEDS/dimacs/tiny-triple"

# Navigation meshes: Polyanya's meshes (the larger ones cut to their
# first 8 KB; NAVMESH, beside the repository) and the tests' texts
# (tests/data/mesh/). Polygon maps: tests/data/mesh/*.poly.
NAVMESH=../shared/bench/navmesh/meshes
if [[ -d $NAVMESH ]]; then
  for m in "$NAVMESH"/*.mesh "$NAVMESH"/tests/*.mesh; do copy mesh "$m"; done
fi
for m in tests/data/mesh/*.mesh; do copy mesh "$m"; done
for p in tests/data/mesh/*.poly; do copy poly "$p"; done

# Crops of the real maps, rendered for every target that takes maps.
"$BUILD/fuzz/fuzz_make_seeds" "$SEEDS" "${MAPS[@]}"

for t in "${TARGETS[@]}"; do
  if [[ $FRESH == 1 ]]; then rm -rf "fuzz/corpus/$t"; fi
  mkdir -p "fuzz/corpus/$t"
  n=$(find "$SEEDS/$t" -type f | wc -l)
  kept=$("$BUILD/fuzz/fuzz_$t" -merge=1 "fuzz/corpus/$t" "$SEEDS/$t" 2>&1 |
    sed -n 's/^MERGE-OUTER: \([0-9]*\) new files.*/\1/p')
  echo "$t: $n candidates, ${kept:-0} new in fuzz/corpus/$t ($(du -sk "fuzz/corpus/$t" | cut -f1) KB)"
done
