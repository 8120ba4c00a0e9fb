/*
** check.c -- the MAPF validator (astar_mapf_check), independent of the
** solvers: it reads the problem and the paths only, and shares no code
** with the search side (not even mapf_neighbour).
**
** One sweep over time, t = 0 .. the longest path's end. At step t the
** agents whose paths still run ("active", kept in index order) are placed
** in a per-cell table occ[]: 0 free, agent + 1 occupied at t, with
** MAPF__HELD set when an agent's path has ended there (it holds that cell
** for ever). An active agent finding an occupied cell is a vertex
** conflict, a held one a goal conflict; a second pass over the movers
** finds swaps (the agent now in my previous cell came from my cell). At
** the end of a step without faults the active cells are freed again --
** or held, for the agents whose paths end at t -- so the work is
** O(total path length + agents) and the table 4 bytes a cell.
**
** Order of faults: the smallest time; then the smallest report.agent;
** then the kind's enum order. The count and empty paths come first.
*/
#include "mapf/mapf.h"
#include "core/internal.h"

#define MAPF__HELD 0x80000000u

const char *astar_mapf_fault_name(astar_mapf_fault fault) {
  switch (fault) {
  case ASTAR_MAPF_VALID:
    return "valid";
  case ASTAR_MAPF_AGENT_COUNT:
    return "wrong number of agents";
  case ASTAR_MAPF_EMPTY_PATH:
    return "empty path";
  case ASTAR_MAPF_WRONG_START:
    return "wrong start";
  case ASTAR_MAPF_WRONG_GOAL:
    return "wrong goal";
  case ASTAR_MAPF_OFF_MAP:
    return "cell off the map or blocked";
  case ASTAR_MAPF_ILLEGAL_MOVE:
    return "illegal move";
  case ASTAR_MAPF_VERTEX_CONFLICT:
    return "vertex conflict";
  case ASTAR_MAPF_SWAP_CONFLICT:
    return "swap conflict";
  case ASTAR_MAPF_GOAL_CONFLICT:
    return "goal conflict";
  case ASTAR_MAPF_FAULT_COUNT:
    break;
  }
  return "unknown fault";
}

/* The best fault of the current step so far. */
typedef struct fault_pick {
  astar_mapf_fault fault;
  uint32_t agent, other;
  astar_point cell;
} fault_pick;

static void consider(fault_pick *f, astar_mapf_fault kind, uint32_t agent, uint32_t other,
                     astar_point cell) {
  if (f->fault != ASTAR_MAPF_VALID && (f->agent < agent || (f->agent == agent && f->fault <= kind)))
    return;
  f->fault = kind;
  f->agent = agent;
  f->other = other;
  f->cell = cell;
}

static bool same(astar_point a, astar_point b) {
  return a.x == b.x && a.y == b.y;
}

