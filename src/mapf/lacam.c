/*
** mapf/lacam.c -- LaCAM (Okumura, AAAI 2023) and LaCAM* (Okumura, IJCAI
** 2023): a depth-first search over configurations (one cell per agent)
** whose successors PIBT generates (pibt.c).
**
** High level: a configuration node keeps a queue of low-level nodes, a
** breadth-first constraint tree over "agent i goes to cell v" choices in
** the node's priority order (the root has no constraint; each level adds
** one agent's choice, its neighbours and its own cell in random order).
** Each time a node is on top of the stack its next low-level node is taken
** and PIBT makes a successor honouring those constraints; a node is
** dropped once its constraint tree is used up. Since every full assignment
** eventually appears as a leaf of the tree, every successor of a node is
** eventually generated: the search is complete (LaCAM proves "no solution"
** by exhausting the configurations reachable from the start).
**
** LaCAM* goes on after the first solution. Each node has g (the cost of the
** best known way to it), h = sum of the agents' distances to their goals,
** and links to the configurations it has been seen next to. When a known
** configuration is met again, g is lowered through the links (Dijkstra from
** the node that found it); nodes with g + h >= the best solution's cost are
** dropped.
**
** Costs. The transition cost between two configurations is the number of
** agents that are not at their goal in both ("sum of loss", as in the
** LaCAM* paper). It is a lower bound of the sum of costs (an agent that
** waits at its goal and later leaves pays for the waiting in SOC, not in
** the loss), so g + h never exceeds the SOC of any solution through a node
** (per agent: arrival >= its loss so far + its distance left), and pruning
** against the best true SOC keeps every better solution. The solutions
** found are measured in true SOC (paths trimmed at each agent's arrival).
** When the stack empties, every node with g + h below the best SOC has all
** its successors linked, so every better solution runs through the
** explored graph: a last exact search over that graph (states =
** configuration + the set of agents that have arrived for good, which is
** what SOC charges for) finds the optimum, and stats.optimal is set.
**
** Engineering (after lacam3): configurations are flat arrays in growing
** stores indexed by node number (no allocation per node), found again
** through an open-addressing hash table of Zobrist-style sums; distances are
** the lazily filled tables of dist.c; PIBT uses the swap technique; some
** random restarts (re-pushing the start node, picking a random stacked node
** after the first solution) diversify the anytime search.
*/
#include <string.h>

#include "pibt.h"

/* Scratch slots of LaCAM (the PIBT solver uses 8 .. 12). */
enum {
  SLOT_GRAPH = 16, /* + 17: the PIBT generator */
  SLOT_NODE = 18,
  SLOT_CFG,
  SLOT_PRI,
  SLOT_LNODE,
  SLOT_LINK,
  SLOT_TABLE,
  SLOT_OPEN,
  SLOT_QUEUE,
  SLOT_WORK,
  SLOT_PATH,
  SLOT_X_STATE,
  SLOT_X_TABLE,
  SLOT_X_HEAP,
  SLOT_LNS_BUF /* 31; the refiner (lns.c) has 0 .. 7 */
};

/* Random restarts, as lacam3 tunes them: after a known configuration is
** met, the start node is pushed instead of it with this probability; after
** the first solution, a random stacked node is looked at instead of the top
** one with this other probability. */
#define RESTART_PROB 0.1f
#define RANDOM_PICK_PROB 0.01f
/* The exact last search is run on at most this many agents (the set of
** arrived agents is a 64-bit mask) and states. */
#define EXACT_MAX_AGENTS 64u
#define EXACT_MAX_STATES (1u << 22)

typedef struct lc_node {
  uint64_t hash;
  uint64_t g; /* sum of loss of the best known way here */
  uint64_t h; /* sum of distances to the goals */
  uint32_t parent;
  uint32_t lhead, ltail; /* the queue of low-level nodes */
  uint32_t link;         /* first of the links (LaCAM* only) */
} lc_node;

/* A low-level node: the constraint "agent who goes to cell where" added to
** its parent's constraints; depth = number of constraints. */
typedef struct lc_lnode {
  uint32_t parent, who, where, depth, next;
} lc_lnode;

typedef struct lc_link {
  uint32_t to, next, cost;
} lc_link;

