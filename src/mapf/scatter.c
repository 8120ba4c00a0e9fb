/*
** mapf/scatter.c -- "scatter" (space utilisation optimisation, lacam3,
** Okumura AAMAS 2024): before LaCAM starts, each agent gets a single-agent
** path at most `margin` longer than its shortest one that crosses the
** others' paths as little as possible (A* over cells, fewest collisions
** first, then f); a few rounds over all agents in random order while the
** collisions keep dropping. PIBT then tries the next cell of that path
** first, which spreads the agents over the map instead of sending them all
** down the same shortest corridors.
*/
#include <string.h>

#include "pibt.h"

/* Scratch slots 8 .. 15 (the PIBT solver's; free during a LaCAM solve). */
enum {
  SLOT_PATHS = 8,
  SLOT_POOL,
  SLOT_COUNT_K,
  SLOT_COUNT_V,
  SLOT_CELLS,
  SLOT_HEAP,
  SLOT_NEXT_K,
  SLOT_NEXT_V
};

#define EMPTY_KEY UINT64_MAX
#define MARGIN 10u    /* lacam3's default scatter margin */
#define MAX_ROUNDS 4u /* rounds over all agents, at most */

static uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

typedef struct sc_table {
  uint64_t *keys;
  uint32_t *vals;
  uint32_t mask, used;
} sc_table;

typedef struct sc_item {
  uint64_t key; /* collisions << 40 | f << 20 | (2^20 - 1 - g): fewest collisions, then
                   least f, then deepest (on open grids many cells tie on f) */
  uint32_t cell, parent, g;
} sc_item;

typedef struct scatter {
  mapf_ctx *c;
  const mapf_graph *g;
  uint32_t n;
  astar_status st;
  mapf_rng rng;
  uint32_t *off, *len, *order; /* n each */
  uint32_t *pool;
  size_t pool_n, pool_cap;
  uint32_t *parent; /* cells: A*'s closed list (MAPF_NONE: open) */
  uint32_t *goal_t; /* cells: arrival time of the agent whose goal it is, or MAPF_NONE */
  uint32_t *used;   /* cells: the closed cells, to reset */
  sc_item *heap;
  uint32_t heap_n, heap_cap;
  sc_table count; /* (time, cell) -> agents there */
  uint64_t work;
} scatter;

static void *slot(scatter *s, unsigned k, size_t bytes) {
  astar_status st = ASTAR_OK;
  void *p = mapf_scratch(s->c, k, bytes ? bytes : 1, &st);
  if (!p) s->st = st;
  return p;
}

/* ---- tables ------------------------------------------------------------------------------ */

static bool tab_init(scatter *s, sc_table *t, unsigned ks, unsigned vs, size_t entries) {
  size_t size = 1024;
  while (size < entries * 2) size *= 2;
  t->keys = slot(s, ks, size * sizeof(uint64_t));
  t->vals = t->keys ? slot(s, vs, size * sizeof(uint32_t)) : NULL;
  if (!t->vals) return false;
  t->mask = (uint32_t)(size - 1);
  t->used = 0;
  for (size_t k = 0; k < size; k++) t->keys[k] = EMPTY_KEY;
  return true;
}

static uint32_t *tab_slot(sc_table *t, uint64_t key, bool make) {
  /* Every lookup follows a successful tab_init (keys and vals set); the
  ** guard states that invariant for the analyzer and costs one branch. */
  if (!t->vals) return NULL;
  uint32_t e = (uint32_t)mix(key) & t->mask;
  while (t->keys[e] != EMPTY_KEY) {
    if (t->keys[e] == key) return &t->vals[e];
    e = (e + 1) & t->mask;
  }
  if (!make) return NULL;
  t->keys[e] = key;
  t->vals[e] = 0;
  t->used++;
  return &t->vals[e];
}

