#!/usr/bin/env bash
# instructions.sh -- does a change make the grid searches slower? Instructions
# per query (valgrind's callgrind: the searches alone, repeatable to the
# instruction on a busy machine) and, with -t, timed medians of interleaved
# runs, for A*, JPS and JPS+ on Moving AI scenarios, through the direct entry
# points (astar_find_path, astar_jps_plus_find_path) and through the finder
# (astar_finder_find), of two builds of the library. The issue 26 budget:
# within 1% of the old library's instructions.
#
# usage: bench/instructions.sh [-t ROUNDS [-x]] [-p PASSES] [-a ALGOS] [-m MAPS] [-s] OLD [NEW]
#   OLD, NEW  a CMake build directory of the library (its libastar.a is linked;
#             the headers come from the source tree it was configured from) or
#             a git revision (checked out in a temporary worktree and built,
#             Release, the library only); NEW defaults to <repo>/build
#   -t ROUNDS also time: ROUNDS rounds, each running every (map, method,
#             entry) of OLD then NEW once (-p passes of about 0.2 s or one
#             pass over the queries, whichever is longer; the median kept);
#             the table gets the median over the rounds and their ratio
#             (default: no timing)
#   -x        with -t: timing only, no callgrind runs
#   -p PASSES timed passes per run (default 3)
#   -a ALGOS  methods (default "astar jps jps-plus")
#   -m MAPS   "NAME:EVERY ..." scenarios under ../shared/bench/movingai and the
#             stride of queries run from each (default
#             "dao/den520d:1 maze/maze512-1-0:40 street/Berlin_0_1024:16")
#   -s        the direct entry points only (default: direct and finder)
# env: SHARED (default <repo>/../shared), CC (default cc)
#
# Every run also prints the hash of all its statuses and paths: OLD and NEW
# must agree (a differing hash is flagged "PATHS DIFFER" and the exit status
# is 1). An OLD without astar/finder.h is measured through its direct entry
# points on the finder rows as well: the finder's cost is then part of the
# ratio, as it is for the callers that move to it.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${SHARED:-$REPO/../shared}
CC=${CC:-cc}
ROUNDS=0
PASSES=3
ALGOS="astar jps jps-plus"
MAPS="dao/den520d:1 maze/maze512-1-0:40 street/Berlin_0_1024:16"
ENTRIES="direct finder"
COUNT=1
usage() { sed -n '2,31p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while getopts "t:xp:a:m:sh" o; do
  case $o in
  t) ROUNDS=$OPTARG ;;
  p) PASSES=$OPTARG ;;
  a) ALGOS=$OPTARG ;;
  m) MAPS=$OPTARG ;;
  s) ENTRIES="direct" ;;
  x) COUNT=0 ;;
  *) usage ;;
  esac
