/*
** cpd/cpd.h -- the compressed path database's internals shared by its
** files: the node order (order.c), the row builder (build.c), the byte
** formats (io.c) and the query (query.c).
**
** A run is one uint32: first target node << 8 | jump code << 3 | move (a
** direction of core/internal.h), so runs compare by first target. Rows are
** stored one after another; row s holds runs[row[s] .. row[s+1]-1], starts
** strictly increasing from 0. Targets the row does not care about (the
** source itself, other components) are wildcards when the runs are chosen:
** the component ids answer those.
**
** The jump code bounds how far a walk may follow the run's move at once
** (build.c says why it is exact): the walk from s toward t takes
** min(rule, cap) steps in direction d, where rule is the geometric count
** astar__cpd_rule(dx, dy, d) (the steps in d before the octile path to t
** would turn) and cap the code's bound (astar__cpd_cap: code 0 is one step,
** the walk of format 1; 31 is no bound).
*/
#ifndef ASTAR_CPD_INTERNAL_H
#define ASTAR_CPD_INTERNAL_H

#include "core/internal.h"

#define ASTAR__CPD_NONE UINT32_MAX      /* node_of of a blocked cell */
#define ASTAR__CPD_MAX_NODES (1u << 24) /* passable cells a CPD can number */
#define ASTAR__CPD_RUN(first, code, move)                                                          \
  ((uint32_t)(first) << 8 | (uint32_t)(code) << 3 | (uint32_t)(move))
#define ASTAR__CPD_FIRST(run) ((run) >> 8)        /* first target node of a run */
#define ASTAR__CPD_MOVE(run) ((run)&7u)           /* direction of a run */
#define ASTAR__CPD_CODE(run) (((run) >> 3) & 31u) /* jump code of a run */
#define ASTAR__CPD_NO_CAP 31u                     /* jump code: no bound but the rule */
#define ASTAR__CPD_UNBOUNDED UINT32_MAX           /* the cap of that code */

/* The steps a jump code allows: 0 -> 1 (no jump), c -> c + 1, 31 -> no bound. */
ASTAR__INLINE uint32_t astar__cpd_cap(unsigned code) {
  return code == ASTAR__CPD_NO_CAP ? ASTAR__CPD_UNBOUNDED : code + 1u;
}

/* The largest jump code whose cap is at most `cap` (cap >= 1). */
ASTAR__INLINE unsigned astar__cpd_code(uint32_t cap) {
  return cap == ASTAR__CPD_UNBOUNDED ? ASTAR__CPD_NO_CAP : cap > 31u ? 30u : cap - 1u;
}

/* The rule of a jump: from a cell (dx, dy) away from the target, the steps
** in direction d before the octile path there turns -- for a straight d the
** distance along d minus the distance across, for a diagonal the smaller
** of its two distances -- or, when that is below 1 (d leads away from the
** target's octant: the path goes round an obstacle), no bound, so that the
** run's cap alone bounds the jump (the cap then holds for every such target
** of the run, see build.c). */
ASTAR__INLINE uint32_t astar__cpd_rule(int32_t dx, int32_t dy, int d) {
  const int32_t ax = dx * astar__dir_dx[d], ay = dy * astar__dir_dy[d];
  int32_t r;
  if (d < 4) {
    const int32_t along = ax + ay,
                  across = (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy) - (along < 0 ? -along : along);
    r = along - across;
  } else {
    r = ax < ay ? ax : ay;
  }
  return r < 1 ? ASTAR__CPD_UNBOUNDED : (uint32_t)r;
}

/* The node numbering of a grid: derived from its cells alone, so building
** and loading get the same one. */
typedef struct astar__cpd_order {
  uint32_t n;        /* passable cells (nodes) */
  uint32_t ncells;   /* padded cells of the grid */
  uint32_t *node_of; /* [ncells] node of a padded cell, ASTAR__CPD_NONE if blocked */
  uint32_t *cell_of; /* [n] padded cell of a node */
  uint32_t *comp;    /* [n] component id: the node number of its first node (its DFS root) */
  uint8_t *legal;    /* [n] bit d: the move in direction d is legal (no corner cutting) */
} astar__cpd_order;

/* Bytes the order of a grid with `n` nodes and `ncells` padded cells holds. */
size_t astar__cpd_order_bytes(uint32_t n, uint32_t ncells);

/* Passable cells of g (no allocation). */
uint32_t astar__cpd_count(const astar_grid *g);

/* Number the nodes of g (DFS preorder), with their components and legal
** moves. ASTAR_OK, ASTAR_TOO_LARGE (more than ASTAR__CPD_MAX_NODES nodes)
** or ASTAR_NO_MEMORY (then nothing is held). */
astar_status astar__cpd_order_make(astar__cpd_order *o, const astar_grid *g,
                                   const astar_allocator *a);
