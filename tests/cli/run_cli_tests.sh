#!/usr/bin/env bash
#
# run_cli_tests.sh -- end-to-end checks of the astar command-line tool:
# outputs, exit statuses (0 ok, 1 runtime failure, 2 usage error) and error
# messages. Usage: run_cli_tests.sh PATH/TO/astar REPO_ROOT
# Prints one line per failed check and "N passed, M failed" at the end;
# exits non-zero if any check failed.

set -u

# shellcheck source=tests/cli/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_args "$@"
if [ ! -x "$ASTAR" ]; then
  echo "$0: $ASTAR is not an executable" >&2
  exit 2
fi

cli_tmp cli

# ---- fixtures ----------------------------------------------------------------

# The tutorial's example as an ASCII map: wall at x=3 for y=1..3.
cat >"$TMP/tutorial.txt" <<'EOF'
; seed 000's example
.......
...#...
.S.#.G.
...#...
.......
EOF

# Moving AI maps and scenarios, in a directory tree for `bench`; the map
# field inside the scen is deliberately wrong (the tool must ignore it).
mkdir -p "$TMP/bench/sub"
printf 'type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n' >"$TMP/bench/walls.map"
printf 'version 1\n0\tmaps/nowhere.map\t4\t3\t0\t0\t3\t0\t3\n0\tmaps/nowhere.map\t4\t3\t0\t0\t3\t2\t5\n0\tmaps/nowhere.map\t4\t3\t0\t0\t1\t2\t3\n' \
  >"$TMP/bench/walls.map.scen"
printf 'type octile\r\nheight 3\r\nwidth 5\r\nmap\r\n.....\r\n.....\r\n.....' >"$TMP/bench/sub/open.map"
printf 'version 1\n1\topen.map\t5\t3\t0\t0\t4\t2\t4.82842712\n1\topen.map\t5\t3\t4\t0\t0\t0\t4\n' \
  >"$TMP/bench/sub/open.map.scen"
# The same map with one wrong optimal length, for --check.
mkdir -p "$TMP/wrong"
cp "$TMP/bench/walls.map" "$TMP/wrong/walls.map"
printf 'version 1\n0\tw\t4\t3\t0\t0\t3\t0\t3\n0\tw\t4\t3\t0\t0\t3\t2\t4.5\n' >"$TMP/wrong/walls.map.scen"

printf 'S..#\n...#\n.x.G\n' >"$TMP/bad.txt"
printf 'S.#.\n..#G\n..#.\n' >"$TMP/nopath.txt"

# ---- help and dispatch ---------------------------------------------------------

run --help
expect_rc "astar --help" 0
expect_out "astar --help lists commands" "^  run "
expect_out "astar --help lists solve" "^  solve "
expect_out "astar --help lists bench" "^  bench "
expect_out "astar --help documents exit status" "Exit status"

for cmd in run solve bench; do
  run "$cmd" --help
  expect_rc "astar $cmd --help" 0
  expect_out "astar $cmd --help shows usage" "usage: astar $cmd"
done

run --version
expect_rc "astar --version" 0
expect_out "astar --version" "[0-9]+\.[0-9]+\.[0-9]+"

run frobnicate
expect_rc "unknown command" 2
expect_one_line_err "unknown command"
expect_err "unknown command names it" "frobnicate"

run
expect_rc "no command" 2

# ---- run -------------------------------------------------------------------------

run run
expect_rc "astar run" 0
expect_out "astar run prints the tutorial cost" "^cost: +68$"
expect_out "astar run draws the start" "S"
expect_out "astar run draws a path" "\*"

run run --tutorial --tie larger-g
expect_rc "astar run --tutorial --tie larger-g" 0
expect_out "tutorial cost does not depend on ties" "^cost: +68$"

# ---- solve -------------------------------------------------------------------------

run solve "$TMP/tutorial.txt" --costs 10,14
expect_rc "solve tutorial map (S/G from the map)" 0
expect_out "solve tutorial cost" "^cost: +68$"
expect_out "solve prints the path" "\(1,2\) .*\(5,2\)"

run solve "$TMP/tutorial.txt" 1 2 5 2 --costs=10,14 --heuristic=zero
expect_rc "solve with coordinates and --opt=value" 0
expect_out "solve --heuristic=zero cost" "^cost: +68$"

run solve "$TMP/bench/walls.map" 0 0 3 2
expect_rc "solve Moving AI map" 0
expect_out "solve Moving AI map cost" "^cost: +5$"
expect_out "solve draws a picture" "^ *0 \|S"

run solve "$TMP/bench/sub/open.map" 0 0 4 2
expect_rc "solve CRLF map" 0
expect_out "solve diagonal cost" "^cost: +4\.828427"

run solve "$TMP/nopath.txt"
expect_rc "solve without a path" 1
expect_out "solve reports no path" "no path"

run solve "$TMP/bench/walls.map" 0 0 1 1
expect_rc "solve to a blocked goal" 1

run solve "$TMP/bench/walls.map" 0 0 3 2 --moves 4 --weight 2 --tie cross --corner never \
  --reopen always --max-expansions 1000 --heuristic manhattan
expect_rc "solve with every search option" 0

# ---- usage errors (exit 2, one line) ---------------------------------------------------

run solve "$TMP/tutorial.txt" --frobnicate
expect_rc "unknown option" 2
expect_one_line_err "unknown option"
expect_err "unknown option names it" "--frobnicate"

run solve "$TMP/tutorial.txt" --weight abc
expect_rc "bad --weight" 2
expect_one_line_err "bad --weight"
expect_err "bad --weight message" "--weight.*'abc'"

run solve "$TMP/tutorial.txt" --weight=-1
expect_rc "negative --weight" 2

run solve "$TMP/tutorial.txt" --moves 6
expect_rc "bad --moves" 2
expect_one_line_err "bad --moves"

run solve "$TMP/tutorial.txt" --heuristic fast
expect_rc "bad --heuristic" 2
expect_err "bad --heuristic lists choices" "octile"

