#!/usr/bin/env bash
# js/scripts/build.sh -- compile libastar (src/*.c, unmodified) and
# js/binding.c with Debian's emcc into the npm package's one WebAssembly
# module, js/dist/libastar.wasm, and write the CommonJS copies of the ES
# modules (js/dist/cjs/, js/scripts/cjs.mjs).
#
# The module is a standalone wasm (no Emscripten JavaScript glue): the
# package's own loader (js/src/imports.js) gives it its few imports, so one
# .wasm serves the ES module (asynchronous instantiation) and CommonJS
# (synchronous instantiation, as `require` cannot await).
#
# Objects go to build/npm/obj and are rebuilt only when their source, a
# header or this script is newer. Usage: js/scripts/build.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
OBJ=build/npm/obj
DIST=js/dist
JOBS=${JOBS:-2}

command -v emcc >/dev/null || {
  echo "npm: error: emcc not found (install Debian's emscripten package: scripts/web-deps.sh)" >&2
  exit 1
}
# NODE_PATH for the `acorn` module Debian's emcc needs.
. scripts/emcc-env.sh

# -ffp-contract=off: the library's determinism rule (no fused multiply-add).
CFLAGS=(-O2 -std=c11 -Wall -Wextra -ffp-contract=off -Iinclude -Isrc -DNDEBUG)
mkdir -p "$OBJ" "$DIST/cjs"
t0=$(date +%s.%N)
newest_header=$(find include src -name '*.h' -newer "$OBJ/.stamp" -print -quit 2>/dev/null || echo all)
[[ -f $OBJ/.stamp ]] || newest_header=all
[[ js/scripts/build.sh -nt $OBJ/.stamp ]] && newest_header=all
todo=()
while IFS= read -r c; do
  o=$OBJ/$(echo "${c%.c}" | tr / _).o
  if [[ -n $newest_header || ! -f $o || $c -nt $o ]]; then todo+=("$c"); fi
done < <({ find src -name '*.c'; echo js/binding.c; } | sort)
if [[ ${#todo[@]} -gt 0 ]]; then
  echo "npm: compiling ${#todo[@]} files"
  printf '%s\n' "${todo[@]}" | xargs -P "$JOBS" -I{} sh -c \
    'o='"$OBJ"'/$(echo "{}" | sed "s/\.c$//" | tr / _).o; emcc '"${CFLAGS[*]}"' -c "{}" -o "$o"'
fi
touch "$OBJ/.stamp"

objs=()
while IFS= read -r c; do objs+=("$OBJ/$(echo "${c%.c}" | tr / _).o"); done \
  < <({ find src -name '*.c'; echo js/binding.c; } | sort)
# STANDALONE_WASM + --no-entry: a module without JavaScript glue whose
# imports are a handful of WASI calls; the binding's functions are exported
# by their `used` attribute (EXPORT in binding.c), malloc/free for strings
# and byte arrays.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
emcc -O2 "${objs[@]}" -o "$tmp/libastar.wasm" --no-entry -sSTANDALONE_WASM=1 \
  -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=2GB -sINITIAL_MEMORY=4MB -sTOTAL_STACK=1MB \
  -sFILESYSTEM=0 -sERROR_ON_UNDEFINED_SYMBOLS=1 \
  -sEXPORTED_FUNCTIONS=_malloc,_free,$(tr "\n" , < js/scripts/exports.txt | sed "s/,$//")
mv "$tmp/libastar.wasm" "$DIST/libastar.wasm"

node js/scripts/cjs.mjs
t1=$(date +%s.%N)
printf 'npm: built %s in %s s: %s bytes\n' "$DIST/libastar.wasm" \
  "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')" "$(stat -c %s "$DIST/libastar.wasm")"