typedef struct lacam {
  mapf_ctx *c;
  const astar_mapf_problem *p;
  uint32_t n;
  bool star;
  mapf_pibt pb;
  mapf_rng rng;
  lc_node *node;
  uint32_t nodes, node_cap;
  uint32_t *cfg; /* node_cap x n */
  float *pri;    /* node_cap x n */
  lc_lnode *ln;
  uint32_t ln_n, ln_cap;
  lc_link *lk;
  uint32_t lks, lk_cap;
  uint32_t *table; /* node numbers or MAPF_NONE; size mask + 1 */
  uint32_t mask;
  uint32_t *open; /* the stack: top at the end */
  size_t open_n, open_cap;
  uint32_t *queue;
  size_t queue_cap;
  uint32_t *to;         /* n: the successor being made */
  uint32_t *order;      /* n: the order of order_of */
  mapf_order_key *keys; /* n */
  uint32_t order_of;
  uint32_t goal_node; /* the goal configuration's node, or MAPF_NONE */
  uint64_t best;      /* SOC of the solution in c->out; UINT64_MAX: none */
  uint64_t work;
  mapf_lns lns; /* LaCAM* only */
  mapf_scatter scatter;
  astar_status st;
} lacam;

/* ---- stores --------------------------------------------------------------------------- */

/* Make room for `need` elements of `size` bytes in slot `slot`, doubling. */
static void *grow(lacam *l, unsigned slot, void *ptr, uint32_t *cap, size_t size, size_t need) {
  if (need <= *cap && ptr) return ptr;
  size_t nc = *cap ? *cap : 64;
  while (nc < need) nc *= 2;
  if (nc > UINT32_MAX) {
    l->st = ASTAR_LIMIT_REACHED;
    return NULL;
  }
  astar_status st = ASTAR_OK;
  void *q = mapf_scratch(l->c, slot, nc * size, &st);
  if (!q) {
    l->st = st;
    return NULL;
  }
  *cap = (uint32_t)nc;
  return q;
}

static uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

static uint64_t config_hash(const uint32_t *q, uint32_t n) {
  uint64_t h = 0;
  for (uint32_t i = 0; i < n; i++) h += mix(((uint64_t)i << 32) ^ q[i] ^ 0x9E3779B97F4A7C15u);
  return h;
}

static uint32_t *cfg_of(const lacam *l, uint32_t v) {
  return l->cfg + (size_t)v * l->n;
}

static uint32_t table_find(const lacam *l, const uint32_t *q, uint64_t h) {
  for (uint32_t s = (uint32_t)h & l->mask;; s = (s + 1) & l->mask) {
    uint32_t v = l->table[s];
    if (v == MAPF_NONE) return MAPF_NONE;
    if (l->node[v].hash == h && memcmp(cfg_of(l, v), q, l->n * sizeof(uint32_t)) == 0) return v;
  }
}

static bool table_insert(lacam *l, uint32_t v) {
  if ((uint64_t)(l->nodes + 1) * 2 > (uint64_t)l->mask + 1) {
    if (l->mask >= 0x7FFFFFFFu) { /* 2^31 slots: the most a uint32_t mask allows */
      l->st = ASTAR_LIMIT_REACHED;
      return false;
    }
    uint32_t size = (l->mask + 1) * 2;
    astar_status st = ASTAR_OK;
    uint32_t *t = mapf_scratch(l->c, SLOT_TABLE, (size_t)size * sizeof(uint32_t), &st);
    if (!t) {
      l->st = st;
      return false;
    }
    l->table = t;
    l->mask = size - 1;
    for (uint32_t s = 0; s < size; s++) t[s] = MAPF_NONE;
    for (uint32_t u = 0; u < l->nodes; u++) {
      if (u == v) continue;
      uint32_t s = (uint32_t)l->node[u].hash & l->mask;
      while (t[s] != MAPF_NONE) s = (s + 1) & l->mask;
      t[s] = u;
    }
  }
  uint32_t s = (uint32_t)l->node[v].hash & l->mask;
  while (l->table[s] != MAPF_NONE) s = (s + 1) & l->mask;
  l->table[s] = v;
  return true;
}

/* Appends v to a growing uint32_t array in scratch slot `slot` (*n used of
** *cap; 64 at least once it grows). False on a scratch failure (l->st). */
static bool put_u32(lacam *l, unsigned slot, uint32_t **arr, size_t *cap, size_t *n, uint32_t v) {
  if (*n == *cap) {
    size_t nc = *cap < 64 ? 64 : *cap * 2;
    astar_status st = ASTAR_OK;
    uint32_t *a = mapf_scratch(l->c, slot, nc * sizeof(uint32_t), &st);
    if (!a) {
      l->st = st;
      return false;
    }
    *arr = a;
    *cap = nc;
  }
  (*arr)[(*n)++] = v;
  return true;
}

