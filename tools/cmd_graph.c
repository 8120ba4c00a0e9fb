/*
** cmd_graph.c -- graphs in the tool: `astar solve --graph X.gr S T` and
** `astar bench --graph X.gr` (the search engine on a DIMACS graph,
** astar/graph.h), and `astar convert MAP -o X.gr` (a grid map written as a
** DIMACS graph, with coordinates and queries). solve and bench run the
** graph versions when their command line, parsed, gave --graph; the graph
** options are a table (cli_graph_group) they include.
**
** Node ids on the command line and in every file are DIMACS ids, 1-based;
** the library's are one less.
*/
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <astar/landmarks.h>

#include "cli.h"

#define REL_TOLERANCE_FILE 1e-5 /* expected costs from files (Moving AI: 8 decimals) */
#define REL_TOLERANCE_DIJKSTRA 1e-9
#define MAX_REPEAT 101
#define MAX_REPORTED 10

/* ---- options shared by solve and bench --------------------------------------- */

static const char *const heuristic_names[] = {"auto",      "euclidean", "octile", "manhattan",
                                              "chebyshev", "zero",      NULL};
typedef cli_graph_args graph_args;

void cli_graph_args_init(cli_graph_args *a) {
  memset(a, 0, sizeof *a);
  a->scale = ASTAR_GRAPH_SCALE_AUTO;
  astar_engine_options_init(&a->eo);
  a->landmarks.choice = ASTAR_LANDMARKS_FARTHEST;
}

/* Besides these, graphs take the engine's basic options and landmarks
** (CLI_GRAPH_SECTIONS). */
static const cli_opt graph_rows[] = {
    {.name = "--graph",
     .meta = "FILE",
     .kind = CLI_TEXT,
     CLI_AT(cli_graph_args, gr),
     .help = "the graph, a DIMACS .gr file (`p sp N M`, `a U V W`)"},
    {.name = "--coords",
     .meta = "FILE",
     .kind = CLI_TEXT,
     CLI_AT(cli_graph_args, co),
     .help = "node coordinates, a DIMACS .co file (`v ID X Y`): gives A*\n"
             "its heuristic"},
    {.name = "--undirected",
     .kind = CLI_FLAG,
     CLI_AT(cli_graph_args, undirected),
     .help = "every arc of the .gr file goes both ways"},
    {.name = "--heuristic",
     .meta = "H",
     .kind = CLI_CHOICE,
     CLI_AT(cli_graph_args, heuristic),
     .names = heuristic_names,
     .help = "auto (default: euclidean with --coords, else zero),\n"
             "euclidean, octile, manhattan, chebyshev, zero"},
    {.name = "--scale",
     .meta = "S",
     .kind = CLI_NUMBER,
     CLI_AT(cli_graph_args, scale),
     .help = "heuristic = S x distance; default: the largest admissible\n"
             "scale (min over arcs of cost / distance); a larger S is\n"
             "refused (use --weight)"},
};
const cli_group cli_graph_group = CLI_ROWS(graph_rows);

/* Usage checks once every option is read: CLI_EXIT_USAGE after a message,
** or -1 to go on. */
static int check_args(const graph_args *a, const char *command) {
  if (!a->gr) return cli_usage_error("%s: --graph needs a file", command);
  const int h = a->heuristic;
  if (!a->co && h != 0 && h != 5)
    return cli_usage_error("%s: --heuristic %s needs node coordinates (--coords FILE)", command,
                           heuristic_names[h]);
  if (a->scale >= 0 && (!a->co || h == 5))
    return cli_usage_error("%s: --scale needs a heuristic (--coords FILE)", command);
  return -1;
}

/* The heuristic names of astar_graph_heuristic. */
static const char *kind_name(astar_graph_heuristic k) {
  static const char *const names[] = {"zero", "euclidean", "octile", "manhattan", "chebyshev"};
  return (unsigned)k < ASTAR_GRAPH_H_COUNT ? names[k] : "?";
}

/* The space the queries search: the graph's, or with --landmarks that
** space wrapped with a table built on it (*lm, the caller frees it; build
** seconds in *seconds). False after a message. */
static bool search_space(const graph_args *a, const astar_space *base, astar_space *out,
                         astar_landmarks_space_holder *holder, astar_landmarks **lm,
                         double *seconds) {
  *lm = NULL;
  *seconds = 0;
  *out = *base;
  if (!a->landmarks.count) return true;
  astar_landmark_options lo;
  astar_landmark_options_init(&lo);
  lo.count = a->landmarks.count;
  lo.choice = (astar_landmark_choice)a->landmarks.choice;
  const double t0 = cli_now_seconds();
  astar_status st = astar_landmarks_new(lm, base, &lo, NULL);
  if (st == ASTAR_OK) st = astar_landmarks_space(out, holder, base, *lm);
  *seconds = cli_now_seconds() - t0;
  if (st != ASTAR_OK) cli_error("%s: cannot build the landmarks: %s", a->gr, astar_strerror(st));
  return st == ASTAR_OK;
}

