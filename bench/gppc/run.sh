#!/usr/bin/env bash
# bench/gppc/run.sh -- the GPPC 2014 competition, rerun here: every 2014
# entry built by bench/gppc/peer.sh and libastar (bench/gppc/Entry.cpp, one
# binary per method) through the same harness (gppc-dev/startkit-classic's
# main.cpp) on the same maps and queries in one sitting, the startkit's
# validator on every answer, pinned to one CPU; prints the Markdown tables
# (docs/performance.md, "GPPC 2014, rerun here").
#
#   bench/gppc/run.sh [--all] [--queries N] [--rounds R] [--entries "A B ..."]
#                     [--maps "FAMILY:PATH ..."] [--max-allpairs CELLS] [--reuse-pre]
#
#   --all           every map of the 2014 competition (132) and of the shared
#                   Moving AI families, every query; with no cap on the
#                   all-pairs precomputations (days on this machine)
#   --queries N     at most N queries per map, evenly spaced over the
#                   scenario (default 300; 0: all)
#   --rounds R      rounds, interleaved (every entry once per round on a
#                   map before the next round); the tables give medians of
#                   rounds (default 3)
#   --entries L     only these (names of BINARIES.txt, libastar-<method>)
#   --maps L        instead of the default subset: FAMILY:MAPFILE pairs
#   --reuse-pre     with OUT set to an earlier run's folder: keep every 2014
#                   entry's precomputation that succeeded there (its files
#                   and its time), run the missing ones, all of libastar's
#                   (its formats follow the checkout) and every query round
#                   (e.g. after a new libastar method: the 2014 SRC files
#                   take tens of minutes)
#   --max-allpairs C  skip the all-pairs precomputations (SRC-*, libastar-cpd)
#                   on maps with more than C passable cells (default 30000:
#                   their precomputation is a search from every cell: 1-3
#                   minutes for 22,000 cells on this machine's loaded core,
#                   hours for the big maps); the table says "skipped".
#                   SRC-dfs-i loads the file SRC-dfs wrote (the same
#                   program and format, DFS-SRC-RLE), SRC-cut-i SRC-cut's.
#
# Environment: PEERS (default /work/peers/gppc: peer.sh's output), MOVINGAI
# (default <repo>/../shared/bench/movingai), ASTAR_BUILD (default
# $PEERS/astar-build: libastar's static library is built there from this
# checkout), METHODS (default "astar jps jps-plus cpd subgoal"), CPU (default
# 1, for taskset), OUT (default $PEERS/runs/<date>).
#
# Every run: `-pre` (precomputation: wall time and peak RSS by
# /usr/bin/time, storage = the bytes the entry wrote under index_data/),
# then `-check` (the harness's timed queries, result.csv, and its validator
# on every path, outside the timed calls). Exit status 1 when any answer of
# any entry is invalid (the validator's verdict, a path not from start to
# goal, no path where the scenario has one) or when a libastar method
# fails; a 2014 entry that crashes or fails is reported in the table.
# A libastar method the library does not have yet (the subgoal placeholder
# before the subgoal branches are merged: ASTAR_UNSUPPORTED) is reported as
# skipped, not failed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
PEERS=${PEERS:-/work/peers/gppc}
MOVINGAI=${MOVINGAI:-$REPO/../shared/bench/movingai}
ASTAR_BUILD=${ASTAR_BUILD:-$PEERS/astar-build}
METHODS=${METHODS:-astar jps jps-plus cpd subgoal}
CPU=${CPU:-1}
ALL=0
QUERIES=300
ROUNDS=3
ENTRIES=""
MAPS=""
MAX_ALLPAIRS=30000
REUSE_PRE=0

usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
  --all) ALL=1; QUERIES=0; MAX_ALLPAIRS=0 ;;
  --queries) QUERIES=${2:?--queries needs a count}; shift ;;
  --rounds) ROUNDS=${2:?--rounds needs a count}; shift ;;
  --entries) ENTRIES=${2:?--entries needs names}; shift ;;
  --maps) MAPS=${2:?--maps needs FAMILY:PATH pairs}; shift ;;
  --max-allpairs) MAX_ALLPAIRS=${2:?--max-allpairs needs a cell count}; shift ;;
  --reuse-pre) REUSE_PRE=1 ;;
  -h | --help) usage ;;
  *) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
case $QUERIES$ROUNDS$MAX_ALLPAIRS in *[!0-9]*)
  echo "run.sh: --queries, --rounds and --max-allpairs take whole numbers" >&2; exit 2 ;;
esac
[ "$ROUNDS" -ge 1 ] || { echo "run.sh: --rounds must be at least 1" >&2; exit 2; }
if [ ! -e "$PEERS/READY" ]; then
  echo "run.sh: $PEERS/READY missing: build the entries first (bench/gppc/peer.sh)" >&2
  exit 2