run solve "$TMP/tutorial.txt" --costs 10
expect_rc "bad --costs" 2

run solve "$TMP/tutorial.txt" 1 2 x 2
expect_rc "bad coordinate" 2
expect_one_line_err "bad coordinate"
expect_err "bad coordinate message" "'x'"

run solve "$TMP/tutorial.txt" 1 2 3
expect_rc "wrong number of coordinates" 2

run bench "$TMP/bench" --algo nosuch
expect_rc "unknown --algo" 2
expect_one_line_err "unknown --algo"

run bench "$TMP/bench" --limit zero
expect_rc "bad --limit" 2

# Numbers so large that sums of costs could overflow are refused.
run solve "$TMP/tutorial.txt" --weight 1e308
expect_rc "--weight 1e308" 2
expect_err "--weight names its range" "--weight: expected a number >= 0 and <= 1e.09"
run solve "$TMP/tutorial.txt" --costs 1,1e300
expect_rc "--costs 1,1e300" 2

# Output that cannot be written is a failure, for every command.
if [[ -w /dev/full ]]; then
  for args in "--help" "run" "solve $TMP/tutorial.txt" "bench $TMP/bench"; do
    # shellcheck disable=SC2086
    "$ASTAR" $args >/dev/full 2>"$TMP/full.err"
    rc=$?
    if [[ $rc != 0 ]] && grep -q "error writing standard output" "$TMP/full.err"; then ok; else
      fail "astar $args >/dev/full: exit $rc, $(head -c 200 "$TMP/full.err")"
    fi
  done
fi

run bench "$TMP/bench" --warmup -1
expect_rc "bad --warmup" 2
expect_err "--warmup names its range" "--warmup.*from 0 to"

run bench "$TMP/bench" --warmup 0 --json
expect_rc "bench --warmup 0" 0
expect_out "JSON records the warm-up" '"warmup":0,'

# The progress line of a long map is for terminals only: with stderr a file,
# nothing is written there (tools/progress.h).
run bench "$ROOT/tests/data/small" --algo dijkstra --repeat 20
expect_rc "bench --repeat 20" 0
if [ -s "$ERR" ]; then fail "bench wrote to a non-terminal stderr"; else ok; fi

# --threads: one batch per map (astar/batch.h), the same answers.
run bench "$ROOT/tests/data/small" --threads 2 --check --json
expect_rc "bench --threads 2 --check" 0
expect_out "JSON records the threads" '"threads":2,'
expect_out "bench --threads solves every query" '"mismatches":0,'
run bench "$ROOT/tests/data/small" --algo jps-plus --threads 3 --check --quiet
expect_rc "bench --algo jps-plus --threads 3 --check" 0
run bench "$TMP/bench" --threads 257
expect_rc "bad --threads" 2
expect_err "--threads names its range" "--threads.*from 0 to 256"
run bench "$TMP/bench" --threads 2 --algo bidir
expect_rc "--threads with an engine method: a finder's batch" 0
run bench "$TMP/bench" --threads 2 --algo astar --space graph
expect_rc "--threads with --space graph" 2
expect_err "--threads names what it runs" "a finder's batch: not --space graph"

# Golden path hashes: --hash writes the lines, --golden checks them.
run bench "$ROOT/tests/data/small" --hash --every 3
expect_rc "bench --hash" 0
expect_out "bench --hash prints ALGO EVERY SCEN HASH" '^astar 3 maze64-1.map.scen [0-9a-f]{16}$'
cp "$OUT" "$TMP/golden.txt"
run bench "$ROOT/tests/data/small" --every 3 --golden "$TMP/golden.txt" --quiet
expect_rc "bench --golden with its own hashes" 0
sed 's/ \([0-9a-f]\)\([0-9a-f]*\)$/ \2\1/' "$TMP/golden.txt" >"$TMP/golden-bad.txt"
run bench "$ROOT/tests/data/small" --every 3 --golden "$TMP/golden-bad.txt" --quiet
expect_rc "bench --golden with other hashes" 1
expect_err "bench --golden names the map" "maze64-1.map: the paths of --algo astar --every 3 differ"
run bench "$ROOT/tests/data/small" --every 2 --golden "$TMP/golden.txt" --quiet
expect_rc "bench --golden without a line for --every 2" 1
expect_err "bench --golden says which line is missing" "no line 'astar 2 "
printf 'astar 1 x.scen nothex\n' >"$TMP/golden-malformed.txt"
run bench "$ROOT/tests/data/small" --golden "$TMP/golden-malformed.txt"
expect_rc "bench --golden with a malformed file" 1
expect_err "a malformed golden file names file and line" "golden-malformed.txt:1:"
run bench "$ROOT/tests/data/small" --hash --threads 2
expect_rc "bench --hash --threads" 2

run bench
expect_rc "bench without PATH" 2

# ---- runtime failures (exit 1, naming the file) --------------------------------------------

run solve "$TMP/does-not-exist.map" 0 0 1 1
expect_rc "missing map file" 1
expect_err "missing map file is named" "does-not-exist\.map"

run solve "$TMP/bad.txt"
expect_rc "malformed map" 1
expect_err "malformed map has file:line:col" "bad\.txt:3:2:"

run bench "$TMP/does-not-exist"
expect_rc "missing bench path" 1
expect_err "missing bench path is named" "does-not-exist"

mkdir -p "$TMP/orphan"
cp "$TMP/bench/walls.map.scen" "$TMP/orphan/"
run bench "$TMP/orphan"
expect_rc "scen without its map" 1
expect_err "scen without its map names the map" "orphan/walls\.map"

# ---- bench -----------------------------------------------------------------------------

run bench "$TMP/bench" --check
expect_rc "bench --check on a directory" 0
expect_out "bench finds nested scen files" "sub/open\.map"
expect_out "bench total line" "^total \(2 maps\) +5 +5 +0 "

