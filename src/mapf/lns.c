/*
** mapf/lns.c -- the refiner of LaCAM* (after lacam3's iterative
** refinement, itself MAPF-LNS, Li et al. IJCAI 2021): take a few agents out
** of the current solution, plan them again one after the other with a
** space-time A* around everybody else, keep the new paths when their sum of
** costs is no worse. Accepting equal costs lets the solution drift, which
** opens later improvements.
**
** The others are found through a hash table of (time, cell) -> agent over
** every path up to its arrival; after its arrival an agent holds its goal
** (holder[goal] says who, arrive[] since when).
*/
#include <string.h>

#include "pibt.h"

/* Scratch slots (free during a LaCAM solve: PIBT's solver slots are not). */
enum {
  SLOT_PATHS = 0,
  SLOT_POOL,
  SLOT_KEYS,
  SLOT_VALS,
  SLOT_NODES,
  SLOT_OPEN,
  SLOT_SEEN,
  SLOT_TMP
};

#define EMPTY_KEY UINT64_MAX
#define MAX_GROUP 30u /* agents replanned together, at most (lacam3: 1 .. 30) */

static uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

static void *slot(mapf_lns *r, unsigned s, size_t bytes) {
  astar_status st = ASTAR_OK;
  void *p = mapf_scratch(r->c, s, bytes ? bytes : 1, &st);
  if (!p) r->st = st;
  return p;
}

/* ---- the (time, cell) table ------------------------------------------------------------ */

static uint64_t tkey(uint32_t t, uint32_t v) {
  return ((uint64_t)t << 32) | v;
}

static uint32_t at_find(const mapf_lns *r, uint32_t t, uint32_t v) {
  uint64_t k = tkey(t, v);
  for (uint32_t s = (uint32_t)mix(k) & r->mask;; s = (s + 1) & r->mask) {
    if (r->keys[s] == k) return r->vals[s];
    if (r->keys[s] == EMPTY_KEY) return MAPF_NONE;
  }
}

static void at_put(mapf_lns *r, uint32_t t, uint32_t v, uint32_t agent) {
  uint64_t k = tkey(t, v);
  uint32_t s = (uint32_t)mix(k) & r->mask;
  while (r->keys[s] != EMPTY_KEY && r->keys[s] != k) s = (s + 1) & r->mask;
  if (r->keys[s] == EMPTY_KEY) r->used++;
  r->keys[s] = k;
  r->vals[s] = agent;
}

/* Removal with backward shift (linear probing keeps no tombstones). */
static void at_del(mapf_lns *r, uint32_t t, uint32_t v) {
  uint64_t k = tkey(t, v);
  uint32_t s = (uint32_t)mix(k) & r->mask;
  while (r->keys[s] != k) {
    if (r->keys[s] == EMPTY_KEY) return;
    s = (s + 1) & r->mask;
  }
  r->used--;
  for (;;) {
    r->keys[s] = EMPTY_KEY;
    uint32_t e = s;
    for (;;) {
      e = (e + 1) & r->mask;
      if (r->keys[e] == EMPTY_KEY) return;
      uint32_t home = (uint32_t)mix(r->keys[e]) & r->mask;
      /* May the entry at e move to s? Only if its home is not in (s, e]. */
      bool stays = s <= e ? (home > s && home <= e) : (home > s || home <= e);
      if (!stays) break;
    }
    r->keys[s] = r->keys[e];
    r->vals[s] = r->vals[e];
    s = e;
  }
}

/* Make the table hold `need` entries at half load at most. */
static bool at_reserve(mapf_lns *r, size_t need) {
  if ((uint64_t)need * 2 <= (uint64_t)r->mask + 1 && r->keys) return true;
  size_t size = 1024;
  while (size < need * 2) size *= 2;
  uint64_t *keys = slot(r, SLOT_KEYS, size * sizeof(uint64_t));
  uint32_t *vals = keys ? slot(r, SLOT_VALS, size * sizeof(uint32_t)) : NULL;
  if (!vals) return false;
  r->keys = keys;
  r->vals = vals;
  r->mask = (uint32_t)(size - 1);
  r->used = 0;
  for (size_t s = 0; s < size; s++) keys[s] = EMPTY_KEY;
  for (uint32_t i = 0; i < r->n; i++)
    if (!r->out_of_table || r->out_of_table[i] == 0)
      for (uint32_t t = 0; t < r->len[i]; t++) at_put(r, t, r->pool[r->off[i] + t], i);
  return true;
}

