/*
** test_mapf_lacam.c -- PIBT, LaCAM and LaCAM* (src/mapf/pibt.c, lacam.c;
** issue 29 item 2).
**
** - Tiny random instances (2-4 agents, small maps with walls and narrow
**   corridors) against the brute-force search of the joint space of
**   tests/mapf_ref.h:
**   LaCAM* given enough work returns the optimal sum of costs and says so;
**   LaCAM finds a solution exactly when one exists and returns
**   ASTAR_NO_PATH otherwise (completeness); every solution of every solver
**   passes astar_mapf_check.
** - 100-400 agents on the benchmark's random-32-32-20 (its real scenario
**   random-1 and generated instances): every solution passes the check.
** - Determinism (same seed, same paths), the limits (max_work, max_steps,
**   the clock) and the improvement reports of LaCAM*.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "astar/format.h"
#include "astar/grid.h"
#include "astar/mapf.h"
#include "check.h"
#include "mapf_ref.h"

/* ---- helpers -------------------------------------------------------------------------- */

static uint64_t rng_state;
static uint32_t rnd(uint32_t n) {
  rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
  return (uint32_t)((rng_state >> 33) % n);
}

static const char *algo_name(astar_mapf_algo a) {
  return astar_mapf_algo_info_get(a)->name;
}

/* Solve and check: the status; a solution must pass the validator and
** agree with the stats. */
static astar_status solve_checked(astar_mapf_solver *sv, const astar_mapf_problem *p,
                                  const astar_mapf_options *o, astar_mapf_solution *out,
                                  astar_mapf_stats *stats) {
  astar_status st = astar_mapf_solve(sv, p, o, out, stats);
  if (st == ASTAR_OK) {
    astar_mapf_report rep;
    CHECK(astar_mapf_check(p, out, &rep, NULL) == ASTAR_OK);
    if (rep.fault != ASTAR_MAPF_VALID)
      FAILF("%s: %s at t=%u agents %u/%u", algo_name(o->algo), astar_mapf_fault_name(rep.fault),
            rep.time, rep.agent, rep.other);
    CHECK(stats->solved);
    CHECK_EQ(stats->sum_of_costs, astar_mapf_solution_sum_of_costs(out));
    CHECK(stats->sum_of_costs >= stats->lower_bound);
    CHECK(stats->time_first >= 0);
    CHECK(stats->improvements >= 1);
  } else {
    CHECK(!stats->solved);
  }
  return st;
}

/* A random tiny map: w x h with some walls, sometimes a corridor map (one
** row or column wide in places). */
static astar_grid *tiny_map(int *w_out, int *h_out) {
  int w = 2 + (int)rnd(4), h = 1 + (int)rnd(4);
  astar_grid *g;
  CHECK(astar_grid_new(&g, w, h, NULL) == ASTAR_OK);
  int walls = (int)rnd((uint32_t)(w * h / 3 + 1));
  for (int k = 0; k < walls; k++)
    astar_grid_set_passable(g, (int)rnd((uint32_t)w), (int)rnd((uint32_t)h), false);
  *w_out = w;
  *h_out = h;
  return g;
}

/* n distinct passable cells (false when there are fewer). */
static bool pick_cells(const astar_grid *g, int n, astar_point *out) {
  int w = astar_grid_width(g), h = astar_grid_height(g), m = 0;
  astar_point all[64];
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      if (astar_grid_passable(g, x, y)) all[m++] = (astar_point){x, y};
  if (m < n) return false;
  for (int i = 0; i < n; i++) {
    int r = i + (int)rnd((uint32_t)(m - i));
    astar_point t = all[i];
    all[i] = all[r];
    all[r] = t;
    out[i] = all[i];
  }
  return true;
}

/* ---- tiny instances against the reference -------------------------------------------- */