static bool push_open(lacam *l, uint32_t v) {
  return put_u32(l, SLOT_OPEN, &l->open, &l->open_cap, &l->open_n, v);
}

static uint32_t new_lnode(lacam *l, uint32_t parent, uint32_t who, uint32_t where, uint32_t depth) {
  lc_lnode *ln = grow(l, SLOT_LNODE, l->ln, &l->ln_cap, sizeof(lc_lnode), (size_t)l->ln_n + 1);
  if (!ln) return MAPF_NONE;
  l->ln = ln;
  uint32_t k = l->ln_n++;
  ln[k].parent = parent;
  ln[k].who = who;
  ln[k].where = where;
  ln[k].depth = depth;
  ln[k].next = MAPF_NONE;
  return k;
}

static void enqueue_lnode(lacam *l, uint32_t v, uint32_t k) {
  lc_node *h = &l->node[v];
  if (h->ltail == MAPF_NONE)
    h->lhead = k;
  else
    l->ln[h->ltail].next = k;
  h->ltail = k;
}

static uint32_t edge_cost(const lacam *l, const uint32_t *a, const uint32_t *b) {
  uint32_t cost = 0;
  const uint32_t *goal = l->p->goal;
  for (uint32_t i = 0; i < l->n; i++) cost += !(a[i] == goal[i] && b[i] == goal[i]);
  return cost;
}

/* Links u -> v (once). */
static bool add_link(lacam *l, uint32_t u, uint32_t v, uint32_t cost) {
  for (uint32_t k = l->node[u].link; k != MAPF_NONE; k = l->lk[k].next)
    if (l->lk[k].to == v) return true;
  lc_link *lk = grow(l, SLOT_LINK, l->lk, &l->lk_cap, sizeof(lc_link), (size_t)l->lks + 1);
  if (!lk) return false;
  l->lk = lk;
  uint32_t k = l->lks++;
  lk[k].to = v;
  lk[k].cost = cost;
  lk[k].next = l->node[u].link;
  l->node[u].link = k;
  return true;
}

/* A node for the configuration in l->to, reached from `parent` (MAPF_NONE:
** the start). Returns its number or MAPF_NONE (l->st set). */
static uint32_t new_node(lacam *l, uint32_t parent, uint64_t hash) {
  const uint32_t n = l->n;
  size_t need = (size_t)l->nodes + 1;
  lc_node *nd = grow(l, SLOT_NODE, l->node, &l->node_cap, sizeof(lc_node), need);
  if (!nd) return MAPF_NONE;
  l->node = nd;
  /* cfg and pri are sized by node_cap too: grow them to the same count. */
  uint32_t cap = l->node_cap;
  astar_status st = ASTAR_OK;
  uint32_t *cf = mapf_scratch(l->c, SLOT_CFG, (size_t)cap * n * sizeof(uint32_t), &st);
  float *pr = cf ? mapf_scratch(l->c, SLOT_PRI, (size_t)cap * n * sizeof(float), &st) : NULL;
  if (!pr) {
    l->st = st;
    return MAPF_NONE;
  }
  l->cfg = cf;
  l->pri = pr;
  uint32_t v = l->nodes;
  uint32_t *q = cfg_of(l, v);
  memcpy(q, l->to, n * sizeof(uint32_t));
  float *pv = l->pri + (size_t)v * n;
  uint64_t hsum = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t d = mapf_dist_get(l->c, i, q[i], &st);
    if (st != ASTAR_OK) {
      l->st = st;
      return MAPF_NONE;
    }
    hsum += d;
    if (parent == MAPF_NONE) {
      /* Farther agents first at the start, ties at random. */
      pv[i] = (float)(((double)d + (double)mapf_rng_unit(&l->rng)) / ((double)l->p->cells + 1.0));
    } else {
      float pp = l->pri[(size_t)parent * n + i];
      pv[i] = d != 0 ? pp + 1.0f : pp - (float)(uint32_t)pp;
    }
  }
  lc_node *h = &l->node[v];
  h->hash = hash;
  h->h = hsum;
  h->parent = parent;
  h->g = 0;
  h->link = MAPF_NONE;
  h->lhead = h->ltail = MAPF_NONE;
  l->nodes++;
  if (parent != MAPF_NONE) {
    uint32_t cost = edge_cost(l, cfg_of(l, parent), q);
    h->g = l->node[parent].g + cost;
    if (l->star && (!add_link(l, parent, v, cost) || !add_link(l, v, parent, cost)))
      return MAPF_NONE;
  }
  uint32_t root = new_lnode(l, MAPF_NONE, 0, 0, 0);
  if (root == MAPF_NONE || !table_insert(l, v)) return MAPF_NONE;
  enqueue_lnode(l, v, root);
  return v;
}

