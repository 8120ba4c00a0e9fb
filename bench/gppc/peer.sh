#!/usr/bin/env bash
# bench/gppc/peer.sh -- build the GPPC 2014 entries against the GPPC harness
# (gppc-dev/startkit-classic), outside the repository, for bench/gppc/run.sh.
#
#   MIRRORS=/work/.mirror PEERS=/work/peers/gppc bench/gppc/peer.sh [ENTRY...]
#
# Sources (git snapshots brought by the search tool's `fetch`; nothing is
# vendored here): $MIRRORS/xiangzebo+Polyanya/repo (gppc/gppc-2014: the 2014
# entries, maps and scenarios, a mirror of maxrenke/gppc-2014) and
# $MIRRORS/gppc-dev+startkit-classic/repo (the harness: main.cpp, Timer,
# ScenarioLoader, the validator). Output under $PEERS:
#   src/<entry>/    the entry as in the snapshot, plus the patches below
#   harness/        the startkit
#   scenarios/      the 2014 competition's maps and scenarios
#   bin/<entry>     the harness's `run` answered by the entry
#   BINARIES.txt    entry, binary, status (built / FAILED: why)
#   READY           written when the script is done
#
# How an entry is built. The 2014 entries implement an older Entry.h
# (non-const std::vector<bool>&, const char * file names, their own xyLoc,
# `const char *GetName()`) than the harness's, so they are linked through
# bench/gppc/shim2014_{old,new}.cpp: the entry's sources are compiled with
# -DGetName=gppc2014_GetName (and the same for PreprocessMap,
# PrepareForSearch, GetPath) and with Timer / ScenarioLoader renamed to
# Entry* (some entries include their own copies, which differ from the
# harness's classes of the same names), and the entry's main.cpp is left out;
# the harness's main.cpp, Timer.cpp, ScenarioLoader.cpp are linked instead.
# Flags: the competition's Release -O3 -DNDEBUG (and each entry's own
# defines from its makefile / build.sh), C++ standard gnu++11 or the
# entry's, -w (these are other people's 2014 sources; their warnings are
# not ours to fix). gcc 12 fixes are sed patches listed in patch_entry().
# shellcheck disable=SC2086 # $CXX, $NICE and the flag lists split into words on purpose
set -u
MIRRORS=${MIRRORS:-/work/.mirror}
PEERS=${PEERS:-/work/peers/gppc}
HERE=$(cd "$(dirname "$0")" && pwd)
POLY=$MIRRORS/xiangzebo+Polyanya/repo
KIT=$MIRRORS/gppc-dev+startkit-classic/repo
CXX=${CXX:-g++}
NICE=${NICE:-nice -n 10}

for g in "$POLY" "$KIT"; do
  if ! git --git-dir="$g" rev-parse -q --verify HEAD >/dev/null 2>&1; then
    echo "peer.sh: no git snapshot at $g (bring it with the search tool's fetch)" >&2
    exit 2
  fi
done

mkdir -p "$PEERS"/{src,bin,obj,logs}
rm -f "$PEERS/READY"

# Extract (each time: the snapshot is the source of truth, patches re-applied).
rm -rf "$PEERS/harness" "$PEERS/src" && mkdir -p "$PEERS/harness" "$PEERS/src"
git --git-dir="$KIT" archive HEAD | tar -x -C "$PEERS/harness"
if [ ! -d "$PEERS/scenarios" ]; then
  mkdir -p "$PEERS/scenarios"
  git --git-dir="$POLY" archive HEAD gppc/gppc-2014/scenarios |
    tar -x -C "$PEERS/scenarios" --strip-components=3
fi
# (git archive names a missing blob of gppc/gppc-2013 that the snapshot lacks;
# the 2014 files are all present, which the build below checks anyway.)
git --git-dir="$POLY" archive HEAD gppc/gppc-2014/entries 2>/dev/null |
  tar -x -C "$PEERS/src" --strip-components=3
{
  echo "polyanya_snapshot $(git --git-dir="$POLY" rev-parse HEAD)"
  echo "startkit_snapshot $(git --git-dir="$KIT" rev-parse HEAD)"
  echo "compiler $($CXX --version | head -1)"
} >"$PEERS/SOURCES.txt"

