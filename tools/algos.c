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

#include <astar/cpd.h>
#include <astar/jps_plus.h>
#include <astar/landmarks.h>
#include <astar/subgoal.h>

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

/* The jump distances depend on the cells and the corner rule alone, not on
** the costs: one table (and file) serves every rule set JPS takes -- the
** options are checked for that, not recorded. */
static astar_status jpp_build(void **ctx, const astar_grid *grid, const astar_options *opt) {
  *ctx = NULL;
  astar_options o = *opt;
  o.algorithm = ASTAR_ALGO_JPS;
  if (astar_unsupported_reason(&o, grid)) return ASTAR_UNSUPPORTED;
  astar_jps_plus *pre = NULL;
  astar_status st = astar_jps_plus_new(&pre, grid, NULL);
  *ctx = pre;
  return st;
}

static astar_status jpp_load(void **ctx, const astar_grid *grid, const astar_options *opt,
                             const void *buf, size_t len, char *why, size_t size) {
  (void)opt; /* the file holds for every rule set JPS takes; the search checks them */
  if (size) why[0] = '\0';
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

void cli_pre_refusal(char *why, size_t size, const char *what, const char *method,
                     const astar_options *file, const astar_options *opt) {
  char asked[128], args[128];
  cli_rules_text(asked, sizeof asked, opt, false);
  cli_rules_args(args, sizeof args, opt);
  if (file) {
    const bool same = file->moves == opt->moves && file->straight_cost == opt->straight_cost &&
                      (opt->moves == 4 ||
                       (file->corner == opt->corner && file->diagonal_cost == opt->diagonal_cost));
    if (same) {
      snprintf(why, size, "the %s belongs to another map (other size, cells or terrain)", what);
      return;
    }
    char built[128];
    cli_rules_text(built, sizeof built, file, false);
    if (strcmp(built, asked) == 0) { /* costs apart in digits beyond the usual */
      cli_rules_text(built, sizeof built, file, true);
      cli_rules_text(asked, sizeof asked, opt, true);
    }
    snprintf(why, size,
             "the %s was built for %s, not for this search's %s (make a file for them: astar "
             "precompute MAP --method %s%s -o FILE; or drop --pre)",
             what, built, asked, method, args);
  } else {
    snprintf(why, size,
             "the %s was built for another map, or for other movement rules than this search's "
             "%s (make a file for them: astar precompute MAP --method %s%s -o FILE; or drop "
             "--pre)",
             what, asked, method, args);
  }
}

bool cli_pre_magic_differs(const char *head, size_t len, const char *magic, cli_limit *out) {
  const size_t n = len < 8 ? len : 8;
  if (memcmp(head, magic, n) == 0) return false;
  out->stop = true;
  return true;
}

/* A JPS+ file holds a 40-byte header and 8 directions x 2 bytes a cell
** (astar_jps_plus_save): its size is the map's. */
static void jpp_limit(const astar_grid *grid, const char *head, size_t len, cli_limit *out) {
  const int32_t w = astar_grid_width(grid), h = astar_grid_height(grid);
  out->stop = false;
  out->bytes = 40 + 16 * (uint64_t)w * (uint64_t)h;
  snprintf(out->what, sizeof out->what, "the size of a JPS+ file of this %d x %d map", (int)w,
           (int)h);
  cli_pre_magic_differs(head, len, "ASTARJP+", out);
}

static void jpp_attach(const void *ctx, astar_finder_config *cfg) {
  cfg->jps_plus = ctx;
}

static const cli_pre_ops jps_plus_ops = {jpp_build,   jpp_load, jpp_save,  jpp_memory, NULL,
                                         jpp_release, jpp_find, jpp_limit, jpp_attach};

astar_status cli_pre_find_once(const cli_pre_ops *ops, astar_workspace *ws, const astar_grid *grid,
                               const astar_options *opt, astar_point start, astar_point goal,
                               astar_point *path, size_t cap, astar_result *result) {
  void *ctx = NULL;
  astar_status st = ops->build(&ctx, grid, opt);
  if (st != ASTAR_OK) {
    if (ctx) ops->release(ctx);
    if (result) memset(result, 0, sizeof *result);
    return st;
  }
  st = ops->find(ctx, ws, grid, opt, start, goal, path, cap, result);
  ops->release(ctx);
  return st;
}

/* One-shot JPS+ (run, solve): precompute, search, release. */
static astar_status find_jps_plus(astar_workspace *ws, const astar_grid *grid,
                                  const astar_options *opt, astar_point start, astar_point goal,
                                  astar_point *path, size_t cap, astar_result *result) {
  return cli_pre_find_once(&jps_plus_ops, ws, grid, opt, start, goal, path, cap, result);
}

/* The settings the command parsed, for every engine search that follows,
** and what the last one reported besides the grid's result. The tool runs
** one search at a time. */
static cli_variant_settings variant_settings = {1024, 1.0, 0.0, 0.0, {4, 0}};

/* ---- landmarks (astar/landmarks.h): the grid's A* with the ALT heuristic ---------- */

static astar_status lmk_build(void **ctx, const astar_grid *grid, const astar_options *opt) {
  astar_landmark_options lo;
  astar_landmark_options_init(&lo);
  lo.count = variant_settings.landmarks.count;
  lo.choice = (astar_landmark_choice)variant_settings.landmarks.choice;
  astar_options o = *opt;
  o.heuristic = ASTAR_H_AUTO; /* the table's base heuristic: the built-in one */
  o.weight = 1.0;
  astar_landmarks *lm = NULL;
  const astar_status st = astar_landmarks_new_grid(&lm, grid, &o, &lo, NULL);
  *ctx = lm;
  return st;
}

/* The table holds the distances under the rules it was built for: a file
** loads for a search whose moves and costs on this map are the same (the
** library compares a checksum of every move and its cost), else the
** heuristic could overestimate -- built with costs 10,14, searched with
** 1,1.5 -- or be needlessly weak. The options as for the build. */
static astar_status lmk_load(void **ctx, const astar_grid *grid, const astar_options *opt,
                             const void *buf, size_t len, char *why, size_t size) {
  if (size) why[0] = '\0';
  astar_options o = *opt;
  o.heuristic = ASTAR_H_AUTO;
  o.weight = 1.0;
  astar_landmarks *lm = NULL;
  const astar_status st = astar_landmarks_load_grid(&lm, grid, &o, buf, len, NULL);
  *ctx = lm;
  astar_options file;
  if (st == ASTAR_UNSUPPORTED)
    snprintf(why, size,
             "a landmark table holds the exact terrain costs: it takes --terrain-scale 1 only");
  else if (st == ASTAR_MISMATCH)
    cli_pre_refusal(why, size, "landmark table", "landmarks",
                    astar_landmarks_file_options(buf, len, &file) == ASTAR_OK ? &file : NULL, opt);
  return st;
}

static astar_status lmk_save(const void *ctx, void *buf, size_t cap, size_t *len) {
  return astar_landmarks_save(ctx, buf, cap, len);
}

static size_t lmk_memory(const void *ctx) {
  return astar_landmarks_memory(ctx);
}

static void lmk_release(void *ctx) {
  astar_landmarks_free(ctx);
}

static astar_status lmk_find(const void *ctx, astar_workspace *ws, const astar_grid *grid,
                             const astar_options *opt, astar_point start, astar_point goal,
                             astar_point *path, size_t cap, astar_result *result) {
  astar_options o = *opt;
  o.heuristic = ASTAR_H_CALLBACK;
  o.heuristic_fn = astar_landmarks_grid_heuristic;
  memcpy(&o.heuristic_ctx, &ctx, sizeof ctx); /* the callback only reads the table */
  return astar_find_path(ws, grid, &o, start, goal, path, cap, result);
}

/* A landmarks file holds a 72-byte header, 12 bytes a landmark and 4 a
** distance, K (at most ASTAR_LANDMARKS_MAX) or 2K of them a node
** (astar_landmarks_save); a grid's nodes are its cells. */
static void lmk_limit(const astar_grid *grid, const char *head, size_t len, cli_limit *out) {
  const int32_t w = astar_grid_width(grid), h = astar_grid_height(grid);
  const uint64_t k = ASTAR_LANDMARKS_MAX;
  out->stop = false;
  out->bytes = 72 + 12 * k + 8 * k * (uint64_t)w * (uint64_t)h; /* 4 bytes, 2K a node */
  snprintf(out->what, sizeof out->what,
           "the most a landmarks file of this %d x %d map holds (%u landmarks both ways)", (int)w,
           (int)h, (unsigned)k);
  cli_pre_magic_differs(head, len, "ASTARLMK", out);
}

static void lmk_attach(const void *ctx, astar_finder_config *cfg) {
  cfg->landmarks = ctx;
}

static const cli_pre_ops landmarks_ops = {lmk_build,   lmk_load, lmk_save,  lmk_memory, NULL,
                                          lmk_release, lmk_find, lmk_limit, lmk_attach};

/* One-shot (run, solve): build, search, release. */
static astar_status find_landmarks(astar_workspace *ws, const astar_grid *grid,
                                   const astar_options *opt, astar_point start, astar_point goal,
                                   astar_point *path, size_t cap, astar_result *result) {
  return cli_pre_find_once(&landmarks_ops, ws, grid, opt, start, goal, path, cap, result);
}

/* Dijkstra on the grid: A* with the zero heuristic. */
static astar_status find_dijkstra(astar_workspace *ws, const astar_grid *grid,
                                  const astar_options *opt, astar_point start, astar_point goal,
                                  astar_point *path, size_t cap, astar_result *result) {
  astar_options o = *opt;
  o.heuristic = ASTAR_H_ZERO;
  return astar_find_path(ws, grid, &o, start, goal, path, cap, result);
}

/* ---- the search engine on the grid as a space (astar/engine.h) --------------- */

/* ---- the variants' settings (--width, --epsilon, --band-e, --band-d) ---------- */

static cli_variant_outcome variant_outcome;

static const char *const landmark_choices[] = {"farthest", "avoid", NULL};
static const int landmark_choice_values[] = {ASTAR_LANDMARKS_FARTHEST, ASTAR_LANDMARKS_AVOID};

static const cli_opt landmark_rows[] = {
    {.name = "--landmarks",
     .meta = "K",
     .kind = CLI_INT,
     CLI_AT(cli_landmark_settings, count),
     .min = 1,
     .max = ASTAR_LANDMARKS_MAX,
     .algos = "landmarks",
     .help = "A* with the landmark (ALT) heuristic (astar/landmarks.h):\n"
             "K landmarks, %r, their distances computed before the\n"
             "search; exact. Square maps: --algo landmarks (K 4 by\n"
             "default), which --landmarks selects from --algo astar"},
    {.name = "--landmark-choice",
     .meta = "C",
     .kind = CLI_CHOICE,
     CLI_AT(cli_landmark_settings, choice),
     .names = landmark_choices,
     .values = landmark_choice_values,
     .algos = "landmarks",
     .help = "where the landmarks go: farthest (default) or avoid"},
};
const cli_group cli_landmark_group = CLI_ROWS(landmark_rows);

static const cli_opt variant_rows[] = {
    {.name = "--width",
     .meta = "B",
     .kind = CLI_INT,
     CLI_AT(cli_variant_settings, width),
     .min = 1,
     .max = UINT32_MAX,
     .algos = "beam",
     .help = "beam: most nodes in the open list, the worst dropped\n"
             "(default 1024)"},
    {.name = "--epsilon",
     .meta = "E",
     .kind = CLI_NUMBER,
     CLI_AT(cli_variant_settings, epsilon),
     .algos = "dynamic",
     .help = "dynamic: weight of h 1+E at the start, falling to 1 as g\n"
             "reaches h(start); cost <= (1+E) x optimal (default 1)"},
    {.name = "--band-e",
     .meta = "E",
     .kind = CLI_NUMBER,
     CLI_AT(cli_variant_settings, band_e),
     .algos = "bandwidth",
     .help = "bandwidth: most the heuristic overestimates; cost <=\n"
             "optimal + E (default 0)"},
    {.name = "--band-d",
     .meta = "D",
     .kind = CLI_NUMBER,
     CLI_AT(cli_variant_settings, band_d),
     .algos = "bandwidth",
     .help = "bandwidth: most it underestimates; nodes with f above the\n"
             "expanded node's f + E + D are dropped (default 0; the\n"
             "octile heuristic underestimates by up to the detours,\n"
             "so a small D can drop the way to the goal: no path)"},
};
const cli_group cli_variant_group = CLI_ROWS(variant_rows);

void cli_variant_defaults(cli_variant_settings *v) {
  astar_engine_options eo;
  astar_engine_options_init(&eo);
  memset(v, 0, sizeof *v);
  v->width = eo.beam_width;
  v->epsilon = eo.epsilon;
  v->band_e = eo.band_e;
  v->band_d = eo.band_d;
  v->landmarks.count = 4;
  v->landmarks.choice = ASTAR_LANDMARKS_FARTHEST;
}

void cli_variant_describe(FILE *out, const cli_variant_settings *v, const cli_algo *algo) {
  if (!algo->engine) return;
  if (algo->method == ASTAR_METHOD_BEAM) fprintf(out, ", width %lu", (unsigned long)v->width);
  if (algo->method == ASTAR_METHOD_DYNAMIC) fprintf(out, ", epsilon %g", v->epsilon);
  if (algo->method == ASTAR_METHOD_BANDWIDTH) fprintf(out, ", band -%g/+%g", v->band_d, v->band_e);
}

const cli_algo *cli_variant_algo(const cli_args *a, const cli_algo *algo) {
  const bool landmarks = cli_given(a, "--landmarks") || cli_given(a, "--landmark-choice");
  if (landmarks && !algo->engine && strcmp(algo->name, "astar") == 0)
    return cli_find_algo("landmarks");
  return algo;
}

void cli_variant_use(const cli_variant_settings *v) {
  variant_settings = *v;
}

const cli_variant_outcome *cli_variant_last(void) {
  return &variant_outcome;
}

/* The engine's options from the grid options the CLI parsed. */
static void engine_options(astar_engine_options *eo, const astar_options *opt,
                           astar_method method) {
  astar_engine_options_init(eo);
  eo->method = method;
  eo->weight = opt->weight;
  eo->tie = opt->tie;
  eo->reopen = opt->reopen;
  eo->max_expansions = opt->max_expansions;
  eo->partial = opt->partial;
  eo->beam_width = variant_settings.width;
  eo->epsilon = variant_settings.epsilon;
  eo->band_e = variant_settings.band_e;
  eo->band_d = variant_settings.band_d;
}

/* What astar_workspace_reserve_space needs for `method` besides the
** forward search. */
static unsigned reservation(astar_method method) {
  switch (method) {
  case ASTAR_METHOD_FRONT_TO_FRONT:
    return ASTAR_RESERVE_FRONT_TO_FRONT;
  case ASTAR_METHOD_BIDIRECTIONAL:
  case ASTAR_METHOD_RETARGETING:
  case ASTAR_METHOD_BEAM:
    return ASTAR_RESERVE_BACKWARD;
  default:
    return 0;
  }
}

/* One search through the engine: the grid as a space, the node path
** converted to cells in the caller's buffer (nodes are written first into
** the same memory: 4 bytes each against a cell's 8, converted from the end
** so that no node is overwritten before it is read). */
static astar_status engine_find(astar_method method, astar_workspace *ws, const astar_grid *grid,
                                const astar_options *opt, astar_point start, astar_point goal,
                                astar_point *path, size_t cap, astar_result *result) {
  if (result) memset(result, 0, sizeof *result);
  memset(&variant_outcome, 0, sizeof variant_outcome);
  astar_grid_space holder;
  astar_space sp;
  astar_status st = astar_grid_space_init(&sp, &holder, grid, opt);
  /* Reserved once; later calls on the same workspace allocate nothing. */
  if (st == ASTAR_OK) st = astar_workspace_reserve_space(ws, &sp, reservation(method));
  if (st != ASTAR_OK) return st;
  if (!astar_grid_contains(grid, start.x, start.y) || !astar_grid_contains(grid, goal.x, goal.y))
    return ASTAR_OUT_OF_BOUNDS;
  astar_engine_options eo;
  engine_options(&eo, opt, method);
  astar_engine_result er;
  astar_node *nodes = (astar_node *)(void *)path;
  st = astar_space_find_path(ws, &sp, &eo, astar_grid_space_node(&holder, start),
                             astar_grid_space_node(&holder, goal), nodes, cap, &er);
  if (st == ASTAR_OK || st == ASTAR_PARTIAL)
    for (size_t i = er.length; i-- > 0;) path[i] = astar_grid_space_cell(&holder, nodes[i]);
  variant_outcome.dropped = er.dropped;
  variant_outcome.iterations = er.iterations;
  if (result) {
    result->cost = er.cost;
    result->length = er.length;
    result->stats = er.stats;
    result->cause = er.cause;
    result->end =
        er.end == ASTAR_NODE_NONE ? (astar_point){-1, -1} : astar_grid_space_cell(&holder, er.end);
  }
  return st;
}

#define ENGINE_FIND(fn, method)                                                                    \
  static astar_status fn(astar_workspace *ws, const astar_grid *grid, const astar_options *opt,    \
                         astar_point start, astar_point goal, astar_point *path, size_t cap,       \
                         astar_result *result) {                                                   \
    return engine_find(method, ws, grid, opt, start, goal, path, cap, result);                     \
  }
ENGINE_FIND(engine_astar, ASTAR_METHOD_ASTAR)
ENGINE_FIND(engine_dijkstra, ASTAR_METHOD_DIJKSTRA)
ENGINE_FIND(engine_greedy, ASTAR_METHOD_GREEDY)
ENGINE_FIND(engine_bidir, ASTAR_METHOD_BIDIRECTIONAL)
ENGINE_FIND(engine_ida, ASTAR_METHOD_IDA)
ENGINE_FIND(engine_beam, ASTAR_METHOD_BEAM)
ENGINE_FIND(engine_dynamic, ASTAR_METHOD_DYNAMIC)
ENGINE_FIND(engine_bandwidth, ASTAR_METHOD_BANDWIDTH)
ENGINE_FIND(engine_f2f, ASTAR_METHOD_FRONT_TO_FRONT)
ENGINE_FIND(engine_retarget, ASTAR_METHOD_RETARGETING)

/* ---- the table ---------------------------------------------------------------- */

/* The tool's own entries for the library's methods: its summaries, and the
** preprocessing it builds or loads (--pre) for them. Those with engine ==
** false search the grid with its own loops; `--space graph` swaps them for
** the engine entry of the same name below; engine-only methods always run
** on the grid as a space. A method of the library's table without an entry
** here gets one made from its table row (cli_algo_at): adding a method to
** the library adds it to --algo. */
static const cli_algo algos[] = {
    {"astar", "A* over the cells (astar_find_path)", astar_find_path, NULL, ASTAR_ALGO_ASTAR, false,
     ASTAR_METHOD_ASTAR},
    {"jps", "Jump Point Search, online (options.algorithm = ASTAR_ALGO_JPS)", find_jps, NULL,
     ASTAR_ALGO_JPS, false, ASTAR_METHOD_JPS},
    {"jps-plus", "JPS+ over precomputed jump distances (astar/jps_plus.h)", find_jps_plus,
     &jps_plus_ops, ASTAR_ALGO_JPS, false, ASTAR_METHOD_JPS_PLUS},
    {"dijkstra", "Dijkstra: A* with the zero heuristic", find_dijkstra, NULL, ASTAR_ALGO_ASTAR,
     false, ASTAR_METHOD_DIJKSTRA},
    {"greedy", "greedy best-first search (the engine; no cost bound)", engine_greedy, NULL,
     ASTAR_ALGO_ASTAR, true, ASTAR_METHOD_GREEDY},
    {"bidir", "bidirectional A*, optimal (the engine on the grid as a space)", engine_bidir, NULL,
     ASTAR_ALGO_ASTAR, true, ASTAR_METHOD_BIDIRECTIONAL},
    {"ida", "IDA*, optimal, memory linear in the depth (the engine; small maps)", engine_ida, NULL,
     ASTAR_ALGO_ASTAR, true, ASTAR_METHOD_IDA},
    {"beam", "beam search, open list capped at --width (the engine; may miss paths)", engine_beam,
     NULL, ASTAR_ALGO_ASTAR, true, ASTAR_METHOD_BEAM},
    {"dynamic", "dynamic weighting, cost <= (1 + --epsilon) x optimal (the engine)", engine_dynamic,
     NULL, ASTAR_ALGO_ASTAR, true, ASTAR_METHOD_DYNAMIC},
    {"bandwidth", "bandwidth search, cost <= optimal + --band-e (the engine)", engine_bandwidth,
     NULL, ASTAR_ALGO_ASTAR, true, ASTAR_METHOD_BANDWIDTH},
    {"f2f", "front-to-front bidirectional search, optimal (the engine; small frontiers)",
     engine_f2f, NULL, ASTAR_ALGO_ASTAR, true, ASTAR_METHOD_FRONT_TO_FRONT},
    {"retarget", "retargeting bidirectional search, no bound (the engine)", engine_retarget, NULL,
     ASTAR_ALGO_ASTAR, true, ASTAR_METHOD_RETARGETING},
    {"hpa", "HPA*: hierarchical search over cluster entrances, near-optimal (astar/hierarchy.h)",
     cli_hpa_find, &cli_hpa_ops, ASTAR_ALGO_ASTAR, false, ASTAR_METHOD_HPA},
    {"cpd", "compressed path database: first moves looked up, no search (astar/cpd.h)",
     cli_cpd_find, &cli_cpd_ops, ASTAR_ALGO_JPS, false, ASTAR_METHOD_CPD},
    {"subgoal", "subgoal graphs (N-level): A* over precomputed obstacle corners (astar/subgoal.h)",
     cli_subgoal_find, &cli_subgoal_ops, ASTAR_ALGO_JPS, false, ASTAR_METHOD_SUBGOAL},
};

/* The tool's one alias: astar with a landmark table (--landmarks K). */
static const cli_algo landmarks_algo = {
    "landmarks",       "A* with the landmark (ALT) heuristic (astar/landmarks.h; --landmarks K)",
    find_landmarks,    &landmarks_ops,
    ASTAR_ALGO_ASTAR,  false,
    ASTAR_METHOD_ASTAR};

/* The engine's versions of the grid algorithms (--space graph). */
static const cli_algo graph_algos[] = {
    {"astar", "A* by the engine on the grid as a space", engine_astar, NULL, ASTAR_ALGO_ASTAR, true,
     ASTAR_METHOD_ASTAR},
    {"dijkstra", "Dijkstra by the engine on the grid as a space", engine_dijkstra, NULL,
     ASTAR_ALGO_ASTAR, true, ASTAR_METHOD_DIJKSTRA},
};

#define NALGOS (sizeof algos / sizeof algos[0])
#define NGRAPH (sizeof graph_algos / sizeof graph_algos[0])

/* The tool's entry for the method called `name`, NULL when it has none. */
static const cli_algo *own_entry(const char *name) {
  for (size_t i = 0; i < NALGOS; i++)
    if (strcmp(algos[i].name, name) == 0) return &algos[i];
  return cli_anyangle_algo(name);
}

/* --algo's values in the order of the library's table (landmarks after
** astar), made on first use: the tool's entry of each method, or one made
** from its row (searched by the finder alone). */
static const cli_algo *ordered[ASTAR_METHOD_COUNT + 1];
static cli_algo made[ASTAR_METHOD_COUNT];
static size_t nordered;

static void order_algos(void) {
  if (nordered) return;
  for (int i = 0; i < ASTAR_METHOD_COUNT; i++) {
    const astar_method_info *info = astar_method_info_of((astar_method)i);
    if (!info || !(info->flags & (ASTAR_MF_GRID | ASTAR_MF_SPACE))) continue;
    const cli_algo *own = own_entry(info->name);
    if (!own) {
      made[i] = (cli_algo){info->name,  info->summary,    NULL,
                           NULL,        ASTAR_ALGO_ASTAR, !(info->flags & ASTAR_MF_GRID),
                           info->method};
      own = &made[i];
    }
    ordered[nordered++] = own;
    if (info->method == ASTAR_METHOD_ASTAR) ordered[nordered++] = &landmarks_algo;
  }
}

const cli_algo *cli_algo_at(size_t i) {
  order_algos();
  return i < nordered ? ordered[i] : NULL;
}

/* The names of the algorithms `keep` accepts (NULL: all), '|' between. */
static void list_where(char *buf, size_t size, bool (*keep)(const cli_algo *)) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; cli_algo_at(i) && used < size; i++)
    if (!keep || keep(cli_algo_at(i)))
      used +=
          (size_t)snprintf(buf + used, size - used, "%s%s", used ? "|" : "", cli_algo_at(i)->name);
}

