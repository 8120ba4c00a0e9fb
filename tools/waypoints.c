/*
** waypoints.c -- `--space waypoints` of solve and bench: the engine's
** methods on the grid's waypoint graph (astar/waypoints.h), built per map
** as preprocessing (timed apart from the searches), and the report of an
** any-angle path: its waypoints, the cells walked between them and a
** picture with both.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <astar/waypoints.h>

#include "cli.h"

/* ---- the preprocessing: the graph ------------------------------------------------ */

static astar_status wp_build(void **ctx, const astar_grid *grid, const astar_options *opt) {
  astar_waypoints *wp = NULL;
  const astar_status st = astar_waypoints_new(&wp, grid, opt, 0, NULL);
  *ctx = wp;
  return st;
}

static size_t wp_memory(const void *ctx) {
  return astar_waypoints_memory(ctx);
}

static void wp_graph_size(const void *ctx, size_t *nodes, size_t *edges) {
  *nodes = astar_waypoints_count(ctx);
  *edges = astar_waypoints_edge_count(ctx);
}

static void wp_release(void *ctx) {
  astar_waypoints_free(ctx);
}

/* One query with the engine's `method`: the path's waypoints into path[],
** the engine's result as the grid's. */
static astar_status wp_find(astar_method method, const void *ctx, astar_workspace *ws,
                            const astar_grid *grid, const astar_options *opt, astar_point start,
                            astar_point goal, astar_point *path, size_t cap, astar_result *result) {
  const astar_waypoints *wp = ctx;
  if (result) memset(result, 0, sizeof *result);
  /* Reserved once; later calls on the same workspace allocate nothing. */
  astar_status st = astar_waypoints_reserve(
      ws, wp, method == ASTAR_METHOD_BIDIRECTIONAL ? ASTAR_RESERVE_BACKWARD : 0u);
  if (st != ASTAR_OK) return st;
  astar_engine_options eo;
  astar_engine_options_init(&eo);
  eo.method = method;
  eo.weight = opt->weight;
  eo.tie = opt->tie;
  eo.reopen = opt->reopen;
  eo.max_expansions = opt->max_expansions;
  eo.partial = opt->partial;
  astar_engine_result er;
  st = astar_waypoints_find_path(ws, wp, grid, &eo, start, goal, path, cap, &er);
  if (result) {
    result->cost = er.cost;
    result->length = er.length;
    result->stats = er.stats;
    result->cause = er.cause;
    const bool has = (st == ASTAR_OK || st == ASTAR_PARTIAL) && er.length > 0;
    result->end = has ? path[er.length - 1] : (astar_point){-1, -1};
  }
  return st;
}

#define WP_METHOD(name, method)                                                                    \
  static astar_status name(const void *ctx, astar_workspace *ws, const astar_grid *grid,           \
                           const astar_options *opt, astar_point start, astar_point goal,          \
                           astar_point *path, size_t cap, astar_result *result) {                  \
    return wp_find(method, ctx, ws, grid, opt, start, goal, path, cap, result);                    \
  }
WP_METHOD(wp_astar, ASTAR_METHOD_ASTAR)
WP_METHOD(wp_dijkstra, ASTAR_METHOD_DIJKSTRA)
WP_METHOD(wp_greedy, ASTAR_METHOD_GREEDY)
WP_METHOD(wp_bidir, ASTAR_METHOD_BIDIRECTIONAL)

static void wp_attach(const void *ctx, astar_finder_config *cfg) {
  cfg->waypoints = ctx;
}

/* No file format: load and save are NULL (cli_prepare refuses --pre). */
#define WP_OPS(name, find)                                                                         \
  static const cli_pre_ops name = {wp_build,   NULL, NULL, wp_memory, wp_graph_size,               \
                                   wp_release, find, NULL, wp_attach};
WP_OPS(ops_astar, wp_astar)
WP_OPS(ops_dijkstra, wp_dijkstra)
WP_OPS(ops_greedy, wp_greedy)
WP_OPS(ops_bidir, wp_bidir)

