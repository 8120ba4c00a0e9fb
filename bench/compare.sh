#!/usr/bin/env bash
# compare.sh -- libastar against the peer pathfinders, on the same query
# subsets, in one sitting, and the Markdown table that goes into the docs.
#
# usage: bench/compare.sh [-n N] [-r R] [-p PEERS] [-a ALGOS] [-o DIR] [MAP ...]
#   -n N      queries per map: an evenly spread subset of its scen (default 500)
#   -r R      runs of every peer and algorithm; the median time is kept (default 3)
#   -p PEERS  peers from ../shared/peers (default "ref boost tcod-astar-func";
#             "" for none)
#   -a ALGOS  libastar algorithms (`astar bench --algo`, default "astar")
#   -o DIR    output folder (default build/compare-<date>): results.txt holds
#             the RESULT lines, table.md the table
#   MAP       Moving AI .map files, their .map.scen beside them (default:
#             den520d brc202d maze512-1-0 random512-40-0 32room_000)
# env: SHARED (default <repo>/../shared), ASTAR (default <repo>/build/astar)
#
# For each map the peers run first (bench/peers.sh), then libastar on the
# subset file they used. Ratios in the table are peer time / libastar time
# from this one run. Run nothing else while it is timing.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${SHARED:-$REPO/../shared}
ASTAR=${ASTAR:-$REPO/build/astar}
N=500; R=3; PEERS="ref boost tcod-astar-func"; ALGOS="astar"; OUT=""
usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while getopts "n:r:p:a:o:h" opt; do
  case $opt in
    n) N=$OPTARG ;; r) R=$OPTARG ;; p) PEERS=$OPTARG ;; a) ALGOS=$OPTARG ;; o) OUT=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[[ $N =~ ^[1-9][0-9]*$ && $R =~ ^[1-9][0-9]*$ ]] || { echo "compare.sh: -n/-r must be positive integers" >&2; exit 2; }
[[ -x $ASTAR ]] || { echo "compare.sh: $ASTAR not built (run make)" >&2; exit 1; }
B=$SHARED/bench/movingai
MAPS=("$@")
if (( ${#MAPS[@]} == 0 )); then
  MAPS=("$B/dao/den520d.map" "$B/dao/brc202d.map" "$B/maze/maze512-1-0.map"
        "$B/random/random512-40-0.map" "$B/room/32room_000.map")
fi
OUT=${OUT:-$REPO/build/compare-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
RES=$OUT/results.txt
: > "$RES"

for map in "${MAPS[@]}"; do
  map=$(readlink -f "$map")
  scen=$map.scen
  [[ -f $scen ]] || { echo "compare.sh: no scenario beside $map" >&2; exit 1; }
  name=$(basename "$map")
  sub=$SHARED/peers/build/subsets/$name.n$N.scen
  if [[ -n $PEERS ]]; then
    "$REPO/bench/peers.sh" -n "$N" -r "$R" -p "$PEERS" -o "$OUT/peers-$name.txt" "$map" "$scen" >&2
    cat "$OUT/peers-$name.txt" >> "$RES"
  else
    mkdir -p "$(dirname "$sub")"
    python3 "$SHARED/peers/tools/subsample_scen.py" "$scen" "$sub" "$N" >/dev/null
  fi
  [[ -f $sub ]] || { echo "compare.sh: subset $sub missing" >&2; exit 1; }
  for algo in $ALGOS; do
    # The runs go to a file, read once they are done: a reader starting up
    # beside the timed process (python3 behind a pyenv shim takes seconds of
    # CPU on a loaded VM) slowed it up to 2.5x in a trial.
    : > "$OUT/bench.json"
    for ((i = 0; i < R; i++)); do
      # Cold, as the peers' drivers run: no untimed warm-up on our side either.
      "$ASTAR" bench --algo "$algo" --map "$map" "$sub" --warmup 0 --json >> "$OUT/bench.json"
      echo >> "$OUT/bench.json"
    done
    python3 -c '
import json, sys
text, dec, runs, i = sys.stdin.read(), json.JSONDecoder(), [], 0
while True:
    while i < len(text) and text[i].isspace():
        i += 1
    if i >= len(text):
        break
    obj, i = dec.raw_decode(text, i)
    runs.append(obj)
runs.sort(key=lambda j: j["us_per_query"])
m = runs[len(runs) // 2]
print("RESULT peer=libastar-%s map=%s queries=%d solve_s=%.6f us_per_query=%.2f mean_exp=%.1f "
      "mismatch=%d reps=%d us_min=%.2f us_max=%.2f" % (sys.argv[1], sys.argv[2], m["queries"],
      m["seconds"], m["us_per_query"], m["mean_expansions"], m["mismatches"], len(runs),
      runs[0]["us_per_query"], runs[-1]["us_per_query"]))' "$algo" "$name" < "$OUT/bench.json" | tee -a "$RES"
  done
done

python3 - "$RES" > "$OUT/table.md" <<'PY'
import sys, re
rows = {}
order = []
for line in open(sys.argv[1]):
    if not line.startswith("RESULT"):
        continue
    kv = dict(re.findall(r"(\w+)=(\S+)", line))
    key = (kv["map"], kv["peer"])
    if kv["map"] not in order:
        order.append(kv["map"])
    rows[key] = kv
peers = []
for (_, p) in rows:
    if p not in peers:
        peers.append(p)
ours = [p for p in peers if p.startswith("libastar")]
print("| map | method | µs/query | mean expansions | mismatches | " +
      " | ".join("speed-up vs %s" % p for p in ours) + " |")
print("|---|---|---:|---:|---:|" + "---:|" * len(ours))
for m in order:
    for p in peers:
        kv = rows.get((m, p))
        if not kv:
            continue
        us = float(kv["us_per_query"])
        cells = []
        for o in ours:
            ko = rows.get((m, o))
            cells.append("%.2f×" % (us / float(ko["us_per_query"])) if ko and p != o else "")
        print("| %s | %s | %.1f | %s | %s | %s |" % (m.replace(".map", ""), p, us, kv.get("mean_exp", "NA"),
              kv.get("mismatch", "NA"), " | ".join(cells)))
PY
cat "$OUT/table.md"
echo "results: $RES" >&2
