/*
** status.c -- status descriptions and the version string.
*/
#include "core/internal.h"

static const char *const status_text[ASTAR_STATUS_COUNT] = {
    [ASTAR_OK] = "ok",
    [ASTAR_NO_PATH] = "no path: the goal is not reachable from the start",
    [ASTAR_LIMIT_REACHED] = "expansion limit reached before the goal",
    [ASTAR_START_BLOCKED] = "the start cell is blocked",
    [ASTAR_GOAL_BLOCKED] = "the goal cell is blocked",
    [ASTAR_BUFFER_TOO_SMALL] = "buffer too small",
    [ASTAR_OUT_OF_BOUNDS] = "coordinate outside the grid",
    [ASTAR_INVALID_ARGUMENT] = "invalid argument",
    [ASTAR_TOO_LARGE] = "size beyond the supported limits",
    [ASTAR_NO_MEMORY] = "out of memory",
    [ASTAR_PARSE_ERROR] = "parse error",
    [ASTAR_UNSUPPORTED] =
        "not supported by this algorithm or setting (astar_unsupported_reason says why)",
    [ASTAR_CAPACITY] = "workspace too small for this grid",
    [ASTAR_IN_PROGRESS] = "search in progress",
    [ASTAR_PARTIAL] = "partial path: the goal was not reached",
    [ASTAR_STOPPED] = "search stopped by the caller",
    [ASTAR_STALE] = "the grid changed since this object was built",
    [ASTAR_TURNS_NOT_RESERVED] =
        "turn penalty without turn states: call astar_workspace_reserve_turns first",
    [ASTAR_QUEUE_FULL] = "the request queue is full: release finished requests",
    [ASTAR_MISMATCH] = "built for another grid or other movement rules than this search's",
    [ASTAR_EXPIRED] = "the queue no longer holds this path: copy it in the callback",
};

const char *astar_strerror(astar_status status) {
  if ((unsigned)status >= (unsigned)ASTAR_STATUS_COUNT || !status_text[status])
    return "unknown status";
  return status_text[status];
}

const char *astar_version(void) {
  return ASTAR_VERSION_STRING;
}
