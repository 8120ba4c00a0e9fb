/*
** core/loop.c -- what every search loop shares, out of line: the reuse
** rule of the workspace's node records.
*/
#include "core/loop.h"

#include "core/workspace.h"

#include <string.h>

void astar__workspace_claim(astar_workspace *ws) {
  ws->phase = ASTAR__IDLE;
  ws->found = false;
  ws->eng.phase = ASTAR__IDLE;
  ws->eng.found = false;
}

void astar__records_next(astar_workspace *ws) {
  if (ws->gen > UINT16_MAX - 4u) {
    memset(ws->mark, 0, (size_t)ws->capacity * sizeof(uint16_t));
    if (ws->turns.mark)
      memset(ws->turns.mark, 0, (size_t)ws->turns.capacity * ASTAR__TURN_STATES * sizeof(uint16_t));
    ws->gen = 0;
  }
  ws->gen = (uint16_t)(ws->gen + 4u);
  ws->seq = 0;
  ws->open.len = 0;
}

void astar__side_next(astar__side *s) {
  if (s->gen > UINT16_MAX - 4u) {
    memset(s->mark, 0, (size_t)s->cap * sizeof *s->mark);
    s->gen = 0;
  }
  s->gen = (uint16_t)(s->gen + 4u);
  s->seq = 0;
  s->open.len = 0;
}