fi
command -v taskset >/dev/null || { echo "run.sh: needs taskset (util-linux)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "run.sh: needs /usr/bin/time (GNU time)" >&2; exit 2; }

# libastar from this checkout, Release (-O3 like the entries), and one
# harness binary per method.
echo "run.sh: building libastar ($(git -C "$REPO" rev-parse --short HEAD)) in $ASTAR_BUILD" >&2
if ! { cmake -S "$REPO" -B "$ASTAR_BUILD" -DCMAKE_BUILD_TYPE=Release -DASTAR_BUILD_TESTS=OFF \
  -DASTAR_BUILD_TOOLS=OFF -DASTAR_BUILD_EXAMPLES=OFF -DASTAR_BUILD_BENCH=OFF \
  -DASTAR_BUILD_SHARED=OFF >"$PEERS/logs/astar-cmake.log" 2>&1 &&
  nice cmake --build "$ASTAR_BUILD" -j2 --target astar_static >"$PEERS/logs/astar-build.log" 2>&1; }; then
  echo "run.sh: libastar does not build (logs in $PEERS/logs/astar-*.log)" >&2
  exit 1
fi
OURS=""
for m in $METHODS; do
  if ! nice g++ -std=c++17 -O3 -DNDEBUG -W -Wall -I"$PEERS/harness" -I"$REPO/include" \
    -DASTAR_GPPC_DEFAULT_METHOD="\"$m\"" "$HERE/Entry.cpp" "$PEERS/obj/harness/main.o" \
    "$PEERS/obj/harness/Timer.o" "$PEERS/obj/harness/ScenarioLoader.o" \
    "$ASTAR_BUILD/libastar.a" -lm -lpthread -o "$PEERS/bin/libastar-$m"; then
    echo "run.sh: bench/gppc/Entry.cpp does not build for $m" >&2
    exit 1
  fi
  OURS="$OURS libastar-$m"
done

PEER_LIST=$(awk '$3 == "built" { print $1 }' "$PEERS/BINARIES.txt" | tr '\n' ' ')
ALL_ENTRIES="$PEER_LIST $OURS"
if [ -n "$ENTRIES" ]; then
  for e in $ENTRIES; do
    case " $ALL_ENTRIES " in *" $e "*) ;; *)
      echo "run.sh: --entries: '$e' is not one of:$ALL_ENTRIES" | tr '\n' ' ' >&2; echo >&2; exit 2 ;;
    esac
  done
  ALL_ENTRIES=$ENTRIES
fi

# The maps. Default: a few per family, small enough that the all-pairs
# precomputations (SRC, CPD) finish in minutes on one core.
S=$PEERS/scenarios
M=$MOVINGAI
if [ -z "$MAPS" ]; then
  if [ $ALL = 1 ]; then
    for f in "$S"/*.map; do
      b=$(basename "$f" .map)
      case $b in
      orz*) fam=gppc-DAO ;; maze-*) fam=gppc-maze ;; random-*) fam=gppc-random ;;
      room-*) fam=gppc-room ;; [A-Z]*) fam=gppc-SC ;; *) fam=gppc-DA2 ;;
      esac
      MAPS="$MAPS $fam:$f"
    done
    for f in "$M"/*/*.map; do MAPS="$MAPS movingai-$(basename "$(dirname "$f")"):$f"; done
  else
    MAPS="gppc-DAO:$S/orz303d.map gppc-DA2:$S/ht_keep.map
      gppc-maze:$S/maze-100-1.map gppc-random:$S/random-100-33.map gppc-room:$S/room-100-10.map
      gppc-SC:$S/Brushfire.map movingai-dao:$M/dao/den520d.map
      movingai-street:$M/street/Berlin_0_256.map movingai-bg512:$M/bg512/AR0011SR.map"
  fi
