/*
** test_mapf.c -- multi-agent pathfinding, the shared part (astar/mapf.h,
** issue 29 item 1): the problem, random instances, the lower bound,
** solutions and their costs, the validator against planted faults of
** every kind, the options' ranges, the brute-force reference
** (tests/mapf_ref.h) on hand-worked cases, the prioritised baseline
** checked by the validator, limits and allocation failures.
*/
#include "check.h"
#include "mapf/mapf.h" /* the distance tables, tested directly */
#include "mapf_ref.h"
#include "util/failalloc.h"
#include "util/randmap.h"

#include <astar/astar.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define P(x, y) ((astar_point){(x), (y)})

static astar_mapf_problem *make_problem(const char *const *rows, int32_t h, size_t n,
                                        const astar_point *starts, const astar_point *goals) {
  astar_grid *g = randmap_from_rows(rows, h, '#');
  astar_mapf_problem *p = NULL;
  if (g) astar_mapf_problem_new(&p, g, starts, goals, n, NULL, NULL);
  astar_grid_free(g);
  return p;
}

static void set_path(astar_mapf_solution *s, size_t agent, const astar_point *path, size_t len) {
  CHECK_EQ(astar_mapf_solution_set_path(s, agent, path, len), ASTAR_OK);
}

static astar_mapf_report check_two(astar_mapf_problem *p, const astar_point *a, size_t na,
                                   const astar_point *b, size_t nb) {
  astar_mapf_solution *s = NULL;
  CHECK_EQ(astar_mapf_solution_new(&s, 2, NULL), ASTAR_OK);
  set_path(s, 0, a, na);
  set_path(s, 1, b, nb);
  astar_mapf_report r;
  memset(&r, 0x5a, sizeof r);
  CHECK_EQ(astar_mapf_check(p, s, &r, NULL), ASTAR_OK);
  astar_mapf_solution_free(s);
  return r;
}

static void expect(astar_mapf_report r, astar_mapf_fault fault, uint32_t agent, uint32_t other,
                   uint32_t time, astar_point cell) {
  CHECKF(r.fault == fault, "fault %s, expected %s", astar_mapf_fault_name(r.fault),
         astar_mapf_fault_name(fault));
  CHECK_EQ(r.agent, agent);
  CHECK_EQ(r.other, other);
  CHECK_EQ(r.time, time);
  CHECK_EQ(r.cell.x, cell.x);
  CHECK_EQ(r.cell.y, cell.y);
}

static const char *const open3[] = {"...", "...", "..."};

/* ---- the problem ------------------------------------------------------------------------ */