/* ---- paths ----------------------------------------------------------------------------- */

static const uint32_t *path_of(const mapf_lns *r, uint32_t i) {
  return r->pool + r->off[i];
}

/* Agent i's cell at time t (holding its last cell after its path). */
static uint32_t cell_at(const mapf_lns *r, uint32_t i, uint32_t t) {
  return r->pool[r->off[i] + (t < r->len[i] ? t : r->len[i] - 1)];
}

/* Room for `extra` more cells in the pool: compacts it (live paths only,
** through the temporary slot) into a larger one when needed. Called only
** between groups, when no old offset is kept. */
static bool pool_reserve(mapf_lns *r, size_t extra) {
  if (r->pool_n + extra <= r->pool_cap) return true;
  size_t live = 0;
  for (uint32_t i = 0; i < r->n; i++) live += r->len[i];
  size_t cap = (live + extra) * 2 + 1024;
  if (cap > UINT32_MAX) {
    r->st = ASTAR_LIMIT_REACHED;
    return false;
  }
  uint32_t *tmp = slot(r, SLOT_TMP, (live + 1) * sizeof(uint32_t));
  if (!tmp) return false;
  size_t at = 0;
  for (uint32_t i = 0; i < r->n; i++) {
    memcpy(tmp + at, r->pool + r->off[i], r->len[i] * sizeof(uint32_t));
    r->off[i] = (uint32_t)at;
    at += r->len[i];
  }
  uint32_t *pool = slot(r, SLOT_POOL, cap * sizeof(uint32_t));
  if (!pool) return false;
  memcpy(pool, tmp, at * sizeof(uint32_t));
  r->pool = pool;
  r->pool_n = at;
  r->pool_cap = cap;
  return true;
}

/* Append a path (room reserved); returns its offset. */
static uint32_t pool_add(mapf_lns *r, const uint32_t *cells, uint32_t len) {
  uint32_t off = (uint32_t)r->pool_n;
  memcpy(r->pool + off, cells, len * sizeof(uint32_t));
  r->pool_n += len;
  return off;
}

astar_status mapf_lns_init(mapf_lns *r, mapf_ctx *c, const mapf_graph *g, uint64_t seed) {
  memset(r, 0, sizeof *r);
  r->c = c;
  r->n = c->p->n;
  r->g = g;
  mapf_rng_seed(&r->rng, seed);
  r->st = ASTAR_OK;
  r->mask = 0;
  uint32_t *a = slot(r, SLOT_PATHS, ((size_t)4 * r->n + c->p->cells) * sizeof(uint32_t));
  if (!a) return r->st;
  r->off = a;
  r->len = a + r->n;
  r->order = a + 2 * (size_t)r->n;
  r->out_of_table = a + 3 * (size_t)r->n;
  r->holder = a + 4 * (size_t)r->n;
  for (uint32_t v = 0; v < c->p->cells; v++) r->holder[v] = MAPF_NONE;
  for (uint32_t i = 0; i < r->n; i++) {
    r->holder[c->p->goal[i]] = i;
    r->order[i] = i;
    r->out_of_table[i] = 0;
  }
  return ASTAR_OK;
}

bool mapf_lns_load(mapf_lns *r, const uint32_t *const *rows, uint32_t steps) {
  const uint32_t n = r->n;
  const uint32_t *goal = r->c->p->goal;
  size_t total = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t t = steps;
    while (t > 0 && rows[t - 1][i] == goal[i]) t--;
    r->len[i] = t + 1;
    total += t + 1;
  }
  size_t cap = total * 2 + 1024;
  uint32_t *pool = slot(r, SLOT_POOL, cap * sizeof(uint32_t));
  if (!pool) return false;
  r->pool = pool;
  r->pool_cap = cap;
  r->pool_n = 0;
  r->soc = 0;
  for (uint32_t i = 0; i < n; i++) {
    r->off[i] = (uint32_t)r->pool_n;
    for (uint32_t t = 0; t < r->len[i]; t++) pool[r->pool_n++] = rows[t][i];
    r->soc += r->len[i] - 1;
    r->out_of_table[i] = 0;
  }
  r->keys = NULL;
  r->loaded = true;
  return at_reserve(r, total + 64);
}