# The harness, compiled once.
HOBJ=$PEERS/obj/harness
mkdir -p "$HOBJ"
HFLAGS="-std=c++17 -O3 -DNDEBUG -w"
for f in main Timer ScenarioLoader; do
  $NICE $CXX $HFLAGS -I"$PEERS/harness" -c "$PEERS/harness/$f.cpp" -o "$HOBJ/$f.o" || {
    echo "peer.sh: the harness does not compile ($f.cpp)" >&2
    exit 1
  }
done
$NICE $CXX $HFLAGS -I"$PEERS/harness" -c "$HERE/shim2014_new.cpp" -o "$HOBJ/shim_new.o" || exit 1

# gcc 12 / glibc fixes, each explained. Applied to the extracted copy only.
patch_entry() {
  local e=$1 d=$PEERS/src/$1
  case $e in
  BLJPS | BLJPS2)
    # Entry.cpp packs the map into `new char[n]` with |= without zeroing it
    # first: with gcc 12 / glibc 2.36 the reused heap memory is not zero and
    # most cells come out blocked (no path for most queries; the validator
    # calls an empty path valid, run.sh does not). Value-initialise it.
    sed -i 's|new char\[bits.size()/8+1\];|new char[bits.size()/8+1]();|' "$d/Entry.cpp"
    grep -q 'new char\[bits.size()/8+1\]();' "$d/Entry.cpp" || echo "peer.sh: $e: patch did not apply" >&2
    ;;
  Rabin_AStarEntry | Rabin_AStarBucketPriorityQueueEntry)
    # FastAStar.cpp bounds the neighbour's row by the map's width, not its
    # height: on a map taller than wide (ht_keep, 281 x 357) the rows below
    # the width are never entered (no path for half of ht_keep's queries,
    # detours up to 1.93 times optimal). Compare the row with the height.
    sed -i 's|if (neighborRow >= m_width)|if (neighborRow >= m_height)|' "$d/FastAStar.cpp"
    grep -q 'neighborRow >= m_height' "$d/FastAStar.cpp" || echo "peer.sh: $e: patch did not apply" >&2
    ;;
  esac
}

RENAME="-DGetName=gppc2014_GetName -DPreprocessMap=gppc2014_PreprocessMap"
RENAME="$RENAME -DPrepareForSearch=gppc2014_PrepareForSearch -DGetPath=gppc2014_GetPath"
# Standard headers the 2014 sources relied on being included by others
# (older libstdc++ pulled <cstdint>, <cstring>, <vector> in transitively;
# the entries' own main.cpp included <vector> before Entry.h): forced
# includes instead of editing their files.
RENAME="$RENAME -include cstdint -include cstring -include cstdio -include cstdlib -include vector"
RENAME="$RENAME -DTimer=EntryTimer -DScenarioLoader=EntryScenarioLoader -DExperiment=EntryExperiment"

