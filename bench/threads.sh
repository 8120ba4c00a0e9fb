#!/usr/bin/env bash
# threads.sh -- does a batch of short queries scale with threads? `astar
# bench --threads 1` (pinned to one core) against `--threads T` on the same
# map and queries, interleaved rounds, the median of each and their ratio,
# with the machine's load and the scheduler's view of this session (docs/
# performance.md "Many queries, all cores").
#
# usage: bench/threads.sh [-a ALGO] [-t T] [-r ROUNDS] [-p PASSES] [MAP]
#   -a ALGO    method (default jps)
#   -t T       threads of the parallel runs (default 2)
#   -r ROUNDS  rounds, each one run of 1 thread then one of T (default 3)
#   -p PASSES  --repeat of every run: the median pass is its figure (default 5)
#   MAP        a Moving AI .map, its .map.scen beside it (default
#              ../shared/bench/movingai/street/Berlin_0_1024.map: JPS answers
#              its 3,850 queries in about 30 µs each)
# env: ASTAR (default <repo>/build/astar), SHARED (default <repo>/../shared),
#      PIN (default "taskset -c 1": where the one-thread runs go),
#      AUTOGROUP_NICE (default unset): run in a session of its own whose CPU
#      weight is this nice value (-20 .. 19; negative needs root).
#
# Why the session matters: with autogroup scheduling
# (/proc/sys/kernel/sched_autogroup_enabled = 1) the kernel shares the CPUs
# equally between *sessions*, and the threads of one process share their
# session's part. On a machine where other sessions are busy, a second thread
# then gets no CPU the first did not already lose: 1 thread or 2 run at the
# same speed whatever the library does. The script prints the CPU time the
# runs got (user + system over wall, from /usr/bin/time when present) so that
# a ratio limited by the share shows as such.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${SHARED:-$REPO/../shared}
ASTAR=${ASTAR:-$REPO/build/astar}
PIN=${PIN-taskset -c 1}
ALGO=jps; T=2; R=3; P=5
usage() { sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while getopts "a:t:r:p:h" opt; do
  case $opt in
    a) ALGO=$OPTARG ;; t) T=$OPTARG ;; r) R=$OPTARG ;; p) P=$OPTARG ;; *) usage ;;
  esac
done
shift $((OPTIND - 1))
for v in T R P; do
  [[ ${!v} =~ ^[1-9][0-9]*$ ]] || { echo "threads.sh: -${v,,}: expected a positive integer, got '${!v}'" >&2; exit 2; }
done
(( $# <= 1 )) || usage
MAP=${1:-$SHARED/bench/movingai/street/Berlin_0_1024.map}
[[ -f $MAP && -f $MAP.scen ]] || { echo "threads.sh: $MAP or $MAP.scen missing" >&2; exit 1; }
[[ -x $ASTAR ]] || { echo "threads.sh: $ASTAR not built (run make)" >&2; exit 1; }
if [[ -n ${AUTOGROUP_NICE:-} && -z ${THREADS_SH_SESSION:-} ]]; then
  exec env THREADS_SH_SESSION=1 setsid --wait "$0" "$@"
fi
if [[ -n ${AUTOGROUP_NICE:-} ]]; then
  echo "$AUTOGROUP_NICE" 2>/dev/null > /proc/self/autogroup ||
    echo "threads.sh: cannot set the session's weight (AUTOGROUP_NICE=$AUTOGROUP_NICE)" >&2
fi
if [[ -n $PIN ]] && ! $PIN true 2>/dev/null; then PIN=""; fi
TIME=(); [[ -x /usr/bin/time ]] && TIME=(/usr/bin/time -f "%U %S %e" -o)
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT

echo "map $(basename "$MAP"), --algo $ALGO, --repeat $P; 1 thread (${PIN:-unpinned}) against $T"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); autogroup scheduling:" \
  "$(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null || echo n/a);" \
  "this session: $(cat /proc/self/autogroup 2>/dev/null || echo n/a)"
# run THREADS: prints µs per query and the CPUs the run kept busy.
run() {
  local pin=() busy=""
  [[ $1 == 1 && -n $PIN ]] && read -ra pin <<<"$PIN"
  if ((${#TIME[@]})); then
    "${TIME[@]}" "$TMP/t" "${pin[@]}" "$ASTAR" bench --algo "$ALGO" --map "$MAP" "$MAP.scen" \
      --threads "$1" --repeat "$P" --json > "$TMP/j"
    busy=$(awk '{ if ($3 > 0) printf "%.2f", ($1 + $2) / $3 }' "$TMP/t")
  else
    "${pin[@]}" "$ASTAR" bench --algo "$ALGO" --map "$MAP" "$MAP.scen" --threads "$1" \
      --repeat "$P" --json > "$TMP/j"
  fi
  python3 -c 'import json, sys; j = json.load(open(sys.argv[1]))
assert j["mismatches"] == 0, "mismatches"
print("%.3f" % j["us_per_query"])' "$TMP/j" | tr '\n' ' '
  echo "${busy:-?}"
}
one=(); many=()
for ((i = 1; i <= R; i++)); do
  read -r a ba <<<"$(run 1)"
  read -r b bb <<<"$(run "$T")"
  one+=("$a"); many+=("$b")
  echo "round $i: 1 thread $a µs/query (CPUs busy $ba), $T threads $b µs/query (CPUs busy $bb)"
done
python3 - "${one[*]}" "${many[*]}" "$T" <<'PY'
import statistics, sys
one = [float(x) for x in sys.argv[1].split()]
many = [float(x) for x in sys.argv[2].split()]
m1, mt = statistics.median(one), statistics.median(many)
print("median: 1 thread %.2f µs/query, %s threads %.2f µs/query: speed-up %.2fx" % (m1, sys.argv[3], mt, m1 / mt))
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