run bench "$TMP/bench/walls.map.scen" --limit 1 --quiet
expect_rc "bench one file --limit --quiet" 0
expect_out "bench --limit 1" "^total \(1 map\) +1 +1 +0 "

run bench "$TMP/bench" --every 2
expect_rc "bench --every" 0
expect_out "bench --every 2 runs 3 of 5" "^total \(2 maps\) +3 "

run bench "$TMP/wrong" --check
expect_rc "bench --check with a mismatch" 1
expect_err "bench --check lists the mismatch as SCEN:LINE" "^mismatch: [^ ]*wrong/walls\.map\.scen:3: expected 4\.5, got 5$"

# A GPPC scenario writes optimal length 0 for a pair with no path: bench
# expects no path there and counts those queries apart (a length 0 for one
# and the same cell stays an ordinary query). Lines: version, then queries.
mkdir -p "$TMP/gppc"
printf 'type octile\nheight 3\nwidth 5\nmap\n..@..\n..@..\n..@..\n' >"$TMP/gppc/g.map"
printf 'version 1\n0\tg.map\t5\t3\t0\t0\t1\t2\t2.41421356\n0\tg.map\t5\t3\t0\t0\t4\t2\t0\n0\tg.map\t5\t3\t3\t0\t4\t2\t2.41421356\n0\tg.map\t5\t3\t1\t1\t1\t1\t0\n0\tg.map\t5\t3\t4\t0\t3\t0\t0\n' \
  >"$TMP/gppc/g.map.scen"
run bench "$TMP/gppc/g.map.scen" --check
expect_rc "bench --check: a reachable pair written 0 is the one mismatch" 1
expect_err "bench --check: that mismatch by SCEN:LINE" "^mismatch: [^ ]*gppc/g\.map\.scen:6: expected no path \(optimal length 0\), got 1$"
expect_err "bench --check: one mismatch of five" "1 of 5 queries mismatched"
expect_out "bench: the no-path queries counted apart" "^no path expected: 2 of the 5 queries .*GPPC.*, 1 answered no path$"
expect_out "bench: solved counts the queries with a path" "^total \(1 map\) +5 +3 +1 "
head -n 5 "$TMP/gppc/g.map.scen" >"$TMP/gppc/ok.scen"
run bench "$TMP/gppc/ok.scen" --map "$TMP/gppc/g.map" --check --json
expect_rc "bench --check: an unreachable pair written 0 matches" 0
if python3 - "$OUT" <<'EOF'; then ok; else fail "bench --json: no_path_expected / no_path_found"; fi
import json, sys
d = json.load(open(sys.argv[1]))
assert (d["queries"], d["solved"], d["mismatches"]) == (4, 3, 0), d
assert (d["no_path_expected"], d["no_path_found"]) == (1, 1), d
assert d["maps"][0]["no_path_expected"] == 1
EOF
# Only unreachable pairs: nothing to solve is no failure.
printf 'version 1\n0\tg.map\t5\t3\t0\t0\t4\t2\t0\n' >"$TMP/gppc/none.scen"
run bench "$TMP/gppc/none.scen" --map "$TMP/gppc/g.map" --check
expect_rc "bench: every query expects no path and finds none" 0

run bench "$TMP/wrong"
expect_rc "bench without --check ignores mismatches" 0
expect_out "bench counts the mismatch" "^total \(1 map\) +2 +2 +1 "

run bench "$TMP/bench" --json
expect_rc "bench --json" 0
if python3 -m json.tool <"$OUT" >/dev/null 2>&1; then ok; else fail "bench --json output is not JSON"; fi
if python3 - "$OUT" <<'EOF'; then ok; else fail "bench --json fields"; fi
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("queries", "solved", "mismatches", "seconds", "us_per_query", "mean_expansions", "maps"):
    assert k in d, k
assert d["queries"] == 5 and d["solved"] == 5 and d["mismatches"] == 0
assert len(d["maps"]) == 2
for m in d["maps"]:
    for k in ("map", "scen", "queries", "solved", "mismatches", "seconds", "mean_expansions"):
        assert k in m, k
assert [m["map"].rsplit("/", 2)[-2:] for m in d["maps"]] == [["sub", "open.map"], ["bench", "walls.map"]]  # sorted by path
EOF

if [ -d "$ROOT/tests/data/small" ] && find "$ROOT/tests/data/small" -name '*.scen' | grep -q .; then
  run bench "$ROOT/tests/data/small" --check
  expect_rc "bench --check on tests/data/small" 0
  run bench "$ROOT/tests/data/small" --json
  if python3 -m json.tool <"$OUT" >/dev/null 2>&1; then ok; else fail "tests/data/small --json"; fi
fi

# ---- game-loop options of solve, simulate, group -------------------------------

