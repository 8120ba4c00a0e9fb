/*
** prioritized.c -- prioritised planning, the MAPF baseline (astar/mapf.h,
** "prioritized"): agents one after the other, each a space-time A* around
** the timed paths of the agents before it, which hold their goals for
** ever. Incomplete (an agent may find every way closed by the earlier
** ones) and suboptimal; fast on sparse instances.
**
** The search is a lean space-time A* of its own rather than the library's
** cooperative A* (astar/spacetime.h), for three reasons measured on
** den520d with 200 agents (27 s there): MAPF's unit costs make a state's g
** its time, so a state needs no decrease-key and is final when first
** generated; the heuristic can know that an agent cannot finish before
** the last time an earlier agent visits its goal (h = max(distance, last
** visit + 1 - t), consistent), which spares exploring every (cell, time)
** below that time; and the limits are looked at every expansion.
**
** Tables (all counted scratch): occupancy (cell, time) -> agent of the
** agents planned so far (a hash); held_from[cell], the time from which an
** agent holds the cell for ever (its goal); last[cell], one more than the
** last time anyone planned is in the cell. A move u -> v at t -> t + 1 is
** refused when someone is in v at t + 1, v is held by then, or the agent
** in v at t is in u at t + 1 (a swap). The search ends popping the goal
** at a time after its last visit by an earlier agent.
**
** Windowed (options.window = W > 0, Silver's WHCA*): every agent plans W
** steps ahead honouring the others' windowed plans, then all follow the
** first max(1, W / 2) steps and plan again, in the same order (W at most
** the horizon and the automatic horizon below); beyond the
** window a path costs its distance to the goal (the end state is the one
** at t0 + W of least time + distance, or the goal when nobody needs it
** within the window). Solved when every agent stands at its goal after a
** round; max_steps bounds the rounds' total time.
**
** Order: agent index order; options.seed != 0 shuffles it (Fisher-Yates on
** the library's generator). Horizon: options.max_steps, or automatically
** max(1024, longest single-agent distance + width + height + agents).
** An agent that finds no path within the horizon ends the solve with
** ASTAR_LIMIT_REACHED (not a proof that the instance has no solution).
** Work: one unit per state expanded.
*/
#include "mapf/mapf.h"
#include "core/internal.h"

#include <string.h>

#define NONE UINT32_MAX

/* Scratch slots of this algorithm (mapf_scratch). */
enum { SLOT_NODES, SLOT_HEAP, SLOT_HELD, SLOT_LAST, SLOT_ORDER, SLOT_PATH, SLOT_POS, SLOT_WPATH };

/* ---- a hash map (cell, time) -> uint32, open addressing ---------------------------- */

typedef struct tmap {
  uint64_t *keys; /* key + 1; 0 empty */
  uint32_t *vals;
  size_t cap, count; /* cap a power of two, count <= cap / 2 */
} tmap;

/* The slot of `key`, or the empty slot where it would go. m->cap > 0. */
static size_t tmap_slot(const tmap *m, uint64_t key) {
  uint64_t h = key * 0x9E3779B97F4A7C15ull;
  h ^= h >> 29;
  size_t i = (size_t)h & (m->cap - 1);
  while (m->keys[i] && m->keys[i] != key + 1) i = (i + 1) & (m->cap - 1);
  return i;
}

static void tmap_free(mapf_ctx *c, tmap *m) {
  if (m->keys) mapf_free(c, m->keys, m->cap * sizeof(uint64_t));
  if (m->vals) mapf_free(c, m->vals, m->cap * sizeof(uint32_t));
  memset(m, 0, sizeof *m);
}

static astar_status tmap_init(mapf_ctx *c, tmap *m, size_t cap) {
  astar_status st = ASTAR_OK;
  memset(m, 0, sizeof *m);
  m->keys = mapf_alloc(c, cap * sizeof(uint64_t), &st);
  m->vals = m->keys ? mapf_alloc(c, cap * sizeof(uint32_t), &st) : NULL;
  if (!m->keys || !m->vals) {
    if (m->keys) mapf_free(c, m->keys, cap * sizeof(uint64_t));
    m->keys = NULL;
    m->vals = NULL;
    return st != ASTAR_OK ? st : ASTAR_NO_MEMORY;
  }
  m->cap = cap;
  memset(m->keys, 0, cap * sizeof(uint64_t));
  return ASTAR_OK;
}