static void test_tiny_against_reference(void) {
  astar_mapf_solver *sv;
  CHECK(astar_mapf_solver_new(&sv, NULL) == ASTAR_OK);
  rng_state = 29;
  int solvable = 0, unsolvable = 0, optimal = 0, pibt_solved = 0;
  for (int trial = 0; trial < 300; trial++) {
    int w, h;
    astar_grid *g = tiny_map(&w, &h);
    int passable = 0;
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) passable += astar_grid_passable(g, x, y);
    int n = 2 + (int)rnd(3);
    /* Keep the reference's joint space small. */
    if (n == 4 && passable > 9) n = 3;
    if (n >= 3 && passable > 14) n = 2;
    astar_point s[4], t[4];
    if (!pick_cells(g, n, s) || !pick_cells(g, n, t)) {
      astar_grid_free(g);
      continue;
    }
    astar_mapf_problem *p;
    CHECK(astar_mapf_problem_new(&p, g, s, t, (size_t)n, NULL, NULL) == ASTAR_OK);
    long opt = (long)mapf_ref_optimal_soc(p);
    CHECK(opt >= -1); /* -2: too big for the reference (the sizes above avoid it) */
    astar_mapf_solution *out;
    CHECK(astar_mapf_solution_new(&out, (size_t)n, NULL) == ASTAR_OK);
    astar_mapf_options o;
    astar_mapf_options_init(&o);
    o.seed = (uint64_t)trial;
    o.max_work = 50000000; /* a guard only: none of these needs near that */
    astar_mapf_stats stats;

    o.algo = ASTAR_MAPF_LACAM;
    astar_status st = solve_checked(sv, p, &o, out, &stats);
    if (opt < 0 && st != ASTAR_NO_PATH)
      FAILF("trial %d: lacam %d on an unsolvable instance", trial, st);
    if (opt >= 0 && st != ASTAR_OK) FAILF("trial %d: lacam %d, optimum %ld", trial, st, opt);
    if (st == ASTAR_OK && (long)stats.sum_of_costs < opt)
      FAILF("trial %d: lacam SOC %llu below the optimum %ld", trial,
            (unsigned long long)stats.sum_of_costs, opt);

    o.algo = ASTAR_MAPF_LACAM_STAR;
    st = solve_checked(sv, p, &o, out, &stats);
    if (opt < 0 && st != ASTAR_NO_PATH) FAILF("trial %d: lacam-star %d, unsolvable", trial, st);
    if (opt >= 0) {
      if (st != ASTAR_OK || (long)stats.sum_of_costs != opt || !stats.optimal)
        FAILF("trial %d (%dx%d, %d agents): lacam-star %d SOC %llu optimal %d, reference %ld",
              trial, w, h, n, st, (unsigned long long)stats.sum_of_costs, stats.optimal, opt);
      else
        optimal++;
    }

    o.algo = ASTAR_MAPF_PIBT;
    o.max_steps = 64;
    st = solve_checked(sv, p, &o, out, &stats);
    if (opt < 0 && st == ASTAR_OK) FAILF("trial %d: pibt solved an unsolvable instance", trial);
    if (st == ASTAR_OK) pibt_solved++;
    if (opt >= 0)
      solvable++;
    else
      unsolvable++;
    astar_mapf_solution_free(out);
    astar_mapf_problem_free(p);
    astar_grid_free(g);
  }
  printf("tiny: %d solvable (lacam-star optimal on %d, pibt solved %d), %d unsolvable\n", solvable,
         optimal, pibt_solved, unsolvable);
  /* The generator must give both kinds, or the test proves little. */
  CHECK(solvable > 100);
  CHECK(unsolvable > 20);
  astar_mapf_solver_free(sv);
}