/* Room for `more` new keys at half load; grows by rehashing. */
static bool tab_room(scatter *s, sc_table *t, size_t more, unsigned ks, unsigned vs,
                     unsigned tmp_slot) {
  if (((size_t)t->used + more) * 2 <= (size_t)t->mask + 1) return true;
  size_t old = (size_t)t->mask + 1, size = old;
  while (size < ((size_t)t->used + more) * 2) size *= 2;
  /* Keep the old entries in a temporary slot while the table grows. */
  uint64_t *tk = slot(s, tmp_slot, (size_t)t->used * (sizeof(uint64_t) + sizeof(uint32_t)) + 8);
  if (!tk) return false;
  uint32_t *tv = (uint32_t *)(tk + t->used);
  size_t m = 0;
  for (size_t e = 0; e < old; e++)
    if (t->keys[e] != EMPTY_KEY) {
      tk[m] = t->keys[e];
      tv[m++] = t->vals[e];
    }
  if (!tab_init(s, t, ks, vs, size / 2)) return false;
  for (size_t k = 0; k < m; k++) *tab_slot(t, tk[k], true) = tv[k];
  return true;
}

static uint64_t tv_key(uint32_t a, uint32_t b) {
  return ((uint64_t)a << 32) | b;
}

/* ---- one agent ------------------------------------------------------------------------ */

static void heap_push(scatter *s, sc_item it) {
  sc_item *h = s->heap;
  uint32_t q = s->heap_n++;
  while (q > 0 && h[(q - 1) / 2].key > it.key) {
    h[q] = h[(q - 1) / 2];
    q = (q - 1) / 2;
  }
  h[q] = it;
}

static sc_item heap_pop(scatter *s) {
  sc_item *h = s->heap, top = h[0], last = h[--s->heap_n];
  uint32_t q = 0, n = s->heap_n;
  for (;;) {
    uint32_t ch = 2 * q + 1;
    if (ch >= n) break;
    if (ch + 1 < n && h[ch + 1].key < h[ch].key) ch++;
    if (h[ch].key >= last.key) break;
    h[q] = h[ch];
    q = ch;
  }
  if (n > 0) h[q] = last;
  return top;
}

/* Like lacam3: scatter may take half the time limit, no more (the search
** needs the rest). Only with a time limit, which is not deterministic
** anyway. */
static bool over_half(scatter *s) {
  double limit = s->c->o->time_limit;
  return limit > 0 && mapf_elapsed(s->c) >= 0.5 * limit;
}

/* Agents at (t, v) plus the one holding v as its goal since before t. */
static uint32_t collisions(scatter *s, uint32_t v, uint32_t t) {
  const uint32_t *c = tab_slot(&s->count, tv_key(t, v), false);
  uint32_t k = c ? *c : 0;
  if (s->goal_t[v] != MAPF_NONE && t > s->goal_t[v]) k++;
  return k;
}

static void enroll(scatter *s, uint32_t i, int delta) {
  const uint32_t *q = s->pool + s->off[i];
  for (uint32_t t = 0; t < s->len[i]; t++) {
    uint32_t *c = tab_slot(&s->count, tv_key(t, q[t]), delta > 0);
    if (c) *c = (uint32_t)((int)*c + delta);
  }
  if (s->len[i] > 0) s->goal_t[q[s->len[i] - 1]] = delta > 0 ? s->len[i] - 1 : MAPF_NONE;
}

