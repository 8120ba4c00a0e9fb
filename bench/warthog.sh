#!/usr/bin/env bash
# warthog.sh -- libastar's A*, JPS and JPS+ beside Warthog's astar, jps2 and
# jps2+ (ShortestPathLab warthog-core / warthog-jps, the research anchor of
# issue 12) on the same query subsets, in one sitting, and the Markdown table
# of docs/performance.md "Against Warthog".
#
# usage: bench/warthog.sh [-n N] [-r R] [-a ALGOS] [-g DIR] [-o DIR] [MAP ...]
#   -n N      queries per map: an evenly spread subset of its scen (default 300)
#   -r R      rounds (default 3); a round runs ours then theirs on one map, so
#             the two sides see the same machine load; the median round of
#             every method is kept
#   -a ALGOS  the methods, a subset of "astar jps jps-plus" (default all
#             three): the peer's counterparts (astar; jps2; jps2+) run with them
#   -g DIR    folder of the generated mazes (corridor 2 4 8 16 32, 512x512),
#             made there with ../shared/peers/gen/gen_maps.py when missing
#             (a few minutes; default build/warthog-maps; "" for none)
#   -o DIR    output folder (default build/warthog-<date>): results.txt holds
#             one RESULT line per method, map and round, table.md the table
#   MAP       Moving AI .map files, their .map.scen beside them (default:
#             den520d brc202d maze512-1-0 random512-40-0 32room_000
#             Berlin_0_1024 Boston_0_1024, then the generated mazes)
# env: WARTHOG_BIN (warthog-core's `warthog`), WARTHOG_JPS_BIN (warthog-jps's
#      `warthog-jps`); default: both in $TMPDIR/perf/warthog/bin (or
#      WARTHOG_DIR), where ../shared/peers/tools/build_warthog.sh puts them.
#      Without them their columns are left empty and the way to build them is
#      printed. SHARED (default <repo>/../shared), ASTAR (default
#      <repo>/build/astar), PIN (default "taskset -c 1": both sides on one
#      core; "" to run unpinned). AUTOGROUP_NICE (default unset): run the
#      sitting in a session of its own, that session's CPU weight set to
#      this nice value (-20 .. 19; negative needs root) -- see below.
#
# Ours: `astar bench --warmup 0` (cold, as Warthog's runner is) with --algo
# astar, jps, jps-plus loading the file `astar precompute` wrote (jps-plus
# file) and jps-plus building its table in process (jps-plus built; the build
# is not timed in either). Theirs: ../shared/peers/run_all.sh -p warthog
# (Warthog's per-query timer, its output to a file). Every answer is checked
# against the scen's optimal length: the script exits 1 on any mismatch.
# Ratios are Warthog time / libastar time (> 1: libastar is faster).
#
# A busy shared machine: with the kernel's autogroup scheduling
# (/proc/sys/kernel/sched_autogroup_enabled = 1) every session gets an equal
# share of the CPUs whatever the nice value of its processes, so a pinned
# timed process beside a few other busy sessions is off the CPU most of the
# time and one preemption (milliseconds) outweighs a round of 300 queries of
# a few microseconds. AUTOGROUP_NICE=-20 gives the sitting's own session the
# weight to run nearly undisturbed (both sides alike); say so with the figures.
set -euo pipefail
if [[ -n ${AUTOGROUP_NICE:-} && -z ${WARTHOG_SH_SESSION:-} ]]; then
  exec env WARTHOG_SH_SESSION=1 setsid --wait "$0" "$@"
fi
if [[ -n ${AUTOGROUP_NICE:-} ]]; then
  echo "$AUTOGROUP_NICE" 2>/dev/null > /proc/self/autogroup &&
    echo "warthog.sh: own session, $(cat /proc/self/autogroup)" >&2 ||
    echo "warthog.sh: cannot set the session's weight (AUTOGROUP_NICE=$AUTOGROUP_NICE); unweighted" >&2
