/*
** subgoal.c -- the tool's subgoal graphs (astar/subgoal.h): --algo subgoal
** as an algorithm with preprocessing (build / load / save / memory /
** graph size / release / find hooks for bench, solve and precompute; the
** searches go through a finder made with astar_finder_new_subgoal, algos.c)
** and its setting --levels (the row is HPA*'s, hpa.c: one option, two
** ranges, checked here once the algorithm is known).
*/
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The level count of the graphs the command builds (the tool runs one
** command): cli_levels_use. 0: N-level, the library's default. */
static uint32_t subgoal_levels;

int cli_levels_use(const cli_args *a, const cli_algo *algo, const char *command,
                   const astar_hpa_options *hpa) {
  const bool given = cli_given(a, "--levels") != 0;
  subgoal_levels = 0;
  if (!given || !algo) return -1;
  if (algo->method == ASTAR_METHOD_SUBGOAL) {
    subgoal_levels = (uint32_t)hpa->levels;
    return -1;
  }
  if (cli_algo_is_hpa(algo) && (hpa->levels < 1 || hpa->levels > ASTAR_HPA_MAX_LEVELS))
    return cli_usage_error("%s: --levels: expected an integer from 1 to %d with --algo hpa, got %d",
                           command, ASTAR_HPA_MAX_LEVELS, (int)hpa->levels);
  return -1;
}

static astar_status sg_build(void **ctx, const astar_grid *grid, const astar_options *opt) {
  *ctx = NULL;
  if (astar_subgoal_unsupported_reason(grid, opt)) return ASTAR_UNSUPPORTED;
  astar_subgoal_config cfg;
  astar_subgoal_config_init(&cfg);
  cfg.options = *opt;
  cfg.levels = subgoal_levels;
  astar_subgoal *sg = NULL;
  const astar_status st = astar_subgoal_build(&sg, grid, &cfg, NULL);
  *ctx = sg;
  return st;
}

/* A graph holds the costs of the rules it was built for: a file is refused
** (ASTAR_MISMATCH) for another map here, and for other costs by the finder
** (cli_prepare). */
static astar_status sg_load(void **ctx, const astar_grid *grid, const astar_options *opt,
                            const void *buf, size_t len, char *why, size_t size) {
  if (size) why[0] = '\0';
  astar_subgoal *sg = NULL;
  astar_status st = astar_subgoal_load(&sg, grid, buf, len, NULL);
  /* The rules are the finder's to compare (cli_prepare says which): a
  ** file refused here belongs to another map. */
  if (st == ASTAR_MISMATCH)
    snprintf(why, size,
             "the subgoal graph was built for another map (other size or cells): make one for "
             "this map (astar precompute MAP --method subgoal -o FILE; or drop --pre)");
  if (st == ASTAR_OK && astar_subgoal_unsupported_reason(grid, opt)) {
    snprintf(why, size, "%s", cli_reason_text(astar_subgoal_unsupported_reason(grid, opt)));
    st = ASTAR_UNSUPPORTED;
  }
  if (st != ASTAR_OK) {
    astar_subgoal_free(sg);
    sg = NULL;
  }
  *ctx = sg;
  return st;
}

static astar_status sg_save(const void *ctx, void *buf, size_t cap, size_t *len) {
  return astar_subgoal_save(ctx, buf, cap, len);
}

static size_t sg_memory(const void *ctx) {
  astar_subgoal_info info;
  return astar_subgoal_get_info(ctx, &info) == ASTAR_OK ? info.bytes : 0;
}

static void sg_graph_size(const void *ctx, size_t *nodes, size_t *edges) {
  astar_subgoal_info info;
  memset(&info, 0, sizeof info);
  (void)astar_subgoal_get_info(ctx, &info);
  *nodes = info.subgoals;
  *edges = (size_t)info.arcs;
}

static void sg_release(void *ctx) {
  astar_subgoal_free(ctx);
}