cat >"$TMP/wall.txt" <<'EOF'
S.......#.......
........#.......
........#.......
........#......G
........#.......
EOF
run solve "$TMP/wall.txt"
expect_rc "solve: walled-off goal" 1
run solve "$TMP/wall.txt" --partial --no-picture
expect_rc "solve --partial (not a full path)" 1
expect_out "solve --partial says partial" "^status: +partial path"
expect_out "solve --partial ends at the wall" "ends at \(7,3\)"
run solve "$TMP/wall.txt" --islands --no-picture
expect_out "solve --islands: no expansion" "expanded 0,"
run solve "$TMP/wall.txt" --retarget --no-picture
expect_rc "solve --retarget" 0
expect_out "solve --retarget says the goal was replaced by the nearest cell" "^goal: +replaced \(--retarget\).*\(7,3\)"
run solve "$TMP/tutorial.txt" --budget 3 --no-picture
expect_rc "solve --budget" 0
expect_out "solve --budget counts steps" "[0-9]+ steps"
run solve "$TMP/tutorial.txt" --goals "1,4;2,0" --no-picture
expect_out "solve --goals reaches the nearest goal" "^reached: +\(1,4\)"
run solve "$TMP/tutorial.txt" --region 4,0,6,4 --no-picture
expect_out "solve --region reaches the rectangle" "^reached: +\(4,[0-9]\)"
run solve "$TMP/tutorial.txt" --fog 1 --unknown blocked --no-picture
expect_rc "solve --fog with unknown blocked" 1
run solve "$TMP/tutorial.txt" --turn-penalty 2 --no-picture
expect_rc "solve --turn-penalty" 0
run solve "$TMP/tutorial.txt" --cone 2,2,3,5 --refine --no-picture
expect_out "solve --refine prints the draft" "^draft: "
run solve "$TMP/tutorial.txt" --cone 1,2
expect_rc "solve --cone with two numbers" 2
expect_one_line_err "solve --cone error"
# Cell coordinates are integers from 0 to 32767, whatever the option: a
# NaN, a huge or a fractional value is a usage error naming the option and
# the range (it was converted to int: undefined behaviour, or truncated).
for bad in "--goals nan,1" "--goals 1e20,1" "--goals 55.9,11.9" "--goals 1,1;" \
  "--goals -1,2" "--goals 1,+2" "--goals 99999999999999999999,1" "--region 0,0,1e20,5" \
  "--region 0,0,2.5,4" "--cone 1e20,1,5,1" "--cone 2.5,2,3,5" "--cone 2,2,1e300,5" \
  "--cone 2,2,3,nan" "--cone 2,2,0,5"; do
  # shellcheck disable=SC2086 # the option and its value, split on purpose
  run solve "$TMP/tutorial.txt" $bad --no-picture
  expect_rc "solve $bad" 2
  expect_one_line_err "solve $bad"
  expect_err "solve $bad names the option and the range" "^astar: ${bad%% *}: expected .*from 0 to 32767"
done
for bad in "1.5 2 5 2" "1 2 5 1e3" "1 2 nan 2" "1 2 5 32768"; do
  # shellcheck disable=SC2086
  run solve "$TMP/tutorial.txt" $bad --no-picture
  expect_rc "solve $bad" 2
  expect_err "solve $bad: the range" "^astar: [SG][XY]: expected a cell coordinate, an integer from 0 to 32767, got"
done
# Cells of --goals and --region outside the map: the rule of a start or
# goal outside the map (usage error, exit 2).
run solve "$TMP/tutorial.txt" --goals "1,4;7,0" --no-picture
expect_rc "solve --goals outside the map" 2
expect_err "solve --goals outside: says which cell" "^astar: solve: --goals: the cell \(7,0\) lies outside the 7 x 5 map"
run solve "$TMP/tutorial.txt" --region 4,0,6,5 --no-picture
expect_rc "solve --region outside the map" 2
expect_err "solve --region outside: says which cell" "^astar: solve: --region: the cell \(6,5\) lies outside"
run solve "$TMP/tutorial.txt" --cone 6,4,3,5 --goals "6,4" --region 0,0,6,4 --no-picture
expect_rc "solve --cone/--goals/--region at the map's last cell" 0
run solve "$TMP/tutorial.txt" --algo jps --budget 5
expect_rc "game-loop options need astar" 2
run simulate "$TMP/tutorial.txt" --agents 5 --budget 4
expect_rc "simulate" 0
expect_out "simulate reports frames" "frames"
# simulate: turn penalties are reserved, a run without a single path fails,
# islands answer unreachable goals at submission, grid edits restart or
# drop the searches in progress (every result checked one-shot).
run simulate "$TMP/tutorial.txt" --agents 3 --budget 50 --turn-penalty 1
expect_rc "simulate --turn-penalty" 0
expect_out "simulate --turn-penalty: every request ok" "^finished: 3 of 3 \(ok 3\)"
expect_out "simulate --turn-penalty shows the penalty" "turn penalty 1"
run simulate "$TMP/wall.txt" --agents 3 --budget 5 --unreachable 3
expect_rc "simulate: no request found a path" 1
expect_out "simulate: says no path was found" "no request found a path"
expect_out "simulate: unreachable goals flood without islands" "0 of them at submission"
run simulate "$TMP/wall.txt" --agents 6 --budget 5 --unreachable 2 --islands
expect_rc "simulate --islands --unreachable" 0
expect_out "simulate --islands answers at submission" "^answered: 2 at submission"
expect_out "simulate --islands: no wait" "2 finished, 2 of them at submission, latency max 1 frames"
expect_out "simulate --islands: results identical" "results identical, totals equal"
run simulate "$TMP/tutorial.txt" --agents 3 --budget 5 --unreachable 1
expect_rc "simulate --unreachable on a single island" 1
expect_one_line_err "simulate --unreachable on a single island: message"
run simulate "$TMP/tutorial.txt" --agents 3 --budget 5 --unreachable 4
expect_rc "simulate --unreachable > --agents" 2
run simulate "$TMP/tutorial.txt" --agents 3 --budget 5 --restarts -1
expect_rc "simulate --restarts -1" 2
CAVE=$ROOT/tests/data/small/cave64.map
run simulate "$CAVE" --agents 30 --budget 200 --edits 2
expect_rc "simulate --edits" 0
expect_out "simulate --edits restarts searches" "^edits: .* [1-9][0-9]* searches restarted"
expect_out "simulate --edits: results identical" "results identical"
run simulate "$CAVE" --agents 30 --budget 200 --edits 1 --restarts 0
expect_rc "simulate --edits --restarts 0" 0
expect_out "simulate --restarts 0: stale, never restarted" \
  "^edits: .* 0 searches restarted, [1-9][0-9]* ended stale \(--restarts 0\)"
expect_out "simulate --restarts 0: stale results reported" "^finished: 30 of 30 \(.*grid changed"
run simulate "$CAVE" --agents 30 --budget 200 --edits 1 --restarts 0 --islands --turn-penalty 1
expect_rc "simulate --edits with islands and turns" 0
expect_out "simulate --edits with islands: results identical" "results identical"
run group "$TMP/tutorial.txt" 5 2 --units 4
expect_rc "group" 0
expect_out "group costs agree" "agree for every unit"
run group "$TMP/tutorial.txt" 3 2
expect_rc "group: blocked goal" 1