/* The line describing a landmark table. */
static void describe_landmarks(FILE *out, const astar_landmarks *lm, double seconds,
                               uint32_t nodes) {
  if (!lm) return;
  fprintf(out, "landmarks: %u (%s), built in %.3f ms, %zu bytes (%.1f bytes/node)\n",
          (unsigned)astar_landmarks_count(lm),
          astar_landmarks_consistent(lm) ? "consistent" : "admissible", seconds * 1e3,
          astar_landmarks_memory(lm), (double)astar_landmarks_memory(lm) / (double)nodes);
}

/* ---- reading DIMACS files ------------------------------------------------------
** A DIMACS file's size follows from its problem line: at most
** DIMACS_HEAD_BYTES of comments before it, then at most DIMACS_LINE_BYTES a
** line it announces (arcs, nodes or queries, comments between them
** included) and DIMACS_HEAD_BYTES more. Reading stops past that; a first
** line other than the problem line stops it too (the parser says why). */

#define DIMACS_HEAD_BYTES ((uint64_t)1 << 20)
#define DIMACS_LINE_BYTES 256u

typedef struct dimacs_format {
  const char *ext;   /* ".gr" */
  int count_field;   /* the field of the problem line that counts lines: M of "p sp N M" */
  const char *lines; /* what those lines are, for messages: "arcs" */
  uint64_t max;      /* the format's largest count */
} dimacs_format;

static const dimacs_format dimacs_gr = {".gr", 3, "arcs", ASTAR_GRAPH_MAX_ARCS};
static const dimacs_format dimacs_co = {".co", 4, "nodes", ASTAR_GRAPH_MAX_NODES};
static const dimacs_format dimacs_p2p = {".p2p", 4, "queries", UINT64_C(1) << 40};

static void dimacs_limit(const char *head, size_t len, const void *ud, cli_limit *out) {
  const dimacs_format *fmt = ud;
  out->stop = false;
  out->bytes = 2 * DIMACS_HEAD_BYTES + DIMACS_LINE_BYTES * fmt->max;
  snprintf(out->what, sizeof out->what, "the most a DIMACS %s file may hold (%llu %s)", fmt->ext,
           (unsigned long long)fmt->max, fmt->lines);
  size_t scan = len; /* the problem line comes within the first DIMACS_HEAD_BYTES */
  if (scan > DIMACS_HEAD_BYTES) scan = (size_t)DIMACS_HEAD_BYTES;
  for (size_t at = 0; at < scan;) {
    size_t end = at;
    while (end < scan && head[end] != '\n' && head[end] != '\r') end++;
    if (end == scan) break; /* the line may go on */
    /* The fields of the line head[at .. end-1]. */
    size_t f[6][2], nf = 0;
    for (size_t i = at; i < end && nf < 6;) {
      while (i < end && (head[i] == ' ' || head[i] == '\t')) i++;
      if (i == end) break;
      const size_t start = i;
      while (i < end && head[i] != ' ' && head[i] != '\t') i++;
      f[nf][0] = start;
      f[nf++][1] = i - start;
    }
    at = end + 1;
    if (nf == 0 || head[f[0][0]] == 'c') continue; /* blank or a comment */
    uint64_t count = 0;
    bool number = nf > (size_t)fmt->count_field && f[0][1] == 1 && head[f[0][0]] == 'p';
    if (number) {
      const size_t k = (size_t)fmt->count_field;
      number = f[k][1] > 0 && f[k][1] <= 19;
      for (size_t i = 0; number && i < f[k][1]; i++) {
        const char ch = head[f[k][0] + i];
        number = ch >= '0' && ch <= '9';
        count = count * 10 + (uint64_t)(ch - '0');
      }
    }
    if (!number || count > fmt->max) {
      out->stop = true; /* not a problem line the parser accepts */
      return;
    }
    out->bytes = (uint64_t)at + DIMACS_HEAD_BYTES + DIMACS_LINE_BYTES * count;
    snprintf(out->what, sizeof out->what,
             "the most a DIMACS %s file of %llu %s may hold (%u bytes a line and %llu KiB of "
             "comments after the problem line)",
             fmt->ext, (unsigned long long)count, fmt->lines, DIMACS_LINE_BYTES,
             (unsigned long long)(DIMACS_HEAD_BYTES >> 10));
    return;
  }
  if (len >= DIMACS_HEAD_BYTES) {
    out->bytes = DIMACS_HEAD_BYTES;
    snprintf(out->what, sizeof out->what,
             "the most a DIMACS %s file may hold before its problem line", fmt->ext);
  }
}