/* Is `a` the entry of its method (not the landmarks alias)? */
static bool is_method_entry(const cli_algo *a) {
  const astar_method_info *info = astar_method_info_of(a->method);
  return info && strcmp(info->name, a->name) == 0;
}

/* The algorithm `name` if `keep` accepts it (NULL: any), or NULL: a value
** of the list, or any other name the library gives a method
** (astar_method_from_name: "bidirectional", "front-to-front", ...). */
static const cli_algo *find_where(const char *name, bool (*keep)(const cli_algo *)) {
  const cli_algo *a = NULL;
  for (size_t i = 0; !a && cli_algo_at(i); i++)
    if (strcmp(cli_algo_at(i)->name, name) == 0) a = cli_algo_at(i);
  astar_method m;
  for (size_t i = 0; !a && cli_algo_at(i); i++)
    if (astar_method_from_name(name, &m) == ASTAR_OK && cli_algo_at(i)->method == m &&
        is_method_entry(cli_algo_at(i)))
      a = cli_algo_at(i);
  return a && (!keep || keep(a)) ? a : NULL;
}

void cli_algo_list(char *buf, size_t size) {
  list_where(buf, size, NULL);
}

const cli_algo *cli_find_algo(const char *name) {
  const cli_algo *a = find_where(name, NULL);
  if (a) return a;
  char list[256];
  cli_algo_list(list, sizeof list);
  cli_error("--algo: expected one of %s, got '%s'", list, name);
  return NULL;
}

