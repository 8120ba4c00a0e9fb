/*
** instructions.c -- the driver of bench/instructions.sh: one grid method
** over a Moving AI scenario, called through one entry point, counted
** (valgrind's callgrind) or timed. It builds against any revision of the
** library (the finder's mode only where astar/finder.h exists), so that the
** same driver measures the old and the new library alike.
**
** usage: instructions ENTRY METHOD MAP SCEN [EVERY [PASSES]]
**   ENTRY   direct: astar_find_path / astar_jps_plus_find_path, as the tool
**           has always called them; finder: astar_finder_find on a finder
**           prepared once (issue 26)
**   METHOD  astar | jps | jps-plus (the JPS+ table is built before anything
**           is measured)
**   EVERY   run queries 0, EVERY, 2*EVERY, ... of SCEN (default 1)
**   PASSES  timed passes (default 1; 0: none), each over those queries as
**           many times as make about 0.2 s
**
** Prints one line: queries, expansions, the hash of every query's status and
** path (equal hashes: the same paths), and the median pass's µs per query
** (CPU time).
** First a few queries run unmeasured, so that the first-use growth of the
** workspace is not counted; then one pass hashes every status and path;
** then the timed passes run, without the hashing. Under callgrind, with
** --instr-atstart=no and --toggle-collect=<the entry point>, the calls of
** the hashing pass are counted and nothing else (the library alone).
**
** build: cc -O2 -std=c11 -I<tree>/include bench/instructions.c <build>/libastar.a -lm
*/
#define _POSIX_C_SOURCE 200809L
#include <astar/astar.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__has_include)
#if __has_include(<astar/finder.h>)
#include <astar/finder.h>
#define IB_HAVE_FINDER 1
#endif
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#endif
#endif
#ifndef CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#endif

enum { IB_DIRECT, IB_FINDER };
enum { IB_ASTAR, IB_JPS, IB_JPS_PLUS };

typedef struct ib_ctx {
  int entry, method;
  const astar_grid *grid;
  astar_workspace *ws;
  astar_options opt;
  astar_jps_plus *jpp;
#ifdef IB_HAVE_FINDER
  astar_finder *finder;
#endif
  const astar_scen_query *q;
  size_t n, every;
  astar_point *path;
  size_t cap;
  bool hashing; /* fold every status and path into hash */
  uint64_t hash, expanded;
} ib_ctx;

static char *slurp(const char *name, size_t *len) {
  FILE *f = fopen(name, "rb");
  if (!f) return NULL;
  char *buf = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n == cap) {
      cap = cap ? cap * 2 : 1 << 16;
      char *b = realloc(buf, cap + 1);
      if (!b) break;
      buf = b;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
  }
  fclose(f);
  if (buf) buf[n] = '\0';
  *len = n;
  return buf;
}

/* One query through the chosen entry point; folds its status and path into
** the hash. */
static void one(ib_ctx *c, astar_point s, astar_point g) {
  astar_status st;
  size_t len = 0;
  uint64_t exp = 0;
  if (c->entry == IB_DIRECT) {
    astar_result r;
    st = c->method == IB_JPS_PLUS
             ? astar_jps_plus_find_path(c->ws, c->jpp, c->grid, &c->opt, s, g, c->path, c->cap, &r)
             : astar_find_path(c->ws, c->grid, &c->opt, s, g, c->path, c->cap, &r);
    len = r.length;
    exp = r.stats.expanded;
  } else {
#ifdef IB_HAVE_FINDER
    astar_path_result r;
    st = astar_finder_find(c->finder, c->ws, s, g, c->path, c->cap, &r);
    len = r.length;
    exp = r.stats.expanded;
#else
    st = ASTAR_UNSUPPORTED;
#endif
  }
  c->expanded += exp;
  if (!c->hashing) return;
  c->hash = (c->hash ^ (uint32_t)st) * UINT64_C(1099511628211);
  if (st == ASTAR_OK) c->hash = astar_path_hash(c->path, len, c->hash);
}

static void pass(ib_ctx *c, size_t limit) {
  size_t done = 0;
  for (size_t i = 0; i < c->n && done < limit; i += c->every, done++)
    one(c, c->q[i].start, c->q[i].goal);
}

/* A measured pass (out of line: a frame of its own in a profile). */
__attribute__((noinline)) void ibench_measured(ib_ctx *c);
__attribute__((noinline)) void ibench_measured(ib_ctx *c) {
  pass(c, SIZE_MAX);
}

