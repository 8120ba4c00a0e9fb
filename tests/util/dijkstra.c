/*
** dijkstra.c -- reference single-source shortest paths on the grid. A binary
** heap with lazy deletion (stale entries are skipped when popped) and the
** neighbour rules written out longhand: slow and obvious on purpose.
*/
#include "util/dijkstra.h"

#include <math.h>
#include <stdlib.h>

typedef struct entry {
  double d;
  size_t cell;
} entry;

static void heap_push(entry *h, size_t *n, entry e) {
  size_t i = (*n)++;
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (h[p].d <= e.d) break;
    h[i] = h[p];
    i = p;
  }
  h[i] = e;
}

static entry heap_pop(entry *h, size_t *n) {
  entry top = h[0], last = h[--*n];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= *n) break;
    if (c + 1 < *n && h[c + 1].d < h[c].d) c++;
    if (h[c].d >= last.d) break;
    h[i] = h[c];
    i = c;
  }
  if (*n > 0) h[i] = last;
  return top;
}

static int open_cell(const astar_grid *g, int32_t x, int32_t y) {
  return x >= 0 && y >= 0 && x < astar_grid_width(g) && y < astar_grid_height(g) &&
         astar_grid_passable(g, x, y);
}

size_t ref_dijkstra_all(const astar_grid *g, const astar_options *opt, astar_point start,
                        double *dist) {
  int moves = opt ? opt->moves : 8;
  astar_corner corner = opt ? opt->corner : ASTAR_CORNER_NO_CUT;
  double sc = opt ? opt->straight_cost : 1.0;
  double dc = opt ? opt->diagonal_cost : sqrt(2.0);
  int32_t w = astar_grid_width(g), hgt = astar_grid_height(g);
  size_t cells = (size_t)w * (size_t)hgt;
  for (size_t i = 0; i < cells; i++) dist[i] = INFINITY;
  if (!open_cell(g, start.x, start.y)) return 0;

  /* Each cell is improved at most 8 times, so this bounds the pushes. */
  entry *heap = malloc(sizeof(entry) * (cells * 8 + 1));
  unsigned char *done = calloc(cells ? cells : 1, 1);
  if (!heap || !done) {
    free(heap);
    free(done);
    return (size_t)-1;
  }
  size_t n = 0, reached = 0;
  size_t s = (size_t)start.y * w + start.x;
  dist[s] = 0;
  heap_push(heap, &n, (entry){0, s});
  while (n > 0) {
    entry e = heap_pop(heap, &n);
    if (done[e.cell]) continue;
    done[e.cell] = 1;
    reached++;
    int32_t x = (int32_t)(e.cell % w), y = (int32_t)(e.cell / w);
    for (int dy = -1; dy <= 1; dy++) {
      for (int dx = -1; dx <= 1; dx++) {
        if (dx == 0 && dy == 0) continue;
        int diagonal = dx != 0 && dy != 0;
        int32_t nx = x + dx, ny = y + dy;
        if (!open_cell(g, nx, ny)) continue;
        if (diagonal) {
          if (moves != 8 || corner == ASTAR_CORNER_NEVER) continue;
          int sides_open = open_cell(g, nx, y) + open_cell(g, x, ny);
          if (corner == ASTAR_CORNER_NO_CUT && sides_open < 2) continue;
          if (corner == ASTAR_CORNER_ONE_SIDE && sides_open < 1) continue;
        }
        size_t k = (size_t)ny * w + nx;
        double nd = e.d + (diagonal ? dc : sc) * (double)astar_grid_terrain(g, nx, ny);
        if (!done[k] && nd < dist[k]) {
          dist[k] = nd;
          heap_push(heap, &n, (entry){nd, k});
        }
      }
    }
  }
  free(heap);
  free(done);
  return reached;
}

double ref_dijkstra(const astar_grid *g, const astar_options *opt, astar_point start,
                    astar_point goal) {
  if (!open_cell(g, start.x, start.y) || !open_cell(g, goal.x, goal.y)) return -1;
  size_t cells = (size_t)astar_grid_width(g) * (size_t)astar_grid_height(g);
  double *dist = malloc(sizeof(double) * cells);
  if (!dist) return -1;
  size_t r = ref_dijkstra_all(g, opt, start, dist);
  double d = dist[(size_t)goal.y * astar_grid_width(g) + goal.x];
  free(dist);
  if (r == (size_t)-1 || isinf(d)) return -1;
  return d;
}
