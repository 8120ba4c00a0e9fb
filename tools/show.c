/*
** show.c -- one search, start to finish, and its report: used by `run` and
** `solve`, which differ only in where the map comes from.
*/
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

bool cli_solve_once(const cli_algo *algo, const astar_grid *grid, const astar_options *opt,
                    astar_point start, astar_point goal, const char *label, const char *pre_file,
                    cli_solution *sol) {
  memset(sol, 0, sizeof *sol);
  /* The preprocessing (JPS+) is built or loaded first and timed on its own:
  ** the search time is the search's. */
  cli_prepared prep;
  if (!cli_prepare(&prep, algo, grid, opt, label, pre_file)) return false;
  sol->pre_seconds = prep.seconds;
  sol->pre_bytes = prep.bytes;
  sol->pre_file = algo->pre ? pre_file : NULL;
  sol->has_pre = algo->pre != NULL;
  /* A shortest path never visits a cell twice, so the passable count bounds it. */
  size_t cap = astar_grid_count_passable(grid);
  if (cap == 0) cap = 1;
  astar_workspace *ws = NULL;
  astar_status st = astar_workspace_new(&ws, grid, NULL);
  if (st == ASTAR_OK && opt->turn_penalty > 0) st = astar_workspace_reserve_turns(ws, grid);
  sol->path = malloc(cap * sizeof *sol->path);
  if (st != ASTAR_OK || !sol->path) {
    cli_error("cannot create a search workspace: %s",
              astar_strerror(st != ASTAR_OK ? st : ASTAR_NO_MEMORY));
    astar_workspace_free(ws);
    free(sol->path);
    sol->path = NULL;
    cli_prepared_free(&prep);
    return false;
  }
  double t0 = now_seconds();
  sol->status = cli_prepared_find(&prep, ws, opt, start, goal, sol->path, cap, &sol->result);
  sol->seconds = now_seconds() - t0;
  sol->len = (sol->status == ASTAR_OK || sol->status == ASTAR_PARTIAL) ? sol->result.length : 0;
  if (algo->engine) {
    sol->method = algo->method;
    sol->variant = *cli_variant_last();
  }
  astar_workspace_free(ws);
  cli_prepared_free(&prep);
  return true;
}

void cli_solution_free(cli_solution *sol) {
  free(sol->path);
  sol->path = NULL;
  astar_knowledge_free(sol->knowledge);
  sol->knowledge = NULL;
  astar_layer_free(sol->layer);
  sol->layer = NULL;
}

/* A friendlier wording of the search outcomes than astar_strerror's. */
static const char *outcome(astar_status st) {
  switch (st) {
  case ASTAR_OK:
    return "path found";
  case ASTAR_NO_PATH:
    return "no path: the goal cannot be reached from the start";
  case ASTAR_LIMIT_REACHED:
    return "gave up: --max-expansions reached before the goal";
  case ASTAR_START_BLOCKED:
    return "the start cell is blocked";
  case ASTAR_GOAL_BLOCKED:
    return "the goal cell is blocked";
  case ASTAR_OUT_OF_BOUNDS:
    return "the start or the goal lies outside the map";
  case ASTAR_PARTIAL:
    return "partial path: the goal was not reached; the path ends at the best cell found";
  case ASTAR_STOPPED:
    return "stopped by the deadline";
  default:
    return astar_strerror(st);
  }
}

/* What the engine's variants report besides the path. */
static void print_variant(FILE *out, const cli_solution *sol) {
  const astar_status st = sol->status;
  if (st != ASTAR_OK && st != ASTAR_NO_PATH && st != ASTAR_LIMIT_REACHED && st != ASTAR_PARTIAL &&
      st != ASTAR_BUFFER_TOO_SMALL)
    return; /* the search did not run */
  const unsigned long long dropped = (unsigned long long)sol->variant.dropped;
  const unsigned long long iterations = (unsigned long long)sol->variant.iterations;
  switch (sol->method) {
  case ASTAR_METHOD_BEAM:
  case ASTAR_METHOD_BANDWIDTH:
    if (sol->status == ASTAR_NO_PATH && dropped)
      fprintf(out,
              "dropped:  %llu nodes left the open list: the goal may be reachable all "
              "the same\n",
              dropped);
    else
      fprintf(out, "dropped:  %llu nodes left the open list%s\n", dropped,
              dropped ? "" : " (none)");
    break;
  case ASTAR_METHOD_IDA:
    fprintf(out, "iterations: %llu (f bounds tried)\n", iterations);
    break;
  case ASTAR_METHOD_RETARGETING:
    fprintf(out, "legs:     %llu (searches toward a new target)\n", iterations);
    break;
  default:
    break;
  }
}

void cli_print_solution(FILE *out, const cli_solution *sol, bool with_path) {
  if (sol->status == ASTAR_NO_PATH && sol->variant.dropped)
    fputs("status:   no path found (nodes were dropped)\n", out);
  else
    fprintf(out, "status:   %s\n", outcome(sol->status));
  print_variant(out, sol);
  const bool has_path = sol->status == ASTAR_OK || sol->status == ASTAR_PARTIAL;
  if (sol->status == ASTAR_PARTIAL)
    fprintf(out, "reason:   %s; ends at (%d,%d)\n", outcome(sol->result.cause),
            (int)sol->result.end.x, (int)sol->result.end.y);
  else if (sol->status == ASTAR_OK && sol->result.retargeted)
    fprintf(out,
            "goal:     replaced (--retarget): the goal is unreachable from the start; the path "
            "goes to (%d,%d), the reachable cell nearest to it\n",
            (int)sol->result.end.x, (int)sol->result.end.y);
  else if (sol->status == ASTAR_OK && sol->result.end.x >= 0)
    fprintf(out, "reached:  (%d,%d)\n", (int)sol->result.end.x, (int)sol->result.end.y);
  if (has_path) {
    char cost[64];
    cli_format_cost(cost, sizeof cost, sol->result.cost);
    fprintf(out, "cost:     %s\n", cost);
    fprintf(out, "length:   %zu cells (%zu moves)\n", sol->len, sol->len ? sol->len - 1 : 0);
  }
  fputs("work:     ", out);
  cli_print_stats(out, &sol->result.stats);
  fprintf(out, " in %.3f ms", sol->seconds * 1e3);
  if (sol->steps) fprintf(out, ", %llu steps", (unsigned long long)sol->steps);
  fputc('\n', out);
  if (sol->has_pre) {
    if (sol->pre_file)
      fprintf(out, "prepared: loaded %s in %.3f ms (%zu bytes; not part of the search time)\n",
              sol->pre_file, sol->pre_seconds * 1e3, sol->pre_bytes);
    else
      fprintf(out, "prepared: precomputed in %.3f ms (%zu bytes; not part of the search time)\n",
              sol->pre_seconds * 1e3, sol->pre_bytes);
  }
  if (with_path && has_path) {
    fputs("path:     ", out);
    cli_print_path(out, sol->path, sol->len, 10, 100);
  }
}

void cli_print_map_line(FILE *out, const char *label, const astar_grid *grid) {
  fprintf(out, "map:      %s (%d x %d, %zu open cells", label, (int)astar_grid_width(grid),
          (int)astar_grid_height(grid), astar_grid_count_passable(grid));
  if (astar_grid_has_terrain(grid)) fputs(", with terrain costs", out);
  fputs(")\n", out);
}