/* The order of node v's agents, highest priority first (cached for the
** last node asked: the depth-first search asks about the same node often). */
static const uint32_t *order_of(lacam *l, uint32_t v) {
  if (l->order_of == v) return l->order;
  const uint32_t n = l->n;
  const float *pv = l->pri + (size_t)v * n;
  mapf_order_key *k = l->keys;
  for (uint32_t i = 0; i < n; i++) {
    k[i].pri = pv[i];
    k[i].agent = i;
  }
  mapf_sort_order(k, n);
  for (uint32_t i = 0; i < n; i++) l->order[i] = k[i].agent;
  l->order_of = v;
  return l->order;
}

/* The next low-level node of v (its children queued), or MAPF_NONE. */
static uint32_t next_lnode(lacam *l, uint32_t v) {
  uint32_t k = l->node[v].lhead;
  if (k == MAPF_NONE) return MAPF_NONE;
  l->node[v].lhead = l->ln[k].next;
  if (l->node[v].lhead == MAPF_NONE) l->node[v].ltail = MAPF_NONE;
  uint32_t depth = l->ln[k].depth;
  if (depth < l->n) {
    uint32_t i = order_of(l, v)[depth];
    uint32_t here = cfg_of(l, v)[i];
    uint32_t cand[5];
    unsigned m = l->pb.g.deg[here];
    memcpy(cand, l->pb.g.nb + 4 * (size_t)here, m * sizeof(uint32_t));
    cand[m++] = here;
    for (unsigned a = m - 1; a > 0; a--) {
      unsigned b = (uint32_t)mapf_rng_below(&l->rng, a + 1);
      uint32_t t = cand[a];
      cand[a] = cand[b];
      cand[b] = t;
    }
    for (unsigned a = 0; a < m; a++) {
      uint32_t c = new_lnode(l, k, i, cand[a], depth + 1);
      if (c == MAPF_NONE) return MAPF_NONE;
      enqueue_lnode(l, v, c);
    }
  }
  return k;
}

/* ---- solutions -------------------------------------------------------------------------- */

/* SOC of a configuration sequence: per agent, the step after its last
** move off the goal. */
static uint64_t seq_soc(const lacam *l, const uint32_t *const *rows, uint32_t steps) {
  uint64_t soc = 0;
  for (uint32_t i = 0; i < l->n; i++) {
    uint32_t t = steps;
    while (t > 0 && rows[t - 1][i] == l->p->goal[i]) t--;
    soc += t;
  }
  return soc;
}

/* The configurations of a node sequence (seq[0 .. steps]) as rows, in the
** path slot; returns the rows or NULL (l->st). */
static const uint32_t **rows_of(lacam *l, const uint32_t *seq, uint32_t steps) {
  astar_status st = ASTAR_OK;
  const uint32_t **rows = mapf_scratch(
      l->c, SLOT_PATH, ((size_t)steps + 1) * (sizeof(uint32_t *) + sizeof(astar_point)), &st);
  if (!rows) {
    l->st = st;
    return NULL;
  }
  for (uint32_t t = 0; t <= steps; t++) rows[t] = cfg_of(l, seq[t]);
  return rows;
}

/* Offer the node sequence seq[0 .. steps] as a solution: kept (written to
** the output and reported) when its SOC beats the best. */
static void offer(lacam *l, const uint32_t *seq, uint32_t steps) {
  const uint32_t **rows = rows_of(l, seq, steps);
  if (!rows) return;
  uint64_t soc = seq_soc(l, rows, steps);
  if (soc >= l->best) return;
  astar_status st = mapf_write_paths(l->c, rows, steps, (astar_point *)(void *)(rows + steps + 1));
  if (st != ASTAR_OK) {
    l->st = st;
    return;
  }
  l->best = soc;
  mapf_report_solution(l->c);
  if (l->star && !mapf_lns_load(&l->lns, rows, steps)) l->st = l->lns.st;
}

