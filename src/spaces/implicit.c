/*
** spaces/implicit.c -- implicit spaces (astar/implicit.h): the caller's
** 64-bit states, numbered on first sight by a hash table in the workspace,
** so that the engine searches them like any space of numbered nodes.
**
** The table. `cap` node ids, a key per id, and an open-addressing table of
** nslots (a power of two, at least twice cap) slots holding id + 1; linear
** probing from a 64-bit mix of the key. Each slot carries the number of the
** search that filled it, so a new search starts with an empty table without
** clearing it (as generation marks do for node records); the numbers are
** cleared when the counter wraps. Numbering follows the order in which the
** search meets states, which the engine's tie order fixes: the same search
** numbers the same states the same way.
**
** The adapter. It is an astar_space whose self is the table: successors
** asks the caller's callback for state arcs (into a buffer of the table),
** numbers each state and hands back node arcs. A state that does not fit
** in a full table ends the search: the adapter sets the engine's fault to
** ASTAR_CAPACITY, which the engine reports (astar__engine_arcs).
*/
#include "core/workspace.h"
#include "engine/engine.h"

#include "astar/implicit.h"

struct astar__states {
  astar__engine *eng;          /* whose fault a full table sets */
  const astar_implicit *space; /* the space being searched */
  uint64_t *keys;              /* [cap] state of each node id */
  uint32_t *slot_id;           /* [nslots] node id + 1, valid when slot_stamp is current */
  uint32_t *slot_stamp;        /* [nslots] search number that filled the slot */
  astar_state_arc *sarcs;      /* [max_degree] the callback's arcs */
  uint32_t cap;                /* node ids available */
  uint32_t nslots;             /* slots, a power of two >= 2 * cap */
  uint32_t max_degree;         /* entries of sarcs */
  uint32_t count;              /* ids given out in this search */
  uint32_t stamp;              /* this search's number, >= 1 */
};

/* ---- the table -------------------------------------------------------------- */

/* splitmix64's finaliser: every key bit reaches every slot bit. */
static uint64_t mix(uint64_t x) {
  x ^= x >> 30;
  x *= UINT64_C(0xbf58476d1ce4e5b9);
  x ^= x >> 27;
  x *= UINT64_C(0x94d049bb133111eb);
  return x ^ (x >> 31);
}

/* The node id of state k, numbered now if new; ASTAR_NODE_NONE when the
** table is full. */
static astar_node intern(struct astar__states *t, astar_state k) {
  const uint32_t mask = t->nslots - 1;
  for (uint32_t i = (uint32_t)mix(k) & mask;; i = (i + 1) & mask) {
    if (t->slot_stamp[i] != t->stamp) {
      if (t->count == t->cap) return ASTAR_NODE_NONE;
      const astar_node id = t->count++;
      t->keys[id] = k;
      t->slot_stamp[i] = t->stamp;
      t->slot_id[i] = id + 1;
      return id;
    }
    if (t->keys[t->slot_id[i] - 1] == k) return t->slot_id[i] - 1;
  }
}

/* Start a search: an empty table. */
static void new_search(struct astar__states *t) {
  if (t->stamp == UINT32_MAX) {
    memset(t->slot_stamp, 0, (size_t)t->nslots * sizeof *t->slot_stamp);
    t->stamp = 0;
  }
  t->stamp++;
  t->count = 0;
}

/* *at = the offset after a part of n items of `size` bytes placed at *at
** rounded up to 16 (every part's alignment divides 16); false on
** overflow. */
static bool place(size_t *at, size_t n, size_t size) {
  size_t bytes;
  if (!astar__mul(n, size, &bytes) || *at > SIZE_MAX - 15u) return false;
  const size_t start = (*at + 15u) & ~(size_t)15u;
  if (bytes > SIZE_MAX - start) return false;
  *at = start + bytes;
  return true;
}

