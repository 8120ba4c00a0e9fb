# shellcheck shell=bash
#
# lib.sh -- the harness shared by the tool's end-to-end tests
# (tests/cli/*.sh), sourced by each script from its own folder:
#   . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# Needs ASTAR (the tool) set for `run`. Each check calls `ok` or `fail`
# exactly once, so the counts are checks, and `cli_summary` (the script's
# last command) prints "N passed, M failed" and gives the exit status.

passed=0
failed=0
RC=0

# python3 (the checkers use the standard library only): Debian's
# interpreter when there is one, rather than whatever comes first on PATH.
# A version manager's shim there (pyenv's is a bash script that starts the
# real interpreter) costs some 0.2 s of CPU per call, and render_tests.sh
# calls Python ~150 times: 43 CPU-s instead of 9.
if [ -x /usr/bin/python3 ]; then
  python3() { /usr/bin/python3 "$@"; }
fi

# cli_args "$@": the two arguments every script takes, PATH/TO/astar and
# REPO_ROOT, into $ASTAR and $ROOT; exits 2 with the usage otherwise.
cli_args() {
  if [ $# -ne 2 ]; then
    echo "usage: $0 PATH/TO/astar REPO_ROOT" >&2
    exit 2
  fi
  ASTAR=$1
  ROOT=$2
}

# cli_tmp NAME: a fresh folder $TMP (astar-NAME.XXXXXX under $TMPDIR or
# /tmp), removed when the script exits; $OUT and $ERR, inside it, get the
# last `run`'s outputs. Exits 2 if the folder cannot be made.
cli_tmp() {
  TMP=$(mktemp -d "${TMPDIR:-/tmp}/astar-$1.XXXXXX") || exit 2
  trap 'rm -rf "$TMP"' EXIT
  OUT=$TMP/stdout
  ERR=$TMP/stderr
}

# run ARGS...: run astar, keep stdout/stderr/exit status for the checks below.
run() {
  "$ASTAR" "$@" >"$OUT" 2>"$ERR"
  RC=$?
}

ok() {
  passed=$((passed + 1))
}

# fail MESSAGE: one failed check, shown with the head of the last run's outputs.
fail() {
  failed=$((failed + 1))
  echo "FAIL: $*"
  echo "  stdout: $(head -c 300 "$OUT" | tr '\n' '|')"
  echo "  stderr: $(head -c 300 "$ERR" | tr '\n' '|')"
}

# expect_rc NAME CODE
expect_rc() {
  if [ "$RC" -eq "$2" ]; then ok; else fail "$1: exit status $RC, expected $2"; fi
}

# expect_out NAME REGEX: stdout matches the extended regex
expect_out() {
  if grep -Eq -- "$2" "$OUT"; then ok; else fail "$1: stdout lacks /$2/"; fi
}

# expect_err NAME REGEX: stderr matches the extended regex
expect_err() {
  if grep -Eq -- "$2" "$ERR"; then ok; else fail "$1: stderr lacks /$2/"; fi
}

# expect_one_line_err NAME [STDOUT_OK]: exactly one line on stderr (an error
# is one message) and, unless a second argument is given (an error found
# after the tool printed its results), nothing on stdout.
expect_one_line_err() {
  local n
  n=$(wc -l <"$ERR")
  if [ "$n" -eq 1 ] && { [ $# -gt 1 ] || [ ! -s "$OUT" ]; }; then
    ok
  else
    fail "$1: expected one stderr line, got $n"
  fi
}

# cli_summary: the last command of a script: the counts, and its exit status
# (0 when no check failed).
cli_summary() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
