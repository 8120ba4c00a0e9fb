/*
** mapf/pibt.c -- PIBT, priority inheritance with backtracking (Okumura,
** Machida, Defago, Tamura, AIJ 2022): one step for all agents at a time.
**
** An agent, in priority order, takes the free neighbour (or its own cell)
** nearest its goal; when that cell is occupied by an agent that has not
** moved yet, the latter inherits the priority and must move away first; if
** it cannot, the first agent backtracks to its next candidate. The swap
** technique of LaCAM* (Okumura, IJCAI 2023) lets two agents in a corridor
** exchange places over several steps, which plain PIBT cannot: when the
** best cell is held by an agent that must get past this one, the agent
** backs off (tries its candidates in reverse order) and pulls the other
** into its cell.
**
** As a solver (mapf_pibt_solve): priorities are the time since the agent
** last reached its goal, with a seeded random tie-break in [0, 1); steps
** repeat until every agent is at its goal at once.
*/
#include "pibt.h"

#include <string.h>

/* Scratch slots of the PIBT solver (lacam.c uses its own after these). */
enum { SLOT_GRAPH = 0, SLOT_OCC, SLOT_SOLVE_CFG, SLOT_SOLVE_PRI, SLOT_SOLVE_PATH };
#define PIBT_SLOT_BASE 8u
/* Longest priority-inheritance chain followed (x ~150 bytes of stack). */
#define MAX_CHAIN 8192u

static uint32_t dist(mapf_pibt *pb, uint32_t agent, uint32_t cell) {
  astar_status st = ASTAR_OK;
  uint32_t d = mapf_dist_get(pb->c, agent, cell, &st);
  if (st != ASTAR_OK) pb->st = st;
  return d;
}

astar_status mapf_pibt_init(mapf_pibt *pb, mapf_ctx *c, unsigned slot, uint64_t seed) {
  const astar_mapf_problem *p = c->p;
  astar_status st = ASTAR_OK;
  memset(pb, 0, sizeof *pb);
  pb->c = c;
  pb->n = p->n;
  pb->goal = p->goal;
  mapf_rng_seed(&pb->rng, seed);
  pb->swap = true;
  pb->st = ASTAR_OK;
  size_t cells = p->cells;
  unsigned char *g = mapf_scratch(c, slot, cells * (4 * sizeof(uint32_t) + 1), &st);
  if (!g) return st;
  pb->g.nb = (uint32_t *)(void *)g;
  pb->g.deg = g + cells * 4 * sizeof(uint32_t);
  for (uint32_t v = 0; v < p->cells; v++) {
    uint8_t k = 0;
    if (p->passable[v])
      for (unsigned d = 0; d < 4; d++) {
        uint32_t u = mapf_neighbour(p, v, d);
        if (u != UINT32_MAX) pb->g.nb[4 * v + k++] = u;
      }
    pb->g.deg[v] = k;
  }
  uint32_t *occ = mapf_scratch(c, slot + 1, cells * 2 * sizeof(uint32_t), &st);
  if (!occ) return st;
  for (size_t i = 0; i < 2 * cells; i++) occ[i] = MAPF_NONE;
  pb->occ_now = occ;
  pb->occ_next = occ + cells;
  return ASTAR_OK;
}

/* ---- the swap technique ----------------------------------------------------------- */

/* The neighbours of v that an agent pushed along a corridor could use:
** not `back` (where it comes from) and not a dead end where an agent sits
** at its own goal. Returns their number; *one is one of them. */
static unsigned open_ways(const mapf_pibt *pb, uint32_t v, uint32_t back, uint32_t *one) {
  unsigned ways = 0;
  for (unsigned k = 0; k < pb->g.deg[v]; k++) {
    uint32_t u = pb->g.nb[4 * v + k];
    if (u == back) continue;
    uint32_t a = pb->occ_now[u];
    if (pb->g.deg[u] == 1 && a != MAPF_NONE && pb->goal[a] == u) continue;
    ways++;
    *one = u;
  }
  return ways;
}

