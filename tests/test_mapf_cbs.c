/*
** test_mapf_cbs.c -- CBS and EECBS (src/mapf/cbs.c, astar/mapf.h). On
** generated tiny instances (seeded: 2-4 agents on maps of at most 12 cells
** -- open rooms, narrow corridors with pockets, goal-holding traps, and
** some with an agent cut off): CBS's sum of costs equals the brute force
** of tests/mapf_ref.h (Dijkstra over the joint space), EECBS's stays within
** w times it for several w, both report a bound no larger than the
** optimum, every solution passes astar_mapf_check. The instances exercise
** target and corridor conflicts (their splits must keep CBS optimal).
** Then hand-made goal-holding cases, ASTAR_NO_PATH, the work limit and
** determinism (same inputs, same paths and counts, fresh or reused solver).
*/
#include <astar/grid.h>
#include <astar/mapf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mapf_ref.h"

#define MAXA 4
#define MAXC 12

/* ---- instances ------------------------------------------------------------------ */

typedef struct inst {
  int w, h, n;
  uint8_t pass[2 * MAXC]; /* the compiler cannot see that w * h <= MAXC */
  int start[MAXA], goal[MAXA];
} inst;

static uint64_t rng_state;
static uint32_t rnd(uint32_t k) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rng_state >> 33) % k;
}

static int reachable(const inst *I, int from, int to) {
  int seen[MAXC] = {0}, q[MAXC], h = 0, t = 0;
  seen[from] = 1;
  q[t++] = from;
  while (h < t) {
    int u = q[h++];
    if (u == to) return 1;
    int x = u % I->w, y = u / I->w;
    int nb[4][2] = {{x, y - 1}, {x + 1, y}, {x, y + 1}, {x - 1, y}};
    for (int d = 0; d < 4; d++) {
      int nx = nb[d][0], ny = nb[d][1];
      if (nx < 0 || ny < 0 || nx >= I->w || ny >= I->h) continue;
      int v = ny * I->w + nx;
      if (I->pass[v] && !seen[v]) {
        seen[v] = 1;
        q[t++] = v;
      }
    }
  }
  return 0;
}

/* A random instance: shapes cycle through open rooms, 1-wide corridors
** with side pockets, and rooms with walls; starts and goals distinct. */
static void make_instance(inst *I, int k) {
  static const int shapes[][2] = {{3, 3}, {4, 3}, {6, 2}, {5, 2}, {4, 2}, {3, 4}, {12, 1}, {6, 1}};
  int s = k % 8;
  I->w = shapes[s][0];
  I->h = shapes[s][1];
  int cells = I->w * I->h;
  for (int c = 0; c < cells; c++) I->pass[c] = 1;
  if (I->h == 2) /* a corridor on row 0 with a few pockets below */
    for (int x = 0; x < I->w; x++) I->pass[I->w + x] = rnd(3) == 0;
  else if (I->h > 1)
    for (int c = 0; c < cells; c++)
      if (rnd(5) == 0) I->pass[c] = 0;
  int free_cells[MAXC], nf = 0;
  for (int c = 0; c < cells; c++)
    if (I->pass[c]) free_cells[nf++] = c;
  int maxa = nf - 1 < MAXA ? nf - 1 : MAXA;
  if (cells > 9 && maxa > 3) maxa = 3; /* keep the joint space small */
  if (maxa < 1) maxa = 1;
  I->n = 2 + (int)rnd((uint32_t)(maxa >= 2 ? maxa - 1 : 1));
  if (I->n > nf) I->n = nf;
  int used_s[MAXC] = {0}, used_g[MAXC] = {0};
  for (int i = 0; i < I->n; i++) {
    int c;
    do c = free_cells[rnd((uint32_t)nf)];
    while (used_s[c]);
    used_s[c] = 1;
    I->start[i] = c;
    do c = free_cells[rnd((uint32_t)nf)];
    while (used_g[c]);
    used_g[c] = 1;
    I->goal[i] = c;
  }
}