/* ---- the values of --algo, --any-angle, render's --algo, precompute's --method ------- */

/* An option of kind CLI_CUSTOM parses `text` into a const cli_algo * with
** these; its range names every value. */
static bool store_algo(const cli_algo *a, void *dest) {
  if (a) *(const cli_algo **)dest = a;
  return a != NULL;
}

static void range_where(char *buf, size_t size, bool (*keep)(const cli_algo *)) {
  const int n = snprintf(buf, size, "one of ");
  if (n > 0 && (size_t)n < size) list_where(buf + n, size - (size_t)n, keep);
}

bool cli_algo_parse(const cli_opt *o, const char *text, void *dest) {
  (void)o;
  return store_algo(find_where(text, NULL), dest);
}

void cli_algo_range(char *buf, size_t size) {
  range_where(buf, size, NULL);
}

bool cli_algo_is_any_angle_search(const cli_algo *a) {
  return cli_anyangle_algo(a->name) == a;
}

bool cli_any_angle_parse(const cli_opt *o, const char *text, void *dest) {
  (void)o;
  return store_algo(find_where(text, cli_algo_is_any_angle_search), dest);
}

void cli_any_angle_range(char *buf, size_t size) {
  range_where(buf, size, cli_algo_is_any_angle_search);
}

/* An observer that records nothing: what render installs, for the
** library's reason. */
static void no_event(void *ctx, const astar_event *e) {
  (void)ctx;
  (void)e;
}

