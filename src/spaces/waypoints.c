/*
** spaces/waypoints.c -- waypoint graphs (astar/waypoints.h): the corners
** of a grid's obstacles joined by lines of sight, built once, and the
** query space that inserts a start and a goal for one search.
**
** Lines of sight are paths/sight.c's (one definition for the library).
**
** The graph is stored as compressed rows: offset[v] .. offset[v+1]-1 index
** the ascending neighbour ids of waypoint v in adj[]. Edge costs are
** recomputed from the cells (a square root) rather than stored.
*/
#include "core/internal.h"
#include "paths/sight.h"
#include "spaces/waypoints.h"

#include "astar/waypoints.h"

#include <math.h>
#include <string.h>

struct astar_waypoints {
  astar_allocator alloc;  /* where every block below came from */
  const astar_grid *grid; /* identity of the grid it was built for; never read */
  uint64_t version;       /* astar_grid_version() when built */
  int32_t width, height;  /* the grid's dimensions */
  astar_corner corner;    /* the corner rule of every line of sight */
  double scale;           /* cost of one cell width (straight_cost) */
  unsigned flags;         /* ASTAR_WAYPOINTS_* given to the constructor */
  uint32_t count;         /* waypoints */
  astar_point *cells;     /* [count] their cells, row-major order */
  size_t *offset;         /* [count + 1] row starts in adj */
  uint32_t *adj;          /* [offset[count]] neighbour ids, ascending per row */
};

/* Order of cells in the waypoint list (row-major). */
ASTAR__INLINE bool before(astar_point a, astar_point b) {
  return a.y < b.y || (a.y == b.y && a.x < b.x);
}

/* ---- building --------------------------------------------------------------------- */

/* Is the passable cell at padded index p a waypoint under the rule? For
** each of its four diagonal directions, look at the grid point between it,
** its diagonal neighbour d and its side neighbours s1, s2. */
static bool is_waypoint(const astar_grid *g, uint32_t p, astar_corner corner, bool side_cells) {
  const uint8_t *pass = g->pass;
  const ptrdiff_t stride = g->stride;
  for (int k = 0; k < 4; k++) {
    const ptrdiff_t ox = (k & 1) ? 1 : -1, oy = (k & 2) ? stride : -stride;
    const bool d = pass[(ptrdiff_t)p + ox + oy] != 0;
    const bool s1 = pass[(ptrdiff_t)p + ox] != 0, s2 = pass[(ptrdiff_t)p + oy] != 0;
    if (!d && s1 && s2) return true;                /* diagonal to the blocked cell */
    if (side_cells && d && (s1 != s2)) return true; /* beside it */
    if (corner == ASTAR_CORNER_ALWAYS && d && !s1 && !s2) return true; /* squeeze */
  }
  return false;
}

/* Resize an allocator block (the allocator's resize request). */
static void *resize(const astar_allocator *a, void *p, size_t osize, size_t nsize) {
  return a->fn(a->ud, p, osize, nsize);
}

static void free_parts(astar_waypoints *wp) {
  const astar_allocator *a = &wp->alloc;
  astar__free(a, wp->cells, (size_t)wp->count * sizeof *wp->cells);
  if (wp->offset) {
    astar__free(a, wp->adj, wp->offset[wp->count] * sizeof *wp->adj);
    astar__free(a, wp->offset, ((size_t)wp->count + 1) * sizeof *wp->offset);
  }
}

void astar_waypoints_free(astar_waypoints *wp) {
  if (!wp) return;
  free_parts(wp);
  const astar_allocator a = wp->alloc;
  astar__free(&a, wp, sizeof *wp);
}