static void test_problem(void) {
  static const char *const rows[] = {"....", ".#..", "...."};
  astar_grid *g = randmap_from_rows(rows, 3, '#');
  astar_mapf_problem *p = NULL;
  size_t bad = 0;
  astar_point s[3] = {P(0, 0), P(3, 2), P(2, 1)}, t[3] = {P(3, 2), P(0, 0), P(2, 1)};
  CHECK_EQ(astar_mapf_problem_new(&p, g, s, t, 3, &bad, NULL), ASTAR_OK);
  CHECK_EQ(bad, SIZE_MAX);
  CHECK_EQ(astar_mapf_problem_agents(p), 3);
  CHECK_EQ(astar_mapf_problem_width(p), 4);
  CHECK_EQ(astar_mapf_problem_height(p), 3);
  CHECK_EQ(astar_mapf_problem_start(p, 1).x, 3);
  CHECK_EQ(astar_mapf_problem_goal(p, 0).y, 2);
  CHECK_EQ(astar_mapf_problem_start(p, 3).x, -1);
  CHECK(!astar_mapf_problem_passable(p, 1, 1));
  CHECK(astar_mapf_problem_passable(p, 2, 1));
  CHECK(!astar_mapf_problem_passable(p, 4, 1));
  CHECK(astar_mapf_problem_memory(p) > 12);
  uint64_t lb = 0;
  CHECK_EQ(astar_mapf_lower_bound(p, &lb, NULL, NULL), ASTAR_OK);
  CHECK_EQ(lb, 10);
  astar_mapf_problem_free(p);

  /* refusals name the agent */
  astar_point s2[3] = {P(0, 0), P(3, 2), P(0, 0)};
  CHECK_EQ(astar_mapf_problem_new(&p, g, s2, t, 3, &bad, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK(p == NULL);
  CHECK_EQ(bad, 2);
  astar_point t2[3] = {P(3, 2), P(3, 2), P(2, 1)};
  CHECK_EQ(astar_mapf_problem_new(&p, g, s, t2, 3, &bad, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(bad, 1);
  astar_point s3[3] = {P(0, 0), P(1, 1), P(2, 1)};
  CHECK_EQ(astar_mapf_problem_new(&p, g, s3, t, 3, &bad, NULL), ASTAR_START_BLOCKED);
  CHECK_EQ(bad, 1);
  astar_point t3[3] = {P(3, 2), P(0, 0), P(1, 1)};
  CHECK_EQ(astar_mapf_problem_new(&p, g, s, t3, 3, &bad, NULL), ASTAR_GOAL_BLOCKED);
  CHECK_EQ(bad, 2);
  astar_point s4[3] = {P(0, 0), P(3, 2), P(4, 0)};
  CHECK_EQ(astar_mapf_problem_new(&p, g, s4, t, 3, &bad, NULL), ASTAR_OUT_OF_BOUNDS);
  CHECK_EQ(bad, 2);
  CHECK_EQ(astar_mapf_problem_new(&p, g, s, t, 0, &bad, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(bad, SIZE_MAX);
  CHECK_EQ(astar_mapf_problem_new(&p, NULL, s, t, 3, NULL, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_mapf_problem_new(NULL, g, s, t, 3, NULL, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_mapf_problem_new(&p, g, s, t, ASTAR_MAPF_MAX_AGENTS + 1, NULL, NULL),
           ASTAR_INVALID_ARGUMENT);

  /* an unreachable goal: no lower bound, the agent named */
  static const char *const cut[] = {"..#.."};
  astar_mapf_problem *q =
      make_problem(cut, 1, 2, (astar_point[]){P(0, 0), P(3, 0)}, (astar_point[]){P(1, 0), P(0, 0)});
  size_t who = 0;
  CHECK_EQ(astar_mapf_lower_bound(q, &lb, &who, NULL), ASTAR_NO_PATH);
  CHECK_EQ(who, 1);
  astar_mapf_problem_free(q);
  astar_mapf_problem_free(NULL);
  astar_grid_free(g);
}

/* ---- the lower bound against a BFS written here ------------------------------------------- */

static int32_t bfs_ref(const astar_grid *g, astar_point a, astar_point b) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  int32_t *d = malloc((size_t)w * (size_t)h * sizeof *d);
  int32_t *q = malloc((size_t)w * (size_t)h * sizeof *q);
  for (int32_t i = 0; i < w * h; i++) d[i] = -1;
  int32_t head = 0, tail = 0;
  d[a.y * w + a.x] = 0;
  q[tail++] = a.y * w + a.x;
  while (head < tail) {
    const int32_t u = q[head++], x = u % w, y = u / w;
    const int32_t nx[4] = {x, x + 1, x, x - 1}, ny[4] = {y - 1, y, y + 1, y};
    for (int k = 0; k < 4; k++) {
      if (nx[k] < 0 || ny[k] < 0 || nx[k] >= w || ny[k] >= h ||
          !astar_grid_passable(g, nx[k], ny[k]) || d[ny[k] * w + nx[k]] >= 0)
        continue;
      d[ny[k] * w + nx[k]] = d[u] + 1;
      q[tail++] = ny[k] * w + nx[k];
    }
  }
  const int32_t r = d[b.y * w + b.x];
  free(d);
  free(q);
  return r;
}

/* The largest 4-connected component, by the documented rule: label[] per
** cell (0: blocked, k + 1: component k), returns the winning label (the
** first found among the largest). */
static int32_t components_ref(const astar_grid *g, int32_t *label, int32_t *size_out) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  int32_t *q = calloc((size_t)w * (size_t)h, sizeof *q);
  int32_t best = 0, best_size = 0, next = 1;
  for (int32_t c = 0; c < w * h; c++) {
    if (label[c] != 0 || !astar_grid_passable(g, c % w, c / w)) continue;
    int32_t head = 0, tail = 0;
    label[c] = next;
    q[tail++] = c;
    while (head < tail) {
      const int32_t u = q[head++], x = u % w, y = u / w;
      const int32_t nx[4] = {x, x + 1, x, x - 1}, ny[4] = {y - 1, y, y + 1, y};
      for (int k = 0; k < 4; k++) {
        if (nx[k] < 0 || ny[k] < 0 || nx[k] >= w || ny[k] >= h ||
            !astar_grid_passable(g, nx[k], ny[k]) || label[ny[k] * w + nx[k]] != 0)
          continue;
        label[ny[k] * w + nx[k]] = next;
        q[tail++] = ny[k] * w + nx[k];
      }
    }
    if (tail > best_size) {
      best_size = tail;
      best = next;
    }
    next++;
  }
  free(q);
  *size_out = best_size;
  return best;
}

static void test_random_and_lower_bound(void) {
  rng r;
  rng_seed(&r, 29);
  for (int round = 0; round < 40; round++) {
    randmap_spec spec = {rng_range(&r, 4, 24), rng_range(&r, 4, 24), 0.3, 0, 1, 1};
    astar_grid *g = NULL;
    CHECK_EQ(randmap_make(&g, &spec, &r), ASTAR_OK);
    const int32_t w = spec.width;
    int32_t *label = calloc((size_t)spec.width * (size_t)spec.height, sizeof *label);
    int32_t size = 0;
    const int32_t best = components_ref(g, label, &size);
    if (size < 2) {
      free(label);
      astar_grid_free(g);
      continue;
    }
    const size_t n = (size_t)rng_range(&r, 1, size < 12 ? size : 12);
    astar_point s[12], t[12], s2[12], t2[12], s3[12], t3[12];
    const uint64_t seed = rng_next(&r);
    CHECK_EQ(astar_mapf_random_instance(g, seed, n, s, t, NULL), ASTAR_OK);
    CHECK_EQ(astar_mapf_random_instance(g, seed, n, s2, t2, NULL), ASTAR_OK);
    CHECK(memcmp(s, s2, n * sizeof *s) == 0 && memcmp(t, t2, n * sizeof *t) == 0);
    CHECK_EQ(astar_mapf_random_instance(g, seed + 1, n, s3, t3, NULL), ASTAR_OK);
    if (size >= 8 && n >= 4)
      CHECK(memcmp(s, s3, n * sizeof *s) != 0 || memcmp(t, t3, n * sizeof *t) != 0);
    for (size_t i = 0; i < n; i++) {
      CHECK_EQ(label[s[i].y * w + s[i].x], best);
      CHECK_EQ(label[t[i].y * w + t[i].x], best);
      for (size_t j = 0; j < i; j++) {
        CHECK(s[i].x != s[j].x || s[i].y != s[j].y);
        CHECK(t[i].x != t[j].x || t[i].y != t[j].y);
      }
    }
    astar_mapf_problem *p = NULL;
    CHECK_EQ(astar_mapf_problem_new(&p, g, s, t, n, NULL, NULL), ASTAR_OK);
    uint64_t lb = 0, want = 0;
    for (size_t i = 0; i < n; i++) want += (uint64_t)bfs_ref(g, s[i], t[i]);
    CHECK_EQ(astar_mapf_lower_bound(p, &lb, NULL, NULL), ASTAR_OK);
    CHECK_EQ(lb, want);
    astar_mapf_problem_free(p);
    free(label);
    astar_grid_free(g);
  }
  /* n larger than the component; a tie between two equal components: the
  ** one holding the smallest cell */
  static const char *const two[] = {"..#..", "..#..", "#####"};
  astar_grid *g = randmap_from_rows(two, 3, '#');
  astar_point s[5], t[5];
  CHECK_EQ(astar_mapf_random_instance(g, 1, 5, s, t, NULL), ASTAR_TOO_LARGE);
  for (uint64_t seed = 0; seed < 20; seed++) {
    CHECK_EQ(astar_mapf_random_instance(g, seed, 4, s, t, NULL), ASTAR_OK);
    for (int i = 0; i < 4; i++) CHECK(s[i].x < 2 && t[i].x < 2);
  }
  CHECK_EQ(astar_mapf_random_instance(NULL, 1, 1, s, t, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_mapf_random_instance(g, 1, 0, s, t, NULL), ASTAR_INVALID_ARGUMENT);
  astar_grid_free(g);
}

/* A fixed seed names a fixed instance on every platform. */
static void test_random_golden(void) {
  astar_grid *g = NULL;
  CHECK_EQ(astar_grid_new(&g, 8, 8, NULL), ASTAR_OK);
  astar_point s[3], t[3];
  CHECK_EQ(astar_mapf_random_instance(g, 12345, 3, s, t, NULL), ASTAR_OK);
  /* splitmix64 -> xoshiro256**, partial Fisher-Yates over the sorted cells */
  const astar_point ws[3] = {P(3, 3), P(1, 5), P(0, 4)}, wt[3] = {P(3, 6), P(6, 4), P(6, 5)};
  CHECK(memcmp(s, ws, sizeof ws) == 0);
  CHECK(memcmp(t, wt, sizeof wt) == 0);
  astar_grid_free(g);
}

/* ---- solutions --------------------------------------------------------------------------- */

static void test_solution_costs(void) {
  astar_mapf_solution *s = NULL;
  CHECK_EQ(astar_mapf_solution_new(&s, 4, NULL), ASTAR_OK);
  CHECK_EQ(astar_mapf_solution_agents(s), 4);
  const astar_point waits[] = {P(0, 0), P(1, 0), P(1, 0), P(1, 0)};
  const astar_point passes[] = {P(1, 0), P(0, 0), P(1, 0)};
  const astar_point stays[] = {P(2, 2), P(2, 2), P(2, 2)};
  set_path(s, 0, waits, 4);
  set_path(s, 1, passes, 3);
  set_path(s, 2, stays, 3);
  CHECK_EQ(astar_mapf_solution_cost(s, 0), 1);
  CHECK_EQ(astar_mapf_solution_cost(s, 1), 2);
  CHECK_EQ(astar_mapf_solution_cost(s, 2), 0);
  CHECK_EQ(astar_mapf_solution_cost(s, 3), 0);
  CHECK_EQ(astar_mapf_solution_cost(s, 9), 0);
  CHECK_EQ(astar_mapf_solution_sum_of_costs(s), 3);
  CHECK_EQ(astar_mapf_solution_makespan(s), 2);
  size_t len = 9;
  const astar_point *q = astar_mapf_solution_path(s, 1, &len);
  CHECK_EQ(len, 3);
  CHECK(q && q[1].x == 0);
  CHECK(astar_mapf_solution_path(s, 3, &len) == NULL && len == 0);
  CHECK(astar_mapf_solution_path(s, 4, &len) == NULL && len == 0);
  /* a long path, then a short one (the store is kept) */
  astar_point longp[300];
  for (int i = 0; i < 300; i++) longp[i] = P(i, 0);
  set_path(s, 3, longp, 300);
  CHECK_EQ(astar_mapf_solution_cost(s, 3), 299);
  set_path(s, 3, longp, 2);
  CHECK_EQ(astar_mapf_solution_cost(s, 3), 1);
  CHECK_EQ(astar_mapf_solution_set_path(s, 4, longp, 1), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_mapf_solution_set_path(s, 0, NULL, 1), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_mapf_solution_set_path(s, 0, NULL, 0), ASTAR_OK);
  CHECK_EQ(astar_mapf_solution_cost(s, 0), 0);
  astar_mapf_solution_clear(s);
  CHECK_EQ(astar_mapf_solution_sum_of_costs(s), 0);
  astar_mapf_solution_free(s);
  astar_mapf_solution_free(NULL);
  CHECK_EQ(astar_mapf_solution_new(&s, 0, NULL), ASTAR_INVALID_ARGUMENT);
  CHECK(s == NULL);
}

/* ---- the validator: planted faults --------------------------------------------------------- */

static void test_check_faults(void) {
  astar_mapf_report r;
  /* valid: a cross where one agent waits for the other */
  astar_mapf_problem *p = make_problem(open3, 3, 2, (astar_point[]){P(0, 1), P(1, 0)},
                                       (astar_point[]){P(2, 1), P(1, 2)});
  {
    const astar_point a[] = {P(0, 1), P(1, 1), P(2, 1)};
    const astar_point b[] = {P(1, 0), P(1, 0), P(1, 1), P(1, 2)};
    r = check_two(p, a, 3, b, 4);
    expect(r, ASTAR_MAPF_VALID, UINT32_MAX, UINT32_MAX, 0, P(-1, -1));
    CHECK_EQ(r.sum_of_costs, 5);
    CHECK_EQ(r.makespan, 3);
  }
  { /* vertex: both enter the centre at t = 1 */
    const astar_point a[] = {P(0, 1), P(1, 1), P(2, 1)};
    const astar_point b[] = {P(1, 0), P(1, 1), P(1, 2)};
    expect(check_two(p, a, 3, b, 3), ASTAR_MAPF_VERTEX_CONFLICT, 0, 1, 1, P(1, 1));
  }
  { /* start */
    const astar_point a[] = {P(0, 0), P(1, 0), P(2, 0), P(2, 1)};
    const astar_point b[] = {P(1, 0), P(1, 1), P(1, 2)};
    expect(check_two(p, a, 4, b, 3), ASTAR_MAPF_WRONG_START, 0, UINT32_MAX, 0, P(0, 0));
  }
  { /* goal: agent 1 stops short at t = 1; agent 0 fine */
    const astar_point a[] = {P(0, 1), P(0, 2), P(1, 2), P(2, 2), P(2, 1)};
    const astar_point b[] = {P(1, 0), P(1, 1)};
    expect(check_two(p, a, 5, b, 2), ASTAR_MAPF_WRONG_GOAL, 1, UINT32_MAX, 1, P(1, 1));
  }
  { /* illegal move: a jump, then a diagonal */
    const astar_point a[] = {P(0, 1), P(2, 1)};
    const astar_point b[] = {P(1, 0), P(1, 0), P(1, 1), P(1, 2)};
    expect(check_two(p, a, 2, b, 4), ASTAR_MAPF_ILLEGAL_MOVE, 0, UINT32_MAX, 1, P(2, 1));
    const astar_point c[] = {P(1, 0), P(1, 0), P(2, 1), P(1, 2)};
    const astar_point a2[] = {P(0, 1), P(0, 2), P(1, 2), P(2, 2), P(2, 1)};
    /* agent 1's diagonal at t = 2 and 0's nothing */
    expect(check_two(p, a2, 5, c, 4), ASTAR_MAPF_ILLEGAL_MOVE, 1, UINT32_MAX, 2, P(2, 1));
  }
  { /* off the map */
    const astar_point a[] = {P(0, 1), P(-1, 1), P(0, 1), P(1, 1), P(2, 1)};
    const astar_point b[] = {P(1, 0), P(1, 0), P(1, 0), P(1, 0), P(1, 1), P(1, 2)};
    expect(check_two(p, a, 5, b, 6), ASTAR_MAPF_OFF_MAP, 0, UINT32_MAX, 1, P(-1, 1));
  }
  { /* goal holding: agent 0 arrives at t = 1 and stays; 1 enters at t = 3 */
    astar_mapf_problem *q = make_problem(open3, 3, 2, (astar_point[]){P(0, 1), P(1, 0)},
                                         (astar_point[]){P(1, 1), P(1, 2)});
    const astar_point a[] = {P(0, 1), P(1, 1)};
    const astar_point b[] = {P(1, 0), P(0, 0), P(1, 0), P(1, 1), P(1, 2)};
    expect(check_two(q, a, 2, b, 5), ASTAR_MAPF_GOAL_CONFLICT, 1, 0, 3, P(1, 1));
    /* passing through before the other arrives is fine */
    const astar_point a2[] = {P(0, 1), P(0, 1), P(0, 1), P(1, 1)};
    const astar_point b2[] = {P(1, 0), P(1, 1), P(1, 2)};
    expect(check_two(q, a2, 4, b2, 3), ASTAR_MAPF_VALID, UINT32_MAX, UINT32_MAX, 0, P(-1, -1));
    /* following (1 enters the cell 0 leaves) is allowed */
    astar_mapf_problem_free(q);
    q = make_problem(open3, 3, 2, (astar_point[]){P(0, 0), P(1, 0)},
                     (astar_point[]){P(0, 2), P(1, 2)});
    const astar_point f0[] = {P(0, 0), P(0, 1), P(0, 2)};
    const astar_point f1[] = {P(1, 0), P(0, 0), P(0, 1), P(1, 1), P(1, 2)};
    expect(check_two(q, f0, 3, f1, 5), ASTAR_MAPF_VALID, UINT32_MAX, UINT32_MAX, 0, P(-1, -1));
    astar_mapf_problem_free(q);
    /* the holder has the larger number */
    q = make_problem(open3, 3, 2, (astar_point[]){P(1, 0), P(0, 1)},
                     (astar_point[]){P(1, 2), P(1, 1)});
    expect(check_two(q, b, 5, a, 2), ASTAR_MAPF_GOAL_CONFLICT, 0, 1, 3, P(1, 1));
    astar_mapf_problem_free(q);
  }
  astar_mapf_problem_free(p);

  { /* swap in a corridor; cell: where agent 0 is at the step's end */
    static const char *const corr[] = {"...."};
    astar_mapf_problem *q = make_problem(corr, 1, 2, (astar_point[]){P(1, 0), P(2, 0)},
                                         (astar_point[]){P(2, 0), P(1, 0)});
    const astar_point a[] = {P(1, 0), P(2, 0)};
    const astar_point b[] = {P(2, 0), P(1, 0)};
    expect(check_two(q, a, 2, b, 2), ASTAR_MAPF_SWAP_CONFLICT, 0, 1, 1, P(2, 0));
    astar_mapf_problem_free(q);
    /* blocked cell */
    static const char *const wall[] = {".#.", "..."};
    q = make_problem(wall, 2, 2, (astar_point[]){P(0, 0), P(2, 1)},
                     (astar_point[]){P(2, 0), P(0, 1)});
    const astar_point c[] = {P(0, 0), P(1, 0), P(2, 0)};
    const astar_point d[] = {P(2, 1), P(1, 1), P(0, 1)};
    expect(check_two(q, c, 3, d, 3), ASTAR_MAPF_OFF_MAP, 0, UINT32_MAX, 1, P(1, 0));
    astar_mapf_problem_free(q);
  }
  { /* order: the earliest time first, then the smaller agent */
    astar_mapf_problem *q = make_problem(open3, 3, 3, (astar_point[]){P(0, 0), P(2, 0), P(0, 2)},
                                         (astar_point[]){P(2, 2), P(2, 1), P(1, 2)});
    astar_mapf_solution *s = NULL;
    CHECK_EQ(astar_mapf_solution_new(&s, 3, NULL), ASTAR_OK);
    /* agent 2 jumps at t = 1; agents 0 and 1 collide at (1, 0) at t = 1; agent 0
    ** also has a wrong goal later. At t = 1 agent 0 (the conflict's) wins. */
    set_path(s, 0, (astar_point[]){P(0, 0), P(1, 0), P(1, 1)}, 3);
    set_path(s, 1, (astar_point[]){P(2, 0), P(1, 0), P(2, 0), P(2, 1)}, 4);
    set_path(s, 2, (astar_point[]){P(0, 2), P(2, 2), P(1, 2)}, 3);
    CHECK_EQ(astar_mapf_check(q, s, &r, NULL), ASTAR_OK);
    expect(r, ASTAR_MAPF_VERTEX_CONFLICT, 0, 1, 1, P(1, 0));
    /* without the conflict the jump of agent 2 at t = 1 comes before 0's goal at 2 */
    set_path(s, 1, (astar_point[]){P(2, 0), P(2, 1)}, 2);
    CHECK_EQ(astar_mapf_check(q, s, &r, NULL), ASTAR_OK);
    expect(r, ASTAR_MAPF_ILLEGAL_MOVE, 2, UINT32_MAX, 1, P(2, 2));
    /* an empty path; the agent count */
    CHECK_EQ(astar_mapf_solution_set_path(s, 1, NULL, 0), ASTAR_OK);
    CHECK_EQ(astar_mapf_check(q, s, &r, NULL), ASTAR_OK);
    expect(r, ASTAR_MAPF_EMPTY_PATH, 1, UINT32_MAX, 0, P(-1, -1));
    astar_mapf_solution_free(s);
    CHECK_EQ(astar_mapf_solution_new(&s, 2, NULL), ASTAR_OK);
    CHECK_EQ(astar_mapf_check(q, s, &r, NULL), ASTAR_OK);
    expect(r, ASTAR_MAPF_AGENT_COUNT, UINT32_MAX, UINT32_MAX, 0, P(-1, -1));
    CHECK_EQ(astar_mapf_check(NULL, s, &r, NULL), ASTAR_INVALID_ARGUMENT);
    CHECK_EQ(astar_mapf_check(q, s, NULL, NULL), ASTAR_INVALID_ARGUMENT);
    astar_mapf_solution_free(s);
    astar_mapf_problem_free(q);
  }
  for (int f = 0; f <= ASTAR_MAPF_FAULT_COUNT; f++)
    CHECK(astar_mapf_fault_name((astar_mapf_fault)f) != NULL);
  CHECK(strcmp(astar_mapf_fault_name(ASTAR_MAPF_SWAP_CONFLICT), "swap conflict") == 0);
  CHECK(strcmp(astar_mapf_fault_name(ASTAR_MAPF_FAULT_COUNT), "unknown fault") == 0);
}

/* ---- the reference on hand-worked cases --------------------------------------------------- */

static long long ref_of(const char *const *rows, int32_t h, size_t n, const astar_point *s,
                        const astar_point *t) {
  astar_mapf_problem *p = make_problem(rows, h, n, s, t);
  const long long v = p ? mapf_ref_optimal_soc(p) : -3;
  astar_mapf_problem_free(p);
  return v;
}

static void test_reference(void) {
  /* a corridor with a side pocket under x = 1: one agent steps aside (2
  ** extra moves), the other goes straight: 5 + 3 */
  static const char *const pocket[] = {"....", "#.##"};
  CHECK_EQ(
      ref_of(pocket, 2, 2, (astar_point[]){P(0, 0), P(3, 0)}, (astar_point[]){P(3, 0), P(0, 0)}),
      8);
  /* the same without the pocket: unsolvable */
  static const char *const corr[] = {"...."};
  CHECK_EQ(ref_of(corr, 1, 2, (astar_point[]){P(0, 0), P(3, 0)}, (astar_point[]){P(3, 0), P(0, 0)}),
           -1);
  /* a goal on the other's only way: unsolvable (goal holding) */
  CHECK_EQ(ref_of(corr, 1, 2, (astar_point[]){P(0, 0), P(1, 0)}, (astar_point[]){P(3, 0), P(2, 0)}),
           -1);
  /* ... but with the order right it is free: the lower bound */
  CHECK_EQ(ref_of(corr, 1, 2, (astar_point[]){P(1, 0), P(0, 0)}, (astar_point[]){P(3, 0), P(2, 0)}),
           4);
  /* the cross: both need the centre at t = 1; one waits */
  CHECK_EQ(
      ref_of(open3, 3, 2, (astar_point[]){P(0, 1), P(1, 0)}, (astar_point[]){P(2, 1), P(1, 2)}), 5);
  /* an agent already at its goal that must step aside and come back (+2) */
  static const char *const tee[] = {"...", "#.#"};
  CHECK_EQ(ref_of(tee, 2, 2, (astar_point[]){P(1, 0), P(0, 0)}, (astar_point[]){P(1, 0), P(2, 0)}),
           4);
  /* four agents rotating round a 2 x 2 block: no swaps, all move at once */
  static const char *const sq[] = {"..", ".."};
  CHECK_EQ(ref_of(sq, 2, 4, (astar_point[]){P(0, 0), P(1, 0), P(1, 1), P(0, 1)},
                  (astar_point[]){P(1, 0), P(1, 1), P(0, 1), P(0, 0)}),
           4);
  /* three in a 2 x 2 block rotating: 3 */
  CHECK_EQ(ref_of(sq, 2, 3, (astar_point[]){P(0, 0), P(1, 0), P(1, 1)},
                  (astar_point[]){P(1, 0), P(1, 1), P(0, 1)}),
           3);
  /* two in a 2-cell world swapping: impossible */
  static const char *const two[] = {".."};
  CHECK_EQ(ref_of(two, 1, 2, (astar_point[]){P(0, 0), P(1, 0)}, (astar_point[]){P(1, 0), P(0, 0)}),
           -1);
}

/* ---- options ------------------------------------------------------------------------------- */

static void test_options(void) {
  astar_mapf_options o;
  astar_mapf_options_init(&o);
  CHECK_EQ(o.algo, ASTAR_MAPF_LACAM_STAR);
  CHECK(o.w == 1.2 && o.time_limit == 0 && o.max_work == 0 && o.window == 0 && !o.clock);
  for (int a = 0; a < ASTAR_MAPF_ALGO_COUNT; a++) {
    const astar_mapf_algo_info *info = astar_mapf_algo_info_get((astar_mapf_algo)a);
    CHECK(info && info->name && info->summary);
    astar_mapf_algo back = ASTAR_MAPF_ALGO_COUNT;
    CHECK_EQ(astar_mapf_algo_from_name(info->name, &back), ASTAR_OK);
    CHECK_EQ((int)back, a);
  }
  CHECK(astar_mapf_algo_info_get(ASTAR_MAPF_ALGO_COUNT) == NULL);
  CHECK(astar_mapf_algo_info_get((astar_mapf_algo)-1) == NULL);
  astar_mapf_algo algo = ASTAR_MAPF_CBS;
  CHECK_EQ(astar_mapf_algo_from_name("PIBT", &algo), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_mapf_algo_from_name("lacam*", &algo), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(algo, ASTAR_MAPF_CBS);
  CHECK_EQ(astar_mapf_algo_from_name(NULL, &algo), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_mapf_algo_from_name("cbs", NULL), ASTAR_INVALID_ARGUMENT);
  static const char *const names[] = {"pibt", "lacam", "lacam-star", "cbs", "eecbs", "prioritized"};
  for (int a = 0; a < 6; a++) CHECK(strcmp(astar_mapf_algo_info_get(a)->name, names[a]) == 0);

  astar_mapf_problem *p = make_problem(open3, 3, 2, (astar_point[]){P(0, 1), P(1, 0)},
                                       (astar_point[]){P(2, 1), P(1, 2)});
  astar_mapf_solver *sv = NULL;
  astar_mapf_solution *out = NULL, *wrong = NULL;
  CHECK_EQ(astar_mapf_solver_new(&sv, NULL), ASTAR_OK);
  CHECK_EQ(astar_mapf_solution_new(&out, 2, NULL), ASTAR_OK);
  CHECK_EQ(astar_mapf_solution_new(&wrong, 3, NULL), ASTAR_OK);
  astar_mapf_stats st;
  struct {
    int field;
    double v;
  } bad[] = {{0, 0.999}, {0, 1000.5}, {0, NAN},  {1, -0.1},
             {1, 1.1e6}, {1, NAN},    {2, 1e12}, {3, 1e12}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    astar_mapf_options_init(&o);
    o.algo = ASTAR_MAPF_PRIORITIZED;
    if (bad[i].field == 0) o.w = bad[i].v;
    if (bad[i].field == 1) o.time_limit = bad[i].v;
    if (bad[i].field == 2) o.max_steps = (1u << 28) + 1;
    if (bad[i].field == 3) o.window = (1u << 28) + 1;
    CHECKF(astar_mapf_solve(sv, p, &o, out, &st) == ASTAR_INVALID_ARGUMENT, "case %zu", i);
    CHECK(!st.solved);
  }
  astar_mapf_options_init(&o);
  o.algo = ASTAR_MAPF_ALGO_COUNT;
  CHECK_EQ(astar_mapf_solve(sv, p, &o, out, &st), ASTAR_INVALID_ARGUMENT);
  o.algo = ASTAR_MAPF_PRIORITIZED;
  CHECK_EQ(astar_mapf_solve(sv, p, &o, wrong, &st), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_mapf_solve(NULL, p, &o, out, &st), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(astar_mapf_solve(sv, NULL, &o, out, NULL), ASTAR_INVALID_ARGUMENT);
  /* the edges of the ranges are accepted */
  o.w = 1000;
  o.time_limit = 1e6;
  o.max_steps = 1u << 28;
  CHECK(astar_mapf_solve(sv, p, &o, out, &st) != ASTAR_INVALID_ARGUMENT);
  o.w = 1;
  o.time_limit = 0;
  CHECK(astar_mapf_solve(sv, p, &o, out, &st) != ASTAR_INVALID_ARGUMENT);
  astar_mapf_solution_free(out);
  astar_mapf_solution_free(wrong);
  astar_mapf_solver_free(sv);
  astar_mapf_problem_free(p);
}

/* ---- the lazy distance tables -------------------------------------------------------------- */

static void test_dist(void) {
  rng r;
  rng_seed(&r, 7);
  astar_mapf_solver *sv = NULL;
  CHECK_EQ(astar_mapf_solver_new(&sv, NULL), ASTAR_OK);
  const size_t base = astar_mapf_solver_memory(sv);
  for (int round = 0; round < 20; round++) {
    randmap_spec spec = {rng_range(&r, 3, 30), rng_range(&r, 3, 30), 0.3, 0, 1, 1};
    astar_grid *g = NULL;
    CHECK_EQ(randmap_make(&g, &spec, &r), ASTAR_OK);
    astar_point s[4], t[4];
    if (astar_mapf_random_instance(g, (uint64_t)round, 4, s, t, NULL) != ASTAR_OK) {
      astar_grid_free(g);
      continue;
    }
    astar_mapf_problem *p = NULL;
    CHECK_EQ(astar_mapf_problem_new(&p, g, s, t, 4, NULL, NULL), ASTAR_OK);
    astar_mapf_options o;
    astar_mapf_options_init(&o);
    astar_mapf_stats stats;
    memset(&stats, 0, sizeof stats);
    mapf_ctx c;
    memset(&c, 0, sizeof c);
    c.p = p;
    c.o = &o;
    c.solver = sv;
    c.stats = &stats;
    CHECK_EQ(mapf_dist_new(&c), ASTAR_OK);
    /* questions in a random order, so the resumed searches are exercised */
    const int32_t w = spec.width, h = spec.height;
    for (int k = 0; k < 4 * w * h; k++) {
      const uint32_t agent = (uint32_t)rng_range(&r, 0, 3);
      const astar_point q = P(rng_range(&r, 0, w - 1), rng_range(&r, 0, h - 1));
      astar_status st = ASTAR_OK;
      const uint32_t d = mapf_dist_get(&c, agent, (uint32_t)(q.y * w + q.x), &st);
      CHECK_EQ(st, ASTAR_OK);
      int32_t want = astar_grid_passable(g, q.x, q.y) ? bfs_ref(g, t[agent], q) : -1;
      if (want < 0) {
        if (d != MAPF_DIST_INF) FAILF("agent %u cell %d,%d: %u, want none", agent, q.x, q.y, d);
      } else if (d != (uint32_t)want) {
        FAILF("agent %u cell %d,%d: %u, want %d", agent, q.x, q.y, d, want);
      }
    }
    CHECK(astar_mapf_solver_memory(sv) > base);
    mapf_dist_free(&c);
    CHECK_EQ(astar_mapf_solver_memory(sv), base);
    astar_mapf_problem_free(p);
    astar_grid_free(g);
  }
  astar_mapf_solver_free(sv);
}

/* Scratch slots: kept, grown, capped by max_memory -- the cap refuses
** only what does not fit, and only a refusal stops the solve. */
static void test_scratch(void) {
  astar_mapf_solver *sv = NULL;
  CHECK_EQ(astar_mapf_solver_new(&sv, NULL), ASTAR_OK);
  const size_t base = astar_mapf_solver_memory(sv);
  astar_mapf_options o;
  astar_mapf_options_init(&o);
  o.max_memory = base + 700;
  astar_mapf_stats stats;
  memset(&stats, 0, sizeof stats);
  mapf_ctx c;
  memset(&c, 0, sizeof c);
  c.o = &o;
  c.solver = sv;
  c.stats = &stats;
  astar_status st = ASTAR_OK;
  unsigned char *a = mapf_scratch(&c, 3, 600, &st);
  CHECK(a != NULL && st == ASTAR_OK);
  memset(a, 7, 600);
  /* 1.5 x 600 would not fit; 650 does */
  unsigned char *b = mapf_scratch(&c, 3, 650, &st);
  CHECK(b != NULL && st == ASTAR_OK);
  CHECK(b && b[599] == 7);
  CHECK_EQ(astar_mapf_solver_memory(sv), base + 650);
  CHECK(!mapf_out_of_limits(&c, 0));
  CHECK(mapf_scratch(&c, 3, 600, &st) == b); /* smaller: the same block */
  CHECK(mapf_scratch(&c, 4, 100, &st) == NULL);
  CHECK_EQ(st, ASTAR_LIMIT_REACHED);
  CHECK(mapf_out_of_limits(&c, 0));
  st = ASTAR_OK;
  CHECK(mapf_scratch(&c, MAPF_SCRATCH_SLOTS, 8, &st) == NULL);
  CHECK_EQ(st, ASTAR_INVALID_ARGUMENT);
  /* counted blocks */
  o.max_memory = 0;
  c.over_memory = false;
  void *blk = mapf_alloc(&c, 1000, &st);
  CHECK(blk != NULL);
  CHECK_EQ(astar_mapf_solver_memory(sv), base + 1650);
  blk = mapf_realloc(&c, blk, 1000, 3000, &st);
  CHECK(blk != NULL);
  CHECK_EQ(astar_mapf_solver_memory(sv), base + 3650);
  mapf_free(&c, blk, 3000);
  CHECK_EQ(astar_mapf_solver_memory(sv), base + 650);
  /* work */
  o.max_work = 10;
  CHECK(!mapf_out_of_limits(&c, 9));
  CHECK(mapf_out_of_limits(&c, 10));
  astar_mapf_solver_free(sv); /* frees the slots */
}

/* ---- prioritised planning ------------------------------------------------------------------- */

/* Solve, then the validator and the stats must agree. Returns the status. */
static astar_status solve_checked(astar_mapf_solver *sv, const astar_mapf_problem *p,
                                  const astar_mapf_options *o, astar_mapf_stats *st) {
  astar_mapf_solution *out = NULL;
  CHECK_EQ(astar_mapf_solution_new(&out, astar_mapf_problem_agents(p), NULL), ASTAR_OK);
  const astar_status status = astar_mapf_solve(sv, p, o, out, st);
  uint64_t lb = 0;
  const astar_status lbs = astar_mapf_lower_bound(p, &lb, NULL, NULL);
  if (status == ASTAR_OK) {
    astar_mapf_report r;
    CHECK_EQ(astar_mapf_check(p, out, &r, NULL), ASTAR_OK);
    if (r.fault != ASTAR_MAPF_VALID)
      FAILF("invalid solution: %s, agent %u, time %u", astar_mapf_fault_name(r.fault), r.agent,
            r.time);
    CHECK(st->solved);
    CHECK_EQ(st->sum_of_costs, r.sum_of_costs);
    CHECK_EQ(st->makespan, r.makespan);
    CHECK_EQ(st->lower_bound, lb);
    CHECK(st->sum_of_costs >= lb);
    CHECK(st->bound == (double)lb);
    CHECK_EQ(st->improvements, 1);
    CHECK(st->time_first >= 0 && st->time_first <= st->time_total);
    /* the paths end at the arrivals */
    for (size_t i = 0; i < astar_mapf_problem_agents(p); i++) {
      size_t len;
      astar_mapf_solution_path(out, i, &len);
      CHECK_EQ(len, astar_mapf_solution_cost(out, i) + 1);
    }
  } else {
    CHECK(!st->solved);
    CHECK_EQ(astar_mapf_solution_sum_of_costs(out), 0);
    if (status == ASTAR_NO_PATH) CHECK_EQ(lbs, ASTAR_NO_PATH);
  }
  CHECK(st->peak_memory > 0);
  astar_mapf_solution_free(out);
  return status;
}

static void test_prioritized_random(void) {
  rng r;
  rng_seed(&r, 2929);
  astar_mapf_solver *sv = NULL;
  CHECK_EQ(astar_mapf_solver_new(&sv, NULL), ASTAR_OK);
  int solved = 0, tried = 0, windowed = 0;
  for (int round = 0; round < 60; round++) {
    randmap_spec spec = {rng_range(&r, 5, 20), rng_range(&r, 5, 20), 0.2, 0, 1, 1};
    astar_grid *g = NULL;
    CHECK_EQ(randmap_make(&g, &spec, &r), ASTAR_OK);
    const size_t n = (size_t)rng_range(&r, 2, 16);
    astar_point s[16], t[16];
    if (astar_mapf_random_instance(g, rng_next(&r), n, s, t, NULL) != ASTAR_OK) {
      astar_grid_free(g);
      continue;
    }
    astar_mapf_problem *p = NULL;
    CHECK_EQ(astar_mapf_problem_new(&p, g, s, t, n, NULL, NULL), ASTAR_OK);
    astar_mapf_options o;
    astar_mapf_options_init(&o);
    o.algo = ASTAR_MAPF_PRIORITIZED;
    o.seed = (round % 3 == 0) ? 0 : rng_next(&r);
    astar_mapf_stats st;
    astar_status status = solve_checked(sv, p, &o, &st);
    CHECKF(status == ASTAR_OK || status == ASTAR_LIMIT_REACHED, "status %s",
           astar_strerror(status));
    tried++;
    solved += status == ASTAR_OK;
    /* windowed (WHCA*), windows 1 .. 16 */
    o.window = (uint32_t)rng_range(&r, 1, 16);
    status = solve_checked(sv, p, &o, &st);
    CHECKF(status == ASTAR_OK || status == ASTAR_LIMIT_REACHED, "status %s",
           astar_strerror(status));
    windowed += status == ASTAR_OK;
    astar_mapf_problem_free(p);
    astar_grid_free(g);
  }
  printf("prioritized: %d of %d random instances solved, windowed %d\n", solved, tried, windowed);
  CHECKF(solved * 10 >= tried * 7, "solved %d of %d", solved, tried);
  CHECKF(windowed * 10 >= tried * 5, "windowed: solved %d of %d", windowed, tried);
  astar_mapf_solver_free(sv);
}

/* Tiny instances: never better than the optimum, never "solved" when the
** reference proves there is no solution. */
static void test_prioritized_vs_reference(void) {
  rng r;
  rng_seed(&r, 4242);
  astar_mapf_solver *sv = NULL;
  CHECK_EQ(astar_mapf_solver_new(&sv, NULL), ASTAR_OK);
  int equal = 0, solvable = 0;
  for (int round = 0; round < 60; round++) {
    randmap_spec spec = {rng_range(&r, 2, 4), rng_range(&r, 2, 4), 0.2, 0, 1, 1};
    astar_grid *g = NULL;
    CHECK_EQ(randmap_make(&g, &spec, &r), ASTAR_OK);
    const size_t n = (size_t)rng_range(&r, 2, 3);
    astar_point s[3], t[3];
    if (astar_mapf_random_instance(g, rng_next(&r), n, s, t, NULL) != ASTAR_OK) {
      astar_grid_free(g);
      continue;
    }
    astar_mapf_problem *p = NULL;
    CHECK_EQ(astar_mapf_problem_new(&p, g, s, t, n, NULL, NULL), ASTAR_OK);
    const long long best = mapf_ref_optimal_soc(p);
    CHECK(best >= -1);
    astar_mapf_options o;
    astar_mapf_options_init(&o);
    o.algo = ASTAR_MAPF_PRIORITIZED;
    o.max_steps = 64;
    astar_mapf_stats st;
    const astar_status status = solve_checked(sv, p, &o, &st);
    if (best < 0) {
      CHECK(status != ASTAR_OK);
    } else {
      solvable++;
      if (status == ASTAR_OK) {
        CHECKF((long long)st.sum_of_costs >= best, "soc %llu < optimum %lld",
               (unsigned long long)st.sum_of_costs, best);
        equal += (long long)st.sum_of_costs == best;
      }
    }
    astar_mapf_problem_free(p);
    astar_grid_free(g);
  }
  printf("prioritized: optimal on %d of %d solvable tiny instances\n", equal, solvable);
  CHECK(solvable > 20);
  CHECK(equal > 0);
  astar_mapf_solver_free(sv);
}

static double fake_clock(void *ud) {
  double *t = ud;
  *t += 1.0;
  return *t;
}

static uint64_t improved_soc;
static int improved_calls;
static void on_improve(void *ud, uint64_t soc, double seconds) {
  (void)ud;
  (void)seconds;
  improved_soc = soc;
  improved_calls++;
}

static void test_prioritized_limits(void) {
  static const char *const rows[] = {"........", "........", "...##...", "........"};
  const astar_point s[3] = {P(0, 0), P(7, 0), P(0, 3)}, t[3] = {P(7, 3), P(0, 3), P(7, 0)};
  astar_mapf_problem *p = make_problem(rows, 4, 3, s, t);
  astar_mapf_solver *sv = NULL;
  CHECK_EQ(astar_mapf_solver_new(&sv, NULL), ASTAR_OK);
  astar_mapf_options o;
  astar_mapf_stats st;
  astar_mapf_options_init(&o);
  o.algo = ASTAR_MAPF_PRIORITIZED;
  o.on_improve = on_improve;
  CHECK_EQ(solve_checked(sv, p, &o, &st), ASTAR_OK);
  CHECK_EQ(improved_calls, 1);
  CHECK_EQ(improved_soc, st.sum_of_costs);
  CHECK(st.low_level > 0);
  CHECK_EQ(st.high_level, 3);
  const uint64_t soc = st.sum_of_costs, work = st.low_level;
  const size_t kept = astar_mapf_solver_memory(sv);
  /* deterministic */
  CHECK_EQ(solve_checked(sv, p, &o, &st), ASTAR_OK);
  CHECK_EQ(st.sum_of_costs, soc);
  CHECK_EQ(st.low_level, work);
  CHECK_EQ(astar_mapf_solver_memory(sv), kept);
  /* work */
  o.max_work = 1;
  CHECK_EQ(solve_checked(sv, p, &o, &st), ASTAR_LIMIT_REACHED);
  o.max_work = work;
  CHECK_EQ(solve_checked(sv, p, &o, &st), ASTAR_OK);
  o.max_work = work - 1;
  CHECK_EQ(solve_checked(sv, p, &o, &st), ASTAR_LIMIT_REACHED);
  o.max_work = 0;
  /* time, on a clock that advances a second a reading */
  double now = 0;
  o.clock = fake_clock;
  o.clock_ud = &now;
  o.time_limit = 0.5;
  CHECK_EQ(solve_checked(sv, p, &o, &st), ASTAR_LIMIT_REACHED);
  CHECK(st.time_total >= 1.0);
  o.time_limit = 0;
  CHECK_EQ(solve_checked(sv, p, &o, &st), ASTAR_OK);
  o.clock = NULL;
  /* memory */
  o.max_memory = 2000;
  CHECK_EQ(solve_checked(sv, p, &o, &st), ASTAR_LIMIT_REACHED);
  CHECK(st.peak_memory <= 2000);
  o.max_memory = 0;
  /* the horizon */
  o.max_steps = 3;
  CHECK_EQ(solve_checked(sv, p, &o, &st), ASTAR_LIMIT_REACHED);
  o.max_steps = 0;
  /* windowed: solved here too; its rounds count as high-level nodes; a
  ** horizon shorter than the way home ends it */
  o.window = 4;
  CHECK_EQ(solve_checked(sv, p, &o, &st), ASTAR_OK);
  CHECK(st.high_level >= 4);
  CHECK(st.sum_of_costs >= soc);
  o.max_steps = 4;
  CHECK_EQ(solve_checked(sv, p, &o, &st), ASTAR_LIMIT_REACHED);
  o.max_steps = 0;
  o.max_work = 3;
  CHECK_EQ(solve_checked(sv, p, &o, &st), ASTAR_LIMIT_REACHED);
  o.max_work = 0;
  /* the largest horizon and window: memory follows the paths, not them */
  o.max_steps = 1u << 28;
  o.window = 1u << 28;
  CHECK_EQ(solve_checked(sv, p, &o, &st), ASTAR_OK);
  CHECKF(st.peak_memory < 4000000, "peak %zu", st.peak_memory);
  o.window = 0;
  CHECK_EQ(solve_checked(sv, p, &o, &st), ASTAR_OK);
  CHECKF(st.peak_memory < 4000000, "peak %zu", st.peak_memory);
  o.max_steps = 0;
  astar_mapf_problem_free(p);
  /* an agent that cannot reach its goal: proven unsolvable */
  static const char *const cut[] = {"..#.."};
  p = make_problem(cut, 1, 2, (astar_point[]){P(0, 0), P(3, 0)}, (astar_point[]){P(1, 0), P(0, 0)});
  CHECK_EQ(solve_checked(sv, p, &o, &st), ASTAR_NO_PATH);
  astar_mapf_problem_free(p);
  /* the corridor swap: prioritised planning gives up, it proves nothing */
  static const char *const corr[] = {"...."};
  p = make_problem(corr, 1, 2, (astar_point[]){P(0, 0), P(3, 0)},
                   (astar_point[]){P(3, 0), P(0, 0)});
  o.max_steps = 40;
  CHECK_EQ(solve_checked(sv, p, &o, &st), ASTAR_LIMIT_REACHED);
  astar_mapf_problem_free(p);
  astar_mapf_solver_free(sv);
}

/* ---- allocation failures: a status, never a leak ----------------------------------------------
 */

static void test_alloc_failures(void) {
  static const char *const rows[] = {"......", "..#...", "......", "...#.."};
  astar_grid *g = randmap_from_rows(rows, 4, '#');
  const astar_point s[3] = {P(0, 0), P(5, 0), P(0, 3)}, t[3] = {P(5, 3), P(0, 3), P(5, 0)};
  int ok_seen = 0;
  long last_k = 0;
  for (long k = 1; k < 400 && ok_seen < 1; k++) {
    failalloc fa;
    failalloc_init(&fa);
    astar_allocator al = failalloc_allocator(&fa);
    failalloc_fail_in(&fa, k);
    astar_mapf_problem *p = NULL;
    astar_mapf_solution *out = NULL;
    astar_mapf_solver *sv = NULL;
    astar_status st = astar_mapf_problem_new(&p, g, s, t, 3, NULL, &al);
    if (st == ASTAR_OK) st = astar_mapf_solution_new(&out, 3, &al);
    if (st == ASTAR_OK) st = astar_mapf_solver_new(&sv, &al);
    if (st == ASTAR_OK) {
      astar_mapf_options o;
      astar_mapf_options_init(&o);
      o.algo = ASTAR_MAPF_PRIORITIZED;
      astar_mapf_stats stats;
      st = astar_mapf_solve(sv, p, &o, out, &stats);
      if (st == ASTAR_OK) CHECK(stats.solved);
    }
    if (st == ASTAR_OK) {
      astar_mapf_report r;
      st = astar_mapf_check(p, out, &r, &al);
      if (st == ASTAR_OK) CHECK_EQ(r.fault, ASTAR_MAPF_VALID);
    }
    if (st == ASTAR_OK) {
      uint64_t lb;
      st = astar_mapf_lower_bound(p, &lb, NULL, &al);
    }
    if (st == ASTAR_OK) {
      astar_point rs[3], rt[3];
      st = astar_mapf_random_instance(g, 5, 3, rs, rt, &al);
    }
    if (st == ASTAR_OK) {
      astar_point longp[100];
      for (int i = 0; i < 100; i++) longp[i] = P(0, 0);
      st = astar_mapf_solution_set_path(out, 0, longp, 100);
    }
    CHECKF(st == ASTAR_OK || st == ASTAR_NO_MEMORY, "k %ld: %s", k, astar_strerror(st));
    if (st == ASTAR_OK) ok_seen = 1;
    last_k = k;
    astar_mapf_solver_free(sv);
    astar_mapf_solution_free(out);
    astar_mapf_problem_free(p);
    CHECKF(fa.blocks == 0, "k %ld: %ld blocks leaked", k, fa.blocks);
    CHECK_EQ(fa.osize_mismatches, 0);
  }
  CHECK(ok_seen);
  printf("allocation failures: %ld requests failed one by one\n", last_k);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_problem);
  RUN(test_random_and_lower_bound);
  RUN(test_random_golden);
  RUN(test_solution_costs);
  RUN(test_check_faults);
  RUN(test_reference);
  RUN(test_options);
  RUN(test_dist);
  RUN(test_scratch);
  RUN(test_prioritized_random);
  RUN(test_prioritized_vs_reference);
  RUN(test_prioritized_limits);
  RUN(test_alloc_failures);
  return check_summary();
}
