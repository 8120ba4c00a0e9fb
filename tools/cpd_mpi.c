/*
** cpd_mpi.c -- the CPD precompute over MPI (cpd_mpi.h): block k of CPD_MPI_BLOCK
** sources is built on rank k mod P (interleaved, so that the expensive
** sources -- those of big connected regions, close together in node order --
** spread over every rank), each rank's blocks on its --threads threads; every
** rank reports its status (an all-gather, so that a failure anywhere stops
** every rank with a message naming it), then the other ranks send their
** blocks to rank 0 (the block lengths first, then the bytes in chunks below
** 2 GiB, MPI counts being ints), which assembles them (astar_cpd_assemble:
** blocks in any order, the same bytes as one process).
**
** Without ASTAR_HAVE_MPI only the launcher check is real: the rest are the
** single-process answers.
*/
#define _POSIX_C_SOURCE 200809L /* clock_gettime, CLOCK_PROCESS_CPUTIME_ID */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "progress.h"
#include "cpd_mpi.h"

#ifdef ASTAR_HAVE_MPI
#include <mpi.h>
#include <pthread.h>
#include <time.h>
#endif

bool cli_mpi_built(void) {
#ifdef ASTAR_HAVE_MPI
  return true;
#else
  return false;
#endif
}

/* A positive decimal environment variable, else 0. */
static int env_count(const char *name) {
  const char *v = getenv(name);
  if (!v || !*v) return 0;
  char *end;
  long n = strtol(v, &end, 10);
  return *end == '\0' && n > 0 && n <= 1 << 24 ? (int)n : 0;
}

int cli_mpi_launcher_size(void) {
  int n = env_count("OMPI_COMM_WORLD_SIZE");
  return n ? n : env_count("PMI_SIZE");
}

#ifndef ASTAR_HAVE_MPI

int cli_mpi_begin(bool cpd) {
  const int size = cli_mpi_launcher_size();
  if (!cpd || size <= 1) return -1;
  /* The launcher's rank, when it says: only rank 0 explains (the others
  ** would print the same lines P - 1 more times). */
  const char *r = getenv("OMPI_COMM_WORLD_RANK");
  if (!r) r = getenv("PMI_RANK");
  if (!r || strcmp(r, "0") == 0)
    cli_error("precompute: this astar has no MPI, yet runs as one of %d processes of an MPI\n"
              "  launcher (mpirun): each would build the whole table alone. For the distributed\n"
              "  build, `make mpi` builds build-mpi/astar (it installs libopenmpi-dev and\n"
              "  openmpi-bin), or configure with cmake -DASTAR_USE_MPI=ON; or run it without\n"
              "  mpirun (--threads N for the cores of one machine).",
              size);
  return CLI_EXIT_USAGE;
}

int cli_mpi_ranks(void) {
  return 1;
}
int cli_mpi_rank(void) {
  return 0;
}
bool cli_mpi_root(void) {
  return true;
}
bool cli_mpi_agree(bool ok, const char *what) {
  (void)what;
  return ok;
}
astar_status cli_mpi_cpd_build(astar_cpd **out, const astar_grid *grid, const astar_cpd_config *cfg,
                               unsigned threads) {
  (void)threads;
  return astar_cpd_build(out, grid, cfg, NULL);
}
void cli_mpi_report(FILE *out) {
  (void)out;
}
int cli_mpi_end(int rc) {
  return rc;
}

#else /* ASTAR_HAVE_MPI */

#define CPD_MPI_BLOCK 128u       /* sources a block (the threaded build's size) */
#define CPD_MPI_CHUNK (1u << 30) /* bytes a message at most (MPI counts are int) */
#define TAG_LENS 1               /* a rank's block lengths, uint64 each */
#define TAG_DATA 2               /* block bytes, in chunks */

static bool mpi_started; /* MPI_Init was called (MPI_Finalize is due) */
static int mpi_rank, mpi_size = 1;

/* What the last distributed build measured, for cli_mpi_report (rank 0). */
static struct {
  bool done;
  unsigned threads;
  double build_min, build_max; /* wall seconds of a rank's blocks, over the ranks */
  double cpu_min, cpu_max;     /* CPU seconds of a rank's process until its blocks were built */
  double gather_seconds;       /* rank 0: receiving the other ranks' blocks */
  double assemble_seconds;     /* rank 0: astar_cpd_assemble */
  unsigned long long gathered; /* bytes received by rank 0 */
  unsigned long long total;    /* bytes of every block */
} stats;