# ---- what a new user tripped over (issue 8) -----------------------------------------

# bench --turn-penalty reserves the turn states; every query is solved.
run bench "$TMP/bench" --turn-penalty 1 --quiet
expect_rc "bench --turn-penalty runs" 0
expect_out "bench --turn-penalty solves every query" "^total \(2 maps\) +5 +5 "
# A run that solves nothing never exits 0, --check or not.
run bench "$TMP/bench" --max-expansions 1 --quiet
expect_rc "bench with nothing solved fails" 1
expect_err "bench with nothing solved says so" "none of the 5 queries was solved"

# A scen whose map is missing: named with its line; the other maps still run.
mkdir -p "$TMP/mixed/a" "$TMP/mixed/b"
printf 'version 1\n\n0\tnowhere.map\t4\t3\t0\t0\t3\t0\t3\n' >"$TMP/mixed/a/lost.map.scen"
cp "$TMP/bench/walls.map" "$TMP/bench/walls.map.scen" "$TMP/mixed/b/"
run bench "$TMP/mixed" --quiet
expect_rc "bench: a missing map fails the run" 1
expect_err "bench: the missing map names the scen and its line" "a/lost\.map\.scen:3: map 'nowhere\.map' not found"
expect_out "bench: the other maps still run" "^total \(1 map\) +3 +3 "
# ... and the scen's map field finds a map the file name rule does not.
mkdir -p "$TMP/field"
cp "$TMP/bench/walls.map" "$TMP/field/real.map"
printf 'version 1\n0\tmaps/real.map\t4\t3\t0\t0\t3\t0\t3\n' >"$TMP/field/renamed.scen"
run bench "$TMP/field" --check --quiet
expect_rc "bench: map found by the scen's map field" 0
expect_out "bench: map field query solved" "^total \(1 map\) +1 +1 +0 "

# Options a command ignores are refused.
run bench "$TMP/bench" --unknown blocked
expect_rc "bench --unknown refused" 2
expect_one_line_err "bench --unknown refused"
run solve "$TMP/tutorial.txt" --unknown blocked
expect_rc "solve --unknown without --fog refused" 2

# Unsupported options and maps: the reason, named.
run bench "$TMP/bench" --algo jps --moves 4
expect_rc "bench --algo jps --moves 4" 2
expect_err "jps with 4 moves says why" "JPS needs 8 moves"
printf '....\n.55.\n....\n' >"$TMP/terrain.txt"
run solve "$TMP/terrain.txt" 0 0 3 2 --algo jps
expect_rc "jps on a terrain map" 1
expect_err "jps on a terrain map says why" "jps: the grid has terrain costs; JPS needs uniform costs"

# Start or goal out of bounds: which one, a usage error on stderr.
run solve "$TMP/tutorial.txt" 0 0 70 3
expect_rc "solve: goal outside" 2
expect_one_line_err "solve: goal outside"
expect_err "solve: goal outside names it" "the goal \(70,3\) lies outside the 7 x 5 map"
run solve "$TMP/tutorial.txt" 9 0 1 1
expect_err "solve: start outside names it" "the start \(9,0\)"

# Integers: one true message for every rejected value.
run solve "$TMP/tutorial.txt" --budget 0
cp "$ERR" "$TMP/budget0"
run solve "$TMP/tutorial.txt" --budget 1e20
if cmp -s <(sed "s/'.*'//" "$TMP/budget0") <(sed "s/'.*'//" "$ERR"); then ok; else fail "--budget 0 and 1e20 get different messages"; fi
expect_err "--budget states the range" "expected an integer from 1 to 1000000000"
run solve "$TMP/tutorial.txt" --max-expansions 99999999999999999999999
expect_err "--max-expansions states the range" "from 0 to 18446744073709551615"

# Size limits on a map name file, line and column.
printf 'type octile\nheight 3\nwidth 99999999\nmap\n...\n' >"$TMP/huge.map"
run solve "$TMP/huge.map" 0 0 1 1
expect_rc "solve: map beyond the limits" 1
expect_err "size limit names line and column" "huge\.map:3:7: width 99999999 exceeds"

# JPS+: the precomputation is timed apart from the search; --pre in solve.
run precompute "$TMP/bench/walls.map" -o "$TMP/walls.jpp"
expect_rc "precompute walls" 0
run solve "$TMP/bench/walls.map" 0 0 3 2 --algo jps-plus --no-picture
expect_out "solve jps-plus reports the precomputation apart" "^prepared: precomputed in"
run solve "$TMP/bench/walls.map" 0 0 3 2 --algo jps-plus --pre "$TMP/walls.jpp" --no-picture
expect_rc "solve --pre" 0
expect_out "solve --pre loads the file" "^prepared: loaded .*walls\.jpp"
run solve "$TMP/bench/walls.map" 0 0 3 2 --pre "$TMP/walls.jpp"
expect_rc "solve --pre needs jps-plus" 2
# A regular file is mapped, anything else read; both are checked alike.
run bench "$TMP/bench/walls.map.scen" --algo jps-plus --pre "$TMP/walls.jpp" --check
expect_rc "bench --pre (mapped file)" 0
run bench "$TMP/bench/walls.map.scen" --algo jps-plus --pre - --check <"$TMP/walls.jpp"
expect_rc "bench --pre - (read from standard input)" 0
: >"$TMP/empty.jpp"
run bench "$TMP/bench/walls.map.scen" --algo jps-plus --pre "$TMP/empty.jpp"
expect_rc "bench --pre of an empty file" 1
expect_err "an empty file is not a precomputation" "empty\.jpp: not a valid precomputation"
run bench "$TMP/bench/walls.map.scen" --algo jps-plus --pre "$TMP"
expect_rc "bench --pre of a directory" 1
# The jump distances do not depend on the costs: a file built for --costs
# 10,14 (or the defaults) serves every cost JPS takes; the rules it never
# takes are refused by precompute, solve and bench alike (exit 2).
CAVE=$ROOT/tests/data/small/cave64.map
run precompute "$CAVE" -o "$TMP/cave.jpp" --costs 10,14
expect_rc "precompute jps-plus --costs 10,14" 0
expect_out "the rules line: any costs" "^rules: +8 moves, corners no-cut, any costs S <= D < 2S"
run solve "$CAVE" 9 24 60 12 --costs 10,14 --no-picture
want=$(grep '^cost' "$OUT")
run solve "$CAVE" 9 24 60 12 --algo jps-plus --pre "$TMP/cave.jpp" --costs 10,14 --no-picture
if [ -n "$want" ] && [ "$(grep '^cost' "$OUT")" = "$want" ]; then ok; else
  fail "jps-plus --pre --costs 10,14: not A*'s $want"