/* A* over cells for agent i; the path replaces its old one. Returns the
** collisions along it, or UINT32_MAX when it stopped (s->st, limits). */
static uint32_t plan(scatter *s, uint32_t i) {
  const astar_mapf_problem *p = s->c->p;
  const uint32_t start = p->start[i], goal = p->goal[i];
  astar_status st = ASTAR_OK;
  uint32_t d0 = mapf_dist_get(s->c, i, start, &st);
  if (st != ASTAR_OK) {
    s->st = st;
    return UINT32_MAX;
  }
  const uint32_t ub = d0 + MARGIN;
  uint32_t used_n = 0, result = UINT32_MAX, found_g = 0;
  s->heap_n = 0;
  sc_item first = {((uint64_t)d0 << 20) | 0xFFFFFu, start, MAPF_NONE, 0};
  if (!s->heap) {
    s->heap = slot(s, SLOT_HEAP, 1024 * sizeof(sc_item));
    if (!s->heap) return UINT32_MAX;
    s->heap_cap = 1024;
  }
  heap_push(s, first);
  while (s->heap_n > 0) {
    sc_item it = heap_pop(s);
    if (s->parent[it.cell] != MAPF_NONE || (it.cell == start && used_n > 0)) continue;
    s->parent[it.cell] = it.parent == MAPF_NONE ? it.cell : it.parent;
    s->used[used_n++] = it.cell;
    if (++s->work % 1024 == 0 && (mapf_out_of_limits(s->c, s->work) || over_half(s))) break;
    if (it.cell == goal) {
      result = (uint32_t)(it.key >> 40);
      found_g = it.g;
      break;
    }
    uint32_t deg = s->g->deg[it.cell];
    for (uint32_t k = 0; k < deg; k++) {
      uint32_t u = s->g->nb[4 * (size_t)it.cell + k];
      if (u == start || s->parent[u] != MAPF_NONE) continue;
      uint32_t du = mapf_dist_get(s->c, i, u, &st);
      if (st != ASTAR_OK) {
        s->st = st;
        break;
      }
      if (du + it.g + 1 > ub) continue;
      if (s->heap_n == s->heap_cap) {
        size_t cap = s->heap_cap ? (size_t)s->heap_cap * 2 : 1024;
        sc_item *h = slot(s, SLOT_HEAP, cap * sizeof(sc_item));
        if (!h) break;
        s->heap = h;
        s->heap_cap = (uint32_t)cap;
      }
      uint64_t coll = (it.key >> 40) + collisions(s, u, it.g + 1);
      if (coll > 0xFFFFFu) coll = 0xFFFFFu;
      uint64_t f = (uint64_t)it.g + 1 + du;
      if (f > 0xFFFFFu) f = 0xFFFFFu; /* order only: clamping keeps the fields apart */
      uint64_t deep = 0xFFFFFu - ((uint64_t)it.g + 1 > 0xFFFFFu ? 0xFFFFFu : (uint64_t)it.g + 1);
      sc_item nx = {(coll << 40) | (f << 20) | deep, u, it.cell, it.g + 1};
      heap_push(s, nx);
    }
    if (s->st != ASTAR_OK) break;
  }
  if (result != UINT32_MAX) {
    /* The path, goal back to start, into the pool (room reserved). */
    uint32_t *q = s->pool + s->pool_n;
    uint32_t v = goal;
    for (uint32_t t = found_g + 1; t-- > 0;) {
      q[t] = v;
      v = s->parent[v];
    }
    s->off[i] = (uint32_t)s->pool_n;
    s->len[i] = found_g + 1;
    s->pool_n += found_g + 1;
  }
  for (uint32_t k = 0; k < used_n; k++) s->parent[s->used[k]] = MAPF_NONE;
  return result;
}

/* ---- the whole ------------------------------------------------------------------------- */

