/*
** paths/cursor.c -- a path held K steps ahead (Patel 6.4, astar/path.h):
** the first cap = K+1 cells of a path in caller storage, and the
** continuation -- one new search from the last held cell to the goal --
** run when the unit has walked them.
**
** Invariants while a path is held: 1 <= count <= cap, pos < count,
** cells[0 .. count-1] is the head of the path last planned from cells[0],
** and the unit stands on cells[pos]. The unit is on the goal exactly when it
** stands on the last held cell and that cell is the goal (a search's path
** never visits the goal before its end).
*/
#include "core/internal.h"

#include "astar/path.h"

static bool same(astar_point a, astar_point b) {
  return a.x == b.x && a.y == b.y;
}

astar_status astar_path_cursor_init(astar_path_cursor *c, astar_point *storage, size_t cap) {
  if (!c || !storage || cap < 2) return ASTAR_INVALID_ARGUMENT;
  *c = (astar_path_cursor){storage, cap, 0, 0, 0, {-1, -1}, 0, 0.0};
  return ASTAR_OK;
}

astar_status astar_path_cursor_plan(astar_path_cursor *c, astar_workspace *ws,
                                    const astar_grid *grid, const astar_options *opt,
                                    astar_point start, astar_point goal) {
  if (!c || !c->cells || c->cap < 2) return ASTAR_INVALID_ARGUMENT;
  astar_result r = {0}; /* zeroed: held below is read before st is looked at */
  astar_status st = astar_find_path(ws, grid, opt, start, goal, c->cells, c->cap, &r);
  size_t held = r.length;
  c->pos = 0;
  if (st == ASTAR_BUFFER_TOO_SMALL) /* longer than K+1 cells: keep the head */
    st = astar_workspace_path_head(ws, c->cells, c->cap, &held, NULL);
  if (st != ASTAR_OK) {
    c->count = 0;
    return st;
  }
  c->plans++;
  c->count = held;
  c->total = r.length;
  c->goal = goal;
  c->cost = r.cost;
  return ASTAR_OK;
}

astar_status astar_path_cursor_hold(astar_path_cursor *c, const astar_point *path, size_t n) {
  if (!c || !c->cells || c->cap < 2 || !path || n == 0) return ASTAR_INVALID_ARGUMENT;
  c->count = n < c->cap ? n : c->cap;
  for (size_t i = 0; i < c->count; i++) c->cells[i] = path[i];
  c->pos = 0;
  c->total = n;
  c->goal = path[n - 1];
  c->cost = 0.0; /* not known: no search ran */
  return ASTAR_OK;
}

bool astar_path_cursor_done(const astar_path_cursor *c) {
  return !c || c->count == 0 || (c->pos + 1 == c->count && same(c->cells[c->pos], c->goal));
}

astar_status astar_path_cursor_next(astar_path_cursor *c, astar_workspace *ws,
                                    const astar_grid *grid, const astar_options *opt,
                                    astar_point *cell) {
  if (!c || !cell || astar_path_cursor_done(c)) return ASTAR_INVALID_ARGUMENT;
  if (c->pos + 1 == c->count) {
    /* On the last held cell, short of the goal: the continuation. */
    const astar_point here = c->cells[c->pos];
    const astar_status st = astar_path_cursor_plan(c, ws, grid, opt, here, c->goal);
    if (st != ASTAR_OK) {
      /* Keep the unit where it is, so that a later call tries again. */
      c->cells[0] = here;
      c->count = 1;
      c->total = 1;
      return st;
    }
  }
  *cell = c->cells[++c->pos];
  return ASTAR_OK;
}
