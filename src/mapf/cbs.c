/*
** mapf/cbs.c -- Conflict-Based Search (Sharon et al. 2015) and Explicit
** Estimation CBS (Li, Ruml, Koenig, AAAI 2021) under the model of
** astar/mapf.h: 4-connected moves and waits, vertex and swap conflicts,
** goal holding.
**
** High level: a constraint tree (CT). A node adds one constraint to its
** parent and replans one agent; it stores only that agent's new path (the
** others are shared with the ancestors: a node's paths are found by walking
** its chain, the newest change of an agent winning). Nodes, changes, path
** records and path cells live in growable scratch arrays addressed by index
** (never a malloc per node).
**
** Goal holding is handled exactly: an agent at its goal from its arrival on
** conflicts with any agent entering that cell later; the conflict (a at g
** at t, holder b arrived before t) splits into "a not at g at t" and "b not
** at g at t". For b, g is its own goal, and the low level reads a vertex
** constraint on the agent's own goal at time t as "arrive after t" (it may
** not be there at t, and an arrived agent stays), which is the standard
** length constraint. Every valid solution satisfies one branch, so CBS
** stays complete and optimal.
**
** Low level: space-time A* over (cell, time) with the constraints of the
** node, h = distance to the goal (raised to reach the last goal constraint);
** a focal search on the number of conflicts with the other agents' paths
** (the conflict-avoidance table, CAT): FOCAL holds the open states with
** f <= w * fmin, ordered by conflicts. With w = 1 (CBS) this is A* with
** ties broken by fewest conflicts. The agent's lower bound is fmin when
** its path is found (with w = 1, its cost). Time beyond both the last
** constraint and the others' last move is folded into one layer (nothing
** changes after it), so every search is finite: a node whose constraints
** leave its agent no path is pruned.
**
** Improvements: conflicts classified cardinal / semi-cardinal / non-cardinal
** from the agents' MDDs (the levels where the MDD has one cell), cardinal
** first; target reasoning (length / range constraints, above) and corridor
** reasoning (CK_BEFORE, below) for the symmetric conflicts plain splitting
** resolves only one time step at a time; bypass (adopt a child's path when
** it costs no more and conflicts less); the WDG heuristic (pairwise optimal
** costs, minimum weighted vertex cover; for CBS at least the CG heuristic,
** the vertex cover of the cardinal conflict graph), computed once per node
** -- CBS when it is first popped, EECBS when CLEANUP chose it -- the node
** going back to the lists when its f grew. EECBS: CLEANUP (by lower bound),
** OPEN (by f^ = cost + estimated cost-to-go, learnt online from the
** one-step errors of the expanded nodes' best children) and FOCAL (f^ <= w *
** min f^, by number of conflicts); the node chosen is FOCAL's head when its
** cost <= w * LB, else OPEN's head when its cost <= w * LB, else CLEANUP's
** head; so SOC <= w * LB <= w * optimal.
**
** Tie orders (deterministic): low level: moves N, E, S, W, wait; FOCAL by
** (conflicts, f, larger time, older state); OPEN by (f, older state). High
** level: conflicts by (cardinal, semi-cardinal, non-cardinal), then earlier
** time, then smaller agent numbers, then vertex before swap; CBS's list by
** (f, conflicts, newer node); EECBS's CLEANUP by (LB, conflicts, cost,
** newer node), OPEN by (f^, conflicts, newer node), FOCAL by (conflicts,
** LB, cost, newer node). The first child constrains the conflict's first
** agent.
*/
#include "mapf/mapf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

/* Scratch slots (mapf_scratch); contents are not kept between solves. */
enum {
  SL_LLN = 0, /* low-level states */
  SL_LLH,     /* low-level state hash */
  SL_LLALL,   /* low-level heaps: all open by f */
  SL_LLOUT,   /* open outside FOCAL by f */
  SL_LLFOC,   /* FOCAL */
  SL_CONS,    /* the constraints of one agent (hash) */
  SL_CT,      /* constraint-tree nodes */
  SL_CHG,     /* path changes of the nodes */
  SL_PREC,    /* path records */
  SL_CELLS,   /* path cells */
  SL_CATH,    /* CAT hash (cell, time) -> first entry */
  SL_CATE,    /* CAT entries */
  SL_CUR,     /* current path record per agent, stamps, conflict counts */
  SL_CONF,    /* conflicts of the node being expanded */
  SL_HCLEAN,  /* high-level heaps */
  SL_HOPEN,
  SL_HOUT,
  SL_HFOC,
  SL_MDDH,   /* MDD: (cell, time) -> state */
  SL_MDDQ,   /* MDD: states by level */
  SL_SING,   /* MDD singletons per path record */
  SL_PTS,    /* output points */
  SL_TMP,    /* rehashing */
  SL_VC,     /* vertex cover */
  SL_PCONS,  /* WDG: the pair's constraints */
  SL_PST,    /* WDG: joint states */
  SL_PH,     /* WDG: joint state hash */
  SL_PHEAP,  /* WDG: open list */
  SL_PCACHE, /* WDG: pair results by path records */
  SL_COUNT
};
_Static_assert(SL_COUNT <= MAPF_SCRATCH_SLOTS, "cbs.c uses more scratch slots than there are");

/* ---- growable arrays, hash maps, heaps ----------------------------------------------- */

typedef struct vec {
  void *p;
  size_t cap; /* elements */
  size_t n;
  size_t esz;
  unsigned slot;
} vec;

typedef struct hslot {
  uint64_t key;
  uint32_t val, stamp;
} hslot;

/* Open addressing, linear probing; a slot is live when its stamp is the
** map's, so clearing is one increment. */
typedef struct hmap {
  hslot *t;
  size_t cap, n; /* cap: power of two */
  uint32_t stamp;
  unsigned slot;
} hmap;

typedef struct hent {
  uint64_t k1, k2;
  uint32_t id, ver;
} hent;

typedef struct heap {
  vec v;
} heap;

/* ---- the search's records ----------------------------------------------------------- */

typedef struct lln { /* a low-level state */
  uint32_t cell, g, parent, h, conf, ver;
  uint8_t closed;
} lln;

/* A target conflict (an agent enters a goal whose agent has arrived by
** then: Li et al.'s target reasoning) splits into CK_LENGTH for the holder
** (arrive after c_time; it may still pass its goal before) and CK_RANGE
** for the other (never at the cell at c_time or later). Every solution
** satisfies one: if the holder arrives by c_time it holds the cell from
** then on. */
/* CK_BEFORE: never at the cell at c_time or earlier -- the branches of a
** corridor conflict (Li et al.'s corridor reasoning): two agents crossing
** a chain of cells of degree 2 from opposite ends; each branch keeps one
** agent out of the other's entrance until the other could have passed. */
enum { CK_NONE = 0, CK_VERTEX, CK_EDGE, CK_RANGE, CK_LENGTH, CK_BEFORE, CK_CORRIDOR };
#define RKEY(cell) ((1ull << 61) | (cell)) /* a range constraint's key; value: its time */
#define BKEY(cell) ((1ull << 60) | (cell)) /* a "before" constraint's key; value: its time */

typedef struct ctn { /* a constraint-tree node */
  uint32_t parent, changes, depth;
  uint32_t c_agent, c_from, c_cell, c_time; /* the constraint it adds; c_from: edge's tail */
  uint8_t c_kind, closed, hdone, pad;
  uint32_t ver, d, h; /* heap version; conflicts; admissible h */
  uint64_t cost, lb;  /* SOC of its paths; sum of the agents' lower bounds */
  double fhat;        /* EECBS: cost + estimated cost to go */
} ctn;

typedef struct chg {
  uint32_t agent, prec, next;
} chg;

typedef struct prec { /* a path record */
  uint32_t agent, cost, lb, off, owner, sing;
} prec;

typedef struct conf {
  uint32_t a, b, kind, from, cell, t; /* edge: a moves from -> cell arriving at t */
  uint32_t prio;                      /* 0 cardinal, 1 semi, 2 non */
  uint32_t ccell[2], ctime[2];        /* CK_CORRIDOR: a (b) not at ccell[0] ([1]) until ctime */
} conf;

typedef struct cate {
  uint32_t agent, next;
} cate;

typedef struct cbs {
  mapf_ctx *c;
  const astar_mapf_problem *p;
  astar_status st;
  bool eecbs;
  double w;
  uint32_t n, cells;

  vec lln_v, ct_v, chg_v, prec_v, cells_v, cate_v, conf_v, mddq_v, sing_v, pts_v, vc_v;
  heap ll_all, ll_out, ll_foc;
  heap h_clean, h_open, h_out, h_foc;
  hmap llh, cons, cath, mddh, pcons, ph, pcache;
  vec pst_v;
  heap pheap;

  /* per agent (SL_CUR) */
  uint32_t *cur;    /* current path record */
  uint32_t *seen;   /* stamp */
  uint32_t *nconf;  /* conflicts involving the agent (node being expanded) */
  uint32_t *gowner; /* per cell: the agent whose goal it is, or NONE */
  uint32_t stamp;

  /* the constraints of the agent being planned */
  int64_t cons_maxt, goal_last;
  bool cons_range, pcons_range;   /* range constraints loaded (agent / pair) */
  bool cons_before, pcons_before; /* "before" constraints loaded */

  /* CAT */
  int64_t cat_maxt; /* largest cost among the paths in the CAT */
  uint32_t self;    /* the agent being planned (its own entries skipped) */

  /* EECBS's lists */
  double fhat_min; /* the focal threshold's base */
  double lbmin;    /* best proven lower bound */
  double err_cost, err_dist;
  uint64_t err_n;
  bool from_cleanup; /* the node selected last came from CLEANUP's head */
} cbs;

static bool vec_need(cbs *S, vec *v, size_t n) {
  if (n <= v->cap) return true;
  size_t cap = v->cap ? v->cap : 256;
  while (cap < n) cap *= 2;
  if (cap > SIZE_MAX / v->esz) {
    S->st = ASTAR_NO_MEMORY;
    return false;
  }
  astar_status st = ASTAR_OK;
  void *p = mapf_scratch(S->c, v->slot, cap * v->esz, &st);
  if (!p) {
    S->st = st != ASTAR_OK ? st : ASTAR_NO_MEMORY;
    return false;
  }
  v->p = p;
  v->cap = cap;
  return true;
}

