/*
** puzzle_variants.c -- the engine's methods (astar/engine.h) on the sliding
** puzzles as implicit spaces (astar/implicit.h), where IDA* is at home:
** unit costs, a consistent heuristic (Manhattan distance), few distinct f
** values. For each method: solved boards, mean expansions, µs per board,
** mean cost / optimal (the optimum from A*), mean iterations (IDA*) or
** drops (beam). Seeded boards: the 8-puzzle from random walks of 400 moves
** (about uniform), the 15-puzzle from random walks of WALK moves (default
** 150; A* must stay within the state table of 2^23 states).
**
** Build and run from the repository root, after `make`:
**   cc -O2 -Iinclude bench/puzzle_variants.c build/libastar.a -lm -o build/puzzle_variants
**   ./build/puzzle_variants [boards8 [boards15 [WALK]]]    (default 200, 20, 150)
*/
#define _POSIX_C_SOURCE 200809L

#include <astar/astar.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int side; /* 3 or 4 */

static int tile(uint64_t b, int i) {
  return (int)((b >> (4 * i)) & 15u);
}

static uint64_t solved_board(void) {
  uint64_t b = 0;
  const int n = side * side;
  for (int i = 0; i < n - 1; i++) b |= (uint64_t)(i + 1) << (4 * i);
  return b; /* the blank (0) in the last cell */
}

static int blank(uint64_t b) {
  for (int i = 0; i < side * side; i++)
    if (tile(b, i) == 0) return i;
  return -1;
}

static uint64_t swap(uint64_t b, int i, int j) {
  const uint64_t ti = (uint64_t)tile(b, i), tj = (uint64_t)tile(b, j);
  b &= ~((UINT64_C(15) << (4 * i)) | (UINT64_C(15) << (4 * j)));
  return b | ti << (4 * j) | tj << (4 * i);
}

static size_t succ(void *ctx, astar_state s, astar_state_arc *arcs, size_t cap) {
  (void)ctx;
  const int z = blank(s), x = z % side, y = z / side;
  size_t n = 0;
  static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
  for (int d = 0; d < 4 && n < cap; d++) {
    const int nx = x + dx[d], ny = y + dy[d];
    if (nx < 0 || nx >= side || ny < 0 || ny >= side) continue;
    arcs[n].state = swap(s, z, ny * side + nx);
    arcs[n].cost = 1.0;
    n++;
  }
  return n;
}

static double manhattan(void *ctx, astar_state a, astar_state b) {
  (void)ctx;
  int where[16];
  const int n = side * side;
  for (int i = 0; i < n; i++) where[tile(b, i)] = i;
  int d = 0;
  for (int i = 0; i < n; i++) {
    const int t = tile(a, i);
    if (t == 0) continue;
    const int j = where[t];
    d += abs(i % side - j % side) + abs(i / side - j / side);
  }
  return d;
}

static uint64_t rng_state = 77;
static uint32_t rnd(uint32_t n) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rng_state >> 33) % n;
}