/* The process's CPU time, not the wall clock: on the shared machine the
** wall clock also counts the time other processes hold the core (at a load
** of 10 on 2 vCPUs, runs of the same code differed by half). What is left
** -- caches and the core's other hyperthread shared with others -- is
** noise that the interleaved rounds of bench/instructions.sh spread over
** both sides. */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc < 5 || argc > 7) {
    fprintf(stderr, "usage: %s direct|finder astar|jps|jps-plus MAP SCEN [EVERY [PASSES]]\n",
            argv[0]);
    return 2;
  }
  ib_ctx c;
  memset(&c, 0, sizeof c);
  if (strcmp(argv[1], "direct") == 0) {
    c.entry = IB_DIRECT;
  } else if (strcmp(argv[1], "finder") == 0) {
    c.entry = IB_FINDER;
#ifndef IB_HAVE_FINDER
    fprintf(stderr, "%s: this library has no astar/finder.h\n", argv[0]);
    return 3;
#endif
  } else {
    fprintf(stderr, "%s: ENTRY '%s' is not direct or finder\n", argv[0], argv[1]);
    return 2;
  }
  if (strcmp(argv[2], "astar") == 0) {
    c.method = IB_ASTAR;
  } else if (strcmp(argv[2], "jps") == 0) {
    c.method = IB_JPS;
  } else if (strcmp(argv[2], "jps-plus") == 0) {
    c.method = IB_JPS_PLUS;
  } else {
    fprintf(stderr, "%s: METHOD '%s' is not astar, jps or jps-plus\n", argv[0], argv[2]);
    return 2;
  }
  long every = argc > 5 ? strtol(argv[5], NULL, 10) : 1;
  long passes = argc > 6 ? strtol(argv[6], NULL, 10) : 1;
  if (every < 1 || passes < 0 || passes > 1001) {
    fprintf(stderr, "%s: EVERY must be >= 1 and PASSES in 0..1001\n", argv[0]);
    return 2;
  }
  c.every = (size_t)every;

  size_t mlen, slen;
  char *mtext = slurp(argv[3], &mlen), *stext = slurp(argv[4], &slen);
  if (!mtext || !stext) {
    fprintf(stderr, "%s: cannot read %s\n", argv[0], mtext ? argv[4] : argv[3]);
    return 1;
  }
  astar_grid *grid = NULL;
  astar_scen *scen = NULL;
  astar_parse_error err;
  if (astar_movingai_parse_map(&grid, mtext, mlen, NULL, &err) != ASTAR_OK ||
      astar_movingai_parse_scen(&scen, stext, slen, NULL, &err) != ASTAR_OK) {
    fprintf(stderr, "%s: cannot parse %s or %s\n", argv[0], argv[3], argv[4]);
    return 1;
  }
  free(mtext);
  free(stext);
  c.grid = grid;
  c.q = astar_scen_queries(scen);
  c.n = astar_scen_count(scen);
  c.cap = (size_t)astar_grid_width(grid) * (size_t)astar_grid_height(grid);
  c.path = malloc(c.cap * sizeof *c.path);
  astar_options_init(&c.opt);
  if (c.method == IB_JPS) c.opt.algorithm = ASTAR_ALGO_JPS;
  if (!c.path || astar_workspace_new(&c.ws, grid, NULL) != ASTAR_OK ||
      (c.method == IB_JPS_PLUS && astar_jps_plus_new(&c.jpp, grid, NULL) != ASTAR_OK)) {
    fprintf(stderr, "%s: cannot prepare the search\n", argv[0]);
    return 1;
  }
#ifdef IB_HAVE_FINDER
  if (c.entry == IB_FINDER) {
    astar_finder_config cfg;
    astar_finder_config_init(&cfg);
    cfg.options = c.opt;
    cfg.method = c.method == IB_ASTAR ? ASTAR_METHOD_ASTAR
                 : c.method == IB_JPS ? ASTAR_METHOD_JPS
                                      : ASTAR_METHOD_JPS_PLUS;
    cfg.jps_plus = c.jpp;
    if (astar_finder_new(&c.finder, grid, &cfg, NULL) != ASTAR_OK) {
      fprintf(stderr, "%s: cannot prepare the finder\n", argv[0]);
      return 1;
    }
  }
#endif

  /* Unmeasured: the first searches grow what grows on first use. */
  pass(&c, 8);

  /* The pass that hashes every status and path: under callgrind the
  ** counted one (only the library's entry point is collected, not the
  ** hashing: --toggle-collect=astar_find_path, ...). */
  const size_t queries = (c.n + c.every - 1) / c.every;
  c.hashing = true;
  c.hash = ASTAR_PATH_HASH_INIT;
  c.expanded = 0;
  CALLGRIND_START_INSTRUMENTATION;
  const double t_hash = now();
  ibench_measured(&c);
  const double hashed = now() - t_hash;
  CALLGRIND_STOP_INSTRUMENTATION;
  const uint64_t hash = c.hash, expanded = c.expanded;

  /* The timed passes, without the hashing. A pass goes over the queries
  ** `reps` times, enough for about 0.2 s: a pass of a few milliseconds
  ** (JPS+ on 200 queries) would measure the scheduler. */
  c.hashing = false;
  const double want = 0.2;
  const long reps = hashed >= want ? 1 : hashed * 1000 < want ? 1000 : (long)(want / hashed) + 1;
  double *us = malloc(((size_t)passes + 1) * sizeof *us);
  if (!us) return 1;
  for (long p = 0; p < passes; p++) {
    c.expanded = 0;
    const double t0 = now();
    for (long r = 0; r < reps; r++) ibench_measured(&c);
    us[p] = (now() - t0) * 1e6 / (double)(queries * (size_t)reps);
    if (c.expanded != expanded * (uint64_t)reps) {
      fprintf(stderr, "%s: pass %ld expanded other nodes than the first\n", argv[0], p + 1);
      return 1;
    }
  }
  if (passes) {
    qsort(us, (size_t)passes, sizeof *us, cmp_double);
    printf("queries=%zu expanded=%llu hash=%016llx us_per_query=%.3f us_min=%.3f us_max=%.3f "
           "reps=%ld\n",
           queries, (unsigned long long)expanded, (unsigned long long)hash, us[(passes - 1) / 2],
           us[0], us[passes - 1], reps);
  } else {
    printf("queries=%zu expanded=%llu hash=%016llx\n", queries, (unsigned long long)expanded,
           (unsigned long long)hash);
  }
  free(us);
#ifdef IB_HAVE_FINDER
  astar_finder_free(c.finder);
#endif
  astar_jps_plus_free(c.jpp);
  astar_workspace_free(c.ws);
  free(c.path);
  astar_scen_free(scen);
  astar_grid_free(grid);
  return 0;
}