static void vec_init(vec *v, unsigned slot, size_t esz) {
  memset(v, 0, sizeof *v);
  v->slot = slot;
  v->esz = esz;
}

static inline size_t hash64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  k ^= k >> 33;
  return (size_t)k;
}

static bool hmap_init(cbs *S, hmap *h, unsigned slot, size_t cap) {
  astar_status st = ASTAR_OK;
  hslot *t = mapf_scratch(S->c, slot, cap * sizeof(hslot), &st);
  if (!t) {
    S->st = st != ASTAR_OK ? st : ASTAR_NO_MEMORY;
    return false;
  }
  memset(t, 0, cap * sizeof(hslot));
  h->t = t;
  h->cap = cap;
  h->n = 0;
  h->stamp = 1;
  h->slot = slot;
  return true;
}

static void hmap_clear(hmap *h) {
  h->n = 0;
  if (++h->stamp == 0) {
    memset(h->t, 0, h->cap * sizeof(hslot));
    h->stamp = 1;
  }
}

static inline uint32_t *hmap_find(const hmap *h, uint64_t key) {
  size_t m = h->cap - 1, i = hash64(key) & m;
  while (h->t[i].stamp == h->stamp) {
    if (h->t[i].key == key) return &h->t[i].val;
    i = (i + 1) & m;
  }
  return NULL;
}

static bool hmap_grow(cbs *S, hmap *h) {
  size_t live = h->n;
  astar_status st = ASTAR_OK;
  hslot *tmp = mapf_scratch(S->c, SL_TMP, (live ? live : 1) * sizeof(hslot), &st);
  if (!tmp) {
    S->st = st != ASTAR_OK ? st : ASTAR_NO_MEMORY;
    return false;
  }
  size_t k = 0;
  for (size_t i = 0; i < h->cap; i++)
    if (h->t[i].stamp == h->stamp) tmp[k++] = h->t[i];
  if (!hmap_init(S, h, h->slot, h->cap * 2)) return false;
  size_t m = h->cap - 1;
  for (size_t j = 0; j < k; j++) {
    size_t i = hash64(tmp[j].key) & m;
    while (h->t[i].stamp == h->stamp) i = (i + 1) & m;
    h->t[i] = tmp[j];
    h->t[i].stamp = h->stamp;
  }
  h->n = k;
  return true;
}

/* The value of `key`, inserted with `val` when absent (*fresh says which);
** NULL on failure (S->st set). */
static uint32_t *hmap_put(cbs *S, hmap *h, uint64_t key, uint32_t val, bool *fresh) {
  if ((h->n + 1) * 2 > h->cap && !hmap_grow(S, h)) return NULL;
  size_t m = h->cap - 1, i = hash64(key) & m;
  while (h->t[i].stamp == h->stamp) {
    if (h->t[i].key == key) {
      *fresh = false;
      return &h->t[i].val;
    }
    i = (i + 1) & m;
  }
  h->t[i].key = key;
  h->t[i].val = val;
  h->t[i].stamp = h->stamp;
  h->n++;
  *fresh = true;
  return &h->t[i].val;
}

static inline bool hless(const hent *a, const hent *b) {
  return a->k1 < b->k1 || (a->k1 == b->k1 && a->k2 < b->k2);
}

static bool heap_push(cbs *S, heap *h, hent e) {
  if (!vec_need(S, &h->v, h->v.n + 1)) return false;
  hent *a = h->v.p;
  size_t i = h->v.n++;
  while (i > 0) {
    size_t q = (i - 1) / 2;
    if (!hless(&e, &a[q])) break;
    a[i] = a[q];
    i = q;
  }
  a[i] = e;
  return true;
}

static hent heap_pop(heap *h) {
  hent *a = h->v.p;
  hent top = a[0], e = a[--h->v.n];
  size_t n = h->v.n, i = 0;
  for (;;) {
    size_t l = 2 * i + 1;
    if (l >= n) break;
    size_t m = (l + 1 < n && hless(&a[l + 1], &a[l])) ? l + 1 : l;
    if (!hless(&a[m], &e)) break;
    a[i] = a[m];
    i = m;
  }
  if (n) a[i] = e;
  return top;
}

static inline const hent *heap_top(const heap *h) {
  return h->v.n ? (const hent *)h->v.p : NULL;
}

#define LLN(S) ((lln *)(S)->lln_v.p)
#define CT(S) ((ctn *)(S)->ct_v.p)
#define CHG(S) ((chg *)(S)->chg_v.p)
#define PREC(S) ((prec *)(S)->prec_v.p)
#define CELLS(S) ((uint32_t *)(S)->cells_v.p)
#define CATE(S) ((cate *)(S)->cate_v.p)
#define CONF(S) ((conf *)(S)->conf_v.p)

static inline uint32_t dist(cbs *S, uint32_t a, uint32_t cell) {
  astar_status st = ASTAR_OK;
  uint32_t d = mapf_dist_get(S->c, a, cell, &st);
  if (st != ASTAR_OK) S->st = st;
  return d;
}

static inline bool limits(cbs *S) {
  astar_mapf_stats *s = S->c->stats;
  if (mapf_out_of_limits(S->c, s->high_level + s->low_level)) {
    S->st = ASTAR_LIMIT_REACHED;
    return true;
  }
  return false;
}

/* The direction (0..3, mapf_neighbour's) of the step u -> v, or 4 for a wait. */
static unsigned step_dir(const cbs *S, uint32_t u, uint32_t v) {
  uint32_t w = (uint32_t)S->p->w;
  if (v == u) return 4;
  if (v + w == u) return 0; /* north: y - 1 */
  if (v == u + 1) return 1;
  if (v == u + w) return 2;
  return 3;
}

/* ---- constraints -------------------------------------------------------------------- */

static inline uint64_t ckey_vertex(const cbs *S, uint32_t cell, uint32_t t) {
  return ((uint64_t)t * S->cells + cell) * 5u;
}
static inline uint64_t ckey_edge(const cbs *S, uint32_t from, uint32_t to, uint32_t t) {
  return ((uint64_t)t * S->cells + to) * 5u + 1u + step_dir(S, from, to);
}

/* Loads agent a's constraints along node's chain into S->cons. */
static bool cons_load(cbs *S, uint32_t node, uint32_t a) {
  hmap_clear(&S->cons);
  S->cons_maxt = -1;
  S->goal_last = -1;
  S->cons_range = false;
  S->cons_before = false;
  uint32_t goal = S->p->goal[a];
  for (uint32_t x = node; x != NONE; x = CT(S)[x].parent) {
    const ctn *n = &CT(S)[x];
    if (n->c_kind == CK_NONE || n->c_agent != a) continue;
    bool fresh;
    if (n->c_kind == CK_RANGE) {
      uint32_t *v = hmap_put(S, &S->cons, RKEY(n->c_cell), n->c_time, &fresh);
      if (!v) return false;
      if (n->c_time < *v) *v = n->c_time;
      S->cons_range = true;
      if ((int64_t)n->c_time > S->cons_maxt) S->cons_maxt = n->c_time;
      continue;
    }
    if (n->c_kind == CK_LENGTH) {
      if ((int64_t)n->c_time > S->goal_last) S->goal_last = n->c_time;
      if ((int64_t)n->c_time > S->cons_maxt) S->cons_maxt = n->c_time;
      continue;
    }
    if (n->c_kind == CK_BEFORE) {
      uint32_t *v = hmap_put(S, &S->cons, BKEY(n->c_cell), n->c_time, &fresh);
      if (!v) return false;
      if (n->c_time > *v) *v = n->c_time;
      S->cons_before = true;
      if ((int64_t)n->c_time > S->cons_maxt) S->cons_maxt = n->c_time;
      if (n->c_cell == goal && (int64_t)n->c_time > S->goal_last) S->goal_last = n->c_time;
      continue;
    }
    uint64_t key = n->c_kind == CK_VERTEX ? ckey_vertex(S, n->c_cell, n->c_time)
                                          : ckey_edge(S, n->c_from, n->c_cell, n->c_time);
    if (!hmap_put(S, &S->cons, key, 1, &fresh)) return false;
    if ((int64_t)n->c_time > S->cons_maxt) S->cons_maxt = n->c_time;
    if (n->c_kind == CK_VERTEX && n->c_cell == goal && (int64_t)n->c_time > S->goal_last)
      S->goal_last = n->c_time;
  }
  return true;
}

static inline bool cons_blocks(const cbs *S, uint32_t from, uint32_t to, uint32_t t) {
  if (S->cons.n == 0) return false;
  if (S->cons_range) {
    const uint32_t *r = hmap_find(&S->cons, RKEY(to));
    if (r && t >= *r) return true;
  }
  if (S->cons_before) {
    const uint32_t *r = hmap_find(&S->cons, BKEY(to));
    if (r && t <= *r) return true;
  }
  if ((int64_t)t > S->cons_maxt) return false;
  if (hmap_find(&S->cons, ckey_vertex(S, to, t))) return true;
  return from != to && hmap_find(&S->cons, ckey_edge(S, from, to, t));
}

/* ---- the node's paths and the conflict-avoidance table -------------------------------- */

static inline const uint32_t *path_of(const cbs *S, uint32_t agent) {
  return CELLS(S) + PREC(S)[S->cur[agent]].off;
}
static inline uint32_t cost_of(const cbs *S, uint32_t agent) {
  return PREC(S)[S->cur[agent]].cost;
}
static inline uint32_t pos_at(const cbs *S, uint32_t agent, uint32_t t) {
  const prec *r = &PREC(S)[S->cur[agent]];
  return CELLS(S)[r->off + (t < r->cost ? t : r->cost)];
}

/* S->cur := the path record of every agent at `node`. */
static void load_paths(cbs *S, uint32_t node) {
  if (++S->stamp == 0) {
    memset(S->seen, 0, S->n * sizeof(uint32_t));
    S->stamp = 1;
  }
  uint32_t left = S->n;
  for (uint32_t x = node; x != NONE && left; x = CT(S)[x].parent)
    for (uint32_t k = CT(S)[x].changes; k != NONE; k = CHG(S)[k].next) {
      uint32_t a = CHG(S)[k].agent;
      if (S->seen[a] == S->stamp) continue;
      S->seen[a] = S->stamp;
      S->cur[a] = CHG(S)[k].prec;
      left--;
    }
}

static inline uint64_t cat_key(const cbs *S, uint32_t cell, uint32_t t) {
  return (uint64_t)t * S->cells + cell;
}