/* ---- one agent: space-time A* ----------------------------------------------------------- */

typedef struct st_node {
  uint32_t v, t, parent;
} st_node;

typedef struct st_item {
  uint64_t key; /* f << 32 | (UINT32_MAX - t): least f, then latest t */
  uint32_t node;
} st_item;

/* Is (v, t) taken by someone else (on the way or holding its goal)? */
static bool blocked(const mapf_lns *r, uint32_t v, uint32_t t) {
  uint32_t h = r->holder[v];
  if (h != MAPF_NONE && !r->out_of_table[h] && t >= r->len[h] - 1) return true;
  return at_find(r, t, v) != MAPF_NONE;
}

/* The move u (at t) -> v (at t + 1) would swap with someone. */
static bool swaps(const mapf_lns *r, uint32_t u, uint32_t v, uint32_t t) {
  if (u == v) return false;
  uint32_t j = at_find(r, t, v);
  return j != MAPF_NONE && cell_at(r, j, t + 1) == u;
}

#define EXPANSIONS_PER_STEP 64u
#define MAX_SEEN ((size_t)1 << 24) /* most A* states of one agent (x 8 bytes) */

/* A* node (v, t) with its parent, unless seen or f > bound. False when the
** search must stop (out of room: r->st set, or MAX_SEEN states). */
static bool push_node(mapf_lns *r, uint32_t i, uint32_t v, uint32_t t, uint32_t parent,
                      uint32_t bound) {
  astar_status st = ASTAR_OK;
  uint64_t f = (uint64_t)t + mapf_dist_get(r->c, i, v, &st);
  if (st != ASTAR_OK) {
    r->st = st;
    return false;
  }
  if (f <= r->arrive_after) f = (uint64_t)r->arrive_after + 1; /* cannot arrive before */
  if (f > bound) return true;
  if (((size_t)r->nodes_n + 1) * 2 > r->seen_cap) {
    /* Twice the table; every node's key placed again. */
    size_t cap = r->seen_cap * 2;
    if (cap > MAX_SEEN) return false;
    uint64_t *seen = slot(r, SLOT_SEEN, cap * sizeof(uint64_t));
    if (!seen) return false;
    for (size_t k = 0; k < cap; k++) seen[k] = EMPTY_KEY;
    for (uint32_t k = 0; k < r->nodes_n; k++) {
      const st_node *nd = (const st_node *)r->nodes + k;
      uint64_t key = tkey(nd->t, nd->v);
      uint32_t e = (uint32_t)mix(key) & (uint32_t)(cap - 1);
      while (seen[e] != EMPTY_KEY) e = (e + 1) & (uint32_t)(cap - 1);
      seen[e] = key;
    }
    r->seen = seen;
    r->seen_cap = cap;
  }
  const uint32_t mask = (uint32_t)(r->seen_cap - 1);
  uint64_t key = tkey(t, v);
  uint32_t e = (uint32_t)mix(key) & mask;
  while (r->seen[e] != EMPTY_KEY && r->seen[e] != key) e = (e + 1) & mask;
  if (r->seen[e] == key) return true;
  st_node *nd = slot(r, SLOT_NODES, ((size_t)r->nodes_n + 1) * sizeof(st_node));
  st_item *op = nd ? slot(r, SLOT_OPEN, ((size_t)r->open_n + 1) * sizeof(st_item)) : NULL;
  if (!op) return false;
  r->seen[e] = key;
  r->nodes = nd;
  r->open = op;
  nd[r->nodes_n].v = v;
  nd[r->nodes_n].t = t;
  nd[r->nodes_n].parent = parent;
  st_item it = {(f << 32) | (UINT32_MAX - t), r->nodes_n++};
  uint32_t q = r->open_n++;
  while (q > 0 && op[(q - 1) / 2].key > it.key) {
    op[q] = op[(q - 1) / 2];
    q = (q - 1) / 2;
  }
  op[q] = it;
  return true;
}

