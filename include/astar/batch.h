/*
** astar/batch.h -- many queries at once, a worker thread per core, any
** method: through a prepared finder (astar/finder.h).
**
** A batch object owns one workspace per worker. astar_batch_find solves N
** (start, goal) queries with one finder -- any method, prepared and
** validated once (astar_finder_new), whatever N: the calling thread and up
** to threads - 1 helper threads take queries from a shared counter, each
** searching with its own workspace (astar_finder_find), and write every
** query's outcome to its own slot of the caller's arrays. Slot i depends
** only on query i and the finder -- never on the number of threads or on
** which worker ran it -- so the output is the same, in the same order, as N
** calls of astar_finder_find one after another. astar_batch_find_vec (Anya's
** corners, or any grid finder's cell centres) and astar_batch_find_nodes (a
** space finder) are the same for the other kinds of path.
**
**     astar_finder *f;                       (cfg.method = any method)
**     astar_finder_new(&f, grid, &cfg, NULL);
**     astar_batch_find(batch, f, queries, n, results, paths, stride, NULL);
**
** astar_batch_find_paths is the older entry point for A*, JPS and JPS+
** (opt->algorithm, a JPS+ table): the same searches as astar_find_path,
** its options validated once a batch.
**
** Threads. Helper threads are started by each astar_batch_find_paths call
** and joined before it returns (a few tens of microseconds per thread; a
** batch of many short queries amortises it). When a thread cannot be
** started -- a platform without threads (a WebAssembly build without
** pthreads), or the system refuses -- the queries go to the workers that
** did start, the calling thread at least: the results are the same, only
** slower. The library holds no thread between calls and has no global
** state.
**
** Workspaces. astar_batch_find grows every worker's workspace for the
** finder before starting any thread (astar_finder_begin's growth, from the
** calling thread); afterwards a search allocates only where a lone
** astar_finder_find would on a grown workspace (a path longer than any
** before for HPA* and Anya: astar/finder.h "Scratch"), from the worker's
** thread with the batch's allocator -- which must then be thread-safe, as
** malloc is.
**
** Sharing rules. During a call the grid (or space), the finder, its
** attachments, the JPS+ table and everything the options point to
** (layers, knowledge, islands) are read by every worker at once and must
** not change. Callbacks named by the options (heuristic_fn,
** stop_fn, observer) are called from several threads concurrently with the
** same context pointer: they must be thread-safe. A batch object is used by
** one thread at a time.
*/
#ifndef ASTAR_BATCH_H
#define ASTAR_BATCH_H

#include "base.h"
#include "finder.h"
#include "grid.h"
#include "jps_plus.h"
#include "search.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most workers a batch can have. */
#define ASTAR_BATCH_MAX_THREADS 256

/* One query of a batch. */
typedef struct astar_query {
  astar_point start; /* first cell of the path */
  astar_point goal;  /* last cell of the path */
} astar_query;

/* One query of a space finder's batch (astar_batch_find_nodes). */
typedef struct astar_node_query {
  astar_node start; /* first node of the path */
  astar_node goal;  /* last node of the path */
} astar_node_query;

/* What one query of a batch produced: the status and result that
** astar_find_path would have returned for it alone. */
typedef struct astar_batch_result {
  astar_status status; /* ASTAR_OK, ASTAR_NO_PATH, ASTAR_BUFFER_TOO_SMALL (the path
                          needs more than `stride` cells: length says how many,
                          no cell written), ... -- see astar/search.h */
  astar_result result; /* cost, length (cells), statistics, end cell */
} astar_batch_result;

/* A batch. Retains: nothing (the grid given to astar_batch_new only sizes
** its workspaces; a call reads its grid, table, options and arrays during
** the call only). Thread safety: one thread at a time; during
** astar_batch_find_paths its helper threads read the grid, the table and
** the options at once and call the options' callbacks concurrently (see
** "Sharing rules" above). */
typedef struct astar_batch astar_batch;

/*
** Create a batch of `threads` workers (1 .. ASTAR_BATCH_MAX_THREADS; 0 means
** one per online processor, at most ASTAR_BATCH_MAX_THREADS), each with a
** workspace sized for `grid` and for any grid with no more cells (as
** astar_workspace_new). The grid is not retained. `alloc` may be NULL
** (malloc); it is called only by the functions of this header that say they
** allocate, from the calling thread. Allocates about 38 bytes per cell per
** worker (astar_batch_memory) and no thread.
** Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT (out or grid NULL, threads above
** ASTAR_BATCH_MAX_THREADS) or ASTAR_NO_MEMORY (*out NULL, nothing leaked).
*/
ASTAR_API astar_status astar_batch_new(astar_batch **out, const astar_grid *grid, unsigned threads,
                                       const astar_allocator *alloc);

/* The number of workers `threads` = 0 stands for: the processors online
** (sysconf), at least 1 and at most ASTAR_BATCH_MAX_THREADS; 1 on a build
** without threads. No allocation. */
ASTAR_API unsigned astar_batch_default_threads(void);

/* Release the batch and its workspaces. NULL is allowed. */
ASTAR_API void astar_batch_free(astar_batch *batch);

/* Number of workers (>= 1), the calling thread included. */
ASTAR_API unsigned astar_batch_threads(const astar_batch *batch);

/* Bytes the batch holds from its allocator (all workspaces included). */
ASTAR_API size_t astar_batch_memory(const astar_batch *batch);

