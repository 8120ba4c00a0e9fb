/*
** solution.c -- N timed paths (astar/mapf.h) and their costs. Each agent
** owns a block that grows geometrically and is kept by clear(), so a
** solver writing the same solution again allocates nothing.
*/
#include "mapf/mapf.h"
#include "core/internal.h"

#include <string.h>

#define MAPF__PATH_MAX ((size_t)1 << 28) /* longest path accepted */

typedef struct mapf_path {
  astar_point *cells;
  uint32_t len, cap;
} mapf_path;

struct astar_mapf_solution {
  astar_allocator alloc;
  size_t n;
  mapf_path *paths;
};

astar_status astar_mapf_solution_new(astar_mapf_solution **out, size_t agents,
                                     const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (agents == 0 || agents > ASTAR_MAPF_MAX_AGENTS) return ASTAR_INVALID_ARGUMENT;
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_mapf_solution *s = astar__calloc(&a, 1, sizeof *s);
  if (!s) return ASTAR_NO_MEMORY;
  s->alloc = a;
  s->paths = astar__calloc(&a, agents, sizeof *s->paths);
  if (!s->paths) {
    astar__free(&a, s, sizeof *s);
    return ASTAR_NO_MEMORY;
  }
  s->n = agents;
  *out = s;
  return ASTAR_OK;
}

void astar_mapf_solution_free(astar_mapf_solution *s) {
  if (!s) return;
  for (size_t i = 0; i < s->n; i++)
    astar__free(&s->alloc, s->paths[i].cells, (size_t)s->paths[i].cap * sizeof(astar_point));
  astar__free(&s->alloc, s->paths, s->n * sizeof *s->paths);
  astar__free(&s->alloc, s, sizeof *s);
}

size_t astar_mapf_solution_agents(const astar_mapf_solution *s) {
  return s ? s->n : 0;
}

void astar_mapf_solution_clear(astar_mapf_solution *s) {
  if (!s) return;
  for (size_t i = 0; i < s->n; i++) s->paths[i].len = 0;
}

astar_status astar_mapf_solution_set_path(astar_mapf_solution *s, size_t agent,
                                          const astar_point *path, size_t len) {
  if (!s || agent >= s->n || (len > 0 && !path) || len > MAPF__PATH_MAX)
    return ASTAR_INVALID_ARGUMENT;
  mapf_path *p = &s->paths[agent];
  if (len > p->cap) {
    size_t cap = (size_t)p->cap + p->cap / 2;
    if (cap < len) cap = len;
    if (cap < 16) cap = 16;
    if (cap > MAPF__PATH_MAX) cap = MAPF__PATH_MAX;
    astar_point *cells = s->alloc.fn(s->alloc.ud, p->cells, (size_t)p->cap * sizeof(astar_point),
                                     cap * sizeof(astar_point));
    if (!cells) return ASTAR_NO_MEMORY;
    p->cells = cells;
    p->cap = (uint32_t)cap;
  }
  if (len > 0) memmove(p->cells, path, len * sizeof(astar_point));
  p->len = (uint32_t)len;
  return ASTAR_OK;
}

const astar_point *astar_mapf_solution_path(const astar_mapf_solution *s, size_t agent,
                                            size_t *len) {
  if (!s || agent >= s->n || s->paths[agent].len == 0) {
    if (len) *len = 0;
    return NULL;
  }
  if (len) *len = s->paths[agent].len;
  return s->paths[agent].cells;
}

uint32_t astar_mapf_solution_cost(const astar_mapf_solution *s, size_t agent) {
  if (!s || agent >= s->n || s->paths[agent].len == 0) return 0;
  const mapf_path *p = &s->paths[agent];
  const astar_point last = p->cells[p->len - 1];
  uint32_t t = p->len - 1;
  while (t > 0 && p->cells[t - 1].x == last.x && p->cells[t - 1].y == last.y) t--;
  return t;
}

uint64_t astar_mapf_solution_sum_of_costs(const astar_mapf_solution *s) {
  uint64_t sum = 0;
  for (size_t i = 0; s && i < s->n; i++) sum += astar_mapf_solution_cost(s, i);
  return sum;
}

uint32_t astar_mapf_solution_makespan(const astar_mapf_solution *s) {
  uint32_t most = 0;
  for (size_t i = 0; s && i < s->n; i++) {
    const uint32_t c = astar_mapf_solution_cost(s, i);
    if (c > most) most = c;
  }
  return most;
}
