/*
** field.c -- distance fields (astar/field.h): one reverse Dijkstra search
** from a goal stores every reached cell's cost to the goal and its next
** step, so that any number of units then walk optimal paths without
** searching (Patel 3.4.3, group movement).
**
** Costs. The move u -> v costs c(d) * factor(v), c(d) the straight or
** diagonal cost and factor(v) the entry factor of v:
**   t = terrain(v);  t' = alpha == 1 ? t : 1 + alpha * (t - 1)
**   factor(v) = t' + sum_i weight_i * layer_i(v)        (all in double)
** which is the cost model of astar/search.h. Every rule's move relation is
** symmetric (u -> v legal iff v -> u legal, both cells passable), so the
** predecessors of a settled cell v are exactly the cells its own legal-move
** mask points at, and one table lookup on nb[v] finds them all.
**
** Next steps and ties. cost(u) = min over legal u -> v of c(d) * factor(v) +
** cost(v); the next step of u is the minimising direction d (from u), the
** lowest direction number among equal minima (N, E, S, W, NE, SE, SW, NW).
** Every candidate v is settled before u (its cost is smaller), so all of
** them are compared when u is settled; a next step always points at a cell
** settled earlier, so following next steps can never cycle.
**
** Memory: the field keeps cost (double) and next step (byte) per padded
** cell: 9 bytes. The build borrows a 4-ary heap of (cost, cell) entries, one
** per passable cell at most (decrease-key keeps a cell in it once), and a
** position index (4 bytes a padded cell); both are freed before it returns.
*/
#include "gameloop/layers.h"
#include "core/loop.h"
#include "search/query.h"

#define NO_DIR 0xFFu
#define NOT_REACHED UINT32_MAX
#define SETTLED (UINT32_MAX - 1)

struct astar_field {
  astar_allocator alloc;
  int32_t width, height, stride;
  uint32_t ncells;  /* padded cells */
  uint64_t version; /* astar_grid_version() at the build */
  astar_point goal; /* the goal */
  double cost_d[8]; /* move cost per direction (before the entry factor) */
  double alpha;     /* terrain_scale */
  bool layered;     /* influence layers with a non-zero weight took part */
  double *cost;     /* [ncells] cost to the goal, INFINITY when unreached */
  uint8_t *next;    /* [ncells] direction of the next step, NO_DIR at the goal and
                       where unreached */
};

/* ---- the heap ---------------------------------------------------------------- */

/* Entries are the open list's (heap.h): the cost's bits, then the cell
** index as the tie key, compared as one 128-bit number -- so equal costs
** pop in cell order, whatever the heap's layout, and sift-down needs no
** unpredictable branch. */
typedef astar__hent hent;

typedef struct fheap {
  hent *a;
  uint32_t len;
  uint32_t *pos; /* [ncells] position in a, NOT_REACHED or SETTLED */
} fheap;

ASTAR__INLINE hent make_entry(double cost, uint32_t cell) {
  return astar__entry(cost, 0, cell);
}

ASTAR__INLINE void sift_up(fheap *h, uint32_t i, hent e) {
  hent *const a = h->a;
  while (i > 0) {
    const uint32_t p = (i - 1) / 4;
    if (!astar__hless(&e, &a[p])) break;
    a[i] = a[p];
    h->pos[ASTAR__HNODE(a[i])] = i;
    i = p;
  }
  a[i] = e;
  h->pos[ASTAR__HNODE(e)] = i;
}

ASTAR__INLINE void sift_down(fheap *h, uint32_t i, hent e) {
  hent *const a = h->a;
  const uint32_t n = h->len;
  for (;;) {
    const uint32_t c = 4 * i + 1;
    if (c >= n) break;
    uint32_t b = c;
    if (c + 3 < n) {
      const uint32_t b1 = c + astar__hless(&a[c + 1], &a[c]);
      const uint32_t b2 = c + 2 + astar__hless(&a[c + 3], &a[c + 2]);
      b = astar__hless(&a[b2], &a[b1]) ? b2 : b1;
    } else {
      for (uint32_t k = c + 1; k < n; k++) b = astar__hless(&a[k], &a[b]) ? k : b;
    }
    if (!astar__hless(&a[b], &e)) break;
    a[i] = a[b];
    h->pos[ASTAR__HNODE(a[i])] = i;
    i = b;
  }
  a[i] = e;
  h->pos[ASTAR__HNODE(e)] = i;
}

