/*
** anyangle.c -- the any-angle searches of astar/anyangle.h as --algo
** entries (theta, lazy-theta), string pulling (--smooth), and what every
** any-angle path shares in the tool: its points are bends joined by
** straight segments costed by length, checked against the grid optimum
** as an upper bound rather than for equality.
*/
#include <stdlib.h>
#include <string.h>

#include <astar/anya.h>
#include <astar/anyangle.h>

#include "cli.h"

/* One Theta*-family search, its result reported as the grid's. */
static astar_status theta_find(astar_anyangle_method method, astar_workspace *ws,
                               const astar_grid *grid, const astar_options *opt, astar_point start,
                               astar_point goal, astar_point *path, size_t cap,
                               astar_result *result) {
  astar_anyangle_result ar;
  const astar_status st =
      astar_anyangle_find_path(ws, grid, opt, method, start, goal, path, cap, &ar);
  if (result) {
    memset(result, 0, sizeof *result);
    result->cost = ar.cost;
    result->length = ar.length;
    result->stats = ar.stats;
    result->cause = st;
    result->end = st == ASTAR_OK ? goal : (astar_point){-1, -1};
  }
  return st;
}

static astar_status find_theta(astar_workspace *ws, const astar_grid *grid,
                               const astar_options *opt, astar_point start, astar_point goal,
                               astar_point *path, size_t cap, astar_result *result) {
  return theta_find(ASTAR_ANYANGLE_THETA, ws, grid, opt, start, goal, path, cap, result);
}

static astar_status find_lazy_theta(astar_workspace *ws, const astar_grid *grid,
                                    const astar_options *opt, astar_point start, astar_point goal,
                                    astar_point *path, size_t cap, astar_result *result) {
  return theta_find(ASTAR_ANYANGLE_LAZY_THETA, ws, grid, opt, start, goal, path, cap, result);
}

/* ---- Anya ----------------------------------------------------------------------
** Anya has a workspace of its own (astar/anya.h) and returns points with
** fractional coordinates. The tool runs one search at a time, so it keeps
** one workspace and the last path here, grown on demand: a node pool that
** runs out (ASTAR_CAPACITY) is doubled and the query asked again. */

static astar_anya_workspace *anya_ws;
static astar_vec2 *anya_path;
static size_t anya_cap, anya_len;

static astar_status find_anya(astar_workspace *ws, const astar_grid *grid, const astar_options *opt,
                              astar_point start, astar_point goal, astar_point *path, size_t cap,
                              astar_result *result) {
  (void)ws;
  astar_anya_result r;
  memset(&r, 0, sizeof r);
  astar_status st = anya_ws ? astar_anya_workspace_reserve(anya_ws, grid, 0)
                            : astar_anya_workspace_new(&anya_ws, grid, 0, NULL);
  for (int tries = 0; st == ASTAR_OK && tries < 40; tries++) {
    st = astar_anya_find_path(anya_ws, grid, start, goal, anya_path, anya_cap, &r);
    if (st == ASTAR_CAPACITY && r.stats.generated >= astar_anya_workspace_nodes(anya_ws)) {
      st = astar_anya_workspace_reserve(anya_ws, NULL, 2 * astar_anya_workspace_nodes(anya_ws));
    } else if (st == ASTAR_BUFFER_TOO_SMALL) {
      astar_vec2 *p = realloc(anya_path, r.length * sizeof *p);
      if (!p) {
        st = ASTAR_NO_MEMORY;
        break;
      }
      anya_path = p;
      anya_cap = r.length;
      st = ASTAR_OK;
    } else {
      break;
    }
  }
  anya_len = st == ASTAR_OK ? r.length : 0;
  /* The caller's cells: the cell below and right of each vertex (the
  ** start's and goal's own cells at the ends). */
  for (size_t i = 0; i < anya_len && i < cap; i++) {
    const astar_point c = {(int32_t)anya_path[i].x, (int32_t)anya_path[i].y};
    path[i] = i == 0 ? start : i + 1 == anya_len ? goal : c;
  }
  if (st == ASTAR_OK && anya_len > cap) st = ASTAR_BUFFER_TOO_SMALL;
  if (result) {
    memset(result, 0, sizeof *result);
    result->cost = st == ASTAR_OK || st == ASTAR_BUFFER_TOO_SMALL ? opt->straight_cost * r.cost : 0;
    result->length = r.length;
    result->stats = r.stats;
    result->cause = st;
    result->end = st == ASTAR_OK ? goal : (astar_point){-1, -1};
  }
  return st;
}

bool cli_algo_is_anya(const cli_algo *algo) {
  return algo->method == ASTAR_METHOD_ANYA;
}

bool cli_anya_keep(const astar_vec2 *pts, size_t n) {
  if (n > anya_cap) {
    astar_vec2 *p = realloc(anya_path, n * sizeof *p);
    if (!p) return false;
    anya_path = p;
    anya_cap = n;
  }
  if (n) memcpy(anya_path, pts, n * sizeof *pts);
  anya_len = n;
  return true;
}