/* Read and parse the graph and its coordinates and set the heuristic.
** False after a message naming the file (and line and column). */
static bool load_graph(const graph_args *a, astar_graph **out) {
  *out = NULL;
  char *text;
  size_t len;
  if (!cli_read_input(a->gr, dimacs_limit, &dimacs_gr, &text, &len)) return false;
  astar_parse_error err;
  memset(&err, 0, sizeof err);
  astar_graph *g = NULL;
  astar_status st =
      astar_dimacs_parse_gr(&g, text, len, a->undirected ? ASTAR_GRAPH_UNDIRECTED : 0, NULL, &err);
  free(text);
  if (st != ASTAR_OK) {
    cli_report_parse_error(a->gr, st, &err);
    return false;
  }
  if (a->co) {
    const uint32_t n = astar_graph_node_count(g);
    double *xy = malloc(2 * (size_t)n * sizeof *xy);
    if (!xy || !cli_read_input(a->co, dimacs_limit, &dimacs_co, &text, &len)) {
      if (!xy) cli_error("%s: out of memory", a->co);
      free(xy);
      astar_graph_free(g);
      return false;
    }
    memset(&err, 0, sizeof err);
    st = astar_dimacs_parse_co(text, len, n, xy, &err);
    free(text);
    if (st == ASTAR_OK) st = astar_graph_set_coords(g, 2, xy);
    free(xy);
    if (st != ASTAR_OK) {
      cli_report_parse_error(a->co, st, &err);
      astar_graph_free(g);
      return false;
    }
    static const astar_graph_heuristic kinds[] = {ASTAR_GRAPH_H_EUCLIDEAN, ASTAR_GRAPH_H_EUCLIDEAN,
                                                  ASTAR_GRAPH_H_OCTILE,    ASTAR_GRAPH_H_MANHATTAN,
                                                  ASTAR_GRAPH_H_CHEBYSHEV, ASTAR_GRAPH_H_NONE};
    const astar_graph_heuristic kind = kinds[a->heuristic];
    st = astar_graph_set_heuristic(g, kind, ASTAR_GRAPH_SCALE_AUTO);
    const double most = astar_graph_heuristic_scale(g);
    if (st == ASTAR_OK && a->scale >= 0) st = astar_graph_set_heuristic(g, kind, a->scale);
    if (st != ASTAR_OK) {
      cli_error("%s: --scale %g exceeds the largest admissible scale of the %s heuristic on this "
                "graph, %.10g (a larger one could overestimate; use --weight)",
                a->gr, a->scale, kind_name(kind), most);
      astar_graph_free(g);
      return false;
    }
  }
  *out = g;
  return true;
}

static void describe(FILE *out, const graph_args *a, const astar_graph *g) {
  static const char *const tie_names[] = {"larger-g", "newest"};
  fprintf(out, "graph:    %s (%u nodes, %zu arcs%s)", a->gr, (unsigned)astar_graph_node_count(g),
          astar_graph_arc_count(g), a->undirected ? ", undirected" : "");
  if (a->co) fprintf(out, ", coordinates %s", a->co);
  fprintf(out, "\noptions:  algorithm %s, heuristic %s", cli_space_algo_name(a->eo.method),
          kind_name(astar_graph_heuristic_kind(g)));
  if (astar_graph_heuristic_kind(g) != ASTAR_GRAPH_H_NONE)
    fprintf(out, " x %.6g", astar_graph_heuristic_scale(g));
  if (a->eo.weight != 1.0) fprintf(out, ", weight %g", a->eo.weight);
  fprintf(out, ", ties %s", tie_names[a->eo.tie == ASTAR_TIE_NEWEST]);
  if (a->eo.max_expansions)
    fprintf(out, ", max %llu expansions", (unsigned long long)a->eo.max_expansions);
  fputc('\n', out);
}

/* A workspace reserved for searching g with the method of a. */
static astar_workspace *graph_workspace(const astar_space *sp, const graph_args *a) {
  astar_workspace *ws = NULL;
  astar_status st = astar_workspace_new_empty(&ws, NULL);
  if (st == ASTAR_OK)
    st = astar_workspace_reserve_space(
        ws, sp, a->eo.method == ASTAR_METHOD_BIDIRECTIONAL ? ASTAR_RESERVE_BACKWARD : 0u);
  if (st != ASTAR_OK) {
    cli_error("cannot create a search workspace: %s", astar_strerror(st));
    astar_workspace_free(ws);
    return NULL;
  }
  return ws;
}

/* ---- solve --graph ----------------------------------------------------------------- */

void cli_graph_solve_intro(FILE *out) {
  fputs("usage: astar solve --graph X.gr [--coords X.co] S T [OPTIONS]\n"
        "\n"
        "Find one path from node S to node T of a DIMACS graph (node ids as in the\n"
        "file: 1 to N) with the search engine. Prints the outcome, cost, length, the\n"
        "search statistics and the path as node ids.\n",
        out);
}

void cli_graph_solve_outro(FILE *out) {
  fputs("Exit status: 0 path found, 1 no path or unreadable/malformed file, 2 usage\n"
        "error (a node id outside 1..N included).\n",
        out);
}

static const char *outcome(astar_status st) {
  switch (st) {
  case ASTAR_OK:
    return "path found";
  case ASTAR_NO_PATH:
    return "no path: the target cannot be reached from the source";
  case ASTAR_LIMIT_REACHED:
    return "gave up: --max-expansions reached before the target";
  default:
    return astar_strerror(st);
  }
}