static astar_mapf_problem *problem_of(const inst *I) {
  astar_grid *g = NULL;
  if (astar_grid_new(&g, I->w, I->h, NULL) != ASTAR_OK) return NULL;
  for (int c = 0; c < I->w * I->h; c++)
    astar_grid_set_passable(g, c % I->w, c / I->w, I->pass[c] != 0);
  astar_point s[MAXA], t[MAXA];
  for (int i = 0; i < I->n; i++) {
    s[i] = (astar_point){I->start[i] % I->w, I->start[i] / I->w};
    t[i] = (astar_point){I->goal[i] % I->w, I->goal[i] / I->w};
  }
  astar_mapf_problem *p = NULL;
  astar_status st = astar_mapf_problem_new(&p, g, s, t, (size_t)I->n, NULL, NULL);
  astar_grid_free(g);
  return st == ASTAR_OK ? p : NULL;
}

static astar_status run(astar_mapf_solver *sv, const astar_mapf_problem *p, astar_mapf_algo algo,
                        double w, uint64_t max_work, astar_mapf_solution *out,
                        astar_mapf_stats *st) {
  astar_mapf_options o;
  astar_mapf_options_init(&o);
  o.algo = algo;
  o.w = w;
  o.max_work = max_work;
  return astar_mapf_solve(sv, p, &o, out, st);
}

static int valid(const astar_mapf_problem *p, const astar_mapf_solution *s) {
  astar_mapf_report r;
  if (astar_mapf_check(p, s, &r, NULL) != ASTAR_OK) return 0;
  if (r.fault != ASTAR_MAPF_VALID)
    fprintf(stderr, "  fault %s agent %u other %u t %u\n", astar_mapf_fault_name(r.fault), r.agent,
            r.other, r.time);
  return r.fault == ASTAR_MAPF_VALID;
}

/* ---- tests ---------------------------------------------------------------------- */

#define INSTANCES 300
#define WORK 400000 /* enough for every instance here; unsolvable ones stop on it */