/* Number of waypoints of the grid; with `cells`, also their cells. */
static uint64_t scan_waypoints(const astar_waypoints *wp, const astar_grid *g, astar_point *cells) {
  const bool side = wp->corner != ASTAR_CORNER_NO_CUT || (wp->flags & ASTAR_WAYPOINTS_SIDE_CELLS);
  uint64_t n = 0;
  for (int32_t y = 0; y < g->height; y++)
    for (int32_t x = 0; x < g->width; x++) {
      const uint32_t p = astar__index(g, x, y);
      if (!g->pass[p] || !is_waypoint(g, p, wp->corner, side)) continue;
      if (cells) cells[n] = (astar_point){x, y};
      n++;
    }
  return n;
}

/* The waypoints of the grid into wp->cells. */
static astar_status find_waypoints(astar_waypoints *wp, const astar_grid *g) {
  const uint64_t n = scan_waypoints(wp, g, NULL);
  if (n > UINT32_MAX - 2) return ASTAR_TOO_LARGE;
  if (n == 0) return ASTAR_OK;
  wp->cells = astar__malloc(&wp->alloc, (size_t)n * sizeof *wp->cells);
  if (!wp->cells) return ASTAR_NO_MEMORY;
  wp->count = (uint32_t)n;
  scan_waypoints(wp, g, wp->cells);
  return ASTAR_OK;
}

/* The edges: every pair tested once (a < b), kept in `upper` rows, then
** copied both ways into the compressed rows. */
static astar_status find_edges(astar_waypoints *wp, const astar_grid *g) {
  const astar_allocator *a = &wp->alloc;
  const uint32_t n = wp->count;
  astar_status st = ASTAR_NO_MEMORY;
  size_t *up_off = astar__calloc(a, (size_t)n + 1, sizeof *up_off);
  size_t cap = (size_t)n * 4 + 16, used = 0;
  uint32_t *up = astar__malloc(a, cap * sizeof *up);
  wp->offset = astar__calloc(a, (size_t)n + 1, sizeof *wp->offset);
  if (!up_off || !up || !wp->offset) goto done;
  for (uint32_t i = 0; i < n; i++) {
    const astar_point ci = wp->cells[i];
    for (uint32_t j = i + 1; j < n; j++) {
      if (!astar__sight(g, wp->corner, ci, wp->cells[j])) continue;
      if (used == cap) {
        size_t ncap, bytes;
        if (!astar__mul(cap, 2, &ncap) || !astar__mul(ncap, sizeof *up, &bytes)) goto done;
        uint32_t *grown = resize(a, up, cap * sizeof *up, bytes);
        if (!grown) goto done;
        up = grown;
        cap = ncap;
      }
      up[used++] = j;
    }
    up_off[i + 1] = used;
  }
  /* Degrees, then row starts; filling advances offset[v] to the end of
  ** row v, and the shift after it restores the starts. Row v receives
  ** its smaller neighbours (while their rows are copied) before its larger
  ** ones (while its own row is), so each row comes out ascending. */
  size_t total;
  if (!astar__mul(used, 2, &total)) goto done;
  for (uint32_t i = 0; i < n; i++) {
    wp->offset[i] += up_off[i + 1] - up_off[i];
    for (size_t k = up_off[i]; k < up_off[i + 1]; k++) wp->offset[up[k]]++;
  }
  size_t run = 0;
  for (uint32_t i = 0; i <= n; i++) {
    const size_t d = i < n ? wp->offset[i] : 0;
    wp->offset[i] = run;
    run += d;
  }
  wp->offset[n] = total;
  if (total) {
    wp->adj = astar__malloc(a, total * sizeof *wp->adj);
    if (!wp->adj) {
      /* free_parts frees adj by offset[n]: none was allocated. */
      wp->offset[n] = 0;
      goto done;
    }
  }
  for (uint32_t i = 0; i < n; i++)
    for (size_t k = up_off[i]; k < up_off[i + 1]; k++) {
      wp->adj[wp->offset[i]++] = up[k];
      wp->adj[wp->offset[up[k]]++] = i;
    }
  for (uint32_t i = n; i > 0; i--) wp->offset[i] = wp->offset[i - 1];
  wp->offset[0] = 0;
  wp->offset[n] = total;
  st = ASTAR_OK;
done:
  astar__free(a, up, cap * sizeof *up);
  astar__free(a, up_off, ((size_t)n + 1) * sizeof *up_off);
  return st;
}