/* The table in one zeroed block, which the workspace frees by its size
** (astar__free_states): the header, then keys, sarcs, slot_id and
** slot_stamp. NULL when the size overflows or the allocation fails;
** *bytes = the block's size. */
static struct astar__states *new_table(const astar_allocator *a, uint32_t cap, uint32_t nslots,
                                       uint32_t deg, size_t *bytes) {
  size_t at = sizeof(struct astar__states);
  size_t keys, sarcs, slot_id, slot_stamp;
  if (!place(&at, 0, 1)) return NULL;
  keys = at;
  if (!place(&at, cap, sizeof(uint64_t))) return NULL;
  sarcs = (at + 15u) & ~(size_t)15u;
  if (!place(&at, deg, sizeof(astar_state_arc))) return NULL;
  slot_id = (at + 15u) & ~(size_t)15u;
  if (!place(&at, nslots, sizeof(uint32_t))) return NULL;
  slot_stamp = (at + 15u) & ~(size_t)15u;
  if (!place(&at, nslots, sizeof(uint32_t))) return NULL;
  unsigned char *p = astar__calloc(a, 1, at);
  if (!p) return NULL;
  struct astar__states *t = (struct astar__states *)(void *)p;
  t->keys = (uint64_t *)(void *)(p + keys);
  t->sarcs = (astar_state_arc *)(void *)(p + sarcs);
  t->slot_id = (uint32_t *)(void *)(p + slot_id);
  t->slot_stamp = (uint32_t *)(void *)(p + slot_stamp);
  t->cap = cap;
  t->nslots = nslots;
  t->max_degree = deg;
  *bytes = at;
  return t;
}

/* ---- the adapter ------------------------------------------------------------- */

ASTAR__INLINE size_t arcs_of(const void *self, astar_node v, astar_arc *arcs, size_t cap,
                             const bool backward) {
  /* The space is read-only to the engine, but its table is this search's
  ** own (in the workspace): numbering states writes it. */
  /* NOLINTNEXTLINE(performance-no-int-to-ptr): dropping const, on purpose */
  struct astar__states *t = (struct astar__states *)(uintptr_t)self;
  const astar_implicit_ops *ops = t->space->ops;
  const size_t want = cap < t->max_degree ? cap : t->max_degree;
  size_t n = backward ? ops->predecessors(t->space->ctx, t->keys[v], t->sarcs, want)
                      : ops->successors(t->space->ctx, t->keys[v], t->sarcs, want);
  if (n > want) return n; /* the engine refuses it */
  for (size_t i = 0; i < n; i++) {
    const astar_node id = intern(t, t->sarcs[i].state);
    if (id == ASTAR_NODE_NONE) {
      t->eng->fault = ASTAR_CAPACITY;
      return 0;
    }
    arcs[i].node = id;
    arcs[i].cost = t->sarcs[i].cost;
  }
  return n;
}

static size_t successors(const void *self, astar_node v, astar_arc *arcs, size_t cap) {
  return arcs_of(self, v, arcs, cap, false);
}

static size_t predecessors(const void *self, astar_node v, astar_arc *arcs, size_t cap) {
  return arcs_of(self, v, arcs, cap, true);
}

static double heuristic(const void *self, astar_node a, astar_node b) {
  const struct astar__states *t = self;
  return t->space->ops->heuristic(t->space->ctx, t->keys[a], t->keys[b]);
}

static bool goal_test(const void *self, astar_node v) {
  const struct astar__states *t = self;
  return t->space->ops->is_goal(t->space->ctx, t->keys[v]);
}

static const astar_space_ops ops_full = {successors, predecessors, heuristic, NULL, NULL, NULL, 0};
static const astar_space_ops ops_no_h = {successors, predecessors, NULL, NULL, NULL, NULL, 0};
static const astar_space_ops ops_no_pred = {successors, NULL, heuristic, NULL, NULL, NULL, 0};
static const astar_space_ops ops_bare = {successors, NULL, NULL, NULL, NULL, NULL, 0};

/* ---- public ------------------------------------------------------------------ */

