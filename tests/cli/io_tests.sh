#!/usr/bin/env bash
#
# io_tests.sh -- the tool never destroys or hangs (issue 25, items 3-8 and
# 10): output files are written whole or not at all and nothing the tool
# did not create is removed (/dev/full, a device node, a symbolic link, a
# file on a full disk); a --pre file that shrinks while it is loaded gives
# an error, never SIGBUS; every input is read once (process substitution,
# FIFOs); a map named with bench --map must be usable; no input is read past
# the largest size its format allows (/dev/zero as a map, --pre, --graph,
# standard input); a DIMACS header is checked against its arcs; a .p2p of
# no queries runs. Hangs and runaway memory fail through `timeout` and
# `ulimit -v` instead of stalling CI.
# Usage: io_tests.sh PATH/TO/astar REPO_ROOT

set -u

# shellcheck source=tests/cli/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_args "$@"
cli_tmp io
SMALL=$ROOT/tests/data/small
D=$ROOT/tests/data/dimacs
MAP=$SMALL/maze64-1.map

# Sanitizer runtimes reserve terabytes of address space: no `ulimit -v` then.
SANITIZED=0
if grep -aqE '__(asan|tsan|msan)_init' "$ASTAR"; then SANITIZED=1; fi

# run_bounded SECONDS ARGS...: `run` under a time limit and, unless
# sanitized, 1 GB of address space (the largest input limit, a map's 513 MiB,
# fits; reading /dev/zero without one does not).
run_bounded() {
  local secs=$1
  shift
  (
    if [ "$SANITIZED" -eq 0 ]; then ulimit -v 1000000; fi
    exec timeout "$secs" "$ASTAR" "$@"
  ) >"$OUT" 2>"$ERR"
  RC=$?
}

# run_full_disk ARGS...: `run` with writes beyond 16 KiB failing (EFBIG, the
# signal ignored): a full disk, for any user.
run_full_disk() {
  (
    trap '' XFSZ
    ulimit -f 16
    exec "$ASTAR" "$@"
  ) >"$OUT" 2>"$ERR"
  RC=$?
}

# expect_only NAME DIR FILE...: DIR holds exactly these names (no temporary
# file left behind).
expect_only() {
  local name=$1 dir=$2
  shift 2
  local got want
  got=$(find "$dir" -mindepth 1 -maxdepth 1 -printf '%f\n' | sort | tr '\n' ' ')
  want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
  if [ "$got" = "$want" ]; then ok; else fail "$name: $dir holds '$got', expected '$want'"; fi
}

# ---- item 3: precompute -o never removes what it did not create -------------------

# -o /dev/full: a write error, and the device stays. As root (CI) the test
# makes a node of its own for the same device (1, 7), which the old tool
# deleted just as it deleted /dev/full -- so running this test against a
# broken tool never harms the machine's /dev/full; without root, mknod
# fails, and /dev/full itself is safe from a removal.
mkdir "$TMP/dev"
FULL=/dev/full
if mknod "$TMP/dev/full" c 1 7 2>/dev/null &&
  { echo x >"$TMP/dev/full"; } 2>&1 | grep -q "No space left"; then # not a nodev mount
  FULL=$TMP/dev/full
fi
run precompute "$MAP" -o "$FULL"
expect_rc "-o /dev/full: a write error" 1
expect_err "-o /dev/full names the device and the reason" "$FULL: No space left on device"
if [ -c "$FULL" ]; then ok; else fail "-o removed the device node $FULL"; fi

mkdir "$TMP/out"
echo "old bytes" >"$TMP/out/old.jpp"
run_full_disk precompute "$MAP" -o "$TMP/out/old.jpp"
expect_rc "-o on a full disk" 1
expect_err "full disk names the file" "out/old\.jpp: File too large"
if [ "$(cat "$TMP/out/old.jpp")" = "old bytes" ]; then ok; else
  fail "a failed write changed the file that was there"