static void tmap_clear(tmap *m) {
  if (m->keys) memset(m->keys, 0, m->cap * sizeof(uint64_t));
  m->count = 0;
}

static uint32_t tmap_get(const tmap *m, uint64_t key) {
  if (!m->keys) return NONE;
  const size_t i = tmap_slot(m, key);
  return m->keys[i] ? m->vals[i] : NONE;
}

/* Insert or overwrite; grows (doubling) when half full. */
static astar_status tmap_put(mapf_ctx *c, tmap *m, uint64_t key, uint32_t val) {
  if ((m->count + 1) * 2 > m->cap) {
    tmap bigger;
    astar_status st = tmap_init(c, &bigger, m->cap ? m->cap * 2 : 4096);
    if (st != ASTAR_OK) return st;
    for (size_t i = 0; i < m->cap; i++) {
      if (!m->keys[i]) continue;
      const size_t j = tmap_slot(&bigger, m->keys[i] - 1);
      bigger.keys[j] = m->keys[i];
      bigger.vals[j] = m->vals[i];
    }
    bigger.count = m->count;
    tmap_free(c, m);
    *m = bigger;
  }
  const size_t i = tmap_slot(m, key);
  if (!m->keys[i]) m->count++;
  m->keys[i] = key + 1;
  m->vals[i] = val;
  return ASTAR_OK;
}

/* ---- the planner --------------------------------------------------------------------- */

typedef struct node {
  uint32_t cell, t, parent;
} node;

typedef struct heap_item {
  uint64_t key; /* f << 32 | (2^32 - 1 - t): least f, then latest time */
  uint32_t node;
} heap_item;

typedef struct planner {
  mapf_ctx *c;
  const astar_mapf_problem *p;
  tmap occ;       /* (cell, time) -> agent, of the agents planned */
  tmap seen;      /* (cell, time) -> node, of the current search */
  uint32_t *held; /* cells: time held from, for ever; NONE */
  uint32_t *last; /* cells: last time occupied + 1; 0 never */
  node *nodes;    /* the current search's states */
  size_t nnodes, node_cap;
  heap_item *heap;
  size_t nheap, heap_cap;
  uint64_t work;
} planner;

static uint64_t key_of(const planner *s, uint32_t cell, uint32_t t) {
  return (uint64_t)t * s->p->cells + cell;
}

static bool heap_less(const heap_item *a, const heap_item *b) {
  return a->key < b->key || (a->key == b->key && a->node < b->node);
}

