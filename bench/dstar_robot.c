/*
** dstar_robot.c -- the classic D* Lite benchmark: a robot crosses a Moving
** AI map it does not know. It starts knowing nothing (astar/knowledge.h;
** unknown cells assumed passable), sees the true cells within a sensor
** radius R at every step, walks one cell a step along its current plan and
** replans when what it sees blocks that plan. Three robots per query:
**   D* Lite   one planner (astar/dstar.h) per query on the robot's
**             knowledge; every step the robot moves (astar_dstar_move,
**             along its path: the plan stays) and, when it saw new blocked
**             cells, reports them (astar_dstar_update_cells) and plans
**             (astar_dstar_plan, a repair) -- the paper's main loop;
**   A*        astar_find_path with options.knowledge from the robot's cell,
**             again whenever a newly seen blocked cell lies on the rest of
**             its path;
**   JPS       the same on a grid copy where the known-blocked cells are
**             blocked (JPS takes no knowledge; uniform costs, 8 moves, no
**             corner cutting: the Moving AI rules).
** Per map: the expansions summed over the queries (D* Lite: vertices made
** consistent; A*: cells expanded; JPS: jump points expanded), the planning
** time summed over the queries (median of 3 runs; sensing and walking are
** not timed; D* Lite's planner -- made once per map, then
** astar_dstar_restart for each query, O(cells) -- is), replans, and the
** ratios.
** Queries: `--queries N` (default 20) spread evenly over the longer half
** of the map's .scen queries (by optimal length).
**
** Build and run from the repository root, after the CMake build:
**   cc -O2 -Iinclude bench/dstar_robot.c build/libastar.a -lm -o build/dstar_robot
**   taskset -c 1 ./build/dstar_robot [--queries N] [--radius R] MAP [MAP...]
** (MAP.scen must sit next to MAP.)
*/
#define _POSIX_C_SOURCE 200809L
#include <astar/astar.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

enum { M_DSTAR = 0, M_ASTAR, M_JPS, NMETHODS };
static const char *const method_name[NMETHODS] = {"D* Lite", "A*", "JPS"};

typedef struct run_stats {
  uint64_t expanded; /* expansions summed over the queries */
  uint64_t replans;  /* searches (A*, JPS) or plans that expanded something (D* Lite) */
  double seconds;    /* planning time summed over the queries */
  double create;     /* of which D* Lite's planner creation / restart (O(cells) each) */
  double travelled;  /* cost of the walks summed (sanity: the robots all arrive) */
  uint64_t steps;    /* cells walked */
  int failed;        /* queries whose robot did not arrive */
} run_stats;

typedef struct world {
  const astar_grid *truth; /* the map */
  astar_grid *known;       /* JPS: the map as known (unknown cells passable) */
  astar_knowledge *k;      /* what the robot knows */
  astar_workspace *ws;     /* A* / JPS workspace */
  astar_point *path;       /* A* / JPS path buffer */
  size_t cap;              /* its capacity */
  uint32_t *stamp;         /* per cell: the plan number whose remaining path holds it */
  astar_dstar *planner;    /* D* Lite: made at the first query, restarted for the others */
  astar_point *seen;       /* newly blocked cells of one step */
  int32_t radius;          /* sensor radius */
} world;

/* Sense at `at`: reveal the disk; the cells that were unknown and are now
** known blocked go to w->seen (their number returned). */
static size_t sense(world *w, astar_point at) {
  const int32_t r = w->radius, W = astar_grid_width(w->truth), H = astar_grid_height(w->truth);
  size_t n = 0;
  for (int32_t y = at.y - r; y <= at.y + r; y++)
    for (int32_t x = at.x - r; x <= at.x + r; x++)
      if (x >= 0 && y >= 0 && x < W && y < H &&
          astar_knowledge_get(w->k, x, y) == ASTAR_CELL_UNKNOWN &&
          !astar_grid_passable(w->truth, x, y))
        w->seen[n++] = (astar_point){x, y};
  astar_knowledge_reveal_radius(w->k, w->truth, at.x, at.y, r, NULL);
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (astar_knowledge_get(w->k, w->seen[i].x, w->seen[i].y) == ASTAR_CELL_BLOCKED) {
      w->seen[m++] = w->seen[i];
      if (w->known) astar_grid_set_passable(w->known, w->seen[i].x, w->seen[i].y, false);
    }
  return m;
}

static double step_cost(astar_point a, astar_point b) {
  return (a.x != b.x && a.y != b.y) ? 1.4142135623730951 : 1.0;
}

