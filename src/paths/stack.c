/*
** paths/stack.c -- a path stored goal-first for cheap splicing (Patel 5.2's
** implementation note, astar/path.h). cells[0] is the goal and
** cells[count-1] the unit's current cell, so the path ahead is the array
** read backwards: stepping pops the top, and a splice replaces the top m
** cells by k new ones -- O(m + k), the rest of the array untouched.
*/
#include "core/internal.h"

#include "astar/path.h"

static bool same(astar_point a, astar_point b) {
  return a.x == b.x && a.y == b.y;
}

astar_status astar_path_stack_init(astar_path_stack *s, astar_point *storage, size_t cap) {
  if (!s || !storage || cap == 0) return ASTAR_INVALID_ARGUMENT;
  *s = (astar_path_stack){storage, cap, 0};
  return ASTAR_OK;
}

astar_status astar_path_stack_set(astar_path_stack *s, const astar_point *path, size_t n) {
  if (!s || !s->cells || !path || n == 0) return ASTAR_INVALID_ARGUMENT;
  if (n > s->cap) return ASTAR_BUFFER_TOO_SMALL;
  for (size_t i = 0; i < n; i++) s->cells[n - 1 - i] = path[i];
  s->count = n;
  return ASTAR_OK;
}

astar_status astar_path_stack_step(astar_path_stack *s, astar_point *cell) {
  if (!s || s->count < 2) return ASTAR_INVALID_ARGUMENT;
  s->count--;
  if (cell) *cell = s->cells[s->count - 1];
  return ASTAR_OK;
}

astar_status astar_path_stack_splice(astar_path_stack *s, size_t m, const astar_point *seg,
                                     size_t k) {
  if (!s || !s->cells || !seg || m == 0 || m > s->count || k == 0) return ASTAR_INVALID_ARGUMENT;
  /* p[i] is cells[count-1-i]: the segment must run from p[0] to p[m-1]. */
  if (!same(seg[0], s->cells[s->count - 1]) || !same(seg[k - 1], s->cells[s->count - m]))
    return ASTAR_INVALID_ARGUMENT;
  const size_t keep = s->count - m; /* cells[0 .. keep-1]: p[m] onwards, untouched */
  if (k > s->cap - keep) return ASTAR_BUFFER_TOO_SMALL;
  for (size_t i = 0; i < k; i++) s->cells[keep + i] = seg[k - 1 - i];
  s->count = keep + k;
  return ASTAR_OK;
}

astar_status astar_path_stack_peek(const astar_path_stack *s, size_t i, astar_point *cell) {
  if (!s || !cell || i >= s->count) return ASTAR_INVALID_ARGUMENT;
  *cell = s->cells[s->count - 1 - i];
  return ASTAR_OK;
}

astar_status astar_path_stack_copy(const astar_path_stack *s, astar_point *out, size_t cap,
                                   size_t *n) {
  if (!s || !n || (cap > 0 && !out)) return ASTAR_INVALID_ARGUMENT;
  *n = s->count;
  if (s->count > cap) return ASTAR_BUFFER_TOO_SMALL;
  for (size_t i = 0; i < s->count; i++) out[i] = s->cells[s->count - 1 - i];
  return ASTAR_OK;
}