fi
expect_only "no temporary file after a failed write" "$TMP/out" old.jpp

ln -s old.jpp "$TMP/out/link.jpp"
run_full_disk precompute "$MAP" -o "$TMP/out/link.jpp"
expect_rc "-o a symbolic link on a full disk" 1
if [ -L "$TMP/out/link.jpp" ] && [ "$(cat "$TMP/out/old.jpp")" = "old bytes" ]; then ok; else
  fail "a failed write removed the link or changed its target"
fi
run precompute "$MAP" -o "$TMP/out/link.jpp"
expect_rc "-o a symbolic link" 0
if [ -L "$TMP/out/link.jpp" ] && [ "$(wc -c <"$TMP/out/old.jpp")" -eq 65576 ]; then ok; else
  fail "-o a link: the link is not kept or its target not written"
fi
expect_only "a link written: nothing else" "$TMP/out" old.jpp link.jpp
run bench "$MAP.scen" --algo jps-plus --pre "$TMP/out/link.jpp" --check --quiet
expect_rc "the file written through the link loads" 0

mkfifo "$TMP/out/fifo"
timeout 30 cat "$TMP/out/fifo" >"$TMP/fifo.jpp" &
reader=$!
run_bounded 20 precompute "$MAP" -o "$TMP/out/fifo"
wait "$reader"
expect_rc "-o a FIFO" 0
if [ -p "$TMP/out/fifo" ] && cmp -s "$TMP/fifo.jpp" "$TMP/out/old.jpp"; then ok; else
  fail "-o a FIFO: not written through, or removed"
fi

# The other writers: a picture, a trace and a converted graph on a full disk.
echo "old picture" >"$TMP/out/pic.svg"
run_full_disk render "$MAP" 1 1 61 61 -o "$TMP/out/pic.svg"
expect_rc "render -o on a full disk" 1
if [ "$(cat "$TMP/out/pic.svg")" = "old picture" ]; then ok; else fail "render replaced the picture"; fi
echo "old trace" >"$TMP/out/t.jsonl"
run_full_disk solve "$MAP" 1 1 61 61 --trace "$TMP/out/t.jsonl" --no-picture
expect_rc "solve --trace on a full disk" 1
if [ "$(cat "$TMP/out/t.jsonl")" = "old trace" ]; then ok; else fail "--trace replaced the file"; fi
echo "old graph" >"$TMP/out/g.gr"
run_full_disk convert "$SMALL/cave64.map" -o "$TMP/out/g.gr"
expect_rc "convert -o on a full disk" 1
if [ "$(cat "$TMP/out/g.gr")" = "old graph" ]; then ok; else fail "convert replaced the graph"; fi
expect_only "no temporary files from the writers" "$TMP/out" old.jpp link.jpp fifo pic.svg \
  t.jsonl g.gr

# ---- item 4: a --pre file shrinking while it is loaded ---------------------------
# shrink_shim.c cuts the file at the moment the tool opens, maps or reads
# it. A mapped file cut short faults (SIGBUS, exit 135); the tool reads
# into memory: a whole file or an error, never a signal.
SHIM=$TMP/shrink_shim.so
if ${CC:-cc} -shared -fPIC -O1 -o "$SHIM" "$ROOT/tests/cli/shrink_shim.c" -ldl 2>/dev/null; then
  for at in open mmap read; do
    for to in 0 100 5000; do
      run precompute "$MAP" -o "$TMP/s.jpp"
      LD_PRELOAD=$SHIM ASAN_OPTIONS=verify_asan_link_order=0 ASTAR_SHRINK_FILE=$TMP/s.jpp \
        ASTAR_SHRINK_TO=$to ASTAR_SHRINK_AT=$at \
        "$ASTAR" solve "$MAP" 1 1 61 61 --algo jps-plus --pre "$TMP/s.jpp" --no-picture \
        >"$OUT" 2>"$ERR"
      RC=$?
      if [ "$RC" -eq 0 ] || { [ "$RC" -eq 1 ] && grep -q "not a valid precomputation" "$ERR"; }; then
        ok
      else
        fail "--pre cut to $to bytes at $at: exit status $RC (a signal?)"
      fi
    done
  done