/* Plans agent i around the table; the path (arrival + 1 cells) goes to
** r->tmp_path. Returns its cost, or MAPF_NONE when none costs <= bound. */
static uint32_t plan(mapf_lns *r, uint32_t i, uint32_t bound) {
  const astar_mapf_problem *p = r->c->p;
  const uint32_t s = p->start[i], goal = p->goal[i];
  astar_status st = ASTAR_OK;
  /* The last time another agent is at the goal: arriving earlier would
  ** make it run into the holder. */
  uint32_t last = 0;
  bool any = false;
  for (uint32_t t = r->horizon + 1; t-- > 0;)
    if (at_find(r, t, goal) != MAPF_NONE) {
      last = t;
      any = true;
      break;
    }
  r->arrive_after = any ? last : 0;
  uint32_t h0 = mapf_dist_get(r->c, i, s, &st);
  if (st != ASTAR_OK) {
    r->st = st;
    return MAPF_NONE;
  }
  if (h0 > bound) return MAPF_NONE;
  /* Expansions allowed: a multiple of the distance (a plan that needs more
  ** is rarely worth it, and an exhaustive failure is the costly case). */
  uint64_t budget = (uint64_t)EXPANSIONS_PER_STEP * ((uint64_t)h0 + 16);
  r->nodes_n = 0;
  r->open_n = 0;
  if (!r->seen_cap) {
    r->seen = slot(r, SLOT_SEEN, 1024 * sizeof(uint64_t));
    if (!r->seen) return MAPF_NONE;
    r->seen_cap = 1024;
    for (size_t k = 0; k < 1024; k++) r->seen[k] = EMPTY_KEY;
  }
  uint32_t result = MAPF_NONE, found = MAPF_NONE;
  if (!push_node(r, i, s, 0, MAPF_NONE, bound)) goto done;
  while (r->open_n > 0) {
    st_item *op = r->open;
    st_item top = op[0], lastit = op[--r->open_n];
    uint32_t q = 0;
    for (;;) {
      uint32_t ch = 2 * q + 1;
      if (ch >= r->open_n) break;
      if (ch + 1 < r->open_n && op[ch + 1].key < op[ch].key) ch++;
      if (op[ch].key >= lastit.key) break;
      op[q] = op[ch];
      q = ch;
    }
    if (r->open_n > 0) op[q] = lastit;
    r->work++;
    if (--budget == 0) goto done; /* a hopeless agent costs little */
    if ((r->work & 255) == 0 && mapf_out_of_limits(r->c, r->work_base + r->work)) goto done;
    st_node cur = ((st_node *)r->nodes)[top.node];
    if (cur.v == goal && (!any || cur.t > last)) {
      found = top.node;
      result = cur.t;
      break;
    }
    const uint32_t deg = r->g->deg[cur.v];
    for (uint32_t k = 0; k <= deg; k++) {
      uint32_t v = k < deg ? r->g->nb[4 * (size_t)cur.v + k] : cur.v;
      uint32_t t = cur.t + 1;
      if (blocked(r, v, t) || swaps(r, cur.v, v, cur.t)) continue;
      if (!push_node(r, i, v, t, top.node, bound)) goto done;
    }
  }
done:
  if (found != MAPF_NONE) {
    uint32_t *out = slot(r, SLOT_TMP, ((size_t)result + 1) * sizeof(uint32_t));
    if (!out)
      result = MAPF_NONE;
    else {
      r->tmp_path = out;
      for (uint32_t k = found; k != MAPF_NONE; k = ((st_node *)r->nodes)[k].parent)
        out[((st_node *)r->nodes)[k].t] = ((st_node *)r->nodes)[k].v;
    }
  }
  /* Clear the seen table through the nodes made (a probe skips blanks
  ** until it meets its key, which is still there: no early stop). */
  for (uint32_t k = 0; k < r->nodes_n; k++) {
    uint64_t key = tkey(((st_node *)r->nodes)[k].t, ((st_node *)r->nodes)[k].v);
    uint32_t e = (uint32_t)mix(key) & (uint32_t)(r->seen_cap - 1);
    while (r->seen[e] != key) e = (e + 1) & (uint32_t)(r->seen_cap - 1);
    r->seen[e] = EMPTY_KEY;
  }
  return result;
}

/* ---- one group --------------------------------------------------------------------------- */

static void table_out(mapf_lns *r, uint32_t i) {
  for (uint32_t t = 0; t < r->len[i]; t++) at_del(r, t, path_of(r, i)[t]);
  r->out_of_table[i] = 1;
}

