/*
** sipp.c -- Safe Interval Path Planning (Phillips & Likhachev 2011) on the
** square grid (astar/spacetime.h).
**
** Per cell, the time steps no obstacle occupies form a few maximal safe
** intervals [lo, hi] (hi == SAFE_FOREVER for the last, unbounded one). A
** search state is (cell, interval): being in the cell at some time of that
** interval. Arriving earlier in an interval is never worse (the unit can
** wait there until any later time of the interval), so each state keeps its
** earliest arrival, and A* over these states with an admissible,
** consistent step count heuristic returns the earliest arrival.
**
** Successors. From (u, i) reached at time t, a move to the neighbour v
** departs at some time in [t, hi_i] and arrives one step later, in
** [t + 1, hi_i + 1]. For each safe interval j of v meeting that range the
** earliest arrival is max(t + 1, lo_j); the unit waits in u until one step
** before (safe: u's interval i covers it). Intervals of a cell are sorted,
** so the scan stops at the first one starting after hi_i + 1.
*/
#include "dynamic/spacetime.h"
#include "core/loop.h"
#include "search/query.h"

#include <stdlib.h>
#include <string.h>

#define SAFE_FOREVER UINT32_MAX
#define MAX_INTERVALS ((size_t)1 << 28)

struct astar_sipp {
  astar_allocator alloc; /* source of the arrays */
  int32_t width;         /* grid columns */
  int32_t height;        /* grid rows */
  uint32_t ncells;       /* padded cells of the grid */
  uint64_t version;      /* astar_grid_version at the build */
  uint32_t *first;       /* [ncells + 1] intervals of padded cell c: first[c] .. first[c+1]-1 */
  uint32_t *iv;          /* [2 * room] lo, hi of each interval (hi SAFE_FOREVER: never ends) */
  uint32_t room;         /* intervals allocated (>= used) */
  uint32_t used;         /* intervals in use: first[ncells] */
};

static void free_sipp(astar_sipp *s) {
  const astar_allocator a = s->alloc;
  astar__free(&a, s->first, ((size_t)s->ncells + 1) * sizeof *s->first);
  astar__free(&a, s->iv, 2 * (size_t)s->room * sizeof *s->iv);
  astar__free(&a, s, sizeof *s);
}

void astar_sipp_free(astar_sipp *sipp) {
  if (sipp) free_sipp(sipp);
}

size_t astar_sipp_intervals(const astar_sipp *sipp) {
  return sipp ? sipp->used : 0;
}

size_t astar_sipp_memory(const astar_sipp *sipp) {
  return sipp ? sizeof *sipp + ((size_t)sipp->ncells + 1) * sizeof(uint32_t) +
                    2 * (size_t)sipp->room * sizeof(uint32_t)
              : 0;
}

/* Occupancies of one cell sorted by first time, then last time. */
typedef struct occ_entry {
  uint32_t cell, from, to;
} occ_entry;

static int cmp_occ(const void *pa, const void *pb) {
  const occ_entry *a = pa, *b = pb;
  if (a->cell != b->cell) return a->cell < b->cell ? -1 : 1;
  if (a->from != b->from) return a->from < b->from ? -1 : 1;
  return (a->to > b->to) - (a->to < b->to);
}