/* Adds agent a's current path to the CAT (times 0 .. cost; later its goal
** holds, known from gowner and the cost). */
static bool cat_add(cbs *S, uint32_t a) {
  const prec *r = &PREC(S)[S->cur[a]];
  if (!vec_need(S, &S->cate_v, S->cate_v.n + r->cost + 1)) return false;
  const uint32_t *path = CELLS(S) + r->off;
  uint32_t cost = r->cost;
  for (uint32_t t = 0; t <= cost; t++) {
    bool fresh;
    uint32_t e = (uint32_t)S->cate_v.n;
    uint32_t *head = hmap_put(S, &S->cath, cat_key(S, path[t], t), e, &fresh);
    if (!head) return false;
    CATE(S)[e].agent = a;
    CATE(S)[e].next = fresh ? NONE : *head;
    *head = e;
    S->cate_v.n++;
  }
  if ((int64_t)cost > S->cat_maxt) S->cat_maxt = cost;
  return true;
}

static bool cat_reset(cbs *S) {
  hmap_clear(&S->cath);
  S->cate_v.n = 0;
  S->cat_maxt = -1;
  return true;
}

static bool cat_build(cbs *S) {
  cat_reset(S);
  for (uint32_t a = 0; a < S->n; a++)
    if (!cat_add(S, a)) return false;
  return true;
}

/* Whether agent a (of the CAT) has arrived at its goal by time t. */
static inline bool in_cat(const cbs *S, uint32_t a) {
  return S->cur[a] != NONE;
}

/* Conflicts agent S->self would have being at `cell` at time t. */
static inline uint32_t cat_vertex(const cbs *S, uint32_t cell, uint32_t t) {
  uint32_t k = 0, b = S->gowner[cell];
  if (b != NONE && b != S->self && in_cat(S, b) && t > cost_of(S, b)) k++;
  if ((int64_t)t > S->cat_maxt) return k;
  const uint32_t *e = hmap_find(&S->cath, cat_key(S, cell, t));
  if (e)
    for (uint32_t i = *e; i != NONE; i = CATE(S)[i].next)
      if (CATE(S)[i].agent != S->self) k++;
  return k;
}

/* Conflicts of S->self's step u -> v from time t to t + 1 (swaps). */
static inline uint32_t cat_edge(const cbs *S, uint32_t u, uint32_t v, uint32_t t) {
  if (u == v || (int64_t)t + 1 > S->cat_maxt) return 0;
  const uint32_t *e = hmap_find(&S->cath, cat_key(S, u, t + 1));
  uint32_t k = 0;
  if (e)
    for (uint32_t i = *e; i != NONE; i = CATE(S)[i].next) {
      uint32_t b = CATE(S)[i].agent;
      if (b != S->self && pos_at(S, b, t) == v) k++;
    }
  return k;
}

/* ---- the low level ------------------------------------------------------------------ */

static inline uint64_t ll_key(uint32_t cell, uint32_t t) {
  return ((uint64_t)t << 32) | cell;
}

static bool ll_open(cbs *S, uint32_t id, uint32_t thr) {
  const lln *n = &LLN(S)[id];
  uint32_t f = n->g + n->h;
  hent e = {f, id, id, n->ver};
  if (!heap_push(S, &S->ll_all, e)) return false;
  if (f <= thr) {
    hent fe = {((uint64_t)n->conf << 32) | f, ((uint64_t)(UINT32_MAX - n->g) << 32) | id, id,
               n->ver};
    return heap_push(S, &S->ll_foc, fe);
  }
  return heap_push(S, &S->ll_out, e);
}

static inline bool ll_stale(const cbs *S, const hent *e) {
  const lln *n = &LLN(S)[e->id];
  return n->closed || n->ver != e->ver;
}

/* Plans agent a under node's constraints around the CAT (which holds the
** node's other paths); w >= 1 is the focal bound. Returns a new path record
** (owner = node) or NONE: no path (S->st stays ASTAR_OK) or a failure. */
static uint32_t ll_search(cbs *S, uint32_t a, uint32_t node, double w) {
  const astar_mapf_problem *p = S->p;
  uint32_t start = p->start[a], goal = p->goal[a];
  if (!cons_load(S, node, a)) return NONE;
  S->self = a;
  uint32_t h0 = dist(S, a, start);
  if (h0 == MAPF_DIST_INF) return NONE;
  uint32_t minT = (uint32_t)(S->goal_last + 1);
  int64_t tc = S->cons_maxt > S->cat_maxt ? S->cons_maxt : S->cat_maxt;
  if (tc < 0) tc = 0;
  uint32_t tcap = (uint32_t)tc + 1;

  hmap_clear(&S->llh);
  S->lln_v.n = 0;
  S->ll_all.v.n = S->ll_out.v.n = S->ll_foc.v.n = 0;
  if (!vec_need(S, &S->lln_v, 1)) return NONE;
  uint32_t fmin = h0 > minT ? h0 : minT;
  uint32_t thr = (uint32_t)floor(w * fmin + 1e-9);
  LLN(S)[0] = (lln){start, 0, NONE, fmin, 0, 0, 0};
  S->lln_v.n = 1;
  bool fresh;
  if (!hmap_put(S, &S->llh, ll_key(start, 0), 0, &fresh) || !ll_open(S, 0, thr)) return NONE;

  for (;;) {
    const hent *top;
    while ((top = heap_top(&S->ll_all)) && ll_stale(S, top)) heap_pop(&S->ll_all);
    if (!top) return NONE; /* exhausted: no path under these constraints */
    uint32_t f = (uint32_t)top->k1;
    if (f > fmin) {
      fmin = f;
      thr = (uint32_t)floor(w * fmin + 1e-9);
      while ((top = heap_top(&S->ll_out)) && (ll_stale(S, top) || top->k1 <= thr)) {
        hent e = heap_pop(&S->ll_out);
        if (ll_stale(S, &e)) continue;
        const lln *n = &LLN(S)[e.id];
        hent fe = {((uint64_t)n->conf << 32) | e.k1, ((uint64_t)(UINT32_MAX - n->g) << 32) | e.id,
                   e.id, e.ver};
        if (!heap_push(S, &S->ll_foc, fe)) return NONE;
      }
    }
    while ((top = heap_top(&S->ll_foc)) && ll_stale(S, top)) heap_pop(&S->ll_foc);
    if (!top) return NONE; /* cannot happen: the fmin state is in FOCAL */
    uint32_t id = heap_pop(&S->ll_foc).id;
    lln cur = LLN(S)[id];
    LLN(S)[id].closed = 1;
    if (cur.cell == goal && cur.g >= minT) {
      /* the path: cur.g + 1 cells */
      uint32_t len = cur.g + 1;
      if (!vec_need(S, &S->cells_v, S->cells_v.n + len) ||
          !vec_need(S, &S->prec_v, S->prec_v.n + 1))
        return NONE;
      uint32_t off = (uint32_t)S->cells_v.n;
      uint32_t *out = CELLS(S) + off;
      uint32_t k = len;
      out[--k] = cur.cell;
      for (uint32_t x = cur.parent; x != NONE; x = LLN(S)[x].parent) out[--k] = LLN(S)[x].cell;
      S->cells_v.n += len;
      uint32_t r = (uint32_t)S->prec_v.n++;
      PREC(S)[r] = (prec){a, cur.g, fmin < cur.g ? fmin : cur.g, off, node, NONE};
      return r;
    }
    S->c->stats->low_level++;
    if (limits(S)) return NONE;
    uint32_t ng = cur.g + 1;
    uint32_t nt = ng < tcap ? ng : tcap;
    for (unsigned d = 0; d < 5; d++) {
      uint32_t v = d < 4 ? mapf_neighbour(p, cur.cell, d) : cur.cell;
      if (v == NONE) continue;
      if (cons_blocks(S, cur.cell, v, ng)) continue;
      uint32_t hv = dist(S, a, v);
      if (hv == MAPF_DIST_INF) continue;
      if (ng < minT && minT - ng > hv) hv = minT - ng;
      uint32_t cf = cur.conf + cat_vertex(S, v, ng) + cat_edge(S, cur.cell, v, cur.g);
      uint32_t nid = (uint32_t)S->lln_v.n;
      uint32_t *slot = hmap_put(S, &S->llh, ll_key(v, nt), nid, &fresh);
      if (!slot) return NONE;
      if (!fresh) {
        lln *m = &LLN(S)[*slot];
        if (!(ng < m->g || (ng == m->g && cf < m->conf))) continue;
        m->g = ng;
        m->conf = cf;
        m->parent = id;
        m->ver++;
        m->closed = 0;
        if (!ll_open(S, *slot, thr)) return NONE;
        continue;
      }
      if (!vec_need(S, &S->lln_v, S->lln_v.n + 1)) return NONE;
      LLN(S)[nid] = (lln){v, ng, id, hv, cf, 0, 0};
      S->lln_v.n++;
      if (!ll_open(S, nid, thr)) return NONE;
    }
  }
}

/* ---- conflicts -------------------------------------------------------------------- */

static bool conf_add(cbs *S, uint32_t a, uint32_t b, uint32_t kind, uint32_t from, uint32_t cell,
                     uint32_t t) {
  if (!vec_need(S, &S->conf_v, S->conf_v.n + 1)) return false;
  CONF(S)[S->conf_v.n++] = (conf){a, b, kind, from, cell, t, 2, {0, 0}, {0, 0}};
  S->nconf[a]++;
  S->nconf[b]++;
  return true;
}

/* Every conflict of the loaded paths (the CAT must hold them all). */
static bool detect(cbs *S) {
  S->conf_v.n = 0;
  memset(S->nconf, 0, S->n * sizeof(uint32_t));
  for (uint32_t a = 0; a < S->n; a++) {
    const uint32_t *pa = path_of(S, a);
    uint32_t ca = cost_of(S, a);
    for (uint32_t t = 0; t <= ca; t++) {
      uint32_t cell = pa[t];
      const uint32_t *e = hmap_find(&S->cath, cat_key(S, cell, t));
      if (e)
        for (uint32_t i = *e; i != NONE; i = CATE(S)[i].next)
          if (CATE(S)[i].agent > a && !conf_add(S, a, CATE(S)[i].agent, CK_VERTEX, cell, cell, t))
            return false;
      uint32_t b = S->gowner[cell];
      if (b != NONE && b != a && t > cost_of(S, b) && !conf_add(S, a, b, CK_VERTEX, cell, cell, t))
        return false;
      if (t < ca && pa[t + 1] != cell) {
        e = hmap_find(&S->cath, cat_key(S, cell, t + 1));
        if (e)
          for (uint32_t i = *e; i != NONE; i = CATE(S)[i].next) {
            uint32_t b2 = CATE(S)[i].agent;
            if (b2 > a && pos_at(S, b2, t) == pa[t + 1] &&
                !conf_add(S, a, b2, CK_EDGE, cell, pa[t + 1], t + 1))
              return false;
          }
      }
    }
  }
  return true;
}

