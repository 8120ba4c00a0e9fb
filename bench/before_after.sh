#!/usr/bin/env bash
# before_after.sh -- has a change made the grid searches slower? Builds the
# tool at git revision REV in a temporary worktree, then times it and the
# current build (build/astar) on the same scenario files, alternating old
# and new run by run so that machine noise hits both alike, and prints the
# median µs/query of each and the ratio new / old per map and algorithm.
# With -i it counts instructions instead (valgrind's callgrind, the searches
# alone): repeatable to the instruction on a busy machine, where times are
# not.
#
# usage: bench/before_after.sh [-i] [-r RUNS] [-e EVERY] [-a "astar jps jps-plus"] REV SCEN...
#   e.g. bench/before_after.sh -r 5 -e 4 18de1cd ../shared/bench/movingai/dao/den520d.map.scen
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNS=5
EVERY=4
ALGOS="astar jps jps-plus"
COUNT=0
while getopts "ir:e:a:" o; do
  case $o in
  i) COUNT=1 ;;
  r) RUNS=$OPTARG ;;
  e) EVERY=$OPTARG ;;
  a) ALGOS=$OPTARG ;;
  *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[[ $# -ge 2 ]] || { echo "usage: $0 [-r RUNS] [-e EVERY] [-a ALGOS] REV SCEN..." >&2; exit 2; }
REV=$1
shift
[[ -x $REPO/build/astar ]] || make -C "$REPO" build >/dev/null
OLD=$(mktemp -d "${TMPDIR:-/tmp}/astar-before.XXXXXX")
trap 'git -C "$REPO" worktree remove --force "$OLD/src" >/dev/null 2>&1; rm -rf "$OLD"' EXIT
git -C "$REPO" worktree add -q --detach "$OLD/src" "$REV"
cmake -S "$OLD/src" -B "$OLD/build" -DCMAKE_BUILD_TYPE=Release -DASTAR_BUILD_TESTS=OFF \
  -DASTAR_BUILD_EXAMPLES=OFF >/dev/null
cmake --build "$OLD/build" -j 2 >/dev/null

# nowarm BIN: the option that turns bench's untimed warm-up off, for a tool
# that has one (searched and counted alike on both sides). grep reads the
# whole help: with -q it could close the pipe early, and pipefail then
# takes bench's SIGPIPE for "no such option".
nowarm() { "$1" bench --help | grep -- '--warmup' >/dev/null && echo "--warmup 0" || true; }

# us BIN ALGO SCEN: µs/query of one run: the eighth field of the total line
# ("total (N maps)" is three). Not counted from the end: methods with a
# precomputation (jps-plus) add its time and bytes as two more columns.
us() {
  # shellcheck disable=SC2046
  "$1" bench "$3" --algo "$2" --every "$EVERY" $(nowarm "$1") --quiet | awk '/^total/ { print $8 }'
}
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# instructions BIN ALGO SCEN: instructions executed inside the searches.
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect=cli_prepared_find \
    "$1" bench "$3" --algo "$2" --every "$EVERY" $(nowarm "$1") --quiet 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

if [[ $COUNT == 1 ]]; then
  printf '| map | algo | before instructions | after instructions | after / before |\n|---|---|---:|---:|---:|\n'
  for scen in "$@"; do
    for algo in $ALGOS; do
      io=$(instructions "$OLD/build/astar" "$algo" "$scen")
      in=$(instructions "$REPO/build/astar" "$algo" "$scen")
      printf '| %s | %s | %s | %s | %.4f |\n' "$(basename "$scen" .map.scen)" "$algo" "$io" "$in" \
        "$(awk -v a="$in" -v b="$io" 'BEGIN { print a / b }')"
    done
  done
  exit 0
fi

printf '| map | algo | before µs/query | after µs/query | after / before |\n|---|---|---:|---:|---:|\n'
for scen in "$@"; do
  for algo in $ALGOS; do
    old=() new=()
    for ((i = 0; i < RUNS; i++)); do
      old+=("$(us "$OLD/build/astar" "$algo" "$scen")")
      new+=("$(us "$REPO/build/astar" "$algo" "$scen")")
    done
    mo=$(printf '%s\n' "${old[@]}" | median)
    mn=$(printf '%s\n' "${new[@]}" | median)
    printf '| %s | %s | %s | %s | %.3f |\n' "$(basename "$scen" .map.scen)" "$algo" "$mo" "$mn" \
      "$(awk -v a="$mn" -v b="$mo" 'BEGIN { print a / b }')"
  done
done
