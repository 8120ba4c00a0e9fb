/*
** problem.c -- the MAPF instance (astar/mapf.h): a copy of the grid's
** passable cells and the agents' starts and goals as cell numbers, and
** the lower bound (one breadth-first search per agent).
*/
#include "mapf/mapf.h"
#include "core/internal.h"

#include <string.h>

/* Bits of the problem's cell bytes while it is being built: whether some
** earlier agent starts / ends there (duplicate detection without scratch);
** cleared before astar_mapf_problem_new returns, leaving 0 or 1. */
#define MAPF__START_SEEN 2u
#define MAPF__GOAL_SEEN 4u

void astar_mapf_problem_free(astar_mapf_problem *p) {
  if (!p) return;
  astar_allocator a = p->alloc;
  astar__free(&a, p->passable, p->cells);
  astar__free(&a, p->start, (size_t)p->n * sizeof(uint32_t));
  astar__free(&a, p->goal, (size_t)p->n * sizeof(uint32_t));
  astar__free(&a, p, sizeof *p);
}

/* The fault of agent i's point `pt` (start or goal), or ASTAR_OK. */
static astar_status point_fault(const astar_mapf_problem *p, astar_point pt, astar_status blocked) {
  if (pt.x < 0 || pt.y < 0 || pt.x >= p->w || pt.y >= p->h) return ASTAR_OUT_OF_BOUNDS;
  if (!(p->passable[(size_t)pt.y * (size_t)p->w + (size_t)pt.x] & 1u)) return blocked;
  return ASTAR_OK;
}

astar_status astar_mapf_problem_new(astar_mapf_problem **out, const astar_grid *grid,
                                    const astar_point *starts, const astar_point *goals, size_t n,
                                    size_t *bad, const astar_allocator *alloc) {
  if (bad) *bad = SIZE_MAX;
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid || !starts || !goals || n == 0 || n > ASTAR_MAPF_MAX_AGENTS)
    return ASTAR_INVALID_ARGUMENT;
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_mapf_problem *p = astar__calloc(&a, 1, sizeof *p);
  if (!p) return ASTAR_NO_MEMORY;
  p->alloc = a;
  p->w = astar_grid_width(grid);
  p->h = astar_grid_height(grid);
  p->cells = (uint32_t)p->w * (uint32_t)p->h; /* <= ASTAR_GRID_MAX_CELLS */
  p->n = (uint32_t)n;
  p->passable = astar__malloc(&a, p->cells);
  p->start = astar__malloc(&a, n * sizeof(uint32_t));
  p->goal = astar__malloc(&a, n * sizeof(uint32_t));
  if (!p->passable || !p->start || !p->goal) {
    astar_mapf_problem_free(p);
    return ASTAR_NO_MEMORY;
  }
  p->memory = sizeof *p + p->cells + 2 * n * sizeof(uint32_t);
  for (int32_t y = 0; y < p->h; y++)
    for (int32_t x = 0; x < p->w; x++)
      p->passable[(size_t)y * (size_t)p->w + (size_t)x] = astar_grid_passable(grid, x, y) ? 1 : 0;

  astar_status st = ASTAR_OK;
  size_t i = 0;
  for (; i < n; i++) {
    if ((st = point_fault(p, starts[i], ASTAR_START_BLOCKED)) != ASTAR_OK) break;
    if ((st = point_fault(p, goals[i], ASTAR_GOAL_BLOCKED)) != ASTAR_OK) break;
    const uint32_t s = (uint32_t)starts[i].y * (uint32_t)p->w + (uint32_t)starts[i].x;
    const uint32_t g = (uint32_t)goals[i].y * (uint32_t)p->w + (uint32_t)goals[i].x;
    if ((p->passable[s] & MAPF__START_SEEN) || (p->passable[g] & MAPF__GOAL_SEEN)) {
      st = ASTAR_INVALID_ARGUMENT;
      break;
    }
    p->passable[s] |= MAPF__START_SEEN;
    p->passable[g] |= MAPF__GOAL_SEEN;
    p->start[i] = s;
    p->goal[i] = g;
  }
  for (size_t j = 0; j < i; j++) { /* the marks of agents 0 .. i-1 */
    p->passable[p->start[j]] &= 1u;
    p->passable[p->goal[j]] &= 1u;
  }
  if (st != ASTAR_OK) {
    if (bad) *bad = i;
    astar_mapf_problem_free(p);
    return st;
  }
  *out = p;
  return ASTAR_OK;
}