/* One group of the refiner; a better solution goes to the output. */
static void refine(lacam *l) {
  l->lns.work_base = l->work + l->pb.work;
  int r = mapf_lns_step(&l->lns);
  if (r < 0) {
    l->st = l->lns.st;
    return;
  }
  if (r == 0 || l->lns.soc >= l->best) return;
  astar_status st = ASTAR_OK;
  astar_point *buf =
      mapf_scratch(l->c, SLOT_LNS_BUF, ((size_t)l->lns.horizon + 1) * sizeof(astar_point), &st);
  if (buf) st = mapf_lns_write(&l->lns, buf);
  if (st != ASTAR_OK) {
    l->st = st;
    return;
  }
  l->best = l->lns.soc;
  mapf_report_solution(l->c);
}

/* Offer the way to the goal node along the parents. */
static void offer_goal(lacam *l) {
  uint32_t steps = 0;
  for (uint32_t v = l->goal_node; l->node[v].parent != MAPF_NONE; v = l->node[v].parent) steps++;
  astar_status st = ASTAR_OK;
  uint32_t *seq = mapf_scratch(l->c, SLOT_QUEUE, ((size_t)steps + 1) * sizeof(uint32_t), &st);
  if (!seq) {
    l->st = st;
    return;
  }
  l->queue = seq;
  if (l->queue_cap < (size_t)steps + 1) l->queue_cap = (size_t)steps + 1;
  uint32_t t = steps;
  for (uint32_t v = l->goal_node;; v = l->node[v].parent) {
    seq[t] = v;
    if (t-- == 0) break;
  }
  offer(l, seq, steps);
}

/* ---- LaCAM*: lowering g through the links -------------------------------------------- */

static bool queue_put(lacam *l, size_t *tail, uint32_t v) {
  return put_u32(l, SLOT_QUEUE, &l->queue, &l->queue_cap, tail, v);
}

/* u has just been seen next to v: link them and spread the cheaper g from
** u (label-correcting; edge costs are positive except goal to goal). */
static bool rewrite(lacam *l, uint32_t u, uint32_t v) {
  if (u == v) return true;
  uint32_t cost = edge_cost(l, cfg_of(l, u), cfg_of(l, v));
  if (!add_link(l, u, v, cost) || !add_link(l, v, u, cost)) return false;
  bool goal_lowered = false;
  /* A plain FIFO array: a node enters it once per drop of its g. */
  size_t head = 0, tail = 0;
  if (!queue_put(l, &tail, u)) return false;
  while (head < tail) {
    uint32_t a = l->queue[head++];
    for (uint32_t k = l->node[a].link; k != MAPF_NONE; k = l->lk[k].next) {
      uint32_t b = l->lk[k].to;
      uint64_t g = l->node[a].g + l->lk[k].cost;
      if (g >= l->node[b].g) continue;
      l->node[b].g = g;
      l->node[b].parent = a;
      if (b == l->goal_node) goal_lowered = true;
      if (l->goal_node != MAPF_NONE && g + l->node[b].h < l->best && !push_open(l, b)) return false;
      if (!queue_put(l, &tail, b)) return false;
    }
  }
  if (goal_lowered) offer_goal(l);
  return l->st == ASTAR_OK;
}

/* ---- the exact last search ------------------------------------------------------------- */

typedef struct x_state {
  uint64_t done; /* agents arrived for good (they never move again) */
  uint64_t dist;
  uint32_t node, parent;
} x_state;

typedef struct x_heap_item {
  uint64_t dist;
  uint32_t state;
} x_heap_item;

typedef struct x_search {
  lacam *l;
  x_state *s;
  uint32_t states, cap;
  uint32_t *table;
  uint32_t mask;
  x_heap_item *heap;
  uint32_t heap_n, heap_cap;
} x_search;

static uint64_t x_hash(uint32_t node, uint64_t done) {
  return mix(((uint64_t)node << 32) ^ mix(done));
}