astar_status astar_waypoints_new(astar_waypoints **out, const astar_grid *grid,
                                 const astar_options *opt, unsigned flags,
                                 const astar_allocator *alloc) {
  astar_options defaults;
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid || (flags & ~ASTAR_WAYPOINTS_SIDE_CELLS)) return ASTAR_INVALID_ARGUMENT;
  if (!opt) {
    astar_options_init(&defaults);
    opt = &defaults;
  }
  if (astar_options_validate(opt) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
  if (opt->moves != 8 || opt->corner == ASTAR_CORNER_NEVER || grid->terrain)
    return ASTAR_UNSUPPORTED;
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_waypoints *wp = astar__calloc(&a, 1, sizeof *wp);
  if (!wp) return ASTAR_NO_MEMORY;
  wp->alloc = a;
  wp->grid = grid;
  wp->version = grid->version;
  wp->width = grid->width;
  wp->height = grid->height;
  wp->corner = opt->corner;
  wp->scale = opt->straight_cost;
  wp->flags = flags;
  astar_status st = find_waypoints(wp, grid);
  if (st == ASTAR_OK) st = find_edges(wp, grid);
  if (st != ASTAR_OK) {
    astar_waypoints_free(wp);
    return st;
  }
  *out = wp;
  return ASTAR_OK;
}

/* ---- accessors -------------------------------------------------------------------- */

size_t astar_waypoints_memory(const astar_waypoints *wp) {
  if (!wp) return 0;
  return sizeof *wp + (size_t)wp->count * sizeof *wp->cells +
         ((size_t)wp->count + 1) * sizeof *wp->offset + wp->offset[wp->count] * sizeof *wp->adj;
}

uint32_t astar_waypoints_count(const astar_waypoints *wp) {
  return wp ? wp->count : 0;
}

size_t astar_waypoints_edge_count(const astar_waypoints *wp) {
  return wp ? wp->offset[wp->count] / 2 : 0;
}

astar_point astar_waypoints_cell(const astar_waypoints *wp, uint32_t i) {
  if (!wp || i >= wp->count) return (astar_point){-1, -1};
  return wp->cells[i];
}

size_t astar_waypoints_neighbors(const astar_waypoints *wp, uint32_t i, uint32_t *out, size_t cap) {
  if (!wp || i >= wp->count) return 0;
  const size_t lo = wp->offset[i], deg = wp->offset[i + 1] - lo;
  if (out)
    for (size_t k = 0; k < deg && k < cap; k++) out[k] = wp->adj[lo + k];
  return deg;
}

bool astar__waypoints_rules_match(const astar_waypoints *wp, const astar_options *opt) {
  return opt->moves == 8 && opt->corner == wp->corner && opt->straight_cost == wp->scale;
}

astar_status astar_waypoints_check(const astar_waypoints *wp, const astar_grid *grid) {
  if (!wp || !grid) return ASTAR_INVALID_ARGUMENT;
  if (wp->grid != grid || wp->width != grid->width || wp->height != grid->height)
    return ASTAR_MISMATCH;
  return wp->version == grid->version ? ASTAR_OK : ASTAR_STALE;
}

bool astar_waypoints_visible(const astar_waypoints *wp, const astar_grid *grid, astar_point a,
                             astar_point b) {
  if (!wp || !grid || !astar_grid_contains(grid, a.x, a.y) || !astar_grid_contains(grid, b.x, b.y))
    return false;
  return astar__sees(grid, wp->corner, a, b);
}

/* ---- the query space ------------------------------------------------------------------ */

/* Cell of node v (< count + 2). */
ASTAR__INLINE astar_point node_cell(const astar_waypoints_query *q, astar_node v) {
  const uint32_t n = q->wp->count;
  return v < n ? q->wp->cells[v] : v == n ? q->start : q->goal;
}