bool cli_algo_reports_events(const cli_algo *a) {
  astar_options o;
  astar_options_init(&o);
  o.observer = no_event;
  return cli_algo_unsupported_options(a, &o) == NULL;
}

/* What render draws: the methods that report their search's events to an
** observer (the library says which: astar_finder_unsupported_reason) and
** whose path is cells (not Anya's corners). */
static bool drawn(const cli_algo *a) {
  return !a->engine && !cli_algo_is_anya(a) && cli_algo_reports_events(a);
}

/* render's --algo takes every method: one that draws nothing is refused
** with the library's reason after parsing (cli_algo_unsupported). */
bool cli_drawn_algo_parse(const cli_opt *o, const char *text, void *dest) {
  (void)o;
  return store_algo(find_where(text, NULL), dest);
}

void cli_drawn_algo_range(char *buf, size_t size) {
  range_where(buf, size, drawn);
}

static bool drawn_any_angle(const cli_algo *a) {
  return drawn(a) && cli_algo_is_any_angle_search(a);
}

bool cli_drawn_any_angle_parse(const cli_opt *o, const char *text, void *dest) {
  (void)o;
  return store_algo(find_where(text, drawn_any_angle), dest);
}

void cli_drawn_any_angle_range(char *buf, size_t size) {
  range_where(buf, size, drawn_any_angle);
}