static uint64_t scramble(int steps) {
  uint64_t b = solved_board();
  for (int i = 0; i < steps; i++) {
    astar_state_arc arcs[4];
    const size_t n = succ(NULL, b, arcs, 4);
    b = arcs[rnd((uint32_t)n)].state;
  }
  return b;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct method {
  const char *label;
  astar_method m;
  uint32_t width;  /* beam */
  double epsilon;  /* dynamic */
  bool tt;         /* IDA* transpositions */
  bool only_small; /* 8-puzzle only (front-to-front) */
} method;

static void run(const char *title, int s, int boards, int walk, uint32_t states) {
  side = s;
  static const astar_implicit_ops ops = {succ, succ, manhattan, NULL};
  const astar_implicit sp = {&ops, NULL, 4, ASTAR_SPACE_ADMISSIBLE | ASTAR_SPACE_CONSISTENT};
  astar_grid *tiny;
  astar_workspace *ws;
  if (astar_grid_new(&tiny, 1, 1, NULL) != ASTAR_OK ||
      astar_workspace_new(&ws, tiny, NULL) != ASTAR_OK ||
      astar_workspace_reserve_states(ws, states, 4, ASTAR_RESERVE_FRONT_TO_FRONT) != ASTAR_OK) {
    fprintf(stderr, "no memory for %u states\n", states);
    exit(1);
  }
  astar_grid_free(tiny);
  uint64_t *start = malloc((size_t)boards * sizeof *start);
  double *optimal = malloc((size_t)boards * sizeof *optimal);
  astar_state *path = malloc(4096 * sizeof *path);
  if (!start || !optimal || !path) exit(1);
  for (int i = 0; i < boards; i++) start[i] = scramble(walk);
  /* Warm-up: the first searches pay for the first touches of the table. */
  for (int i = 0; i < boards; i++)
    (void)astar_implicit_find_path(ws, &sp, NULL, start[i], solved_board(), path, 4096, NULL);
  const method methods[] = {
      {"astar", ASTAR_METHOD_ASTAR, 0, 0, false, false},
      {"ida", ASTAR_METHOD_IDA, 0, 0, true, false},
      {"ida, no transpositions", ASTAR_METHOD_IDA, 0, 0, false, false},
      {"bidirectional", ASTAR_METHOD_BIDIRECTIONAL, 0, 0, false, false},
      {"front-to-front", ASTAR_METHOD_FRONT_TO_FRONT, 0, 0, false, true},
      {"retargeting", ASTAR_METHOD_RETARGETING, 0, 0, false, false},
      {"dynamic, eps 1", ASTAR_METHOD_DYNAMIC, 0, 1.0, false, false},
      {"beam 1000", ASTAR_METHOD_BEAM, 1000, 0, false, false},
      {"beam 100", ASTAR_METHOD_BEAM, 100, 0, false, false},
      {"beam 10", ASTAR_METHOD_BEAM, 10, 0, false, false},
  };
  printf("%s: %d boards\n\n", title, boards);
  printf("| method | solved | mean expanded | µs / board | cost / optimal | iterations | dropped "
         "|\n|---|---:|---:|---:|---:|---:|---:|\n");
  for (size_t k = 0; k < sizeof methods / sizeof methods[0]; k++) {
    const method *me = &methods[k];
    if (me->only_small && s > 3) continue;
    astar_engine_options o;
    astar_engine_options_init(&o);
    o.method = me->m;
    if (me->width) o.beam_width = me->width;
    if (me->epsilon > 0) o.epsilon = me->epsilon;
    o.ida_transpositions = me->tt;
    double expanded = 0, ratio = 0, iterations = 0, dropped = 0;
    int solved = 0, rated = 0;
    const double t0 = now();
    for (int i = 0; i < boards; i++) {
      astar_engine_result res;
      const astar_status st =
          astar_implicit_find_path(ws, &sp, &o, start[i], solved_board(), path, 4096, &res);
      expanded += (double)res.stats.expanded;
      iterations += (double)res.iterations;
      dropped += (double)res.dropped;
      if (st != ASTAR_OK) continue;
      solved++;
      if (k == 0) optimal[i] = res.cost;
      if (optimal[i] > 0) {
        ratio += res.cost / optimal[i];
        rated++;
      }
    }
    const double secs = now() - t0;
    printf("| %s | %d | %.0f | %.0f | %.4f | %.1f | %.0f |\n", me->label, solved, expanded / boards,
           secs * 1e6 / boards, rated ? ratio / rated : 1.0, iterations / boards, dropped / boards);
    fflush(stdout);
  }
  putchar('\n');
  free(start), free(optimal), free(path);
  astar_workspace_free(ws);
}

int main(int argc, char **argv) {
  const int b8 = argc > 1 ? atoi(argv[1]) : 200, b15 = argc > 2 ? atoi(argv[2]) : 20;
  const int walk = argc > 3 ? atoi(argv[3]) : 150;
  if (b8 > 0) run("8-puzzle", 3, b8, 400, 181440);
  if (b15 > 0) run("15-puzzle", 4, b15, walk, 1u << 23);
  return 0;
}