astar_status mapf_scatter_build(mapf_scatter *out, mapf_ctx *c, const mapf_graph *g,
                                uint64_t seed) {
  const astar_mapf_problem *p = c->p;
  const uint32_t n = p->n;
  scatter s;
  memset(&s, 0, sizeof s);
  memset(out, 0, sizeof *out);
  s.c = c;
  s.g = g;
  s.n = n;
  s.st = ASTAR_OK;
  mapf_rng_seed(&s.rng, seed);
  astar_status st = ASTAR_OK;
  uint32_t *a = slot(&s, SLOT_PATHS, ((size_t)3 * n) * sizeof(uint32_t));
  uint32_t *cl = a ? slot(&s, SLOT_CELLS, (size_t)3 * p->cells * sizeof(uint32_t)) : NULL;
  if (!cl) return s.st != ASTAR_OK ? s.st : st;
  s.off = a;
  s.len = a + n;
  s.order = a + 2 * (size_t)n;
  s.parent = cl;
  s.goal_t = cl + p->cells;
  s.used = cl + 2 * (size_t)p->cells;
  for (uint32_t v = 0; v < p->cells; v++) s.parent[v] = s.goal_t[v] = MAPF_NONE;
  size_t total = 0;
  for (uint32_t i = 0; i < n; i++) {
    s.len[i] = 0;
    s.order[i] = i;
    total += mapf_dist_get(c, i, p->start[i], &st) + MARGIN + 1;
    if (st != ASTAR_OK) return s.st != ASTAR_OK ? s.st : st;
  }
  /* The pool holds two rounds of paths, then is compacted. */
  s.pool_cap = 2 * total + 1024;
  s.pool = slot(&s, SLOT_POOL, s.pool_cap * sizeof(uint32_t));
  if (!s.pool || !tab_init(&s, &s.count, SLOT_COUNT_K, SLOT_COUNT_V, total))
    return s.st != ASTAR_OK ? s.st : st;
  uint64_t last_total = UINT64_MAX;
  for (uint32_t round = 0; round < MAX_ROUNDS; round++) {
    for (uint32_t x = n - 1; x > 0; x--) {
      uint32_t y = (uint32_t)mapf_rng_below(&s.rng, x + 1), t = s.order[x];
      s.order[x] = s.order[y];
      s.order[y] = t;
    }
    if (s.pool_n + total > s.pool_cap) {
      /* Compact: the live paths to the front (in agent order, through the
      ** heap slot as a buffer). */
      size_t live = 0;
      for (uint32_t i = 0; i < n; i++) live += s.len[i];
      uint32_t *tmp = slot(&s, SLOT_NEXT_V, live * sizeof(uint32_t) + 4);
      if (!tmp) return s.st != ASTAR_OK ? s.st : st;
      size_t at = 0;
      for (uint32_t i = 0; i < n; i++) {
        memcpy(tmp + at, s.pool + s.off[i], s.len[i] * sizeof(uint32_t));
        s.off[i] = (uint32_t)at;
        at += s.len[i];
      }
      memcpy(s.pool, tmp, at * sizeof(uint32_t));
      s.pool_n = at;
    }
    uint64_t coll_total = 0;
    bool stopped = false;
    for (uint32_t k = 0; k < n && !stopped; k++) {
      uint32_t i = s.order[k];
      if (s.len[i] > 0) enroll(&s, i, -1);
      if (!tab_room(&s, &s.count, (size_t)MARGIN + 1 + mapf_dist_get(c, i, p->start[i], &st),
                    SLOT_COUNT_K, SLOT_COUNT_V, SLOT_NEXT_K))
        return s.st != ASTAR_OK ? s.st : st;
      uint32_t coll = plan(&s, i);
      if (s.st != ASTAR_OK) return s.st;
      if (coll == UINT32_MAX)
        stopped = true; /* limits: keep what there is */
      else
        coll_total += coll;
      if (s.len[i] > 0) enroll(&s, i, +1);
    }
    if (stopped || coll_total == 0 || (round >= 1 && coll_total >= last_total)) break;
    last_total = coll_total;
  }
  /* (agent, cell) -> next cell along the agent's path. */
  size_t entries = 0;
  for (uint32_t i = 0; i < n; i++) entries += s.len[i];
  sc_table next;
  if (!tab_init(&s, &next, SLOT_NEXT_K, SLOT_NEXT_V, entries)) return s.st != ASTAR_OK ? s.st : st;
  for (uint32_t i = 0; i < n; i++) {
    const uint32_t *q = s.pool + s.off[i];
    for (uint32_t t = 0; t + 1 < s.len[i]; t++) *tab_slot(&next, tv_key(i, q[t]), true) = q[t + 1];
  }
  out->keys = next.keys;
  out->vals = next.vals;
  out->mask = next.mask;
  out->work = s.work;
  return ASTAR_OK;
}

uint32_t mapf_scatter_next(const mapf_scatter *sc, uint32_t agent, uint32_t cell) {
  uint64_t key = tv_key(agent, cell);
  for (uint32_t e = (uint32_t)mix(key) & sc->mask;; e = (e + 1) & sc->mask) {
    if (sc->keys[e] == key) return sc->vals[e];
    if (sc->keys[e] == EMPTY_KEY) return MAPF_NONE;
  }
}