/* What hex maps and graphs run, the engine over their space: A*, Dijkstra,
** greedy best-first and bidirectional A* (their --algo stores the method). */
static bool on_spaces(const cli_algo *a) {
  if (!is_method_entry(a)) return false;
  switch (a->method) {
  case ASTAR_METHOD_ASTAR:
  case ASTAR_METHOD_DIJKSTRA:
  case ASTAR_METHOD_GREEDY:
  case ASTAR_METHOD_BIDIRECTIONAL:
    return true;
  default:
    return false;
  }
}

bool cli_space_algo_parse(const cli_opt *o, const char *text, void *dest) {
  (void)o;
  const cli_algo *a = find_where(text, on_spaces);
  if (a) *(astar_method *)dest = a->method;
  return a != NULL;
}

void cli_space_algo_range(char *buf, size_t size) {
  range_where(buf, size, on_spaces);
}

const char *cli_space_algo_name(astar_method m) {
  for (size_t i = 0; cli_algo_at(i); i++)
    if (on_spaces(cli_algo_at(i)) && cli_algo_at(i)->method == m) return cli_algo_at(i)->name;
  return "?";
}

/* What precompute builds: the algorithms with a preprocessing that saves. */
static bool saved(const cli_algo *a) {
  return a->pre && a->pre->save;
}