/*
** Grow every worker's workspace, if needed, for `grid` (as
** astar_workspace_reserve); with `turns`, also give each the turn states
** that options.turn_penalty > 0 needs (astar_workspace_reserve_turns).
** Allocates only when growing. ASTAR_OK, ASTAR_INVALID_ARGUMENT or
** ASTAR_NO_MEMORY (the workspaces grown so far stay grown and usable).
*/
ASTAR_API astar_status astar_batch_reserve(astar_batch *batch, const astar_grid *grid, bool turns);

/*
** Solve queries[0 .. n-1] with the prepared finder `f` (any method; its
** grid or space, its attachments and options: astar/finder.h). No option
** is validated: the finder was, once, when it was made.
**
** results[i] receives query i's outcome exactly as astar_finder_find gives
** it for that query alone (status, cost, length, statistics, the method's
** figures). When `stride` > 0, query i's path is written to paths[i *
** stride ...], at most `stride` points (a longer one: ASTAR_BUFFER_TOO_SMALL
** with the length needed in results[i].length); with stride 0 only costs
** and statistics are kept, `paths` may be NULL and a path found is ASTAR_OK,
** not ASTAR_BUFFER_TOO_SMALL -- each worker still writes every path, to a
** buffer of the batch's own (a point a cell of the grid per worker, kept
** with the batch), so that every method gives its full result (HPA*
** costs only the path it writes). With stride 0 any grid finder may be given --
** Anya's included, whose paths are not cells; with stride > 0 a finder
** whose paths are cells (not Anya: astar_batch_find_vec). Starts and joins
** at most min(threads, n) - 1 helper threads; *threads_used (may be NULL)
** receives the number of workers that ran, the calling thread included.
**
** Returns ASTAR_OK when every query was run (each has its own status, as
** astar_finder_find: ASTAR_STALE for a finder behind its grid, ...),
** ASTAR_INVALID_ARGUMENT (batch, f or results NULL; queries NULL with n >
** 0; paths NULL with stride > 0; n * stride overflows; a space finder; a
** finder whose paths are not cells with stride > 0) or ASTAR_NO_MEMORY (a
** workspace could not grow for the finder: nothing was searched). Nothing
** is written to results unless ASTAR_OK is returned. Allocates only to
** grow the workspaces (see "Workspaces").
*/
ASTAR_API astar_status astar_batch_find(astar_batch *batch, const astar_finder *f,
                                        const astar_query *queries, size_t n,
                                        astar_path_result *results, astar_point *paths,
                                        size_t stride, unsigned *threads_used);

/* The same with the paths as astar_vec2 points (astar_finder_find_vec:
** Anya's bends on grid corners, any other grid finder's cell centres). A
** space finder is ASTAR_INVALID_ARGUMENT. */
ASTAR_API astar_status astar_batch_find_vec(astar_batch *batch, const astar_finder *f,
                                            const astar_query *queries, size_t n,
                                            astar_path_result *results, astar_vec2 *paths,
                                            size_t stride, unsigned *threads_used);

/* The same for a space finder (astar_finder_new_space; astar_finder_find_nodes):
** node queries and node paths. A grid finder is ASTAR_INVALID_ARGUMENT. */
ASTAR_API astar_status astar_batch_find_nodes(astar_batch *batch, const astar_finder *f,
                                              const astar_node_query *queries, size_t n,
                                              astar_path_result *results, astar_node *paths,
                                              size_t stride, unsigned *threads_used);

/*
** The older entry point, for A*, JPS and JPS+ only (any method:
** astar_batch_find). Solve queries[0 .. n-1] on `grid` with options `opt`
** (NULL: defaults), validated once for the whole batch.
** With `pre` (not NULL) the searches are JPS+ over that table
** (astar_jps_plus_find_path: its rules apply and opt->algorithm is
** ignored); otherwise astar_find_path with opt->algorithm (A* or JPS):
** each query's outcome is exactly what that call gives for it alone.
**
** results[i] receives query i's status and result. When `stride` > 0,
** query i's path is written to paths[i * stride ...], at most `stride`
** cells (a longer one: ASTAR_BUFFER_TOO_SMALL with the length in
** results[i].result.length); with stride 0 only costs and statistics are
** kept and `paths` may be NULL (results[i].status is then ASTAR_OK for a
** path found, not ASTAR_BUFFER_TOO_SMALL). Never allocates; starts and joins
** at most min(threads, n) - 1 helper threads. *threads_used (may be NULL)
** receives the number of workers that ran, the calling thread included.
**
** Returns ASTAR_OK when every query was run (each has its own status),
** ASTAR_INVALID_ARGUMENT (batch, grid or results NULL; queries NULL with
** n > 0; paths NULL with stride > 0; n * stride overflows; invalid
** options: astar_options_validate) or ASTAR_CAPACITY (the grid is larger
** than the workspaces: astar_batch_reserve). Nothing is written to results
** unless ASTAR_OK is returned.
*/
ASTAR_API astar_status astar_batch_find_paths(astar_batch *batch, const astar_grid *grid,
                                              const astar_jps_plus *pre, const astar_options *opt,
                                              const astar_query *queries, size_t n,
                                              astar_batch_result *results, astar_point *paths,
                                              size_t stride, unsigned *threads_used);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_BATCH_H */