int cli_graph_solve(const cli_graph_args *args, const cli_args *parsed) {
  const graph_args a = *args;
  const char *const *pos = parsed->pos;
  int rc = check_args(&a, "solve");
  if (rc >= 0) return rc;
  if (parsed->npos > 2) return cli_usage_error("solve: unexpected argument '%s'", pos[2]);
  if (parsed->npos != 2)
    return cli_usage_error("solve: expected the source and target node ids S T after --graph");
  astar_graph *g;
  if (!load_graph(&a, &g)) return CLI_EXIT_FAIL;
  const uint32_t n = astar_graph_node_count(g);
  long ids[2];
  for (int i = 0; i < 2; i++) {
    if (!cli_parse_int(i ? "T" : "S", pos[i], 1, (long)n, &ids[i])) {
      astar_graph_free(g);
      return CLI_EXIT_USAGE;
    }
  }
  astar_space gsp, sp;
  astar_graph_space(g, &gsp);
  astar_landmarks_space_holder lmh;
  astar_landmarks *lm = NULL;
  double lm_seconds;
  if (!search_space(&a, &gsp, &sp, &lmh, &lm, &lm_seconds)) {
    astar_graph_free(g);
    return CLI_EXIT_FAIL;
  }
  astar_workspace *ws = graph_workspace(&sp, &a);
  astar_node *path = malloc((size_t)n * sizeof *path);
  if (!ws || !path) {
    if (!path) cli_error("out of memory");
    free(path);
    astar_workspace_free(ws);
    astar_landmarks_free(lm);
    astar_graph_free(g);
    return CLI_EXIT_FAIL;
  }
  astar_engine_result res;
  const double t0 = cli_now_seconds();
  const astar_status st = astar_space_find_path(ws, &sp, &a.eo, (astar_node)(ids[0] - 1),
                                                (astar_node)(ids[1] - 1), path, n, &res);
  const double seconds = cli_now_seconds() - t0;
  describe(stdout, &a, g);
  describe_landmarks(stdout, lm, lm_seconds, n);
  printf("query:    %ld -> %ld\n", ids[0], ids[1]);
  printf("status:   %s\n", outcome(st));
  if (st == ASTAR_OK) {
    char cost[64];
    cli_format_cost(cost, sizeof cost, res.cost);
    printf("cost:     %s\n", cost);
    printf("length:   %zu nodes (%zu arcs)\n", res.length, res.length - 1);
  }
  fputs("work:     ", stdout);
  cli_print_stats(stdout, &res.stats);
  printf(" in %.3f ms\n", seconds * 1e3);
  if (st == ASTAR_OK) {
    fputs("path:     ", stdout);
    int col = 10;
    for (size_t i = 0; i < res.length; i++) {
      char id[16];
      const int w = snprintf(id, sizeof id, "%u", (unsigned)path[i] + 1);
      if (i > 0 && col + 1 + w > 100) {
        fputs("\n          ", stdout);
        col = 10;
      } else if (i > 0) {
        putchar(' ');
        col++;
      }
      fputs(id, stdout);
      col += w;
    }
    putchar('\n');
  }
  free(path);
  astar_workspace_free(ws);
  astar_landmarks_free(lm);
  astar_graph_free(g);
  return st == ASTAR_OK ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}

/* ---- bench --graph ------------------------------------------------------------------ */

void cli_graph_bench_intro(FILE *out) {
  fputs("usage: astar bench --graph X.gr [--coords X.co] (--queries X.p2p | --random N)\n"
        "                   [OPTIONS]\n"
        "\n"
        "Time point-to-point queries on a DIMACS graph with the search engine. The\n"
        "queries come from a DIMACS .p2p file (`p aux sp p2p K`, `q S T [C]`; C, an\n"
        "expected cost, is optional) or are drawn at random (uniform source and\n"
        "target, seeded: the same N and seed give the same queries everywhere).\n"
        "A cost C of 0 between two different nodes (a GPPC scenario's unreachable\n"
        "pair, written by `astar convert --scen`) expects no path; such queries are\n"
        "counted apart (the line 'no path expected'; JSON no_path_expected,\n"
        "no_path_found). Mismatches are listed as FILE:LINE (random ones: query N).\n"
        "Prints queries, solved, mismatches, seconds (of the median pass with\n"
        "--repeat; loading and checking excluded), microseconds per query, mean\n"
        "expansions and nanoseconds per expansion. --check checks every answer:\n"
        "against the file's cost C when it has one, else against Dijkstra (run\n"
        "before, untimed); exit 1 on any mismatch (optimal methods: equal cost;\n"
        "--weight W: at most W x optimal; greedy: found exactly when reachable).\n",
        out);
}

void cli_graph_bench_outro(FILE *out) {
  fputs("Exit status: 0 done, 1 unreadable/malformed file or (--check) a mismatch,\n"
        "2 usage error.\n",
        out);
}