fi
# Cut before loading, at every kind of place: an error naming the file.
run precompute "$MAP" -o "$TMP/whole.jpp"
for n in 0 7 8 39 40 41 4096 65575; do
  head -c "$n" "$TMP/whole.jpp" >"$TMP/cut.jpp"
  run solve "$MAP" 1 1 61 61 --algo jps-plus --pre "$TMP/cut.jpp" --no-picture
  expect_rc "--pre cut to $n bytes" 1
  expect_err "--pre cut to $n bytes: named" "cut\.jpp: not a valid precomputation file"
done

# ---- item 5: every input read once ------------------------------------------------

# writer TEXT: write TEXT into the FIFO $TMP/map.fifo in the background;
# done_writing: stop it if the tool never opened the FIFO.
writer() {
  printf '%s' "$1" >"$TMP/map.fifo" &
  WRITER=$!
}
done_writing() {
  kill "$WRITER" 2>/dev/null
  wait "$WRITER" 2>/dev/null
}

run_bounded 20 solve <(printf 'S..G\n') --no-picture
expect_rc "solve <(process substitution)" 0
expect_out "process substitution: the path" "^cost: +3$"
run_bounded 20 solve <(printf 'hex pointy\nS . .\n . . G\n')
expect_rc "a hex map through process substitution" 0
expect_out "hex map read once: the path" "^cost: +3$"

mkfifo "$TMP/map.fifo"
writer $'S..G\n'
run_bounded 20 solve "$TMP/map.fifo" --no-picture
done_writing
expect_rc "a map given as a FIFO" 0
expect_out "FIFO map: the path" "^cost: +3$"
writer $'type octile\nheight 4\nwidth 4\nmap\n....\n....\n...T\n....\n'
run_bounded 20 solve "$TMP/map.fifo" 0 0 2 0 --size 2 --no-picture
done_writing
expect_rc "a FIFO map with a unit (its types from the same read)" 0
expect_out "FIFO map with a unit" "^unit: +2x2"

# bench: two scenarios of one --map, which is a FIFO: read once, used twice.
mkdir "$TMP/two"
cp "$MAP.scen" "$TMP/two/a.map.scen"
cp "$MAP.scen" "$TMP/two/b.map.scen"
writer "$(cat "$MAP")"
run_bounded 30 bench "$TMP/two/a.map.scen" "$TMP/two/b.map.scen" --map "$TMP/map.fifo" --check
done_writing
expect_rc "bench: two scenarios, --map a FIFO" 0
expect_out "both scenarios ran on it" "total \(2 maps\) +80 +80 +0 "

# ---- item 6: a map named that cannot be used is an error --------------------------

for m in /nonexistent /dev/null "$TMP"; do
  run_bounded 20 bench "$MAP.scen" --map "$m" --check
  expect_rc "bench --map $m" 1
  expect_err "bench --map $m names it" "^(astar: )?$m(:1:1)?: "
done
# The file beside the scenario exists but is no map: no looking elsewhere
# (the scenario's own map, maze64-1.map, is there to be found).
for kind in dir zero; do
  mkdir "$TMP/$kind"
  cp "$MAP" "$TMP/$kind/maze64-1.map"
  cp "$MAP.scen" "$TMP/$kind/x.map.scen"
  if [ "$kind" = dir ]; then mkdir "$TMP/$kind/x.map"; else ln -s /dev/zero "$TMP/$kind/x.map"; fi
  run_bounded 20 bench "$TMP/$kind/x.map.scen" --check
  expect_rc "bench: x.map beside the scenario is a $kind" 1
  expect_err "bench: x.map ($kind) named" "$kind/x\.map: (Is a directory|larger than)"
