#!/usr/bin/env bash
# scripts/lint.sh -- style and static analysis: clang-format (checked-in
# .clang-format), clang-tidy (.clang-tidy, with BUILD/compile_commands.json)
# and cppcheck, over the library, the CLI, the tests, the examples and the
# fuzz harnesses (fuzz/).
#
#   scripts/lint.sh [BUILD_DIR]     (default build; configured if missing)
#
# Prints what each tool flags, then "N passed, M failed" (one per tool) and
# exits non-zero if any tool flagged something. A tool that is not installed
# is skipped with a note. Not part of .ci/run: the tools' versions differ
# between machines, and a new version's new checks should not break CI.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2

BUILD=${1:-build}
JOBS=$(nproc 2>/dev/null || echo 2)
OUT=$(mktemp -d "${TMPDIR:-/tmp}/astar-lint.XXXXXX")
trap 'rm -rf "$OUT"' EXIT

shopt -s nullglob globstar
LIB_SOURCES=(src/**/*.c tools/*.c)
ALL_C=(src/**/*.c src/**/*.h include/astar/*.h tools/*.c tools/*.h tests/*.c tests/*.h
  tests/util/*.c tests/util/*.h tests/install/*.c examples/*.c fuzz/*.c fuzz/*.h)

passed=0
failed=0
result() { # NAME FILE: report the tool's findings kept in FILE
  if [[ -s $2 ]]; then
    echo "--- $1: $(grep -c . "$2") line(s)"
    cat "$2"
    failed=$((failed + 1))
  else
    echo "--- $1: clean"
    passed=$((passed + 1))
  fi
}

# clang-format: files that would change, with the first lines of the diff.
if command -v clang-format >/dev/null; then
  for f in "${ALL_C[@]}"; do
    if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
      echo "$f: not formatted (clang-format -i $f)"
      clang-format "$f" | diff -u "$f" - | sed -n '3,12p' | sed 's/^/    /'
    fi
  done >"$OUT/format"
  result clang-format "$OUT/format"
else
  echo "--- clang-format: not installed, skipped"
fi

# clang-tidy: needs the compile commands of a configured build tree.
if command -v clang-tidy >/dev/null; then
  if [[ ! -f $BUILD/compile_commands.json ]]; then
    cmake -S . -B "$BUILD" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
  fi
  mkdir -p "$OUT/tidy.d"
  # One output file per source: parallel runs must not interleave lines.
  # shellcheck disable=SC2016 # expanded by the inner sh
  printf '%s\n' "${LIB_SOURCES[@]}" tests/*.c tests/util/*.c examples/*.c |
    xargs -P "$JOBS" -I{} sh -c \
      'clang-tidy -p "$1" --quiet "$2" >"$3/tidy.d/$(echo "$2" | tr / _)" 2>/dev/null' \
      sh "$BUILD" {} "$OUT"
  # fuzz/ is built only in a clang fuzz tree (ASTAR_FUZZ=ON), so it is not in
  # BUILD's compile commands: its flags are given here.
  for f in fuzz/*.c; do
    clang-tidy --quiet "$f" -- -std=c11 -Iinclude -Itests -Ifuzz \
      >"$OUT/tidy.d/$(echo "$f" | tr / _)" 2>/dev/null
  done
  # Each finding with its code excerpt, once (a header's findings come back
  # from every file that includes it).
  cat "$OUT"/tidy.d/* | awk '
    / (warning|error): / { keep = !seen[$0]++; n = 0 }
    / note: / { keep = 0 }
    keep && n++ < 3 { print }' >"$OUT/tidy"
  result clang-tidy "$OUT/tidy"
else
  echo "--- clang-tidy: not installed, skipped"
fi

# cppcheck: the library, the CLI and the fuzz harnesses (tests and examples
# use patterns like deliberate NULL arguments that it reports by design).
if command -v cppcheck >/dev/null; then
  cppcheck --quiet --std=c11 --enable=warning,performance,portability,style \
    --inline-suppr --suppress=missingIncludeSystem --suppress=unusedFunction \
    --suppress=constParameterPointer --suppress=constVariablePointer \
    -j "$JOBS" -I include -I src -I tools -I tests -I fuzz \
    --template='{file}:{line}: {severity}: {message} [{id}]' src tools fuzz 2>"$OUT/cppcheck"
  result cppcheck "$OUT/cppcheck"
else
  echo "--- cppcheck: not installed, skipped"
fi

echo "$passed passed, $failed failed"
[[ $failed == 0 ]]