/* ---- the build ---------------------------------------------------------------- */

static void free_field(astar_field *f) {
  const astar_allocator a = f->alloc;
  astar__free(&a, f->cost, (size_t)f->ncells * sizeof(double));
  astar__free(&a, f->next, f->ncells);
  astar__free(&a, f, sizeof *f);
}

void astar_field_free(astar_field *field) {
  if (field) free_field(field);
}

static void zero_stats(astar_stats *stats) {
  if (stats) memset(stats, 0, sizeof *stats);
}

/* The reverse Dijkstra. Entry factors are computed once per settled cell:
** every move into v shares factor(v). */
static void flood(astar_field *f, const astar_grid *g, const astar_options *o, fheap *h,
                  const astar_point *goals, size_t ngoals, double max_cost, astar_stats *stats) {
  uint8_t allowed[256];
  const int rule = astar__rule_of(o);
  for (unsigned nb = 0; nb < 256; nb++) {
    uint8_t m = 0;
    for (int d = 0; d < 8; d++)
      if (astar__move_allowed(rule, nb, d)) m |= (uint8_t)(1u << d);
    allowed[nb] = m;
  }
  int32_t off[8];
  for (int d = 0; d < 8; d++) off[d] = astar__dir_dy[d] * g->stride + astar__dir_dx[d];

  static const uint8_t opposite[8] = {ASTAR__OPPOSITE(0), ASTAR__OPPOSITE(1), ASTAR__OPPOSITE(2),
                                      ASTAR__OPPOSITE(3), ASTAR__OPPOSITE(4), ASTAR__OPPOSITE(5),
                                      ASTAR__OPPOSITE(6), ASTAR__OPPOSITE(7)};
  double cost_d[8];
  for (int d = 0; d < 8; d++) cost_d[d] = f->cost_d[d];
  double *const cost = f->cost;
  uint8_t *const next = f->next;
  uint32_t *const pos = h->pos;
  const uint8_t *const nbs = g->nb;
  const float *const ter = g->terrain;
  const double alpha = f->alpha;
  const bool bounded = max_cost > 0.0;
  astar_stats st = {0};
  astar__count_root(&st);

  /* Every goal is a source at cost 0 (a repeated goal enters once): the
  ** flood is then the cost to the nearest goal. */
  h->len = 0;
  for (size_t i = 0; i < ngoals; i++) {
    const uint32_t goal = astar__index(g, goals[i].x, goals[i].y);
    if (pos[goal] != NOT_REACHED) continue;
    cost[goal] = 0.0;
    sift_up(h, h->len++, make_entry(0.0, goal));
  }
  while (h->len) {
    const hent top = h->a[0];
    const hent last = h->a[--h->len];
    if (h->len) sift_down(h, 0, last);
    const uint32_t v = ASTAR__HNODE(top);
    pos[v] = SETTLED;
    astar__count_expand(&st);

    double fv = 1.0;
    if (ter) {
      const double t = (double)ter[v];
      fv = alpha == 1.0 ? t : 1.0 + alpha * (t - 1.0);
    }
    for (size_t i = 0; i < o->nlayers; i++)
      fv += (double)o->layer_weights[i] * (double)o->layers[i]->v[v];
    const double cv = cost[v];

    unsigned m = allowed[nbs[v]];
    while (m) {
      const int e = __builtin_ctz(m); /* v -> u; the unit moves u -> v */
      m &= m - 1;
      const uint32_t u = (uint32_t)((int32_t)v + off[e]);
      const uint32_t pu = pos[u];
      if (pu == SETTLED) continue;
      const unsigned d = opposite[e];
      const double ng = cv + cost_d[e] * fv; /* e and d are both straight or both diagonal */
      if (bounded && ng > max_cost) continue;
      if (pu == NOT_REACHED) {
        cost[u] = ng;
        next[u] = (uint8_t)d;
        sift_up(h, h->len++, make_entry(ng, u));
        astar__count_push(&st);
        astar__count_open(&st, h->len);
      } else if (ng < cost[u]) {
        cost[u] = ng;
        next[u] = (uint8_t)d;
        sift_up(h, pu, make_entry(ng, u));
        astar__count_improve(&st);
      } else if (ng == cost[u] && d < next[u]) {
        next[u] = (uint8_t)d;
      }
    }
  }
  if (stats) *stats = st;
}