fi
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${SHARED:-$REPO/../shared}
ASTAR=${ASTAR:-$REPO/build/astar}
PIN=${PIN-taskset -c 1}
N=300; R=3; GEN=$REPO/build/warthog-maps; OUT=""
ALGOS="astar jps jps-plus"
usage() { sed -n '2,46p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while getopts "n:r:a:g:o:h" opt; do
  case $opt in
    n) N=$OPTARG ;; r) R=$OPTARG ;; a) ALGOS=$OPTARG ;; g) GEN=$OPTARG ;; o) OUT=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[[ $N =~ ^[1-9][0-9]*$ ]] || { echo "warthog.sh: -n: expected a positive integer, got '$N'" >&2; exit 2; }
[[ $R =~ ^[1-9][0-9]*$ ]] || { echo "warthog.sh: -r: expected a positive integer, got '$R'" >&2; exit 2; }
OURS=(); WH_JPS_ALGS=""; WANT_ASTAR=0
for a in $ALGOS; do
  case $a in
    astar) OURS+=(astar); WANT_ASTAR=1 ;;
    jps) OURS+=(jps); WH_JPS_ALGS+=" jps2" ;;
    jps-plus) OURS+=(jps-plus-file jps-plus-built); WH_JPS_ALGS+=" jps2+" ;;
    *) echo "warthog.sh: -a: '$a' is not astar, jps or jps-plus" >&2; exit 2 ;;
  esac
