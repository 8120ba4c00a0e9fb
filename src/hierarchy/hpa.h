/*
** hpa.h -- the HPA* object's layout (astar/hierarchy.h) shared by its
** build, update, save/load and query modules, and the small indexed heap
** their Dijkstras and A* searches use. Nothing here is public API.
**
** Storage. Clusters own their data: a level-1 cluster its node cells (sorted
** by cell index), the border crossings of each node and the n x n matrix of
** in-cluster costs; a level-l cluster (l >= 2) its node cells and matrix.
** These are the canonical content (what save writes, what update recomputes
** for the touched clusters only). The flat arrays (node ids, per-level
** local indices, crossings by node id) are derived from them by
** astar__hpa_assemble after every build, update or load.
*/
#ifndef ASTAR_HPA_H
#define ASTAR_HPA_H

#include "core/idheap.h"
#include "core/internal.h"

#include <math.h>

#define HPA_NONE UINT32_MAX

/* One cluster of one level. */
typedef struct hpa_cluster {
  uint32_t n;      /* nodes of this cluster at its level */
  uint32_t *cell;  /* [n] node cells, y * width + x, increasing */
  double *cost;    /* [n * n] cost[i * n + j]: i -> j inside the cluster, INFINITY if none */
  uint32_t *xoff;  /* level 1 only: [n + 1] crossings of node i are xoff[i] .. xoff[i+1]-1 */
  uint32_t *xcell; /* level 1 only: [xoff[n]] the cell across the border */
  double *xout;    /* level 1 only: cost of the move node -> xcell */
  double *xin;     /* level 1 only: cost of the move xcell -> node */
  uint32_t *adj;   /* derived, top level only (assemble): [n + 1 + nadj - n - 1] the intra
                      arcs a search needs, CSR: targets of i are adj[n + 1 + adj[i]] ..
                      adj[n + 1 + adj[i+1] - 1], increasing; an arc i -> j is left out
                      when some k gives cost i -> k -> j <= cost i -> j with both parts
                      positive and cheaper (distances are kept) */
  uint32_t nadj;   /* entries of adj (0: not derived yet) */
  uint32_t ent;    /* level 1 only: entrances on its east and south borders (and its
                      diagonal crossings toward larger cells) */
} hpa_cluster;

typedef struct hpa_level {
  int32_t side;     /* cluster side in cells */
  int32_t ncx, ncy; /* clusters across, down */
  hpa_cluster *cl;  /* [ncx * ncy] row-major */
  uint32_t *gid;    /* derived: node ids of every cluster's nodes, cluster by cluster */
  uint32_t *goff;   /* derived: [ncx * ncy + 1] offsets into gid */
  uint32_t *lidx;   /* derived: [node count] local index in its cluster, HPA_NONE if absent */
  uint64_t arcs;    /* derived: arcs of this level */
  uint32_t nodes;   /* derived: nodes of this level */
} hpa_level;

struct astar_hpa {
  astar_allocator alloc;              /* where every block came from */
  size_t bytes;                       /* bytes held */
  const astar_grid *grid;             /* identity of the grid built for (not owned) */
  uint64_t version;                   /* astar_grid_version when built / loaded / updated */
  int32_t width, height;              /* grid size */
  int moves;                          /* 4 or 8 */
  astar_corner corner;                /* corner rule */
  double sc, dc;                      /* straight and diagonal move costs */
  uint8_t move[256];                  /* directions allowed from a cell by its neighbour
                                         byte, under moves and corner (astar__move_table) */
  double min_terrain;                 /* heuristic scale: the grid's smallest terrain */
  astar_hpa_options hopt;             /* build settings */
  int32_t levels;                     /* 1 .. ASTAR_HPA_MAX_LEVELS */
  hpa_level lv[ASTAR_HPA_MAX_LEVELS]; /* [0] = level 1 */
  uint32_t entrances;                 /* level-1 entrances */
  uint64_t rebuilt;                   /* level-1 clusters recomputed by the last build / update */
  /* Derived (assemble). */
  uint32_t nnodes;     /* abstract nodes (all level-1 nodes) */
  uint32_t *ncell;     /* [nnodes] cell of each node */
  uint8_t *nlevel;     /* [nnodes] highest level the node belongs to (1-based) */
  uint32_t *xoff;      /* [nnodes + 1] crossings by node */
  uint32_t *xto;       /* node id across */
  double *xout, *xin;  /* move costs out / in */
  uint32_t max_degree; /* most top-level successors of a node, + 1 for the goal */
  uint32_t max_local;  /* most level-(l-1) nodes inside one level-l cluster, l >= 2 (0 with
                          one level): the size of a query's level-by-level searches */
};