/* Must `pusher` (at vp) and `puller` (at vq, next to it) exchange places to
** make progress? Follow the corridor the pusher is heading into while it
** gets nearer its goal: if it widens (two ways on) they can pass each other
** there -- no swap needed; if it is a dead end, the swap is needed when it
** helps both. */
static bool swap_required(mapf_pibt *pb, uint32_t pusher, uint32_t puller, uint32_t vp,
                          uint32_t vq) {
  uint32_t guard = pb->c->p->cells;
  while (guard-- > 0 && dist(pb, pusher, vq) < dist(pb, pusher, vp)) {
    uint32_t next = MAPF_NONE;
    unsigned ways = open_ways(pb, vq, vp, &next);
    if (ways >= 2) return false;
    if (ways == 0) break;
    vp = vq;
    vq = next;
  }
  uint32_t dpp = dist(pb, pusher, vp), dpq = dist(pb, pusher, vq);
  return dist(pb, puller, vp) < dist(pb, puller, vq) && (dpp == 0 || dpq < dpp);
}

/* Can the pair exchange places: pulling from vq back through vp, is there
** a branching cell where one can step aside before a dead end? */
static bool swap_possible(mapf_pibt *pb, uint32_t vp, uint32_t vq) {
  const uint32_t origin = vp;
  uint32_t guard = pb->c->p->cells;
  while (vq != origin && guard-- > 0) {
    uint32_t next = MAPF_NONE;
    unsigned ways = open_ways(pb, vq, vp, &next);
    if (ways >= 2) return true;
    if (ways == 0) return false;
    vp = vq;
    vq = next;
  }
  return false;
}

/* The agent to pull into i's cell if a swap is wanted, or MAPF_NONE.
** best: i's most wanted cell. */
static uint32_t swap_partner(mapf_pibt *pb, uint32_t i, uint32_t best) {
  const uint32_t *from = pb->from;
  uint32_t here = from[i];
  uint32_t j = pb->occ_now[best];
  if (j != MAPF_NONE && j != i && pb->to[j] == MAPF_NONE && swap_required(pb, i, j, here, best) &&
      swap_possible(pb, best, here))
    return j;
  /* Clearing the way (as in push and swap): an agent beside i that i's move
  ** to `best` would leave stuck behind it. */
  if (best != here)
    for (unsigned k = 0; k < pb->g.deg[here]; k++) {
      uint32_t a = pb->occ_now[pb->g.nb[4 * here + k]];
      if (a != MAPF_NONE && from[a] != best && swap_required(pb, a, i, here, best) &&
          swap_possible(pb, best, here))
        return a;
    }
  return MAPF_NONE;
}

/* ---- one agent ---------------------------------------------------------------------- */

static bool plan_agent(mapf_pibt *pb, uint32_t i) {
  const uint32_t *from = pb->from;
  uint32_t *to = pb->to;
  uint32_t here = from[i];
  uint32_t cand[5] = {0, 0, 0, 0, 0};
  double key[5] = {0, 0, 0, 0, 0};
  unsigned k = pb->g.deg[here], m = 0;
  pb->work++;
  /* Candidates: the neighbours and the cell itself, nearest the goal first,
  ** ties broken at random (insertion sort of at most five). */
  for (unsigned e = 0; e <= k; e++) {
    uint32_t v = e < k ? pb->g.nb[4 * here + e] : here;
    double kv = (double)dist(pb, i, v) + (double)mapf_rng_unit(&pb->rng);
    unsigned s = m++;
    while (s > 0 && key[s - 1] > kv) {
      key[s] = key[s - 1];
      cand[s] = cand[s - 1];
      s--;
    }
    key[s] = kv;
    cand[s] = v;
  }
  if (pb->sc) {
    /* The scatter path's next cell first, the others keep their order. */
    uint32_t want = mapf_scatter_next(pb->sc, i, here);
    for (unsigned e = 1; e < m && want != MAPF_NONE; e++)
      if (cand[e] == want) {
        for (; e > 0; e--) cand[e] = cand[e - 1];
        cand[0] = want;
        break;
      }
  }
  uint32_t partner = MAPF_NONE;
  if (pb->swap) {
    partner = swap_partner(pb, i, cand[0]);
    if (partner != MAPF_NONE)
      for (unsigned a = 0, b = m - 1; a < b; a++, b--) {
        uint32_t t = cand[a];
        cand[a] = cand[b];
        cand[b] = t;
      }
  }
  for (unsigned e = 0; e < m; e++) {
    uint32_t u = cand[e];
    if (pb->occ_next[u] != MAPF_NONE) continue; /* vertex conflict */
    uint32_t j = pb->occ_now[u];
    if (j != MAPF_NONE && to[j] == here) continue; /* swap conflict */
    pb->occ_next[u] = i;
    to[i] = u;
    /* Priority inheritance: the agent in the way must move first. A chain
    ** deeper than MAX_CHAIN is treated as a failure (backtrack), which
    ** bounds the recursion's stack whatever the number of agents. */
    if (j != MAPF_NONE && u != here && to[j] == MAPF_NONE) {
      bool moved = false;
      if (pb->depth < MAX_CHAIN) {
        pb->depth++;
        moved = plan_agent(pb, j);
        pb->depth--;
      }
      if (!moved) {
        if (pb->depth >= MAX_CHAIN) {
          /* j was not planned: take back the reservation of u. */
          pb->occ_next[u] = MAPF_NONE;
          to[i] = MAPF_NONE;
        }
        continue;
      }
    }
    if (partner != MAPF_NONE && e == 0 && to[partner] == MAPF_NONE &&
        pb->occ_next[here] == MAPF_NONE) {
      pb->occ_next[here] = partner; /* pull the partner into i's cell */
      to[partner] = here;
    }
    return true;
  }
  /* No cell: stay (whoever reserved this cell will try its next one). */
  pb->occ_next[here] = i;
  to[i] = here;
  return false;
}

