/*
** core/loop.c -- what every search loop shares, out of line: the events
** as observers see them, and the reuse rule of the workspace's node
** records.
*/
#include "core/loop.h"

#include "core/workspace.h"

#include <string.h>

/* ---- events ----------------------------------------------------------------------------- */

void astar__emit_cell(astar_observer_fn fn, void *ctx, int32_t stride, uint32_t per,
                      astar_event_type type, uint32_t node, uint32_t parent, double g, double h,
                      double f, uint64_t expanded) {
  astar_event e;
  e.type = type;
  e.cell = astar__cell_of(node / per, stride);
  e.parent =
      parent == ASTAR__NO_PARENT ? (astar_point){-1, -1} : astar__cell_of(parent / per, stride);
  e.g = g;
  e.h = h;
  e.f = f;
  e.expanded = expanded;
  e.direction = per > 1 ? (int)(node % per) : -1;
  fn(ctx, &e);
}

void astar__emit_node(astar_engine_observer_fn fn, void *ctx, astar_event_type type,
                      astar_node node, astar_node parent, double g, double h, double f,
                      uint64_t expanded, int side) {
  astar_engine_event e;
  e.type = type;
  e.node = node;
  e.parent = parent;
  e.g = g;
  e.h = h;
  e.f = f;
  e.expanded = expanded;
  e.side = side;
  fn(ctx, &e);
}

/* ---- the node records' reuse rule ----------------------------------------------------- */

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