/* One robot of method `m` from s to t; adds to *st. */
static void robot(world *w, int m, astar_point s, astar_point t, run_stats *st) {
  astar_knowledge_clear(w->k);
  const int32_t W = astar_grid_width(w->truth);
  if (m == M_JPS) astar_grid_fill(w->known, true);
  astar_point at = s;
  size_t nseen = sense(w, at);
  (void)nseen;
  const uint64_t limit =
      40u * (uint64_t)astar_grid_width(w->truth) * (uint64_t)astar_grid_height(w->truth);
  uint64_t steps = 0;
  double t0, travelled = 0.0;
  if (m == M_DSTAR) {
    astar_options o;
    astar_options_init(&o);
    o.knowledge = w->k;
    t0 = bench_now();
    if (!w->planner &&
        astar_dstar_new_grid(&w->planner, w->truth, &o, ASTAR_DSTAR_LITE, s, t, NULL) != ASTAR_OK) {
      fprintf(stderr, "planner: out of memory\n");
      exit(1);
    }
    astar_dstar *p = w->planner;
    astar_dstar_stats before;
    astar_dstar_stats_get(p, &before, NULL);
    astar_dstar_restart(p, w->truth, s, t);
    st->create += bench_now() - t0;
    astar_status ps = astar_dstar_plan(p, NULL);
    st->seconds += bench_now() - t0;
    while (ps == ASTAR_OK && (at.x != t.x || at.y != t.y) && steps < limit) {
      astar_point nx;
      astar_dstar_next(p, &nx);
      travelled += step_cost(at, nx);
      at = nx;
      steps++;
      const size_t n = sense(w, at);
      t0 = bench_now();
      astar_dstar_move(p, at); /* along the path: keeps the plan */
      if (n) {
        astar_dstar_update_cells(p, w->truth, w->seen, n);
        ps = astar_dstar_plan(p, NULL);
      }
      st->seconds += bench_now() - t0;
    }
    astar_dstar_stats tot;
    astar_dstar_stats_get(p, &tot, NULL);
    st->expanded += tot.expanded - before.expanded;
    st->replans += tot.plans - before.plans;
  } else {
    astar_options o;
    astar_options_init(&o);
    const astar_grid *g = w->truth;
    if (m == M_ASTAR) {
      o.knowledge = w->k;
    } else {
      o.algorithm = ASTAR_ALGO_JPS;
      g = w->known;
    }
    uint32_t plan_id = 0;
    size_t len = 0, idx = 0;
    bool need = true;
    while ((at.x != t.x || at.y != t.y) && steps < limit) {
      if (need) {
        astar_result res;
        t0 = bench_now();
        const astar_status fs = astar_find_path(w->ws, g, &o, at, t, w->path, w->cap, &res);
        st->seconds += bench_now() - t0;
        st->expanded += res.stats.expanded;
        st->replans++;
        if (fs != ASTAR_OK) break;
        len = res.length;
        idx = 0;
        plan_id++;
        for (size_t i = 0; i < len; i++)
          w->stamp[(size_t)w->path[i].y * (size_t)W + (size_t)w->path[i].x] = plan_id;
        need = false;
      }
      const astar_point nx = w->path[++idx];
      travelled += step_cost(at, nx);
      at = nx;
      steps++;
      const size_t n = sense(w, at);
      for (size_t i = 0; i < n && !need; i++)
        need = w->stamp[(size_t)w->seen[i].y * (size_t)W + (size_t)w->seen[i].x] == plan_id;
    }
  }
  if (at.x != t.x || at.y != t.y) st->failed++;
  st->travelled += travelled;
  st->steps += steps;
}

