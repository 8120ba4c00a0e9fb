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

#include "astar/finder.h"
#include "core/internal.h"
#include "core/workspace.h"
#include "search/checked.h"

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
  /* A finder's batch without path slots: each worker's path buffer, so
  ** that every method gives its cost (HPA* costs the path it writes), of
  ** scratch_bytes bytes each (grown from the calling thread, kept). */
  void **scratch;       /* [threads], NULL until first needed */
  size_t scratch_bytes; /* bytes of each scratch[t] */
};

/* What a job's searches go through. */
enum {
  JOB_GRID,  /* astar_batch_find_paths: the grid's own calls, options validated once */
  JOB_CELLS, /* astar_batch_find: astar_finder_find */
  JOB_VEC,   /* astar_batch_find_vec, and astar_batch_find without slots of a finder whose
                paths are vectors: astar_finder_find_vec */
  JOB_NODES  /* astar_batch_find_nodes: astar_finder_find_nodes */
};

/* What the workers of one call share: read-only inputs and the counter. */
typedef struct batch_job {
  int kind;                    /* JOB_* */
  const astar_grid *grid;      /* JOB_GRID: shared, read-only */
  const astar_jps_plus *pre;   /* JOB_GRID: JPS+ table, or NULL */
  const astar_options *opt;    /* JOB_GRID: validated (not NULL) */
  const astar_finder *f;       /* the other kinds: the prepared query */
  const void *queries;         /* [n] astar_query (astar_node_query for JOB_NODES) */
  size_t n;                    /* number of queries */
  astar_batch_result *results; /* JOB_GRID: [n], slot i written by the worker that took i */
  astar_path_result *fres;     /* the other kinds: [n] */
  void *paths;                 /* [n * stride] points of the kind, or NULL with stride 0 */
  size_t stride;               /* points per path slot; 0: no paths */
  void *const *scratch;        /* finders with stride 0: each worker's path buffer */
  size_t scratch_cap;          /* points of each */
  atomic_size_t next;          /* next query not yet taken (may pass n) */
} batch_job;

/* Query i of a JOB_GRID job. */
static void run_grid(batch_job *job, astar_workspace *ws, size_t i) {
  const astar_query *q = (const astar_query *)job->queries + i;
  astar_batch_result *out = &job->results[i];
  astar_point *path = job->stride ? (astar_point *)job->paths + i * job->stride : NULL;
  astar_status st;
  if (job->pre)
    st = astar__jps_plus_find_path_checked(ws, job->pre, job->grid, job->opt, q->start, q->goal,
                                           path, job->stride, &out->result);
  else
    st = astar__find_path_checked(ws, job->grid, job->opt, q->start, q->goal, path, job->stride,
                                  &out->result);
  /* Without path slots a found path is a success, not a short buffer. */
  if (st == ASTAR_BUFFER_TOO_SMALL && job->stride == 0) st = ASTAR_OK;
  out->status = st;
}

/* Query i of a finder's job; `scratch` (scratch_cap points): the
** worker's path buffer when the job keeps no paths. */
static void run_finder(batch_job *job, astar_workspace *ws, void *scratch, size_t i) {
  astar_path_result *res = &job->fres[i];
  const size_t at = i * job->stride;
  astar_status st;
  if (job->stride == 0 && scratch && job->kind != JOB_NODES) {
    const astar_query *q = (const astar_query *)job->queries + i;
    st = job->kind == JOB_VEC
             ? astar_finder_find_vec(job->f, ws, q->start, q->goal, scratch, job->scratch_cap, res)
             : astar_finder_find(job->f, ws, q->start, q->goal, scratch, job->scratch_cap, res);
    if (st == ASTAR_BUFFER_TOO_SMALL) res->status = ASTAR_OK; /* a path was found */
    return;
  }
  if (job->kind == JOB_NODES) {
    const astar_node_query *q = (const astar_node_query *)job->queries + i;
    st = astar_finder_find_nodes(job->f, ws, q->start, q->goal,
                                 job->stride ? (astar_node *)job->paths + at : NULL, job->stride,
                                 res);
  } else {
    const astar_query *q = (const astar_query *)job->queries + i;
    st = job->kind == JOB_VEC
             ? astar_finder_find_vec(job->f, ws, q->start, q->goal,
                                     job->stride ? (astar_vec2 *)job->paths + at : NULL,
                                     job->stride, res)
             : astar_finder_find(job->f, ws, q->start, q->goal,
                                 job->stride ? (astar_point *)job->paths + at : NULL, job->stride,
                                 res);
  }
  if (st == ASTAR_BUFFER_TOO_SMALL && job->stride == 0) res->status = ASTAR_OK;
}