: >"$PEERS/BINARIES.txt.new"
# build NAME SRC_ENTRY "FLAGS" "LIBS" "SKIP_FILES"
build() {
  local name=$1 entry=$2 flags=$3 libs=$4 skip=" main.cpp $5 "
  local d=$PEERS/src/$entry o=$PEERS/obj/$name log=$PEERS/logs/$name.log
  rm -rf "$o" && mkdir -p "$o"
  : >"$log"
  local ok=1 f
  for f in "$d"/*.cpp "$HERE/shim2014_old.cpp"; do
    case "$skip" in *" $(basename "$f") "*) continue ;; esac
    if ! $NICE $CXX -std=gnu++11 -O3 -DNDEBUG -w $flags $RENAME -I"$d" -c "$f" \
      -o "$o/$(basename "$f" .cpp).o" >>"$log" 2>&1; then
      ok=0
      break
    fi
  done
  if [ $ok = 1 ] && $NICE $CXX -O3 -o "$PEERS/bin/$name" "$o"/*.o "$HOBJ"/*.o $libs >>"$log" 2>&1; then
    echo "$name $PEERS/bin/$name built ($entry: $flags)" | tee -a "$PEERS/BINARIES.txt.new"
  else
    rm -f "$PEERS/bin/$name"
    echo "$name - FAILED: $(grep -m1 -E 'error' "$log" | cut -c1-200) (log: logs/$name.log)" |
      tee -a "$PEERS/BINARIES.txt.new"
  fi
}

WANT="$*"
for d in "$PEERS"/src/*/; do patch_entry "$(basename "$d")"; done

# name                 entry directory                        flags (from its makefile / build.sh)         libs       files left out
B() { if [ -z "$WANT" ] || [[ " $WANT " == *" $1 "* ]]; then build "$@"; fi; }
B NLevelSubgoalGraphs  NLevelSubgoalGraphs                    "-DNO_HOG"                                  ""         ""
# SRC (FirstMoveCompression): the four builds of its build.sh. -i: the
# path a first move at a time (GetPath returns false until the goal; the
# harness's 20-step column is then meaningful); without -i: the whole path
# in one call (EXTRACT_ALL_AT_ONCE). dfs: DFS node order; cut: METIS cut
# order (needs libmetis-dev; balanced_min_cut.cpp is only used by the cut
# order, so the dfs builds leave it out and need no METIS).
B SRC-dfs              FirstMoveCompression                   "-fopenmp -DUSE_PARALLELISM -DEXTRACT_ALL_AT_ONCE" "-fopenmp" "balanced_min_cut.cpp"
B SRC-dfs-i            FirstMoveCompression                   "-fopenmp -DUSE_PARALLELISM"                "-fopenmp" "balanced_min_cut.cpp"
B SRC-cut              FirstMoveCompression                   "-fopenmp -DUSE_PARALLELISM -DUSE_CUT_ORDER -DEXTRACT_ALL_AT_ONCE" "-fopenmp -lmetis" ""
B SRC-cut-i            FirstMoveCompression                   "-fopenmp -DUSE_PARALLELISM -DUSE_CUT_ORDER" "-fopenmp -lmetis" ""
B ContractionHierarchies ContractionHierarchies               ""                                          ""         ""
B BLJPS                BLJPS                                  ""                                          ""         ""
B BLJPS2               BLJPS2                                 ""                                          ""         ""
B BLJPS_SubGoal        BLJPS_SubGoal_Exp                      ""                                          ""         ""
B JPSPlus              Rabin_JPSPlus                          ""                                          ""         ""
B JPSPlus-Bucket       Rabin_JPSPlusBucketPriorityQueueEntry  ""                                          ""         ""
B AStar-Rabin          Rabin_AStarEntry                       ""                                          ""         ""
B AStar-Rabin-Bucket   Rabin_AStarBucketPriorityQueueEntry    ""                                          ""         ""
B RA-SubgoalGraph      RelaxedAstar_SubgoalGraph-Fast_iroboapp ""                                         ""         ""
# Its Entry.cpp has globals `width` and `height`, as has the harness's
# main.cpp: renamed in the entry's translation units.
B RelaxedAStar         RelaxedAstar_iroboapp                  "-Dwidth=entry_width -Dheight=entry_height" "-lrt"     ""

if [ -z "$WANT" ]; then
  mv "$PEERS/BINARIES.txt.new" "$PEERS/BINARIES.txt"
else # a partial rebuild updates only the entries it built
  touch "$PEERS/BINARIES.txt"
  awk 'NR==FNR { new[$1] = $0; next } !($1 in new) { print } END { for (k in new) print new[k] }' \
    "$PEERS/BINARIES.txt.new" "$PEERS/BINARIES.txt" >"$PEERS/BINARIES.txt.tmp"
  mv "$PEERS/BINARIES.txt.tmp" "$PEERS/BINARIES.txt" && rm -f "$PEERS/BINARIES.txt.new"
fi
echo "peer.sh: $(grep -c ' built ' "$PEERS/BINARIES.txt") built, $(grep -c FAILED "$PEERS/BINARIES.txt") failed: $PEERS/BINARIES.txt"
touch "$PEERS/READY"
