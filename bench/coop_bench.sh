#!/usr/bin/env bash
#
# coop_bench.sh -- cooperative search cost per agent vs independent A*
# (astar/spacetime.h, `astar simulate --cooperative | --walk`): for N agents
# on a few Moving AI maps, expansions and planning time per agent of
# independent A* (octile heuristic; collisions counted), full cooperative A*
# and windowed WHCA* (both with a distance-field heuristic per goal, whose
# build time is reported apart), their ratios to A*, makespan, sum of costs
# and collisions. Pinned to one CPU; planning times are medians of 3 runs
# (expansions are deterministic).
# Usage: bench/coop_bench.sh [PATH/TO/astar] [MOVINGAI_DIR]
#   env AGENTS="10 50 100 200" WINDOW=16 MAPS="dao/den520d room/32room_000 ..."
#       MODES="walk full window" (full cooperative A* on a crowded maze takes
#       minutes: MODES="walk window" leaves it out)

set -u
ASTAR=${1:-build/astar}
DIR=${2:-/work/shared/bench/movingai}
AGENTS=${AGENTS:-10 50 100 200}
WINDOW=${WINDOW:-16}
MAPS=${MAPS:-dao/den520d room/32room_000 maze/maze512-8-0}
CPU=${CPU:-1}
MODES=${MODES:-walk full window}

# field NAME FILE: the value after "NAME" on the matching line.
us_per_agent() { sed -n 's/.*planning [0-9.]* ms (\([0-9.]*\) us per agent.*/\1/p' "$1"; }
expanded() { sed -n 's/.*searches, \([0-9]*\) expanded (\([0-9.]*\) per agent).*/\2/p' "$1"; }
makespan() { sed -n 's/^makespan: \([0-9]*\) steps; sum of costs \([0-9.]*\).*/\1 \2/p' "$1"; }
collisions() { sed -n 's/^collisions: \([0-9]*\) .*/\1/p' "$1"; }
arrived() { sed -n 's/^arrived:  \([0-9]*\) of.*/\1/p' "$1"; }
fields_ms() { sed -n 's/^fields:   [0-9]* distance fields in \([0-9.]*\) ms.*/\1/p' "$1"; }
median3() { printf '%s\n' "$@" | sort -g | sed -n 2p; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '| map | N | mode | exp/agent | x A* | us/agent | x A* | fields ms | makespan | sum of costs | arrived | collisions |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|\n'
for m in $MAPS; do
  for n in $AGENTS; do
    base_exp=""; base_us=""
    for mode in $MODES; do
      case $mode in
        walk) args=(--walk) ;;
        full) args=(--cooperative) ;;
        window) args=(--cooperative --window "$WINDOW") ;;
      esac
      t=()
      for r in 1 2 3; do
        taskset -c "$CPU" "$ASTAR" simulate "$DIR/$m.map" --agents "$n" "${args[@]}" >"$tmp/o$r" 2>&1
        t+=("$(us_per_agent "$tmp/o$r")")
      done
      us=$(median3 "${t[@]}")
      ex=$(expanded "$tmp/o1")
      if [ "$mode" = walk ]; then base_exp=$ex; base_us=$us; fi
      rx=$(awk -v a="$ex" -v b="$base_exp" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
      rt=$(awk -v a="$us" -v b="$base_us" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
      read -r ms soc <<<"$(makespan "$tmp/o1")"
      label=$mode; [ "$mode" = window ] && label="WHCA* W=$WINDOW"
      [ "$mode" = walk ] && label="independent A*"
      [ "$mode" = full ] && label="CA* full"
      f=$(fields_ms "$tmp/o1"); f=${f:--}
      printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "${m#*/}" "$n" \
        "$label" "$ex" "$rx" "$us" "$rt" "$f" "$ms" "$soc" "$(arrived "$tmp/o1")/$n" \
        "$(collisions "$tmp/o1")"
    done
  done
done