static void test_against_reference(void) {
  static const double ws[] = {1.0, 1.1, 1.5, 2.0};
  astar_mapf_solver *sv = NULL;
  CHECK(astar_mapf_solver_new(&sv, NULL) == ASTAR_OK);
  int solved = 0, unsolvable = 0, cut_off = 0, limited = 0;
  rng_state = 2029;
  for (int k = 0; k < INSTANCES; k++) {
    inst I;
    make_instance(&I, k);
    int cut = 0;
    for (int i = 0; i < I.n; i++)
      if (!reachable(&I, I.start[i], I.goal[i])) cut = 1;
    astar_mapf_problem *p = problem_of(&I);
    CHECK(p != NULL);
    if (!p) continue;
    long long opt = mapf_ref_optimal_soc(p);
    CHECK(opt != -2);
    astar_mapf_solution *out = NULL;
    CHECK(astar_mapf_solution_new(&out, (size_t)I.n, NULL) == ASTAR_OK);
    astar_mapf_stats st;
    uint64_t work = opt >= 0 ? WORK : WORK / 20; /* unsolvable: CBS cannot prove it */
    astar_status r = run(sv, p, ASTAR_MAPF_CBS, 1.2, work, out, &st);
    if (opt >= 0) {
      solved++;
      /* CBS may need more than the work limit on corridor cases (it is
      ** exponential there); it must then say so and keep a true bound */
      if (r == ASTAR_LIMIT_REACHED && !st.solved && st.bound <= (double)opt)
        limited++;
      else if (r != ASTAR_OK || st.sum_of_costs != (uint64_t)opt || !st.optimal || !valid(p, out) ||
               fabs(st.bound - (double)opt) > 1e-9)
        FAILF("instance %d (%dx%d, %d agents): cbs status %d soc %llu bound %.1f, optimal %lld", k,
              I.w, I.h, I.n, r, (unsigned long long)st.sum_of_costs, st.bound, opt);
    } else {
      unsolvable++;
      cut_off += cut;
      if (r == ASTAR_OK || (cut && r != ASTAR_NO_PATH))
        FAILF("instance %d: unsolvable (cut off %d), cbs status %d", k, cut, r);
    }
    if (r != ASTAR_OK && opt >= 0 && st.bound > (double)opt + 1e-9)
      FAILF("instance %d: bound %.1f above the optimum %lld", k, st.bound, opt);
    for (size_t wi = 0; wi < sizeof ws / sizeof ws[0]; wi++) {
      r = run(sv, p, ASTAR_MAPF_EECBS, ws[wi], work, out, &st);
      if (opt >= 0) {
        if (r == ASTAR_LIMIT_REACHED && !st.solved && st.bound <= (double)opt) {
          limited++;
        } else if (r != ASTAR_OK || (double)st.sum_of_costs > ws[wi] * (double)opt + 1e-9 ||
                   st.bound > (double)opt + 1e-9 ||
                   (double)st.sum_of_costs > ws[wi] * st.bound + 1e-9 || !valid(p, out))
          FAILF("instance %d: eecbs w %.1f status %d soc %llu bound %.1f, optimal %lld", k, ws[wi],
                r, (unsigned long long)st.sum_of_costs, st.bound, opt);
      } else if (r == ASTAR_OK || (cut && r != ASTAR_NO_PATH)) {
        FAILF("instance %d: unsolvable, eecbs w %.1f status %d", k, ws[wi], r);
      }
    }
    astar_mapf_solution_free(out);
    astar_mapf_problem_free(p);
  }
  /* the generator must exercise both kinds */
  CHECKF(solved > INSTANCES / 2 && unsolvable > 5 && cut_off > 2, "solved %d unsolvable %d cut %d",
         solved, unsolvable, cut_off);
  /* five runs a solvable instance: nearly all finish within the limit */
  CHECKF(limited * 50 <= solved * 5, "%d of %d runs out of work", limited, solved * 5);
  astar_mapf_solver_free(sv);
}

/* Goal holding: B's goal lies in A's only way; A must pass before B
** arrives, so B waits (or detours) -- a solver that forgets that an
** arrived agent stays returns a colliding or costlier plan. */
static void test_goal_holding(void) {
  /* row 0: a corridor of 6; a pocket below x = 1 */
  inst I = {6, 2, 2, {0}, {0}, {0}};
  for (int x = 0; x < 6; x++) I.pass[x] = 1;
  I.pass[6 + 1] = 1;
  I.start[0] = 0; /* A: (0,0) -> (5,0) */
  I.goal[0] = 5;
  I.start[1] = 1; /* B: (1,0) -> (3,0), in A's way */
  I.goal[1] = 3;
  astar_mapf_problem *p = problem_of(&I);
  long long opt = mapf_ref_optimal_soc(p);
  CHECK(opt > 0);
  astar_mapf_solver *sv = NULL;
  astar_mapf_solution *out = NULL;
  CHECK(astar_mapf_solver_new(&sv, NULL) == ASTAR_OK);
  CHECK(astar_mapf_solution_new(&out, 2, NULL) == ASTAR_OK);
  astar_mapf_stats st;
  CHECK_EQ(run(sv, p, ASTAR_MAPF_CBS, 1, 50000, out, &st), ASTAR_OK);
  CHECK_EQ(st.sum_of_costs, (uint64_t)opt);
  CHECK(valid(p, out));
  CHECK_EQ(run(sv, p, ASTAR_MAPF_EECBS, 1.5, 50000, out, &st), ASTAR_OK);
  CHECK((double)st.sum_of_costs <= 1.5 * (double)opt);
  CHECK(valid(p, out));

  /* a goal that must be reached late: B's goal is A's start cell's
  ** neighbour in a dead end; A leaves through it */
  inst J = {5, 1, 2, {1, 1, 1, 1, 1}, {0}, {0}};
  J.start[0] = 0; /* A: (0,0) -> (4,0) */
  J.goal[0] = 4;
  J.start[1] = 2; /* B: (2,0) -> (1,0), where A must pass */
  J.goal[1] = 1;
  astar_mapf_problem *q = problem_of(&J);
  CHECK_EQ(mapf_ref_optimal_soc(q), -1); /* B blocks: no solution */
  astar_status r = run(sv, q, ASTAR_MAPF_CBS, 1, 20000, out, &st);
  CHECK(r == ASTAR_LIMIT_REACHED || r == ASTAR_NO_PATH);
  CHECK(!st.solved);
  astar_mapf_problem_free(q);
  astar_mapf_solution_free(out);
  astar_mapf_problem_free(p);
  astar_mapf_solver_free(sv);
}