/* The state (node, done): found, or made with `dist` and `parent`. Returns
** its number, or MAPF_NONE when out of room (l->st set or the cap hit). */
static uint32_t x_get(x_search *x, uint32_t node, uint64_t done, bool *fresh) {
  uint64_t h = x_hash(node, done);
  uint32_t s = (uint32_t)h & x->mask;
  for (; x->table[s] != MAPF_NONE; s = (s + 1) & x->mask) {
    const x_state *e = &x->s[x->table[s]];
    if (e->node == node && e->done == done) {
      *fresh = false;
      return x->table[s];
    }
  }
  if (x->states >= EXACT_MAX_STATES) return MAPF_NONE;
  if ((uint64_t)(x->states + 1) * 2 > (uint64_t)x->mask + 1) {
    /* Twice the table, every state placed again, then look for the slot. */
    size_t size = ((size_t)x->mask + 1) * 2;
    astar_status st = ASTAR_OK;
    uint32_t *t = mapf_scratch(x->l->c, SLOT_X_TABLE, size * sizeof(uint32_t), &st);
    if (!t) {
      x->l->st = st;
      return MAPF_NONE;
    }
    x->table = t;
    x->mask = (uint32_t)(size - 1);
    for (size_t e = 0; e < size; e++) t[e] = MAPF_NONE;
    for (uint32_t k = 0; k < x->states; k++) {
      uint32_t e = (uint32_t)x_hash(x->s[k].node, x->s[k].done) & x->mask;
      while (t[e] != MAPF_NONE) e = (e + 1) & x->mask;
      t[e] = k;
    }
    s = (uint32_t)h & x->mask;
    while (t[s] != MAPF_NONE) s = (s + 1) & x->mask;
  }
  x_state *st = grow(x->l, SLOT_X_STATE, x->s, &x->cap, sizeof(x_state), (size_t)x->states + 1);
  if (!st) return MAPF_NONE;
  x->s = st;
  uint32_t k = x->states++;
  st[k].node = node;
  st[k].done = done;
  st[k].dist = UINT64_MAX;
  st[k].parent = MAPF_NONE;
  x->table[s] = k;
  *fresh = true;
  return k;
}