bool cli_pre_algo_parse(const cli_opt *o, const char *text, void *dest) {
  (void)o;
  return store_algo(find_where(text, saved), dest);
}

void cli_pre_algo_range(char *buf, size_t size) {
  range_where(buf, size, saved);
}

const cli_algo *cli_algo_on_graph(const cli_algo *algo) {
  if (algo->engine) return algo;
  for (size_t i = 0; i < NGRAPH; i++)
    if (strcmp(graph_algos[i].name, algo->name) == 0) return &graph_algos[i];
  cli_error("--space graph: %s searches the grid with its own loop only (the engine runs "
            "astar, dijkstra and the engine-only methods)",
            algo->name);
  return NULL;
}

/* What the engine on the grid as a space cannot honour (NULL: nothing). */
static const char *engine_unsupported(const astar_options *o) {
  if (o->heuristic == ASTAR_H_CALLBACK) return "the engine takes the space's own heuristic";
  if (o->tie == ASTAR_TIE_CROSS)
    return "the engine breaks ties by larger g or newest, then node id (no cross product)";
  if (o->nlayers || o->knowledge || o->islands || o->turn_penalty != 0.0 ||
      o->terrain_scale != 1.0 || o->stop_fn)
    return "the grid-loop options (layers, fog, islands, turn penalty, terrain scale) are "
           "A*'s on the grid (use --space grid --algo astar)";
  return NULL;
}

/* A stand-in for a preprocessing not made yet: the library's reason looks
** at which attachments are given, never into them. */
static const char standin;

/* The finder config of `algo` for the search options `opt`: its method,
** the options, the engine's settings (--width, --epsilon, --band-e,
** --band-d) and the preprocessing `ctx` attached (NULL: nothing; &standin:
** stand-ins for what the algorithm attaches). */
static void algo_config(astar_finder_config *cfg, const cli_algo *algo, const astar_options *opt,
                        const void *ctx) {
  astar_finder_config_init(cfg);
  cfg->method = algo->method;
  cfg->options = *opt;
  cfg->options.algorithm = ASTAR_ALGO_ASTAR; /* the method decides */
  cfg->engine.beam_width = variant_settings.width;
  cfg->engine.epsilon = variant_settings.epsilon;
  cfg->engine.band_e = variant_settings.band_e;
  cfg->engine.band_d = variant_settings.band_d;
  if (ctx == &standin) {
    const astar_method_info *info = astar_method_info_of(algo->method);
    const unsigned bits = (info ? info->needs : 0u) |
                          (algo->pre == &landmarks_ops ? ASTAR_ATTACH_LANDMARKS : 0u) |
                          (cli_algo_is_waypoints(algo) ? ASTAR_ATTACH_WAYPOINTS : 0u);
    if (bits & ASTAR_ATTACH_JPS_PLUS) cfg->jps_plus = (const void *)&standin;
    if (bits & ASTAR_ATTACH_CPD) cfg->cpd = (const void *)&standin;
    if (bits & ASTAR_ATTACH_HPA) cfg->hpa = (const void *)&standin;
    if (bits & ASTAR_ATTACH_LANDMARKS) cfg->landmarks = (const void *)&standin;
    if (bits & ASTAR_ATTACH_WAYPOINTS) cfg->waypoints = (const void *)&standin;
  } else if (ctx && algo->pre && algo->pre->attach) {
    algo->pre->attach(ctx, cfg);
  }
}

/* The library's names of the options in its sentences, and the tool's. */
static const char *const option_names[][2] = {
    {"options.terrain_scale", "--terrain-scale"},
    {"options.knowledge", "--fog"},
    {"options.layers", "--cone"},
    {"options.islands", "islands"},
    {"options.partial", "--partial"},
    {"options.max_expansions", "--max-expansions"},
    {"options.heuristic", "--heuristic"},
    {"set cfg.engine.observer, not options.observer",
     "render and --trace follow the grid searches' events"},
    {"options.observer", "render and --trace follow them"},
    {"options.stop_fn", "a deadline"},
    {"options.weight", "--weight"},
    {"options.tie", "--tie"},
    {"cfg.engine.observer", "--trace"},
    {"cfg.smooth", "--smooth"},
    {"cfg.landmarks", "--landmarks"},
    {"cfg.table", "--heuristic-table"},
    {"cfg.waypoints", "--space waypoints"},
    {"cfg.jps_plus", "a JPS+ table (--pre)"},
    {"cfg.cpd", "a CPD (--pre)"},
    {"cfg.hpa", "an HPA* hierarchy (--pre)"},
    {"cfg.clearance", "--size"},
    {"engine.beam_width", "--width"},
    {"engine.epsilon", "--epsilon"},
    {"engine.band_e", "--band-e"},
    {"a turn penalty", "a turn penalty (--turn-penalty)"},
    {"use method astar", "use --algo astar"},
};