/* Two agents that must exchange places in a corridor: impossible; LaCAM
** proves it, PIBT runs out of steps. With a side pocket it is possible. */
static void test_corridor(void) {
  astar_mapf_solver *sv;
  CHECK(astar_mapf_solver_new(&sv, NULL) == ASTAR_OK);
  for (int pocket = 0; pocket < 2; pocket++) {
    astar_grid *g;
    CHECK(astar_grid_new(&g, 5, 2, NULL) == ASTAR_OK);
    for (int x = 0; x < 5; x++) astar_grid_set_passable(g, x, 1, pocket && x == 2);
    astar_point s[2] = {{0, 0}, {4, 0}}, t[2] = {{4, 0}, {0, 0}};
    astar_mapf_problem *p;
    CHECK(astar_mapf_problem_new(&p, g, s, t, 2, NULL, NULL) == ASTAR_OK);
    astar_mapf_solution *out;
    CHECK(astar_mapf_solution_new(&out, 2, NULL) == ASTAR_OK);
    astar_mapf_options o;
    astar_mapf_options_init(&o);
    astar_mapf_stats stats;
    long opt = (long)mapf_ref_optimal_soc(p);
    CHECK(pocket ? opt > 8 : opt == -1);
    o.algo = ASTAR_MAPF_LACAM;
    CHECK_EQ(solve_checked(sv, p, &o, out, &stats), pocket ? ASTAR_OK : ASTAR_NO_PATH);
    o.algo = ASTAR_MAPF_LACAM_STAR;
    CHECK_EQ(solve_checked(sv, p, &o, out, &stats), pocket ? ASTAR_OK : ASTAR_NO_PATH);
    if (pocket) {
      CHECK_EQ((long)stats.sum_of_costs, opt);
      CHECK(stats.optimal);
    }
    o.algo = ASTAR_MAPF_PIBT;
    o.max_steps = 100;
    astar_status st = solve_checked(sv, p, &o, out, &stats);
    CHECK(pocket ? st == ASTAR_OK : st == ASTAR_LIMIT_REACHED);
    astar_mapf_solution_free(out);
    astar_mapf_problem_free(p);
    astar_grid_free(g);
  }
  /* A goal out of reach: every solver says so at once. */
  astar_grid *g;
  CHECK(astar_grid_new(&g, 3, 1, NULL) == ASTAR_OK);
  astar_grid_set_passable(g, 1, 0, false);
  astar_point s[1] = {{0, 0}}, t[1] = {{2, 0}};
  astar_mapf_problem *p;
  CHECK(astar_mapf_problem_new(&p, g, s, t, 1, NULL, NULL) == ASTAR_OK);
  astar_mapf_solution *out;
  CHECK(astar_mapf_solution_new(&out, 1, NULL) == ASTAR_OK);
  astar_mapf_options o;
  astar_mapf_options_init(&o);
  astar_mapf_stats stats;
  for (int a = ASTAR_MAPF_PIBT; a <= ASTAR_MAPF_LACAM_STAR; a++) {
    o.algo = (astar_mapf_algo)a;
    CHECK_EQ(astar_mapf_solve(sv, p, &o, out, &stats), ASTAR_NO_PATH);
  }
  astar_mapf_solution_free(out);
  astar_mapf_problem_free(p);
  astar_grid_free(g);
  astar_mapf_solver_free(sv);
}

/* ---- the benchmark's random-32-32-20 -------------------------------------------------- */

#define MAPF_DIR "../../shared/bench/mapf/"

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)n + 1);
  *len = fread(text, 1, (size_t)n, f);
  fclose(f);
  return text;
}

static astar_grid *load_map(const char *name) {
  char path[256];
  snprintf(path, sizeof path, MAPF_DIR "maps/%s", name);
  size_t len;
  char *text = slurp(path, &len);
  if (!text) return NULL;
  astar_grid *g = NULL;
  CHECK(astar_movingai_parse_map(&g, text, len, NULL, NULL) == ASTAR_OK);
  free(text);
  return g;
}

typedef struct improve_log {
  uint64_t last;
  int calls;
  bool decreasing;
} improve_log;

static void on_improve(void *ud, uint64_t soc, double seconds) {
  improve_log *log = ud;
  if (log->calls > 0 && soc >= log->last) log->decreasing = false;
  if (seconds < 0) log->decreasing = false;
  log->last = soc;
  log->calls++;
}