/* Conflicts of path record r (agent a) with the CAT's other paths, counted
** as detect counts them. */
static uint32_t count_conf(cbs *S, uint32_t r) {
  const prec *pr = &PREC(S)[r];
  uint32_t a = pr->agent, ca = pr->cost;
  const uint32_t *pa = CELLS(S) + pr->off;
  S->self = a;
  uint32_t k = 0;
  for (uint32_t t = 0; t <= ca; t++) {
    k += cat_vertex(S, pa[t], t);
    if (t < ca) k += cat_edge(S, pa[t], pa[t + 1], t);
  }
  for (int64_t t = (int64_t)ca + 1; t <= S->cat_maxt; t++) {
    const uint32_t *e = hmap_find(&S->cath, cat_key(S, pa[ca], (uint32_t)t));
    if (e)
      for (uint32_t i = *e; i != NONE; i = CATE(S)[i].next)
        if (CATE(S)[i].agent != a) k++;
  }
  return k;
}

/* ---- MDDs: the cell of each level where the MDD has width 1 ----------------------- */

/* S->sing_v gets, for record r (cost c), c + 1 cells: level t's only cell,
** or NONE where the level is wider. Paths of exactly cost c under the
** constraints of r's owner. */
static bool mdd_singletons(cbs *S, uint32_t r) {
  if (PREC(S)[r].sing != NONE) return true;
  prec pr = PREC(S)[r];
  uint32_t a = pr.agent, c = pr.cost;
  if (!cons_load(S, pr.owner, a)) return false;
  const astar_mapf_problem *p = S->p;
  /* states: (cell, t) -> index into mddq; flags in the top bit */
  hmap_clear(&S->mddh);
  S->mddq_v.n = 0;
  if (!vec_need(S, &S->mddq_v, 1)) return false;
  uint64_t *q = S->mddq_v.p; /* cell | t << 32 ; reachable-back flag kept in a side bit */
  q[0] = p->start[a];
  S->mddq_v.n = 1;
  bool fresh;
  if (!hmap_put(S, &S->mddh, ll_key(p->start[a], 0), 0, &fresh)) return false;
  /* level offsets: lvl[t] .. lvl[t+1] in q; stored after the singletons */
  if (!vec_need(S, &S->sing_v, S->sing_v.n + 2 * (size_t)c + 3)) return false;
  uint32_t soff = (uint32_t)S->sing_v.n;
  uint32_t *lvl = (uint32_t *)S->sing_v.p + soff + c + 1;
  lvl[0] = 0;
  for (uint32_t t = 0; t < c; t++) {
    lvl[t + 1] = (uint32_t)S->mddq_v.n;
    uint32_t end = (uint32_t)S->mddq_v.n;
    for (uint32_t i = lvl[t]; i < end; i++) {
      uint32_t u = (uint32_t)((uint64_t *)S->mddq_v.p)[i];
      for (unsigned d = 0; d < 5; d++) {
        uint32_t v = d < 4 ? mapf_neighbour(p, u, d) : u;
        if (v == NONE || cons_blocks(S, u, v, t + 1)) continue;
        uint32_t hv = dist(S, a, v);
        if (hv == MAPF_DIST_INF || hv > c - (t + 1)) continue;
        uint32_t idx = (uint32_t)S->mddq_v.n;
        if (!hmap_put(S, &S->mddh, ll_key(v, t + 1), idx, &fresh)) return false;
        if (!fresh) continue;
        if (!vec_need(S, &S->mddq_v, S->mddq_v.n + 1)) return false;
        ((uint64_t *)S->mddq_v.p)[S->mddq_v.n++] = v;
      }
    }
    lvl = (uint32_t *)S->sing_v.p + soff + c + 1;
  }
  lvl[c + 1] = (uint32_t)S->mddq_v.n;
  q = S->mddq_v.p;
  /* backward: mark states that reach (goal, c); bit 32 = on the MDD */
  uint32_t *sing = (uint32_t *)S->sing_v.p + soff;
  uint32_t goal = p->goal[a];
  const uint32_t *gi = hmap_find(&S->mddh, ll_key(goal, c));
  for (uint32_t t = 0; t <= c; t++) sing[t] = NONE;
  if (!gi) { /* cannot happen for a valid path; leave every level wide */
    PREC(S)[r].sing = soff;
    S->sing_v.n += c + 1;
    return true;
  }
  q[*gi] |= 1ull << 32;
  sing[c] = goal;
  for (uint32_t t = c; t-- > 0;) {
    uint32_t count = 0, only = NONE;
    for (uint32_t i = lvl[t]; i < lvl[t + 1]; i++) {
      uint32_t u = (uint32_t)q[i];
      bool on = false;
      for (unsigned d = 0; d < 5 && !on; d++) {
        uint32_t v = d < 4 ? mapf_neighbour(p, u, d) : u;
        if (v == NONE || cons_blocks(S, u, v, t + 1)) continue;
        const uint32_t *vi = hmap_find(&S->mddh, ll_key(v, t + 1));
        if (vi && (q[*vi] >> 32)) on = true;
      }
      if (on) {
        q[i] |= 1ull << 32;
        count++;
        only = u;
      }
    }
    sing[t] = count == 1 ? only : NONE;
  }
  PREC(S)[r].sing = soff;
  S->sing_v.n += c + 1;
  return true;
}

/* Whether agent a's MDD (current record) is the single cell `cell` at t;
** beyond its cost the agent holds its goal and any vertex constraint there
** forces a later arrival: cardinal. */
static bool single_at(cbs *S, uint32_t a, uint32_t cell, uint32_t t) {
  uint32_t r = S->cur[a];
  uint32_t c = PREC(S)[r].cost;
  if (t >= c) return true;
  return ((uint32_t *)S->sing_v.p)[PREC(S)[r].sing + t] == cell;
}

static bool classify(cbs *S) {
  size_t nc = S->conf_v.n;
  for (size_t i = 0; i < nc; i++) {
    conf *k = &CONF(S)[i];
    if (!mdd_singletons(S, S->cur[k->a]) || !mdd_singletons(S, S->cur[k->b])) return false;
    k = &CONF(S)[i];
    bool ca, cb;
    if (k->kind == CK_VERTEX) {
      ca = single_at(S, k->a, k->cell, k->t);
      cb = single_at(S, k->b, k->cell, k->t);
    } else {
      ca = single_at(S, k->a, k->from, k->t - 1) && single_at(S, k->a, k->cell, k->t);
      cb = single_at(S, k->b, k->cell, k->t - 1) && single_at(S, k->b, k->from, k->t);
    }
    k->prio = (ca && cb) ? 0 : (ca || cb) ? 1 : 2;
  }
  return true;
}

static size_t choose(const cbs *S) {
  size_t best = 0;
  for (size_t i = 1; i < S->conf_v.n; i++) {
    const conf *x = &CONF(S)[i], *y = &CONF(S)[best];
    if (x->prio != y->prio ? x->prio < y->prio
        : x->t != y->t     ? x->t < y->t
        : x->a != y->a     ? x->a < y->a
        : x->b != y->b     ? x->b < y->b
                           : x->kind < y->kind)
      best = i;
  }
  return best;
}

/* ---- the CG heuristic: minimum vertex cover of the cardinal conflict graph ---------- */

typedef struct vcs {
  uint32_t *eu, *ev; /* edges (local vertex numbers) */
  uint32_t ne;
  uint8_t *in; /* cover */
  uint64_t budget;
} vcs;

/* Is there a cover of the uncovered edges with at most k more vertices?
** 1 yes, 0 no, -1 budget spent. */
static int vc_try(vcs *v, uint32_t k) {
  if (v->budget == 0) return -1;
  v->budget--;
  uint32_t e = 0;
  while (e < v->ne && (v->in[v->eu[e]] || v->in[v->ev[e]])) e++;
  if (e == v->ne) return 1;
  if (k == 0) return 0;
  const uint32_t ends[2] = {v->eu[e], v->ev[e]};
  int any = 0;
  for (int s = 0; s < 2; s++) {
    v->in[ends[s]] = 1;
    int r = vc_try(v, k - 1);
    v->in[ends[s]] = 0;
    if (r == 1) return 1;
    if (r < 0) any = -1;
  }
  return any;
}

static bool cg_heuristic(cbs *S, uint32_t *out) {
  /* edges: distinct agent pairs with a cardinal conflict */
  size_t nc = S->conf_v.n;
  if (!vec_need(S, &S->vc_v, 4 * nc + 2 * (size_t)S->n + 4)) return false;
  uint32_t *buf = S->vc_v.p;
  uint32_t *eu = buf, *ev = buf + nc, *loc = buf + 2 * nc; /* loc: agent -> local */
  uint8_t *in = (uint8_t *)(buf + 2 * nc + S->n);
  uint32_t ne = 0, nv = 0;
  for (uint32_t a = 0; a < S->n; a++) loc[a] = NONE;
  for (size_t i = 0; i < nc; i++) {
    const conf *k = &CONF(S)[i];
    if (k->prio != 0) continue;
    bool dup = false;
    uint32_t la = loc[k->a], lb = loc[k->b];
    if (la != NONE && lb != NONE)
      for (uint32_t j = 0; j < ne && !dup; j++)
        dup = (eu[j] == la && ev[j] == lb) || (eu[j] == lb && ev[j] == la);
    if (dup) continue;
    if (la == NONE) la = loc[k->a] = nv++;
    if (lb == NONE) lb = loc[k->b] = nv++;
    eu[ne] = la;
    ev[ne] = lb;
    ne++;
  }
  memset(in, 0, nv ? nv : 1);
  /* a greedy matching bounds the cover from below */
  uint32_t m = 0;
  for (uint32_t j = 0; j < ne; j++)
    if (!in[eu[j]] && !in[ev[j]]) {
      in[eu[j]] = in[ev[j]] = 1;
      m++;
    }
  memset(in, 0, nv ? nv : 1);
  vcs v = {eu, ev, ne, in, 20000};
  uint32_t k = m;
  for (;;) {
    int r = vc_try(&v, k);
    if (r == 1) break;
    if (r < 0) break; /* budget spent: k is proven (k - 1 had no cover) */
    k++;
  }
  *out = k;
  return true;
}