/* Cluster index at level l (0-based) of cell (x, y). */
static inline uint32_t astar__hpa_cluster_of(const astar_hpa *h, int l, int32_t x, int32_t y) {
  const hpa_level *L = &h->lv[l];
  return (uint32_t)(y / L->side) * (uint32_t)L->ncx + (uint32_t)(x / L->side);
}

/* Tracked allocation (h->bytes). */
void *astar__hpa_alloc(astar_hpa *h, size_t n, size_t size);
void astar__hpa_free(astar_hpa *h, void *p, size_t n, size_t size);
/* Free what a cluster holds (level 1 with crossings when level1). */
void astar__hpa_cluster_clear(astar_hpa *h, hpa_cluster *c, bool level1);
/* Object with settings and level geometry, no clusters content (arrays zeroed). */
astar_status astar__hpa_create(astar_hpa **out, const astar_grid *grid, const astar_options *opt,
                               const astar_hpa_options *hopt, const astar_allocator *alloc);
/* Derive the flat arrays from the clusters. ASTAR_OK or ASTAR_NO_MEMORY (then unchanged).
** Clusters naming cells that are no level-1 node (only bytes of a bad load) leave
** HPA_NONE ids behind: astar__hpa_check finds them. */
astar_status astar__hpa_assemble(astar_hpa *h);
/* Is the assembled graph whole: every id resolved, every crossing between adjacent
** cells, present at every level it crosses, every cost >= 0 (or INFINITY)? */
bool astar__hpa_check(const astar_hpa *h);
/* Cost of the legal move a -> b (adjacent cells), or INFINITY when illegal. */
double astar__hpa_step(const astar_hpa *h, const astar_grid *g, int32_t ax, int32_t ay, int32_t bx,
                       int32_t by);
/* Grid checksum over dimensions, passability and terrain bits. */
uint64_t astar__hpa_grid_sum(const astar_grid *g);

/* ---- the build and query Dijkstras' heap: core/idheap.h, HPA_NONE for absent ---- */
typedef astar__idheap hpa_heap;

/* Insert id (pos HPA_NONE), or restore order after its key decreased. */
ASTAR__INLINE void astar__hpa_push(hpa_heap *q, uint32_t id) {
  if (q->pos[id] == HPA_NONE)
    astar__idheap_insert(q, id);
  else
    astar__idheap_up(q, q->pos[id]);
}

/* Remove and return the least id; it is absent again. */
ASTAR__INLINE uint32_t astar__hpa_pop(hpa_heap *q) {
  const uint32_t top = astar__idheap_pop(q);
  q->pos[top] = HPA_NONE;
  return top;
}

/*
** Dijkstra over the cells of the rectangle [rx, rx+rw) x [ry, ry+rh) from
** (sx, sy); backward: dist is the cost of reaching (sx, sy). dist[rw * rh]
** receives the costs (INFINITY: unreached); heap buffers h and pos of rw*rh;
** par (NULL: not kept) each reached cell's predecessor in the search,
** HPA_NONE at (sx, sy). Returns cells settled.
*/
uint64_t astar__hpa_rect_dijkstra(const astar_hpa *hp, const astar_grid *g, int32_t rx, int32_t ry,
                                  int32_t rw, int32_t rh, int32_t sx, int32_t sy, bool backward,
                                  double *dist, uint32_t *hbuf, uint32_t *pos, uint32_t *par);

#endif /* ASTAR_HPA_H */
