/*
** mapf_ref.h -- a brute-force optimal MAPF solver for tiny instances (2-4
** agents on maps of up to about 25 passable cells), header-only, for the
** tests: the known answer the optimal and bounded solvers are compared with.
**
**   long long mapf_ref_optimal_soc(const astar_mapf_problem *p);
**
** returns the least sum of costs of p (astar/mapf.h's model), -1 when p has
** no solution, -2 when it is too big for this search (more than
** MAPF_REF_MAX_AGENTS agents or MAPF_REF_MAX_STATES joint states) or memory
** ran out. It reads the problem through the public accessors only and
** shares no code with the library's solvers.
**
** The search: Dijkstra over joint states = every agent's cell plus a
** "finished" flag per agent. A finished agent sits at its goal for ever
** (it never moves again and blocks its cell); an agent may finish only at
** its goal, at time 0 or at the end of a step. A step moves every
** unfinished agent to a 4-neighbour or keeps it in place, and costs the
** number of agents unfinished at its start -- so an agent finishing at the
** end of step T (at its goal from T on) has paid T, its MAPF cost. Vertex
** conflicts (two agents, finished or not, in one cell) and swap conflicts
** (two agents exchanging cells) are forbidden. The search ends when every
** agent is finished; the first such state popped has the least SOC.
*/
#ifndef ASTAR_TEST_MAPF_REF_H
#define ASTAR_TEST_MAPF_REF_H

#include <astar/mapf.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAPF_REF_MAX_AGENTS 4
#define MAPF_REF_MAX_STATES (1u << 24)

typedef struct mapf_ref__heap {
  uint64_t *v; /* (g << 32) | state */
  size_t n, cap;
} mapf_ref__heap;

static int mapf_ref__push(mapf_ref__heap *h, uint64_t x) {
  if (h->n == h->cap) {
    const size_t cap = h->cap ? h->cap * 2 : 1024;
    uint64_t *v = (uint64_t *)realloc(h->v, cap * sizeof *v);
    if (!v) return 0;
    h->v = v;
    h->cap = cap;
  }
  size_t i = h->n++;
  while (i > 0 && h->v[(i - 1) / 2] > x) {
    h->v[i] = h->v[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h->v[i] = x;
  return 1;
}

static uint64_t mapf_ref__pop(mapf_ref__heap *h) {
  const uint64_t top = h->v[0], x = h->v[--h->n];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= h->n) break;
    if (c + 1 < h->n && h->v[c + 1] < h->v[c]) c++;
    if (h->v[c] >= x) break;
    h->v[i] = h->v[c];
    i = c;
  }
  if (h->n) h->v[i] = x;
  return top;
}

typedef struct mapf_ref__ctx {
  int k;          /* agents */
  uint32_t m;     /* passable cells, numbered 0 .. m-1 */
  int nb[32 * 5]; /* nb[c * 5 + a]: cell after action a (0 wait, 1-4 moves), -1 none */
  int goal[MAPF_REF_MAX_AGENTS];
  uint32_t *dist; /* per state; UINT32_MAX unseen */
  mapf_ref__heap heap;
  int ok;
} mapf_ref__ctx;

static uint32_t mapf_ref__encode(const mapf_ref__ctx *c, const int *pos, unsigned fin) {
  uint32_t s = fin;
  for (int i = c->k - 1; i >= 0; i--) s = s * c->m + (uint32_t)pos[i];
  return s;
}

static void mapf_ref__decode(const mapf_ref__ctx *c, uint32_t s, int *pos, unsigned *fin) {
  for (int i = 0; i < c->k; i++) {
    pos[i] = (int)(s % c->m);
    s /= c->m;
  }
  *fin = s;
}

static void mapf_ref__relax(mapf_ref__ctx *c, const int *pos, unsigned fin, uint32_t g) {
  /* every subset of the unfinished agents standing on their goals may finish */
  unsigned can = 0;
  for (int i = 0; i < c->k; i++)
    if (!(fin >> i & 1u) && pos[i] == c->goal[i]) can |= 1u << i;
  unsigned sub = can;
  for (;;) {
    const uint32_t s = mapf_ref__encode(c, pos, fin | sub);
    if (g < c->dist[s]) {
      c->dist[s] = g;
      if (!mapf_ref__push(&c->heap, ((uint64_t)g << 32) | s)) c->ok = 0;
    }
    if (sub == 0) break;
    sub = (sub - 1) & can;
  }
}