/* ---- the WDG heuristic: pairwise optimal costs, minimum weighted vertex cover ---- */

/* A joint state of two agents: cells, time (folded past the last
** constraint), agents stopped for good on their goals (bits). */
typedef struct pst {
  uint32_t u[2], t, g;
  uint8_t mask;
} pst;

#define PAIR_LIMIT 256u /* joint expansions per pair before settling for a bound */

static inline uint64_t pkey(const cbs *S, uint32_t u0, uint32_t u1, uint32_t t, unsigned mask) {
  return (((uint64_t)t * S->cells + u0) * S->cells + u1) * 4u + mask;
}

typedef struct pctx {
  uint32_t ag[2], goal[2], minT[2], tcap;
} pctx;

/* h of agent i at cell u, time t: its distance, raised to reach minT. */
static inline uint32_t pair_h(cbs *S, const pctx *x, unsigned i, uint32_t u, uint32_t t) {
  uint32_t d = dist(S, x->ag[i], u);
  if (d != MAPF_DIST_INF && t < x->minT[i] && x->minT[i] - t > d) d = x->minT[i] - t;
  return d;
}

/* Opens (u0, u1) at real time t with cost g. 1 pushed or not needed, 0
** failure (S->st), and dead ends (a goal out of reach) are skipped. */
static bool pair_push(cbs *S, const pctx *x, uint32_t u0, uint32_t u1, uint32_t t, unsigned mask,
                      uint32_t g) {
  uint32_t h = 0;
  for (unsigned i = 0; i < 2; i++) {
    if (mask >> i & 1) continue;
    uint32_t hi = pair_h(S, x, i, i ? u1 : u0, t);
    if (hi == MAPF_DIST_INF) return S->st == ASTAR_OK;
    h += hi;
  }
  uint32_t tk = t < x->tcap ? t : x->tcap;
  bool fresh;
  uint32_t nid = (uint32_t)S->pst_v.n;
  uint32_t *slot = hmap_put(S, &S->ph, pkey(S, u0, u1, tk, mask), nid, &fresh);
  if (!slot) return false;
  if (!fresh) {
    pst *m = &((pst *)S->pst_v.p)[*slot];
    if (m->g <= g) return true;
    m->g = g;
    m->t = t;
    nid = *slot;
  } else {
    if (!vec_need(S, &S->pst_v, S->pst_v.n + 1)) return false;
    ((pst *)S->pst_v.p)[S->pst_v.n++] = (pst){{u0, u1}, t, g, (uint8_t)mask};
  }
  hent he = {((uint64_t)(g + h) << 32) | (UINT32_MAX - g), nid, nid, g};
  return heap_push(S, &S->pheap, he);
}

static inline bool pair_blocked(const cbs *S, unsigned i, uint32_t u, uint32_t v, uint32_t t) {
  if (S->pcons.n == 0) return false;
  if (S->pcons_range) {
    const uint32_t *r = hmap_find(&S->pcons, RKEY(v) * 2 + i);
    if (r && t >= *r) return true;
  }
  if (S->pcons_before) {
    const uint32_t *r = hmap_find(&S->pcons, BKEY(v) * 2 + i);
    if (r && t <= *r) return true;
  }
  if (hmap_find(&S->pcons, ckey_vertex(S, v, t) * 2 + i)) return true;
  return u != v && hmap_find(&S->pcons, ckey_edge(S, u, v, t) * 2 + i);
}

/* The least sum of costs of agents ag[0], ag[1] alone under node's
** constraints (goal holding included) -- A* over joint states, each step
** costing the agents not stopped -- or a lower bound on it (the least f
** open) when PAIR_LIMIT runs out; UINT32_MAX when the two cannot both
** arrive. Returns false on failure or limits (S->st). */
static bool pair_cost(cbs *S, uint32_t node, const uint32_t ag[2], uint32_t *out) {
  const astar_mapf_problem *p = S->p;
  int64_t maxt = -1, glast[2] = {-1, -1};
  hmap_clear(&S->pcons);
  S->pcons_range = false;
  S->pcons_before = false;
  for (uint32_t x = node; x != NONE; x = CT(S)[x].parent) {
    const ctn *n = &CT(S)[x];
    if (n->c_kind == CK_NONE || (n->c_agent != ag[0] && n->c_agent != ag[1])) continue;
    unsigned which = n->c_agent == ag[1];
    bool fresh;
    if (n->c_kind == CK_RANGE) {
      uint32_t *v = hmap_put(S, &S->pcons, RKEY(n->c_cell) * 2 + which, n->c_time, &fresh);
      if (!v) return false;
      if (n->c_time < *v) *v = n->c_time;
      S->pcons_range = true;
      if ((int64_t)n->c_time > maxt) maxt = n->c_time;
      continue;
    }
    if (n->c_kind == CK_LENGTH) {
      if ((int64_t)n->c_time > glast[which]) glast[which] = n->c_time;
      if ((int64_t)n->c_time > maxt) maxt = n->c_time;
      continue;
    }
    if (n->c_kind == CK_BEFORE) {
      uint32_t *v = hmap_put(S, &S->pcons, BKEY(n->c_cell) * 2 + which, n->c_time, &fresh);
      if (!v) return false;
      if (n->c_time > *v) *v = n->c_time;
      S->pcons_before = true;
      if ((int64_t)n->c_time > maxt) maxt = n->c_time;
      if (n->c_cell == p->goal[n->c_agent] && (int64_t)n->c_time > glast[which])
        glast[which] = n->c_time;
      continue;
    }
    uint64_t key = n->c_kind == CK_VERTEX ? ckey_vertex(S, n->c_cell, n->c_time)
                                          : ckey_edge(S, n->c_from, n->c_cell, n->c_time);
    if (!hmap_put(S, &S->pcons, key * 2 + which, 1, &fresh)) return false;
    if ((int64_t)n->c_time > maxt) maxt = n->c_time;
    if (n->c_kind == CK_VERTEX && n->c_cell == p->goal[n->c_agent] &&
        (int64_t)n->c_time > glast[which])
      glast[which] = n->c_time;
  }
  pctx x = {{ag[0], ag[1]},
            {p->goal[ag[0]], p->goal[ag[1]]},
            {(uint32_t)(glast[0] + 1), (uint32_t)(glast[1] + 1)},
            (uint32_t)(maxt < 0 ? 0 : maxt) + 1};
  hmap_clear(&S->ph);
  S->pst_v.n = 0;
  S->pheap.v.n = 0;
  if (!pair_push(S, &x, p->start[ag[0]], p->start[ag[1]], 0, 0, 0)) return false;
  uint32_t expanded = 0;
  for (;;) {
    const hent *top;
    while ((top = heap_top(&S->pheap)) && ((const pst *)S->pst_v.p)[top->id].g != top->ver)
      heap_pop(&S->pheap);
    if (!top) {
      *out = UINT32_MAX;
      return true;
    }
    hent e = heap_pop(&S->pheap);
    pst cur = ((pst *)S->pst_v.p)[e.id];
    if (cur.mask == 3) {
      *out = cur.g;
      return true;
    }
    if (++expanded > PAIR_LIMIT) {
      *out = (uint32_t)(e.k1 >> 32);
      return true;
    }
    S->c->stats->low_level++;
    if (limits(S)) return false;
    /* stopping on the goal for good is free */
    for (unsigned i = 0; i < 2; i++)
      if (!(cur.mask >> i & 1) && cur.u[i] == x.goal[i] && cur.t >= x.minT[i] &&
          !pair_push(S, &x, cur.u[0], cur.u[1], cur.t, cur.mask | 1u << i, cur.g))
        return false;
    unsigned n0 = (cur.mask & 1) ? 1 : 5, n1 = (cur.mask & 2) ? 1 : 5;
    uint32_t moving = (uint32_t) !(cur.mask & 1) + (uint32_t) !(cur.mask & 2);
    uint32_t nt = cur.t + 1;
    for (unsigned d0 = 0; d0 < n0; d0++) {
      uint32_t v0 = n0 == 1 || d0 == 4 ? cur.u[0] : mapf_neighbour(p, cur.u[0], d0);
      if (v0 == NONE || (n0 == 5 && pair_blocked(S, 0, cur.u[0], v0, nt))) continue;
      for (unsigned d1 = 0; d1 < n1; d1++) {
        uint32_t v1 = n1 == 1 || d1 == 4 ? cur.u[1] : mapf_neighbour(p, cur.u[1], d1);
        if (v1 == NONE || v1 == v0 || (v0 == cur.u[1] && v1 == cur.u[0])) continue;
        if (n1 == 5 && pair_blocked(S, 1, cur.u[1], v1, nt)) continue;
        if (!pair_push(S, &x, v0, v1, nt, cur.mask, cur.g + moving)) return false;
      }
    }
  }
}

/* Minimum weighted vertex cover: integers x >= 0 with x_a + x_b >= w_ab on
** every edge, least sum. Exact by branch and bound on small components;
** on larger ones (or when the budget runs out) a greedy weighted matching
** (disjoint edges' weights: a lower bound). */
typedef struct wvc {
  uint32_t nv;
  const uint32_t *wm; /* nv x nv weights */
  uint32_t *x, *order;
  uint32_t best, budget;
} wvc;

/* Assigns order[k .. m-1] (local numbers; weights in v->wm, row length
** v->nv), the partial sum being `sum`. */
static void wvc_comp_dfs(wvc *v, uint32_t m, uint32_t k, uint32_t sum) {
  if (sum >= v->best || v->budget == 0) return;
  v->budget--;
  if (k == m) {
    v->best = sum;
    return;
  }
  uint32_t i = v->order[k], lo = 0, hi = 0;
  for (uint32_t kk = 0; kk < m; kk++) {
    uint32_t w = v->wm[i * v->nv + v->order[kk]];
    if (w > hi) hi = w;
  }
  for (uint32_t kk = 0; kk < k; kk++) {
    uint32_t j = v->order[kk], w = v->wm[i * v->nv + j];
    if (w > v->x[j] && w - v->x[j] > lo) lo = w - v->x[j];
  }
  for (uint32_t val = lo; val <= hi && v->budget; val++) {
    v->x[i] = val;
    wvc_comp_dfs(v, m, k + 1, sum + val);
  }
  v->x[i] = 0;
}

