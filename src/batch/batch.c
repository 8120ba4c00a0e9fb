/*
** batch.c -- many queries on one shared grid, one workspace per worker
** (astar/batch.h).
**
** Work is handed out one query at a time from an atomic counter: queries
** differ in cost by orders of magnitude (a Moving AI scenario file runs
** from 1-cell to 1000-cell paths), so fixed slices would leave a worker
** idle while another finishes the long tail. A query's slot in the output
** is its index, so the order of completion never shows.
**
** The only platform dependency of the library is here: POSIX threads. A
** build without them (ASTAR_NO_THREADS, or Emscripten without -pthread)
** runs every query on the calling thread.
*/
#if !defined(_POSIX_C_SOURCE) || _POSIX_C_SOURCE < 200809L
#undef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "core/internal.h"
#include "core/workspace.h"

#include <stdatomic.h>
#include <string.h>

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__) && !defined(ASTAR_NO_THREADS)
#define ASTAR_NO_THREADS 1
#endif
#ifndef ASTAR_NO_THREADS
#include <pthread.h>
#include <unistd.h>
#endif

struct astar_batch {
  astar_allocator alloc; /* where the batch and its workspaces come from */
  unsigned threads;      /* workers, 1 .. ASTAR_BATCH_MAX_THREADS */
  astar_workspace **ws;  /* [threads] one workspace per worker */
};

/* What the workers of one call share: read-only inputs and the counter. */
typedef struct batch_job {
  const astar_grid *grid;      /* shared, read-only */
  const astar_jps_plus *pre;   /* JPS+ table, or NULL */
  const astar_options *opt;    /* shared, read-only (NULL: defaults) */
  const astar_query *queries;  /* [n] */
  size_t n;                    /* number of queries */
  astar_batch_result *results; /* [n]: slot i written by the worker that took i */
  astar_point *paths;          /* [n * stride], or NULL with stride 0 */
  size_t stride;               /* cells per path slot; 0: no paths */
  atomic_size_t next;          /* next query not yet taken (may pass n) */
} batch_job;

static void run_queries(batch_job *job, astar_workspace *ws) {
  for (;;) {
    const size_t i = atomic_fetch_add_explicit(&job->next, 1, memory_order_relaxed);
    if (i >= job->n) return;
    const astar_query *q = &job->queries[i];
    astar_batch_result *out = &job->results[i];
    astar_point *path = job->stride ? job->paths + i * job->stride : NULL;
    astar_status st;
    if (job->pre)
      st = astar_jps_plus_find_path(ws, job->pre, job->grid, job->opt, q->start, q->goal, path,
                                    job->stride, &out->result);
    else
      st = astar_find_path(ws, job->grid, job->opt, q->start, q->goal, path, job->stride,
                           &out->result);
    /* Without path slots a found path is a success, not a short buffer. */
    if (st == ASTAR_BUFFER_TOO_SMALL && job->stride == 0) st = ASTAR_OK;
    out->status = st;
  }
}

#ifndef ASTAR_NO_THREADS
/* One helper thread's view of the job. */
typedef struct batch_worker {
  batch_job *job;
  astar_workspace *ws; /* this worker's own */
} batch_worker;

static void *worker_main(void *arg) {
  batch_worker *w = arg;
  run_queries(w->job, w->ws);
  return NULL;
}
#endif

unsigned astar_batch_default_threads(void) {
#ifdef ASTAR_NO_THREADS
  return 1;
#else
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  if (n < 1) return 1;
  return n > ASTAR_BATCH_MAX_THREADS ? ASTAR_BATCH_MAX_THREADS : (unsigned)n;
#endif
}