static bool x_push(x_search *x, uint32_t state, uint64_t dist) {
  x_heap_item *hp =
      grow(x->l, SLOT_X_HEAP, x->heap, &x->heap_cap, sizeof(x_heap_item), (size_t)x->heap_n + 1);
  if (!hp) return false;
  x->heap = hp;
  uint32_t i = x->heap_n++;
  while (i > 0 && hp[(i - 1) / 2].dist > dist) {
    hp[i] = hp[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  hp[i].dist = dist;
  hp[i].state = state;
  return true;
}

static x_heap_item x_pop(x_search *x) {
  x_heap_item *hp = x->heap, top = hp[0], last = hp[--x->heap_n];
  uint32_t i = 0, n = x->heap_n;
  for (;;) {
    uint32_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && hp[c + 1].dist < hp[c].dist) c++;
    if (hp[c].dist >= last.dist) break;
    hp[i] = hp[c];
    i = c;
  }
  if (n > 0) hp[i] = last;
  return top;
}

static bool x_relax(x_search *x, uint32_t from, uint32_t node, uint64_t done, uint64_t dist) {
  bool fresh;
  uint32_t k = x_get(x, node, done, &fresh);
  if (k == MAPF_NONE) return false;
  if (dist >= x->s[k].dist) return true;
  x->s[k].dist = dist;
  x->s[k].parent = from;
  return x_push(x, k, dist);
}

/* Dijkstra over (node, done) in the explored graph: moving along a link
** costs the agents not done (done agents must stay), making an agent at its
** goal done costs nothing. Returns true when it ran to the end (the best
** solution is then optimal; a better one found is offered). */
static bool exact_search(lacam *l) {
  const uint32_t n = l->n;
  if (n > EXACT_MAX_AGENTS || l->goal_node == MAPF_NONE) return false;
  const uint64_t all = n == 64 ? UINT64_MAX : (((uint64_t)1 << n) - 1);
  x_search x;
  memset(&x, 0, sizeof x);
  x.l = l;
  uint32_t size = 1u << 12;
  astar_status st = ASTAR_OK;
  x.table = mapf_scratch(l->c, SLOT_X_TABLE, (size_t)size * sizeof(uint32_t), &st);
  if (!x.table) {
    l->st = st;
    return false;
  }
  x.mask = size - 1;
  for (uint32_t s = 0; s < size; s++) x.table[s] = MAPF_NONE;
  if (!x_relax(&x, MAPF_NONE, 0, 0, 0)) return false;
  const uint32_t *goal = l->p->goal;
  while (x.heap_n > 0) {
    x_heap_item it = x_pop(&x);
    x_state cur = x.s[it.state];
    if (it.dist > cur.dist) continue;
    l->work++;
    if (mapf_out_of_limits(l->c, l->work)) return false;
    if (cur.node == l->goal_node && cur.done == all) {
      /* The node sequence, start first (commit steps keep the node). */
      uint32_t steps = 0;
      for (uint32_t k = it.state; x.s[k].parent != MAPF_NONE; k = x.s[k].parent)
        if (x.s[x.s[k].parent].node != x.s[k].node) steps++;
      uint32_t *seq = mapf_scratch(l->c, SLOT_QUEUE, ((size_t)steps + 1) * sizeof(uint32_t), &st);
      if (!seq) {
        l->st = st;
        return false;
      }
      l->queue = seq;
      if (l->queue_cap < (size_t)steps + 1) l->queue_cap = (size_t)steps + 1;
      uint32_t t = steps;
      seq[t] = x.s[it.state].node;
      for (uint32_t k = it.state; x.s[k].parent != MAPF_NONE; k = x.s[k].parent)
        if (x.s[x.s[k].parent].node != x.s[k].node) seq[--t] = x.s[x.s[k].parent].node;
      offer(l, seq, steps);
      return l->st == ASTAR_OK;
    }
    const uint32_t *q = cfg_of(l, cur.node);
    uint64_t moving = 0;
    for (uint32_t i = 0; i < n; i++) {
      if (cur.done >> i & 1) continue;
      moving++;
      if (q[i] == goal[i] && !x_relax(&x, it.state, cur.node, cur.done | (uint64_t)1 << i, it.dist))
        return false;
    }
    for (uint32_t k = l->node[cur.node].link; k != MAPF_NONE; k = l->lk[k].next) {
      uint32_t b = l->lk[k].to;
      const uint32_t *r = cfg_of(l, b);
      bool ok = true;
      for (uint32_t i = 0; i < n && ok; i++) ok = !(cur.done >> i & 1) || r[i] == q[i];
      if (ok && !x_relax(&x, it.state, b, cur.done, it.dist + moving)) return false;
    }
  }
  return false; /* not reached: (goal, all done) is always reachable */
}

/* ---- the search ------------------------------------------------------------------------ */

static bool setup(lacam *l, mapf_ctx *c) {
  const uint32_t n = c->p->n;
  astar_status st = mapf_pibt_init(&l->pb, c, SLOT_GRAPH, c->o->seed ^ 0x6C6163616D2A2Au);
  if (st != ASTAR_OK) {
    l->st = st;
    return false;
  }
  unsigned char *w =
      mapf_scratch(c, SLOT_WORK, (size_t)n * (2 * sizeof(uint32_t) + sizeof(mapf_order_key)), &st);
  uint32_t *t = mapf_scratch(c, SLOT_TABLE, 1024 * sizeof(uint32_t), &st);
  uint32_t *o = t ? mapf_scratch(c, SLOT_OPEN, 1024 * sizeof(uint32_t), &st) : NULL;
  if (!w || !o) {
    l->st = st;
    return false;
  }
  l->keys = (mapf_order_key *)(void *)w;
  l->to = (uint32_t *)(void *)(w + (size_t)n * sizeof(mapf_order_key));
  l->order = l->to + n;
  l->table = t;
  l->mask = 1023;
  for (uint32_t s = 0; s < 1024; s++) t[s] = MAPF_NONE;
  l->open = o;
  l->open_cap = 1024;
  return true;
}

/* Calls the limits once per 64 agent decisions made since the last call
** (at least once): a high-level step of many agents is many units. */
static bool out_of_limits(lacam *l, uint64_t *last) {
  uint64_t work = l->work + l->pb.work + l->lns.work;
  uint64_t units = (l->pb.work - *last) / 64 + 1;
  *last = l->pb.work;
  for (uint64_t u = 0; u < units; u++)
    if (mapf_out_of_limits(l->c, work)) return true;
  return false;
}

astar_status mapf_lacam_solve(mapf_ctx *c) {
  const astar_mapf_problem *p = c->p;
  const uint32_t n = p->n;
  lacam l;
  memset(&l, 0, sizeof l);
  l.c = c;
  l.p = p;
  l.n = n;
  l.star = c->o->algo == ASTAR_MAPF_LACAM_STAR;
  mapf_rng_seed(&l.rng, c->o->seed);
  l.goal_node = MAPF_NONE;
  l.order_of = MAPF_NONE;
  l.best = UINT64_MAX;
  l.st = ASTAR_OK;
  astar_status st = ASTAR_OK;
  for (uint32_t i = 0; i < n; i++) {
    if (mapf_dist_get(c, i, p->start[i], &st) == MAPF_DIST_INF)
      return st != ASTAR_OK ? st : ASTAR_NO_PATH;
  }
  if (!setup(&l, c)) return l.st;
  if (n > 1) {
    st = mapf_scatter_build(&l.scatter, c, &l.pb.g, c->o->seed ^ 0x73636174746572u);
    if (st != ASTAR_OK) return st;
    l.pb.sc = &l.scatter;
    l.work += l.scatter.work;
  }
  if (l.star) {
    st = mapf_lns_init(&l.lns, c, &l.pb.g, c->o->seed ^ 0x726566696E65u);
    if (st != ASTAR_OK) return st;
  }
  memcpy(l.to, p->start, n * sizeof(uint32_t));
  uint32_t init = new_node(&l, MAPF_NONE, config_hash(l.to, n));
  if (init == MAPF_NONE || !push_open(&l, init)) return l.st;
  uint64_t last = 0;
  bool limited = false;
  while (l.open_n > 0) {
    l.work++;
    if (out_of_limits(&l, &last)) {
      limited = true;
      break;
    }
    /* LaCAM* after its first solution: the refiner gets as much work as
    ** the search (agent decisions against A* expansions). */
    if (l.star && l.goal_node != MAPF_NONE && l.lns.work <= l.pb.work &&
        l.best > c->stats->lower_bound) {
      refine(&l);
      if (l.st != ASTAR_OK) break;
      continue;
    }
    uint32_t h = l.open[l.open_n - 1];
    if (l.goal_node != MAPF_NONE && mapf_rng_unit(&l.rng) < RANDOM_PICK_PROB)
      h = l.open[mapf_rng_below(&l.rng, (uint32_t)l.open_n)];
    if (l.goal_node != MAPF_NONE && l.node[h].g + l.node[h].h >= l.best) {
      /* Pruned: dropped when on top (a randomly picked one stays until it
      ** comes up). */
      if (l.open[l.open_n - 1] == h) l.open_n--;
      continue;
    }
    if (l.goal_node == MAPF_NONE && l.node[h].h == 0) {
      l.goal_node = h;
      offer_goal(&l);
      if (l.st != ASTAR_OK) break;
      if (!l.star) break;
      continue;
    }
    uint32_t k = next_lnode(&l, h);
    if (l.st != ASTAR_OK) break;
    if (k == MAPF_NONE) {
      if (l.open[l.open_n - 1] == h) l.open_n--;
      continue;
    }
    /* The constraints of k, then PIBT for the others. */
    for (uint32_t i = 0; i < n; i++) l.to[i] = MAPF_NONE;
    for (uint32_t a = k; l.ln[a].depth > 0; a = l.ln[a].parent) l.to[l.ln[a].who] = l.ln[a].where;
    const uint32_t *order = order_of(&l, h);
    if (!mapf_pibt_step(&l.pb, cfg_of(&l, h), l.to, order, true)) {
      if (l.pb.st != ASTAR_OK) {
        l.st = l.pb.st;
        break;
      }
      continue;
    }
    uint64_t hash = config_hash(l.to, n);
    uint32_t known = table_find(&l, l.to, hash);
    if (known != MAPF_NONE) {
      if (l.star && !rewrite(&l, h, known)) break;
      uint32_t next = mapf_rng_unit(&l.rng) < RESTART_PROB ? init : known;
      if (!push_open(&l, next)) break;
    } else {
      uint32_t v = new_node(&l, h, hash);
      if (v == MAPF_NONE || !push_open(&l, v)) break;
    }
  }
  c->stats->high_level = l.nodes;
  c->stats->low_level = l.pb.work;
  c->stats->bound = (double)c->stats->lower_bound;
  if (l.st != ASTAR_OK) /* out of memory or over max_memory: keep a solution found */
    return l.best != UINT64_MAX ? ASTAR_OK : l.st;
  if (l.best == UINT64_MAX) return limited ? ASTAR_LIMIT_REACHED : ASTAR_NO_PATH;
  if (l.star && !limited && l.open_n == 0) {
    /* Exhausted: the best is optimal if no cheaper way is hidden behind
    ** the loss's blind spot (agents leaving their goals); the exact search
    ** settles that. */
    bool exact = l.best <= l.node[l.goal_node].g || exact_search(&l);
    c->stats->optimal = exact;
    if (exact) c->stats->bound = (double)l.best;
  }
  if (c->stats->lower_bound == l.best) c->stats->optimal = true;
  return ASTAR_OK;
}