void astar__cpd_order_free(astar__cpd_order *o, const astar_allocator *a);

/* The rule check shared by every entry point (NULL when supported). */
const char *astar__cpd_rule_broken(const astar_grid *g, const astar_options *rules);

/* Rows of sources first .. first+count-1: counts[i] runs for source
** first + i, the runs one row after another in *runs (allocated from a,
** *runs_cap uint32 of it, *nruns used). `limit` (0: none) caps the bytes
** held at once, `fixed` of them already taken by the caller. */
typedef struct astar__cpd_rows {
  uint32_t *counts; /* [count] runs of each row */
  uint32_t *runs;   /* [runs_cap] the rows' runs, nruns used */
  uint64_t nruns;   /* runs used */
  size_t runs_cap;  /* uint32 allocated in runs */
} astar__cpd_rows;
astar_status astar__cpd_rows_build(astar__cpd_rows *r, const astar__cpd_order *o,
                                   const astar_grid *g, const astar_cpd_config *cfg, uint32_t first,
                                   uint32_t count, uint64_t fixed, const astar_allocator *a);
void astar__cpd_rows_free(astar__cpd_rows *r, uint32_t count, const astar_allocator *a);

/* The checks every builder makes before allocating: rules
** (ASTAR_UNSUPPORTED), *n = nodes (ASTAR_TOO_LARGE past the limit), and the
** estimate of the bytes held -- order, work, count sources' run counts and
** one run each, plus, for a whole table (`table`), its row offsets and
** query index -- against cfg->memory_limit (ASTAR_TOO_LARGE). count
** UINT32_MAX: every source. */
astar_status astar__cpd_precheck(const astar_grid *g, const astar_cpd_config *cfg, uint32_t *n,
                                 uint32_t count, bool table);

/* Bytes the build holds besides the order and the runs, for n nodes and
** ncells padded cells. */
uint64_t astar__cpd_work_bytes(uint32_t n, uint32_t ncells);

struct astar_cpd {
  astar_allocator alloc;  /* where every block below came from */
  const astar_grid *grid; /* identity of the grid it belongs to; never read */
  uint64_t version;       /* astar_grid_version() when built or loaded */
  int32_t width, height;  /* the grid's dimensions */
  int32_t stride;         /* width + 2 */
  uint64_t cells_sum;     /* astar__grid_cells_checksum of the grid */
  astar__cpd_order order; /* node numbering */
  uint64_t *row;          /* [n + 1] first run of each row; row[n] = runs used */
  uint32_t *runs;         /* [runs_cap] the rows' runs */
  size_t runs_cap;        /* uint32 allocated in runs (>= row[n]) */
  uint64_t *cell_row;     /* [order.ncells] each cell's row as the query reads it:
                             small rows inline, others node and offset
                             (query.c) */
  uint16_t *bucket;       /* [n * (nbuckets + 1)] per row, the run holding each
                             target bucket's first target (query.c); NULL
                             when nbuckets is 0 */
  uint32_t nbuckets;      /* target buckets a row: a power of two, or 0 */
  uint32_t bucket_shift;  /* target t is in bucket t >> bucket_shift */
};

/* Make cpd->cell_row and the buckets from the finished rows (allocates
** both). Called by every constructor once row[] and runs[] are final.
** ASTAR_OK or ASTAR_NO_MEMORY (the caller frees the object). */
astar_status astar__cpd_index(astar_cpd *cpd);

/* Bytes of cpd's buckets. */
size_t astar__cpd_bucket_bytes(const astar_cpd *cpd);

/* Bytes of the query's index for a grid of ncells padded cells. */
size_t astar__cpd_index_bytes(uint32_t ncells);

/* A CPD object for grid (whose cells checksum to cells_sum) with its node
** order made, row[] allocated for every node plus one and runs[] for nruns
** runs (0: none yet; the caller fills both). ASTAR_OK or ASTAR_NO_MEMORY
** (nothing left allocated). */
astar_status astar__cpd_alloc(astar_cpd **out, const astar_grid *grid, uint64_t cells_sum,
                              uint64_t nruns, const astar_allocator *alloc);

/* Check the runs of rows first .. first+count-1 (counts[] of them, in
** runs[] one row after another): starts increasing from 0 and below n,
** moves legal from the source, a row empty only when its source has no
** legal move (then it is alone in its component). */
bool astar__cpd_rows_valid(const astar__cpd_order *o, uint32_t first, uint32_t count,
                           const uint32_t *counts, const uint32_t *runs);

#endif /* ASTAR_CPD_INTERNAL_H */
