#!/usr/bin/env bash
#
# layering.sh -- core/ depends on nothing above it (src/README.md): every
# source and header of src/core/ compiles with only the public headers and
# src/core/ itself on the include path (an #include of search/, engine/ or
# any other internal folder fails to resolve; a call to a function they
# declare is an implicit declaration, an error here), and the functions
# core's objects call are defined in core's objects (no call up into the
# layers, whatever header declared it).
# Usage: layering.sh CC REPO_ROOT
# Prints one line per check and "N passed, M failed"; exits 1 if a check
# failed, 2 on bad usage.
set -u

if [ $# -ne 2 ]; then
  echo "usage: $0 CC REPO_ROOT" >&2
  exit 2
fi
CC=$1
ROOT=$(cd "$2" 2>/dev/null && pwd) || {
  echo "$0: no directory $2" >&2
  exit 2
}
CORE=$ROOT/src/core
[ -d "$CORE" ] || {
  echo "$0: no $CORE" >&2
  exit 2
}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/astar-layering.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
# The include path sees core/ and nothing else of src/: "core/x.h" resolves
# through this link, "search/x.h" does not.
mkdir "$TMP/inc" "$TMP/obj"
ln -s "$CORE" "$TMP/inc/core"
FLAGS=(-std=c11 -Werror=implicit-function-declaration -I"$ROOT/include" -I"$TMP/inc")

passed=0
failed=0
ok() {
  echo "ok   $1"
  passed=$((passed + 1))
}
fail() {
  echo "FAIL $1"
  head -n 12 "$TMP/log" | sed 's/^/     | /'
  failed=$((failed + 1))
}

# 1. Every internal include of core/ names core/.
if grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$CORE"/*.c "$CORE"/*.h |
  grep -v '#[[:space:]]*include[[:space:]]*"\(core\|astar\)/' >"$TMP/log"; then
  fail "core/ includes only core/ and public headers"
else
  ok "core/ includes only core/ and public headers"
fi

# 2. Each header alone, each source: compiled with that include path.
for h in "$CORE"/*.h; do
  name=core/$(basename "$h")
  printf '#include "%s"\n' "$name" >"$TMP/h.c"
  if "$CC" "${FLAGS[@]}" -fsyntax-only "$TMP/h.c" >"$TMP/log" 2>&1; then
    ok "$name compiles alone"
  else
    fail "$name compiles alone"
  fi
done
objs=()
for c in "$CORE"/*.c; do
  name=core/$(basename "$c")
  o=$TMP/obj/$(basename "$c" .c).o
  if "$CC" "${FLAGS[@]}" -c "$c" -o "$o" >"$TMP/log" 2>&1; then
    ok "$name compiles"
    objs+=("$o")
  else
    fail "$name compiles"
  fi
done

# 3. Every library function core's objects call is defined in core.
if [ ${#objs[@]} -gt 0 ] && command -v nm >/dev/null 2>&1; then
  nm --defined-only "${objs[@]}" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u >"$TMP/def"
  nm --undefined-only "${objs[@]}" 2>/dev/null | awk '{ print $NF }' | grep '^astar_' |
    sort -u >"$TMP/undef"
  comm -23 "$TMP/undef" "$TMP/def" >"$TMP/log"
  if [ -s "$TMP/log" ]; then
    fail "core's objects call only core (calls up listed)"
  else
    ok "core's objects call only core"
  fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