done
(( ${#OURS[@]} > 0 )) || { echo "warthog.sh: -a: no method given" >&2; exit 2; }
[[ -x $ASTAR ]] || { echo "warthog.sh: $ASTAR not built (run make)" >&2; exit 1; }
[[ -d $SHARED ]] || { echo "warthog.sh: shared tree $SHARED not found (set SHARED=...)" >&2; exit 1; }
SHARED=$(cd "$SHARED" && pwd)
if [[ -n $PIN ]] && ! $PIN true 2>/dev/null; then
  echo "warthog.sh: '$PIN' does not run here; timing unpinned" >&2
  PIN=""
fi

# ------------------------------------------------------------ Warthog
WH_DIR=${WARTHOG_DIR:-${TMPDIR:-/tmp}/perf/warthog/bin}
WARTHOG_BIN=${WARTHOG_BIN:-$WH_DIR/warthog}
WARTHOG_JPS_BIN=${WARTHOG_JPS_BIN:-$WH_DIR/warthog-jps}
[[ -x $WARTHOG_BIN ]] || WARTHOG_BIN=""
[[ -x $WARTHOG_JPS_BIN ]] || WARTHOG_JPS_BIN=""
if [[ -z $WARTHOG_BIN || -z $WARTHOG_JPS_BIN ]]; then
  cat >&2 <<EOF
warthog.sh: Warthog binaries not found (looked for ${WARTHOG_BIN:-$WH_DIR/warthog} and
${WARTHOG_JPS_BIN:-$WH_DIR/warthog-jps}); their columns stay empty. To build them outside
the repository: put git snapshots of github.com/ShortestPathLab/warthog-core and
ShortestPathLab/warthog-jps in a folder as ShortestPathLab+warthog-core/repo and
ShortestPathLab+warthog-jps/repo, then run
    MIRRORS=<that folder> $SHARED/peers/tools/build_warthog.sh
(binaries in \$TMPDIR/perf/warthog/bin; see $SHARED/peers/README.md), or set
WARTHOG_BIN / WARTHOG_JPS_BIN to binaries built elsewhere.
EOF
fi

# ------------------------------------------------------------ maps
B=$SHARED/bench/movingai
MAPS=("$@")
if (( ${#MAPS[@]} == 0 )); then
  MAPS=("$B/dao/den520d.map" "$B/dao/brc202d.map" "$B/maze/maze512-1-0.map"
        "$B/random/random512-40-0.map" "$B/room/32room_000.map"
        "$B/street/Berlin_0_1024.map" "$B/street/Boston_0_1024.map")
  if [[ -n $GEN ]]; then
    mkdir -p "$GEN"
    for w in 2 4 8 16 32; do
      m=$GEN/gmaze512-$w.map
      if [[ ! -f $m.scen ]]; then
        echo "== generating $m (corridor $w)" >&2
        python3 "$SHARED/peers/gen/gen_maps.py" --kind maze --corridor "$w" --width 512 \
          --height 512 --max-queries 2000 --name "gmaze512-$w" --out "$GEN" >&2
      fi
      MAPS+=("$m")
    done
  fi
fi
OUT=${OUT:-$REPO/build/warthog-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT/pre"
RES=$OUT/results.txt
LOG=$OUT/log.txt
: > "$RES"
: > "$LOG"

# `astar bench --json` to a RESULT line: peer, map name, round.
to_result() {
  python3 -c '
import json, sys
j = json.load(sys.stdin)
print("RESULT peer=%s map=%s round=%s queries=%d solve_s=%.6f us_per_query=%.3f mean_exp=%.1f "
      "mismatch=%d pre_s=%.6f" % (sys.argv[1], sys.argv[2], sys.argv[3], j["queries"], j["seconds"],
      j["us_per_query"], j["mean_expansions"], j["mismatches"], j.get("pre_seconds", 0)))' "$@"
}

for map in "${MAPS[@]}"; do
  map=$(readlink -f "$map")
  scen=$map.scen
  [[ -f $map && -f $scen ]] || { echo "warthog.sh: $map or its .scen missing" >&2; exit 1; }
  name=$(basename "$map")
  sub=$OUT/subsets/$name.n$N.scen
  mkdir -p "$OUT/subsets"
  # The same rule run_all.sh applies to the file it hands Warthog.
  python3 "$SHARED/peers/tools/subsample_scen.py" "$scen" "$sub" "$N" >/dev/null
  pre=$OUT/pre/$name.jpsplus
  "$ASTAR" precompute "$map" -o "$pre" --method jps-plus >> "$LOG"
  echo "== $name ($(grep -vc '^version' "$sub") queries, $R rounds)" >&2
  for ((i = 1; i <= R; i++)); do
    for algo in "${OURS[@]}"; do
      a=${algo%-file}; a=${a%-built}; extra=()
      [[ $algo == jps-plus-file ]] && extra=(--pre "$pre")
      # To a file, read afterwards: a reader starting up beside the timed
      # process (python3 behind a pyenv shim: seconds of CPU on a loaded VM)
      # slowed it up to 2.5x in a trial, as run_all.sh notes for Warthog.
      $PIN "$ASTAR" bench --algo "$a" --map "$map" "$sub" --warmup 0 --json "${extra[@]}" \
        > "$OUT/bench.json"
      to_result "libastar-$algo" "$name" "$i" < "$OUT/bench.json" >> "$RES"
    done
    if [[ -n $WARTHOG_BIN$WARTHOG_JPS_BIN ]]; then
      t=$OUT/wh-round.txt
      rm -f "$t"
      # run_all.sh sends Warthog's per-query output to a file, then summarises it.
      wb=$WARTHOG_BIN wj=$WARTHOG_JPS_BIN
      ((WANT_ASTAR)) || wb=""
      [[ -n $WH_JPS_ALGS ]] || wj=""
      WARTHOG_BIN=$wb WARTHOG_JPS_BIN=$wj WARTHOG_JPS_ALGS="${WH_JPS_ALGS# }" \
        $PIN "$SHARED/peers/run_all.sh" -n "$N" -r 1 -p warthog -o "$t" "$map" "$scen" \
        > /dev/null 2>> "$LOG"
      sed "s/ map=\([^ ]*\)/ map=\1 round=$i/" "$t" >> "$RES"
    fi
  done
  # The subset Warthog answered must be the one we answered.
  cmp -s "$sub" "$SHARED/peers/build/subsets/$name.n$N.scen" ||
    [[ -z $WARTHOG_BIN$WARTHOG_JPS_BIN ]] ||
    { echo "warthog.sh: Warthog's subset of $name differs from ours" >&2; exit 1; }
done

status=0
python3 - "$RES" "$B" "${MAPS[@]}" > "$OUT/table.md" <<'PY' || status=$?
import os, re, sys
res, movingai, maps = sys.argv[1], os.path.realpath(sys.argv[2]), sys.argv[3:]
runs = {}
for line in open(res):
    if line.startswith("RESULT"):
        kv = dict(re.findall(r"(\w+)=(\S+)", line))
        runs.setdefault((kv["map"], kv["peer"]), []).append(kv)

def med(m, p):
    r = sorted(runs.get((m, p), []), key=lambda k: float(k["us_per_query"]))
    return r[len(r) // 2] if r else None

def best(m, p):
    r = [float(k["us_per_query"]) for k in runs.get((m, p), [])]
    return min(r) if r else None

def family(path):
    p = os.path.realpath(path)
    name = os.path.basename(p)
    g = re.match(r"gmaze512-(\d+)\.map$", name)
    if g:
        return "maze (gen., corridor %s)" % g.group(1)
    if os.path.dirname(os.path.dirname(p)) == movingai:
        return os.path.basename(os.path.dirname(p))
    return "-"

bad = sum(int(k.get("mismatch", 0)) + int(k.get("fail", 0)) for v in runs.values() for k in v)
pairs = [("A*", "libastar-astar", "wh-astar"), ("JPS", "libastar-jps", "wh-jps2"),
         ("JPS+ (file)", "libastar-jps-plus-file", "wh-jps2+"),
         ("JPS+ (built)", "libastar-jps-plus-built", "wh-jps2+")]
print("| family | map | ours / Warthog | libastar µs/query | Warthog µs/query | Warthog / libastar "
      "(fastest rounds) | libastar expansions | Warthog expansions | ns per expansion (ours / Warthog) |")
print("|---|---|---|---:|---:|---:|---:|---:|---:|")
worst = {}
for path in maps:
    m = os.path.basename(os.path.realpath(path))
    fam = family(path)
    for label, o, t in pairs:
        ko, kt = med(m, o), med(m, t)
        if not ko:
            continue
        uo = float(ko["us_per_query"])
        eo = float(ko["mean_exp"])
        ut = float(kt["us_per_query"]) if kt else None
        et = float(kt["mean_exp"]) if kt and kt["mean_exp"] != "NA" else None
        ratio = ut / uo if ut else None
        # Load from other processes only ever adds time: the ratio of the
        # fastest rounds is shown beside the ratio of the medians.
        rbest = best(m, t) / best(m, o) if ut else None
        if ratio is not None:
            key = (fam, label.split(" ")[0])
            worst[key] = min(worst.get(key, ratio), ratio)
        nse = "%.1f / %s" % (1e3 * uo / eo, "%.1f" % (1e3 * ut / et) if et else "—") \
            if label == "A*" and eo else ""
        print("| %s | %s | %s / %s | %.1f | %s | %s | %s | %s | %s |" % (
            fam, m.replace(".map", ""), label, t.replace("wh-", ""), uo,
            "%.1f" % ut if ut else "—", "**%.2f×** (%.2f×)" % (ratio, rbest) if ratio else "—",
            "{:,.0f}".format(eo), "{:,.0f}".format(et) if et is not None else "—", nse))
print()
print("Mismatches against the optimal lengths, all methods and rounds: %d." % bad)
if worst:
    print()
    print("Smallest Warthog / libastar ratio (of the medians) per family (targets: A* ≥ 3×; "
          "JPS and JPS+ > 1×):")
    print()
    fams = []
    for f, _ in worst:
        if f not in fams:
            fams.append(f)
    print("| family | A* (≥ 3×) | JPS vs jps2 (> 1×) | JPS+ vs jps2+ (> 1×) |")
    print("|---|---:|---:|---:|")
    for f in fams:
        cells = []
        for a, goal in (("A*", 3.0), ("JPS", 1.0), ("JPS+", 1.0)):
            r = worst.get((f, a))
            cells.append("—" if r is None else ("%.2f× %s" % (r, "met" if r > goal or
                         (a == "A*" and r >= goal) else "**not met**")))
        print("| %s | %s |" % (f, " | ".join(cells)))
sys.exit(1 if bad else 0)
PY
cat "$OUT/table.md"
echo "results: $RES" >&2
exit $status
