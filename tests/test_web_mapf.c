/*
** test_web_mapf.c -- the playground's MAPF mode (web/bridge.c, pg_mapf_*),
** compiled natively: random instances on random maps, solved by every
** algorithm of the library's MAPF table through the bridge. Every solution
** the bridge hands the page is checked here, by rules written in this file
** (not the library's validator): each agent from its start to its goal,
** cells passable, unit moves or waits, no two agents in one cell at one
** time, no swaps, an agent that has arrived holds its cell. The bridge's
** figures (sum of costs, makespan) must be the paths'. The naive plan must
** be each agent's shortest path (a breadth-first search here), and its
** collisions exactly those a brute-force scan of every pair of agents at
** every time finds. Also the refusals (hex mode, bad arguments, too many
** agents) and that a new grid ends MAPF mode.
*/
#include "../web/bridge.c"

#include "check.h"

static uint32_t rng_state = 0x9e3779b9u;
static uint32_t rnd(uint32_t n) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state % n;
}

/* Agent i's cell at time t (the last cell holds); -1 for an empty path. */
static int32_t at(const int32_t *off, const int32_t *cells, int32_t i, int32_t t) {
  const int32_t len = off[i + 1] - off[i];
  if (len == 0) return -1;
  return cells[off[i] + (t < len ? t : len - 1)];
}

