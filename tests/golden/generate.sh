#!/usr/bin/env bash
# tests/golden/generate.sh -- (re)writes tests/golden/movingai.txt: the path
# hash of every shared Moving AI map for A*, JPS and JPS+, over every query
# (EVERY 1: the release conformance tests check it), every 100th (the
# instrumented build's stride, clang -march=native), every 200th
# (WebAssembly under Node) and every 500th (32-bit x86 under qemu):
# tests/golden/cross_check.sh. Run it only when a change
# is meant to change paths (a new tie rule, say), and say so in the commit.
#
#   tests/golden/generate.sh [ASTAR_TOOL] [MOVINGAI_DIR]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ASTAR=${1:-build/astar}
BENCH=${2:-../shared/bench/movingai}
OUT=tests/golden/movingai.txt
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
{
  echo "# Golden path hashes of the shared Moving AI queries (tests/golden/generate.sh)."
  echo "# ALGO EVERY SCEN HASH: astar bench DIR --algo ALGO --every EVERY --hash"
  for algo in astar jps jps-plus; do
    for every in 1 100 200 500; do
      "$ASTAR" bench "$BENCH" --algo "$algo" --every "$every" --hash
    done
  done
} >"$tmp"
mv "$tmp" "$OUT"
trap - EXIT
echo "wrote $OUT: $(grep -vc '^#' "$OUT") lines"