/* Agents from `i` on choose their actions; then the joint move is checked. */
static void mapf_ref__expand(mapf_ref__ctx *c, const int *from, unsigned fin, int *to, int i,
                             uint32_t g) {
  if (i == c->k) {
    for (int a = 0; a < c->k; a++)
      for (int b = a + 1; b < c->k; b++) {
        if (to[a] == to[b]) return;                                             /* vertex */
        if (to[a] == from[b] && to[b] == from[a] && from[a] != from[b]) return; /* swap */
      }
    mapf_ref__relax(c, to, fin, g);
    return;
  }
  if (fin >> i & 1u) {
    to[i] = from[i];
    mapf_ref__expand(c, from, fin, to, i + 1, g);
    return;
  }
  for (int a = 0; a < 5; a++) {
    const int v = c->nb[from[i] * 5 + a];
    if (v < 0) continue;
    to[i] = v;
    mapf_ref__expand(c, from, fin, to, i + 1, g);
  }
}

static long long mapf_ref_optimal_soc(const astar_mapf_problem *p) {
  mapf_ref__ctx c;
  memset(&c, 0, sizeof c);
  c.k = (int)astar_mapf_problem_agents(p);
  if (c.k < 1 || c.k > MAPF_REF_MAX_AGENTS) return -2;
  const int32_t w = astar_mapf_problem_width(p), h = astar_mapf_problem_height(p);
  int id[1024];
  if ((long)w * h > 1024) return -2;
  c.m = 0;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      id[y * w + x] = astar_mapf_problem_passable(p, x, y) ? (int)c.m++ : -1;
      if (c.m > 32) return -2;
    }
  static const int dx[5] = {0, 0, 1, 0, -1}, dy[5] = {0, -1, 0, 1, 0};
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      const int u = id[y * w + x];
      if (u < 0) continue;
      for (int a = 0; a < 5; a++) {
        const int32_t nx = x + dx[a], ny = y + dy[a];
        c.nb[u * 5 + a] = (nx >= 0 && ny >= 0 && nx < w && ny < h) ? id[ny * w + nx] : -1;
      }
    }
  if (c.m == 0) return -2;
  uint64_t states = 1u << c.k;
  for (int i = 0; i < c.k; i++) states *= c.m;
  if (states > MAPF_REF_MAX_STATES) return -2;
  c.dist = (uint32_t *)malloc((size_t)states * sizeof(uint32_t));
  if (!c.dist) return -2;
  memset(c.dist, 0xff, (size_t)states * sizeof(uint32_t));
  c.ok = 1;
  int pos[MAPF_REF_MAX_AGENTS], to[MAPF_REF_MAX_AGENTS];
  for (int i = 0; i < c.k; i++) {
    const astar_point s = astar_mapf_problem_start(p, (size_t)i);
    const astar_point g = astar_mapf_problem_goal(p, (size_t)i);
    pos[i] = id[s.y * w + s.x];
    c.goal[i] = id[g.y * w + g.x];
  }
  mapf_ref__relax(&c, pos, 0, 0);
  const unsigned all = (1u << c.k) - 1;
  long long best = -1;
  while (c.ok && c.heap.n > 0) {
    const uint64_t top = mapf_ref__pop(&c.heap);
    const uint32_t g = (uint32_t)(top >> 32), s = (uint32_t)top;
    if (g > c.dist[s]) continue; /* stale entry */
    unsigned fin;
    mapf_ref__decode(&c, s, pos, &fin);
    if (fin == all) {
      best = g;
      break;
    }
    unsigned unfinished = 0;
    for (int i = 0; i < c.k; i++) unfinished += !(fin >> i & 1u);
    mapf_ref__expand(&c, pos, fin, to, 0, g + unfinished);
  }
  free(c.dist);
  free(c.heap.v);
  return c.ok ? best : -2;
}

#endif /* ASTAR_TEST_MAPF_REF_H */