static astar_status heap_push(planner *s, uint64_t key, uint32_t nd) {
  if (s->nheap == s->heap_cap) {
    astar_status st = ASTAR_OK;
    const size_t cap = s->heap_cap ? s->heap_cap * 2 : 1024;
    heap_item *h = mapf_scratch(s->c, SLOT_HEAP, cap * sizeof *h, &st);
    if (!h) return st;
    s->heap = h;
    s->heap_cap = cap;
  }
  heap_item x = {key, nd};
  size_t i = s->nheap++;
  while (i > 0 && heap_less(&x, &s->heap[(i - 1) / 2])) {
    s->heap[i] = s->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  s->heap[i] = x;
  return ASTAR_OK;
}

static heap_item heap_pop(planner *s) {
  const heap_item top = s->heap[0], x = s->heap[--s->nheap];
  size_t i = 0;
  for (;;) {
    size_t ch = 2 * i + 1;
    if (ch >= s->nheap) break;
    if (ch + 1 < s->nheap && heap_less(&s->heap[ch + 1], &s->heap[ch])) ch++;
    if (!heap_less(&s->heap[ch], &x)) break;
    s->heap[i] = s->heap[ch];
    i = ch;
  }
  if (s->nheap) s->heap[i] = x;
  return top;
}

/* A new state (cell, t) reached from `parent`, queued with f. */
static astar_status add_state(planner *s, uint32_t cell, uint32_t t, uint32_t parent, uint64_t f) {
  if (s->nnodes == s->node_cap) {
    astar_status st = ASTAR_OK;
    const size_t cap = s->node_cap ? s->node_cap * 2 : 4096;
    if (cap > NONE) return ASTAR_LIMIT_REACHED;
    node *n = mapf_scratch(s->c, SLOT_NODES, cap * sizeof *n, &st);
    if (!n) return st;
    s->nodes = n;
    s->node_cap = cap;
  }
  const uint32_t id = (uint32_t)s->nnodes++;
  s->nodes[id] = (node){cell, t, parent};
  astar_status st = tmap_put(s->c, &s->seen, key_of(s, cell, t), id);
  if (st != ASTAR_OK) return st;
  return heap_push(s, (f << 32) | (uint64_t)(UINT32_MAX - t), id);
}

/* Is (v, t + 1) free for `agent` coming from u at t? */
static bool move_ok(const planner *s, uint32_t u, uint32_t v, uint32_t t) {
  if (s->held[v] != NONE && t + 1 >= s->held[v]) return false;
  if (tmap_get(&s->occ, key_of(s, v, t + 1)) != NONE) return false;
  if (u != v) {
    const uint32_t j = tmap_get(&s->occ, key_of(s, v, t));
    if (j != NONE && tmap_get(&s->occ, key_of(s, u, t + 1)) == j) return false;
  }
  return true;
}

/* f of a state at time t with distance hv to the goal: no arrival before
** `after` (the goal's last visit by another agent, + 1), so h is the
** larger of hv and after - t -- consistent, as both parts are. */
static uint64_t f_of(uint32_t t, uint32_t hv, uint32_t after) {
  const uint64_t wait = after > t ? (uint64_t)(after - t) : 0;
  return (uint64_t)t + (hv > wait ? hv : wait);
}

/* A search from (start, t0) for `agent`. Full (window 0): to its goal,
** after the goal's last visit, within the horizon. Windowed: to time
** t0 + window or to the goal free up to then. The path (times t0 ..) goes
** into *path[0 .. *len-1], the SLOT_PATH scratch (sized to the path found,
** not to the horizon). ASTAR_LIMIT_REACHED: no path (horizon, work),
** or the time or memory limit. */
static astar_status search(planner *s, uint32_t agent, uint32_t start, uint32_t t0, uint32_t window,
                           uint32_t horizon, astar_point **path, size_t *len) {
  mapf_ctx *c = s->c;
  const astar_mapf_problem *p = s->p;
  const uint32_t goal = p->goal[agent];
  astar_status st = ASTAR_OK;
  s->nnodes = 0;
  s->nheap = 0;
  tmap_clear(&s->seen);
  /* the goal's last visit by another agent: full search only (the windowed
  ** one asks the table within its window) */
  const uint32_t after = window ? 0 : s->last[goal];
  const uint32_t t_end = window ? t0 + window : horizon;
  uint32_t h0 = mapf_dist_get(c, agent, start, &st);
  if (st != ASTAR_OK) return st;
  if ((st = add_state(s, start, t0, NONE, f_of(t0, h0, after))) != ASTAR_OK) return st;
  uint32_t found = NONE;
  while (s->nheap > 0) {
    const heap_item top = heap_pop(s);
    const node cur = s->nodes[top.node];
    if (cur.cell == goal) {
      bool free_after = true;
      if (!window) {
        free_after = cur.t >= after;
      } else {
        for (uint32_t tt = cur.t + 1; tt <= t_end && free_after; tt++)
          free_after = tmap_get(&s->occ, key_of(s, goal, tt)) == NONE;
      }
      if (free_after) {
        found = top.node;
        break;
      }
    }
    if (window && cur.t >= t_end) {
      found = top.node;
      break;
    }
    if (mapf_out_of_limits(c, s->work)) return ASTAR_LIMIT_REACHED;
    s->work++;
    if (cur.t >= t_end) continue;      /* the horizon */
    for (unsigned d = 0; d < 5; d++) { /* wait, then N, E, S, W */
      const uint32_t v = d == 0 ? cur.cell : mapf_neighbour(p, cur.cell, d - 1);
      if (v == NONE || !move_ok(s, cur.cell, v, cur.t)) continue;
      if (tmap_get(&s->seen, key_of(s, v, cur.t + 1)) != NONE) continue;
      const uint32_t hv = mapf_dist_get(c, agent, v, &st);
      if (st != ASTAR_OK) return st;
      if (hv == MAPF_DIST_INF) continue;
      if ((st = add_state(s, v, cur.t + 1, top.node, f_of(cur.t + 1, hv, after))) != ASTAR_OK)
        return st;
    }
  }
  if (found == NONE) return ASTAR_LIMIT_REACHED;
  size_t n = (size_t)(s->nodes[found].t - t0) + 1;
  astar_point *out = mapf_scratch(c, SLOT_PATH, n * sizeof *out, &st);
  if (!out) return st != ASTAR_OK ? st : ASTAR_NO_MEMORY;
  *path = out;
  *len = n;
  for (uint32_t k = found; k != NONE; k = s->nodes[k].parent) {
    const uint32_t cell = s->nodes[k].cell;
    out[--n] = (astar_point){(int32_t)(cell % (uint32_t)p->w), (int32_t)(cell / (uint32_t)p->w)};
  }
  return ASTAR_OK;
}

static uint32_t cell_of(const astar_mapf_problem *p, astar_point q) {
  return (uint32_t)q.y * (uint32_t)p->w + (uint32_t)q.x;
}

/* Enter path[0 .. len-1] (times t0 ..) of `agent` in the tables; with
** hold, the agent keeps its last cell for ever from then on. */
static astar_status reserve(planner *s, uint32_t agent, const astar_point *path, size_t len,
                            uint32_t t0, bool hold) {
  if (!path || len == 0) return ASTAR_INVALID_ARGUMENT;
  for (size_t k = 0; k < len; k++) {
    const uint32_t cell = cell_of(s->p, path[k]), t = t0 + (uint32_t)k;
    astar_status st = tmap_put(s->c, &s->occ, key_of(s, cell, t), agent);
    if (st != ASTAR_OK) return st;
    if (t + 1 > s->last[cell]) s->last[cell] = t + 1;
  }
  if (hold) s->held[cell_of(s->p, path[len - 1])] = t0 + (uint32_t)len - 1;
  return ASTAR_OK;
}

static astar_status setup(planner *s, uint32_t **order) {
  mapf_ctx *c = s->c;
  const astar_mapf_problem *p = s->p;
  astar_status st = ASTAR_OK;
  s->held = mapf_scratch(c, SLOT_HELD, (size_t)p->cells * sizeof(uint32_t), &st);
  s->last = s->held ? mapf_scratch(c, SLOT_LAST, (size_t)p->cells * sizeof(uint32_t), &st) : NULL;
  *order = s->last ? mapf_scratch(c, SLOT_ORDER, (size_t)p->n * sizeof(uint32_t), &st) : NULL;
  if (!*order) return st != ASTAR_OK ? st : ASTAR_NO_MEMORY;
  memset(s->held, 0xff, (size_t)p->cells * sizeof(uint32_t));
  memset(s->last, 0, (size_t)p->cells * sizeof(uint32_t));
  if ((st = tmap_init(c, &s->occ, 4096)) != ASTAR_OK) return st;
  if ((st = tmap_init(c, &s->seen, 4096)) != ASTAR_OK) return st;
  uint32_t *ord = *order;
  for (uint32_t i = 0; i < p->n; i++) ord[i] = i;
  if (c->o->seed != 0) {
    mapf_rng r;
    mapf_rng_seed(&r, c->o->seed);
    for (uint32_t i = p->n - 1; i > 0; i--) {
      const uint32_t j = (uint32_t)mapf_rng_below(&r, (uint64_t)i + 1);
      const uint32_t t = ord[i];
      ord[i] = ord[j];
      ord[j] = t;
    }
  }
  return ASTAR_OK;
}

/* max(1024, longest single-agent distance + width + height + agents). */
static uint32_t auto_horizon(mapf_ctx *c) {
  const astar_mapf_problem *p = c->p;
  uint64_t longest = 0;
  for (uint32_t i = 0; i < p->n; i++) {
    astar_status st = ASTAR_OK;
    const uint32_t d = mapf_dist_get(c, i, p->start[i], &st); /* known: solve.c asked */
    if (d > longest) longest = d;
  }
  uint64_t h = longest + (uint64_t)p->w + (uint64_t)p->h + p->n;
  if (h < 1024) h = 1024;
  return h > (1u << 28) ? (1u << 28) : (uint32_t)h;
}

static astar_status plan_full(planner *s, const uint32_t *order, uint32_t horizon) {
  mapf_ctx *c = s->c;
  for (uint32_t k = 0; k < s->p->n; k++) {
    const uint32_t a = order[k];
    astar_point *path = NULL;
    size_t len = 0;
    astar_status st = search(s, a, s->p->start[a], 0, 0, horizon, &path, &len);
    c->stats->high_level = k + 1;
    if (st != ASTAR_OK) return st;
    if ((st = astar_mapf_solution_set_path(c->out, a, path, len)) != ASTAR_OK) return st;
    if ((st = reserve(s, a, path, len, 0, true)) != ASTAR_OK) return st;
  }
  return ASTAR_OK;
}

/* WHCA*: rounds of windowed plans; pos[t * n + a] is agent a's cell at t;
** next[k * n + a] its cell k steps into the round's plan (k <= step). */
static astar_status plan_windowed(planner *s, const uint32_t *order, uint32_t horizon) {
  mapf_ctx *c = s->c;
  const astar_mapf_problem *p = s->p;
  const uint32_t n = p->n;
  /* a window past the automatic horizon would only cost memory */
  const uint32_t most = auto_horizon(c) < horizon ? auto_horizon(c) : horizon;
  const uint32_t window = c->o->window < most ? c->o->window : most;
  const uint32_t step = window / 2 ? window / 2 : 1;
  astar_status st = ASTAR_OK;
  uint32_t *next = mapf_scratch(c, SLOT_WPATH, ((size_t)step + 1) * n * sizeof(uint32_t), &st);
  if (!next) return st;
  uint32_t *pos = mapf_scratch(c, SLOT_POS, (size_t)n * sizeof(uint32_t), &st);
  if (!pos) return st;
  for (uint32_t a = 0; a < n; a++) pos[a] = p->start[a];
  size_t rows = 1; /* times 0 .. rows-1 are in pos */
  uint32_t t0 = 0;
  for (;;) {
    bool all_home = true;
    for (uint32_t a = 0; a < n && all_home; a++) all_home = pos[(size_t)t0 * n + a] == p->goal[a];
    if (all_home) break;
    if ((uint64_t)t0 + step > horizon) return ASTAR_LIMIT_REACHED;
    /* a round: plans honour the plans made before them in this round */
    tmap_clear(&s->occ);
    for (uint32_t k = 0; k < n; k++) {
      const uint32_t a = order[k];
      astar_point *path = NULL;
      size_t len = 0;
      st = search(s, a, pos[(size_t)t0 * n + a], t0, window, horizon, &path, &len);
      if (st != ASTAR_OK) return st;
      if ((st = reserve(s, a, path, len, t0, false)) != ASTAR_OK) return st;
      /* a plan ending before t0 + window ends at the goal, free till then:
      ** the agent stays there */
      const uint32_t last = cell_of(p, path[len - 1]);
      for (size_t t = len; t <= window; t++)
        if ((st = tmap_put(c, &s->occ, key_of(s, last, t0 + (uint32_t)t), a)) != ASTAR_OK)
          return st;
      for (size_t t = 0; t <= step; t++) next[t * n + a] = t < len ? cell_of(p, path[t]) : last;
    }
    c->stats->high_level++;
    /* everyone follows `step` steps */
    uint32_t *grown = mapf_scratch(c, SLOT_POS, (rows + step) * n * sizeof(uint32_t), &st);
    if (!grown) return st;
    pos = grown;
    memcpy(pos + rows * n, next + n, (size_t)step * n * sizeof(uint32_t));
    rows += step;
    t0 += step;
  }
  /* each path up to its arrival: the last time it came to its goal */
  for (uint32_t a = 0; a < n; a++) {
    size_t len = rows;
    while (len > 1 && pos[(len - 2) * n + a] == p->goal[a]) len--;
    astar_point *path = mapf_scratch(c, SLOT_PATH, len * sizeof *path, &st);
    if (!path) return st;
    for (size_t t = 0; t < len; t++) {
      const uint32_t cell = pos[t * n + a];
      path[t] = (astar_point){(int32_t)(cell % (uint32_t)p->w), (int32_t)(cell / (uint32_t)p->w)};
    }
    if ((st = astar_mapf_solution_set_path(c->out, a, path, len)) != ASTAR_OK) return st;
  }
  return ASTAR_OK;
}

astar_status mapf_prioritized_solve(mapf_ctx *c) {
  planner s;
  memset(&s, 0, sizeof s);
  s.c = c;
  s.p = c->p;
  uint32_t *order = NULL;
  astar_status st = setup(&s, &order);
  if (st == ASTAR_OK) {
    const uint32_t horizon = c->o->max_steps ? c->o->max_steps : auto_horizon(c);
    st = c->o->window ? plan_windowed(&s, order, horizon) : plan_full(&s, order, horizon);
  }
  c->stats->low_level = s.work;
  tmap_free(c, &s.occ);
  tmap_free(c, &s.seen);
  if (st == ASTAR_OK) mapf_report_solution(c);
  return st;
}