static uint32_t find_root(uint32_t *up, uint32_t i) {
  while (up[i] != i) i = up[i] = up[up[i]];
  return i;
}

/* WDG (Li et al. 2019): an edge per pair of agents in conflict weighing
** how much more the pair costs together than the sum of their lower
** bounds (CBS: with a cardinal conflict at least 1); h = minimum weighted
** vertex cover. Pair results are cached by the two path records (a record
** fixes its agent's constraints). *dead: some pair cannot both arrive. */
static bool wdg_heuristic(cbs *S, uint32_t node, uint32_t *out, bool *dead) {
  *out = 0;
  *dead = false;
  size_t nc = S->conf_v.n;
  uint32_t n = S->n;
  /* local numbers of the agents in conflicts */
  if (!vec_need(S, &S->vc_v, (size_t)n + 16)) return false;
  uint32_t *loc = S->vc_v.p, nv = 0;
  for (uint32_t a = 0; a < n; a++) loc[a] = NONE;
  for (size_t i = 0; i < nc; i++) {
    const conf *k = &CONF(S)[i];
    if (loc[k->a] == NONE) loc[k->a] = nv++;
    if (loc[k->b] == NONE) loc[k->b] = nv++;
  }
  if (nv == 0) return true;
  /* too wide to weigh here, or a map too large for pkey's 64 bits: the
  ** caller keeps pathmax (and, for CBS, CG) */
  if (nv > 2048 || S->cells > (1u << 20)) return true;
  size_t need = (size_t)n + 4 * (size_t)nv + (size_t)nv * nv + 16;
  if (!vec_need(S, &S->vc_v, need)) return false;
  loc = S->vc_v.p;
  uint32_t *agent = loc + n, *up = agent + nv, *x = up + nv, *order = x + nv, *wm = order + nv;
  memset(wm, 0, (size_t)nv * nv * sizeof(uint32_t));
  for (uint32_t a = 0; a < n; a++)
    if (loc[a] != NONE) agent[loc[a]] = a;
  for (uint32_t i = 0; i < nv; i++) up[i] = i;
  for (size_t i = 0; i < nc; i++) {
    const conf *k = &CONF(S)[i];
    uint32_t a = k->a < k->b ? k->a : k->b, b = k->a < k->b ? k->b : k->a;
    uint32_t la = loc[a], lb = loc[b];
    if (wm[la * nv + lb]) continue; /* weighed already (NONE marks a zero weight) */
    uint32_t ra = S->cur[a], rb = S->cur[b];
    uint64_t key = ((uint64_t)ra << 32) | rb;
    uint32_t *cached = hmap_find(&S->pcache, key);
    uint32_t v;
    if (cached) {
      v = *cached;
    } else {
      uint32_t ag[2] = {a, b};
      if (!pair_cost(S, node, ag, &v)) return false;
      bool fresh;
      if (!hmap_put(S, &S->pcache, key, v, &fresh)) return false;
    }
    if (v == UINT32_MAX) {
      *dead = true;
      return true;
    }
    uint64_t base = (uint64_t)PREC(S)[ra].lb + PREC(S)[rb].lb;
    uint32_t w = v > base ? (uint32_t)(v - base) : 0;
    /* CBS's records are optimal, so a cardinal conflict costs one more */
    for (size_t j = i; j < nc && !S->eecbs && w == 0; j++) {
      const conf *kj = &CONF(S)[j];
      if (kj->prio == 0 && ((kj->a == a && kj->b == b) || (kj->a == b && kj->b == a))) w = 1;
    }
    wm[la * nv + lb] = wm[lb * nv + la] = w ? w : NONE;
    if (w) {
      uint32_t r1 = find_root(up, la), r2 = find_root(up, lb);
      if (r1 != r2) up[r1] = r2;
    }
  }
  for (size_t i = 0; i < (size_t)nv * nv; i++)
    if (wm[i] == NONE) wm[i] = 0;
  /* per component */
  uint32_t total = 0;
  for (uint32_t r = 0; r < nv; r++) {
    if (find_root(up, r) != r) continue;
    uint32_t m = 0;
    for (uint32_t i = 0; i < nv; i++)
      if (find_root(up, i) == r) order[m++] = i;
    if (m < 2) continue;
    /* greedy weighted matching: a lower bound and the fallback */
    uint32_t lbm = 0;
    for (uint32_t i = 0; i < m; i++) x[order[i]] = 0;
    for (;;) {
      uint32_t bw = 0, bi = 0, bj = 0;
      for (uint32_t i = 0; i < m; i++)
        for (uint32_t j = i + 1; j < m; j++) {
          uint32_t oi = order[i], oj = order[j], w = wm[oi * nv + oj];
          if (w > bw && !x[oi] && !x[oj]) {
            bw = w;
            bi = oi;
            bj = oj;
          }
        }
      if (!bw) break;
      lbm += bw;
      x[bi] = x[bj] = 1;
    }
    for (uint32_t i = 0; i < m; i++) x[order[i]] = 0;
    uint32_t h = lbm;
    if (m <= 16) { /* exact, unless the budget runs out (then the matching) */
      wvc v = {nv, wm, x, order, UINT32_MAX, 200000};
      wvc_comp_dfs(&v, m, 0, 0);
      if (v.budget > 0 && v.best != UINT32_MAX && v.best > h) h = v.best;
    }
    total += h;
  }
  *out = total;
  return true;
}

/* ---- the high level ------------------------------------------------------------------ */

static inline uint64_t dbits(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u; /* order-preserving for x >= 0 */
}

static inline uint64_t f_of(const ctn *n) {
  return n->lb + n->h;
}

static bool hl_push(cbs *S, uint32_t id) {
  ctn *n = &CT(S)[id];
  uint64_t f = f_of(n);
  uint32_t newer = UINT32_MAX - id;
  hent cl = {(f << 32) | n->d, ((n->cost & 0xffffffffu) << 32) | newer, id, n->ver};
  if (!heap_push(S, &S->h_clean, cl)) return false;
  if (!S->eecbs) return true;
  hent op = {dbits(n->fhat), ((uint64_t)n->d << 32) | newer, id, n->ver};
  if (!heap_push(S, &S->h_open, op)) return false;
  if (n->fhat <= S->w * S->fhat_min + 1e-9) {
    hent fo = {((uint64_t)n->d << 32) | (f & 0xffffffffu), ((n->cost & 0xffffffffu) << 32) | newer,
               id, n->ver};
    return heap_push(S, &S->h_foc, fo);
  }
  return heap_push(S, &S->h_out, op);
}

static inline bool hl_stale(const cbs *S, const hent *e) {
  const ctn *n = &CT(S)[e->id];
  return n->closed || n->ver != e->ver;
}

static const hent *hl_top(cbs *S, heap *h) {
  const hent *t;
  while ((t = heap_top(h)) && hl_stale(S, t)) heap_pop(h);
  return t;
}

/* The next node to expand, or NONE when the lists are empty. */
static uint32_t hl_select(cbs *S) {
  const hent *cl = hl_top(S, &S->h_clean);
  if (!cl) return NONE;
  double lb = (double)f_of(&CT(S)[cl->id]);
  if (lb > S->lbmin) S->lbmin = lb;
  S->from_cleanup = true;
  if (!S->eecbs) {
    uint32_t id = cl->id;
    CT(S)[id].closed = 1;
    return id;
  }
  const hent *op = hl_top(S, &S->h_open);
  double fh = CT(S)[op->id].fhat;
  if (fh > S->fhat_min) {
    S->fhat_min = fh;
    double thr = S->w * fh + 1e-9;
    const hent *t;
    while ((t = heap_top(&S->h_out)) && (hl_stale(S, t) || CT(S)[t->id].fhat <= thr)) {
      hent e = heap_pop(&S->h_out);
      if (hl_stale(S, &e)) continue;
      const ctn *n = &CT(S)[e.id];
      hent fo = {((uint64_t)n->d << 32) | (f_of(n) & 0xffffffffu),
                 ((n->cost & 0xffffffffu) << 32) | (UINT32_MAX - e.id), e.id, e.ver};
      if (!heap_push(S, &S->h_foc, fo)) return NONE;
    }
  }
  const hent *fo = hl_top(S, &S->h_foc);
  double bound = S->w * S->lbmin + 1e-9;
  uint32_t id;
  S->from_cleanup = false;
  if (fo && (double)CT(S)[fo->id].cost <= bound)
    id = fo->id;
  else if ((double)CT(S)[op->id].cost <= bound)
    id = op->id;
  else {
    id = cl->id;
    S->from_cleanup = true;
  }
  CT(S)[id].closed = 1;
  return id;
}

static double estimate_fhat(const cbs *S, const ctn *n) {
  double ctg = 0;
  if (S->err_n > 0) {
    double c;
    if ((double)S->err_n <= S->err_dist)
      c = S->err_cost / (double)S->err_n * 10;
    else
      c = S->err_cost / ((double)S->err_n - S->err_dist);
    if (c > 0) ctg = n->d * c;
  }
  double fh = (double)n->cost + ctg;
  if (fh < (double)f_of(n)) fh = (double)f_of(n);
  return fh;
}

static uint32_t ct_new(cbs *S) {
  if (!vec_need(S, &S->ct_v, S->ct_v.n + 1)) return NONE;
  uint32_t id = (uint32_t)S->ct_v.n++;
  memset(&CT(S)[id], 0, sizeof(ctn));
  CT(S)[id].parent = NONE;
  CT(S)[id].changes = NONE;
  return id;
}

static bool chg_add(cbs *S, uint32_t node, uint32_t agent, uint32_t r) {
  if (!vec_need(S, &S->chg_v, S->chg_v.n + 1)) return false;
  uint32_t k = (uint32_t)S->chg_v.n++;
  CHG(S)[k] = (chg){agent, r, CT(S)[node].changes};
  CT(S)[node].changes = k;
  return true;
}