int cli_mpi_begin(bool cpd) {
  if (!cpd || cli_mpi_launcher_size() == 0) return -1;
  int provided;
  /* Threads build blocks, only the main thread calls MPI. */
  MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
  mpi_started = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &mpi_size);
  return -1;
}

int cli_mpi_ranks(void) {
  return mpi_size;
}
int cli_mpi_rank(void) {
  return mpi_rank;
}
bool cli_mpi_root(void) {
  return mpi_rank == 0;
}

bool cli_mpi_agree(bool ok, const char *what) {
  if (!mpi_started || mpi_size == 1) return ok;
  /* MINLOC over (ok, rank): 0 and the lowest failing rank when any failed. */
  struct {
    int ok, rank;
  } mine = {ok ? 1 : 0, mpi_rank}, all;
  MPI_Allreduce(&mine, &all, 1, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD);
  if (!ok)
    cli_error("rank %d of %d: %s", mpi_rank, mpi_size, what);
  else if (!all.ok)
    cli_error("rank %d of %d: stopped, rank %d failed: %s", mpi_rank, mpi_size, all.rank, what);
  return all.ok != 0;
}

/* ---- one rank's blocks on its threads ---------------------------------- */

typedef struct rank_job {
  pthread_mutex_t lock;
  const astar_grid *grid;
  astar_cpd_config cfg;
  astar_cpd_block **blocks; /* [mine]: this rank's blocks, in order */
  uint32_t mine;            /* blocks of this rank */
  uint32_t n;               /* sources */
  uint32_t next;            /* next of this rank's blocks to take (under lock) */
  astar_status status;      /* first failure (under lock) */
  uint64_t done, total;     /* sources finished / this rank's (under lock) */
  cli_progress line;        /* rank 0's progress line (tools/progress.h) */
  bool show;                /* this rank shows it: rank 0 */
  double t0;                /* start of the build (seconds) */
} rank_job;

static void *rank_worker(void *arg) {
  rank_job *j = arg;
  for (;;) {
    pthread_mutex_lock(&j->lock);
    const uint32_t i = j->status == ASTAR_OK ? j->next++ : j->mine;
    pthread_mutex_unlock(&j->lock);
    if (i >= j->mine) break;
    const uint32_t k = (uint32_t)mpi_rank + i * (uint32_t)mpi_size; /* global block */
    const uint32_t first = k * CPD_MPI_BLOCK;
    const uint32_t count = j->n - first < CPD_MPI_BLOCK ? j->n - first : CPD_MPI_BLOCK;
    const astar_status st =
        astar_cpd_block_build(&j->blocks[i], j->grid, &j->cfg, first, count, NULL);
    pthread_mutex_lock(&j->lock);
    if (st != ASTAR_OK && j->status == ASTAR_OK) j->status = st;
    j->done += count;
    if (j->show) (void)cli_progress_update(&j->line, j->done);
    pthread_mutex_unlock(&j->lock);
  }
  return NULL;
}

/* Blocks of rank r among nblocks interleaved ones. */
static uint32_t blocks_of(uint32_t nblocks, int r) {
  return nblocks > (uint32_t)r
             ? (nblocks - (uint32_t)r + (uint32_t)mpi_size - 1) / (uint32_t)mpi_size
             : 0;
}

static void send_bytes(const void *data, size_t len, int to) {
  const char *p = data;
  for (size_t off = 0; off < len; off += CPD_MPI_CHUNK) {
    const size_t n = len - off < CPD_MPI_CHUNK ? len - off : CPD_MPI_CHUNK;
    MPI_Send(p + off, (int)n, MPI_BYTE, to, TAG_DATA, MPI_COMM_WORLD);
  }
}