int main(int argc, char **argv) {
  int nq = 20, radius = 5, first = 1;
  while (first < argc && argv[first][0] == '-') {
    if (!strcmp(argv[first], "--queries") && first + 1 < argc) {
      nq = atoi(argv[first + 1]);
      first += 2;
    } else if (!strcmp(argv[first], "--radius") && first + 1 < argc) {
      radius = atoi(argv[first + 1]);
      first += 2;
    } else {
      break;
    }
  }
  if (first >= argc || nq < 1 || radius < 1) {
    fprintf(stderr, "usage: %s [--queries N >= 1] [--radius R >= 1] MAP [MAP...]\n", argv[0]);
    return 2;
  }
  printf("| map | queries | D* Lite exp | A* exp | JPS exp | A*/D* exp | D* ms | A* ms | JPS ms "
         "| A*/D* time | JPS/D* time | replans D*/A*/JPS |\n");
  printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int a = first; a < argc; a++) {
    astar_grid *g = bench_load_map(argv[a]);
    char scen_path[4096];
    snprintf(scen_path, sizeof scen_path, "%s.scen", argv[a]);
    astar_scen *sc = bench_load_scen(scen_path);
    if (!g || !sc) {
      fprintf(stderr, "%s: cannot load the map or its .scen\n", argv[a]);
      return 1;
    }
    /* The longer half of the queries, by optimal length; nq spread evenly. */
    const size_t total = astar_scen_count(sc);
    const astar_scen_query *qs = astar_scen_queries(sc);
    size_t *order = malloc(total * sizeof *order);
    for (size_t i = 0; i < total; i++) order[i] = i;
    for (size_t i = 1; i < total; i++) /* insertion sort, stable, by length */
      for (size_t j = i; j > 0 && qs[order[j - 1]].optimal_length > qs[order[j]].optimal_length;
           j--) {
        const size_t tmp = order[j];
        order[j] = order[j - 1];
        order[j - 1] = tmp;
      }
    const size_t half = total / 2, span = total - half;
    const size_t count = (size_t)nq < span ? (size_t)nq : span;
    world w;
    memset(&w, 0, sizeof w);
    w.truth = g;
    w.radius = radius;
    const size_t cells = (size_t)astar_grid_width(g) * (size_t)astar_grid_height(g);
    if (astar_knowledge_new(&w.k, g, NULL) != ASTAR_OK || astar_workspace_new(&w.ws, g, NULL) ||
        astar_grid_clone(&w.known, g, NULL) != ASTAR_OK) {
      fprintf(stderr, "out of memory\n");
      return 1;
    }
    w.cap = cells + 1;
    w.path = malloc(w.cap * sizeof *w.path);
    w.stamp = calloc(cells, sizeof *w.stamp);
    w.seen = malloc((size_t)(2 * radius + 1) * (size_t)(2 * radius + 1) * sizeof *w.seen);
    run_stats best[NMETHODS];
    for (int m = 0; m < NMETHODS; m++) {
      double secs[3], creates[3];
      for (int rep = 0; rep < 3; rep++) {
        run_stats st;
        memset(&st, 0, sizeof st);
        for (size_t i = 0; i < count; i++) {
          const astar_scen_query *q = &qs[order[half + i * span / count]];
          memset(w.stamp, 0, cells * sizeof *w.stamp);
          robot(&w, m, q->start, q->goal, &st);
        }
        secs[rep] = st.seconds;
        creates[rep] = st.create;
        best[m] = st;
      }
      best[m].seconds = bench_median3(secs[0], secs[1], secs[2]);
      for (int rep = 0; rep < 3; rep++) /* the creation time of the median run */
        if (secs[rep] == best[m].seconds) best[m].create = creates[rep];
      if (best[m].failed)
        fprintf(stderr, "%s: %s: %d robots did not arrive\n", argv[a], method_name[m],
                best[m].failed);
    }
    const char *name = strrchr(argv[a], '/');
    name = name ? name + 1 : argv[a];
    printf("| %s | %zu | %llu | %llu | %llu | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | "
           "%llu/%llu/%llu |\n",
           name, count, (unsigned long long)best[M_DSTAR].expanded,
           (unsigned long long)best[M_ASTAR].expanded, (unsigned long long)best[M_JPS].expanded,
           (double)best[M_ASTAR].expanded /
               (double)(best[M_DSTAR].expanded ? best[M_DSTAR].expanded : 1),
           best[M_DSTAR].seconds * 1e3, best[M_ASTAR].seconds * 1e3, best[M_JPS].seconds * 1e3,
           best[M_ASTAR].seconds / best[M_DSTAR].seconds,
           best[M_JPS].seconds / best[M_DSTAR].seconds, (unsigned long long)best[M_DSTAR].replans,
           (unsigned long long)best[M_ASTAR].replans, (unsigned long long)best[M_JPS].replans);
    fprintf(stderr, "%s: D* Lite planner creation %.1f ms of %.1f ms\n", name,
            best[M_DSTAR].create * 1e3, best[M_DSTAR].seconds * 1e3);
    fprintf(stderr, "%s: walked cost D* %.1f, A* %.1f, JPS %.1f (steps %llu/%llu/%llu)\n", name,
            best[M_DSTAR].travelled, best[M_ASTAR].travelled, best[M_JPS].travelled,
            (unsigned long long)best[M_DSTAR].steps, (unsigned long long)best[M_ASTAR].steps,
            (unsigned long long)best[M_JPS].steps);
    fflush(stdout);
    astar_dstar_free(w.planner);
    free(w.path);
    free(w.stamp);
    free(w.seen);
    free(order);
    astar_grid_free(w.known);
    astar_workspace_free(w.ws);
    astar_knowledge_free(w.k);
    astar_scen_free(sc);
    astar_grid_free(g);
  }
  return 0;
}