/* splitmix64: the same queries for the same seed on every platform. */
static uint64_t next_random(uint64_t *s) {
  uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

static bool load_queries(const char *path, uint32_t n, astar_dimacs_query **out, size_t *count) {
  char *text;
  size_t len;
  *out = NULL;
  if (!cli_read_input(path, dimacs_limit, &dimacs_p2p, &text, &len)) return false;
  astar_parse_error err;
  memset(&err, 0, sizeof err);
  astar_status st = astar_dimacs_parse_p2p(text, len, n, NULL, 0, count, &err);
  if (st == ASTAR_BUFFER_TOO_SMALL) {
    *out = malloc(*count * sizeof **out);
    st = *out ? astar_dimacs_parse_p2p(text, len, n, *out, *count, count, &err) : ASTAR_NO_MEMORY;
  }
  free(text);
  if (st != ASTAR_OK) {
    cli_report_parse_error(path, st, &err);
    free(*out);
    *out = NULL;
    return false;
  }
  return true;
}

static int cmp_double(const void *x, const void *y) {
  const double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

int cli_graph_bench(const cli_graph_args *args, const cli_graph_bench_args *b,
                    const cli_args *parsed) {
  const graph_args a = *args;
  const char *qfile = b->queries;
  /* --repeat is 1 .. MAX_REPEAT: a pass fills the statuses read below. */
  const long nrandom = b->random, repeat = b->repeat < 1            ? 1
                                           : b->repeat > MAX_REPEAT ? MAX_REPEAT
                                                                    : b->repeat;
  uint64_t seed = b->seed;
  const bool check = b->check, json = b->json, quiet = b->quiet;
  if (parsed->npos > 0)
    return cli_usage_error("bench: unexpected argument '%s' with --graph (queries come from "
                           "--queries FILE or --random N)",
                           parsed->pos[0]);
  int rc = check_args(&a, "bench");
  if (rc >= 0) return rc;
  if (!qfile == !nrandom)
    return cli_usage_error("bench: give the queries with --queries FILE or --random N (one)");

  astar_graph *g;
  if (!load_graph(&a, &g)) return CLI_EXIT_FAIL;
  const uint32_t n = astar_graph_node_count(g);
  astar_dimacs_query *q = NULL;
  size_t nq = 0;
  if (qfile && !load_queries(qfile, n, &q, &nq)) {
    astar_graph_free(g);
    return CLI_EXIT_FAIL;
  }
  if (!qfile) {
    nq = (size_t)nrandom;
    q = malloc(nq * sizeof *q);
    for (size_t i = 0; q && i < nq; i++) {
      q[i].source = (astar_node)(next_random(&seed) % n);
      q[i].target = (astar_node)(next_random(&seed) % n);
      q[i].cost = -1;
      q[i].line = 0;
    }
  }
  astar_space sp, lsp;
  astar_graph_space(g, &sp);
  astar_landmarks_space_holder lmh;
  astar_landmarks *lm = NULL;
  double lm_seconds = 0;
  astar_workspace *ws = graph_workspace(&sp, &a);
  if (ws && !search_space(&a, &sp, &lsp, &lmh, &lm, &lm_seconds)) {
    astar_workspace_free(ws);
    ws = NULL; /* fails below, after the message search_space printed */
  }
  astar_node *path = malloc((size_t)n * sizeof *path);
  double *cost = malloc((nq ? nq : 1) * sizeof *cost), *ref = malloc((nq ? nq : 1) * sizeof *ref);
  uint64_t *expanded = malloc((nq ? nq : 1) * sizeof *expanded);
  unsigned char *status = malloc(nq ? nq : 1);
  /* A .p2p file of no queries is valid: nothing is searched (q stays NULL). */
  if (!ws || (!q && nq) || !path || !cost || !ref || !expanded || !status) {
    if (ws) cli_error("out of memory");
    rc = CLI_EXIT_FAIL;
    goto done;
  }
  rc = CLI_EXIT_OK;

  /* The reference costs first (untimed): the file's, or Dijkstra's. */
  if (check) {
    astar_engine_options dij;
    astar_engine_options_init(&dij);
    dij.method = ASTAR_METHOD_DIJKSTRA;
    for (size_t i = 0; i < nq; i++) {
      astar_engine_result r;
      if (q[i].cost >= 0) {
        /* 0 between two nodes: no path (a GPPC scenario, through convert). */
        ref[i] = q[i].cost == 0 && q[i].source != q[i].target ? -1 : q[i].cost;
        continue;
      }
      const astar_status st =
          astar_space_find_path(ws, &sp, &dij, q[i].source, q[i].target, NULL, 0, &r);
      ref[i] = st == ASTAR_OK || st == ASTAR_BUFFER_TOO_SMALL ? r.cost : -1;
    }
  }
  double passes[MAX_REPEAT] = {0};
  for (long rep = 0; rep < repeat; rep++) {
    const double t0 = cli_now_seconds();
    for (size_t i = 0; i < nq; i++) {
      astar_engine_result r;
      status[i] = (unsigned char)astar_space_find_path(ws, &lsp, &a.eo, q[i].source, q[i].target,
                                                       path, n, &r);
      cost[i] = r.cost;
      expanded[i] = r.stats.expanded;
    }
    passes[rep] = cli_now_seconds() - t0;
  }
  qsort(passes, (size_t)repeat, sizeof *passes, cmp_double);
  const double seconds = passes[(repeat - 1) / 2];

  size_t solved = 0, mismatches = 0, reported = 0;
  size_t no_path_expected = 0, no_path_found = 0; /* file cost 0 between two nodes */
  double exp_sum = 0;
  const bool optimal = a.eo.method != ASTAR_METHOD_GREEDY &&
                       !(a.eo.method == ASTAR_METHOD_ASTAR && a.eo.weight > 1.0);
  for (size_t i = 0; i < nq; i++) {
    const bool found = status[i] == ASTAR_OK;
    solved += found;
    exp_sum += (double)expanded[i];
    if (q[i].cost == 0 && q[i].source != q[i].target) {
      no_path_expected++;
      no_path_found += status[i] == ASTAR_NO_PATH;
    }
    if (!check) continue;
    bool bad;
    const double tol = q[i].cost >= 0 ? REL_TOLERANCE_FILE : REL_TOLERANCE_DIJKSTRA;
    if (ref[i] < 0 || !found)
      bad = found != (ref[i] >= 0) || (status[i] != ASTAR_OK && status[i] != ASTAR_NO_PATH);
    else if (optimal)
      bad = fabs(cost[i] - ref[i]) > tol * (1 + ref[i]);
    else if (a.eo.method == ASTAR_METHOD_ASTAR)
      bad = cost[i] > a.eo.weight * ref[i] * (1 + tol) + tol;
    else
      bad = false;
    if (!bad) continue;
    mismatches++;
    if (reported++ < MAX_REPORTED) {
      char e[64], got[64];
      cli_format_cost(e, sizeof e, ref[i]);
      cli_format_cost(got, sizeof got, cost[i]);
      if (q[i].line)
        fprintf(stderr, "mismatch: %s:%d: ", qfile, (int)q[i].line);
      else
        fprintf(stderr, "mismatch: query %zu: ", i + 1);
      fprintf(stderr, "%u -> %u: expected %s, got %s\n", (unsigned)q[i].source + 1,
              (unsigned)q[i].target + 1, ref[i] < 0 ? "no path" : e,
              found ? got : astar_strerror((astar_status)status[i]));
    }
  }
  const double us = nq ? seconds * 1e6 / (double)nq : 0;
  const double mean_exp = nq ? exp_sum / (double)nq : 0;
  const double ns_exp = exp_sum > 0 ? seconds * 1e9 / exp_sum : 0;
  if (json) {
    fputs("{\"graph\":", stdout);
    cli_json_string(stdout, a.gr);
    fputs(",\"algo\":", stdout);
    cli_json_string(stdout, cli_space_algo_name(a.eo.method));
    fputs(",\"heuristic\":", stdout);
    cli_json_string(stdout, kind_name(astar_graph_heuristic_kind(g)));
    fputs(",\"scale\":", stdout);
    cli_json_number(stdout, astar_graph_heuristic_scale(g), 9);
    printf(",\"nodes\":%u,\"arcs\":%zu,\"repeat\":%ld,\"queries\":%zu,\"solved\":%zu", (unsigned)n,
           astar_graph_arc_count(g), repeat, nq, solved);
    if (check) printf(",\"mismatches\":%zu", mismatches);
    printf(",\"no_path_expected\":%zu,\"no_path_found\":%zu", no_path_expected, no_path_found);
    fputs(",\"seconds\":", stdout);
    cli_json_number(stdout, seconds, 6);
    fputs(",\"us_per_query\":", stdout);
    cli_json_number(stdout, us, 3);
    fputs(",\"mean_expansions\":", stdout);
    cli_json_number(stdout, mean_exp, 3);
    fputs(",\"ns_per_expansion\":", stdout);
    cli_json_number(stdout, ns_exp, 3);
    fputs("}\n", stdout);
  } else {
    if (!quiet) {
      describe(stdout, &a, g);
      describe_landmarks(stdout, lm, lm_seconds, n);
      printf("queries:  %s\n\n", qfile ? qfile : "random");
    }
    printf("%9s %9s %10s %9s %11s %14s %11s\n", "queries", "solved", "mismatches", "seconds",
           "\xc2\xb5s/query", "mean expanded", "ns/expand");
    char mm[24];
    snprintf(mm, sizeof mm, "%zu", mismatches);
    printf("%9zu %9zu %10s %9.3f %10.1f %14.1f %11.1f\n", nq, solved, check ? mm : "-", seconds, us,
           mean_exp, ns_exp);
    if (no_path_expected)
      printf("no path expected: %zu of the %zu queries (cost 0 for two different nodes, the "
             "GPPC form), %zu answered no path\n",
             no_path_expected, nq, no_path_found);
  }
  if (check && mismatches) {
    cli_error("bench --check: %zu of %zu queries mismatched", mismatches, nq);
    rc = CLI_EXIT_FAIL;
  }
done:
  free(status);
  free(expanded);
  free(ref);
  free(cost);
  free(path);
  free(q);
  astar_workspace_free(ws);
  astar_landmarks_free(lm);
  astar_graph_free(g);
  return rc;
}

/* ---- convert -------------------------------------------------------------------------- */

/* The cost a w x h grid without terrain gives its diagonal moves under the
** default options, as convert writes it: sqrt 2 rounded as the grid's
** searches round it (astar/search.h, "Exact ties"); NAN if the grid cannot
** be made. Asked of the library, not written down, so that the help says
** what a file holds. */
static double written_diagonal(int32_t w, int32_t h) {
  astar_grid *g = NULL;
  astar_grid_space holder;
  astar_space sp;
  double d = NAN;
  if (astar_grid_new(&g, w, h, NULL) == ASTAR_OK &&
      astar_grid_space_init(&sp, &holder, g, NULL) == ASTAR_OK)
    d = holder.cost[4]; /* directions N E S W NE ...: 4 is a diagonal */
  astar_grid_free(g);
  return d;
}

typedef struct convert_settings {
  astar_options opt;
  const char *gr, *co, *scen, *p2p;
} convert_settings;

static const cli_opt convert_rows[] = {
    {.name = "--output",
     .alias = "-o",
     .meta = "FILE",
     .kind = CLI_TEXT,
     CLI_AT(convert_settings, gr),
     .sample = "x.gr",
     .help = "the .gr file to write"},
    {.name = "--coords",
     .meta = "FILE",
     .kind = CLI_TEXT,
     CLI_AT(convert_settings, co),
     .sample = "x.co",
     .help = "also write the cells as coordinates (.co: v ID X Y,\n"
             "X the column, Y the row)"},
    {.name = "--scen",
     .meta = "FILE",
     .kind = CLI_TEXT,
     CLI_AT(convert_settings, scen),
     .help = "a Moving AI scenario of MAP, written as queries ..."},
    {.name = "--queries",
     .meta = "FILE",
     .kind = CLI_TEXT,
     CLI_AT(convert_settings, p2p),
     .sample = "x.p2p",
     .help = "... into this .p2p file (q S T C, C its optimal length)"},
    CLI_HELP_ROW,
};
static const cli_group convert_group = CLI_ROWS(convert_rows);

static const cli_section convert_sections[] = {
    {"Options:", &convert_group, 0, 0, NULL, false},
    {"Movement rules (the defaults are the Moving AI model's):", &cli_rules_group,
     offsetof(convert_settings, opt), 0, NULL, false},
};

static void convert_intro(FILE *out) {
  fprintf(out,
          "usage: astar convert MAP -o X.gr [--coords X.co] [--scen X.scen --queries X.p2p]\n"
          "                     [--moves 4|8] [--corner RULE] [--costs S,D]\n"
          "\n"
          "Write a grid map (Moving AI .map or ASCII) as a DIMACS graph: one node a\n"
          "passable cell, numbered 1, 2, ... in row-major order (top row first, left to\n"
          "right), one arc a legal move with its cost (the grid's moves, corner rule,\n"
          "move costs and terrain: the arcs of the grid as a space, astar/grid_space.h),\n"
          "arcs listed by cell and, within a cell, in the order N E S W NE SE SW NW.\n"
          "An arc's cost is written as the grid's searches use it, to 17 significant\n"
          "digits (read back, the same double): on a map without terrain the two move\n"
          "costs rounded to a multiple of a power of two that grows with the map, so\n"
          "that sums of them are exact (astar/search.h, \"Exact ties\") -- the default\n"
          "diagonal, sqrt 2 = %.17g, is written %.17g on a\n"
          "49 x 49 map and %.17g on 512 x 512; with terrain, the\n"
          "options' cost times the terrain factor of the cell entered. The .gr's\n"
          "comment line gives the costs written. The DIMACS files of the challenge have\n"
          "integer costs; this library reads both.\n",
          sqrt(2.0), written_diagonal(49, 49), written_diagonal(512, 512));
}

static void convert_outro(FILE *out) {
  fputs("Exit status: 0 written, 1 unreadable/malformed input or unwritable output,\n"
        "2 usage error.\n",
        out);
}

static const cli_kind convert_kinds[] = {{"map", "square maps", "astar convert --help"}};
static const cli_page convert_pages[] = {{CLI_KIND(0), NULL, convert_intro, convert_outro}};

const cli_spec cli_convert_spec = {.command = "convert",
                                   CLI_SECTIONS(convert_sections),
                                   CLI_KINDS(convert_kinds),
                                   CLI_PAGES(convert_pages)};

/* Open `path` into *o (cli_out: written whole or not at all); the stream,
** or NULL after a message. */
static FILE *open_out(cli_out *o, const char *path) {
  return cli_out_open(o, path) ? o->f : NULL;
}

int cli_cmd_convert(int argc, char **argv) {
  convert_settings set = {0};
  astar_options_init(&set.opt);
  cli_args a;
  const int prc = cli_parse(&a, &cli_convert_spec, argc, argv, &set);
  if (prc >= 0) return prc;
  if (a.npos > 1) return cli_usage_error("convert: unexpected argument '%s'", a.pos[1]);
  const char *map = a.npos ? a.pos[0] : NULL, *gr = set.gr, *co = set.co, *scen_file = set.scen,
             *p2p = set.p2p;
  const astar_options opt = set.opt;
  if (!map) return cli_usage_error("convert: missing MAP (see 'astar convert --help')");
  if (!gr) return cli_usage_error("convert: missing -o X.gr");
  if (!scen_file != !p2p) return cli_usage_error("convert: --scen and --queries go together");

  astar_grid *grid;
  if (!cli_load_map(map, &grid, NULL, NULL)) return CLI_EXIT_FAIL;
  astar_scen *scen = NULL;
  if (scen_file && !cli_load_scen(scen_file, &scen)) {
    astar_grid_free(grid);
    return CLI_EXIT_FAIL;
  }
  const int32_t w = astar_grid_width(grid), h = astar_grid_height(grid);
  const size_t cells = (size_t)w * (size_t)h;
  uint32_t *id = malloc(cells * sizeof *id); /* 1-based node of each cell, 0: blocked */
  astar_grid_space holder;
  astar_space sp;
  astar_status st = astar_grid_space_init(&sp, &holder, grid, &opt);
  int rc = CLI_EXIT_FAIL;
  FILE *f = NULL;
  cli_out out = {NULL, NULL, NULL, NULL, 0};
  if (st != ASTAR_OK || !id) {
    cli_error("%s: %s", map,
              st != ASTAR_OK ? "the movement options are not valid together" : "out of memory");
    rc = st != ASTAR_OK ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
    goto done;
  }
  uint32_t n = 0;
  size_t m = 0;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++)
      id[(size_t)y * w + x] = astar_grid_passable(grid, x, y) ? ++n : 0;
  if (n == 0) {
    cli_error("%s: no passable cell: a graph needs at least one node", map);
    goto done;
  }
  astar_arc arcs[8];
  for (astar_node v = 0; v < cells; v++)
    if (id[v]) m += sp.ops->successors(sp.self, v, arcs, 8);
  /* The reader refuses more nodes than its arcs can touch plus a bounded
  ** number alone (astar_dimacs_parse_gr): never write a file it refuses. */
  if ((uint64_t)n > 2 * (uint64_t)m + ASTAR_DIMACS_MAX_LONE_NODES) {
    cli_error("%s: %u passable cells but only %zu arcs: over 2 x arcs + %u cells would have no "
              "move, more than a .gr may declare (ASTAR_DIMACS_MAX_LONE_NODES)",
              map, (unsigned)n, m, (unsigned)ASTAR_DIMACS_MAX_LONE_NODES);
    goto done;
  }
  if (!(f = open_out(&out, gr))) goto done;
  /* The costs the arcs below hold (the space's, which may be the options'
  ** rounded), not the options' own: the comment says what the file holds. */
  fprintf(f, "c %s as a graph (astar convert): %u passable cells in row-major order, %d moves", map,
          (unsigned)n, opt.moves);
  if (opt.moves == 8) fprintf(f, ", corners %s", cli_corner_name(opt.corner));
  fprintf(f, ", arc costs %.17g", holder.cost[0]);
  if (opt.moves == 8) fprintf(f, " (straight) and %.17g (diagonal)", holder.cost[4]);
  if (astar_grid_has_terrain(grid))
    fputs(" times the terrain factor of the cell entered", f);
  else if (holder.cost[0] != opt.straight_cost ||
           (opt.moves == 8 && holder.cost[4] != opt.diagonal_cost))
    fprintf(f, ": --costs %.17g,%.17g rounded as the grid's searches round them", opt.straight_cost,
            opt.diagonal_cost);
  fprintf(f, "\np sp %u %zu\n", (unsigned)n, m);
  for (astar_node v = 0; v < cells; v++) {
    if (!id[v]) continue;
    const size_t k = sp.ops->successors(sp.self, v, arcs, 8);
    for (size_t i = 0; i < k; i++)
      fprintf(f, "a %u %u %.17g\n", (unsigned)id[v], (unsigned)id[arcs[i].node], arcs[i].cost);
  }
  if (!cli_out_close(&out)) goto done;
  if (co) {
    if (!(f = open_out(&out, co))) goto done;
    fprintf(f, "c cells of %s: X the column, Y the row (0, 0 top left)\np aux sp co %u\n", map,
            (unsigned)n);
    for (int32_t y = 0; y < h; y++)
      for (int32_t x = 0; x < w; x++)
        if (id[(size_t)y * w + x])
          fprintf(f, "v %u %d %d\n", (unsigned)id[(size_t)y * w + x], x, y);
    if (!cli_out_close(&out)) goto done;
  }
  if (scen) {
    const astar_scen_query *q = astar_scen_queries(scen);
    const size_t nq = astar_scen_count(scen);
    for (size_t i = 0; i < nq; i++) {
      const astar_point c[2] = {q[i].start, q[i].goal};
      for (int k = 0; k < 2; k++)
        if (!astar_grid_contains(grid, c[k].x, c[k].y) || !id[(size_t)c[k].y * w + c[k].x]) {
          fprintf(stderr, "%s:%d: the %s (%d,%d) is not a passable cell of %s\n", scen_file,
                  (int)q[i].line, k ? "goal" : "start", (int)c[k].x, (int)c[k].y, map);
          goto done;
        }
    }
    if (!(f = open_out(&out, p2p))) goto done;
    fprintf(f, "c queries of %s on %s (q S T optimal-length)\np aux sp p2p %zu\n", scen_file, map,
            nq);
    for (size_t i = 0; i < nq; i++)
      fprintf(f, "q %u %u %.17g\n", (unsigned)id[(size_t)q[i].start.y * w + q[i].start.x],
              (unsigned)id[(size_t)q[i].goal.y * w + q[i].goal.x], q[i].optimal_length);
    if (!cli_out_close(&out)) goto done;
  }
  rc = CLI_EXIT_OK;
done:
  cli_out_abort(&out); /* a file left open by an error above: not written */
  free(id);
  astar_scen_free(scen);
  astar_grid_free(grid);
  return rc;
}