/* The 4-connected distance from a to b on the bridge's grid (-1: none). */
static int32_t distance(pg_state *s, int32_t a, int32_t b) {
  const int32_t w = pg_width(s), h = pg_height(s);
  int32_t *d = malloc((size_t)w * (size_t)h * sizeof *d), *q = malloc((size_t)w * h * sizeof *q);
  for (int32_t c = 0; c < w * h; c++) d[c] = -1;
  int32_t head = 0, tail = 0;
  d[a] = 0;
  q[tail++] = a;
  while (head < tail) {
    const int32_t c = q[head++];
    const int32_t nb[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    for (int k = 0; k < 4; k++) {
      const int32_t x = c % w + nb[k][0], y = c / w + nb[k][1];
      if (x < 0 || y < 0 || x >= w || y >= h || !astar_grid_passable(s->grid, x, y)) continue;
      if (d[y * w + x] < 0) {
        d[y * w + x] = d[c] + 1;
        q[tail++] = y * w + x;
      }
    }
  }
  const int32_t r = d[b];
  free(d);
  free(q);
  return r;
}

static bool adjacent_or_same(int32_t a, int32_t b, int32_t w) {
  const int32_t dx = abs(a % w - b % w), dy = abs(a / w - b / w);
  return dx + dy <= 1;
}

static int32_t cost_of(const int32_t *off, const int32_t *cells, int32_t i) {
  int32_t t = off[i + 1] - off[i] - 1;
  while (t > 0 && cells[off[i] + t - 1] == cells[off[i + 1] - 1]) t--;
  return t < 0 ? 0 : t;
}

static int runs, solved, naive_collisions;

/* One run of `algo` with n agents on a random w x h map. */
static void one_run(int32_t algo, int32_t w, int32_t h, int32_t n, uint32_t seed) {
  pg_state *s = pg_new(w, h);
  CHECK(s != NULL);
  if (!s) return;
  for (int32_t k = 0; k < w * h / 6; k++)
    pg_set_cell(s, (int32_t)rnd((uint32_t)w), (int32_t)rnd((uint32_t)h), 0);
  for (int32_t k = 0; k < w * h / 8; k++) /* terrain costs do not change MAPF */
    pg_set_cell(s, (int32_t)rnd((uint32_t)w), (int32_t)rnd((uint32_t)h), 2 + (int32_t)rnd(5));
  const int st = pg_mapf_run(s, algo, n, seed, 5.0, 2e5, 1.5);
  runs++;
  if (st != ASTAR_OK && st != ASTAR_LIMIT_REACHED && st != ASTAR_NO_PATH) {
    FAILF("algo %d: status %d", algo, st);
    pg_free(s);
    return;
  }
  CHECK_EQ(pg_mapf_agents(s), n);
  const int32_t *noff = pg_mapf_naive_offsets(s), *ncells = pg_mapf_naive_cells(s);
  /* The naive plan: each agent's shortest path, legal moves. */
  int32_t horizon = 0;
  for (int32_t i = 0; i < n; i++) {
    const int32_t len = noff[i + 1] - noff[i];
    CHECK(len >= 1);
    if (len < 1) continue;
    const int32_t a = ncells[noff[i]], b = ncells[noff[i + 1] - 1];
    CHECK_EQ(len - 1, distance(s, a, b));
    for (int32_t t = 1; t < len; t++)
      CHECK(adjacent_or_same(ncells[noff[i] + t - 1], ncells[noff[i] + t], w));
    if (len - 1 > horizon) horizon = len - 1;
    for (int32_t j = 0; j < i; j++) { /* the random instance: distinct starts, goals */
      CHECK(ncells[noff[j]] != a);
      CHECK(ncells[noff[j + 1] - 1] != b);
    }
  }
  CHECK_EQ(pg_mapf_stat(s, 14), horizon);
  /* Its collisions, by brute force. Vertex: an agent in a cell an
  ** earlier-numbered one holds at that time, one record naming the first of
  ** them; swap: every pair exchanging cells. Every one must be listed (a
  ** swap out of a cell two agents shared is the bridge's to miss), and
  ** every record listed must be one of them. */
  const pg_collision *col = pg_mapf_collisions(s);
  const int32_t listed = pg_mapf_collision_count(s);
  int64_t vertex = 0, swaps = 0;
  for (int32_t t = 0; t <= horizon; t++)
    for (int32_t j = 1; j < n; j++) {
      const int32_t cj = at(noff, ncells, j, t);
      int32_t first = -1;
      for (int32_t i = 0; i < j && first < 0; i++)
        if (at(noff, ncells, i, t) == cj) first = i;
      bool found = first < 0;
      for (int32_t r = 0; r < listed && !found; r++)
        found = col[r].time == t && col[r].cell == cj && col[r].a == first && col[r].b == j;
      if (!found) FAILF("vertex collision of %d and %d at t %d not listed", first, j, t);
      vertex += first >= 0;
      for (int32_t i = 0; i < j && t > 0; i++) {
        const int32_t ci = at(noff, ncells, i, t), pi = at(noff, ncells, i, t - 1);
        if (ci == pi || ci != at(noff, ncells, j, t - 1) || cj != pi) continue;
        swaps++;
        int shared = 0;
        for (int32_t m = 0; m < n; m++) {
          const int32_t pm = at(noff, ncells, m, t - 1);
          shared += pm == ci || pm == cj;
        }
        bool listed_here = shared > 2;
        for (int32_t r = 0; r < listed && !listed_here; r++)
          listed_here = col[r].time == t && col[r].a == i && col[r].b == j;
        if (!listed_here) FAILF("swap of %d and %d at t %d not listed", i, j, t);
      }
    }
  for (int32_t r = 0; r < listed; r++) {
    const pg_collision c = col[r];
    const int32_t ca = at(noff, ncells, c.a, c.time), cb = at(noff, ncells, c.b, c.time);
    const bool real = c.a < c.b && ((ca == cb && ca == c.cell) ||
                                    (c.time > 0 && ca == at(noff, ncells, c.b, c.time - 1) &&
                                     cb == at(noff, ncells, c.a, c.time - 1)));
    if (!real)
      FAILF("record %d (t %d, cell %d, %d, %d) is no collision", r, c.time, c.cell, c.a, c.b);
    if (r) CHECK(col[r - 1].time <= c.time);
  }
  CHECK(pg_mapf_stat(s, 12) >= (double)vertex && pg_mapf_stat(s, 12) <= (double)(vertex + swaps));
  CHECK_EQ(pg_mapf_stat(s, 12), listed); /* few enough to be all listed here */
  naive_collisions += (int)(vertex + swaps);
  /* The solution. */
  if (st != ASTAR_OK) {
    CHECK(pg_mapf_stat(s, 1) == 0);
    pg_free(s);
    return;
  }
  solved++;
  CHECK(pg_mapf_stat(s, 1) == 1);
  CHECK(pg_mapf_stat(s, 15) == ASTAR_MAPF_VALID); /* the library's validator agrees */
  const int32_t *off = pg_mapf_offsets(s), *cells = pg_mapf_cells(s);
  int64_t soc = 0;
  int32_t makespan = 0, T = 0;
  for (int32_t i = 0; i < n; i++) {
    const int32_t len = off[i + 1] - off[i];
    CHECK(len >= 1);
    if (len < 1) {
      pg_free(s);
      return;
    }
    CHECK_EQ(cells[off[i]], ncells[noff[i]]);                 /* its start */
    CHECK_EQ(cells[off[i + 1] - 1], ncells[noff[i + 1] - 1]); /* its goal */
    for (int32_t t = 0; t < len; t++) {
      const int32_t c = cells[off[i] + t];
      CHECK(c >= 0 && c < w * h && astar_grid_passable(s->grid, c % w, c / w));
      if (t) CHECK(adjacent_or_same(cells[off[i] + t - 1], c, w));
    }
    const int32_t ci = cost_of(off, cells, i);
    CHECK(ci >= distance(s, cells[off[i]], cells[off[i + 1] - 1]));
    soc += ci;
    if (ci > makespan) makespan = ci;
    if (len > T) T = len;
  }
  for (int32_t t = 0; t <= T; t++)
    for (int32_t j = 1; j < n; j++)
      for (int32_t i = 0; i < j; i++) {
        const int32_t ci = at(off, cells, i, t), cj = at(off, cells, j, t);
        if (ci == cj) FAILF("algo %d: agents %d and %d both in cell %d at t %d", algo, i, j, ci, t);
        if (t > 0 && ci != at(off, cells, i, t - 1) && ci == at(off, cells, j, t - 1) &&
            cj == at(off, cells, i, t - 1))
          FAILF("algo %d: agents %d and %d swap at t %d", algo, i, j, t);
      }
  CHECK_EQ(pg_mapf_stat(s, 3), soc);
  CHECK_EQ(pg_mapf_stat(s, 4), makespan);
  CHECK(pg_mapf_stat(s, 5) <= (double)soc);
  pg_free(s);
}

static void test_every_algorithm(void) {
  CHECK_EQ(pg_mapf_algo_count(), ASTAR_MAPF_ALGO_COUNT);
  for (int32_t a = 0; a < pg_mapf_algo_count(); a++) {
    CHECK(pg_mapf_algo_name(a) != NULL && pg_mapf_algo_summary(a) != NULL);
    astar_mapf_algo id;
    CHECK_EQ(astar_mapf_algo_from_name(pg_mapf_algo_name(a), &id), ASTAR_OK);
    CHECK_EQ((int32_t)id, a);
    /* A row without its solver yet answers ASTAR_UNSUPPORTED (src/mapf/solve.c). */
    pg_state *probe = pg_new(3, 1);
    const int built = pg_mapf_run(probe, a, 1, 0, 0, 1e5, 1.2) != ASTAR_UNSUPPORTED;
    pg_free(probe);
    if (!built) {
      printf("mapf: %s skipped: its solver is not built into the library yet\n",
             pg_mapf_algo_name(a));
      continue;
    }
    const int before = solved;
    for (int k = 0; k < 8; k++)
      one_run(a, 10 + (int32_t)rnd(12), 8 + (int32_t)rnd(8), 2 + (int32_t)rnd(7), rnd(1000));
    CHECKF(solved - before >= 4, "%s solved %d of 8", pg_mapf_algo_name(a), solved - before);
  }
  CHECK(pg_mapf_algo_name(ASTAR_MAPF_ALGO_COUNT) == NULL);
  CHECK(naive_collisions > 0); /* the comparison above had something to compare */
  printf("mapf: %d runs, %d solved, %d naive collisions\n", runs, solved, naive_collisions);
}

/* Many agents in a crowded room: the naive plan collides, the solution not. */
static void test_crowd(void) {
  pg_state *s = pg_new(12, 12);
  CHECK_EQ(pg_mapf_run(s, ASTAR_MAPF_LACAM, 40, 7, 5.0, 0, 1.2), ASTAR_OK);
  CHECK(pg_mapf_stat(s, 12) > 0);
  CHECK(pg_mapf_collision_count(s) > 0);
  CHECK(pg_mapf_stat(s, 15) == ASTAR_MAPF_VALID);
  pg_free(s);
}

static void test_refusals(void) {
  pg_state *s = pg_new(6, 4);
  CHECK_EQ(pg_mapf_stat(s, 0), -1);
  CHECK(pg_mapf_offsets(s) == NULL && pg_mapf_agents(s) == 0);
  CHECK_EQ(pg_mapf_run(s, 0, 0, 1, 0, 0, 1.2), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(pg_mapf_run(s, -1, 2, 1, 0, 0, 1.2), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(pg_mapf_run(s, ASTAR_MAPF_ALGO_COUNT, 2, 1, 0, 0, 1.2), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(pg_mapf_run(s, 0, 2, -1, 0, 0, 1.2), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(pg_mapf_run(s, ASTAR_MAPF_EECBS, 2, 1, 0, 0, 0.5), ASTAR_INVALID_ARGUMENT);
  CHECK_EQ(pg_mapf_run(s, 0, 25, 1, 0, 0, 1.2), ASTAR_TOO_LARGE);
  CHECK(s->mapf == NULL);
  CHECK_EQ(pg_mapf_run(s, ASTAR_MAPF_LACAM, 3, 1, 0, 0, 1.2), ASTAR_OK);
  CHECK_EQ(pg_mapf_agents(s), 3);
  CHECK_EQ(pg_set_geometry(s, PG_HEX, 0, 0), ASTAR_OK);
  CHECK_EQ(pg_mapf_run(s, 0, 2, 1, 0, 0, 1.2), ASTAR_UNSUPPORTED);
  CHECK_EQ(pg_mapf_agents(s), 0);
  CHECK_EQ(pg_set_geometry(s, PG_SQUARE, 0, 0), ASTAR_OK);
  CHECK_EQ(pg_mapf_run(s, ASTAR_MAPF_PIBT, 3, 1, 0, 0, 1.2), ASTAR_OK);
  CHECK_EQ(pg_resize(s, 8, 8), ASTAR_OK); /* a new grid ends MAPF mode */
  CHECK(s->mapf == NULL);
  pg_mapf_end(s); /* harmless when off */
  pg_free(s);
}

int main(void) {
  RUN(test_every_algorithm);
  RUN(test_crowd);
  RUN(test_refusals);
  return check_summary();
}