bool mapf_pibt_step(mapf_pibt *pb, const uint32_t *from, uint32_t *to, const uint32_t *order,
                    bool fail_top) {
  const uint32_t n = pb->n;
  bool ok = true;
  pb->from = from;
  pb->to = to;
  for (uint32_t i = 0; i < n; i++) pb->occ_now[from[i]] = i;
  for (uint32_t i = 0; i < n && ok; i++) {
    uint32_t v = to[i];
    if (v == MAPF_NONE) continue;
    if (pb->occ_next[v] != MAPF_NONE) {
      ok = false; /* two constraints on one cell */
      break;
    }
    uint32_t j = pb->occ_now[v];
    if (j != MAPF_NONE && j != i && to[j] == from[i]) {
      ok = false; /* two constraints swapping */
      break;
    }
    pb->occ_next[v] = i;
  }
  if (ok)
    for (uint32_t r = 0; r < n; r++) {
      uint32_t i = order[r];
      if (to[i] != MAPF_NONE) continue;
      if (!plan_agent(pb, i) && fail_top) {
        ok = false;
        break;
      }
      if (pb->st != ASTAR_OK) {
        ok = false;
        break;
      }
    }
  for (uint32_t i = 0; i < n; i++) {
    pb->occ_now[from[i]] = MAPF_NONE;
    if (to[i] != MAPF_NONE) pb->occ_next[to[i]] = MAPF_NONE;
  }
  return ok && pb->st == ASTAR_OK;
}

/* ---- the solver ----------------------------------------------------------------------- */

astar_status mapf_write_paths(mapf_ctx *c, const uint32_t *const *cfg, uint32_t steps,
                              astar_point *buf) {
  const astar_mapf_problem *p = c->p;
  const uint32_t w = (uint32_t)p->w;
  for (uint32_t i = 0; i < p->n; i++) {
    uint32_t arrive = steps;
    while (arrive > 0 && cfg[arrive - 1][i] == p->goal[i]) arrive--;
    for (uint32_t t = 0; t <= arrive; t++) {
      uint32_t v = cfg[t][i];
      buf[t].x = (int32_t)(v % w);
      buf[t].y = (int32_t)(v / w);
    }
    astar_status st = astar_mapf_solution_set_path(c->out, i, buf, (size_t)arrive + 1);
    if (st != ASTAR_OK) return st;
  }
  return ASTAR_OK;
}

/* Highest priority first; equal priorities (only possible after the
** fractions collide) by agent number, so the order is total. */
void mapf_sort_order(mapf_order_key *k, uint32_t n) {
  /* Shell sort: no allocation, n log^2 n, and the order barely changes
  ** between steps. */
  static const uint32_t gaps[] = {1750, 701, 301, 132, 57, 23, 10, 4, 1};
  for (unsigned gi = 0; gi < sizeof gaps / sizeof gaps[0]; gi++) {
    uint32_t gap = gaps[gi];
    for (uint32_t i = gap; i < n; i++) {
      mapf_order_key t = k[i];
      uint32_t j = i;
      while (j >= gap &&
             (k[j - gap].pri < t.pri || (k[j - gap].pri == t.pri && k[j - gap].agent > t.agent))) {
        k[j] = k[j - gap];
        j -= gap;
      }
      k[j] = t;
    }
  }
}

