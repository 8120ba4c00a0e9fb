/*
** algos.c -- the table of search algorithms selectable with --algo, and the
** preparation of an algorithm for one map (building or loading its
** preprocessing). An online algorithm is one line in the table; one with
** preprocessing adds a cli_pre_ops.
*/
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <astar/jps_plus.h>

#include "cli.h"

double cli_now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Jump Point Search: astar_find_path with options.algorithm set. */
static astar_status find_jps(astar_workspace *ws, const astar_grid *grid, const astar_options *opt,
                             astar_point start, astar_point goal, astar_point *path, size_t cap,
                             astar_result *result) {
  astar_options o = *opt;
  o.algorithm = ASTAR_ALGO_JPS;
  return astar_find_path(ws, grid, &o, start, goal, path, cap, result);
}

/* ---- JPS+ ------------------------------------------------------------------ */

static astar_status jpp_build(void **ctx, const astar_grid *grid) {
  astar_jps_plus *pre = NULL;
  astar_status st = astar_jps_plus_new(&pre, grid, NULL);
  *ctx = pre;
  return st;
}

static astar_status jpp_load(void **ctx, const astar_grid *grid, const void *buf, size_t len) {
  astar_jps_plus *pre = NULL;
  astar_status st = astar_jps_plus_load(&pre, grid, buf, len, NULL);
  *ctx = pre;
  return st;
}

static astar_status jpp_save(const void *ctx, void *buf, size_t cap, size_t *len) {
  return astar_jps_plus_save(ctx, buf, cap, len);
}

static size_t jpp_memory(const void *ctx) {
  return astar_jps_plus_memory(ctx);
}

static void jpp_release(void *ctx) {
  astar_jps_plus_free(ctx);
}

static astar_status jpp_find(const void *ctx, astar_workspace *ws, const astar_grid *grid,
                             const astar_options *opt, astar_point start, astar_point goal,
                             astar_point *path, size_t cap, astar_result *result) {
  return astar_jps_plus_find_path(ws, ctx, grid, opt, start, goal, path, cap, result);
}

/* One-shot JPS+ (run, solve): precompute, search, release. */
static astar_status find_jps_plus(astar_workspace *ws, const astar_grid *grid,
                                  const astar_options *opt, astar_point start, astar_point goal,
                                  astar_point *path, size_t cap, astar_result *result) {
  astar_jps_plus *pre = NULL;
  astar_status st = astar_jps_plus_new(&pre, grid, NULL);
  if (st != ASTAR_OK) {
    if (result) memset(result, 0, sizeof *result);
    return st;
  }
  st = astar_jps_plus_find_path(ws, pre, grid, opt, start, goal, path, cap, result);
  astar_jps_plus_free(pre);
  return st;
}

static const cli_pre_ops jps_plus_ops = {jpp_build,  jpp_load,    jpp_save,
                                         jpp_memory, jpp_release, jpp_find};

/* ---- the table ---------------------------------------------------------------- */

static const cli_algo algos[] = {
    {"astar", "A* over the cells (astar_find_path)", astar_find_path, NULL, ASTAR_ALGO_ASTAR},
    {"jps", "Jump Point Search, online (options.algorithm = ASTAR_ALGO_JPS)", find_jps, NULL,
     ASTAR_ALGO_JPS},
    {"jps-plus", "JPS+ over precomputed jump distances (astar/jps_plus.h)", find_jps_plus,
     &jps_plus_ops, ASTAR_ALGO_JPS},
};

#define NALGOS (sizeof algos / sizeof algos[0])

void cli_algo_list(char *buf, size_t size) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < NALGOS && used < size; i++)
    used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? "|" : "", algos[i].name);
}

const cli_algo *cli_find_algo(const char *name) {
  for (size_t i = 0; i < NALGOS; i++)
    if (strcmp(algos[i].name, name) == 0) return &algos[i];
  char list[256];
  cli_algo_list(list, sizeof list);
  cli_error("--algo: expected one of %s, got '%s'", list, name);
  return NULL;
}

const char *cli_algo_unsupported(const cli_algo *algo, const astar_options *opt,
                                 const astar_grid *grid) {
  astar_options o = *opt;
  o.algorithm = algo->rules;
  return astar_unsupported_reason(&o, grid);
}

const char *cli_algo_unsupported_options(const cli_algo *algo, const astar_options *opt) {
  /* A 1x1 grid has no terrain or other property to object to: what is
  ** left are the options. */
  astar_grid *one = NULL;
  if (astar_grid_new(&one, 1, 1, NULL) != ASTAR_OK) return NULL;
  const char *why = cli_algo_unsupported(algo, opt, one);
  astar_grid_free(one);
  return why;
}

/* ---- preparing an algorithm for a map --------------------------------------------- */

bool cli_prepare(cli_prepared *out, const cli_algo *algo, const astar_grid *grid, const char *label,
                 const char *pre_file) {
  memset(out, 0, sizeof *out);
  out->algo = algo;
  out->grid = grid;
  if (!algo->pre) return true;
  double t0 = cli_now_seconds();
  astar_status st;
  if (pre_file) {
    char *data;
    size_t len;
    if (!cli_read_file(pre_file, &data, &len)) return false;
    st = algo->pre->load(&out->ctx, grid, data, len);
    free(data);
    if (st != ASTAR_OK) {
      cli_error("%s: %s", pre_file,
                st == ASTAR_PARSE_ERROR        ? "not a valid precomputation file (damaged, "
                                                 "truncated or another format)"
                : st == ASTAR_INVALID_ARGUMENT ? "the precomputation belongs to another map"
                                               : astar_strerror(st));
      return false;
    }
  } else {
    st = algo->pre->build(&out->ctx, grid);
    if (st != ASTAR_OK) {
      cli_error("%s: cannot precompute %s: %s", label, algo->name, astar_strerror(st));
      return false;
    }
  }
  out->seconds = cli_now_seconds() - t0;
  out->bytes = algo->pre->memory(out->ctx);
  return true;
}

astar_status cli_prepared_find(const cli_prepared *p, astar_workspace *ws, const astar_options *opt,
                               astar_point start, astar_point goal, astar_point *path, size_t cap,
                               astar_result *result) {
  if (p->algo->pre)
    return p->algo->pre->find(p->ctx, ws, p->grid, opt, start, goal, path, cap, result);
  return p->algo->find(ws, p->grid, opt, start, goal, path, cap, result);
}

void cli_prepared_free(cli_prepared *p) {
  if (p->algo && p->algo->pre && p->ctx) p->algo->pre->release(p->ctx);
  p->ctx = NULL;
}
