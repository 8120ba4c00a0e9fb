#!/usr/bin/env bash
# fuzz/run.sh -- builds the libFuzzer harnesses of fuzz/ (clang, ASTAR_FUZZ=ON),
# replays every target's committed corpus fuzz/corpus/<target>/ (any crash
# fails), then fuzzes each target for a bounded time -- one libFuzzer process
# a target does both, one process at a time -- and prints per target the
# inputs run (execs) and the coverage libFuzzer reports at the end (cov:
# edges, ft: features), then a summary.
# docs/fuzzing.md tells how to run long, add a target and reproduce a crash.
#
#   fuzz/run.sh [-t SECONDS] [-b BUILD_DIR] [--replay-only] [--build-only] [TARGET...]
#
#   -t SECONDS     fuzzing time per target (default $FUZZ_SECONDS, else 5;
#                  0: replay only). CI uses 4 s a target (.ci/run, stage fuzz).
#   -b BUILD_DIR   build tree (default build-fuzz), configured here when new,
#                  with CMAKE_BUILD_TYPE $FUZZ_BUILD_TYPE (default None: -O0
#                  without debug information, the quickest to build; Debug
#                  adds line numbers to the reports; RelWithDebInfo runs
#                  several times as many inputs a second, for long runs)
#   --replay-only  replay the corpora, no fuzzing (the same as -t 0)
#   --build-only   configure and build, nothing else
#   TARGET         movingai_map movingai_scen ascii_map hex_map dimacs jps_plus
#                  search path mesh poly (default: all)
#
# What the fuzzing finds that adds coverage goes to a scratch corpus
# ($FUZZ_WORK, default BUILD_DIR/fuzz-work/<target>), not into fuzz/corpus/:
# fuzz/seed.sh --add merges it in. A crash leaves its input in
# BUILD_DIR/fuzz-work/artifacts/ and the command that replays it is printed.
# Extra libFuzzer flags for the fuzzing runs go in $FUZZ_FLAGS (say
# -max_len=8192; no -jobs: one fuzzer at a time, the machines have 2 cores).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2

SECONDS_PER=${FUZZ_SECONDS:-5}
BUILD=build-fuzz
REPLAY_ONLY=0
BUILD_ONLY=0
ALL=(movingai_map movingai_scen ascii_map hex_map dimacs jps_plus search path mesh poly)
TARGETS=()
while [[ $# -gt 0 ]]; do
  case $1 in
    -t) SECONDS_PER=$2; shift 2 ;;
    -b) BUILD=$2; shift 2 ;;
    --replay-only) REPLAY_ONLY=1; shift ;;
    --build-only) BUILD_ONLY=1; shift ;;
    -h | --help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) TARGETS+=("$1"); shift ;;
  esac