astar_status astar_field_new(astar_field **out, const astar_grid *grid, const astar_options *opt,
                             astar_point goal, double max_cost, const astar_allocator *alloc,
                             astar_stats *stats) {
  return astar_field_new_goals(out, grid, opt, &goal, 1, max_cost, alloc, stats);
}

astar_status astar_field_new_goals(astar_field **out, const astar_grid *grid,
                                   const astar_options *opt, const astar_point *goals,
                                   size_t ngoals, double max_cost, const astar_allocator *alloc,
                                   astar_stats *stats) {
  zero_stats(stats);
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid || !goals || ngoals == 0) return ASTAR_INVALID_ARGUMENT;
  astar_options defaults;
  if (!opt) {
    astar_options_init(&defaults);
    opt = &defaults;
  }
  if (astar_options_validate(opt) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
  if (!(max_cost >= 0.0)) return ASTAR_INVALID_ARGUMENT; /* negative or NaN */
  for (size_t i = 0; i < opt->nlayers; i++)
    if (!astar__layer_fits(opt->layers[i], grid)) return ASTAR_INVALID_ARGUMENT;
  if (opt->turn_penalty > 0.0 || opt->knowledge) return ASTAR_UNSUPPORTED;
  for (size_t i = 0; i < ngoals; i++)
    if (!astar_grid_contains(grid, goals[i].x, goals[i].y)) return ASTAR_OUT_OF_BOUNDS;
  for (size_t i = 0; i < ngoals; i++)
    if (!astar_grid_passable(grid, goals[i].x, goals[i].y)) return ASTAR_GOAL_BLOCKED;

  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_field *f = astar__malloc(&a, sizeof *f);
  if (!f) return ASTAR_NO_MEMORY;
  memset(f, 0, sizeof *f);
  f->alloc = a;
  f->width = grid->width;
  f->height = grid->height;
  f->stride = grid->stride;
  f->ncells = grid->ncells;
  f->version = grid->version;
  f->goal = goals[0];
  f->alpha = opt->terrain_scale;
  for (int d = 0; d < 8; d++) f->cost_d[d] = d < 4 ? opt->straight_cost : opt->diagonal_cost;
  for (size_t i = 0; i < opt->nlayers; i++)
    if (opt->layer_weights[i] != 0.0f) f->layered = true;

  /* A cell enters the heap at most once, so it needs a slot per passable cell. */
  uint32_t passable = 0;
  for (uint32_t i = 0; i < grid->ncells; i++) passable += grid->pass[i];
  f->cost = astar__malloc(&a, (size_t)f->ncells * sizeof(double));
  f->next = astar__malloc(&a, f->ncells);
  fheap h = {NULL, 0, NULL};
  h.a = astar__malloc(&a, (size_t)passable * sizeof(hent));
  h.pos = astar__malloc(&a, (size_t)f->ncells * sizeof(uint32_t));
  astar_status st = ASTAR_NO_MEMORY;
  if (f->cost && f->next && h.a && h.pos) {
    for (uint32_t i = 0; i < f->ncells; i++) f->cost[i] = INFINITY;
    memset(f->next, NO_DIR, f->ncells);
    memset(h.pos, 0xFF, (size_t)f->ncells * sizeof(uint32_t)); /* NOT_REACHED */
    flood(f, grid, opt, &h, goals, ngoals, max_cost, stats);
    st = ASTAR_OK;
  }
  astar__free(&a, h.a, (size_t)passable * sizeof(hent));
  astar__free(&a, h.pos, (size_t)f->ncells * sizeof(uint32_t));
  if (st != ASTAR_OK) {
    free_field(f);
    return st;
  }
  *out = f;
  return ASTAR_OK;
}

/* ---- queries ---------------------------------------------------------------------- */