size_t astar_mapf_problem_agents(const astar_mapf_problem *p) {
  return p ? p->n : 0;
}
int32_t astar_mapf_problem_width(const astar_mapf_problem *p) {
  return p ? p->w : 0;
}
int32_t astar_mapf_problem_height(const astar_mapf_problem *p) {
  return p ? p->h : 0;
}

static astar_point cell_point(const astar_mapf_problem *p, uint32_t c) {
  return (astar_point){(int32_t)(c % (uint32_t)p->w), (int32_t)(c / (uint32_t)p->w)};
}

astar_point astar_mapf_problem_start(const astar_mapf_problem *p, size_t i) {
  if (!p || i >= p->n) return (astar_point){-1, -1};
  return cell_point(p, p->start[i]);
}

astar_point astar_mapf_problem_goal(const astar_mapf_problem *p, size_t i) {
  if (!p || i >= p->n) return (astar_point){-1, -1};
  return cell_point(p, p->goal[i]);
}

bool astar_mapf_problem_passable(const astar_mapf_problem *p, int32_t x, int32_t y) {
  if (!p || x < 0 || y < 0 || x >= p->w || y >= p->h) return false;
  return p->passable[(size_t)y * (size_t)p->w + (size_t)x] != 0;
}

size_t astar_mapf_problem_memory(const astar_mapf_problem *p) {
  return p ? p->memory : 0;
}

uint32_t mapf_neighbour(const astar_mapf_problem *p, uint32_t cell, unsigned d) {
  const uint32_t w = (uint32_t)p->w;
  const uint32_t x = cell % w;
  uint32_t v;
  switch (d) {
  case 0: /* N */
    if (cell < w) return UINT32_MAX;
    v = cell - w;
    break;
  case 1: /* E */
    if (x + 1 >= w) return UINT32_MAX;
    v = cell + 1;
    break;
  case 2: /* S */
    v = cell + w;
    if (v >= p->cells) return UINT32_MAX;
    break;
  case 3: /* W */
    if (x == 0) return UINT32_MAX;
    v = cell - 1;
    break;
  default:
    return UINT32_MAX;
  }
  return p->passable[v] ? v : UINT32_MAX;
}

/* Breadth-first search from `from`, stopped when `to` is reached: its
** distance, or MAPF_DIST_INF. seen[] is all zero on entry and on return
** (the cells marked are exactly those queued). */
static uint32_t bfs_distance(const astar_mapf_problem *p, uint32_t from, uint32_t to, uint8_t *seen,
                             uint32_t *queue) {
  if (from == to) return 0;
  size_t head = 0, tail = 0, level_end = 1;
  uint32_t level = 0, found = MAPF_DIST_INF;
  queue[tail++] = from;
  seen[from] = 1;
  while (head < tail && found == MAPF_DIST_INF) {
    if (head == level_end) {
      level++;
      level_end = tail;
    }
    const uint32_t u = queue[head++];
    for (unsigned d = 0; d < 4; d++) {
      const uint32_t v = mapf_neighbour(p, u, d);
      if (v == UINT32_MAX || seen[v]) continue;
      if (v == to) {
        found = level + 1;
        break;
      }
      seen[v] = 1;
      queue[tail++] = v;
    }
  }
  for (size_t k = 0; k < tail; k++) seen[queue[k]] = 0;
  return found;
}

astar_status astar_mapf_lower_bound(const astar_mapf_problem *p, uint64_t *out, size_t *agent,
                                    const astar_allocator *alloc) {
  if (agent) *agent = SIZE_MAX;
  if (!p || !out) return ASTAR_INVALID_ARGUMENT;
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  uint8_t *seen = astar__calloc(&a, p->cells, 1);
  uint32_t *queue = astar__malloc(&a, (size_t)p->cells * sizeof(uint32_t));
  if (!seen || !queue) {
    astar__free(&a, seen, p->cells);
    astar__free(&a, queue, (size_t)p->cells * sizeof(uint32_t));
    return ASTAR_NO_MEMORY;
  }
  uint64_t sum = 0;
  astar_status st = ASTAR_OK;
  for (uint32_t i = 0; i < p->n; i++) {
    const uint32_t d = bfs_distance(p, p->start[i], p->goal[i], seen, queue);
    if (d == MAPF_DIST_INF) {
      if (agent) *agent = i;
      st = ASTAR_NO_PATH;
      break;
    }
    sum += d;
  }
  astar__free(&a, seen, p->cells);
  astar__free(&a, queue, (size_t)p->cells * sizeof(uint32_t));
  if (st == ASTAR_OK) *out = sum;
  return st;
}
