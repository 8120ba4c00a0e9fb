# tests/util/check.sh -- the pass / fail bookkeeping the shell checks share
# (tests/install/check.sh, tests/deb/check.sh, tests/ports/check.sh).
# Sourced, after the caller has set LOG (a file the checks' output goes to).
#
#   check NAME COMMAND...   run COMMAND quietly; print "ok   NAME", or
#                           "FAIL NAME" and the last 30 lines it printed;
#                           count the outcome in $passed / $failed.
passed=0
failed=0
check() {
  local name=$1
  shift
  if "$@" >"$LOG" 2>&1; then
    echo "ok   $name"
    passed=$((passed + 1))
  else
    echo "FAIL $name"
    sed 's/^/     | /' "$LOG" | tail -n 30
    failed=$((failed + 1))
  fi
}