const char *cli_reason_text(const char *why) {
  static char buf[512];
  if (!why) return NULL;
  size_t used = 0;
  while (*why && used + 1 < sizeof buf) {
    size_t k = 0;
    while (k < sizeof option_names / sizeof option_names[0] &&
           strncmp(why, option_names[k][0], strlen(option_names[k][0])) != 0)
      k++;
    if (k < sizeof option_names / sizeof option_names[0]) {
      used += (size_t)snprintf(buf + used, sizeof buf - used, "%s", option_names[k][1]);
      why += strlen(option_names[k][0]);
    } else {
      buf[used++] = *why++;
    }
    if (used >= sizeof buf) used = sizeof buf - 1;
  }
  buf[used] = '\0';
  return buf;
}

/* What the tool's own checks add to the library's (older sentences for
** what the library refuses later, at a build). */
static const char *tool_unsupported(const cli_algo *algo, const astar_options *opt,
                                    const astar_grid *grid) {
  if (cli_algo_is_waypoints(algo)) {
    const char *why = engine_unsupported(opt);
    return why ? why : cli_waypoints_unsupported(opt, grid);
  }
  if (algo->engine) return engine_unsupported(opt);
  const char *why = cli_anyangle_unsupported(algo, opt, grid);
  if (why || cli_algo_is_any_angle(algo)) return why;
  /* The CPD has rules of its own (astar/cpd.h), not JPS's whose search it
  ** stands in for: its reason names the CPD. */
  if (algo->pre == &cli_cpd_ops) return astar_cpd_unsupported_reason(grid, opt);
  if (algo->pre == &cli_subgoal_ops) return astar_subgoal_unsupported_reason(grid, opt);
  if (cli_algo_is_hpa(algo) &&
      (opt->turn_penalty > 0 || opt->terrain_scale != 1.0 || opt->nlayers || opt->knowledge))
    return "HPA* cannot search with a turn penalty, a terrain scale, layers or fog (its abstract "
           "costs cannot hold them)";
  if (algo->pre == &landmarks_ops && opt->terrain_scale != 1.0)
    return "a landmark table holds the exact terrain costs: it takes --terrain-scale 1 only";
  if (!algo->find) return NULL; /* the finder's alone */
  astar_options o = *opt;
  o.algorithm = algo->rules;
  return astar_unsupported_reason(&o, grid);
}

/* The library's reason for a finder of `cfg` on `grid`: a subgoal graph is
** the argument of its finder's constructor, not an attachment of cfg. */
static const char *finder_reason(const cli_algo *algo, const astar_grid *grid,
                                 const astar_finder_config *cfg) {
  if (algo->method == ASTAR_METHOD_SUBGOAL)
    return astar_finder_subgoal_unsupported_reason(grid, cfg);
  return astar_finder_unsupported_reason(grid, NULL, cfg);
}