static void recv_bytes(void *data, size_t len, int from) {
  char *p = data;
  for (size_t off = 0; off < len; off += CPD_MPI_CHUNK) {
    const size_t n = len - off < CPD_MPI_CHUNK ? len - off : CPD_MPI_CHUNK;
    MPI_Recv(p + off, (int)n, MPI_BYTE, from, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

/* Out of memory in the middle of the exchange: the other ranks wait in
** matching calls, so the only way out is to stop them all. */
static _Noreturn void abort_no_memory(const char *where) {
  cli_error("rank %d of %d: out of memory %s", mpi_rank, mpi_size, where);
  MPI_Abort(MPI_COMM_WORLD, CLI_EXIT_FAIL);
  exit(CLI_EXIT_FAIL); /* MPI_Abort does not return; the compiler cannot know */
}

astar_status cli_mpi_cpd_build(astar_cpd **out, const astar_grid *grid, const astar_cpd_config *cfg,
                               unsigned threads) {
  *out = NULL;
  memset(&stats, 0, sizeof stats);
  rank_job j;
  memset(&j, 0, sizeof j);
  pthread_mutex_init(&j.lock, NULL);
  j.grid = grid;
  j.cfg = *cfg;
  j.cfg.progress = NULL; /* the rank's progress line replaces the per-block one */
  if (threads < 1) threads = 1;
  if (j.cfg.memory_limit) j.cfg.memory_limit /= threads;
  astar_status st = astar_cpd_sources(grid, &j.n);
  const uint32_t nblocks = (j.n + CPD_MPI_BLOCK - 1) / CPD_MPI_BLOCK;
  j.mine = blocks_of(nblocks, mpi_rank);
  for (uint32_t i = 0; i < j.mine; i++) {
    const uint32_t k = (uint32_t)mpi_rank + i * (uint32_t)mpi_size;
    j.total += j.n - k * CPD_MPI_BLOCK < CPD_MPI_BLOCK ? j.n - k * CPD_MPI_BLOCK : CPD_MPI_BLOCK;
  }
  j.blocks = calloc(j.mine ? j.mine : 1, sizeof(astar_cpd_block *));
  if (!j.blocks) { /* reported below like a failed build: nothing is sent */
    j.mine = 0;
    if (st == ASTAR_OK) st = ASTAR_NO_MEMORY;
  }
  j.show = mpi_rank == 0;
  j.t0 = cli_now_seconds();
  cli_progress_start(&j.line, "cpd: rank 0", "sources", j.total);
  if (st == ASTAR_OK) {
    pthread_t tid[256];
    unsigned started = 0;
    while (started + 1 < threads && started < 256 &&
           pthread_create(&tid[started], NULL, rank_worker, &j) == 0)
      started++;
    rank_worker(&j);
    for (unsigned t = 0; t < started; t++) pthread_join(tid[t], NULL);
    if (j.show) cli_progress_end(&j.line);
    st = j.status;
  }
  const double built = cli_now_seconds() - j.t0;
  /* CPU time of the whole process (every thread; the map's parsing and MPI's
  ** start-up included): the balance measure on a shared machine, where wall
  ** times also count the other programs. */
  struct timespec cpu = {0, 0};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);

  /* Every rank's status and build times, on every rank. */
  double mine[3] = {(double)st, built, (double)cpu.tv_sec + 1e-9 * (double)cpu.tv_nsec};
  double *all = malloc(3 * (size_t)mpi_size * sizeof *all);
  if (!all) abort_no_memory("for the ranks' statuses");
  MPI_Allgather(mine, 3, MPI_DOUBLE, all, 3, MPI_DOUBLE, MPI_COMM_WORLD);
  int failed = -1;
  for (int r = 0; r < mpi_size && failed < 0; r++)
    if (all[3 * (size_t)r] != 0.0) failed = r;
  if (failed >= 0) {
    const astar_status fst = (astar_status)(int)all[3 * (size_t)failed];
    if (st != ASTAR_OK) /* each failing rank names itself */
      cli_error("rank %d of %d: cpd build failed: %s", mpi_rank, mpi_size, astar_strerror(st));
    else
      cli_error("rank %d of %d: stopped, rank %d failed: %s", mpi_rank, mpi_size, failed,
                astar_strerror(fst));
    st = st != ASTAR_OK ? st : fst;
  } else if (mpi_rank != 0) {
    /* Lengths first (rank 0 knows how many), then the bytes; a block is
    ** freed once sent. */
    uint64_t *lens = malloc((j.mine ? j.mine : 1) * sizeof *lens);
    if (!lens) abort_no_memory("for the block lengths");
    for (uint32_t i = 0; i < j.mine; i++) {
      size_t len;
      astar_cpd_block_data(j.blocks[i], &len);
      lens[i] = len;
    }
    MPI_Send(lens, (int)j.mine, MPI_UINT64_T, 0, TAG_LENS, MPI_COMM_WORLD);
    for (uint32_t i = 0; i < j.mine; i++) {
      size_t len;
      const void *d = astar_cpd_block_data(j.blocks[i], &len);
      send_bytes(d, len, 0);
      astar_cpd_block_free(j.blocks[i]);
      j.blocks[i] = NULL;
    }
    free(lens);
  } else {
    /* Rank 0: data[k] for every global block k. */
    const void **data = calloc(nblocks ? nblocks : 1, sizeof *data);
    size_t *lens = calloc(nblocks ? nblocks : 1, sizeof *lens);
    void **recv = calloc(nblocks ? nblocks : 1, sizeof *recv); /* received, to free */
    if (!data || !lens || !recv) abort_no_memory("for the block table");
    for (uint32_t i = 0; i < j.mine; i++) {
      const uint32_t k = i * (uint32_t)mpi_size;
      data[k] = astar_cpd_block_data(j.blocks[i], &lens[k]);
      stats.total += lens[k];
    }
    const double g0 = cli_now_seconds();
    for (int r = 1; r < mpi_size; r++) {
      const uint32_t nb = blocks_of(nblocks, r);
      uint64_t *rl = malloc((nb ? nb : 1) * sizeof *rl);
      if (!rl) abort_no_memory("for the block lengths");
      MPI_Recv(rl, (int)nb, MPI_UINT64_T, r, TAG_LENS, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (uint32_t i = 0; i < nb; i++) {
        const uint32_t k = (uint32_t)r + i * (uint32_t)mpi_size;
        if (rl[i] > SIZE_MAX) abort_no_memory("for a block (larger than the address space)");
        lens[k] = (size_t)rl[i];
        if (!(recv[k] = malloc(lens[k] ? lens[k] : 1))) abort_no_memory("for a block");
        recv_bytes(recv[k], lens[k], r);
        data[k] = recv[k];
        stats.gathered += lens[k];
        stats.total += lens[k];
      }
      free(rl);
    }
    const double a0 = cli_now_seconds();
    stats.gather_seconds = a0 - g0;
    st = astar_cpd_assemble(out, grid, data, lens, nblocks, NULL);
    stats.assemble_seconds = cli_now_seconds() - a0;
    if (st != ASTAR_OK)
      cli_error("rank 0 of %d: cannot assemble the blocks: %s", mpi_size, astar_strerror(st));
    for (uint32_t k = 0; k < nblocks; k++) free(recv[k]);
    free(recv);
    free(data);
    free(lens);
  }
  stats.done = failed < 0;
  stats.threads = threads;
  stats.build_min = stats.build_max = all[1];
  stats.cpu_min = stats.cpu_max = all[2];
  for (int r = 1; r < mpi_size; r++) {
    const double w = all[3 * (size_t)r + 1], c = all[3 * (size_t)r + 2];
    if (w < stats.build_min) stats.build_min = w;
    if (w > stats.build_max) stats.build_max = w;
    if (c < stats.cpu_min) stats.cpu_min = c;
    if (c > stats.cpu_max) stats.cpu_max = c;
  }
  free(all);
  for (uint32_t i = 0; i < j.mine; i++) astar_cpd_block_free(j.blocks[i]);
  free(j.blocks);
  pthread_mutex_destroy(&j.lock);
  return st;
}

void cli_mpi_report(FILE *out) {
  if (!stats.done || mpi_rank != 0) return;
  fprintf(out,
          "mpi:      %d ranks x %u threads, blocks of %u sources interleaved; build %.3f s "
          "(slowest rank) / %.3f s (fastest), CPU %.3f s / %.3f s\n",
          mpi_size, stats.threads, CPD_MPI_BLOCK, stats.build_max, stats.build_min, stats.cpu_max,
          stats.cpu_min);
  fprintf(out,
          "mpi:      gathered %llu of %llu block bytes from the other ranks in %.3f s, "
          "assembled in %.3f s\n",
          stats.gathered, stats.total, stats.gather_seconds, stats.assemble_seconds);
}

int cli_mpi_end(int rc) {
  if (!mpi_started) return rc;
  int end = rc;
  if (mpi_size > 1) {
    /* MAXLOC over (rc, rank): the highest status and the lowest rank with it. */
    struct {
      int rc, rank;
    } mine = {rc, mpi_rank}, all;
    MPI_Allreduce(&mine, &all, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
    if (all.rc != 0 && rc == 0)
      cli_error("rank %d of %d: rank %d failed (exit status %d)", mpi_rank, mpi_size, all.rank,
                all.rc);
    end = all.rc;
  }
  MPI_Finalize();
  mpi_started = false;
  return end;
}

#endif /* ASTAR_HAVE_MPI */
