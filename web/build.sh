#!/usr/bin/env bash
# web/build.sh -- compile libastar (src/*.c, unmodified) and web/bridge.c to
# WebAssembly with Emscripten and assemble the playground in web/dist/:
# astar.js + astar.wasm (a MODULARIZE factory, createAstarModule) and the
# page's own files. Nothing in the bundle loads from the network.
#
# Needs emcc; on Debian it installs the `emscripten` package when missing
# (root only). Usage: web/build.sh [OUTDIR]   (default web/dist)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT=${1:-web/dist}

if ! command -v emcc >/dev/null; then
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    echo "web: installing emscripten (Debian package)"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq emscripten; } \
      >/dev/null || { echo "web: error: could not install emscripten" >&2; exit 1; }
  else
    echo "web: error: emcc not found (install Debian's emscripten package)" >&2
    exit 1
  fi
fi

# NODE_PATH for the `acorn` module Debian's emcc needs.
. scripts/emcc-env.sh

mkdir -p "$OUT"
t0=$(date +%s.%N)
# Recompile only when a C source, a header or this script is newer than the
# bundle (the page's own files are copied every time).
stale=1
if [[ -f $OUT/astar.wasm && -f $OUT/astar.js ]] &&
  [[ -z $(find src include web/bridge.c web/build.sh -newer "$OUT/astar.wasm" -print -quit) ]]; then
  stale=0
fi
if [[ $stale == 1 ]]; then
  # Built aside and moved in, so a failed build never leaves a bundle that
  # looks up to date.
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # -ffp-contract=off: the library's determinism rule (no fused multiply-add).
  # FILESYSTEM=0: the page hands map text over in memory, no files.
  emcc -O2 -std=c11 -Wall -Wextra -ffp-contract=off -Iinclude -Isrc \
    $(find src -name '*.c' | sort) web/bridge.c \
    -o "$tmp/astar.js" \
    -sMODULARIZE=1 -sEXPORT_NAME=createAstarModule \
    -sENVIRONMENT=web,node \
    -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=2GB \
    -sFILESYSTEM=0 \
    -sEXPORTED_FUNCTIONS=_malloc,_free \
    -sEXPORTED_RUNTIME_METHODS=UTF8ToString,HEAPU8,HEAP32,HEAPF64
  mv "$tmp/astar.js" "$tmp/astar.wasm" "$OUT/"
fi

cp web/index.html web/app.js web/style.css "$OUT/"
t1=$(date +%s.%N)
if [[ $stale == 1 ]]; then what="built $OUT"; else what="$OUT up to date"; fi
printf 'web: %s in %s s: astar.wasm %s bytes, astar.js %s bytes\n' "$what" \
  "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')" \
  "$(stat -c %s "$OUT/astar.wasm")" "$(stat -c %s "$OUT/astar.js")"