static bool write_solution(cbs *S, uint32_t node) {
  load_paths(S, node);
  int32_t w = S->p->w;
  for (uint32_t a = 0; a < S->n; a++) {
    const prec *r = &PREC(S)[S->cur[a]];
    if (!vec_need(S, &S->pts_v, (size_t)r->cost + 1)) return false;
    astar_point *pts = S->pts_v.p;
    const uint32_t *path = CELLS(S) + r->off;
    for (uint32_t t = 0; t <= r->cost; t++)
      pts[t] = (astar_point){(int32_t)(path[t] % (uint32_t)w), (int32_t)(path[t] / (uint32_t)w)};
    astar_status st = astar_mapf_solution_set_path(S->c->out, a, pts, (size_t)r->cost + 1);
    if (st != ASTAR_OK) {
      S->st = st;
      return false;
    }
  }
  return true;
}

/* ---- corridor reasoning -------------------------------------------------------- */

static unsigned degree(const cbs *S, uint32_t cell) {
  unsigned k = 0;
  for (unsigned d = 0; d < 4; d++) k += mapf_neighbour(S->p, cell, d) != NONE;
  return k;
}

/* The earliest time agent a can be at `target` under node's constraints
** (the edge bu - bv closed both ways unless NONE); ub + 1 when not by ub,
** UINT32_MAX when failing (S->st set). A* over (cell, time) with the
** Manhattan distance: time is the cost, so each state has one g and the
** first arrival at a state is its only one. */
static uint32_t travel_time(cbs *S, uint32_t node, uint32_t a, uint32_t target, uint32_t ub,
                            uint32_t bu, uint32_t bv) {
  if (!cons_load(S, node, a)) return UINT32_MAX;
  uint32_t w = (uint32_t)S->p->w;
  int32_t tx = (int32_t)(target % w), ty = (int32_t)(target / w);
  uint32_t start = S->p->start[a];
  hmap_clear(&S->mddh);
  S->mddq_v.n = 0;
  S->pheap.v.n = 0;
  bool fresh;
  if (!vec_need(S, &S->mddq_v, 1)) return UINT32_MAX;
  ((uint64_t *)S->mddq_v.p)[S->mddq_v.n++] = start;
  if (!hmap_put(S, &S->mddh, ll_key(start, 0), 0, &fresh)) return UINT32_MAX;
  uint32_t h0 = (uint32_t)(abs((int32_t)(start % w) - tx) + abs((int32_t)(start / w) - ty));
  if (!heap_push(S, &S->pheap, (hent){(uint64_t)h0 << 32, 0, 0, 0})) return UINT32_MAX;
  while (S->pheap.v.n) {
    hent he = heap_pop(&S->pheap);
    uint64_t e = ((uint64_t *)S->mddq_v.p)[he.id];
    uint32_t u = (uint32_t)e, t = (uint32_t)(e >> 32);
    if (u == target) return t;
    if (t >= ub) continue;
    S->c->stats->low_level++;
    if (limits(S)) return UINT32_MAX;
    for (unsigned d = 0; d < 5; d++) {
      uint32_t v = d < 4 ? mapf_neighbour(S->p, u, d) : u;
      if (v == NONE || cons_blocks(S, u, v, t + 1)) continue;
      if ((u == bu && v == bv) || (u == bv && v == bu)) continue;
      if (!hmap_put(S, &S->mddh, ll_key(v, t + 1), 0, &fresh)) return UINT32_MAX;
      if (!fresh) continue;
      uint32_t h = (uint32_t)(abs((int32_t)(v % w) - tx) + abs((int32_t)(v / w) - ty));
      if (t + 1 + h > ub) continue;
      uint32_t id = (uint32_t)S->mddq_v.n;
      if (!vec_need(S, &S->mddq_v, S->mddq_v.n + 1)) return UINT32_MAX;
      ((uint64_t *)S->mddq_v.p)[S->mddq_v.n++] = v | (uint64_t)(t + 1) << 32;
      hent ne = {(uint64_t)(t + 1 + h) << 32 | (UINT32_MAX - (t + 1)), id, id, 0};
      if (!heap_push(S, &S->pheap, ne)) return UINT32_MAX;
    }
  }
  return ub + 1;
}

/* Turns conflict k into a corridor conflict when it is one (the rules of
** Li et al. 2021: the agents enter a chain of degree-2 cells from its two
** ends, each could reach the other's entrance around the corridor only
** later, and both current paths break the new constraints). False on
** failure (S->st). */
static bool corridor(cbs *S, uint32_t node, conf *k) {
  uint32_t time; /* when one of them is on a degree-2 cell of the conflict */
  if ((k->kind == CK_VERTEX || k->kind == CK_EDGE) && degree(S, k->cell) == 2)
    time = k->t;
  else if (k->kind == CK_EDGE && degree(S, k->from) == 2)
    time = k->t - 1;
  else
    return true;
  const uint32_t ag[2] = {k->a, k->b};
  uint32_t te[2];
  for (int i = 0; i < 2; i++) {
    uint32_t x = ag[i], o = ag[1 - i], c = cost_of(S, x), t = time < c ? time : c;
    const uint32_t *px = path_of(S, x);
    uint32_t oend = path_of(S, o)[cost_of(S, o)];
    while (t > 0 && px[t] != px[0] && px[t] != oend && degree(S, px[t]) == 2) t--;
    te[i] = t;
  }
  int sw = te[0] > te[1];
  uint32_t A = ag[sw], B = ag[1 - sw], tA = te[sw], tB = te[1 - sw];
  uint32_t uA = pos_at(S, A, tA), uB = pos_at(S, B, tB);
  if (uA == uB) return true;
  /* each must go on to the other's entrance */
  uint32_t reachA = NONE, reachB = NONE;
  for (uint32_t t = tA; t <= cost_of(S, A); t++)
    if (pos_at(S, A, t) == uB) {
      reachA = t;
      break;
    }
  for (uint32_t t = tB; t <= cost_of(S, B); t++)
    if (pos_at(S, B, t) == uA) {
      reachB = t;
      break;
    }
  if (reachA == NONE || reachB == NONE) return true;
  /* the corridor's length along A's walk, and its first edge */
  int64_t len = 0;
  uint32_t prev = NONE, eu = NONE, ev = NONE;
  bool forward = true;
  for (uint32_t t = tA; t < reachA; t++) {
    uint32_t c0 = pos_at(S, A, t), c1 = pos_at(S, A, t + 1);
    if (c1 == c0) continue;
    if (c1 == prev) forward = !forward;
    if (forward) {
      if (eu == NONE) {
        eu = c0;
        ev = c1;
      }
      len++;
    } else {
      len--;
    }
    prev = c0;
  }
  if (len <= 0 || eu == NONE) return true;
  uint32_t kl = (uint32_t)len;
  /* the current paths arrive by reachA / reachB: the bounds of t3, t4 */
  uint32_t t3 = travel_time(S, node, A, uB, reachA, NONE, NONE);
  if (t3 == UINT32_MAX) return S->st == ASTAR_OK;
  if (t3 > reachA) return true;
  uint32_t t3b = travel_time(S, node, A, uB, t3 + 2 * kl + 1, eu, ev);
  if (t3b == UINT32_MAX) return S->st == ASTAR_OK;
  uint32_t t4 = travel_time(S, node, B, uA, reachB, NONE, NONE);
  if (t4 == UINT32_MAX) return S->st == ASTAR_OK;
  if (t4 > reachB) return true;
  uint32_t t4b = travel_time(S, node, B, uA, t4 + 2 * kl + 1, eu, ev);
  if (t4b == UINT32_MAX) return S->st == ASTAR_OK;
  uint32_t dt = t3 > t4 ? t3 - t4 : t4 - t3;
  if (dt > kl || t3b <= t3 || t4b <= t4) return true;
  uint32_t T1 = t3b - 1 < t4 + kl ? t3b - 1 : t4 + kl;
  uint32_t T2 = t4b - 1 < t3 + kl ? t4b - 1 : t3 + kl;
  /* both current paths must break their constraint */
  bool brokeA = false, brokeB = false;
  for (uint32_t t = 0; t <= T1 && !brokeA; t++) brokeA = pos_at(S, A, t) == uB;
  for (uint32_t t = 0; t <= T2 && !brokeB; t++) brokeB = pos_at(S, B, t) == uA;
  if (!brokeA || !brokeB) return true;
  int sa = A == k->a ? 0 : 1; /* the side of A */
  k->kind = CK_CORRIDOR;
  k->ccell[sa] = uB;
  k->ctime[sa] = T1;
  k->ccell[1 - sa] = uA;
  k->ctime[1 - sa] = T2;
  return true;
}

/* Generates the child of `parent` that adds `side`'s constraint of conflict
** k (copied) and replans that agent. Returns the child, or NONE: pruned (no
** path; S->st ASTAR_OK) or failure. The CAT and S->cur hold the parent's paths. */
static uint32_t gen_child(cbs *S, uint32_t parent, const conf *k, int side) {
  uint32_t id = ct_new(S);
  if (id == NONE) return NONE;
  ctn *n = &CT(S)[id];
  const ctn *pn = &CT(S)[parent];
  uint32_t agent = side ? k->b : k->a;
  n->parent = parent;
  n->depth = pn->depth + 1;
  n->c_agent = agent;
  n->c_time = k->t;
  if (k->kind == CK_CORRIDOR) {
    n->c_kind = CK_BEFORE;
    n->c_cell = n->c_from = k->ccell[side];
    n->c_time = k->ctime[side];
  } else if (k->kind == CK_VERTEX) {
    uint32_t other = side ? k->a : k->b;
    /* a target conflict: one of the two has arrived at this goal by t */
    if (k->cell == S->p->goal[other] && k->t >= cost_of(S, other))
      n->c_kind = CK_RANGE;
    else if (k->cell == S->p->goal[agent] && k->t >= cost_of(S, agent))
      n->c_kind = CK_LENGTH;
    else
      n->c_kind = CK_VERTEX;
    n->c_cell = n->c_from = k->cell;
  } else {
    n->c_kind = CK_EDGE;
    n->c_from = side ? k->cell : k->from;
    n->c_cell = side ? k->from : k->cell;
  }
  uint32_t r = ll_search(S, agent, id, S->eecbs ? S->w : 1.0);
  if (r == NONE) {
    S->ct_v.n--; /* the newest node: drop it */
    return NONE;
  }
  n = &CT(S)[id];
  pn = &CT(S)[parent];
  const prec *old = &PREC(S)[S->cur[agent]];
  const prec *nw = &PREC(S)[r];
  n->cost = pn->cost - old->cost + nw->cost;
  n->lb = pn->lb - old->lb + nw->lb;
  uint32_t dn = count_conf(S, r);
  n = &CT(S)[id];
  n->d = pn->d - S->nconf[agent] + dn;
  /* pathmax: the parent's f bounds the child's */
  uint64_t pf = f_of(pn);
  n->h = pf > n->lb ? (uint32_t)(pf - n->lb) : 0;
  if (!chg_add(S, id, agent, r)) return NONE;
  return id;
}

