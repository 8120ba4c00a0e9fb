#!/usr/bin/env bash
# peers.sh -- run the peer pathfinders (../shared/peers/run_all.sh) on Moving AI
# map/scen pairs and collect their RESULT lines, so libastar can be compared
# against them on the very same query subsets.
#
# usage: bench/peers.sh [-n N] [-r R] [-p PEERS] [-o FILE] [MAP SCEN ...]
#   -n N      queries per map, an evenly spread subset of the scen (default 500;
#             0 = whole scen file, no subset)
#   -r R      repeats per peer, median-time run kept (default 3)
#   -p PEERS  peers to run (default "ref boost tcod-astar-map tcod-astar-func")
#   -o FILE   write (overwrite) the RESULT lines here
#             (default: build/peers/peers-<date>.txt in the repo; run_all.sh's
#             stderr notes go next to it as .log)
#   MAP SCEN  pairs to run; default: den520d, brc202d, maze512-1-0,
#             random512-40-0, 32room_000 from $SHARED/bench/movingai
# env: SHARED  shared tree (default: <repo>/../shared)
#
# Installs nothing. Needs cc, c++, python3, and for the tcod-*/boost peers the
# libtcod / Boost.Graph headers (Debian: libtcod-dev libboost-graph-dev).
# run_all.sh builds its drivers and writes subsets into $SHARED/peers/build/; the
# subset scen files it used are listed at the end, so `astar bench` can be run on
# exactly the same queries. Run nothing else while it is timing.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${SHARED:-$REPO/../shared}
[[ -d $SHARED ]] || { echo "peers.sh: SHARED dir not found: $SHARED (set SHARED=...)" >&2; exit 1; }
SHARED=$(cd "$SHARED" && pwd)
RUN_ALL=$SHARED/peers/run_all.sh
MOVINGAI=$SHARED/bench/movingai

N=500; REPS=3; PEERS="ref boost tcod-astar-map tcod-astar-func"; OUT=""
usage() { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while getopts "n:r:p:o:h" opt; do
  case $opt in
    n) N=$OPTARG ;; r) REPS=$OPTARG ;; p) PEERS=$OPTARG ;; o) OUT=$OPTARG ;; *) usage ;;
  esac
done
shift $((OPTIND - 1))
[[ $N =~ ^[0-9]+$ && $REPS =~ ^[1-9][0-9]*$ ]] || { echo "peers.sh: -n/-r must be integers" >&2; exit 2; }

pairs=("$@")
if (( ${#pairs[@]} == 0 )); then
  pairs=()
  for m in dao/den520d dao/brc202d maze/maze512-1-0 random/random512-40-0 room/32room_000; do
    pairs+=("$MOVINGAI/$m.map" "$MOVINGAI/$m.map.scen")
  done
fi
(( ${#pairs[@]} % 2 == 0 )) || { echo "peers.sh: need MAP SCEN pairs (odd argument count)" >&2; usage; }
for f in "${pairs[@]}"; do [[ -r $f ]] || { echo "peers.sh: cannot read $f" >&2; exit 1; }; done

# ------------------------------------------------------------ prerequisites
[[ -x $RUN_ALL ]] || { echo "peers.sh: $RUN_ALL not found (set SHARED=...)" >&2; exit 1; }
missing=()
for t in cc c++ python3 timeout; do command -v "$t" >/dev/null || missing+=("command '$t'"); done
has_hdr() { # lang header [cflags...]
  local lang=$1 hdr=$2; shift 2
  printf '#include <%s>\n' "$hdr" | "$([[ $lang == c ]] && echo cc || echo c++)" "$@" -E -x "$lang" - >/dev/null 2>&1
}
if [[ " $PEERS " == *" tcod-"* ]]; then
  # shellcheck disable=SC2046
  has_hdr c libtcod.h $(pkg-config --cflags libtcod 2>/dev/null || echo -I/usr/include/libtcod) \
    || missing+=("libtcod headers (Debian: libtcod-dev)")
fi
if [[ " $PEERS " == *" boost "* || " $PEERS " == *" boost-noinit "* ]]; then
  has_hdr c++ boost/graph/astar_search.hpp || missing+=("Boost.Graph headers (Debian: libboost-graph-dev)")
fi
if (( ${#missing[@]} )); then
  echo "peers.sh: missing prerequisites (this script installs nothing):" >&2
  printf '  - %s\n' "${missing[@]}" >&2
  echo "  e.g. apt-get install -y build-essential pkg-config python3 libtcod-dev libboost-graph-dev" >&2
  exit 1
fi

# ------------------------------------------------------------ run
OUT=${OUT:-$REPO/build/peers/peers-$(date +%Y%m%d-%H%M%S).txt}
mkdir -p "$(dirname "$OUT")"
OUT=$(cd "$(dirname "$OUT")" && pwd)/$(basename "$OUT")
: > "$OUT"

echo "== peers: $PEERS   n=$N reps=$REPS   -> $OUT" >&2
subsets=()
for ((i = 0; i < ${#pairs[@]}; i += 2)); do
  map=${pairs[i]}; scen=${pairs[i+1]}
  t0=$(date +%s)
  # run_all.sh appends RESULT lines to $OUT and prints a table; keep the table quiet
  "$RUN_ALL" -n "$N" -r "$REPS" -p "$PEERS" -o "$OUT" "$map" "$scen" >/dev/null
  echo "   $(basename "$map"): $(( $(date +%s) - t0 )) s" >&2
  if (( N > 0 )); then
    sub=$SHARED/peers/build/subsets/$(basename "$scen" .scen).n$N.scen
    [[ -s $sub ]] || { echo "peers.sh: expected subset $sub was not written" >&2; exit 1; }
  else
    sub=$(readlink -f "$scen")
  fi
  subsets+=("$(readlink -f "$map") $sub")
done

echo
grep '^RESULT' "$OUT" || { echo "peers.sh: no RESULT lines in $OUT" >&2; exit 1; }
echo
python3 "$SHARED/peers/tools/table.py" "$OUT"
echo
echo "results: $OUT   (stderr notes: ${OUT%.txt}.log)"
echo "subset scen files used by every peer (MAP SCEN):"
printf '%s\n' "${subsets[@]}"