done
[[ ${#TARGETS[@]} -gt 0 ]] || TARGETS=("${ALL[@]}")
[[ $SECONDS_PER =~ ^[0-9]+$ ]] || { echo "error: -t wants whole seconds" >&2; exit 2; }
[[ $SECONDS_PER == 0 ]] && REPLAY_ONLY=1

# ---- build -----------------------------------------------------------------
JOBS=$(nproc 2>/dev/null || echo 2)
CC_FUZZ=${CC_FUZZ:-$(command -v clang || command -v clang-14 || true)}
[[ -n $CC_FUZZ ]] || { echo "error: clang not found (apt-get install clang libclang-rt-14-dev)" >&2; exit 1; }
if [[ ! -f $BUILD/CMakeCache.txt ]]; then
  CC=$CC_FUZZ cmake -S . -B "$BUILD" -DASTAR_FUZZ=ON -DCMAKE_BUILD_TYPE="${FUZZ_BUILD_TYPE:-None}" \
    -DASTAR_BUILD_TOOLS=OFF -DASTAR_BUILD_TESTS=OFF -DASTAR_BUILD_EXAMPLES=OFF >/dev/null || exit 1
fi
t0=$SECONDS
cmake --build "$BUILD" -j "$JOBS" >"$BUILD/fuzz-build.log" 2>&1 || {
  tail -n 30 "$BUILD/fuzz-build.log" >&2
  echo "error: building the harnesses failed (log: $BUILD/fuzz-build.log)" >&2
  exit 1
}
echo "built the harnesses in $BUILD ($((SECONDS - t0)) s)"
[[ $BUILD_ONLY == 1 ]] && exit 0

WORK=${FUZZ_WORK:-$BUILD/fuzz-work}
ART=$WORK/artifacts
mkdir -p "$ART"
# Under libFuzzer: every sanitizer finding aborts; leaks are reported.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# flags_for TARGET: the libFuzzer flags every run of TARGET gets.
flags_for() {
  local f=(-timeout=25 -rss_limit_mb=2048 "-artifact_prefix=$ART/$1-")
  [[ -f fuzz/dict/$1.dict ]] && f+=("-dict=fuzz/dict/$1.dict")
  echo "${f[@]}"
}

passed=0
failed=0
total_execs=0
summary=()
for t in "${TARGETS[@]}"; do
  bin=$BUILD/fuzz/fuzz_$t
  if [[ ! -x $bin ]]; then
    echo "error: no harness $bin" >&2
    failed=$((failed + 1))
    continue
  fi
  corpus=fuzz/corpus/$t
  mkdir -p "$corpus" "$WORK/$t"
  log=$WORK/$t.log
  nfiles=$(find "$corpus" -type f | wc -l)
  # One process does both: libFuzzer runs every input of the corpora it is
  # given once before it mutates any ("INITED"), so (a) the replay of the
  # committed corpus, then (b) fuzzing until SECONDS_PER seconds from the
  # start, new inputs going to the scratch corpus (the first directory).
  # shellcheck disable=SC2046,SC2086 # the flags are words
  if [[ $REPLAY_ONLY == 1 ]]; then
    "$bin" $(flags_for "$t") -runs=0 "$corpus" >"$log" 2>&1
  else
    "$bin" $(flags_for "$t") ${FUZZ_FLAGS:-} -max_total_time="$SECONDS_PER" -print_final_stats=1 \
      "$WORK/$t" "$corpus" >"$log" 2>&1
  fi
  rc=$?
  inited=$(grep -Eo "INITED cov: [0-9]+ ft: [0-9]+" "$log" | tail -n 1)
  inited=${inited#INITED }
  if [[ $rc != 0 ]] || grep -q "Test unit written" "$log"; then
    if [[ -z $inited ]]; then
      echo "--- $t: corpus replay FAILED (exit $rc)"
    else
      execs=$(grep -Eo "^#[0-9]+" "$log" | tail -n 1)
      echo "--- $t: FAILED while fuzzing, after ${execs#\#} execs (exit $rc)"
    fi
    grep -E "check failed|ERROR|SUMMARY|Test unit written" "$log" | head -n 12
    echo "    reproduce: $bin <the input named above>    (log: $log)"
    failed=$((failed + 1))
    summary+=("$t: FAILED")
    continue
  fi
  if [[ $REPLAY_ONLY == 1 ]]; then
    echo "--- $t: replayed $nfiles inputs, ok ($inited)"
    summary+=("$t: $nfiles replayed, $inited")
    passed=$((passed + 1))
    continue
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  cov=$(grep -Eo "cov: [0-9]+ ft: [0-9]+" "$log" | tail -n 1)
  execs=${execs:-0}
  total_execs=$((total_execs + execs))
  echo "--- $t: replayed $nfiles inputs ($inited); fuzzed ${SECONDS_PER} s: $execs execs, $cov"
  summary+=("$t: $execs execs, $cov")
  passed=$((passed + 1))
done

echo
echo "summary: ${#TARGETS[@]} targets, $total_execs execs in ${SECONDS_PER} s a target"
printf '  %s\n' "${summary[@]}"
echo "fuzz: $passed passed, $failed failed"
[[ $failed == 0 ]]