/* One-shot searches (run, solve without the prepared path): build, search,
** release. */
static astar_status one_shot(const cli_pre_ops *ops, astar_workspace *ws, const astar_grid *grid,
                             const astar_options *opt, astar_point start, astar_point goal,
                             astar_point *path, size_t cap, astar_result *result) {
  void *ctx = NULL;
  astar_status st = wp_build(&ctx, grid, opt);
  if (st == ASTAR_OK)
    st = ops->find(ctx, ws, grid, opt, start, goal, path, cap, result);
  else if (result)
    memset(result, 0, sizeof *result);
  wp_release(ctx);
  return st;
}

#define WP_ONE_SHOT(name, ops)                                                                     \
  static astar_status name(astar_workspace *ws, const astar_grid *grid, const astar_options *opt,  \
                           astar_point start, astar_point goal, astar_point *path, size_t cap,     \
                           astar_result *result) {                                                 \
    return one_shot(&(ops), ws, grid, opt, start, goal, path, cap, result);                        \
  }
WP_ONE_SHOT(once_astar, ops_astar)
WP_ONE_SHOT(once_dijkstra, ops_dijkstra)
WP_ONE_SHOT(once_greedy, ops_greedy)
WP_ONE_SHOT(once_bidir, ops_bidir)

static const cli_algo wp_algos[] = {
    {"astar", "A* on the waypoint graph (any-angle)", once_astar, &ops_astar, ASTAR_ALGO_ASTAR,
     true, ASTAR_METHOD_ASTAR},
    {"dijkstra", "Dijkstra on the waypoint graph (any-angle)", once_dijkstra, &ops_dijkstra,
     ASTAR_ALGO_ASTAR, true, ASTAR_METHOD_DIJKSTRA},
    {"greedy", "greedy best-first on the waypoint graph", once_greedy, &ops_greedy,
     ASTAR_ALGO_ASTAR, true, ASTAR_METHOD_GREEDY},
    {"bidir", "bidirectional A* on the waypoint graph", once_bidir, &ops_bidir, ASTAR_ALGO_ASTAR,
     true, ASTAR_METHOD_BIDIRECTIONAL},
};

const cli_algo *cli_algo_on_waypoints(const cli_algo *algo) {
  for (size_t i = 0; i < sizeof wp_algos / sizeof wp_algos[0]; i++)
    if (strcmp(wp_algos[i].name, algo->name) == 0) return &wp_algos[i];
  cli_error("--space waypoints: %s searches the grid only (the waypoint graph is searched by "
            "astar, dijkstra, greedy, bidir)",
            algo->name);
  return NULL;
}

bool cli_algo_is_waypoints(const cli_algo *algo) {
  for (size_t i = 0; i < sizeof wp_algos / sizeof wp_algos[0]; i++)
    if (algo == &wp_algos[i]) return true;
  return false;
}

const char *cli_waypoints_unsupported(const astar_options *opt, const astar_grid *grid) {
  if (opt->moves != 8 || opt->corner == ASTAR_CORNER_NEVER)
    return "a waypoint graph joins cells in sight along any angle; it needs diagonal moves "
           "(--moves 8 and a corner rule other than never)";
  if (grid && astar_grid_has_terrain(grid))
    return "the grid has terrain costs; waypoint graphs cost straight-line distance (use --space "
           "grid)";
  return NULL;
}

/* ---- the report ---------------------------------------------------------------------- */