astar_status astar_mapf_check(const astar_mapf_problem *p, const astar_mapf_solution *s,
                              astar_mapf_report *report, const astar_allocator *alloc) {
  if (!p || !s || !report) return ASTAR_INVALID_ARGUMENT;
  astar_mapf_report r = {ASTAR_MAPF_VALID, UINT32_MAX, UINT32_MAX, 0, {-1, -1}, 0, 0};
  r.sum_of_costs = astar_mapf_solution_sum_of_costs(s);
  r.makespan = astar_mapf_solution_makespan(s);
  if (astar_mapf_solution_agents(s) != p->n) {
    r.fault = ASTAR_MAPF_AGENT_COUNT;
    *report = r;
    return ASTAR_OK;
  }
  size_t longest = 0;
  for (uint32_t i = 0; i < p->n; i++) {
    size_t len;
    astar_mapf_solution_path(s, i, &len);
    if (len == 0) {
      r.fault = ASTAR_MAPF_EMPTY_PATH;
      r.agent = i;
      *report = r;
      return ASTAR_OK;
    }
    if (len > longest) longest = len;
  }

  astar_allocator a;
  astar__alloc_init(&a, alloc);
  uint32_t *occ = astar__calloc(&a, p->cells, sizeof(uint32_t));
  uint32_t *active = astar__malloc(&a, (size_t)p->n * sizeof(uint32_t));
  uint32_t *cell = astar__malloc(&a, (size_t)p->n * sizeof(uint32_t)); /* at t; UINT32_MAX off */
  if (!occ || !active || !cell) {
    astar__free(&a, occ, (size_t)p->cells * sizeof(uint32_t));
    astar__free(&a, active, (size_t)p->n * sizeof(uint32_t));
    astar__free(&a, cell, (size_t)p->n * sizeof(uint32_t));
    return ASTAR_NO_MEMORY;
  }
  size_t nactive = p->n;
  for (uint32_t i = 0; i < p->n; i++) active[i] = i;
  const int32_t w = p->w;

  for (size_t t = 0; t < longest && r.fault == ASTAR_MAPF_VALID; t++) {
    fault_pick f = {ASTAR_MAPF_VALID, UINT32_MAX, UINT32_MAX, {-1, -1}};
    /* pass 1: each active agent's own cell, then the table */
    for (size_t k = 0; k < nactive; k++) {
      const uint32_t b = active[k];
      size_t len;
      const astar_point *path = astar_mapf_solution_path(s, b, &len);
      const astar_point v = path[t];
      cell[b] = UINT32_MAX;
      if (t == 0) {
        const uint32_t st = p->start[b];
        if (!same(v, (astar_point){(int32_t)(st % (uint32_t)w), (int32_t)(st / (uint32_t)w)}))
          consider(&f, ASTAR_MAPF_WRONG_START, b, UINT32_MAX, v);
      }
      if (t + 1 == len) {
        const uint32_t g = p->goal[b];
        if (!same(v, (astar_point){(int32_t)(g % (uint32_t)w), (int32_t)(g / (uint32_t)w)}))
          consider(&f, ASTAR_MAPF_WRONG_GOAL, b, UINT32_MAX, v);
      }
      if (v.x < 0 || v.y < 0 || v.x >= w || v.y >= p->h ||
          !p->passable[(size_t)v.y * (size_t)w + (size_t)v.x]) {
        consider(&f, ASTAR_MAPF_OFF_MAP, b, UINT32_MAX, v);
        continue;
      }
      if (t > 0) {
        const astar_point u = path[t - 1];
        const int64_t dx = (int64_t)v.x - u.x, dy = (int64_t)v.y - u.y;
        if ((dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy) > 1)
          consider(&f, ASTAR_MAPF_ILLEGAL_MOVE, b, UINT32_MAX, v);
      }
      const uint32_t c = (uint32_t)v.y * (uint32_t)w + (uint32_t)v.x;
      const uint32_t o = occ[c];
      if (o & MAPF__HELD) {
        consider(&f, ASTAR_MAPF_GOAL_CONFLICT, b, (o & ~MAPF__HELD) - 1, v);
      } else if (o) {
        consider(&f, ASTAR_MAPF_VERTEX_CONFLICT, o - 1, b, v); /* o - 1 < b: placed first */
      } else {
        occ[c] = b + 1;
        cell[b] = c;
      }
    }
    /* pass 2: swaps. The agent now in my previous cell came from mine. */
    if (t > 0) {
      for (size_t k = 0; k < nactive; k++) {
        const uint32_t b = active[k];
        if (cell[b] == UINT32_MAX) continue;
        const astar_point *path = astar_mapf_solution_path(s, b, NULL);
        const astar_point u = path[t - 1], v = path[t];
        if (same(u, v) || u.x < 0 || u.y < 0 || u.x >= w || u.y >= p->h) continue;
        const uint32_t o = occ[(size_t)u.y * (size_t)w + (size_t)u.x];
        if (o == 0 || (o & MAPF__HELD) || o - 1 == b) continue;
        const uint32_t a2 = o - 1;
        const astar_point *other = astar_mapf_solution_path(s, a2, NULL);
        if (same(other[t - 1], v)) {
          consider(&f, ASTAR_MAPF_SWAP_CONFLICT, a2 < b ? a2 : b, a2 < b ? b : a2, a2 < b ? u : v);
        }
      }
    }
    if (f.fault != ASTAR_MAPF_VALID) {
      r.fault = f.fault;
      r.agent = f.agent;
      r.other = f.other;
      r.cell = f.cell;
      r.time = (uint32_t)t;
      break;
    }
    /* the step is clean: free the active cells, hold the ended agents' */
    size_t keep = 0;
    for (size_t k = 0; k < nactive; k++) {
      const uint32_t b = active[k];
      size_t len;
      astar_mapf_solution_path(s, b, &len);
      if (t + 1 == len) {
        occ[cell[b]] = (b + 1) | MAPF__HELD;
      } else {
        occ[cell[b]] = 0;
        active[keep++] = b;
      }
    }
    nactive = keep;
  }
  astar__free(&a, occ, (size_t)p->cells * sizeof(uint32_t));
  astar__free(&a, active, (size_t)p->n * sizeof(uint32_t));
  astar__free(&a, cell, (size_t)p->n * sizeof(uint32_t));
  *report = r;
  return ASTAR_OK;
}