/* Worker t's share of the job: queries taken from the counter. */
static void run_queries(batch_job *job, astar_workspace *ws, unsigned t) {
  void *scratch = job->scratch ? job->scratch[t] : NULL;
  for (;;) {
    const size_t i = atomic_fetch_add_explicit(&job->next, 1, memory_order_relaxed);
    if (i >= job->n) return;
    if (job->kind == JOB_GRID)
      run_grid(job, ws, i);
    else
      run_finder(job, ws, scratch, i);
  }
}

#ifndef ASTAR_NO_THREADS
/* One helper thread's view of the job. */
typedef struct batch_worker {
  batch_job *job;
  astar_workspace *ws; /* this worker's own */
  unsigned t;          /* its index */
} batch_worker;

static void *worker_main(void *arg) {
  batch_worker *w = arg;
  run_queries(w->job, w->ws, w->t);
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
  if (batch->scratch) {
    for (unsigned t = 0; t < batch->threads; t++)
      astar__free(&a, batch->scratch[t], batch->scratch_bytes);
    astar__free(&a, batch->scratch, batch->threads * sizeof(void *));
  }
  astar__free(&a, batch, sizeof *batch);
}

unsigned astar_batch_threads(const astar_batch *batch) {
  return batch ? batch->threads : 0;
}