static void test_no_path(void) {
  /* two rooms (x 0-1 and x 3-4) joined by nothing: agent 1 starts on the
  ** right and has its goal on the left */
  inst J = {5, 2, 2, {1, 1, 0, 1, 1, 1, 1, 0, 1, 1}, {0, 4}, {1, 6}};
  astar_mapf_problem *p = problem_of(&J);
  astar_mapf_solver *sv = NULL;
  astar_mapf_solution *out = NULL;
  CHECK(astar_mapf_solver_new(&sv, NULL) == ASTAR_OK);
  CHECK(astar_mapf_solution_new(&out, 2, NULL) == ASTAR_OK);
  astar_mapf_stats st;
  CHECK_EQ(run(sv, p, ASTAR_MAPF_CBS, 1, 0, out, &st), ASTAR_NO_PATH);
  CHECK(!st.solved);
  CHECK_EQ(run(sv, p, ASTAR_MAPF_EECBS, 1.2, 0, out, &st), ASTAR_NO_PATH);
  CHECK(!st.solved);
  astar_mapf_problem_free(p);
  astar_mapf_solution_free(out);
  astar_mapf_solver_free(sv);
}

/* A 12 x 12 room with a wall, a one-cell gap and 6 agents crossing: enough conflicts
** for several high-level nodes. */
static astar_mapf_problem *crossing(size_t *n) {
  astar_grid *g = NULL;
  astar_grid_new(&g, 12, 12, NULL);
  for (int y = 2; y < 10; y++)
    if (y != 6) astar_grid_set_passable(g, 6, y, false);
  astar_point s[8], t[8];
  for (int i = 0; i < 4; i++) {
    s[i] = (astar_point){0, 3 + 2 * i};
    t[i] = (astar_point){11, 9 - 2 * i};
    s[4 + i] = (astar_point){11, 2 + 2 * i};
    t[4 + i] = (astar_point){0, 8 - 2 * i};
  }
  astar_mapf_problem *p = NULL;
  astar_mapf_problem_new(&p, g, s, t, 6, NULL, NULL); /* the first six: 4 + 2 */
  astar_grid_free(g);
  *n = 6;
  return p;
}