void cli_print_anya_solution(FILE *out, const cli_solution *sol) {
  if (sol->status != ASTAR_OK) {
    fprintf(out, "status:   %s\n", astar_strerror(sol->status));
  } else {
    char cost[64];
    cli_format_cost(cost, sizeof cost, sol->result.cost);
    fputs("status:   path found (the Euclidean shortest path, Anya)\n", out);
    fprintf(out, "cost:     %s (straight segments between the points)\n", cost);
    fprintf(out,
            "points:   %zu (%zu segments; corners at whole numbers, cell centres at .5):", anya_len,
            anya_len ? anya_len - 1 : 0);
    for (size_t i = 0; i < anya_len; i++)
      fprintf(out, "%s(%g,%g)", i % 8 == 0 ? "\n          " : " ", anya_path[i].x, anya_path[i].y);
    putc('\n', out);
  }
  fputs("work:     ", out);
  cli_print_stats(out, &sol->result.stats);
  fprintf(out, " in %.3f ms (search nodes: intervals of grid lines)\n", sol->seconds * 1e3);
}

static const cli_algo aa_algos[] = {
    {"theta", "Theta*: any-angle, parents in sight (astar/anyangle.h)", find_theta, NULL,
     ASTAR_ALGO_ASTAR, false, ASTAR_METHOD_THETA},
    {"lazy-theta", "Lazy Theta*: Theta* testing sight at expansion only", find_lazy_theta, NULL,
     ASTAR_ALGO_ASTAR, false, ASTAR_METHOD_LAZY_THETA},
    {"anya", "Anya: the Euclidean shortest path, optimal any-angle (astar/anya.h)", find_anya, NULL,
     ASTAR_ALGO_ASTAR, false, ASTAR_METHOD_ANYA},
};
#define NAA (sizeof aa_algos / sizeof aa_algos[0])

const cli_algo *cli_anyangle_algo(const char *name) {
  for (size_t i = 0; i < NAA; i++)
    if (strcmp(aa_algos[i].name, name) == 0) return &aa_algos[i];
  return NULL;
}

const cli_algo *cli_anyangle_at(size_t i) {
  return i < NAA ? &aa_algos[i] : NULL;
}

bool cli_algo_is_any_angle(const cli_algo *algo) {
  for (size_t i = 0; i < NAA; i++)
    if (algo == &aa_algos[i]) return true;
  return cli_algo_is_waypoints(algo);
}

const char *cli_anyangle_unsupported(const cli_algo *algo, const astar_options *opt,
                                     const astar_grid *grid) {
  bool ours = false;
  for (size_t i = 0; i < NAA; i++) ours |= algo == &aa_algos[i];
  if (!ours) return NULL;
  if (grid && astar_grid_has_terrain(grid))
    return "the grid has terrain costs; any-angle segments cost straight-line distance (use "
           "--algo astar)";
  if (opt->nlayers || opt->knowledge || opt->islands || opt->turn_penalty != 0.0 ||
      opt->terrain_scale != 1.0 || opt->stop_fn || opt->partial)
    return "the game-loop options (layers, fog, islands, turn penalty, terrain scale, partial) "
           "are A*'s on the grid";
  if (algo->method == ASTAR_METHOD_ANYA) {
    if (opt->moves != 8 ||
        (opt->corner != ASTAR_CORNER_NO_CUT && opt->corner != ASTAR_CORNER_ONE_SIDE))
      return "Anya's paths never squeeze between diagonal obstacles: the bound of grid paths "
             "under --corner no-cut or one-side with 8 moves";
    if (opt->weight != 1.0 || opt->max_expansions || opt->tie != ASTAR_TIE_LARGER_G ||
        opt->diagonal_cost != opt->straight_cost * 1.41421356237309504880)
      return "Anya is optimal and exact: it takes no --weight, --max-expansions, --tie or "
             "diagonal cost other than straight x sqrt 2";
  }
  if (opt->heuristic != ASTAR_H_AUTO)
    return "any-angle searches use the straight-line distance as their heuristic (drop "
           "--heuristic)";
  return NULL;
}

/* ---- string pulling (--smooth) ---------------------------------------------------- */

astar_status cli_smooth_result(const astar_grid *grid, const astar_options *opt, astar_point *path,
                               astar_result *r) {
  size_t len = 0;
  astar_status st = astar_path_smooth(grid, opt, path, r->length, path, r->length, &len);
  if (st != ASTAR_OK) return st;
  r->length = len; /* path holds the smoothed points from here on */
  /* Consecutive smoothed points see each other on the view they were
  ** pulled on: the cost fails only if the input was not in sight step by
  ** step (then the length stays the only measure: cost 0). */
  st = astar_polyline_cost(grid, opt, path, len, &r->cost, NULL);
  return st;
}

bool cli_smooth_solution(cli_solution *sol, const astar_grid *grid, const astar_options *opt) {
  if (sol->status != ASTAR_OK || sol->len == 0) return true;
  const size_t grid_len = sol->len;
  double segments = -1.0;
  if (astar_polyline_cost(grid, opt, sol->path, sol->len, &segments, NULL) != ASTAR_OK)
    segments = -1.0;
  const double grid_cost = sol->result.cost, t0 = cli_now_seconds();
  sol->result.length = sol->len;
  const astar_status st = cli_smooth_result(grid, opt, sol->path, &sol->result);
  sol->smooth_seconds = cli_now_seconds() - t0;
  if (st != ASTAR_OK) {
    cli_error("--smooth: %s", astar_strerror(st));
    return false;
  }
  sol->grid_len = grid_len;
  sol->grid_cost = grid_cost;
  sol->grid_segments_cost = segments;
  sol->len = sol->result.length;
  return true;
}