astar_status astar_sipp_new(astar_sipp **out, const astar_grid *grid, const astar_occupancy *occ,
                            size_t n, const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid || (n > 0 && !occ)) return ASTAR_INVALID_ARGUMENT;
  for (size_t k = 0; k < n; k++) {
    if (occ[k].t_to < occ[k].t_from || occ[k].t_to > ASTAR_TIME_MAX) return ASTAR_INVALID_ARGUMENT;
    if (!astar_grid_contains(grid, occ[k].cell.x, occ[k].cell.y)) return ASTAR_OUT_OF_BOUNDS;
  }
  if (n > MAX_INTERVALS - grid->ncells) return ASTAR_TOO_LARGE;
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_sipp *s = astar__calloc(&a, 1, sizeof *s);
  if (!s) return ASTAR_NO_MEMORY;
  s->alloc = a;
  s->width = grid->width;
  s->height = grid->height;
  s->ncells = grid->ncells;
  s->version = grid->version;
  /* Each occupancy splits at most one interval in two. */
  s->room = grid->ncells + (uint32_t)n;
  occ_entry *tmp = NULL;
  s->first = astar__malloc(&a, ((size_t)s->ncells + 1) * sizeof *s->first);
  s->iv = s->first ? astar__malloc(&a, 2 * (size_t)s->room * sizeof *s->iv) : NULL;
  if (s->iv && n > 0) tmp = astar__malloc(&a, n * sizeof *tmp);
  if (!s->iv || (n > 0 && !tmp)) {
    free_sipp(s);
    return ASTAR_NO_MEMORY;
  }
  for (size_t k = 0; k < n; k++)
    tmp[k] = (occ_entry){astar__index(grid, occ[k].cell.x, occ[k].cell.y), occ[k].t_from,
                         occ[k].t_to == ASTAR_TIME_MAX ? SAFE_FOREVER : occ[k].t_to};
  if (n > 1) qsort(tmp, n, sizeof *tmp, cmp_occ);
  uint32_t used = 0;
  size_t k = 0;
  for (uint32_t c = 0; c < s->ncells; c++) {
    s->first[c] = used;
    /* The complement of this cell's occupancies (merged as they come). */
    uint32_t cur = 0;
    bool open = true; /* cur .. is still possibly safe */
    for (; k < n && tmp[k].cell == c; k++) {
      if (!open) continue;
      if (tmp[k].from > cur) {
        s->iv[(size_t)2 * used] = cur;
        s->iv[(size_t)2 * used + 1] = tmp[k].from - 1;
        used++;
      }
      if (tmp[k].to == SAFE_FOREVER) {
        open = false;
      } else if (tmp[k].to + 1 > cur) {
        cur = tmp[k].to + 1;
      }
    }
    if (open) {
      s->iv[(size_t)2 * used] = cur;
      s->iv[(size_t)2 * used + 1] = SAFE_FOREVER;
      used++;
    }
  }
  s->first[s->ncells] = used;
  s->used = used;
  if (tmp) astar__free(&a, tmp, n * sizeof *tmp);
  *out = s;
  return ASTAR_OK;
}

/* The interval of padded cell c containing time t, or UINT32_MAX. */
static uint32_t interval_at(const astar_sipp *s, uint32_t c, uint32_t t) {
  for (uint32_t j = s->first[c]; j < s->first[c + 1]; j++) {
    if (s->iv[(size_t)2 * j] > t) break;
    if (t <= s->iv[(size_t)2 * j + 1]) return j;
  }
  return UINT32_MAX;
}

/* Steps from (x, y) to the goal on an open grid: Chebyshev with diagonal
** moves, Manhattan without (every move takes one step). */
static double steps_to(int32_t x, int32_t y, astar_point goal, bool diag) {
  const int32_t dx = x > goal.x ? x - goal.x : goal.x - x;
  const int32_t dy = y > goal.y ? y - goal.y : goal.y - y;
  return (double)(diag ? (dx > dy ? dx : dy) : dx + dy);
}

static void clear_result(astar_coop_result *r) {
  if (r) memset(r, 0, sizeof *r);
}

