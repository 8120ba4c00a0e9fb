/*
** hpa.c -- the tool's HPA* (astar/hierarchy.h): --algo hpa as an algorithm
** with preprocessing (build / load / save / memory / release / find hooks
** for bench and precompute, a self-contained search for run and solve) and
** its settings --cluster, --levels, --no-smooth, parsed by every command
** that takes --algo.
*/
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The settings of the command line (the tool runs one command): cli_hpa_use. */
static astar_hpa_options hpa_settings = {16, 1, 2, 6, true};

static const cli_opt hpa_rows[] = {
    {.name = "--cluster",
     .meta = "N",
     .kind = CLI_INT,
     CLI_AT(astar_hpa_options, cluster_size),
     .min = ASTAR_HPA_MIN_CLUSTER,
     .max = ASTAR_HPA_MAX_CLUSTER,
     .algos = "hpa",
     .help = "side of a level-1 cluster in cells, %r (default 16)"},
    {.name = "--levels",
     .meta = "L",
     .kind = CLI_INT,
     CLI_AT(astar_hpa_options, levels),
     .min = 0,
     .max = 64,
     .algos = "hpa|subgoal",
     .sample = "2",
     .help = "hpa: levels of the hierarchy, 1 to 4 (default 1); a level\n"
             "groups 2 x 2 clusters of the level below. subgoal: 1 the\n"
             "simple graph, 2 two-level, N at most N levels, 0 N-level\n"
             "(default: rounds until one lowers under 1 % of the top\n"
             "subgoals). %r"},
    {.name = "--no-smooth",
     .kind = CLI_FLAG,
     CLI_AT(astar_hpa_options, smooth),
     .set = CLI_OFF,
     .algos = "hpa",
     .help = "keep the refined path as it is (no straight-line smoothing)"},
};
const cli_group cli_hpa_group = CLI_ROWS(hpa_rows);

void cli_hpa_defaults(astar_hpa_options *o) {
  astar_hpa_options_init(o);
}

void cli_hpa_use(const astar_hpa_options *o) {
  hpa_settings = *o;
}

/* The hierarchy and one query object (the tool searches on one thread). */
typedef struct hpa_ctx {
  astar_hpa *hpa;
  astar_hpa_query *q;
} hpa_ctx;

static void hpa_release(void *ctx) {
  hpa_ctx *c = ctx;
  if (!c) return;
  astar_hpa_query_free(c->q);
  astar_hpa_free(c->hpa);
  free(c);
}

static astar_status finish(void **ctx, hpa_ctx *c, astar_status st) {
  if (st == ASTAR_OK) st = astar_hpa_query_new(&c->q, c->hpa, NULL);
  if (st != ASTAR_OK) {
    hpa_release(c);
    c = NULL;
  }
  *ctx = c;
  return st;
}

static astar_status hpa_build(void **ctx, const astar_grid *grid, const astar_options *opt) {
  hpa_ctx *c = calloc(1, sizeof *c);
  *ctx = NULL;
  if (!c) return ASTAR_NO_MEMORY;
  return finish(ctx, c, astar_hpa_new(&c->hpa, grid, opt, &hpa_settings, NULL));
}

/* The hierarchy's abstract costs are those of the rules it was built for:
** a file is refused for a search under other rules (astar_hpa_load's
** ASTAR_MISMATCH), and the message says which rules each has. */
static astar_status hpa_load(void **ctx, const astar_grid *grid, const astar_options *opt,
                             const void *buf, size_t len, char *why, size_t size) {
  hpa_ctx *c = calloc(1, sizeof *c);
  *ctx = NULL;
  if (!c) return ASTAR_NO_MEMORY;
  const astar_status st = astar_hpa_load(&c->hpa, grid, opt, buf, len, NULL);
  astar_options file;
  if (st == ASTAR_UNSUPPORTED)
    snprintf(why, size,
             "HPA* cannot search with a turn penalty, a terrain scale, layers or fog (its "
             "abstract costs cannot hold them)");
  else if (st == ASTAR_MISMATCH && astar_hpa_file_options(buf, len, &file, NULL) == ASTAR_OK)
    cli_pre_refusal(why, size, "HPA* hierarchy", "hpa", &file, opt);
  return finish(ctx, c, st);
}

static astar_status hpa_save(const void *ctx, void *buf, size_t cap, size_t *len) {
  return astar_hpa_save(((const hpa_ctx *)ctx)->hpa, buf, cap, len);
}

static size_t hpa_memory(const void *ctx) {
  const hpa_ctx *c = ctx;
  return astar_hpa_memory(c->hpa) + astar_hpa_query_memory(c->q);
}

static void hpa_graph_size(const void *ctx, size_t *nodes, size_t *edges) {
  astar_hpa_stats s;
  astar_hpa_get_stats(((const hpa_ctx *)ctx)->hpa, &s);
  *nodes = s.level[s.levels - 1].nodes;
  *edges = (size_t)s.level[s.levels - 1].arcs;
}