done

# ---- item 7: no input read past its format's largest size --------------------------

run_bounded 20 solve /dev/zero 0 0 1 1
expect_rc "/dev/zero as a map" 1
expect_err "/dev/zero as a map: the limit" \
  "/dev/zero: larger than 538017792 bytes, the most a map may hold"
run_bounded 20 solve - 0 0 1 1 </dev/zero
expect_rc "/dev/zero on standard input" 1
expect_err "/dev/zero on stdin: the limit" "^astar: -: larger than 538017792 bytes"
# A Moving AI header bounds its map: the header, the rows, 1 MiB more.
{ printf 'type octile\nheight 2\nwidth 2\nmap\n..\n..\n'; head -c 1100000 /dev/zero | tr '\0' '\n'; } \
  >"$TMP/long.map"
run_bounded 20 solve "$TMP/long.map" 0 0 1 1
expect_rc "a 2 x 2 map with 1.1 MB after its rows" 1
expect_err "the header's limit" "long\.map: larger than 1048617 bytes, the most a Moving AI map of 2 x 2"

run_bounded 20 solve "$MAP" 1 1 61 61 --algo jps-plus --pre /dev/zero --no-picture
expect_rc "/dev/zero as --pre" 1
expect_err "/dev/zero as --pre: not that format" "/dev/zero: not a valid precomputation file"
run_bounded 20 bench "$MAP.scen" --algo jps-plus --pre - --quiet < <(cat "$TMP/whole.jpp" /dev/zero)
expect_rc "a JPS+ file followed by /dev/zero" 1
expect_err "--pre: the format's size for the map" \
  "^astar: -: larger than 65576 bytes, the size of a JPS\+ file of this 64 x 64 map"

run_bounded 20 solve --graph /dev/zero 1 2
expect_rc "/dev/zero as --graph" 1
expect_err "--graph /dev/zero: the limit" \
  "/dev/zero: larger than 1048576 bytes, the most a DIMACS \.gr file may hold before its problem"
run_bounded 20 solve --graph - 1 2 < <(printf 'p sp 2 1\n'; yes c)
expect_rc "a .gr file of endless comments" 1
expect_err "--graph: the problem line's limit" \
  "^astar: -: larger than 1048841 bytes, the most a DIMACS \.gr file of 1 arcs"
run_bounded 20 solve --graph "$D/tiny.gr" --coords /dev/zero 1 5
expect_rc "/dev/zero as --coords" 1
expect_err "--coords /dev/zero: the limit" "/dev/zero: larger than 1048576 bytes"
run_bounded 20 bench --graph "$D/tiny.gr" --queries /dev/zero
expect_rc "/dev/zero as --queries" 1
expect_err "--queries /dev/zero: the limit" "/dev/zero: larger than 1048576 bytes"

# ---- item 8: a DIMACS header checked against the arcs -------------------------------

for n in 100000000 2147483647; do
  printf 'p sp %s 0\n' "$n" >"$TMP/h.gr"
  run_bounded 20 solve --graph "$TMP/h.gr" 1 2
  expect_rc "p sp $n 0" 1
  expect_err "p sp $n 0: says what is wrong, where" \
    "h\.gr:1:6: problem line 'p sp N M': N $n exceeds 2 M \+ 1048576 = 1048576"
done

# ---- item 10: a .p2p of no queries ----------------------------------------------------

printf 'c none\np aux sp p2p 0\n' >"$TMP/none.p2p"
run_bounded 20 bench --graph "$D/tiny.gr" --queries "$TMP/none.p2p" --check
expect_rc "a .p2p of no queries" 0
expect_out "no queries run" "^ +0 +0 +0 "
if grep -q "out of memory" "$ERR"; then fail "no queries: 'out of memory'"; else ok; fi

cli_summary