static bool same_paths(const astar_mapf_solution *a, const astar_mapf_solution *b) {
  size_t n = astar_mapf_solution_agents(a);
  for (size_t i = 0; i < n; i++) {
    size_t la, lb;
    const astar_point *pa = astar_mapf_solution_path(a, i, &la);
    const astar_point *pb = astar_mapf_solution_path(b, i, &lb);
    if (la != lb || (la && memcmp(pa, pb, la * sizeof *pa) != 0)) return false;
  }
  return true;
}

static void test_benchmark_map(void) {
  astar_grid *g = load_map("random-32-32-20.map");
  size_t slen;
  char *scen_text = slurp(MAPF_DIR "scen/random-32-32-20-random-1.scen", &slen);
  if (!g || !scen_text) {
    printf("skipped: " MAPF_DIR " not found\n");
    astar_grid_free(g);
    free(scen_text);
    return;
  }
  astar_scen *scen;
  CHECK(astar_movingai_parse_scen(&scen, scen_text, slen, NULL, NULL) == ASTAR_OK);
  free(scen_text);
  const astar_scen_query *q = astar_scen_queries(scen);
  astar_mapf_solver *sv;
  CHECK(astar_mapf_solver_new(&sv, NULL) == ASTAR_OK);
  static astar_point s[400], t[400];
  const size_t counts[] = {100, 200, 400};
  for (int source = 0; source < 2; source++)
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
      size_t n = counts[k];
      if (source == 0) {
        for (size_t i = 0; i < n; i++) {
          s[i] = q[i].start;
          t[i] = q[i].goal;
        }
      } else {
        /* Generated instances (astar_mapf_random_instance, the benchmark's
        ** random-scenario rule). */
        CHECK(astar_mapf_random_instance(g, 100 + k, n, s, t, NULL) == ASTAR_OK);
      }
      astar_mapf_problem *p;
      CHECK(astar_mapf_problem_new(&p, g, s, t, n, NULL, NULL) == ASTAR_OK);
      astar_mapf_solution *out, *again;
      CHECK(astar_mapf_solution_new(&out, n, NULL) == ASTAR_OK);
      CHECK(astar_mapf_solution_new(&again, n, NULL) == ASTAR_OK);
      for (int a = ASTAR_MAPF_PIBT; a <= ASTAR_MAPF_LACAM_STAR; a++) {
        astar_mapf_options o;
        astar_mapf_options_init(&o);
        o.algo = (astar_mapf_algo)a;
        o.seed = 7;
        o.max_work = 400000; /* lacam-star: a first solution, a few improvements */
        improve_log log = {0, 0, true};
        o.on_improve = on_improve;
        o.improve_ud = &log;
        astar_mapf_stats stats, stats2;
        astar_status st = solve_checked(sv, p, &o, out, &stats);
        /* PIBT may fail at 400 agents (incomplete); LaCAM must not. */
        if (a != ASTAR_MAPF_PIBT || n < 400)
          CHECKF(st == ASTAR_OK, "%s, %zu agents, source %d: %d", algo_name(o.algo), n, source, st);
        if (st == ASTAR_OK) {
          CHECK(log.decreasing);
          CHECK_EQ(log.last, stats.sum_of_costs);
          CHECK_EQ((uint32_t)log.calls, stats.improvements);
          if (a == ASTAR_MAPF_LACAM_STAR) CHECK(!stats.optimal); /* work ran out first */
        }
        /* Determinism: the same seed gives the same paths. */
        astar_status st2 = astar_mapf_solve(sv, p, &o, again, &stats2);
        CHECK_EQ(st2, st);
        if (st == ASTAR_OK && st2 == ASTAR_OK) {
          CHECK(same_paths(out, again));
          CHECK_EQ(stats2.high_level, stats.high_level);
        }
      }
      astar_mapf_solution_free(out);
      astar_mapf_solution_free(again);
      astar_mapf_problem_free(p);
    }
  astar_mapf_solver_free(sv);
  astar_scen_free(scen);
  astar_grid_free(g);
}

/* ---- limits ---------------------------------------------------------------------------- */