done
shift $((OPTIND - 1))
[[ $# -ge 1 && $# -le 2 ]] || usage
[[ $ROUNDS =~ ^[0-9]+$ && $PASSES =~ ^[1-9][0-9]*$ ]] || { echo "instructions.sh: -t/-p take whole numbers" >&2; exit 2; }
((COUNT == 1 || ROUNDS > 0)) || { echo "instructions.sh: -x needs -t" >&2; exit 2; }
((COUNT == 0)) || command -v valgrind >/dev/null || { echo "instructions.sh: valgrind not found (apt-get install valgrind)" >&2; exit 1; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/astar-instr.XXXXXX")
WORKTREES=()
# shellcheck disable=SC2317 # called by the trap
cleanup() {
  for w in "${WORKTREES[@]+"${WORKTREES[@]}"}"; do git -C "$REPO" worktree remove --force "$w" >/dev/null 2>&1 || true; done
  rm -rf "$TMP"
}
trap cleanup EXIT

# driver SIDE SPEC: build the driver against SPEC (a build dir or a revision)
# as $TMP/SIDE; DESC gets a description of what was measured. (Not run in a
# subshell: WORKTREES must reach the trap.)
driver() {
  local side=$1 spec=$2 build src
  if [[ -d $spec && -f $spec/CMakeCache.txt ]]; then
    build=$(cd "$spec" && pwd)
    src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
    cmake --build "$build" -j 2 --target astar_static >/dev/null
  else
    git -C "$REPO" rev-parse --verify -q "$spec^{commit}" >/dev/null ||
      { echo "instructions.sh: '$spec' is neither a build directory nor a revision" >&2; exit 2; }
    src=$TMP/src-$side
    build=$TMP/build-$side
    git -C "$REPO" worktree add -q --detach "$src" "$spec"
    WORKTREES+=("$src")
    cmake -S "$src" -B "$build" --no-warn-unused-cli -DCMAKE_BUILD_TYPE=Release -DASTAR_BUILD_TESTS=OFF \
      -DASTAR_BUILD_EXAMPLES=OFF -DASTAR_BUILD_TOOLS=OFF -DASTAR_BUILD_BENCH=OFF >/dev/null
    cmake --build "$build" -j 2 --target astar_static >/dev/null
  fi
  # The same driver source for both sides: this one's.
  "$CC" -O2 -std=c11 -I"$src/include" "$REPO/bench/instructions.c" "$build/libastar.a" -lm \
    -lpthread -o "$TMP/$side"
  DESC="$(git -C "$src" rev-parse --short HEAD)$(git -C "$src" diff --quiet HEAD -- src include 2>/dev/null || echo '+changes') ($build)"
}

driver old "$1"
OLD_DESC=$DESC
driver new "${2:-$REPO/build}"
NEW_DESC=$DESC
OLD_FINDER=1
"$TMP/old" finder astar /dev/null /dev/null >/dev/null 2>&1 || [[ $? != 3 ]] || OLD_FINDER=0

# field LINE KEY: the value of KEY=... in a driver's output line.
field() { sed -n "s/.*\\b$2=\\([^ ]*\\).*/\\1/p" <<<"$1"; }

# count SIDE ENTRY ALGO MAP SCEN EVERY: instructions per query, the hash
# and the number of queries of one callgrind run.
count() {
  local out res n
  local fn=astar_finder_find
  [[ $2 == direct ]] && fn=astar_find_path
  [[ $2 == direct && $3 == jps-plus ]] && fn=astar_jps_plus_find_path
  # Only inside the entry point (the library's work, not the driver's).
  out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect="$fn" \
    --instr-atstart=no "$TMP/$1" "$2" "$3" "$4" "$5" "$6" 0 2>"$TMP/vg.err") ||
    { cat "$TMP/vg.err" >&2; exit 1; }
  n=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$TMP/vg.err")
  res=$(field "$out" queries)
  echo "$(awk -v a="$n" -v q="$res" 'BEGIN { printf "%.0f", a / q }') $(field "$out" hash) $res"
}

# entry_of SIDE ENTRY: the old library without a finder runs its direct calls.
entry_of() { [[ $1 == old && $2 == finder && $OLD_FINDER == 0 ]] && echo direct || echo "$2"; }

declare -A IO IN HO HN Q
STATUS=0
for spec in $MAPS; do
  name=${spec%%:*}
  every=${spec##*:}
  map=$SHARED/bench/movingai/$name.map
  [[ -f $map && -f $map.scen ]] || { echo "instructions.sh: no $map(.scen)" >&2; exit 1; }
  for algo in $ALGOS; do
    for e in $ENTRIES; do
      k="$name $algo $e"
      if ((COUNT)); then
        o=$(count old "$(entry_of old "$e")" "$algo" "$map" "$map.scen" "$every")
        n=$(count new "$e" "$algo" "$map" "$map.scen" "$every")
        echo "counted $k: ${o%% *} -> ${n%% *}" >&2
      else
        o="- $("$TMP/old" "$(entry_of old "$e")" "$algo" "$map" "$map.scen" "$every" 0 | sed 's/.*hash=\([^ ]*\).*/\1/')"
        n="- $("$TMP/new" "$e" "$algo" "$map" "$map.scen" "$every" 0 | sed 's/.*queries=\([^ ]*\).*hash=\([^ ]*\).*/\2 \1/')"
      fi
      read -r "IO[$k]" "HO[$k]" _ <<<"$o"
      read -r "IN[$k]" "HN[$k]" "Q[$name]" <<<"$n"
    done
  done
done

declare -A TO TN
if ((ROUNDS > 0)); then
  LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
  declare -A RO RN
  for ((r = 0; r < ROUNDS; r++)); do
    for spec in $MAPS; do
      name=${spec%%:*}
      every=${spec##*:}
      map=$SHARED/bench/movingai/$name.map
      for algo in $ALGOS; do
        for e in $ENTRIES; do
          k="$name $algo $e"
          o=$("$TMP/old" "$(entry_of old "$e")" "$algo" "$map" "$map.scen" "$every" "$PASSES")
          n=$("$TMP/new" "$e" "$algo" "$map" "$map.scen" "$every" "$PASSES")
          RO[$k]+="$(field "$o" us_per_query) "
          RN[$k]+="$(field "$n" us_per_query) "
        done
      done
    done
    echo "timed round $((r + 1))/$ROUNDS" >&2
  done
  LOAD1=$(cut -d' ' -f1-3 /proc/loadavg)
  median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
  for k in "${!RO[@]}"; do
    TO[$k]=$(median <<<"${RO[$k]}")
    TN[$k]=$(median <<<"${RN[$k]}")
  done
fi

echo "old: $OLD_DESC$([[ $OLD_FINDER == 0 ]] && echo ', no finder: its direct calls on the finder rows')"
echo "new: $NEW_DESC"
((ROUNDS > 0)) && echo "timed: $ROUNDS interleaved rounds x $PASSES passes (median pass, median round); load average $LOAD0 before, $LOAD1 after"
echo
if ((ROUNDS > 0)); then
  printf '| map | method | entry | queries | old instr/query | new instr/query | new / old | old µs/query | new µs/query | new / old |\n'
  printf '|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n'
else
  printf '| map | method | entry | queries | old instr/query | new instr/query | new / old |\n'
  printf '|---|---|---|---:|---:|---:|---:|\n'
fi
# ratio A B: A / B to 4 decimals ("-" without counts).
ratio() {
  if [[ $1 == - ]]; then echo -; else awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", a / b }'; fi
}
for spec in $MAPS; do
  name=${spec%%:*}
  for algo in $ALGOS; do
    for e in $ENTRIES; do
      k="$name $algo $e"
      flag=""
      [[ ${HO[$k]} == "${HN[$k]}" ]] || { flag=" PATHS DIFFER"; STATUS=1; }
      row=$(printf '| %s | %s | %s | %s | %s | %s | %s%s |' "$(basename "$name")" "$algo" "$e" "${Q[$name]}" \
        "${IO[$k]}" "${IN[$k]}" "$(ratio "${IN[$k]}" "${IO[$k]}")" "$flag")
      if ((ROUNDS > 0)); then
        row+=$(printf ' %s | %s | %.3f |' "${TO[$k]}" "${TN[$k]}" \
          "$(awk -v a="${TN[$k]}" -v b="${TO[$k]}" 'BEGIN { print a / b }')")
      fi
      echo "$row"
    done
  done
done
exit $STATUS