void cli_print_any_angle_solution(FILE *out, const cli_solution *sol, const astar_grid *grid,
                                  const astar_options *opt, astar_point start, astar_point goal,
                                  bool picture, const char *what) {
  const bool has_path = sol->status == ASTAR_OK || sol->status == ASTAR_PARTIAL;
  /* The cells walked between the waypoints, checked as a grid path: on the
  ** player's view under fog (neighbours in sight there are its legal moves;
  ** astar_path_cost reads the map's truth, which the player may not know). */
  astar_point *cells = NULL;
  size_t ncells = 0;
  double grid_cost = 0;
  astar_status walk = ASTAR_NO_PATH;
  if (has_path &&
      astar_waypoints_expand(sol->path, sol->len, NULL, 0, &ncells) == ASTAR_BUFFER_TOO_SMALL &&
      (cells = malloc(ncells * sizeof *cells)) != NULL &&
      astar_waypoints_expand(sol->path, sol->len, cells, ncells, &ncells) == ASTAR_OK) {
    walk = opt->knowledge ? astar_polyline_cost(grid, opt, cells, ncells, &grid_cost, NULL)
                          : astar_path_cost(grid, opt, cells, ncells, &grid_cost, NULL);
  } else if (has_path && sol->len == 1) {
    cells = malloc(sizeof *cells);
    if (cells) cells[0] = sol->path[0], ncells = 1, walk = ASTAR_OK;
  }
  if (sol->status == ASTAR_OK)
    fprintf(out, "status:   path found (%s)\n", what);
  else
    fprintf(out, "status:   %s\n", astar_strerror(sol->status));
  if (has_path) {
    char cost[64];
    cli_format_cost(cost, sizeof cost, sol->result.cost);
    const bool weighted = astar_grid_has_terrain(grid) || opt->nlayers ||
                          (opt->knowledge && opt->unknown == ASTAR_UNKNOWN_COST);
    fprintf(out, "cost:     %s (straight segments between waypoints%s)\n", cost,
            weighted ? ", each cell crossed weighted by its cost" : "");
    if (sol->grid_len) {
      char gcost[64], scost[96] = "";
      cli_format_cost(gcost, sizeof gcost, sol->grid_cost);
      /* What smoothing compares with: the grid path as segments, when that
      ** is not its cost (terrain, other move costs, turn penalties). */
      const double seg = sol->grid_segments_cost;
      if (seg >= 0 && fabs(seg - sol->grid_cost) > 1e-9 * (seg > 1 ? seg : 1)) {
        char v[48];
        cli_format_cost(v, sizeof v, seg);
        snprintf(scost, sizeof scost, " (%s as straight segments)", v);
      }
      fprintf(out, "smoothed: the grid path of %zu cells and cost %s%s, in %.3f ms\n",
              sol->grid_len, gcost, scost, sol->smooth_seconds * 1e3);
    }
    fprintf(out, "waypoints: %zu (%zu segments): ", sol->len, sol->len ? sol->len - 1 : 0);
    cli_print_path(out, sol->path, sol->len, 11, 100);
    if (walk == ASTAR_OK && opt->knowledge) {
      fprintf(out,
              "cells:    %zu walked along the segments, a legal grid path on the map as the "
              "searcher knows it (--fog)\n",
              ncells);
    } else if (walk == ASTAR_OK) {
      char gcost[64];
      cli_format_cost(gcost, sizeof gcost, grid_cost);
      fprintf(out, "cells:    %zu walked along the segments, a legal grid path of grid cost %s\n",
              ncells, gcost);
    } else if (cells) {
      fprintf(out, "cells:    %zu walked along the segments, NOT a legal grid path (a bug)\n",
              ncells);
    }
  }
  fputs("work:     ", out);
  cli_print_stats(out, &sol->result.stats);
  fprintf(out, " in %.3f ms%s\n", sol->seconds * 1e3,
          sol->has_pre ? " (start and goal inserted, then searched)" : "");
  if (sol->has_pre)
    fprintf(out,
            "prepared: waypoint graph built in %.3f ms (%zu bytes; not part of the search "
            "time)\n",
            sol->pre_seconds * 1e3, sol->pre_bytes);
  if (picture) {
    cli_picture pic = {grid, cells,     ncells,  start, goal, cli_want_color(out),
                       true, sol->path, sol->len};
    putc('\n', out);
    cli_draw(out, &pic);
    fputs("legend: S start, G goal, o waypoint (a bend), * cells walked, # blocked, . open\n", out);
  }
  free(cells);
}