/* Arcs out of v (into v when `in`): the static row of a waypoint, the
** extra start's or goal's sightlines, then the other extra endpoint. */
static size_t arcs_of(const astar_waypoints_query *q, astar_node v, astar_arc *arcs, size_t cap,
                      bool in) {
  const astar_waypoints *wp = q->wp;
  const uint32_t n = wp->count;
  const astar_point cv = node_cell(q, v);
  /* The extra node this direction leads to (goal out, start in), if any. */
  const bool far_extra = in ? q->start_extra : q->goal_extra;
  const astar_node far = in ? n : n + 1;
  const astar_point cfar = in ? q->start : q->goal;
  size_t k = 0;
  if (v < n) {
    for (size_t e = wp->offset[v]; e < wp->offset[v + 1] && k < cap; e++, k++) {
      arcs[k].node = wp->adj[e];
      arcs[k].cost = wp->scale * astar__centre_distance(cv, wp->cells[wp->adj[e]]);
    }
  } else if (v == (in ? n + 1 : n) && (in ? q->goal_extra : q->start_extra)) {
    /* The extra endpoint this direction starts from: every waypoint in sight. */
    for (uint32_t c = 0; c < n && k < cap; c++)
      if (astar__sees(q->grid, wp->corner, cv, wp->cells[c])) {
        arcs[k].node = c;
        arcs[k].cost = wp->scale * astar__centre_distance(cv, wp->cells[c]);
        k++;
      }
  } else {
    return 0; /* the goal has no successors, the start no predecessors */
  }
  if (far_extra && k < cap && astar__sees(q->grid, wp->corner, cv, cfar)) {
    arcs[k].node = far;
    arcs[k].cost = wp->scale * astar__centre_distance(cv, cfar);
    k++;
  }
  return k;
}

static size_t successors(const void *self, astar_node v, astar_arc *arcs, size_t cap) {
  return arcs_of(self, v, arcs, cap, false);
}

static size_t predecessors(const void *self, astar_node v, astar_arc *arcs, size_t cap) {
  return arcs_of(self, v, arcs, cap, true);
}

static double heuristic(const void *self, astar_node a, astar_node b) {
  const astar_waypoints_query *q = self;
  return q->wp->scale * astar__centre_distance(node_cell(q, a), node_cell(q, b));
}

static bool position(const void *self, astar_node v, double xyz[3]) {
  const astar_point c = node_cell(self, v);
  xyz[0] = (double)c.x;
  xyz[1] = (double)c.y;
  xyz[2] = 0.0;
  return true;
}

static const astar_space_ops query_ops = {successors, predecessors, heuristic, NULL,
                                          position,   NULL,         0};

/* Id of the waypoint at cell c, or ASTAR_NODE_NONE (binary search). */
static astar_node waypoint_at(const astar_waypoints *wp, astar_point c) {
  uint32_t lo = 0, hi = wp->count;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (before(wp->cells[mid], c))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < wp->count && wp->cells[lo].x == c.x && wp->cells[lo].y == c.y ? lo : ASTAR_NODE_NONE;
}

/* The space's sizes, common to every query of wp. */
static void space_sizes(astar_space *s, const astar_waypoints *wp) {
  s->node_count = wp->count + 2;
  s->max_degree = wp->count + 1;
  s->flags = ASTAR_SPACE_ADMISSIBLE | ASTAR_SPACE_CONSISTENT;
}