astar_status mapf_pibt_solve(mapf_ctx *c) {
  const astar_mapf_problem *p = c->p;
  const uint32_t n = p->n;
  astar_status st = ASTAR_OK;
  mapf_pibt pb;
  for (uint32_t i = 0; i < n; i++) {
    if (mapf_dist_get(c, i, p->start[i], &st) == MAPF_DIST_INF)
      return st != ASTAR_OK ? st : ASTAR_NO_PATH;
  }
  st = mapf_pibt_init(&pb, c, PIBT_SLOT_BASE + SLOT_GRAPH, c->o->seed);
  if (st != ASTAR_OK) return st;
  uint32_t max_steps = c->o->max_steps;
  if (max_steps == 0) {
    uint64_t a = (uint64_t)p->w + (uint64_t)p->h + n;
    max_steps = (uint32_t)(a < 1024 ? 1024 : a > 1u << 24 ? 1u << 24 : a);
  }
  /* Priorities and the order, then the configurations step after step (the
  ** configuration store grows by doubling). */
  mapf_order_key *keys = mapf_scratch(c, PIBT_SLOT_BASE + SLOT_SOLVE_PRI,
                                      (size_t)n * (sizeof(mapf_order_key) + sizeof(uint32_t)), &st);
  if (!keys) return st;
  uint32_t *order = (uint32_t *)(keys + n);
  for (uint32_t i = 0; i < n; i++) {
    keys[i].agent = i;
    keys[i].pri = mapf_rng_unit(&pb.rng);
  }
  size_t cap = 64;
  uint32_t *cfg = mapf_scratch(c, PIBT_SLOT_BASE + SLOT_SOLVE_CFG, cap * n * sizeof(uint32_t), &st);
  if (!cfg) return st;
  memcpy(cfg, p->start, n * sizeof(uint32_t));
  uint32_t t = 0;
  bool done = true;
  for (uint32_t i = 0; i < n; i++) done = done && p->start[i] == p->goal[i];
  while (!done) {
    if (t >= max_steps || mapf_out_of_limits(c, pb.work)) {
      c->stats->low_level = pb.work;
      c->stats->high_level = t;
      return ASTAR_LIMIT_REACHED;
    }
    if ((size_t)t + 2 > cap) {
      cap *= 2;
      cfg = mapf_scratch(c, PIBT_SLOT_BASE + SLOT_SOLVE_CFG, cap * n * sizeof(uint32_t), &st);
      if (!cfg) return st;
    }
    /* Elapsed-since-goal priorities: +1 a step away from the goal, back to
    ** the tie-break fraction at it. */
    const uint32_t *now = cfg + (size_t)t * n;
    uint32_t *next = cfg + (size_t)(t + 1) * n;
    for (uint32_t r = 0; r < n; r++) {
      uint32_t i = keys[r].agent;
      keys[r].pri =
          now[i] == p->goal[i] ? keys[r].pri - (float)(uint32_t)keys[r].pri : keys[r].pri + 1.0f;
    }
    mapf_sort_order(keys, n);
    for (uint32_t r = 0; r < n; r++) {
      order[r] = keys[r].agent;
      next[r] = MAPF_NONE;
    }
    mapf_pibt_step(&pb, now, next, order, false);
    if (pb.st != ASTAR_OK) return pb.st;
    t++;
    done = true;
    for (uint32_t i = 0; i < n && done; i++) done = next[i] == p->goal[i];
  }
  c->stats->low_level = pb.work;
  c->stats->high_level = t;
  /* The paths: one pointer a step, then the points of one agent. */
  const uint32_t **rows =
      mapf_scratch(c, PIBT_SLOT_BASE + SLOT_SOLVE_PATH,
                   ((size_t)t + 1) * (sizeof(uint32_t *) + sizeof(astar_point)), &st);
  if (!rows) return st;
  astar_point *buf = (astar_point *)(void *)(rows + t + 1);
  for (uint32_t s = 0; s <= t; s++) rows[s] = cfg + (size_t)s * n;
  st = mapf_write_paths(c, rows, t, buf);
  if (st != ASTAR_OK) return st;
  c->stats->bound = (double)c->stats->lower_bound;
  c->stats->optimal = c->stats->lower_bound == astar_mapf_solution_sum_of_costs(c->out);
  mapf_report_solution(c);
  return ASTAR_OK;
}
