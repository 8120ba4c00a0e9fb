/*
** cpd.c -- the tool's compressed path database (astar/cpd.h): --algo cpd
** as an algorithm with preprocessing (build / load / save / memory /
** release / find hooks for bench and precompute, a self-contained search
** for run and solve), its build settings --threads and --memory-limit
** (precompute), and the build's progress line on a terminal.
**
** Threads: the sources are cut into blocks of CPD_BLOCK rows that worker
** threads take in turn (astar_cpd_block_build); the blocks are joined in
** source order (astar_cpd_assemble), so the table -- and the file -- is the
** same whatever the thread count. The library itself has no threads.
*/
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "progress.h"
#include "cpd_mpi.h"

#define CPD_BLOCK 128u /* sources a block: small enough to balance, big enough to amortise */

/* The settings given on the command line (the tool runs one command). */
static unsigned cpd_threads = 1;
static uint64_t cpd_memory_limit;

void cli_cpd_set_build(unsigned threads, uint64_t memory_limit) {
  cpd_threads = threads ? threads : 1;
  cpd_memory_limit = memory_limit;
}

/* The build's progress (tools/progress.h: a line on terminals only),
** shared by the build threads. */
typedef struct cpd_progress {
  pthread_mutex_t lock;
  cli_progress line; /* the line; line.total = sources */
  uint64_t done;     /* sources finished (under lock) */
} cpd_progress;

/* One thread's build (astar_cpd_build's progress callback). */
static bool single_progress(void *ud, uint32_t done, uint32_t total) {
  cpd_progress *p = ud;
  (void)total;
  p->done = done;
  (void)cli_progress_update(&p->line, done);
  return true;
}

typedef struct cpd_job {
  const astar_grid *grid;
  astar_cpd_config cfg;
  cpd_progress *progress;
  astar_cpd_block **blocks; /* [nblocks] */
  uint32_t nblocks, n;
  uint32_t next;       /* next block to take (under progress->lock) */
  astar_status status; /* first failure (under progress->lock) */
} cpd_job;

static void *worker(void *arg) {
  cpd_job *j = arg;
  for (;;) {
    pthread_mutex_lock(&j->progress->lock);
    const uint32_t b = j->status == ASTAR_OK ? j->next++ : j->nblocks;
    pthread_mutex_unlock(&j->progress->lock);
    if (b >= j->nblocks) break;
    const uint32_t first = b * CPD_BLOCK;
    const uint32_t count = j->n - first < CPD_BLOCK ? j->n - first : CPD_BLOCK;
    const astar_status st =
        astar_cpd_block_build(&j->blocks[b], j->grid, &j->cfg, first, count, NULL);
    pthread_mutex_lock(&j->progress->lock);
    if (st != ASTAR_OK && j->status == ASTAR_OK) j->status = st;
    j->progress->done += count;
    (void)cli_progress_update(&j->progress->line, j->progress->done);
    pthread_mutex_unlock(&j->progress->lock);
  }
  return NULL;
}

static astar_status build_threads(astar_cpd **out, const astar_grid *grid,
                                  const astar_cpd_config *cfg, cpd_progress *prog) {
  cpd_job j;
  memset(&j, 0, sizeof j);
  j.grid = grid;
  j.cfg = *cfg;
  j.progress = prog;
  astar_status st = astar_cpd_sources(grid, &j.n);
  if (st != ASTAR_OK) return st;
  prog->line.total = j.n;
  j.nblocks = (j.n + CPD_BLOCK - 1) / CPD_BLOCK;
  j.blocks = calloc(j.nblocks ? j.nblocks : 1, sizeof(astar_cpd_block *));
  const void **data = calloc(j.nblocks ? j.nblocks : 1, sizeof(const void *));
  size_t *lens = calloc(j.nblocks ? j.nblocks : 1, sizeof *lens);
  if (!j.blocks || !data || !lens) {
    free(j.blocks);
    free(data);
    free(lens);
    return ASTAR_NO_MEMORY;
  }
  /* The memory limit is shared: each thread's block build gets its part. */
  if (j.cfg.memory_limit) j.cfg.memory_limit /= cpd_threads;
  pthread_t tid[256];
  unsigned started = 0;
  while (started + 1 < cpd_threads && started < 256 &&
         pthread_create(&tid[started], NULL, worker, &j) == 0)
    started++;
  worker(&j);
  for (unsigned t = 0; t < started; t++) pthread_join(tid[t], NULL);
  cli_progress_end(&prog->line);
  st = j.status;
  for (uint32_t b = 0; b < j.nblocks; b++) data[b] = astar_cpd_block_data(j.blocks[b], &lens[b]);
  if (st == ASTAR_OK) st = astar_cpd_assemble(out, grid, data, lens, j.nblocks, NULL);
  for (uint32_t b = 0; b < j.nblocks; b++) astar_cpd_block_free(j.blocks[b]);
  free(j.blocks);
  free(data);
  free(lens);
  return st;
}