astar_status astar_waypoints_query_init(astar_waypoints_query *q, astar_space *space,
                                        const astar_waypoints *wp, const astar_grid *grid,
                                        astar_point start, astar_point goal) {
  if (!q || !space || !wp || !grid) return ASTAR_INVALID_ARGUMENT;
  const astar_status st = astar_waypoints_check(wp, grid);
  if (st != ASTAR_OK) return st;
  if (!astar_grid_contains(grid, start.x, start.y) || !astar_grid_contains(grid, goal.x, goal.y))
    return ASTAR_OUT_OF_BOUNDS;
  if (!grid->pass[astar__index(grid, start.x, start.y)]) return ASTAR_START_BLOCKED;
  if (!grid->pass[astar__index(grid, goal.x, goal.y)]) return ASTAR_GOAL_BLOCKED;
  memset(q, 0, sizeof *q);
  q->wp = wp;
  q->grid = grid;
  q->start = start;
  q->goal = goal;
  q->start_node = waypoint_at(wp, start);
  q->start_extra = q->start_node == ASTAR_NODE_NONE;
  if (q->start_extra) q->start_node = wp->count;
  if (start.x == goal.x && start.y == goal.y) {
    q->goal_node = q->start_node; /* one node: the engine's trivial search */
  } else {
    q->goal_node = waypoint_at(wp, goal);
    q->goal_extra = q->goal_node == ASTAR_NODE_NONE;
    if (q->goal_extra) q->goal_node = wp->count + 1;
  }
  memset(space, 0, sizeof *space);
  space->ops = &query_ops;
  space->self = q;
  space_sizes(space, wp);
  return ASTAR_OK;
}

astar_point astar_waypoints_query_cell(const astar_waypoints_query *q, astar_node node) {
  if (!q || !q->wp || node >= q->wp->count + 2) return (astar_point){-1, -1};
  return node_cell(q, node);
}

astar_status astar_waypoints_reserve(astar_workspace *ws, const astar_waypoints *wp,
                                     unsigned what) {
  if (!ws || !wp) return ASTAR_INVALID_ARGUMENT;
  astar_space s;
  memset(&s, 0, sizeof s);
  s.ops = &query_ops;
  space_sizes(&s, wp);
  return astar_workspace_reserve_space(ws, &s, what);
}

astar_status astar_waypoints_find_path(astar_workspace *ws, const astar_waypoints *wp,
                                       const astar_grid *grid, const astar_engine_options *opt,
                                       astar_point start, astar_point goal, astar_point *path,
                                       size_t cap, astar_engine_result *result) {
  astar_waypoints_query q;
  astar_space space;
  astar_status st = (!ws || (!path && cap))
                        ? ASTAR_INVALID_ARGUMENT
                        : astar_waypoints_query_init(&q, &space, wp, grid, start, goal);
  if (st != ASTAR_OK) {
    if (result) {
      memset(result, 0, sizeof *result);
      result->end = result->meet = ASTAR_NODE_NONE;
      result->cause = st;
    }
    return st;
  }
  /* The nodes go first into the caller's buffer (4 bytes each against a
  ** point's 8) and are turned into cells from the end, so that no node is
  ** overwritten before it is read. */
  astar_node *nodes = (astar_node *)(void *)path;
  astar_engine_result r;
  st = astar_space_find_path(ws, &space, opt, q.start_node, q.goal_node, nodes, cap, &r);
  if (path && (st == ASTAR_OK || st == ASTAR_PARTIAL))
    for (size_t i = r.length; i-- > 0;) path[i] = node_cell(&q, nodes[i]);
  if (result) *result = r;
  return st;
}

/* ---- expanding a path into cells ----------------------------------------------------- */

astar_status astar_waypoints_expand(const astar_point *waypoints, size_t n, astar_point *cells,
                                    size_t cap, size_t *len) {
  if (!len || (!waypoints && n) || (!cells && cap)) return ASTAR_INVALID_ARGUMENT;
  size_t need = n ? 1 : 0;
  for (size_t i = 1; i < n; i++)
    astar__segment_cells(waypoints[i - 1], waypoints[i], NULL, 0, &need);
  *len = need;
  if (need > cap) return ASTAR_BUFFER_TOO_SMALL;
  if (!need) return ASTAR_OK;
  size_t k = 1;
  cells[0] = waypoints[0];
  for (size_t i = 1; i < n; i++)
    astar__segment_cells(waypoints[i - 1], waypoints[i], cells, cap, &k);
  return ASTAR_OK;
}