const char *cli_algo_unsupported(const cli_algo *algo, const astar_options *opt,
                                 const astar_grid *grid) {
  /* The library's reason first (astar_finder_unsupported_reason), with the
  ** preprocessing stood in for: it looks at which are attached only. */
  astar_finder_config cfg;
  algo_config(&cfg, algo, opt, algo->pre ? &standin : NULL);
  if (algo->find == engine_astar || algo->find == engine_dijkstra) return engine_unsupported(opt);
  const char *why = finder_reason(algo, grid, &cfg);
  return why ? cli_reason_text(why) : tool_unsupported(algo, opt, grid);
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

typedef struct pre_file_ctx {
  const cli_pre_ops *ops;
  const astar_grid *grid;
} pre_file_ctx;

static void pre_file_limit(const char *head, size_t len, const void *ud, cli_limit *out) {
  const pre_file_ctx *pf = ud;
  pf->ops->limit(pf->grid, head, len, out);
}

const char *cli_algo_unsupported_unit(const cli_algo *algo, const astar_options *opt,
                                      int32_t size) {
  astar_finder_config cfg;
  algo_config(&cfg, algo, opt, algo->pre ? &standin : NULL);
  cfg.unit_size = size;
  cfg.clearance = (const void *)&standin;
  astar_grid *one = NULL;
  if (astar_grid_new(&one, 1, 1, NULL) != ASTAR_OK) return NULL;
  const char *why = cli_reason_text(finder_reason(algo, one, &cfg));
  astar_grid_free(one);
  return why;
}

bool cli_algo_has_finder(const cli_algo *algo) {
  return algo->find != engine_astar && algo->find != engine_dijkstra;
}

/* The finder of a prepared algorithm (out->ctx attached): made once, every
** search goes through it. --space graph's engine A* and Dijkstra have none
** (the finder runs the grid's loops for those). false after a message. */
static bool make_finder(cli_prepared *out, const astar_options *opt, const char *label) {
  const cli_algo *algo = out->algo;
  if (!cli_algo_has_finder(algo)) return true;
  astar_finder_config cfg;
  algo_config(&cfg, algo, opt, out->ctx);
  const bool subgoal = algo->method == ASTAR_METHOD_SUBGOAL;
  const astar_status st =
      subgoal ? astar_finder_new_subgoal(&out->finder, out->grid, out->ctx, &cfg, NULL)
              : astar_finder_new(&out->finder, out->grid, &cfg, NULL);
  if (st == ASTAR_OK) return true;
  const char *why = st == ASTAR_UNSUPPORTED ? cli_reason_text(finder_reason(algo, out->grid, &cfg))
                    : st == ASTAR_MISMATCH && subgoal
                        ? "the subgoal graph was built for other movement costs than this "
                          "search's (give precompute the same --costs; or drop --pre)"
                        : NULL;
  cli_error("%s: --algo %s: %s", label, algo->name, why ? why : astar_strerror(st));
  return false;
}

bool cli_prepare_pre(cli_prepared *out, const cli_algo *algo, const astar_grid *grid,
                     const astar_options *opt, const char *label, const char *pre_file) {
  memset(out, 0, sizeof *out);
  out->algo = algo;
  out->grid = grid;
  if (!algo->pre) return true;
  double t0 = cli_now_seconds();
  astar_status st;
  if (pre_file && !algo->pre->load) {
    cli_error("%s: %s has no file format (it is built from the map)", pre_file, algo->name);
    return false;
  }
  if (pre_file) {
    /* Read into memory, not mapped: a file cut short meanwhile is a short
    ** buffer that load rejects, never a fault; read no further than the
    ** format's size for this map. */
    char *data;
    size_t len;
    const pre_file_ctx pf = {algo->pre, grid};
    if (!cli_read_input(pre_file, pre_file_limit, &pf, &data, &len)) return false;
    char why[512] = "";
    st = algo->pre->load(&out->ctx, grid, opt, data, len, why, sizeof why);
    free(data);
    if (st != ASTAR_OK) {
      cli_error("%s: %s", pre_file,
                why[0]                         ? why
                : st == ASTAR_PARSE_ERROR      ? "not a valid precomputation file (damaged, "
                                                 "truncated or another format)"
                : st == ASTAR_INVALID_ARGUMENT ? "the precomputation belongs to another map"
                                               : astar_strerror(st));
      return false;
    }
  } else {
    st = algo->pre->build(&out->ctx, grid, opt);
    /* ASTAR_UNSUPPORTED's own text only points at astar_unsupported_reason:
    ** say the reason. */
    const char *why = st == ASTAR_UNSUPPORTED ? cli_algo_unsupported(algo, opt, grid) : NULL;
    if (st != ASTAR_OK) {
      cli_error("%s: cannot precompute %s: %s", label, algo->name, why ? why : astar_strerror(st));
      return false;
    }
  }
  out->seconds = cli_now_seconds() - t0;
  out->bytes = algo->pre->memory(out->ctx);
  return true;
}

bool cli_prepare(cli_prepared *out, const cli_algo *algo, const astar_grid *grid,
                 const astar_options *opt, const char *label, const char *pre_file) {
  if (!cli_prepare_pre(out, algo, grid, opt, label, pre_file)) return false;
  if (make_finder(out, opt, label)) return true;
  cli_prepared_free(out);
  return false;
}

/* A finder search's result as the grid's, and the variants' figures. */
static void result_of(astar_result *r, const astar_path_result *pr) {
  if (r) {
    memset(r, 0, sizeof *r);
    r->cost = pr->cost;
    r->length = pr->length;
    r->stats = pr->stats;
    r->end = pr->end;
    r->cause = pr->cause;
    r->retargeted = pr->retargeted;
  }
  variant_outcome.dropped = pr->dropped;
  variant_outcome.iterations = pr->iterations;
}

/* Anya's search: its points (kept for cli_print_anya_solution) and, in
** the caller's cells, the cell below and right of each (the start's and
** goal's own cells at the ends). */
static astar_status find_vec(cli_prepared *p, astar_workspace *ws, astar_point start,
                             astar_point goal, astar_point *path, size_t cap,
                             astar_path_result *pr) {
  astar_status st = astar_finder_find_vec(p->finder, ws, start, goal, p->vec, p->vec_cap, pr);
  if (st == ASTAR_BUFFER_TOO_SMALL) {
    astar_vec2 *v = realloc(p->vec, pr->length * sizeof *v);
    if (!v) return ASTAR_NO_MEMORY;
    p->vec = v;
    p->vec_cap = pr->length;
    st = astar_finder_find_vec(p->finder, ws, start, goal, p->vec, p->vec_cap, pr);
  }
  const size_t n = st == ASTAR_OK ? pr->length : 0;
  if (!cli_anya_keep(p->vec, n)) return ASTAR_NO_MEMORY;
  for (size_t i = 0; i < n && i < cap; i++) {
    const astar_point c = {(int32_t)p->vec[i].x, (int32_t)p->vec[i].y};
    path[i] = i == 0 ? start : i + 1 == n ? goal : c;
  }
  if (st == ASTAR_OK && n > cap) st = ASTAR_BUFFER_TOO_SMALL;
  return st;
}

astar_status cli_prepared_find(const cli_prepared *p, astar_workspace *ws, const astar_options *opt,
                               astar_point start, astar_point goal, astar_point *path, size_t cap,
                               astar_result *result) {
  if (p->finder) {
    astar_path_result pr;
    const astar_status st =
        cli_algo_is_anya(p->algo)
            ? find_vec((cli_prepared *)p, ws, start, goal, path, cap, &pr) /* its own scratch */
            : astar_finder_find(p->finder, ws, start, goal, path, cap, &pr);
    result_of(result, &pr);
    return st;
  }
  if (p->algo->pre)
    return p->algo->pre->find(p->ctx, ws, p->grid, opt, start, goal, path, cap, result);
  return p->algo->find(ws, p->grid, opt, start, goal, path, cap, result);
}

void cli_prepared_free(cli_prepared *p) {
  astar_finder_free(p->finder); /* before what it was prepared from */
  p->finder = NULL;
  free(p->vec);
  p->vec = NULL;
  p->vec_cap = 0;
  if (p->algo && p->algo->pre && p->ctx) p->algo->pre->release(p->ctx);
  p->ctx = NULL;
}