astar_status astar_sipp_find_path(astar_spacetime_workspace *ws, const astar_sipp *sipp,
                                  const astar_grid *grid, const astar_options *opt,
                                  astar_point start, astar_point goal, uint32_t t0, bool hold_goal,
                                  astar_point *path, size_t cap, astar_coop_result *result) {
  clear_result(result);
  astar_options defaults;
  if (!opt) {
    astar_options_init(&defaults);
    opt = &defaults;
  }
  if (!ws || !sipp || !grid || (cap > 0 && !path) || t0 > ASTAR_TIME_MAX)
    return ASTAR_INVALID_ARGUMENT;
  if (astar_options_validate(opt) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
  if (grid->width != sipp->width || grid->height != sipp->height) return ASTAR_MISMATCH;
  if (grid->version != sipp->version) return ASTAR_STALE;
  if (!astar_grid_contains(grid, start.x, start.y) || !astar_grid_contains(grid, goal.x, goal.y))
    return ASTAR_OUT_OF_BOUNDS;
  const uint32_t sidx = astar__index(grid, start.x, start.y);
  const uint32_t gidx = astar__index(grid, goal.x, goal.y);
  const uint32_t si = interval_at(sipp, sidx, t0);
  if (!astar_grid_passable(grid, start.x, start.y) || si == UINT32_MAX) return ASTAR_START_BLOCKED;
  if (!astar_grid_passable(grid, goal.x, goal.y) || sipp->first[gidx] == sipp->first[gidx + 1] ||
      (hold_goal && sipp->iv[(size_t)2 * (sipp->first[gidx + 1] - 1) + 1] != SAFE_FOREVER))
    return ASTAR_GOAL_BLOCKED;

  const bool diag = astar__diagonals_on(opt);
  const uint8_t *const allowed = astar__st_moves(ws, astar__rule_of(opt));
  int32_t off[8];
  for (int d = 0; d < 8; d++) off[d] = astar__dir_dy[d] * grid->stride + astar__dir_dx[d];

  astar__st_begin(ws);
  astar_stats stats = {0};
  bool created;
  const uint32_t s0 = astar__st_state(ws, sidx, si, &created);
  ws->node[s0].g = (double)t0;
  ws->node[s0].f = (double)t0 + steps_to(start.x, start.y, goal, diag);
  astar__st_push_or_lower(ws, s0);
  astar__count_root(&stats);
  astar_status st = ASTAR_NO_PATH;
  uint32_t found = ASTAR__NO_PARENT;
  const uint32_t stride = (uint32_t)grid->stride;
  while (ws->nheap > 0) {
    if (opt->max_expansions && stats.expanded >= opt->max_expansions) {
      st = ASTAR_LIMIT_REACHED;
      break;
    }
    const uint32_t u = astar__st_pop(ws);
    astar__count_expand(&stats);
    const astar__stnode nu = ws->node[u];
    const uint32_t hi = sipp->iv[(size_t)2 * nu.t + 1];
    if (nu.cell == gidx && (!hold_goal || hi == SAFE_FOREVER)) {
      found = u;
      break;
    }
    const uint32_t t = (uint32_t)nu.g;
    if (t >= ASTAR_TIME_MAX) continue;
    const uint32_t earliest = t + 1;
    const uint32_t latest = hi == SAFE_FOREVER ? SAFE_FOREVER : hi + 1;
    const unsigned mask = allowed[grid->nb[nu.cell]];
    for (int d = 0; d < 8; d++) {
      if (!(mask & (1u << d))) continue;
      const uint32_t v = (uint32_t)((int32_t)nu.cell + off[d]);
      const int32_t vx = (int32_t)(v % stride) - 1, vy = (int32_t)(v / stride) - 1;
      const double hv = steps_to(vx, vy, goal, diag);
      for (uint32_t j = sipp->first[v]; j < sipp->first[v + 1]; j++) {
        const uint32_t lo = sipp->iv[(size_t)2 * j], hj = sipp->iv[(size_t)2 * j + 1];
        if (lo > latest) break;
        if (hj < earliest) continue;
        const uint32_t arr = lo > earliest ? lo : earliest;
        const uint32_t id = astar__st_state(ws, v, j, &created);
        if (id == ASTAR__NO_PARENT) {
          st = ASTAR_CAPACITY;
          goto out;
        }
        astar__stnode *n = &ws->node[id];
        if (n->pos == ASTAR__ST_CLOSED || !((double)arr < n->g)) continue;
        n->g = (double)arr;
        n->f = (double)arr + hv;
        n->parent = u;
        if (astar__st_push_or_lower(ws, id) == ASTAR_EVENT_PUSH)
          astar__count_push(&stats);
        else
          astar__count_improve(&stats);
        astar__count_open(&stats, ws->nheap);
      }
    }
  }
out:
  if (result) result->stats = stats;
  if (found == ASTAR__NO_PARENT) return st;
  const uint32_t arrival = (uint32_t)ws->node[found].g;
  const size_t len = (size_t)(arrival - t0) + 1;
  if (result) {
    result->cost = (double)(arrival - t0);
    result->estimate = result->cost;
    result->length = len;
    result->at_goal = true;
    result->arrival = arrival;
  }
  if (len > cap) return ASTAR_BUFFER_TOO_SMALL;
  /* Each state: its cell at its arrival; before that, waits in the parent's cell. */
  for (uint32_t id = found; id != ASTAR__NO_PARENT;) {
    const astar__stnode *n = &ws->node[id];
    const uint32_t ta = (uint32_t)n->g;
    const astar_point p = {(int32_t)(n->cell % stride) - 1, (int32_t)(n->cell / stride) - 1};
    path[ta - t0] = p;
    if (n->parent == ASTAR__NO_PARENT) break;
    const astar__stnode *pn = &ws->node[n->parent];
    const astar_point pp = {(int32_t)(pn->cell % stride) - 1, (int32_t)(pn->cell / stride) - 1};
    for (uint32_t tt = (uint32_t)pn->g; tt < ta; tt++) path[tt - t0] = pp;
    id = n->parent;
  }
  return ASTAR_OK;
}
