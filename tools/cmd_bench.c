/*
** cmd_bench.c -- `astar bench PATH...`: run the queries of Moving AI .scen
** files, compare each cost with the file's optimal length and time the
** searches. A directory means every .scen under it (recursively, sorted by
** path); each scen's map is the file beside it with the same name minus
** ".scen". The map field inside the scen is spelled inconsistently across
** the benchmark sets, so it is the fallback: when the file beside the scen
** does not exist, the field is tried (its base name beside the scen, then
** as written, relative to the scen's folder). A scenario whose map cannot
** be found or read is reported (file and line) and the run goes on with
** the others; the exit status then says it failed.
**
** Only the search loop is timed: files are read and parsed, the workspace
** and all result arrays allocated, and an algorithm's preprocessing (JPS+)
** built or loaded, before the clock starts. The preprocessing is timed on
** its own and reported beside the searches.
*/
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "progress.h"

#define REL_TOLERANCE 1e-5  /* Moving AI lengths have 6 significant digits at worst */
#define MAX_REPORTED 10     /* mismatches listed with --check */
#define MAX_DEPTH 64        /* directory recursion guard (symlink loops) */
#define MAX_REPEAT 101      /* --repeat bound */
#define DEFAULT_WARMUP 1000 /* --warmup default: queries */

typedef struct bench_file {
  char *scen;  /* path of the .scen file */
  char *map;   /* path of the map beside it */
  char *label; /* map name shown in the table (relative to the directory given) */
  bool named;  /* map given with --map: used as it is, never looked for */
} bench_file;

typedef struct file_list {
  bench_file *v;
  size_t n, cap;
} file_list;

typedef struct bench_stats {
  size_t queries, solved, mismatches;
  size_t no_path_expected; /* queries the file says have no path (GPPC: length 0) */
  size_t no_path_found;    /* ... and that found none, as expected */
  double seconds;
  double expansions;  /* sum */
  double pre_seconds; /* preprocessing: build, or read + load */
  size_t pre_bytes;   /* preprocessing: memory held */
  double ratio_sum;   /* --space waypoints: sum of cost / optimal length over solved queries */
  size_t nodes;       /* --space waypoints: waypoints of the graph */
  size_t edges;       /* --space waypoints: its edges */
  double dropped;     /* sum: beam, bandwidth */
  double iterations;  /* sum: ida (iterations), retarget (legs) */
  uint64_t path_hash; /* --hash / --golden: statuses and paths of the queries, in order */
  size_t enc_bad;     /* --encodings: paths whose round trip through astar/path.h failed */
  double ratio_max;   /* --algo hpa: largest cost / optimal length over solved queries */
} bench_stats;

typedef struct mismatch {
  const char *scen; /* the scenario file */
  double expected;  /* < 0: no path expected */
  double got;
  int32_t line; /* the query's line in it: messages say FILE:LINE */
  astar_status status;
} mismatch;

typedef struct bench_config {
  astar_options opt;
  const cli_algo *algo;
  const char *pre_file; /* --pre: load the preprocessing instead of building it */
  bool check, json, quiet;
  size_t limit, every;
  size_t repeat; /* timed passes over the queries; the median pass is reported */
  size_t warmup; /* untimed queries run first on each map (the first selected ones) */
  long threads;  /* --threads: workers of one batch call (astar/batch.h); 0: one by one */
  bool hash;     /* --hash: print each map's path hash (the golden file's lines) */
  bool encode;   /* --encodings: round-trip every path found through astar/path.h */
  const struct golden_table *golden; /* --golden: the expected path hashes, or NULL */
  int extra;                         /* column of the engine's variants: EXTRA_* */
  bool ratio;                        /* the cost/opt column (methods without optimality) */
  bool smooth;                       /* --smooth: string-pull every path (timed with it) */
  cli_table table;                   /* --heuristic-table: built per map in run_file */
} bench_config;

/* The extra column: none, mean drops (beam, bandwidth), mean iterations
** (ida) or legs (retarget). */
enum { EXTRA_NONE, EXTRA_DROPPED, EXTRA_ITERATIONS };

static int extra_of(const cli_algo *algo) {
  if (!algo->engine) return EXTRA_NONE;
  switch (algo->method) {
  case ASTAR_METHOD_BEAM:
  case ASTAR_METHOD_BANDWIDTH:
    return EXTRA_DROPPED;
  case ASTAR_METHOD_IDA:
  case ASTAR_METHOD_RETARGETING:
    return EXTRA_ITERATIONS;
  default:
    return EXTRA_NONE;
  }
}

/* Is the algorithm with these options not always optimal? Then bench
** shows the mean ratio of cost to optimal. */
static bool may_be_suboptimal(const cli_algo *algo, const astar_options *opt) {
  if (opt->weight > 1.0 || cli_algo_is_hpa(algo)) return true;
  if (!algo->engine) return false;
  switch (algo->method) {
  case ASTAR_METHOD_GREEDY:
  case ASTAR_METHOD_BEAM:
  case ASTAR_METHOD_DYNAMIC:
  case ASTAR_METHOD_BANDWIDTH:
  case ASTAR_METHOD_RETARGETING:
    return true;
  default:
    return false;
  }
}

static int out_of_memory(void) {
  cli_error("out of memory");
  return CLI_EXIT_FAIL;
}

/* ---- collecting the files ------------------------------------------------- */

static char *dup_string(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool push_file(file_list *l, const char *scen, const char *label) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 16;
    bench_file *v = realloc(l->v, cap * sizeof *v);
    if (!v) return false;
    l->v = v;
    l->cap = cap;
  }
  bench_file *f = &l->v[l->n];
  f->named = false;
  /* X.map.scen -> X.map; a bare X.scen -> X (or X.map when X is absent). */
  size_t n = strlen(scen) - strlen(".scen");
  f->scen = dup_string(scen);
  f->map = malloc(n + sizeof ".map");
  f->label = malloc(strlen(label) + sizeof ".map");
  if (!f->scen || !f->map || !f->label) {
    free(f->scen), free(f->map), free(f->label);
    return false;
  }
  memcpy(f->map, scen, n);
  f->map[n] = '\0';
  size_t ln = strlen(label) - (ends_with(label, ".scen") ? strlen(".scen") : 0);
  memcpy(f->label, label, ln);
  f->label[ln] = '\0';
  struct stat sb;
  if (!ends_with(f->map, ".map") && stat(f->map, &sb) != 0) {
    strcat(f->map, ".map");
    strcat(f->label, ".map");
  }
  l->n++;
  return true;
}

static void free_files(file_list *l) {
  for (size_t i = 0; i < l->n; i++) free(l->v[i].scen), free(l->v[i].map), free(l->v[i].label);
  free(l->v);
}