/* The whole search. */
static astar_status cbs_run(cbs *S) {
  mapf_ctx *c = S->c;
  astar_mapf_stats *stats = c->stats;
  uint32_t n = S->n;

  /* root: agents in order, each around the ones before (CAT) */
  uint32_t root = ct_new(S);
  if (root == NONE) return S->st;
  for (uint32_t a = 0; a < n; a++) S->cur[a] = NONE;
  cat_reset(S);
  uint64_t cost = 0, lb = 0;
  for (uint32_t a = 0; a < n; a++) {
    uint32_t r = ll_search(S, a, root, S->eecbs ? S->w : 1.0);
    if (r == NONE) return S->st != ASTAR_OK ? S->st : ASTAR_NO_PATH;
    S->cur[a] = r;
    if (!chg_add(S, root, a, r) || !cat_add(S, a)) return S->st;
    cost += PREC(S)[r].cost;
    lb += PREC(S)[r].lb;
  }
  CT(S)[root].cost = cost;
  CT(S)[root].lb = lb;
  if (!cat_build(S) || !detect(S)) return S->st;
  CT(S)[root].d = (uint32_t)S->conf_v.n;
  CT(S)[root].fhat = (double)cost;
  S->fhat_min = (double)cost;
  S->lbmin = (double)lb;
  stats->high_level = 1;
  if (!hl_push(S, root)) return S->st;

  for (;;) {
    if (limits(S)) break;
    uint32_t id = hl_select(S);
    if (id == NONE) {
      if (S->st != ASTAR_OK) return S->st;
      stats->bound = S->lbmin;
      return ASTAR_NO_PATH; /* the tree is exhausted */
    }
    for (;;) { /* expand `id`; again after a bypass */
      load_paths(S, id);
      if (!cat_build(S) || !detect(S)) return S->st;
      CT(S)[id].d = (uint32_t)S->conf_v.n;
      if (S->conf_v.n == 0) {
        if (!write_solution(S, id)) return S->st;
        double bound = S->lbmin;
        if (!S->eecbs) bound = (double)CT(S)[id].cost;
        stats->bound = bound;
        stats->optimal = !S->eecbs || (double)CT(S)[id].cost <= bound;
        mapf_report_solution(c);
        return ASTAR_OK;
      }
      if (!classify(S)) return S->st;
      /* the admissible heuristic, once per node: CBS at its first pop, EECBS
      ** when CLEANUP chose it (and at the root) */
      if (!CT(S)[id].hdone && (!S->eecbs || S->from_cleanup || id == 0)) {
        uint32_t h, hc = 0;
        bool dead;
        if (!wdg_heuristic(S, id, &h, &dead)) return S->st;
        if (!S->eecbs && !cg_heuristic(S, &hc)) return S->st;
        if (hc > h) h = hc;
        ctn *nd = &CT(S)[id];
        nd->hdone = 1;
        if (dead) break; /* two agents that cannot both arrive: no solution below */
        if (h > nd->h) {
          nd->h = h;
          if (S->eecbs && nd->fhat < (double)f_of(nd)) nd->fhat = (double)f_of(nd);
          nd->closed = 0;
          nd->ver++;
          if (!hl_push(S, id)) return S->st;
          break;
        }
      }
      conf k = CONF(S)[choose(S)];
      if (!corridor(S, id, &k)) return S->st;
      uint32_t kids[2] = {NONE, NONE};
      bool bypassed = false;
      for (int side = 0; side < 2; side++) {
        kids[side] = gen_child(S, id, &k, side);
        if (kids[side] == NONE) {
          if (S->st != ASTAR_OK) return S->st;
          continue;
        }
        stats->high_level++;
        const ctn *ch = &CT(S)[kids[side]];
        const ctn *pn = &CT(S)[id];
        /* bypass: no costlier (EECBS: within the bound), fewer conflicts */
        uint32_t agent = ch->c_agent;
        const prec *nr = &PREC(S)[CHG(S)[ch->changes].prec];
        bool cheap = S->eecbs ? ((double)ch->cost <= S->w * S->lbmin + 1e-9 &&
                                 (double)nr->cost <= S->w * PREC(S)[S->cur[agent]].lb + 1e-9)
                              : ch->cost == pn->cost;
        /* EECBS bypasses only on nodes chosen for their cost (not from CLEANUP) */
        if (cheap && ch->d < pn->d && !(S->eecbs && S->from_cleanup)) {
          /* adopt the path under the parent's constraints */
          uint32_t r = CHG(S)[ch->changes].prec;
          if (!vec_need(S, &S->prec_v, S->prec_v.n + 1)) return S->st;
          uint32_t r2 = (uint32_t)S->prec_v.n++;
          PREC(S)[r2] = PREC(S)[r];
          PREC(S)[r2].owner = id;
          PREC(S)[r2].lb = PREC(S)[S->cur[agent]].lb;
          PREC(S)[r2].sing = NONE;
          ctn *pm = &CT(S)[id];
          pm->cost = CT(S)[kids[side]].cost;
          pm->d = CT(S)[kids[side]].d;
          S->ct_v.n = kids[0] != NONE ? kids[0] : kids[side]; /* drop the children */
          if (!chg_add(S, id, agent, r2)) return S->st;
          bypassed = true;
          break;
        }
      }
      if (bypassed) {
        if (limits(S)) break;
        continue;
      }
      ctn *pn = &CT(S)[id];
      uint32_t best = NONE;
      for (int side = 0; side < 2; side++) {
        if (kids[side] == NONE) continue;
        ctn *ch = &CT(S)[kids[side]];
        if (S->eecbs) ch->fhat = estimate_fhat(S, ch);
        if (!hl_push(S, kids[side])) return S->st;
        if (best == NONE || ch->fhat < CT(S)[best].fhat ||
            (ch->fhat == CT(S)[best].fhat && ch->d < CT(S)[best].d))
          best = kids[side];
      }
      if (S->eecbs && best != NONE) {
        const ctn *b = &CT(S)[best];
        S->err_dist += 1.0 + (double)b->d - (double)pn->d;
        S->err_cost += (double)b->cost - (double)pn->cost;
        S->err_n++;
      }
      break;
    }
    if (S->st != ASTAR_OK) break;
  }
  /* out of limits */
  stats->bound = S->lbmin;
  return S->st != ASTAR_OK ? S->st : ASTAR_LIMIT_REACHED;
}

astar_status mapf_cbs_solve(mapf_ctx *c) {
  cbs S;
  memset(&S, 0, sizeof S);
  S.c = c;
  S.p = c->p;
  S.st = ASTAR_OK;
  S.eecbs = c->o->algo == ASTAR_MAPF_EECBS;
  S.w = S.eecbs ? c->o->w : 1.0;
  if (S.w < 1.0) S.w = 1.0;
  S.n = c->p->n;
  S.cells = c->p->cells;
  c->stats->bound = (double)c->stats->lower_bound;

  vec_init(&S.lln_v, SL_LLN, sizeof(lln));
  vec_init(&S.ct_v, SL_CT, sizeof(ctn));
  vec_init(&S.chg_v, SL_CHG, sizeof(chg));
  vec_init(&S.prec_v, SL_PREC, sizeof(prec));
  vec_init(&S.cells_v, SL_CELLS, sizeof(uint32_t));
  vec_init(&S.cate_v, SL_CATE, sizeof(cate));
  vec_init(&S.conf_v, SL_CONF, sizeof(conf));
  vec_init(&S.mddq_v, SL_MDDQ, sizeof(uint64_t));
  vec_init(&S.sing_v, SL_SING, sizeof(uint32_t));
  vec_init(&S.pts_v, SL_PTS, sizeof(astar_point));
  vec_init(&S.vc_v, SL_VC, sizeof(uint32_t));
  vec_init(&S.ll_all.v, SL_LLALL, sizeof(hent));
  vec_init(&S.ll_out.v, SL_LLOUT, sizeof(hent));
  vec_init(&S.ll_foc.v, SL_LLFOC, sizeof(hent));
  vec_init(&S.h_clean.v, SL_HCLEAN, sizeof(hent));
  vec_init(&S.h_open.v, SL_HOPEN, sizeof(hent));
  vec_init(&S.h_out.v, SL_HOUT, sizeof(hent));
  vec_init(&S.h_foc.v, SL_HFOC, sizeof(hent));

  astar_status st = ASTAR_OK;
  size_t per_agent = 3 * (size_t)S.n * sizeof(uint32_t);
  uint32_t *cur = mapf_scratch(c, SL_CUR, per_agent + (size_t)S.cells * sizeof(uint32_t), &st);
  if (!cur) return st != ASTAR_OK ? st : ASTAR_NO_MEMORY;
  S.cur = cur;
  S.seen = cur + S.n;
  S.nconf = cur + 2 * (size_t)S.n;
  S.gowner = cur + 3 * (size_t)S.n;
  memset(S.seen, 0, S.n * sizeof(uint32_t));
  for (uint32_t i = 0; i < S.cells; i++) S.gowner[i] = NONE;
  for (uint32_t a = 0; a < S.n; a++) S.gowner[c->p->goal[a]] = a;

  vec_init(&S.pst_v, SL_PST, sizeof(pst));
  vec_init(&S.pheap.v, SL_PHEAP, sizeof(hent));
  if (!hmap_init(&S, &S.pcons, SL_PCONS, 64) || !hmap_init(&S, &S.ph, SL_PH, 1u << 10) ||
      !hmap_init(&S, &S.pcache, SL_PCACHE, 1u << 10))
    return S.st;
  if (!hmap_init(&S, &S.llh, SL_LLH, 1u << 12) || !hmap_init(&S, &S.cons, SL_CONS, 64) ||
      !hmap_init(&S, &S.cath, SL_CATH, 1u << 12) || !hmap_init(&S, &S.mddh, SL_MDDH, 1u << 10))
    return S.st;

  st = cbs_run(&S);
  if (st != ASTAR_OK) {
    astar_mapf_solution_clear(c->out);
    if (S.lbmin > c->stats->bound) c->stats->bound = S.lbmin;
  }
  return st;
}
