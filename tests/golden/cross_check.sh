#!/usr/bin/env bash
# tests/golden/cross_check.sh -- the same paths on other platforms: builds
# tests/golden/golden_check.c with the library for each target below and
# checks its hashes against tests/golden/movingai.txt (which the release
# build's conformance tests check on every query, gcc -O3 x86-64):
#
#   i386   32-bit x86, gcc -O2 with SSE2 arithmetic (as CMake builds it
#          there), run under qemu-i386: every 500th query (emulated: slow)
#   clang  clang -O3 -march=native: every 100th query
#   wasm   WebAssembly (emcc -O2), run under Node: every 200th query
#
#   tests/golden/cross_check.sh [MOVINGAI_DIR] [TARGET...]   (default: all three)
#
# Installs what a target needs with apt-get when it is missing (Debian's
# gcc-i686-linux-gnu and qemu-user, clang, emscripten); .ci/run's
# determinism stage runs it. Each target prints "N passed, M failed".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
BENCH=../shared/bench/movingai
if [[ $# -gt 0 && -d $1 ]]; then
  BENCH=$1
  shift
fi
TARGETS=("$@")
[[ ${#TARGETS[@]} -gt 0 ]] || TARGETS=(i386 clang wasm)
GOLDEN=tests/golden/movingai.txt
OUT=build-cross
mkdir -p "$OUT"
mapfile -t SOURCES < <(find src -name '*.c' | sort)
SOURCES+=(tests/golden/golden_check.c)
FLAGS=(-std=c11 -ffp-contract=off -Iinclude -Isrc)
JOBS=$(nproc 2>/dev/null || echo 2)

# build NAME CC COMPILE_FLAGS... -- LINK_FLAGS...: the sources compiled
# JOBS at a time into $OUT/NAME/, then linked into $OUT/golden_check_NAME.
build() {
  local name=$1 cc=$2
  shift 2
  local cflags=()
  while [[ $# -gt 0 && $1 != -- ]]; do
    cflags+=("$1")
    shift
  done
  [[ $# -gt 0 ]] && shift
  rm -rf "${OUT:?}/$name"
  mkdir -p "$OUT/$name"
  local src obj objs=() pids=() failed=0 pid
  for src in "${SOURCES[@]}"; do
    obj=$OUT/$name/$(echo "$src" | tr / _).o
    objs+=("$obj")
    "$cc" "${FLAGS[@]}" "${cflags[@]}" -c "$src" -o "$obj" &
    pids+=($!)
    if [[ ${#pids[@]} -ge $JOBS ]]; then
      wait "${pids[0]}" || failed=1
      pids=("${pids[@]:1}")
    fi
  done
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  [[ $failed == 0 ]] || { echo "cross_check: $name: compilation failed" >&2; return 1; }
  "$cc" "${objs[@]}" "$@" -o "$OUT/golden_check_$name"
}

need() { # need COMMAND PACKAGE...: install the packages when COMMAND is missing
  local cmd=$1
  shift
  command -v "$cmd" >/dev/null && return 0
  echo "installing $*"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"; } \
    >/dev/null || { echo "error: could not install $*" >&2; return 1; }
}

status=0
for target in "${TARGETS[@]}"; do
  t0=$SECONDS
  case $target in
    i386)
      need i686-linux-gnu-gcc gcc-i686-linux-gnu
      need qemu-i386 qemu-user
      build i386 i686-linux-gnu-gcc -O2 -msse2 -mfpmath=sse -- -static -lm -pthread
      run=(qemu-i386 "$OUT/golden_check_i386" "$GOLDEN" "$BENCH" 500)
      ;;
    clang)
      need clang clang
      build clang clang -O3 -march=native -- -lm -pthread
      run=("$OUT/golden_check_clang" "$GOLDEN" "$BENCH" 100)
      ;;
    wasm)
      need emcc emscripten
      need node nodejs
      # emcc's JavaScript optimiser needs Debian's acorn module.
      for dir in /usr/share/nodejs /usr/lib/nodejs /usr/lib/node_modules; do
        if [[ -d $dir/acorn ]]; then
          export NODE_PATH=$dir${NODE_PATH:+:$NODE_PATH}
          break
        fi
      done
      build wasm emcc -O2 -- -O2 -sNODERAWFS=1 -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1 \
        -sMAXIMUM_MEMORY=2GB
      mv "$OUT/golden_check_wasm" "$OUT/golden_check_wasm.js"
      # This emscripten loads the .wasm with fetch() when Node has one.
      run=(node --no-experimental-fetch "$OUT/golden_check_wasm.js" "$GOLDEN" "$BENCH" 200)
      ;;
    *)
      echo "cross_check: unknown target '$target' (i386, clang, wasm)" >&2
      exit 2
      ;;
  esac
  echo "--- $target: built in $((SECONDS - t0)) s"
  if ! "${run[@]}" | grep -v '^ok '; then status=1; fi
  echo "--- $target: $((SECONDS - t0)) s"
done
exit $status