static astar_status cpd_build(void **ctx, const astar_grid *grid, const astar_options *opt) {
  astar_cpd *cpd = NULL;
  astar_cpd_config cfg;
  astar_cpd_config_init(&cfg);
  cfg.rules = opt;
  cfg.memory_limit = cpd_memory_limit;
  cpd_progress prog;
  memset(&prog, 0, sizeof prog);
  pthread_mutex_init(&prog.lock, NULL);
  cli_progress_start(&prog.line, "cpd", "sources", 0);
  astar_status st;
  if (cli_mpi_ranks() > 1) {
    /* Under mpirun (cpd_mpi.c): the ranks' blocks, assembled on rank 0. */
    st = cli_mpi_cpd_build(&cpd, grid, &cfg, cpd_threads);
  } else if (cpd_threads > 1) {
    st = build_threads(&cpd, grid, &cfg, &prog);
  } else {
    uint32_t sources = 0;
    astar_cpd_sources(grid, &sources);
    prog.line.total = sources;
    cfg.progress = single_progress;
    cfg.progress_ud = &prog;
    st = astar_cpd_build(&cpd, grid, &cfg, NULL);
    cli_progress_end(&prog.line);
  }
  pthread_mutex_destroy(&prog.lock);
  if (st == ASTAR_TOO_LARGE && cpd_memory_limit)
    cli_error("cpd: the build needs more than --memory-limit %llu bytes",
              (unsigned long long)cpd_memory_limit);
  *ctx = cpd;
  return st;
}

static astar_status cpd_load(void **ctx, const astar_grid *grid, const astar_options *opt,
                             const void *buf, size_t len, char *why, size_t size) {
  (void)opt; /* cpd_find checks the options */
  if (size) why[0] = '\0';
  astar_cpd *cpd = NULL;
  astar_status st = astar_cpd_load(&cpd, grid, buf, len, NULL);
  *ctx = cpd;
  return st;
}

static astar_status cpd_save(const void *ctx, void *buf, size_t cap, size_t *len) {
  return astar_cpd_save(ctx, buf, cap, len);
}

static size_t cpd_memory(const void *ctx) {
  return astar_cpd_bytes(ctx);
}

static void cpd_release(void *ctx) {
  astar_cpd_free(ctx);
}

/* A query as astar_find_path reports it: cost, length, end; no expansions. */
static astar_status cpd_find(const void *ctx, astar_workspace *ws, const astar_grid *grid,
                             const astar_options *opt, astar_point start, astar_point goal,
                             astar_point *path, size_t cap, astar_result *result) {
  (void)ws;
  astar_result r;
  memset(&r, 0, sizeof r);
  r.end = (astar_point){-1, -1};
  astar_status st = astar_cpd_unsupported_reason(grid, opt)
                        ? ASTAR_UNSUPPORTED
                        : astar_cpd_path(ctx, grid, start, goal, path, cap, &r.length, &r.cost);
  if (st == ASTAR_OK || st == ASTAR_BUFFER_TOO_SMALL) r.end = goal;
  r.cause = st;
  if (result) *result = r;
  return st;
}

static uint64_t le_bytes(const char *p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--) v = v << 8 | (unsigned char)p[i];
  return v;
}

/* A CPD file (astar_cpd_save): a 56-byte header, then 4 bytes a source and
** 4 a run; its header says how many (bytes 36 and 40), at most one source a
** passable cell and, for each, a run a passable cell. A header beyond that
** stops the read (load says what is wrong). */
static void cpd_limit(const astar_grid *grid, const char *head, size_t len, cli_limit *out) {
  const int32_t w = astar_grid_width(grid), h = astar_grid_height(grid);
  const uint64_t p = astar_grid_count_passable(grid);
  out->stop = false;
  out->bytes = 56 + 4 * (p + p * p);
  snprintf(out->what, sizeof out->what,
           "the most a CPD file of this %d x %d map holds (%llu passable cells)", (int)w, (int)h,
           (unsigned long long)p);
  if (cli_pre_magic_differs(head, len, "ASTARCPD", out) || len < 48) return;
  const uint64_t count = le_bytes(head + 36, 4), runs = le_bytes(head + 40, 8);
  if (count > p || runs > count * p) {
    out->stop = true;
    return;
  }
  out->bytes = 56 + 4 * (count + runs);
  snprintf(out->what, sizeof out->what,
           "the size of a CPD file of the %llu sources and %llu runs its header gives",
           (unsigned long long)count, (unsigned long long)runs);
}

static void cpd_attach(const void *ctx, astar_finder_config *cfg) {
  cfg->cpd = ctx;
}

const cli_pre_ops cli_cpd_ops = {cpd_build,   cpd_load, cpd_save,  cpd_memory, NULL,
                                 cpd_release, cpd_find, cpd_limit, cpd_attach};

astar_status cli_cpd_find(astar_workspace *ws, const astar_grid *grid, const astar_options *opt,
                          astar_point start, astar_point goal, astar_point *path, size_t cap,
                          astar_result *result) {
  return cli_pre_find_once(&cli_cpd_ops, ws, grid, opt, start, goal, path, cap, result);
}

void cli_cpd_report(FILE *out, const void *ctx) {
  const uint32_t n = astar_cpd_nodes(ctx);
  const uint64_t runs = astar_cpd_runs(ctx);
  fprintf(out,
          "cpd:      %u passable cells, %llu runs (%.2f runs per row, %.2f run bytes per "
          "passable cell)\n",
          n, (unsigned long long)runs, n ? (double)runs / n : 0.0,
          n ? 4.0 * (double)runs / n : 0.0);
}