fi
run solve "$CAVE" 9 24 60 12 --costs 2,3 --no-picture
want=$(grep '^cost' "$OUT")
run solve "$CAVE" 9 24 60 12 --algo jps-plus --pre "$TMP/cave.jpp" --costs 2,3 --no-picture
if [ -n "$want" ] && [ "$(grep '^cost' "$OUT")" = "$want" ]; then ok; else
  fail "jps-plus --pre (built for 10,14) --costs 2,3: not A*'s $want"
fi
for rules in "--moves 4:JPS needs 8 moves" "--corner always:JPS needs the no-corner-cutting rule"; do
  why=${rules#*:}
  rules=${rules%%:*}
  # shellcheck disable=SC2086 # two words
  run precompute "$CAVE" -o "$TMP/r.jpp" $rules
  expect_rc "precompute jps-plus $rules" 2
  expect_err "precompute jps-plus $rules says why" "precompute: --method jps-plus: $why"
  # shellcheck disable=SC2086
  run solve "$CAVE" 9 24 60 12 --algo jps-plus --pre "$TMP/cave.jpp" $rules --no-picture
  expect_rc "solve jps-plus --pre $rules" 2
  expect_err "solve jps-plus --pre $rules says why" "--algo jps-plus: $why"
  # shellcheck disable=SC2086
  run bench "$CAVE.scen" --algo jps-plus --pre "$TMP/cave.jpp" $rules
  expect_rc "bench jps-plus --pre $rules" 2
done
if [ -e "$TMP/r.jpp" ]; then fail "a refused precompute wrote a file"; else ok; fi

# The engine's variants of Patel 4 (--algo ida|beam|dynamic|bandwidth|f2f|retarget)
# and their settings, each accepted with its own method only.
for a in ida f2f; do
  run solve "$TMP/tutorial.txt" --algo "$a" --costs 10,14 --no-picture
  expect_rc "solve --algo $a" 0
  expect_out "solve --algo $a is optimal" "^cost: +68$"
done
run solve "$TMP/tutorial.txt" --algo ida --costs 10,14 --no-picture
expect_out "solve --algo ida reports its iterations" "^iterations: [1-9][0-9]* "
run solve "$TMP/tutorial.txt" --algo retarget --costs 10,14 --no-picture
expect_rc "solve --algo retarget" 0
expect_out "solve --algo retarget reports its legs" "^legs: +[1-9]"
run solve "$TMP/tutorial.txt" --algo dynamic --epsilon 0.5 --costs 10,14 --no-picture
expect_rc "solve --algo dynamic --epsilon" 0
expect_out "dynamic: the setting in the options line" "algorithm dynamic, epsilon 0.5"
cost=$(sed -n 's/^cost: *//p' "$OUT")
if awk -v c="$cost" 'BEGIN { exit !(c >= 68 && c <= 1.5 * 68) }'; then ok; else fail "dynamic cost $cost not within 1.5 x 68"; fi
run solve "$TMP/tutorial.txt" --algo bandwidth --band-e 0 --band-d 100 --costs 10,14 --no-picture
expect_rc "solve --algo bandwidth" 0
expect_out "bandwidth with h in its band is optimal here" "^cost: +68$"
expect_out "bandwidth reports its drops" "^dropped: +[0-9]+ "
run solve "$TMP/tutorial.txt" --algo beam --width 1 --costs 10,14 --no-picture
expect_out "beam of width 1 reports its drops" "^dropped: +[1-9]"
run solve "$TMP/nopath.txt" --algo beam --width 2 --no-picture
expect_rc "beam: no path" 1
for bad in "--algo astar --width 3" "--algo dynamic --width 3" "--algo beam --epsilon 2" \
  "--algo ida --band-e 1" "--algo dynamic --band-d 1" "--space graph --algo astar --epsilon 1"; do
  # shellcheck disable=SC2086 # word splitting wanted
  run solve "$TMP/tutorial.txt" $bad
  expect_rc "solve $bad: a setting of another method" 2
  expect_one_line_err "solve $bad"
done
run solve "$TMP/tutorial.txt" --algo beam --width 0
expect_rc "--width 0" 2
expect_err "--width states the range" "expected an integer from 1 to 4294967295"
run solve "$TMP/tutorial.txt" --algo dynamic --epsilon -1
expect_rc "--epsilon -1" 2
run bench "$TMP/bench" --algo ida
expect_rc "bench --algo ida" 0
expect_out "bench ida: iterations column" "mean iterations"
expect_out "bench ida: optimal" "^total \(2 maps\) +5 +5 +0 "
run bench "$TMP/bench" --algo f2f --check
expect_rc "bench --algo f2f --check" 0
run bench "$TMP/bench" --algo beam --width 2 --json
expect_rc "bench --algo beam --json" 0
expect_out "bench beam: mean_dropped in JSON" '"mean_dropped":'
run bench "$TMP/bench" --algo bandwidth --band-e 1 --band-d 2
expect_out "bench bandwidth: dropped column" "mean dropped"
run bench "$TMP/bench" --algo dynamic --epsilon 3
expect_out "bench dynamic: the mean cost ratio" "cost/opt"
run bench "$TMP/bench" --algo dynamic --json
expect_out "bench dynamic: mean_cost_ratio in JSON" '"mean_cost_ratio":1\.'
run bench "$TMP/bench" --algo astar
if grep -q "cost/opt" "$OUT"; then fail "bench astar: no ratio column for an optimal method"; else ok; fi
run bench "$TMP/bench" --algo retarget --quiet
expect_out "bench retarget: one total line with the legs" "^total .* [0-9.]+$"
run bench "$TMP/bench" --algo bidir --width 4
expect_rc "bench --width needs beam" 2
expect_one_line_err "bench --width needs beam"

# --space waypoints: any-angle paths over the waypoint graph.
printf '..........\n..........\n....##....\nS...##...G\n..........\n' >"$TMP/block.txt"
run solve "$TMP/block.txt" --space waypoints
expect_rc "solve --space waypoints" 0
expect_out "waypoints: the Euclidean cost" "^cost: +9\.24504019 "
expect_out "waypoints: the bends" "^waypoints: 3 \(2 segments\): \(0,3\) \(6,4\) \(9,3\)"
expect_out "waypoints: the walk is a grid path" "^cells: +11 walked along the segments, a legal grid path"
expect_out "waypoints: marked in the picture" "^ *4 \|\.\.\.\*\*\*o\*\.\.\|"
expect_out "waypoints: the graph is preprocessing" "^prepared: waypoint graph built in"
run solve "$TMP/block.txt" --space waypoints --algo bidir --no-picture
expect_rc "solve --space waypoints --algo bidir" 0
expect_out "waypoints: bidir finds the same cost" "^cost: +9\.24504019 "
run solve "$TMP/block.txt" --space waypoints --algo jps
expect_rc "waypoints: jps has no waypoint version" 2
expect_err "waypoints: jps refused by name" "jps searches the grid only"
run solve "$TMP/block.txt" --space waypoints --moves 4
expect_rc "waypoints: 4 moves refused" 2
expect_err "waypoints: 4 moves explained" "needs diagonal moves"
run solve "$TMP/block.txt" --space waypoints --pre "$TMP/walls.jpp"
expect_rc "waypoints: --pre refused" 2
if [ -d "$ROOT/tests/data/small" ] && find "$ROOT/tests/data/small" -name '*.scen' | grep -q .; then
  run bench "$ROOT/tests/data/small" --space waypoints --check
  expect_rc "bench --space waypoints: never longer than optimal" 0
  expect_out "bench --space waypoints: the ratio column" "cost/opt"
  expect_out "bench --space waypoints: no violation" "^total \([0-9]+ maps\) +([0-9]+) +\1 +0 "
  run bench "$ROOT/tests/data/small" --space waypoints --json --limit 5
  if python3 -m json.tool <"$OUT" >/dev/null 2>&1; then ok; else fail "waypoints --json"; fi
  expect_out "bench --space waypoints --json: the ratio" '"mean_cost_ratio":0\.9'
fi

# Any-angle searches (astar/anyangle.h): Theta*, Lazy Theta*, string pulling.
for algo in theta lazy-theta; do
  run solve "$TMP/block.txt" --algo "$algo"
  expect_rc "solve --algo $algo" 0
  expect_out "$algo: the Euclidean cost" "^cost: +9\.24504019 "
  expect_out "$algo: the bends" "^waypoints: 3 \(2 segments\): \(0,3\) \(6,4\) \(9,3\)"
  expect_out "$algo: the walk is a grid path" "^cells: +11 walked along the segments, a legal grid path"
  expect_out "$algo: named in the status" "^status: +path found \(any-angle, .*Theta\*"
done
run solve "$TMP/block.txt" --algo anya
expect_rc "solve --algo anya" 0
expect_out "anya: the Euclidean shortest path, along the wall's corners" "^cost: +9\.071067812 "
expect_out "anya: the points, corners whole" "^ +\(0\.5,3\.5\) \(4,4\) \(6,4\) \(9\.5,3\.5\)$"
run solve "$TMP/block.txt" --any-angle anya --no-picture
expect_out "--any-angle anya is --algo anya" "^cost: +9\.071067812 "
run solve "$TMP/block.txt" --any-angle astar
expect_rc "--any-angle: only the any-angle searches" 2
expect_err "--any-angle: the accepted names" "expected one of theta\|lazy-theta\|anya"
run solve "$TMP/block.txt" --algo anya --corner always
expect_rc "anya: squeezing corner rule refused" 2
expect_one_line_err "anya: squeezing corner rule refused"
run solve "$TMP/block.txt" --algo anya --weight 2
expect_rc "anya: weight refused" 2
run solve "$TMP/block.txt" --smooth --no-picture
expect_rc "solve --smooth" 0
expect_out "smooth: the bends" "^waypoints: 3 \(2 segments\): \(0,3\) \(6,4\) \(9,3\)"
expect_out "smooth: the grid path it came from" "^smoothed: the grid path of 10 cells and cost 9\.828427125"
run solve "$TMP/block.txt" --algo theta --terrain-scale 0.5
expect_rc "theta: terrain scale refused" 2
expect_err "theta: refusal explained" "--algo theta: --terrain-scale is the grid A\*'s: use --algo astar"
run solve "$TMP/block.txt" --algo theta --smooth
expect_rc "theta: --smooth refused" 2
expect_one_line_err "theta: --smooth refused"
run solve "$TMP/block.txt" --algo theta --space graph
expect_rc "theta: not on the engine" 2
if [ -d "$ROOT/tests/data/small" ] && find "$ROOT/tests/data/small" -name '*.scen' | grep -q .; then
  for variant in "--algo theta" "--algo lazy-theta" "--algo anya" "--algo jps --smooth"; do
    # shellcheck disable=SC2086 # the variant is two words
    run bench "$ROOT/tests/data/small" $variant --check
    expect_rc "bench $variant: never longer than optimal" 0
    expect_out "bench $variant: the ratio column" "cost/opt"
    expect_out "bench $variant: every path, no violation" "^total \([0-9]+ maps\) +([0-9]+) +\1 +0 "
  done
  run bench "$ROOT/tests/data/small" --algo bidir --smooth
  expect_rc "bench --smooth: engine methods refused" 2
fi

# ---- hex maps ------------------------------------------------------------------------

HEXP=$ROOT/tests/data/hex/pointy.hex
HEXF=$ROOT/tests/data/hex/flat.hex

run solve "$HEXP"
expect_rc "hex: solve the pointy sample" 0
expect_out "hex: the map line names the shape" "^map: .*\(hex pointy odd-r, 12 x 8, 77 open cells, with terrain costs\)"
expect_out "hex: options are the engine's" "^options:  algorithm astar, heuristic hex distance"
expect_out "hex: cost" "^cost: +16$"
expect_out "hex: path as offset coordinates" "^path: +\(0,2\) \(1,2\) \(2,2\) \(2,3\) \(3,4\)"
expect_out "hex: drawing, even row" "^  2  S \* \* \. # "
expect_out "hex: drawing, shoved row indented" "^  3   \. \. \* \. # "
expect_out "hex: legend" "^legend: S start, G goal, \* path"

# Every optimal method finds the same cost; greedy a path.
for algo in dijkstra bidir; do
  run solve "$HEXP" --algo "$algo" --no-picture
  expect_rc "hex: --algo $algo" 0
  expect_out "hex: --algo $algo is optimal" "^cost: +16$"
  expect_out "hex: --algo $algo is named" "algorithm $algo"
done
run solve "$HEXP" --algo greedy --weight 1 --tie newest --reopen always
expect_rc "hex: --algo greedy" 0
expect_out "hex: greedy reaches the goal" "^reached:  \(11,6\)"

run solve "$HEXF" 0 0 9 5 --algo bidir
expect_rc "hex: flat map with coordinates" 0
expect_out "hex: flat map cost" "^cost: +15$"
expect_out "hex: flat map, shoved columns on the lower line" "^     S   \*   #   \.   \.$"

# Standard input is read once, looked at, then parsed.
run solve - --no-picture <"$HEXF"
expect_rc "hex: map on standard input" 0
expect_out "hex: stdin map line" "^map: +\(stdin\) \(hex flat even-q"

printf 'hex pointy\n. . #\n # . .\n. . .\n' >"$TMP/walled.hex"
run solve "$TMP/walled.hex" 0 0 2 0
expect_rc "hex: goal blocked" 1
expect_out "hex: goal blocked status" "goal cell is blocked"
printf 'hex flat\nS # .\n# # G\n' >"$TMP/nopath.hex"
run solve "$TMP/nopath.hex"
expect_rc "hex: no path" 1
expect_out "hex: no path status" "no path"
run solve "$TMP/nopath.hex" --max-expansions 1 --partial
expect_out "hex: partial path" "partial path"

# Options before the map: the map decides its kind after the command line
# is read (an option taking a value before MAP.hex was taken for the map).
run solve --landmarks 4 "$HEXF" --no-picture
expect_rc "hex: --landmarks 4 before the map" 0
expect_out "hex: --landmarks before the map: the landmarks" "^prepared: "
expect_out "hex: --landmarks before the map: the optimal cost" "^cost: +15$"
run solve --landmark-choice avoid --algo=bidir "$HEXF" 0 0 9 5 --no-picture
expect_rc "hex: options before and after the map" 0
run solve --moves 4 "$HEXF"
expect_rc "hex: a square-map option before the map" 2
expect_err "hex: a square-map option before the map, by name" "--moves is an option of square maps"
run render --cell 20 "$HEXF" -o "$TMP/hexcell.svg"
expect_rc "hex: render --cell before the map" 0

# Usage errors: one line, exit 2.
run solve "$HEXP" --moves 4
expect_rc "hex: square-map option" 2
expect_one_line_err "hex: square-map option"
expect_err "hex: square-map option explained" "--moves is an option of square maps"
run solve "$HEXP" --algo jps
expect_rc "hex: --algo jps" 2
expect_err "hex: --algo choices" "astar\|dijkstra\|greedy\|bidir"
run solve "$HEXP" --frobnicate
expect_rc "hex: unknown option" 2
expect_one_line_err "hex: unknown option"
run solve "$HEXP" 0 0 12 0
expect_rc "hex: goal outside" 2
expect_err "hex: goal outside message" "lies outside the 12 x 8 map"
run solve "$TMP/walled.hex"
expect_rc "hex: no S or G" 2
expect_one_line_err "hex: no S or G"
run solve "$HEXP" --help
expect_rc "hex: solve --help" 0
expect_out "hex: solve --help on a hex map" "usage: astar solve MAP.hex"

# Parse errors name file, line and column.
printf 'hex pointy odd-q\n...\n' >"$TMP/badhead.hex"
run solve "$TMP/badhead.hex"
expect_rc "hex: bad header" 1
expect_one_line_err "hex: bad header"
expect_err "hex: bad header position" "badhead\.hex:1:12: layout odd-q is for flat maps"
printf 'hex flat\n. . .\n. . . .\n' >"$TMP/ragged.hex"
run solve "$TMP/ragged.hex"
expect_rc "hex: ragged row" 1
expect_err "hex: ragged row position" "ragged\.hex:3:7: row 2 \(y=1\) has 4 cells, expected 3"

# Every command of `astar --help` is in the README's tool list, and back.
run --help
if [ -f "$ROOT/README.md" ]; then
  for c in $(sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p' "$OUT"); do
    if grep -Eq "^    astar $c( |$)" "$ROOT/README.md"; then ok; else fail "README's tool list lacks '$c'"; fi
  done
  for c in $(sed -n 's/^    astar \([a-z][a-z-]*\).*/\1/p' "$ROOT/README.md" | sort -u); do
    if grep -Eq "^  $c " "$OUT"; then ok; else fail "README lists '$c', astar --help does not"; fi
  done
fi

cli_summary