/* A search through a finder made for it (bench and solve keep one finder:
** cli_prepare; this is the self-contained path). */
static astar_status sg_find(const void *ctx, astar_workspace *ws, const astar_grid *grid,
                            const astar_options *opt, astar_point start, astar_point goal,
                            astar_point *path, size_t cap, astar_result *result) {
  astar_finder_config cfg;
  astar_finder_config_init(&cfg);
  cfg.options = *opt;
  cfg.options.algorithm = ASTAR_ALGO_ASTAR;
  astar_finder *f = NULL;
  astar_status st = astar_finder_new_subgoal(&f, grid, ctx, &cfg, NULL);
  astar_path_result pr;
  memset(&pr, 0, sizeof pr);
  if (st == ASTAR_OK) st = astar_finder_find(f, ws, start, goal, path, cap, &pr);
  astar_finder_free(f);
  if (result) {
    memset(result, 0, sizeof *result);
    result->end = (astar_point){-1, -1};
    result->cause = st;
    if (st == ASTAR_OK || st == ASTAR_BUFFER_TOO_SMALL || st == ASTAR_LIMIT_REACHED) {
      result->cost = pr.cost;
      result->length = pr.length;
      result->stats = pr.stats;
      result->end = pr.end;
      result->cause = pr.cause;
    }
  }
  return st;
}

static uint64_t le32(const char *p) {
  return (uint64_t)(unsigned char)p[0] | (uint64_t)(unsigned char)p[1] << 8 |
         (uint64_t)(unsigned char)p[2] << 16 | (uint64_t)(unsigned char)p[3] << 24;
}

/* A subgoal graph file (astar_subgoal_save, format 2): a 72-byte header,
** then per subgoal a level byte and three words, and two words per arc entry
** (its end and what it is a shortcut over; bytes 28 and 32 of the header
** give the counts), padded to 8 bytes. A map has at
** most a subgoal a passable cell; a header beyond that stops the read (load
** says what is wrong). */
static void sg_limit(const astar_grid *grid, const char *head, size_t len, cli_limit *out) {
  const int32_t w = astar_grid_width(grid), h = astar_grid_height(grid);
  const uint64_t p = astar_grid_count_passable(grid);
  out->stop = false;
  out->bytes = 72;
  snprintf(out->what, sizeof out->what, "the header of a subgoal graph file of this %d x %d map",
           (int)w, (int)h);
  if (cli_pre_magic_differs(head, len, "ASTARSGG", out) || len < 36) return;
  const uint64_t n = le32(head + 28), m = le32(head + 32);
  if (n > p) {
    out->stop = true;
    return;
  }
  out->bytes = 72 + ((n + 4 * (n + 1) + 4 * n + 8 * m + 7) & ~(uint64_t)7);
  snprintf(out->what, sizeof out->what,
           "the size of a subgoal graph file of the %llu subgoals and %llu arc entries its header "
           "gives",
           (unsigned long long)n, (unsigned long long)m);
}

const cli_pre_ops cli_subgoal_ops = {sg_build,   sg_load, sg_save,  sg_memory, sg_graph_size,
                                     sg_release, sg_find, sg_limit, NULL};

astar_status cli_subgoal_find(astar_workspace *ws, const astar_grid *grid, const astar_options *opt,
                              astar_point start, astar_point goal, astar_point *path, size_t cap,
                              astar_result *result) {
  return cli_pre_find_once(&cli_subgoal_ops, ws, grid, opt, start, goal, path, cap, result);
}

void cli_subgoal_report(FILE *out, const void *ctx) {
  astar_subgoal_info info;
  if (astar_subgoal_get_info(ctx, &info) != ASTAR_OK) return;
  fprintf(out, "subgoal:  %u subgoals, %llu arcs, %u level%s (top: %u subgoals, %llu arcs)\n",
          info.subgoals, (unsigned long long)info.arcs, info.levels, info.levels == 1 ? "" : "s",
          info.top_subgoals, (unsigned long long)info.top_arcs);
}