static void test_limits_and_determinism(void) {
  size_t n;
  astar_mapf_problem *p = crossing(&n);
  CHECK(p != NULL);
  astar_mapf_solver *sv = NULL, *sv2 = NULL;
  astar_mapf_solution *a = NULL, *b = NULL;
  CHECK(astar_mapf_solver_new(&sv, NULL) == ASTAR_OK);
  CHECK(astar_mapf_solver_new(&sv2, NULL) == ASTAR_OK);
  CHECK(astar_mapf_solution_new(&a, n, NULL) == ASTAR_OK);
  CHECK(astar_mapf_solution_new(&b, n, NULL) == ASTAR_OK);
  for (int algo = 0; algo < 2; algo++) {
    astar_mapf_algo al = algo ? ASTAR_MAPF_EECBS : ASTAR_MAPF_CBS;
    astar_mapf_stats s1, s2, s3;
    CHECK_EQ(run(sv, p, al, 1.2, 2000000, a, &s1), ASTAR_OK);
    CHECK(valid(p, a));
    CHECK(s1.high_level > 1);
    CHECK(s1.bound <= (double)s1.sum_of_costs);
    if (!algo) CHECK(s1.optimal && s1.bound == (double)s1.sum_of_costs);
    /* a reused solver and a fresh one give the same paths and counts */
    CHECK_EQ(run(sv, p, al, 1.2, 2000000, b, &s2), ASTAR_OK);
    CHECK_EQ(run(sv2, p, al, 1.2, 2000000, b, &s3), ASTAR_OK);
    CHECK_EQ(s1.high_level, s2.high_level);
    CHECK_EQ(s1.low_level, s2.low_level);
    CHECK_EQ(s1.high_level, s3.high_level);
    CHECK_EQ(s1.low_level, s3.low_level);
    for (size_t i = 0; i < n; i++) {
      size_t la, lb;
      const astar_point *pa = astar_mapf_solution_path(a, i, &la);
      const astar_point *pb = astar_mapf_solution_path(b, i, &lb);
      CHECK(la == lb && la > 0 && memcmp(pa, pb, la * sizeof *pa) == 0);
    }
    /* the work limit: too little work for the first high-level node */
    astar_mapf_stats s4;
    CHECK_EQ(run(sv, p, al, 1.2, 5, a, &s4), ASTAR_LIMIT_REACHED);
    CHECK(!s4.solved);
    CHECK(s4.bound <= (double)s1.sum_of_costs);
    /* just short of what the solve needs */
    uint64_t need = s1.high_level + s1.low_level;
    CHECK_EQ(run(sv, p, al, 1.2, need / 2, a, &s4), ASTAR_LIMIT_REACHED);
  }
  astar_mapf_solution_free(a);
  astar_mapf_solution_free(b);
  astar_mapf_solver_free(sv);
  astar_mapf_solver_free(sv2);
  astar_mapf_problem_free(p);
}

/* A generated 32 x 32 map (seeded obstacles, 20%) with 30 agents from
** astar_mapf_random_instance: EECBS within 1.2 of its bound, CBS optimal
** with fewer agents. */
static void test_generated_map(void) {
  astar_grid *g = NULL;
  CHECK(astar_grid_new(&g, 32, 32, NULL) == ASTAR_OK);
  rng_state = 77;
  for (int y = 0; y < 32; y++)
    for (int x = 0; x < 32; x++)
      if (rnd(5) == 0) astar_grid_set_passable(g, x, y, false);
  astar_point s[30], t[30];
  CHECK(astar_mapf_random_instance(g, 5, 30, s, t, NULL) == ASTAR_OK);
  astar_mapf_solver *sv = NULL;
  CHECK(astar_mapf_solver_new(&sv, NULL) == ASTAR_OK);
  for (int k = 0; k < 2; k++) {
    size_t n = k ? 30 : 12;
    astar_mapf_problem *p = NULL;
    CHECK(astar_mapf_problem_new(&p, g, s, t, n, NULL, NULL) == ASTAR_OK);
    astar_mapf_solution *out = NULL;
    CHECK(astar_mapf_solution_new(&out, n, NULL) == ASTAR_OK);
    astar_mapf_stats st;
    astar_mapf_options o;
    astar_mapf_options_init(&o);
    o.algo = k ? ASTAR_MAPF_EECBS : ASTAR_MAPF_CBS;
    o.w = 1.2;
    o.max_work = 20000000;
    CHECK_EQ(astar_mapf_solve(sv, p, &o, out, &st), ASTAR_OK);
    CHECK(valid(p, out));
    CHECK(st.bound >= (double)st.lower_bound);
    CHECK((double)st.sum_of_costs <= (k ? 1.2 : 1.0) * st.bound + 1e-9);
    astar_mapf_solution_free(out);
    astar_mapf_problem_free(p);
  }
  astar_mapf_solver_free(sv);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_goal_holding);
  RUN(test_against_reference);
  RUN(test_no_path);
  RUN(test_limits_and_determinism);
  RUN(test_generated_map);
  return check_summary();
}