astar_status astar_batch_new(astar_batch **out, const astar_grid *grid, unsigned threads,
                             const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  if (!grid || threads > ASTAR_BATCH_MAX_THREADS) return ASTAR_INVALID_ARGUMENT;
  if (threads == 0) threads = astar_batch_default_threads();
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_batch *b = astar__calloc(&a, 1, sizeof *b);
  if (!b) return ASTAR_NO_MEMORY;
  b->alloc = a;
  b->ws = astar__calloc(&a, threads, sizeof(astar_workspace *));
  if (!b->ws) {
    astar__free(&a, b, sizeof *b);
    return ASTAR_NO_MEMORY;
  }
  b->threads = threads;
  for (unsigned t = 0; t < threads; t++) {
    const astar_status st = astar_workspace_new(&b->ws[t], grid, &b->alloc);
    if (st != ASTAR_OK) {
      astar_batch_free(b);
      return st;
    }
  }
  *out = b;
  return ASTAR_OK;
}

void astar_batch_free(astar_batch *batch) {
  if (!batch) return;
  const astar_allocator a = batch->alloc;
  if (batch->ws) {
    for (unsigned t = 0; t < batch->threads; t++) astar_workspace_free(batch->ws[t]);
    astar__free(&a, batch->ws, batch->threads * sizeof(astar_workspace *));
  }
  astar__free(&a, batch, sizeof *batch);
}

unsigned astar_batch_threads(const astar_batch *batch) {
  return batch ? batch->threads : 0;
}

size_t astar_batch_memory(const astar_batch *batch) {
  if (!batch) return 0;
  size_t bytes = sizeof *batch + batch->threads * sizeof(astar_workspace *);
  for (unsigned t = 0; t < batch->threads; t++) bytes += astar_workspace_memory(batch->ws[t]);
  return bytes;
}

astar_status astar_batch_reserve(astar_batch *batch, const astar_grid *grid, bool turns) {
  if (!batch || !grid) return ASTAR_INVALID_ARGUMENT;
  for (unsigned t = 0; t < batch->threads; t++) {
    astar_status st = astar_workspace_reserve(batch->ws[t], grid);
    if (st == ASTAR_OK && turns) st = astar_workspace_reserve_turns(batch->ws[t], grid);
    if (st != ASTAR_OK) return st;
  }
  return ASTAR_OK;
}

astar_status astar_batch_find_paths(astar_batch *batch, const astar_grid *grid,
                                    const astar_jps_plus *pre, const astar_options *opt,
                                    const astar_query *queries, size_t n,
                                    astar_batch_result *results, astar_point *paths, size_t stride,
                                    unsigned *threads_used) {
  if (threads_used) *threads_used = 0;
  size_t slots;
  if (!batch || !grid || !results || (n > 0 && !queries) || (stride > 0 && !paths) ||
      !astar__mul(n, stride, &slots))
    return ASTAR_INVALID_ARGUMENT;
  if (opt && astar_options_validate(opt) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
  for (unsigned t = 0; t < batch->threads; t++)
    if (grid->ncells > batch->ws[t]->capacity) return ASTAR_CAPACITY;
  if (threads_used) *threads_used = n > 0 ? 1 : 0;
  if (n == 0) return ASTAR_OK;

  batch_job job = {grid, pre, opt, queries, n, results, paths, stride, 0};
  atomic_init(&job.next, 0);
  unsigned workers = batch->threads;
  if ((size_t)workers > n) workers = (unsigned)n;
  unsigned started = 1; /* the calling thread */
#ifdef ASTAR_NO_THREADS
  (void)workers;
#else
  pthread_t tid[ASTAR_BATCH_MAX_THREADS];
  batch_worker w[ASTAR_BATCH_MAX_THREADS];
  for (unsigned t = 1; t < workers; t++) {
    w[started - 1] = (batch_worker){&job, batch->ws[started]};
    if (pthread_create(&tid[started - 1], NULL, worker_main, &w[started - 1]) != 0) break;
    started++;
  }
#endif
  run_queries(&job, batch->ws[0]);
#ifndef ASTAR_NO_THREADS
  for (unsigned t = 0; t + 1 < started; t++) pthread_join(tid[t], NULL);
#endif
  if (threads_used) *threads_used = started;
  return ASTAR_OK;
}