static astar_status hpa_find(const void *ctx, astar_workspace *ws, const astar_grid *grid,
                             const astar_options *opt, astar_point start, astar_point goal,
                             astar_point *path, size_t cap, astar_result *result) {
  const hpa_ctx *c = ctx;
  (void)ws, (void)opt; /* the movement rules are the hierarchy's */
  astar_hpa_result hr;
  const astar_status st = astar_hpa_find_path(c->q, c->hpa, grid, start, goal, path, cap, &hr);
  if (result) {
    memset(result, 0, sizeof *result);
    result->cost = hr.cost;
    result->length = hr.length;
    result->stats.expanded = hr.expanded_top + hr.expanded_insert + hr.expanded_refine;
    result->end = st == ASTAR_OK ? goal : (astar_point){-1, -1};
    result->cause = st;
  }
  return st;
}

static uint32_t le32(const char *p) {
  return (uint32_t)(unsigned char)p[0] | (uint32_t)(unsigned char)p[1] << 8 |
         (uint32_t)(unsigned char)p[2] << 16 | (uint32_t)(unsigned char)p[3] << 24;
}

/* An HPA* file (astar_hpa_save): a 72-byte header, per cluster of each
** level its node count, crossings and entrances (12 bytes), its nodes (4
** bytes each), the costs between them (8 bytes a pair) and, on level 1,
** per node a crossing count (4) and per crossing -- at most 8 a node -- a
** cell and two costs (20); an 8-byte checksum. A cluster's nodes lie on its
** border: at most 4 x its side (and its cells). The header gives the
** cluster side, the levels and the ratio between them (bytes 20, 24, 28);
** settings out of their ranges stop the read (load says what is wrong). */
static void hpa_limit(const astar_grid *grid, const char *head, size_t len, cli_limit *out) {
  const uint64_t w = (uint64_t)astar_grid_width(grid), h = (uint64_t)astar_grid_height(grid);
  out->stop = false;
  /* Until the header is read: the largest settings' bound, one level of
  ** clusters as wide as the map. */
  uint64_t side = w > h ? w : h;
  int32_t cluster = 0, levels = 1, ratio = 1;
  if (!cli_pre_magic_differs(head, len, "ASTARHPA", out) && len >= 32) {
    cluster = (int32_t)le32(head + 20);
    levels = (int32_t)le32(head + 24);
    ratio = (int32_t)le32(head + 28);
    uint64_t top = (uint64_t)(cluster > 0 ? cluster : 0);
    for (int32_t l = 1; l < levels && l < ASTAR_HPA_MAX_LEVELS; l++) top *= (uint64_t)ratio;
    if (cluster < ASTAR_HPA_MIN_CLUSTER || cluster > ASTAR_HPA_MAX_CLUSTER || levels < 1 ||
        levels > ASTAR_HPA_MAX_LEVELS || ratio < 2 || ratio > 8 || top > ASTAR_HPA_MAX_TOP_SIDE) {
      out->stop = true;
      return;
    }
    side = (uint64_t)cluster;
  }
  uint64_t bytes = 80;
  for (int32_t l = 0; l < levels; l++, side *= (uint64_t)ratio) {
    const uint64_t sx = side < w ? side : w, sy = side < h ? side : h;
    const uint64_t clusters = ((w + side - 1) / side) * ((h + side - 1) / side);
    const uint64_t n = 4 * side < sx * sy ? 4 * side : sx * sy;
    bytes += clusters * (12 + 168 * n + 8 * n * n);
  }
  out->bytes = bytes;
  if (cluster)
    snprintf(out->what, sizeof out->what,
             "the most an HPA* file of this %d x %d map holds (clusters of %d cells, %d level%s, "
             "as its header says)",
             (int)w, (int)h, (int)cluster, (int)levels, levels == 1 ? "" : "s");
  else
    snprintf(out->what, sizeof out->what, "the most an HPA* file of this %d x %d map holds", (int)w,
             (int)h);
}

static void hpa_attach(const void *ctx, astar_finder_config *cfg) {
  cfg->hpa = ctx ? ((const hpa_ctx *)ctx)->hpa : NULL;
}

const cli_pre_ops cli_hpa_ops = {hpa_build,   hpa_load, hpa_save,  hpa_memory, hpa_graph_size,
                                 hpa_release, hpa_find, hpa_limit, hpa_attach};

astar_status cli_hpa_find(astar_workspace *ws, const astar_grid *grid, const astar_options *opt,
                          astar_point start, astar_point goal, astar_point *path, size_t cap,
                          astar_result *result) {
  return cli_pre_find_once(&cli_hpa_ops, ws, grid, opt, start, goal, path, cap, result);
}

bool cli_algo_is_hpa(const cli_algo *algo) {
  return algo && algo->pre == &cli_hpa_ops;
}