fi
for fm in $MAPS; do
  f=${fm#*:}
  if [ ! -r "$f" ] || [ ! -r "$f.scen" ]; then
    echo "run.sh: no map or scenario: $f(.scen)" >&2
    exit 2
  fi
done

OUT=${OUT:-$PEERS/runs/$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$OUT/scen"
{
  echo "date $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "libastar $(git -C "$REPO" rev-parse HEAD) $(git -C "$REPO" status --porcelain -uno | grep -q . && echo '(with uncommitted changes)')"
  echo "cpu $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-) x $(nproc), pinned to CPU $CPU"
  echo "load-before $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "queries ${QUERIES:-all} per map, rounds $ROUNDS, all-pairs cap $MAX_ALLPAIRS passable cells$([ $REUSE_PRE = 1 ] && echo ", precomputations of an earlier run in this folder reused where they succeeded")"
  cat "$PEERS/SOURCES.txt"
} >"$OUT/sitting.txt"
printf 'entry\tfamily\tmap\tcells\tpassable\tround\tpre_s\tpre_rss_kb\tstorage\trc\trun_rss_kb\twork\n' >"$OUT/runs.tsv"

allpairs() { case $1 in SRC-* | libastar-cpd) return 0 ;; esac; return 1; }
for fm in $MAPS; do
  fam=${fm%%:*} map=${fm#*:}
  name=$(basename "$map" .map)
  w=$(sed -n 's/^width //p' "$map" | tr -d '\r')
  h=$(sed -n 's/^height //p' "$map" | tr -d '\r')
  pass=$(tail -n +5 "$map" | tr -cd '.GS' | wc -c)
  scen=$OUT/scen/$name.map.scen
  python3 "$HERE/table.py" sample "$map.scen" "$scen" "$QUERIES"
  echo "run.sh: $fam $name (${w}x$h, $pass passable, $(($(wc -l <"$scen") - 1)) queries)" >&2
  for r in $(seq 1 "$ROUNDS"); do
    for e in $ALL_ENTRIES; do
      work=$OUT/work/$e/$name
      line() { printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$e" "$fam" "$name" $((w * h)) "$pass" "$r" "$1" >>"$OUT/runs.tsv"; }
      if [ "$MAX_ALLPAIRS" -gt 0 ] && [ "$pass" -gt "$MAX_ALLPAIRS" ] && allpairs "$e"; then
        [ "$r" = 1 ] && line "skip	-	-	skipped: all-pairs precomputation over $MAX_ALLPAIRS passable cells (--max-allpairs)	-	-"
        continue
      fi
      # Precompute once (round 1); every round runs the query phase.
      # SRC's incremental build reads the file of its one-call build.
      src=""
      case $e in SRC-dfs-i | SRC-cut-i) src=$OUT/work/${e%-i}/$name ;; esac
      if [ "$r" = 1 ] && [ -n "$src" ] && [ -e "$src/pre.rc" ]; then
        rm -rf "$work" && mkdir -p "$work" && cp -r "$src/index_data" "$src/pre.time" "$src/pre.rc" "$work/"
        : >"$work/err.txt"
      elif [ "$r" = 1 ] && [ $REUSE_PRE = 1 ] && [[ $e != libastar-* ]] &&
        [ "$(cat "$work/pre.rc" 2>/dev/null)" = 0 ]; then
        : # --reuse-pre: the precomputation of an earlier run into this OUT
      elif [ "$r" = 1 ]; then
        rm -rf "$work" && mkdir -p "$work/index_data"
        (cd "$work" && /usr/bin/time -f '%e %M' -o pre.time taskset -c "$CPU" \
          "$PEERS/bin/$e" -pre "$map" none >pre.out 2>err.txt)
        echo $? >"$work/pre.rc"
      fi
      rc=$(cat "$work/pre.rc")
      if [ "$rc" = 0 ]; then
        (cd "$work" && /usr/bin/time -f '%e %M' -o run.time taskset -c "$CPU" \
          "$PEERS/bin/$e" -check "$map" "$scen" >check.out 2>>err.txt)
        rc=$?
        # The harness always writes result.csv; each round keeps its own.
        mv "$work/result.csv" "$work/result.$r.csv" 2>/dev/null
        mv "$work/check.out" "$work/check.$r.out" 2>/dev/null
      fi
      if [ "$rc" != 0 ] && [[ $e == libastar-* ]] && grep -q 'unsupported' "$work/err.txt"; then
        [ "$r" = 1 ] && line "skip	-	-	skipped: $(tail -1 "$work/err.txt" | sed 's/^libastar entry ([^)]*): //')	-	-"
        continue
      fi
      pre_s=$(cut -d' ' -f1 "$work/pre.time" 2>/dev/null || echo 0)
      pre_rss=$(cut -d' ' -f2 "$work/pre.time" 2>/dev/null || echo 0)
      storage=$(find "$work/index_data" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
      run_rss=$(cut -d' ' -f2 "$work/run.time" 2>/dev/null || echo 0)
      line "${pre_s:-0}	${pre_rss:-0}	$storage	$rc	${run_rss:-0}	$work"
    done
  done
done
echo "load-after $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/sitting.txt"

{
  echo "Sitting: $(sed -n 's/^date //p' "$OUT/sitting.txt"); libastar $(sed -n 's/^libastar //p' "$OUT/sitting.txt" | cut -c1-12)$(sed -n 's/^libastar [0-9a-f]*//p' "$OUT/sitting.txt");"
  echo "$(sed -n 's/^cpu //p' "$OUT/sitting.txt"); load average before $(sed -n 's/^load-before //p' "$OUT/sitting.txt"), after $(sed -n 's/^load-after //p' "$OUT/sitting.txt");"
  echo "$(sed -n 's/^queries //p' "$OUT/sitting.txt")."
  echo
  python3 "$HERE/table.py" table "$OUT"
} | tee "$OUT/table.md"
exit "${PIPESTATUS[0]}"