static int cmp_string(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct string_list {
  char **v;
  size_t n, cap;
} string_list;

static bool push_string(string_list *l, char *s) {
  if (!s) return false;
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 16;
    char **v = realloc(l->v, cap * sizeof *v);
    if (!v) {
      free(s);
      return false;
    }
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = s;
  return true;
}

/* Every *.scen under `dir` into `out`. Returns false after a message. */
static bool walk(const char *dir, string_list *out, int depth) {
  if (depth > MAX_DEPTH) {
    cli_error("%s: directories nested too deep (a symlink loop?)", dir);
    return false;
  }
  DIR *d = opendir(dir);
  if (!d) {
    cli_error("%s: %s", dir, strerror(errno));
    return false;
  }
  bool ok = true;
  struct dirent *e;
  while (ok && (e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    size_t n = strlen(dir) + strlen(e->d_name) + 2;
    char *path = malloc(n);
    if (!path) {
      ok = false;
      break;
    }
    snprintf(path, n, "%s%s%s", dir, ends_with(dir, "/") ? "" : "/", e->d_name);
    struct stat sb;
    const bool exists = stat(path, &sb) == 0; /* false: a dangling symlink, not a scenario */
    if (exists && S_ISDIR(sb.st_mode)) {
      ok = walk(path, out, depth + 1);
      free(path);
    } else if (exists && ends_with(e->d_name, ".scen")) {
      if (!(ok = push_string(out, path))) out_of_memory();
    } else {
      free(path);
    }
  }
  closedir(d);
  return ok;
}

/* Expand the PATH arguments into the list of scen files. Returns an exit
** status, or -1 to go on. */
static int collect(char **paths, int npaths, file_list *files) {
  for (int i = 0; i < npaths; i++) {
    const char *arg = paths[i];
    struct stat sb;
    if (stat(arg, &sb) != 0) {
      cli_error("%s: %s", arg, strerror(errno));
      return CLI_EXIT_FAIL;
    }
    if (!S_ISDIR(sb.st_mode)) {
      if (!ends_with(arg, ".scen"))
        return cli_usage_error("bench: %s: expected a .scen file or a directory", arg);
      if (!push_file(files, arg, arg)) return out_of_memory();
      continue;
    }
    string_list found = {NULL, 0, 0};
    if (!walk(arg, &found, 0)) {
      for (size_t k = 0; k < found.n; k++) free(found.v[k]);
      free(found.v);
      return CLI_EXIT_FAIL;
    }
    if (found.n == 0) {
      free(found.v);
      cli_error("%s: no .scen files found", arg);
      return CLI_EXIT_FAIL;
    }
    qsort(found.v, found.n, sizeof *found.v, cmp_string);
    size_t prefix = strlen(arg) + (ends_with(arg, "/") ? 0 : 1);
    bool ok = true;
    for (size_t k = 0; k < found.n; k++) {
      if (ok && !push_file(files, found.v[k], found.v[k] + prefix)) ok = false;
      free(found.v[k]);
    }
    free(found.v);
    if (!ok) return out_of_memory();
  }
  return -1;
}

/* ---- running one scen file ------------------------------------------------- */

static bool file_exists(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* A malloc'd "DIR/NAME" where DIR is the folder of `file` ("" if none);
** NAME itself when it is absolute. */
static char *beside(const char *file, const char *name) {
  const char *slash = strrchr(file, '/');
  const size_t dn = name[0] == '/' ? 0 : slash ? (size_t)(slash - file) + 1 : 0;
  char *s = malloc(dn + strlen(name) + 1);
  if (!s) return NULL;
  memcpy(s, file, dn);
  strcpy(s + dn, name);
  return s;
}

/* The map of scenario f when the file beside it is missing: the scen's map
** field, by base name beside the scen, then as written relative to the
** scen's folder. Returns a malloc'd path, or NULL after a message naming
** the scen file and the line of its first query. */
static char *find_map(const bench_file *f, const astar_scen *scen) {
  const size_t count = astar_scen_count(scen);
  const astar_scen_query *q = astar_scen_queries(scen);
  if (count == 0) {
    cli_error("%s: map %s not found (and the scenario has no query naming a map)", f->scen, f->map);
    return NULL;
  }
  const char *field = q[0].map;
  const char *base = strrchr(field, '/');
  base = base ? base + 1 : field;
  char *tries[2] = {beside(f->scen, base), beside(f->scen, field)};
  char *found = NULL;
  for (int i = 0; i < 2 && !found; i++)
    if (tries[i] && file_exists(tries[i])) found = tries[i], tries[i] = NULL;
  if (!found && tries[0] && tries[1] && strcmp(tries[0], tries[1]) != 0)
    cli_error("%s:%d: map '%s' not found (looked for %s, %s and %s)", f->scen, (int)q[0].line,
              field, f->map, tries[0], tries[1]);
  else if (!found)
    cli_error("%s:%d: map '%s' not found (looked for %s and %s)", f->scen, (int)q[0].line, field,
              f->map, tries[0] ? tries[0] : field);
  free(tries[0]);
  free(tries[1]);
  return found;
}

/* Does the scenario say this query has no path? The GPPC's scenario files
** write optimal length 0 for a pair that cannot be reached; a Moving AI
** file never does (its pairs are all connected, and a length is 0 only
** when start and goal are the same cell), so the rule reads both forms. */
static bool no_path_expected(const astar_scen_query *q) {
  return q->optimal_length == 0 && (q->start.x != q->goal.x || q->start.y != q->goal.y);
}

/* A grid search must match the optimal (octile) length; an any-angle
** search over waypoints must find a path and never exceed it. */
static bool is_mismatch(astar_status st, double cost, double optimal, bool any_angle) {
  if (st != ASTAR_OK && st != ASTAR_BUFFER_TOO_SMALL) return true;
  double diff = any_angle ? cost - optimal : fabs(cost - optimal);
  return optimal > 0 ? diff / optimal > REL_TOLERANCE : diff > REL_TOLERANCE;
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median of v[0 .. n-1] (n >= 1; sorts v). For even n, the lower middle. */
static double median(double *v, size_t n) {
  qsort(v, n, sizeof *v, cmp_double);
  return v[(n - 1) / 2];
}

/* Run the selected queries of one file. Returns false after a message when
** a file cannot be loaded or memory runs out. */
/* ---- golden path hashes (--golden, --hash) ----------------------------------
** A golden file holds one line per (algorithm, query stride, scenario file):
** "ALGO EVERY SCEN HASH", HASH the 16 hex digits of the FNV-1a hash
** (astar_path_hash) of every selected query's status and length, then its
** path; '#' starts a comment line. tests/golden/ keeps the project's. */

typedef struct golden_entry {
  char algo[32];  /* --algo name */
  size_t every;   /* --every */
  char scen[128]; /* scenario file name, without its folder */
  uint64_t hash;
} golden_entry;

typedef struct golden_table {
  const char *file; /* for messages */
  golden_entry *v;
  size_t n;
} golden_table;

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* Read FILE into *t; false after a message naming FILE and the line. */
static bool golden_load(const char *file, golden_table *t) {
  char *text = NULL;
  size_t len = 0;
  memset(t, 0, sizeof *t);
  t->file = file;
  if (!cli_read_file(file, &text, &len)) return false;
  size_t lines = 1;
  for (size_t i = 0; i < len; i++) lines += text[i] == '\n';
  t->v = calloc(lines, sizeof *t->v);
  if (!t->v) {
    free(text);
    cli_error("out of memory");
    return false;
  }
  size_t lineno = 0;
  for (char *line = text, *next; line && *line; line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = '\0';
    lineno++;
    if (*line == '#' || *line == '\0' || *line == '\r') continue;
    golden_entry *e = &t->v[t->n];
    unsigned long long every, hash;
    int used = 0;
    if (sscanf(line, "%31s %llu %127s %16llx%n", e->algo, &every, e->scen, &hash, &used) != 4 ||
        (line[used] != '\0' && line[used] != '\r') || every == 0) {
      cli_error("%s:%zu: expected 'ALGO EVERY SCEN HASH' (HASH: 16 hex digits)", file, lineno);
      free(text);
      free(t->v);
      t->v = NULL;
      return false;
    }
    e->every = (size_t)every;
    e->hash = (uint64_t)hash;
    t->n++;
  }
  free(text);
  return true;
}

static const golden_entry *golden_find(const golden_table *t, const char *algo, size_t every,
                                       const char *scen) {
  for (size_t i = 0; i < t->n; i++)
    if (t->v[i].every == every && !strcmp(t->v[i].algo, algo) &&
        !strcmp(t->v[i].scen, base_name(scen)))
      return &t->v[i];
  return NULL;
}

/* Fold one query's outcome into a map's path hash. */
static uint64_t hash_query(uint64_t h, astar_status st, const astar_result *r,
                           const astar_point *path) {
  const bool found = st == ASTAR_OK;
  const astar_point head = {(int32_t)st, found ? (int32_t)r->length : 0};
  h = astar_path_hash(&head, 1, h);
  return found ? astar_path_hash(path, r->length, h) : h;
}

/* --encodings: does path[0 .. n-1] come back unchanged from every encoding
** of astar/path.h, and from its turn points? buf holds n * 8 + 32 bytes,
** back 2 * n cells. */
static bool round_trips(const astar_point *path, size_t n, unsigned char *buf, astar_point *back) {
  for (int e = 0; e < ASTAR_PATH_ENCODING_COUNT; e++) {
    size_t len = 0, m = 0;
    if (astar_path_encode(path, n, (astar_path_encoding)e, buf, n * 8 + 32, &len) != ASTAR_OK ||
        astar_path_decode(buf, len, back, n, &m) != ASTAR_OK || m != n ||
        memcmp(back, path, n * sizeof *path) != 0)
      return false;
  }
  size_t m = 0, k = 0;
  return astar_path_turn_points(path, n, back, n, &m) == ASTAR_OK &&
         astar_path_expand_turn_points(back, m, back + n, n, &k) == ASTAR_OK && k == n &&
         memcmp(back + n, path, n * sizeof *path) == 0;
}

/* --threads: the selected queries as one batch per pass with the prepared
** finder (any method: astar_batch_find), timed as a whole (wall time: the
** workers run at once). Fills status, cost, expanded and the variants'
** figures. */
static bool run_batched(const bench_config *cfg, const bench_file *f, const astar_grid *grid,
                        const cli_prepared *prep, const astar_scen_query *q, const size_t *sel,
                        size_t nsel, double *passes, size_t *rep, unsigned char *status,
                        double *cost, uint64_t *expanded, bench_stats *out) {
  astar_batch *b = NULL;
  astar_query *qs = malloc((nsel ? nsel : 1) * sizeof *qs);
  astar_path_result *res = malloc((nsel ? nsel : 1) * sizeof *res);
  astar_status st =
      qs && res ? astar_batch_new(&b, grid, (unsigned)cfg->threads, NULL) : ASTAR_NO_MEMORY;
  if (st != ASTAR_OK) {
    cli_error("%s: %s", f->map, astar_strerror(st));
    free(qs), free(res);
    astar_batch_free(b);
    return false;
  }
  for (size_t k = 0; k < nsel; k++) qs[k] = (astar_query){q[sel[k]].start, q[sel[k]].goal};
  const size_t warm = cfg->warmup < nsel ? cfg->warmup : nsel;
  if (warm) (void)astar_batch_find(b, prep->finder, qs, warm, res, NULL, 0, NULL);
  *rep = 0;
  do {
    const double t0 = cli_now_seconds();
    st = astar_batch_find(b, prep->finder, qs, nsel, res, NULL, 0, NULL);
    passes[*rep] = cli_now_seconds() - t0;
  } while (st == ASTAR_OK && ++*rep < cfg->repeat);
  if (st != ASTAR_OK) {
    cli_error("%s: %s", f->map, astar_strerror(st));
  } else {
    for (size_t k = 0; k < nsel; k++) {
      status[k] = (unsigned char)res[k].status;
      cost[k] = res[k].cost;
      expanded[k] = res[k].stats.expanded;
      out->dropped += (double)res[k].dropped;
      out->iterations += (double)res[k].iterations;
    }
  }
  free(qs), free(res);
  astar_batch_free(b);
  return st == ASTAR_OK;
}

static bool run_file(const bench_config *cfg_in, const bench_file *f, bench_stats *out,
                     mismatch *reported, size_t *nreported) {
  /* A copy: --heuristic-table builds a table per map into its options. */
  bench_config local = *cfg_in;
  const bench_config *cfg = &local;
  memset(out, 0, sizeof *out);
  astar_grid *grid = NULL;
  astar_scen *scen = NULL;
  astar_workspace *ws = NULL;
  astar_point *path = NULL;
  astar_point *back = NULL;  /* --encodings: decoded cells */
  unsigned char *enc = NULL; /* --encodings: encoded bytes */
  size_t *sel = NULL;
  double *cost = NULL;
  uint64_t *expanded = NULL;
  unsigned char *status = NULL;
  cli_prepared prep;
  bool ok = false;

  memset(&prep, 0, sizeof prep);

  if (!cli_load_scen(f->scen, &scen)) goto done;
  /* The map named with --map, or the file beside the scenario when there is
  ** one (of any kind: a directory or a link to /dev/zero is an error, not a
  ** reason to look elsewhere). Only a missing file beside the scenario falls
  ** back to the map the scenario names. */
  char *found = NULL;
  struct stat sb;
  if (!f->named && lstat(f->map, &sb) != 0 && errno == ENOENT && !(found = find_map(f, scen)))
    goto done;
  const bool loaded = cli_load_map(found ? found : f->map, &grid, NULL, NULL);
  free(found);
  if (!loaded) goto done;
  const char *why = cli_algo_unsupported(cfg->algo, &cfg->opt, grid);
  if (why) {
    cli_error("%s: %s: %s", f->map, cfg->algo->name, why);
    goto done;
  }
  size_t count = astar_scen_count(scen);
  const astar_scen_query *q = astar_scen_queries(scen);
  if (count > 0 &&
      (q[0].map_width != astar_grid_width(grid) || q[0].map_height != astar_grid_height(grid)))
    cli_error("warning: %s says the map is %d x %d, but %s is %d x %d", f->scen,
              (int)q[0].map_width, (int)q[0].map_height, f->map, (int)astar_grid_width(grid),
              (int)astar_grid_height(grid));

  size_t cap = astar_grid_count_passable(grid);
  if (cap == 0) cap = 1;
  astar_status st = astar_workspace_new(&ws, grid, NULL);
  /* The options ask for turn states: reserve them (a search never allocates). */
  if (st == ASTAR_OK && cfg->opt.turn_penalty > 0) st = astar_workspace_reserve_turns(ws, grid);
  size_t nsel = 0;
  sel = malloc((count ? count : 1) * sizeof *sel);
  path = malloc(cap * sizeof *path);
  cost = malloc((count ? count : 1) * sizeof *cost);
  expanded = malloc((count ? count : 1) * sizeof *expanded);
  status = malloc(count ? count : 1);
  if (cfg->encode) {
    back = malloc(2 * cap * sizeof *back);
    enc = malloc(cap * 8 + 32);
  }
  if (st != ASTAR_OK || !sel || !path || !cost || !expanded || !status ||
      (cfg->encode && (!back || !enc))) {
    cli_error("%s: %s", f->map, astar_strerror(st != ASTAR_OK ? st : ASTAR_NO_MEMORY));
    goto done;
  }
  for (size_t i = 0; i < count; i += cfg->every) {
    if (cfg->limit && nsel == cfg->limit) break;
    sel[nsel++] = i;
  }
  if (!cli_prepare(&prep, cfg->algo, grid, &cfg->opt, f->map, cfg->pre_file)) goto done;
  out->pre_seconds = prep.seconds;
  out->pre_bytes = prep.bytes;
  if (!cli_table_build(&local.table, grid, &local.opt, f->map)) goto done;
  if (local.table.table) { /* the table is the preprocessing */
    out->pre_seconds += local.table.seconds;
    out->pre_bytes += astar_waypoint_table_memory(local.table.table);
  }
  if (cfg->algo->pre && cfg->algo->pre->graph_size)
    cfg->algo->pre->graph_size(prep.ctx, &out->nodes, &out->edges);
  const bool any_angle = cli_algo_is_any_angle(cfg->algo) || cfg->smooth;
  const bool near_optimal = cli_algo_is_hpa(cfg->algo); /* found, and cost >= optimal */

  /* With --repeat, the first pass also pays for first touches of the
  ** workspace's memory; the median pass is the steady state. Every pass
  ** computes the same results (searches are deterministic). At least one
  ** pass runs (--repeat is 1 .. MAX_REPEAT): it fills status, cost and
  ** expanded. */
  /* Warm-up: untimed, results discarded. On the virtual machines we measure
  ** on, the first ~100 searches after a JPS+ table is loaded cost hundreds of
  ** microseconds each (memory touched for the first time since the process
  ** waited on the file); without this, that one-off cost read as a slower
  ** table. The timed pass computes the same results (searches are
  ** deterministic). */
  double passes[MAX_REPEAT];
  size_t rep = 0;
  const bool hashing = cfg->hash || cfg->golden;
  out->path_hash = ASTAR_PATH_HASH_INIT;
  if (cfg->threads > 0) {
    if (!run_batched(cfg, f, grid, &prep, q, sel, nsel, passes, &rep, status, cost, expanded, out))
      goto done;
    goto timed;
  }
  for (size_t k = 0; k < nsel && k < cfg->warmup; k++) {
    astar_result r;
    (void)cli_prepared_find(&prep, ws, &cfg->opt, q[sel[k]].start, q[sel[k]].goal, path, cap, &r);
  }
  /* A long map shows its progress on a terminal (the line's own time is
  ** left out of the timing). */
  cli_progress progress;
  cli_progress_start(&progress, f->label, "queries", (uint64_t)nsel * cfg->repeat);
  do {
    double t0 = cli_now_seconds(), untimed = 0.0;
    for (size_t k = 0; k < nsel; k++) {
      if (progress.show && (k & 31) == 0)
        untimed += cli_progress_update(&progress, (uint64_t)rep * nsel + k);
      const astar_scen_query *qq = &q[sel[k]];
      astar_result r;
      status[k] = (unsigned char)cli_prepared_find(&prep, ws, &cfg->opt, qq->start, qq->goal, path,
                                                   cap, &r);
      if (cfg->smooth && status[k] == ASTAR_OK) (void)cli_smooth_result(grid, &cfg->opt, path, &r);
      cost[k] = r.cost;
      expanded[k] = r.stats.expanded;
      if (hashing && rep == 0)
        out->path_hash = hash_query(out->path_hash, (astar_status)status[k], &r, path);
      if (cfg->encode && rep == 0 && status[k] == ASTAR_OK) { /* untimed */
        const double e0 = cli_now_seconds();
        if (!round_trips(path, r.length, enc, back) && out->enc_bad++ < MAX_REPORTED)
          cli_error("bench --encodings: %s:%d: the path (%zu cells) did not come back "
                    "unchanged from astar/path.h",
                    f->scen, (int)qq->line, r.length);
        untimed += cli_now_seconds() - e0;
      }
      if (cfg->extra != EXTRA_NONE && rep == 0) {
        const cli_variant_outcome *vo = cli_variant_last();
        out->dropped += (double)vo->dropped;
        out->iterations += (double)vo->iterations;
      }
    }
    passes[rep] = cli_now_seconds() - t0 - untimed;
  } while (++rep < cfg->repeat);
  cli_progress_end(&progress);
timed:
  out->seconds = median(passes, rep);

  out->queries = nsel;
  for (size_t k = 0; k < nsel; k++) {
    astar_status s = (astar_status)status[k];
    const astar_scen_query *qk = &q[sel[k]];
    double optimal = qk->optimal_length;
    out->expansions += (double)expanded[k];
    if (no_path_expected(qk)) {
      /* Counted apart: neither solved nor in the cost ratios; finding a
      ** path (or stopping short of deciding) is the mismatch. */
      out->no_path_expected++;
      if (s == ASTAR_NO_PATH) {
        out->no_path_found++;
        continue;
      }
      out->mismatches++;
      if (*nreported < MAX_REPORTED)
        reported[(*nreported)++] = (mismatch){f->scen, -1.0, cost[k], qk->line, s};
      continue;
    }
    if (s == ASTAR_OK || s == ASTAR_BUFFER_TOO_SMALL) {
      out->solved++;
      const double ratio = optimal > 0 ? cost[k] / optimal : 1.0;
      out->ratio_sum += ratio;
      if (ratio > out->ratio_max) out->ratio_max = ratio;
    }
    /* HPA*: the one-sided test with the roles swapped (optimal - cost <= tolerance). */
    if (near_optimal ? is_mismatch(s, optimal, cost[k], true)
                     : is_mismatch(s, cost[k], optimal, any_angle)) {
      out->mismatches++;
      if (*nreported < MAX_REPORTED)
        reported[(*nreported)++] = (mismatch){f->scen, optimal, cost[k], qk->line, s};
    }
  }
  ok = true;
done:
  cli_table_free(&local.table);
  cli_prepared_free(&prep);
  free(status), free(expanded), free(cost), free(path), free(sel), free(back), free(enc);
  astar_workspace_free(ws);
  astar_scen_free(scen);
  astar_grid_free(grid);
  return ok;
}

/* ---- output ---------------------------------------------------------------- */

static void add_stats(bench_stats *total, const bench_stats *s) {
  total->queries += s->queries;
  total->solved += s->solved;
  total->mismatches += s->mismatches;
  total->no_path_expected += s->no_path_expected;
  total->no_path_found += s->no_path_found;
  total->seconds += s->seconds;
  total->expansions += s->expansions;
  total->pre_seconds += s->pre_seconds;
  total->pre_bytes += s->pre_bytes;
  total->ratio_sum += s->ratio_sum;
  total->dropped += s->dropped;
  total->iterations += s->iterations;
  total->nodes += s->nodes;
  total->edges += s->edges;
  total->enc_bad += s->enc_bad;
  if (s->ratio_max > total->ratio_max) total->ratio_max = s->ratio_max;
}

static double per_query(double v, size_t queries) {
  return queries ? v / (double)queries : 0;
}

/* Which optional columns the table has. */
typedef struct columns {
  bool pre;   /* preprocessing: its time and its memory */
  bool wp;    /* waypoint graphs: the waypoints and the edges */
  bool ratio; /* the mean ratio of cost to the optimal length: waypoint graphs, and the
                 methods that may miss the optimum */
  int extra;  /* the engine's variants: mean drops or iterations (EXTRA_*) */
  bool rmax;  /* --algo hpa: the largest ratio of cost to the optimal length */
} columns;

static void table_header(int w, const columns *c) {
  /* "µs" is two bytes but one column: pad by hand. */
  printf("%-*s %9s %9s %10s %9s %11s %14s", w, "map", "queries", "solved",
         c->wp ? "violations" : "mismatches", "seconds", "\xc2\xb5s/query", "mean expanded");
  if (c->ratio) printf(" %9s", "cost/opt");
  if (c->rmax) printf(" %9s", "max c/opt");
  if (c->pre) printf(" %10s %12s", "pre ms", "pre bytes");
  if (c->wp) printf(" %10s %10s", "waypoints", "edges");
  if (c->extra == EXTRA_DROPPED) printf(" %14s", "mean dropped");
  if (c->extra == EXTRA_ITERATIONS) printf(" %15s", "mean iterations");
  putchar('\n');
}

static void table_row(int w, const columns *c, const char *label, const bench_stats *s) {
  printf("%-*s %9zu %9zu %10zu %9.3f %10.1f %14.1f", w, label, s->queries, s->solved, s->mismatches,
         s->seconds, per_query(s->seconds * 1e6, s->queries), per_query(s->expansions, s->queries));
  if (c->ratio) printf(" %9.5f", per_query(s->ratio_sum, s->solved));
  if (c->rmax) printf(" %9.5f", s->ratio_max);
  if (c->pre) printf(" %10.2f %12zu", s->pre_seconds * 1e3, s->pre_bytes);
  if (c->wp) printf(" %10zu %10zu", s->nodes, s->edges);
  if (c->extra == EXTRA_DROPPED) printf(" %14.1f", per_query(s->dropped, s->queries));
  if (c->extra == EXTRA_ITERATIONS) printf(" %15.1f", per_query(s->iterations, s->queries));
  putchar('\n');
}

static void table_rule(int w, const columns *c) {
  const int width = w + 67 + (c->ratio ? 10 : 0) + (c->rmax ? 10 : 0) + (c->pre ? 24 : 0) +
                    (c->wp ? 22 : 0) +
                    (c->extra == EXTRA_DROPPED      ? 15
                     : c->extra == EXTRA_ITERATIONS ? 16
                                                    : 0);
  for (int i = 0; i < width; i++) putchar('-');
  putchar('\n');
}

static void json_fields(const bench_stats *s, int extra) {
  printf("\"queries\":%zu,\"solved\":%zu,\"mismatches\":%zu,\"no_path_expected\":%zu,"
         "\"no_path_found\":%zu,\"seconds\":",
         s->queries, s->solved, s->mismatches, s->no_path_expected, s->no_path_found);
  cli_json_number(stdout, s->seconds, 6);
  fputs(",\"us_per_query\":", stdout);
  cli_json_number(stdout, per_query(s->seconds * 1e6, s->queries), 3);
  fputs(",\"mean_expansions\":", stdout);
  cli_json_number(stdout, per_query(s->expansions, s->queries), 3);
  fputs(",\"pre_seconds\":", stdout);
  cli_json_number(stdout, s->pre_seconds, 6);
  printf(",\"pre_bytes\":%zu", s->pre_bytes);
  if (s->nodes || s->ratio_sum > 0) {
    fputs(",\"mean_cost_ratio\":", stdout);
    cli_json_number(stdout, per_query(s->ratio_sum, s->solved), 6);
    printf(",\"waypoints\":%zu,\"edges\":%zu", s->nodes, s->edges);
  }
  if (s->ratio_max > 0) {
    fputs(",\"max_cost_ratio\":", stdout);
    cli_json_number(stdout, s->ratio_max, 6);
  }
  if (extra == EXTRA_DROPPED) {
    fputs(",\"mean_dropped\":", stdout);
    cli_json_number(stdout, per_query(s->dropped, s->queries), 3);
  }
  if (extra == EXTRA_ITERATIONS) {
    fputs(",\"mean_iterations\":", stdout);
    cli_json_number(stdout, per_query(s->iterations, s->queries), 3);
  }
}

typedef struct bench_settings {
  bench_config cfg;
  cli_variant_settings variant;
  astar_hpa_options hpa;
  int space;               /* --space: 0 grid, 1 graph, 2 waypoints */
  const char *map;         /* --map: one map for every scenario */
  const char *golden;      /* --golden */
  long threads;            /* --threads: 0 one per processor; -1 not given */
  cli_graph_args graph;    /* --graph */
  cli_graph_bench_args gb; /* its queries */
  cli_mesh_args mesh;      /* --mesh */
} bench_settings;

enum { SCEN, GRAPH, MESH };
#define SC CLI_KIND(SCEN)

static const char *const spaces[] = {"grid", "graph", "waypoints", NULL};

static const cli_opt bench_rows[] = {
    CLI_ALGO_ROW(bench_settings, cfg.algo, SC),
    {.name = "--space",
     .meta = "grid|graph|waypoints",
     .kind = CLI_CHOICE,
     CLI_AT(bench_settings, space),
     .names = spaces,
     .kinds = SC,
     .help = "grid (default): the grid's own loops; graph: the search\n"
             "engine on the grid as a space (astar/engine.h) -- what\n"
             "greedy, bidir and the variants of Patel 4 always use;\n"
             "waypoints: any-angle paths\n"
             "over the map's waypoint graph (astar/waypoints.h), built\n"
             "per map: a path may be shorter than the optimal length,\n"
             "so the table shows the mean cost/optimal ratio, and a\n"
             "violation -- no path, or longer than optimal -- exits 1"},
    CLI_ANY_ANGLE_ROW(bench_settings, cfg.algo, SC),
    {.name = "--smooth",
     .kind = CLI_FLAG,
     CLI_AT(bench_settings, cfg.smooth),
     .kinds = SC,
     .help = "string-pull every path (astar_path_smooth; timed with\n"
             "the search): cost = straight-line length, compared\n"
             "with the optimal length as an upper bound (the\n"
             "cost/opt column), as for the any-angle searches\n"
             "(theta, lazy-theta)"},
    {.name = "--check",
     .kind = CLI_FLAG,
     CLI_AT(bench_settings, cfg.check),
     .help = "exit 1 if any query mismatches; list the first few\n"
             "(graphs: against the .p2p file's cost, else Dijkstra's)"},
    {.name = "--json",
     .kind = CLI_FLAG,
     CLI_AT(bench_settings, cfg.json),
     .help = "print one JSON object instead of the table"},
    {.name = "--limit",
     .meta = "N",
     .kind = CLI_INT,
     CLI_AT(bench_settings, cfg.limit),
     .min = 1,
     .max = LONG_MAX,
     .kinds = SC | CLI_KIND(MESH),
     .help = "run only the first N queries of each file"},
    {.name = "--every",
     .meta = "K",
     .kind = CLI_INT,
     CLI_AT(bench_settings, cfg.every),
     .min = 1,
     .max = LONG_MAX,
     .kinds = SC | CLI_KIND(MESH),
     .help = "run only every K-th query (0, K, 2K, ...; before --limit)"},
    {.name = "--repeat",
     .meta = "N",
     .kind = CLI_INT,
     CLI_AT(bench_settings, cfg.repeat),
     .min = 1,
     .max = MAX_REPEAT,
     .help = "time N passes over the queries of each map and report\n"
             "the median pass (default 1; %r)"},
    {.name = "--warmup",
     .meta = "N",
     .kind = CLI_INT,
     CLI_AT(bench_settings, cfg.warmup),
     .max = LONG_MAX,
     .kinds = SC | CLI_KIND(MESH),
     .help = "before timing, run the first N queries of each map\n"
             "untimed (default 1000, at most all; 0: none). A\n"
             "process's first searches pay for first touches of\n"
             "memory (on virtual machines, of the host's too)"},
    {.name = "--map",
     .meta = "FILE",
     .kind = CLI_TEXT,
     CLI_AT(bench_settings, map),
     .kinds = SC,
     .help = "use FILE as the map of every scenario given (for\n"
             "scenario subsets kept apart from their map); a FILE\n"
             "that cannot be read as a map is an error"},
    {.name = "--pre",
     .meta = "FILE",
     .kind = CLI_TEXT,
     CLI_AT(bench_settings, cfg.pre_file),
     .kinds = SC,
     .help = "load the preprocessing from FILE (made by `astar\n"
             "precompute`) instead of building it; one map only"},
    {.name = "--hash",
     .kind = CLI_FLAG,
     CLI_AT(bench_settings, cfg.hash),
     .kinds = SC,
     .help = "print, instead of the table, one line per map: ALGO\n"
             "EVERY SCEN HASH, HASH the FNV-1a hash of every query's\n"
             "status and path (astar_path_hash) -- a golden file line"},
    {.name = "--golden",
     .meta = "FILE",
     .kind = CLI_TEXT,
     CLI_AT(bench_settings, golden),
     .kinds = SC,
     .help = "exit 1 unless every map's hash equals its line in FILE\n"
             "(as --hash prints them; tests/golden/movingai.txt): the\n"
             "same paths as on the machine that wrote FILE"},
    {.name = "--threads",
     .meta = "N",
     .kind = CLI_INT,
     CLI_AT(bench_settings, threads),
     .max = ASTAR_BATCH_MAX_THREADS,
     .kinds = SC,
     .help = "solve each map's queries as one batch on N worker\n"
             "threads (1 .. 256; 0: one per processor; astar/batch.h):\n"
             "seconds and us/query are then wall time of the batch\n"
             "(us/query = 1e6 / queries per second); astar, jps and\n"
             "jps-plus only. Default: one query after another"},
    {.name = "--encodings",
     .kind = CLI_FLAG,
     CLI_AT(bench_settings, cfg.encode),
     .kinds = SC,
     .help = "round-trip every path found through every encoding of\n"
             "astar/path.h and through its turn points (untimed); a\n"
             "path that does not come back unchanged fails --check"},
    {.name = "--queries",
     .meta = "FILE",
     .kind = CLI_TEXT,
     CLI_AT(bench_settings, gb.queries),
     .kinds = CLI_KIND(GRAPH),
     .help = "the queries, a DIMACS .p2p file"},
    {.name = "--random",
     .meta = "N",
     .kind = CLI_INT,
     CLI_AT(bench_settings, gb.random),
     .min = 1,
     .max = 100000000,
     .kinds = CLI_KIND(GRAPH),
     .help = "N random queries instead"},
    {.name = "--seed",
     .meta = "S",
     .kind = CLI_INT,
     CLI_AT(bench_settings, gb.seed),
     .max = UINT64_MAX,
     .kinds = CLI_KIND(GRAPH),
     .help = "their seed (default 1)"},
    {.name = "--quiet",
     .alias = "-q",
     .kind = CLI_FLAG,
     CLI_AT(bench_settings, cfg.quiet),
     .help = "print only the total line"},
    CLI_HELP_ROW,
};
static const cli_group bench_group = CLI_ROWS(bench_rows);

static const cli_section bench_sections[] = {
    {"Options:", &bench_group, 0, 0, NULL, false},
    {"Search options:", &cli_rules_group, offsetof(bench_settings, cfg.opt), SC, NULL, false},
    {NULL, &cli_search_group, offsetof(bench_settings, cfg.opt), SC,
     "  (the optimal lengths assume the defaults: 8 moves, no-cut, costs 1,sqrt2)\n", false},
    {"Waypoint table (Patel 2.4.1; astar/waypoint_table.h; --algo astar only):", &cli_table_group,
     offsetof(bench_settings, cfg.table), SC,
     "  (bench builds the table of every map, its time and bytes in the pre ms and\n"
     "  pre bytes columns; with seed, the cost/opt column shows the mean of cost /\n"
     "  optimal, and its longer paths count as mismatches)\n",
     false},
    {"Settings of the engine's variants and of landmark A* (with their --algo only):",
     &cli_variant_group, offsetof(bench_settings, variant), SC, NULL, false},
    {NULL, &cli_landmark_group, offsetof(bench_settings, variant.landmarks), SC,
     "  (bench adds a column for them: mean dropped for beam and bandwidth, mean\n"
     "  iterations for ida -- legs for retarget; JSON: mean_dropped, mean_iterations;\n"
     "  and for a method that may miss the optimum -- greedy, beam, dynamic,\n"
     "  bandwidth, retarget, --weight above 1 -- the cost/opt column: the mean of\n"
     "  cost / optimal over the solved queries; JSON: mean_cost_ratio)\n",
     false},
    {"HPA* settings (--algo hpa only, --levels also subgoal; a --pre file keeps those\n"
     "it was built with, and is refused for other --moves, --corner or --costs than it\n"
     "was built for: give them to precompute too):",
     &cli_hpa_group, offsetof(bench_settings, hpa), SC,
     "  (bench checks that HPA* finds every path, never below the optimal length,\n"
     "  and adds the largest cost / optimal; JSON: max_cost_ratio)\n",
     false},
    CLI_GRAPH_SECTIONS(bench_settings, graph, CLI_KIND(GRAPH)),
    {"Mesh options:", &cli_mesh_bench_group, offsetof(bench_settings, mesh), CLI_KIND(MESH), NULL,
     false},
};

static void intro(FILE *out) {
  fputs("usage: astar bench PATH... [OPTIONS]\n"
        "       astar bench --graph X.gr [--coords X.co] (--queries X.p2p | --random N)\n"
        "                   (a DIMACS graph; see 'astar bench --graph X.gr --help')\n"
        "       astar bench --mesh X.mesh SCEN...   (a navigation mesh; see\n"
        "                   'astar bench --mesh X.mesh --help')\n"
        "\n"
        "Run every query of Moving AI scenario files and compare each path cost with\n"
        "the optimal length in the file (a mismatch: no path, or relative error > 1e-5).\n"
        "PATH is a .scen file or a directory (every *.scen under it, sorted by path).\n"
        "The map is the file beside the scenario: X.map.scen -> X.map (when it is\n"
        "missing, the map the scenario names; when it is there but no map, an error).\n"
        "Prints per map and in total: queries, solved, mismatches, seconds of search\n"
        "(file loading excluded; with --repeat, of the median pass), microseconds per\n"
        "query and mean expansions; for an algorithm with preprocessing (jps-plus)\n"
        "also the milliseconds it took to build (or load) and the bytes it holds\n"
        "(JSON: pre_seconds, pre_bytes). It is done per map before the timed queries.\n"
        "An optimal length of 0 between two different cells is how the GPPC's scenario\n"
        "files write a pair with no path: such a query expects no path (finding one is\n"
        "the mismatch) and is counted apart, neither solved nor mismatched when it\n"
        "finds none: the line 'no path expected' (JSON: no_path_expected,\n"
        "no_path_found). Mismatches are listed as SCEN:LINE, the query's line.\n",
        out);
}

static void outro(FILE *out) {
  fputs("Exit status: 0 done; 1 an unreadable or malformed file, a map the algorithm\n"
        "cannot search, or (--check) a mismatch; 2 usage error. See 'astar --help'.\n",
        out);
}

/* --graph or --mesh decides. */
static int bench_kind(const cli_args *a) {
  return cli_seen(a, "--graph") ? GRAPH : cli_seen(a, "--mesh") ? MESH : SCEN;
}

static const cli_kind bench_kinds[] = {
    {"scen", "scenario files", "astar bench --help"},
    {"graph", "graphs (--graph)", "astar bench --graph X.gr --help"},
    {"mesh", "navigation meshes (--mesh)", "astar bench --mesh X.mesh --help"},
};
static const cli_page bench_pages[] = {
    {SC, NULL, intro, outro},
    {CLI_KIND(GRAPH), "astar bench --graph", cli_graph_bench_intro, cli_graph_bench_outro},
    {CLI_KIND(MESH), "astar bench --mesh", cli_mesh_bench_intro, cli_mesh_bench_outro},
};

const cli_spec cli_bench_spec = {.command = "bench",
                                 CLI_SECTIONS(bench_sections),
                                 CLI_KINDS(bench_kinds),
                                 CLI_PAGES(bench_pages),
                                 .kind_of = bench_kind,
                                 .algo_option = "--algo",
                                 .algo_kinds = SC};

int cli_cmd_bench(int argc, char **argv) {
  bench_settings set;
  memset(&set, 0, sizeof set);
  bench_config *const c = &set.cfg;
  astar_options_init(&c->opt);
  c->algo = cli_find_algo("astar");
  c->every = 1;
  c->repeat = 1;
  c->warmup = DEFAULT_WARMUP;
  cli_table_defaults(&c->table);
  cli_variant_defaults(&set.variant);
  cli_hpa_defaults(&set.hpa);
  set.threads = -1;
  cli_graph_args_init(&set.graph);
  cli_mesh_args_init(&set.mesh);
  set.gb.seed = 1;
  cli_args a;
  int rc = cli_parse(&a, &cli_bench_spec, argc, argv, &set);
  if (rc >= 0) return rc;
  if (a.kind == GRAPH) {
    set.gb.repeat = (long)c->repeat;
    set.gb.check = c->check;
    set.gb.json = c->json;
    set.gb.quiet = c->quiet;
    return cli_graph_bench(&set.graph, &set.gb, &a);
  }
  if (a.kind == MESH) {
    const cli_mesh_bench_args mb = {.repeat = (long)c->repeat,
                                    .limit = (long)c->limit,
                                    .every = (long)c->every,
                                    .warmup = (long)c->warmup,
                                    .check = c->check,
                                    .json = c->json,
                                    .quiet = c->quiet};
    return cli_mesh_bench(&set.mesh, &mb, &a);
  }
  bench_config cfg = *c;
  cfg.threads = set.threads < 0    ? 0
                : set.threads == 0 ? (long)astar_batch_default_threads()
                                   : set.threads;
  const char *map_override = set.map;   /* --map: one map for every scenario */
  const char *golden_file = set.golden; /* --golden */
  golden_table golden = {NULL, NULL, 0};
  const bool graph = set.space == 1;     /* --space graph */
  const bool waypoints = set.space == 2; /* --space waypoints */
  cli_variant_settings variant = set.variant;
  char **paths = malloc((size_t)argc * sizeof *paths);
  if (!paths) return out_of_memory();
  const int npaths = (int)cli_positionals(&a, (const char **)paths, (size_t)argc);
  if (rc < 0 && graph && !(cfg.algo = cli_algo_on_graph(cfg.algo))) rc = CLI_EXIT_USAGE;
  if (rc < 0 && waypoints && !(cfg.algo = cli_algo_on_waypoints(cfg.algo))) rc = CLI_EXIT_USAGE;
  if (rc < 0 && waypoints && cfg.pre_file)
    rc = cli_usage_error("bench: --pre: a waypoint graph is built from the map, not loaded");
  if (rc < 0) {
    cfg.algo = cli_variant_algo(&a, cfg.algo);
    rc = cli_check_algo(&a, cfg.algo->name);
    const char *misuse = NULL;
    if (rc < 0 && (misuse = cli_table_misuse(&cfg.table, cfg.algo)) != NULL)
      rc = cli_usage_error("bench: %s", misuse);
    cli_variant_use(&variant);
    cli_hpa_use(&set.hpa);
    if (rc < 0) rc = cli_levels_use(&a, cfg.algo, "bench", &set.hpa);
    cfg.extra = extra_of(cfg.algo);
    cfg.ratio = may_be_suboptimal(cfg.algo, &cfg.opt) || cfg.smooth ||
                cli_algo_is_any_angle(cfg.algo) || cfg.table.form == ASTAR_TABLE_SEED;
  }
  if (rc < 0 && cfg.smooth && (cli_algo_is_any_angle(cfg.algo) || cfg.algo->engine))
    rc = cli_usage_error("bench: --smooth straightens the grid searches' paths (astar, jps, "
                         "jps-plus, dijkstra), not --algo %s's",
                         cfg.algo->name);
  if (rc < 0 && cfg.smooth && cfg.threads > 0)
    rc = cli_usage_error("bench: --smooth runs one query after another (not with --threads)");
  if (rc < 0 && npaths == 0)
    rc = cli_usage_error("bench: missing PATH (a .scen file or a directory; see 'astar bench "
                         "--help')");
  if (rc < 0 && astar_options_validate(&cfg.opt) != ASTAR_OK)
    rc = cli_usage_error("bench: the search options are not valid together");
  if (rc < 0 && (cfg.hash || golden_file) && (cfg.threads > 0 || cfg.limit))
    rc = cli_usage_error("bench: --hash and --golden hash every query in order, one after "
                         "another (not with --threads or --limit)");
  if (rc < 0 && (cfg.hash || golden_file) && (graph || waypoints || cfg.algo->engine))
    rc = cli_usage_error("bench: --hash and --golden are for the grid's own searches (astar, "
                         "jps, jps-plus, ...), not the engine's");
  if (rc < 0 && golden_file) {
    if (golden_load(golden_file, &golden))
      cfg.golden = &golden;
    else
      rc = CLI_EXIT_FAIL;
  }
  if (rc < 0 && cfg.table.form >= 0 && (cfg.threads > 0 || graph || waypoints))
    rc = cli_usage_error("bench: --heuristic-table runs the grid's A* one query after another "
                         "(not with --threads or --space)");
  if (rc < 0 && cfg.threads > 0 && !cli_algo_has_finder(cfg.algo))
    rc = cli_usage_error(
        "bench: --threads runs a finder's batch: not --space graph (got --algo %s%s)",
        cfg.algo->name, graph || waypoints ? " on another space" : "");
  if (rc < 0 && cfg.encode && (cli_algo_is_any_angle(cfg.algo) || cfg.smooth || cfg.threads > 0))
    rc = cli_usage_error("bench: --encodings round-trips the grid paths of queries run one by "
                         "one (not any-angle paths, not with --smooth or --threads)");
  if (rc < 0 && cfg.pre_file && !cfg.algo->pre)
    rc = cli_usage_error("bench: --pre needs an algorithm with preprocessing (--algo jps-plus)");
  if (rc < 0 && (cfg.opt.unknown != ASTAR_UNKNOWN_PASSABLE || cfg.opt.unknown_cost != 2.0))
    rc = cli_usage_error("bench: --unknown and --unknown-cost apply to fog of war, which bench "
                         "does not simulate (see 'astar solve --fog')");
  if (rc < 0) {
    /* Options the algorithm cannot honour on any map: a usage error now,
    ** not one failure per map later. */
    const char *why = cli_algo_unsupported_options(cfg.algo, &cfg.opt);
    if (why) rc = cli_usage_error("bench: --algo %s: %s", cfg.algo->name, why);
  }
  file_list files = {NULL, 0, 0};
  if (rc < 0) rc = collect(paths, npaths, &files);
  free(paths);
  for (size_t i = 0; rc < 0 && map_override && i < files.n; i++) {
    char *m = dup_string(map_override);
    if (!m) {
      rc = CLI_EXIT_FAIL;
      break;
    }
    free(files.v[i].map);
    files.v[i].map = m;
    files.v[i].named = true;
  }
  /* A precomputation file belongs to one map. */
  for (size_t i = 1; rc < 0 && cfg.pre_file && i < files.n; i++)
    if (strcmp(files.v[i].map, files.v[0].map) != 0)
      rc = cli_usage_error("bench: --pre works with a single map (%s and %s given)", files.v[0].map,
                           files.v[i].map);
  if (rc >= 0) {
    free_files(&files);
    free(golden.v);
    return rc;
  }
  if (cfg.hash) cfg.quiet = true; /* --hash prints the golden lines alone */

  int w = 20;
  for (size_t i = 0; i < files.n; i++)
    if ((int)strlen(files.v[i].label) > w) w = (int)strlen(files.v[i].label);
  if (!cfg.json && !cfg.quiet) {
    printf("algorithm %s%s on %zu scenario file%s; ", cfg.algo->name,
           waypoints                         ? " (search engine, the waypoint graph: any-angle)"
           : cfg.algo->engine                ? " (search engine, the grid as a space)"
           : cli_algo_is_any_angle(cfg.algo) ? " (any-angle)"
           : cfg.smooth                      ? ", smoothed (any-angle)"
                                             : "",
           files.n, files.n == 1 ? "" : "s");
    cli_describe_options(stdout, &cfg.opt);
    if (cfg.table.form >= 0)
      printf(", heuristic the waypoint table (%s form; pre ms / pre bytes: the table)",
             cfg.table.form == ASTAR_TABLE_SEED ? "seed" : "bound");
    if (cfg.threads > 0) printf("; batches on %ld threads", cfg.threads);
    cli_variant_describe(stdout, &variant, cfg.algo);
    putchar('\n');
  }
  const bool pre = cfg.algo->pre != NULL;
  const columns cols = {pre || cfg.table.form >= 0, waypoints, waypoints || cfg.ratio, cfg.extra,
                        cli_algo_is_hpa(cfg.algo)};
  if (!cfg.json && !cfg.hash) table_header(w, &cols);
  if (!cfg.json && !cfg.quiet) table_rule(w, &cols);

  bench_stats total;
  memset(&total, 0, sizeof total);
  bench_stats *per = calloc(files.n ? files.n : 1, sizeof *per);
  mismatch reported[MAX_REPORTED];
  size_t nreported = 0;
  rc = CLI_EXIT_OK;
  size_t failed_files = 0, golden_failures = 0;
  if (!per) rc = out_of_memory();
  for (size_t i = 0; rc == CLI_EXIT_OK && i < files.n; i++) {
    /* A file that cannot run was reported; the others still run. */
    if (!run_file(&cfg, &files.v[i], &per[i], reported, &nreported)) {
      failed_files++;
      continue;
    }
    add_stats(&total, &per[i]);
    if (!cfg.json && !cfg.quiet) {
      table_row(w, &cols, files.v[i].label, &per[i]);
      fflush(stdout); /* long runs: show each map as it finishes */
    }
    if (cfg.hash)
      printf("%s %zu %s %016llx\n", cfg.algo->name, cfg.every, base_name(files.v[i].scen),
             (unsigned long long)per[i].path_hash);
    if (cfg.golden) {
      const golden_entry *e = golden_find(cfg.golden, cfg.algo->name, cfg.every, files.v[i].scen);
      if (!e) {
        cli_error("bench --golden: %s has no line '%s %zu %s HASH'", cfg.golden->file,
                  cfg.algo->name, cfg.every, base_name(files.v[i].scen));
        golden_failures++;
      } else if (e->hash != per[i].path_hash) {
        cli_error("bench --golden: %s: the paths of --algo %s --every %zu differ from %s (hash "
                  "%016llx, expected %016llx)",
                  files.v[i].label, cfg.algo->name, cfg.every, cfg.golden->file,
                  (unsigned long long)per[i].path_hash, (unsigned long long)e->hash);
        golden_failures++;
      }
    }
  }
  if (rc == CLI_EXIT_OK) {
    if (cfg.json) {
      printf("{\"algo\":");
      cli_json_string(stdout, cfg.algo->name);
      printf(",\"repeat\":%zu,\"warmup\":%zu,\"threads\":%ld,", cfg.repeat, cfg.warmup,
             cfg.threads);
      json_fields(&total, cfg.extra);
      fputs(",\"maps\":[", stdout);
      for (size_t i = 0; i < files.n; i++) {
        fputs(i ? ",\n  {\"map\":" : "\n  {\"map\":", stdout);
        cli_json_string(stdout, files.v[i].map);
        fputs(",\"scen\":", stdout);
        cli_json_string(stdout, files.v[i].scen);
        putchar(',');
        json_fields(&per[i], cfg.extra);
        putchar('}');
      }
      fputs("\n]}\n", stdout);
    } else if (!cfg.hash) {
      char label[64];
      const size_t ran = files.n - failed_files;
      snprintf(label, sizeof label, "total (%zu map%s)", ran, ran == 1 ? "" : "s");
      if (!cfg.quiet) table_rule(w, &cols);
      table_row(w, &cols, label, &total);
      if (total.no_path_expected)
        printf("no path expected: %zu of the %zu queries (optimal length 0 for two different "
               "cells, the GPPC form), %zu answered no path\n",
               total.no_path_expected, total.queries, total.no_path_found);
    }
    /* Any-angle paths: a missing or too long path is a bug, --check or not. */
    if ((cfg.check || waypoints) && total.mismatches > 0) {
      for (size_t i = 0; i < nreported; i++) {
        const mismatch *m = &reported[i];
        char exp[64], got[64];
        if (m->expected < 0)
          snprintf(exp, sizeof exp, "no path (optimal length 0)");
        else
          cli_format_cost(exp, sizeof exp, m->expected);
        if (m->status == ASTAR_OK || m->status == ASTAR_BUFFER_TOO_SMALL)
          cli_format_cost(got, sizeof got, m->got);
        else
          snprintf(got, sizeof got, "%s", astar_strerror(m->status));
        fprintf(stderr, "mismatch: %s:%d: expected %s, got %s\n", m->scen, (int)m->line, exp, got);
      }
      if (total.mismatches > nreported)
        fprintf(stderr, "... and %zu more\n", total.mismatches - nreported);
      cli_error(waypoints ? "bench: %zu of %zu waypoint paths missing or longer than optimal"
                          : "bench --check: %zu of %zu queries mismatched",
                total.mismatches, total.queries);
      rc = CLI_EXIT_FAIL;
    }
    if (total.queries > total.no_path_expected && total.solved == 0) {
      /* Nothing worked: whatever the reason, not a success. */
      const astar_status why = nreported ? reported[0].status : ASTAR_NO_PATH;
      cli_error("bench: none of the %zu queries was solved (first: %s)", total.queries,
                astar_strerror(why));
      rc = CLI_EXIT_FAIL;
    }
    if (failed_files) {
      cli_error("bench: %zu of %zu scenario files could not run (see above)", failed_files,
                files.n);
      rc = CLI_EXIT_FAIL;
    }
    if (total.enc_bad) {
      cli_error("bench --encodings: %zu path%s did not come back unchanged from astar/path.h",
                total.enc_bad, total.enc_bad == 1 ? "" : "s");
      if (cfg.check) rc = CLI_EXIT_FAIL;
    }
    if (golden_failures) {
      cli_error("bench --golden: %zu of %zu maps differ from %s", golden_failures,
                files.n - failed_files, golden_file);
      rc = CLI_EXIT_FAIL;
    }
  }
  free(per);
  free_files(&files);
  free(golden.v);
  return rc;
}
