/*
** mesh/outline.c -- the boundary of a grid's free space as long
** axis-parallel segments (mesh/build.h). A unit edge of the grid is a
** boundary edge when the two cells beside it differ (a cell outside the
** grid is blocked); runs of consecutive boundary edges on one grid line
** become one segment, so a straight wall of any length is one constraint.
** A run continues through a pinch point (the corner rule: two diagonal
** cells blocked): the wall crossing it there ends at that point, which
** becomes a vertex of the triangulation splitting the run, so no triangle
** joins the two free cells through the point.
*/
#include "mesh/build.h"

#include "astar/grid.h"

#include <string.h>

typedef struct seg_buf {
  const astar_allocator *a;
  int32_t *s;
  size_t n, cap; /* segments */
} seg_buf;

static bool seg_push(seg_buf *b, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  if (b->n == b->cap) {
    size_t nc = b->cap ? b->cap * 2 : 256;
    int32_t *ns = astar__malloc(b->a, nc * 4 * sizeof *ns);
    if (!ns) return false;
    if (b->n) memcpy(ns, b->s, b->n * 4 * sizeof *ns);
    astar__free(b->a, b->s, b->cap * 4 * sizeof *b->s);
    b->s = ns;
    b->cap = nc;
  }
  int32_t *d = b->s + 4 * b->n++;
  d[0] = x0;
  d[1] = y0;
  d[2] = x1;
  d[3] = y1;
  return true;
}

astar_status astar__grid_outline(const astar_grid *g, const astar_allocator *a, int32_t **seg,
                                 size_t *nseg) {
  *seg = NULL;
  *nseg = 0;
  seg_buf b = {a, NULL, 0, 0};
  int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  /* Horizontal lines y = 0 .. h: the edge (x, y)-(x+1, y) separates cells
  ** (x, y-1) and (x, y). */
  for (int32_t y = 0; y <= h; y++) {
    int32_t start = -1;
    for (int32_t x = 0; x <= w; x++) {
      bool edge = x < w && astar_grid_passable(g, x, y - 1) != astar_grid_passable(g, x, y);
      if (edge && start < 0) start = x;
      if (!edge && start >= 0) {
        if (!seg_push(&b, start, y, x, y)) goto fail;
        start = -1;
      }
    }
  }
  /* Vertical lines x = 0 .. w: the edge (x, y)-(x, y+1) separates cells
  ** (x-1, y) and (x, y). */
  for (int32_t x = 0; x <= w; x++) {
    int32_t start = -1;
    for (int32_t y = 0; y <= h; y++) {
      bool edge = y < h && astar_grid_passable(g, x - 1, y) != astar_grid_passable(g, x, y);
      if (edge && start < 0) start = y;
      if (!edge && start >= 0) {
        if (!seg_push(&b, x, start, x, y)) goto fail;
        start = -1;
      }
    }
  }
  *seg = b.s;
  *nseg = b.n;
  /* The caller frees 4 * nseg entries: shrink the record of the capacity
  ** by handing over an exact-size block. */
  if (b.n < b.cap) {
    int32_t *exact = astar__malloc(a, (b.n ? b.n : 1) * 4 * sizeof *exact);
    if (!exact) goto fail;
    if (b.n) memcpy(exact, b.s, b.n * 4 * sizeof *exact);
    astar__free(a, b.s, b.cap * 4 * sizeof *b.s);
    *seg = exact;
  }
  return ASTAR_OK;
fail:
  astar__free(a, b.s, b.cap * 4 * sizeof *b.s);
  *seg = NULL;
  *nseg = 0;
  return ASTAR_NO_MEMORY;
}