static void table_in(mapf_lns *r, uint32_t i) {
  for (uint32_t t = 0; t < r->len[i]; t++) at_put(r, t, path_of(r, i)[t], i);
  r->out_of_table[i] = 0;
  if (r->len[i] - 1 > r->horizon) r->horizon = r->len[i] - 1;
}

int mapf_lns_step(mapf_lns *r) {
  const uint32_t n = r->n;
  if (!r->loaded || n < 2) {
    r->work++;
    return 0;
  }
  /* A new round: a fresh random order and group size. */
  if (r->next == 0 || r->next + r->group > n) {
    for (uint32_t a = n - 1; a > 0; a--) {
      uint32_t b = (uint32_t)mapf_rng_below(&r->rng, a + 1), t = r->order[a];
      r->order[a] = r->order[b];
      r->order[b] = t;
    }
    uint32_t most = n / 4 < 1 ? 1 : n / 4 > MAX_GROUP ? MAX_GROUP : n / 4;
    r->group = 1 + (uint32_t)mapf_rng_below(&r->rng, most);
    r->next = 0;
  }
  const uint32_t *grp = r->order + r->next;
  const uint32_t k = r->group;
  r->next += k;
  r->work += k; /* a group costs its agents at least, even when no A* runs */
  r->horizon = 0;
  for (uint32_t i = 0; i < n; i++)
    if (r->len[i] - 1 > r->horizon) r->horizon = r->len[i] - 1;
  uint64_t old_cost = 0;
  for (uint32_t a = 0; a < k; a++) old_cost += r->len[grp[a]] - 1;
  /* New paths cost old_cost in all at most: k + old_cost cells. */
  if (!pool_reserve(r, (size_t)k + old_cost)) return -1;
  for (uint32_t a = 0; a < k; a++) table_out(r, grp[a]);
  uint32_t old_off[MAX_GROUP], old_len[MAX_GROUP];
  for (uint32_t a = 0; a < k; a++) {
    old_off[a] = r->off[grp[a]];
    old_len[a] = r->len[grp[a]];
  }
  /* Each agent still to plan costs its distance at least: the room of one
  ** is what the group may spend minus those (a tighter A* bound). */
  uint64_t new_cost = 0, rest = 0;
  astar_status dst = ASTAR_OK;
  for (uint32_t a = 0; a < k; a++)
    rest += mapf_dist_get(r->c, grp[a], r->c->p->start[grp[a]], &dst);
  uint32_t done = 0;
  for (; done < k; done++) {
    uint32_t i = grp[done];
    rest -= mapf_dist_get(r->c, i, r->c->p->start[i], &dst);
    if (old_cost < new_cost + rest) break;
    uint64_t room = old_cost - new_cost - rest;
    uint32_t c = plan(r, i, room > UINT32_MAX - 1 ? UINT32_MAX - 1 : (uint32_t)room);
    if (c == MAPF_NONE || r->st != ASTAR_OK) break;
    r->off[i] = pool_add(r, r->tmp_path, c + 1);
    r->len[i] = c + 1;
    new_cost += c;
    table_in(r, i);
  }
  if (done == k && new_cost <= old_cost) {
    r->soc = r->soc - old_cost + new_cost;
    return new_cost < old_cost ? 1 : 0;
  }
  /* Failure: the old paths back. */
  for (uint32_t a = 0; a < done; a++) table_out(r, grp[a]);
  for (uint32_t a = 0; a < k; a++) {
    r->off[grp[a]] = old_off[a];
    r->len[grp[a]] = old_len[a];
    table_in(r, grp[a]);
  }
  return r->st == ASTAR_OK ? 0 : -1;
}

astar_status mapf_lns_write(mapf_lns *r, astar_point *buf) {
  const uint32_t w = (uint32_t)r->c->p->w;
  for (uint32_t i = 0; i < r->n; i++) {
    const uint32_t *q = path_of(r, i);
    for (uint32_t t = 0; t < r->len[i]; t++) {
      buf[t].x = (int32_t)(q[t] % w);
      buf[t].y = (int32_t)(q[t] / w);
    }
    astar_status st = astar_mapf_solution_set_path(r->c->out, i, buf, r->len[i]);
    if (st != ASTAR_OK) return st;
  }
  return ASTAR_OK;
}
