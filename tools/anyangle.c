/*
** anyangle.c -- the any-angle searches of astar/anyangle.h as --algo
** entries (theta, lazy-theta), string pulling (--smooth), and what every
** any-angle path shares in the tool: its points are bends joined by
** straight segments costed by length, checked against the grid optimum
** as an upper bound rather than for equality.
*/
#include <string.h>

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

static const cli_algo aa_algos[] = {
    {"theta", "Theta*: any-angle, parents in sight (astar/anyangle.h)", find_theta, NULL,
     ASTAR_ALGO_ASTAR, false, ASTAR_METHOD_COUNT},
    {"lazy-theta", "Lazy Theta*: Theta* testing sight at expansion only", find_lazy_theta, NULL,
     ASTAR_ALGO_ASTAR, false, ASTAR_METHOD_COUNT},
};
#define NAA (sizeof aa_algos / sizeof aa_algos[0])

const cli_algo *cli_anyangle_algo(const char *name) {
  for (size_t i = 0; i < NAA; i++)
    if (strcmp(aa_algos[i].name, name) == 0) return &aa_algos[i];
  return NULL;
}

size_t cli_anyangle_list(char *buf, size_t size) {
  size_t used = 0;
  for (size_t i = 0; i < NAA && used < size; i++)
    used += (size_t)snprintf(buf + used, size - used, "|%s", aa_algos[i].name);
  return used;
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
  if (opt->heuristic != ASTAR_H_AUTO)
    return "any-angle searches use the straight-line distance as their heuristic (drop "
           "--heuristic)";
  return NULL;
}

/* ---- string pulling (--smooth) ---------------------------------------------------- */

bool cli_smooth_solution(cli_solution *sol, const astar_grid *grid, const astar_options *opt) {
  if (sol->status != ASTAR_OK || sol->len == 0) return true;
  size_t len = 0;
  const double t0 = cli_now_seconds();
  const astar_status st = astar_path_smooth(grid, opt, sol->path, sol->len, sol->path, sol->len,
                                            &len);
  sol->smooth_seconds = cli_now_seconds() - t0;
  if (st != ASTAR_OK) {
    cli_error("--smooth: %s", astar_strerror(st));
    return false;
  }
  sol->grid_len = sol->len;
  sol->grid_cost = sol->result.cost;
  sol->len = len;
  sol->result.length = len;
  sol->result.cost = opt->straight_cost * astar_polyline_length(sol->path, len);
  return true;
}