double astar_field_cost(const astar_field *field, int32_t x, int32_t y) {
  if (!field || x < 0 || y < 0 || x >= field->width || y >= field->height) return INFINITY;
  return field->cost[(uint32_t)(y + 1) * (uint32_t)field->stride + (uint32_t)(x + 1)];
}

astar_point astar_field_goal(const astar_field *field) {
  if (!field) return (astar_point){-1, -1};
  return field->goal;
}

astar_status astar_field_export(const astar_field *field, double *cost, uint8_t *next, size_t cap) {
  if (!field || (!cost && !next)) return ASTAR_INVALID_ARGUMENT;
  const size_t w = (size_t)field->width, h = (size_t)field->height;
  if (cap < w * h) return ASTAR_BUFFER_TOO_SMALL;
  for (size_t y = 0; y < h; y++) {
    const size_t row = (y + 1) * (size_t)field->stride + 1;
    if (cost) memcpy(cost + y * w, field->cost + row, w * sizeof(double));
    if (next) memcpy(next + y * w, field->next + row, w);
  }
  return ASTAR_OK;
}

size_t astar_field_memory(const astar_field *field) {
  if (!field) return 0;
  return sizeof *field + (size_t)field->ncells * (sizeof(double) + 1);
}

/*
** The path's cost is summed step by step in path order -- the order in which
** a forward search adds up g -- so that it matches astar_find_path's cost to
** the last bit whenever both take the same cells; astar_field_cost(start)
** sums the same steps from the goal end and may differ in the last bits.
** With influence layers the step costs cannot be recomputed here (the
** layers are not kept), and the field's own cost is reported.
*/
astar_status astar_field_path(const astar_field *field, const astar_grid *grid, astar_point start,
                              astar_point *path, size_t cap, astar_result *result) {
  astar_status st = ASTAR_OK;
  size_t len = 0;
  double total = 0.0;
  uint32_t u = 0;
  if (!field || !grid || (cap > 0 && !path) || grid->width != field->width ||
      grid->height != field->height) {
    st = ASTAR_INVALID_ARGUMENT;
  } else if (grid->version != field->version) {
    st = ASTAR_STALE;
  } else if (!astar_grid_contains(grid, start.x, start.y)) {
    st = ASTAR_OUT_OF_BOUNDS;
  } else if (!astar_grid_passable(grid, start.x, start.y)) {
    st = ASTAR_START_BLOCKED;
  } else {
    u = astar__index(grid, start.x, start.y);
    if (field->cost[u] == INFINITY) st = ASTAR_NO_PATH;
  }
  astar__result_clear(result, st);
  if (st != ASTAR_OK) return st;

  /* Count the cells and add up the steps; write only if they fit. */
  const float *const ter = grid->terrain;
  const int32_t s = field->stride;
  len = 1;
  astar_point end = start; /* the goal reached: with several, the nearest */
  for (uint32_t v = u; field->next[v] != NO_DIR; len++) {
    const unsigned d = field->next[v];
    v = (uint32_t)((int32_t)v + astar__dir_dy[d] * s + astar__dir_dx[d]);
    end.x += astar__dir_dx[d];
    end.y += astar__dir_dy[d];
    double fv = 1.0;
    if (ter) {
      const double t = (double)ter[v];
      fv = field->alpha == 1.0 ? t : 1.0 + field->alpha * (t - 1.0);
    }
    total += field->cost_d[d] * fv;
  }
  if (field->layered) total = field->cost[u];
  if (result) {
    result->cost = total;
    result->length = len;
    result->end = end;
  }
  if (len > cap) {
    if (result) result->cause = ASTAR_BUFFER_TOO_SMALL;
    return ASTAR_BUFFER_TOO_SMALL;
  }
  int32_t x = start.x, y = start.y;
  path[0] = start;
  size_t i = 1;
  for (uint32_t v = u; field->next[v] != NO_DIR; i++) {
    const unsigned d = field->next[v];
    v = (uint32_t)((int32_t)v + astar__dir_dy[d] * s + astar__dir_dx[d]);
    x += astar__dir_dx[d];
    y += astar__dir_dy[d];
    path[i] = (astar_point){x, y};
  }
  return ASTAR_OK;
}