size_t astar_batch_memory(const astar_batch *batch) {
  if (!batch) return 0;
  size_t bytes = sizeof *batch + batch->threads * sizeof(astar_workspace *);
  if (batch->scratch) bytes += batch->threads * (sizeof(void *) + batch->scratch_bytes);
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

/* Run `job` on min(threads, n) workers: the calling thread and helper
** threads (as many as start). *threads_used: the workers that ran. */
static void run_job(astar_batch *batch, batch_job *job, unsigned *threads_used) {
  atomic_init(&job->next, 0);
  unsigned workers = batch->threads;
  if ((size_t)workers > job->n) workers = (unsigned)job->n;
  unsigned started = 1; /* the calling thread */
#ifdef ASTAR_NO_THREADS
  (void)workers;
#else
  pthread_t tid[ASTAR_BATCH_MAX_THREADS];
  batch_worker w[ASTAR_BATCH_MAX_THREADS];
  for (unsigned t = 1; t < workers; t++) {
    w[started - 1] = (batch_worker){job, batch->ws[started], started};
    if (pthread_create(&tid[started - 1], NULL, worker_main, &w[started - 1]) != 0) break;
    started++;
  }
#endif
  run_queries(job, batch->ws[0], 0);
#ifndef ASTAR_NO_THREADS
  for (unsigned t = 0; t + 1 < started; t++) pthread_join(tid[t], NULL);
#endif
  if (threads_used) *threads_used = started;
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
  /* The one validation of the batch: the workers search with the checked
  ** entry points, which do exactly what the public ones do after it. */
  astar_options defaults;
  if (!opt) {
    astar_options_init(&defaults); /* valid by construction */
    opt = &defaults;
  } else if (astar_options_validate(opt) != ASTAR_OK) {
    return ASTAR_INVALID_ARGUMENT;
  }
  for (unsigned t = 0; t < batch->threads; t++)
    if (grid->ncells > batch->ws[t]->capacity) return ASTAR_CAPACITY;
  if (n == 0) return ASTAR_OK;
  batch_job job = {.kind = JOB_GRID,
                   .grid = grid,
                   .pre = pre,
                   .opt = opt,
                   .queries = queries,
                   .n = n,
                   .results = results,
                   .paths = paths,
                   .stride = stride};
  run_job(batch, &job, threads_used);
  return ASTAR_OK;
}

/* Give every worker a path buffer of `bytes` bytes (kept; grown, never
** shrunk). Every buffer or none: ASTAR_OK or ASTAR_NO_MEMORY. */
static astar_status grow_scratch(astar_batch *b, size_t bytes) {
  if (b->scratch && b->scratch_bytes >= bytes) return ASTAR_OK;
  if (!b->scratch) {
    b->scratch = astar__calloc(&b->alloc, b->threads, sizeof(void *));
    if (!b->scratch) return ASTAR_NO_MEMORY;
  }
  void *fresh[ASTAR_BATCH_MAX_THREADS];
  for (unsigned t = 0; t < b->threads; t++) {
    fresh[t] = astar__malloc(&b->alloc, bytes);
    if (!fresh[t]) {
      while (t-- > 0) astar__free(&b->alloc, fresh[t], bytes);
      return ASTAR_NO_MEMORY;
    }
  }
  for (unsigned t = 0; t < b->threads; t++) {
    astar__free(&b->alloc, b->scratch[t], b->scratch_bytes);
    b->scratch[t] = fresh[t];
  }
  b->scratch_bytes = bytes;
  return ASTAR_OK;
}

/* The common part of astar_batch_find, _vec and _nodes. */
static astar_status find_with(astar_batch *batch, const astar_finder *f, int kind,
                              const void *queries, size_t n, astar_path_result *results,
                              void *paths, size_t stride, unsigned *threads_used) {
  if (threads_used) *threads_used = 0;
  size_t slots;
  if (!batch || !f || !results || (n > 0 && !queries) || (stride > 0 && !paths) ||
      !astar__mul(n, stride, &slots))
    return ASTAR_INVALID_ARGUMENT;
  const bool space = astar_finder_grid(f) == NULL;
  if (space != (kind == JOB_NODES)) return ASTAR_INVALID_ARGUMENT;
  const astar_method_info *info = astar_method_info_of(astar_finder_config_of(f)->method);
  const bool vec_native = !space && info && (info->flags & ASTAR_MF_VEC);
  if (kind == JOB_CELLS && vec_native) {
    if (stride > 0) return ASTAR_INVALID_ARGUMENT; /* its points are no cells */
    kind = JOB_VEC;                                /* costs only: its own kind of path */
  }
  if (n == 0) return ASTAR_OK;
  /* Without path slots a grid finder's searches still write their paths
  ** (to the worker's buffer): a method may cost only the path it writes
  ** (HPA*). A path visits a cell once, but for the rare HPA* path (then
  ** ASTAR_BUFFER_TOO_SMALL: found, counted as ASTAR_OK). */
  size_t scratch_cap = 0;
  if (stride == 0 && !space) {
    const astar_grid *g = astar_finder_grid(f);
    scratch_cap = (size_t)astar_grid_width(g) * (size_t)astar_grid_height(g) + 1;
    const size_t each = kind == JOB_VEC ? sizeof(astar_vec2) : sizeof(astar_point);
    size_t bytes;
    if (!astar__mul(scratch_cap, each, &bytes) || grow_scratch(batch, bytes) != ASTAR_OK)
      return ASTAR_NO_MEMORY;
  }
  /* Grow every workspace the workers will use from this thread: a sliced
  ** search begun and cancelled grows all a search of f needs (astar/finder.h),
  ** so the searches allocate nothing more, but for the rare longer path. A
  ** refusal at begin (a stale finder, a blocked end) is the query's to report. */
  const unsigned workers = (size_t)batch->threads > n ? (unsigned)n : batch->threads;
  for (unsigned t = 0; t < workers; t++) {
    astar_status st;
    if (space) {
      const astar_node_query *q = queries;
      st = astar_finder_begin_nodes(f, batch->ws[t], q->start, q->goal);
    } else {
      const astar_query *q = queries;
      st = astar_finder_begin(f, batch->ws[t], q->start, q->goal);
    }
    astar_finder_cancel(batch->ws[t]);
    if (st == ASTAR_NO_MEMORY) return ASTAR_NO_MEMORY;
  }
  batch_job job = {.kind = kind,
                   .f = f,
                   .queries = queries,
                   .n = n,
                   .fres = results,
                   .paths = paths,
                   .stride = stride,
                   .scratch = scratch_cap ? batch->scratch : NULL,
                   .scratch_cap = scratch_cap};
  run_job(batch, &job, threads_used);
  return ASTAR_OK;
}

astar_status astar_batch_find(astar_batch *batch, const astar_finder *f, const astar_query *queries,
                              size_t n, astar_path_result *results, astar_point *paths,
                              size_t stride, unsigned *threads_used) {
  return find_with(batch, f, JOB_CELLS, queries, n, results, paths, stride, threads_used);
}

astar_status astar_batch_find_vec(astar_batch *batch, const astar_finder *f,
                                  const astar_query *queries, size_t n, astar_path_result *results,
                                  astar_vec2 *paths, size_t stride, unsigned *threads_used) {
  return find_with(batch, f, JOB_VEC, queries, n, results, paths, stride, threads_used);
}

astar_status astar_batch_find_nodes(astar_batch *batch, const astar_finder *f,
                                    const astar_node_query *queries, size_t n,
                                    astar_path_result *results, astar_node *paths, size_t stride,
                                    unsigned *threads_used) {
  return find_with(batch, f, JOB_NODES, queries, n, results, paths, stride, threads_used);
}