static double fake_clock(void *ud) {
  double *t = ud;
  return *t += 0.001; /* a millisecond a reading */
}

static void test_limits(void) {
  astar_grid *g;
  CHECK(astar_grid_new(&g, 16, 16, NULL) == ASTAR_OK);
  rng_state = 5;
  for (int k = 0; k < 40; k++) astar_grid_set_passable(g, (int)rnd(16), (int)rnd(16), false);
  astar_point s[40], t[40];
  CHECK(astar_mapf_random_instance(g, 3, 40, s, t, NULL) == ASTAR_OK);
  astar_mapf_problem *p;
  CHECK(astar_mapf_problem_new(&p, g, s, t, 40, NULL, NULL) == ASTAR_OK);
  astar_mapf_solution *out;
  CHECK(astar_mapf_solution_new(&out, 40, NULL) == ASTAR_OK);
  astar_mapf_solver *sv;
  CHECK(astar_mapf_solver_new(&sv, NULL) == ASTAR_OK);
  astar_mapf_options o;
  astar_mapf_stats stats;
  for (int a = ASTAR_MAPF_PIBT; a <= ASTAR_MAPF_LACAM_STAR; a++) {
    /* Too little work for anything. */
    astar_mapf_options_init(&o);
    o.algo = (astar_mapf_algo)a;
    o.max_work = 3;
    CHECKF(solve_checked(sv, p, &o, out, &stats) == ASTAR_LIMIT_REACHED, "%s", algo_name(o.algo));
    CHECK(stats.time_first < 0);
    CHECK_EQ(stats.improvements, 0);
  }
  for (int a = ASTAR_MAPF_PIBT; a <= ASTAR_MAPF_LACAM_STAR; a++) {
    /* Too little memory (a fresh solver, so the scratch starts empty):
    ** the memory limit, at some point of the set-up or the search. */
    for (size_t limit = 2048; limit <= 65536; limit *= 4) {
      astar_mapf_solver *fresh;
      CHECK(astar_mapf_solver_new(&fresh, NULL) == ASTAR_OK);
      astar_mapf_options_init(&o);
      o.algo = (astar_mapf_algo)a;
      o.max_memory = limit;
      astar_status st = solve_checked(fresh, p, &o, out, &stats);
      CHECKF(st == ASTAR_LIMIT_REACHED || (st == ASTAR_OK && limit > 2048), "%s %zu: %d",
             algo_name(o.algo), limit, st);
      CHECK(stats.peak_memory <= limit);
      astar_mapf_solver_free(fresh);
    }
  }
  /* PIBT: one step is not enough. */
  astar_mapf_options_init(&o);
  o.algo = ASTAR_MAPF_PIBT;
  o.max_steps = 1;
  CHECK_EQ(solve_checked(sv, p, &o, out, &stats), ASTAR_LIMIT_REACHED);
  /* LaCAM*: enough work for a first solution, not for the proof. */
  astar_mapf_options_init(&o);
  o.algo = ASTAR_MAPF_LACAM_STAR;
  o.max_work = 200000;
  CHECK_EQ(solve_checked(sv, p, &o, out, &stats), ASTAR_OK);
  CHECK(!stats.optimal);
  /* A time limit read through the caller's clock: each reading a
  ** millisecond later, so fifty readings stop it. */
  double now = 0;
  astar_mapf_options_init(&o);
  o.algo = ASTAR_MAPF_LACAM_STAR;
  o.time_limit = 0.05;
  o.clock = fake_clock;
  o.clock_ud = &now;
  CHECK_EQ(solve_checked(sv, p, &o, out, &stats), ASTAR_OK);
  CHECK(!stats.optimal);
  CHECK(now < 10);
  astar_mapf_solver_free(sv);
  astar_mapf_solution_free(out);
  astar_mapf_problem_free(p);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_corridor);
  RUN(test_tiny_against_reference);
  RUN(test_limits);
  RUN(test_benchmark_map);
  return check_summary();
}