astar_status astar_workspace_reserve_states(astar_workspace *ws, uint32_t max_states,
                                            uint32_t max_degree, unsigned what) {
  if (!ws || max_states == 0 || max_states > (UINT32_C(1) << 30) || max_degree == 0 ||
      (what & ~(ASTAR_RESERVE_BACKWARD | ASTAR_RESERVE_FRONT_TO_FRONT)))
    return ASTAR_INVALID_ARGUMENT;
  struct astar__states *old = ws->eng.states;
  const bool backward = (what & (ASTAR_RESERVE_BACKWARD | ASTAR_RESERVE_FRONT_TO_FRONT)) != 0;
  const bool pairs = (what & ASTAR_RESERVE_FRONT_TO_FRONT) != 0;
  if (old && old->cap >= max_states && old->max_degree >= max_degree &&
      (!backward || ws->eng.back.cap >= max_states) && (!pairs || ws->eng.pair_cap >= max_states))
    return ASTAR_OK;
  /* The node records first (all or nothing, as everything here), then a
  ** new table replacing the old one. */
  const uint32_t cap = old && old->cap > max_states ? old->cap : max_states;
  const uint32_t deg = old && old->max_degree > max_degree ? old->max_degree : max_degree;
  astar_space sizing;
  memset(&sizing, 0, sizeof sizing);
  sizing.ops = &ops_bare;
  sizing.node_count = cap;
  sizing.max_degree = deg;
  astar_status st = astar_workspace_reserve_space(ws, &sizing, what);
  if (st != ASTAR_OK) return st;
  if (old && old->cap == cap && old->max_degree == deg) return ASTAR_OK;
  uint32_t nslots = 1;
  while (nslots < 2u * cap) nslots <<= 1; /* cap <= 2^30: at most 2^31 slots */
  size_t bytes = 0;
  struct astar__states *t = new_table(&ws->alloc, cap, nslots, deg, &bytes);
  if (!t) return ASTAR_NO_MEMORY;
  astar__free_states(ws);
  t->eng = &ws->eng;
  ws->eng.states = t;
  ws->eng.states_bytes = bytes;
  return ASTAR_OK;
}

astar_status astar_implicit_find_path(astar_workspace *ws, const astar_implicit *space,
                                      const astar_engine_options *opt, astar_state start,
                                      astar_state goal, astar_state *path, size_t cap,
                                      astar_engine_result *result) {
  if (result) {
    memset(result, 0, sizeof *result);
    result->end = result->meet = ASTAR_NODE_NONE;
  }
  if (!ws || !space || !space->ops || !space->ops->successors || space->max_degree == 0 ||
      (cap > 0 && !path))
    return ASTAR_INVALID_ARGUMENT;
  struct astar__states *t = ws->eng.states;
  if (!t || space->max_degree > t->max_degree) return ASTAR_CAPACITY;
  const astar_implicit_ops *uops = space->ops;
  const astar_space_ops *ops = uops->heuristic ? (uops->predecessors ? &ops_full : &ops_no_pred)
                                               : (uops->predecessors ? &ops_no_h : &ops_bare);
  t->space = space;
  new_search(t);
  const astar_node s = intern(t, start), g = intern(t, goal); /* cap >= 1: s fits */
  if (g == ASTAR_NODE_NONE) return ASTAR_CAPACITY;            /* cap 1, two states */
  astar_space sp;
  sp.ops = ops;
  sp.self = t;
  sp.node_count = t->cap;
  sp.max_degree = space->max_degree;
  sp.flags = space->flags;
  astar_status st =
      astar__engine_begin(ws, &sp, opt, s, g, NULL, 0, uops->is_goal ? goal_test : NULL);
  if (st == ASTAR_OK) {
    astar_space_search_step(ws, 0, NULL);
    /* Nodes first, into the caller's buffer (4 bytes each in 8-byte
    ** slots), then turned into states from the end. */
    astar_node *nodes = (astar_node *)(void *)path;
    st = astar_space_search_finish(ws, nodes, cap, result);
    if (st == ASTAR_OK || st == ASTAR_PARTIAL)
      for (size_t i = result ? result->length : ws->eng.last_len; i-- > 0;)
        path[i] = t->keys[nodes[i]];
  } else if (result) {
    result->cause = st;
  }
  if (result && result->end != ASTAR_NODE_NONE) result->end_state = t->keys[result->end];
  return st;
}

uint32_t astar_implicit_states_used(const astar_workspace *ws) {
  return ws && ws->eng.states ? ws->eng.states->count : 0;
}
