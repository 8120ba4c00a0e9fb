#!/usr/bin/env bash
#
# man_test.sh -- the manual page astar(1) says what the help says: the page
# CMake built (BUILD/astar.1) is what `astar --man` prints now, it holds
# `astar --help` and every command's `astar COMMAND --help` (the commands
# read from `astar --help`; the pages of hex maps' solve and render and of
# graphs' solve and bench included) verbatim,
# it has a section for every command and no other, and groff renders it
# without a warning (when groff is installed).
# Usage: man_test.sh PATH/TO/astar BUILD_DIR REPO_ROOT
# Prints one line per check and "N passed, M failed"; exits non-zero if any
# check failed.
set -u

if [ $# -ne 3 ]; then
  echo "usage: $0 PATH/TO/astar BUILD_DIR REPO_ROOT" >&2
  exit 2
fi
ASTAR=$1
BUILD=$2
ROOT=$3
# shellcheck source=tests/cli/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_tmp man

# This script lists every check: its own ok / fail (with the check's name,
# no tool outputs to show) replace lib.sh's.
ok() {
  echo "ok   $1"
  passed=$((passed + 1))
}
fail() {
  echo "FAIL $1"
  failed=$((failed + 1))
}

if "$ASTAR" --man >"$TMP/astar.1" 2>"$TMP/err" && [ ! -s "$TMP/err" ]; then
  ok "astar --man exits 0, nothing on stderr"
else
  fail "astar --man failed: $(cat "$TMP/err")"
fi
if cmp -s "$TMP/astar.1" "$BUILD/astar.1"; then
  ok "$BUILD/astar.1 (built by CMake) is what astar --man prints"
else
  fail "$BUILD/astar.1 differs from astar --man (or is missing)"
fi

# The page's no-fill blocks as plain text: the escapes undone (\& at the
# start of a line, \- and \e), .sp as an empty line.
awk '/^\.nf$/ {on = 1; next} /^\.fi$/ {on = 0; next} on {print}' "$TMP/astar.1" |
  sed -e 's/^\.sp$//' -e 's/^\\&//' -e 's/\\-/-/g' -e 's/\\e/\\/g' >"$TMP/text"
page=$(cat "$TMP/text")

# contains NAME COMMAND...: the output of COMMAND is in the page verbatim.
contains() {
  local name=$1 help
  shift
  if ! help=$("$@" 2>&1); then
    fail "$name: the command failed"
  elif [ -z "$help" ]; then
    fail "$name: printed nothing"
  elif [[ $page == *"$help"* ]]; then
    ok "the page holds '$name' verbatim"
  else
    fail "the page lacks '$name' (or it differs)"
    printf '%s\n' "$help" >"$TMP/help"
    diff "$TMP/help" "$TMP/text" | head -n 10 | sed 's/^/     | /'
  fi
}

contains "astar --help" "$ASTAR" --help
# The commands, as `astar --help` lists them (two-space indent, name, summary).
commands=$("$ASTAR" --help | awk '/^Commands:/ {on = 1; next} on && /^$/ {on = 0} on {print $1}' |
  tr '\n' ' ')
if [ -n "$commands" ]; then ok "astar --help lists commands: $commands"; else fail "no commands in astar --help"; fi
for c in $commands; do
  contains "astar $c --help" "$ASTAR" "$c" --help
done
contains "astar solve MAP.hex --help" "$ASTAR" solve "$ROOT/tests/data/hex/pointy.hex" --help
contains "astar render MAP.hex --help" "$ASTAR" render "$ROOT/tests/data/hex/pointy.hex" --help
contains "astar solve --graph X.gr --help" "$ASTAR" solve --graph X.gr --help
contains "astar bench --graph X.gr --help" "$ASTAR" bench --graph X.gr --help

# The summary of precompute in `astar --help` (hence in the page) names every
# preprocessing `astar precompute --help` offers under --method, not one.
summary=$("$ASTAR" --help | sed -n 's/^  precompute  *//p')
methods=$("$ASTAR" precompute --help |
  awk '/^  --method NAME/ {on = 1} on && /^  --/ && !/^  --method/ {on = 0} on {printf "%s ", $0}' |
  sed -e 's/([^)]*)//g' -e 's/.*the preprocessing://' | tr -c 'a-z-' ' ' | tr ' ' '\n' |
  grep -v -x -e '' -e or | tr '\n' ' ')
missing=""
for m in $methods; do
  [[ $summary == *"$m"* ]] || missing="$missing $m"
done
if [ -z "$methods" ]; then
  fail "no --method values in astar precompute --help"
elif [ -z "$missing" ]; then
  ok "astar --help's precompute line names every --method: $methods"
else
  fail "astar --help's precompute line ('$summary') lacks:$missing"
fi

sections=$(sed -n 's/^\.SS "astar \([a-z-]*\)"$/\1/p' "$TMP/astar.1" | tr '\n' ' ')
if [ "$sections" = "$commands" ]; then
  ok "one COMMANDS section per command, in order"
else
  fail "sections '$sections' differ from the commands '$commands'"
fi
if grep -q "^\.TH ASTAR 1 .*libastar $("$ASTAR" --version | sed -n 's/^astar \([^ ]*\).*/\1/p')" "$TMP/astar.1"; then
  ok "the title names the tool's version"
else
  fail "the .TH line does not name the version"
fi

if command -v groff >/dev/null 2>&1; then
  if warnings=$(groff -man -ww -z "$TMP/astar.1" 2>&1) && [ -z "$warnings" ]; then
    ok "groff -man -ww renders it without a warning"
  else
    fail "groff warnings: $warnings"
  fi
  if LC_ALL=C.UTF-8 groff -man -Tutf8 "$TMP/astar.1" 2>/dev/null | grep -q "astar - A\* pathfinding"; then
    ok "the rendered page starts with its NAME line"
  else
    fail "the rendered page has no NAME line"
  fi
else
  echo "skip groff checks: groff not installed"
fi

cli_summary
