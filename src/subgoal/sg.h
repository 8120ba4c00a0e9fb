/*
** subgoal/sg.h -- the private layout of a subgoal graph (astar/subgoal.h)
** and what its parts share: the per-cell tables the scans read, the scan
** for direct-h-reachable subgoals, the free-line test along an arc, costs.
**
** Layout. Subgoals are numbered in row-major order of their cells. The
** graph is one adjacency array (CSR): the arcs of vertex v are
** adj[first[v] .. first[v+1]-1], its "up" arcs first (adj[first[v] ..
** first[v] + nup[v] - 1]: to vertices lowered after v or, for a top vertex,
** to the other top vertices), then its "down" arcs (to vertices lowered
** before it that keep it as an up neighbour). Every arc is stored at both
** ends. An arc is either a free octile line between its ends (amid >=
** SG_DIAG; cost the octile distance) or a shortcut over a lower vertex amid: its cost is the sum of
*the two arcs from amid to its ends, and the
** path along it is theirs (unpacked recursively). acost[] holds every
** arc's cost, derived from amid (astar__sg_costs), never saved.
** level[v] is 1 .. nlevels; the top vertices have level nlevels.
**
** Per-cell tables, derived from the grid (rebuilt on load, never saved):
**   clr[c * 4 + d], straight d (N E S W): bits 0..14 the number of steps to
**     the first cell on the ray that is blocked or a subgoal, minus one
**     (the padded border stops every ray, so it fits: at most 32768 steps);
**     bit 15 set when that cell is a subgoal. The scans read one entry a
**     ray instead of walking it.
**   sgbits / sgrank: a bitmap of the subgoal cells (padded index) and the
**     number of subgoals before each 64-cell word: a cell's subgoal number
**     is a rank (one popcount).
*/
#ifndef ASTAR_SUBGOAL_SG_H
#define ASTAR_SUBGOAL_SG_H

#include "core/internal.h"
#include "subgoal/subgoal.h"

#define SG_MAX_LEVELS 64u
#define SG_NONE UINT32_MAX
#define SG_STRAIGHT (UINT32_MAX - 1u) /* amid: a free line, straight-first only */
#define SG_DIAG (UINT32_MAX - 2u)     /* amid: a free line, diagonal-first only */
#define SG_FLAG 0x8000u               /* clr: the ray's stopper is a subgoal */

struct astar_subgoal {
  astar_allocator alloc;
  const astar_grid *grid; /* identity of its grid; never read through */
  uint64_t version;       /* astar_grid_version() when built or loaded */
  int32_t width, height, stride;
  uint32_t ncells;           /* padded cells */
  uint64_t cells_sum;        /* astar__grid_cells_checksum of the grid */
  double straight, diagonal; /* the rules' move costs, as given */
  double cs, cd;             /* the same on the search's quantum (astar__move_costs) */
  uint32_t levels_asked;     /* astar_subgoal_config.levels */
  uint32_t nlevels;          /* levels built, 1 .. SG_MAX_LEVELS */
  uint32_t n;                /* subgoals */
  uint32_t m;                /* arc entries (each undirected arc twice) */
  uint32_t *cell;            /* [n] padded index of each subgoal */
  uint32_t *xy;              /* [n] padded x | padded y << 16 */
  uint8_t *level;            /* [n] */
  uint32_t *first;           /* [n + 1] */
  uint32_t *nup;             /* [n] */
  uint32_t *adj;             /* [m] */
  uint32_t *amid;            /* [m] the vertex an arc is a shortcut over, or SG_NONE */
  double *acost;             /* [m] the arc's cost (derived: astar__sg_costs) */
  uint16_t *clr;             /* [ncells * 4] */
  uint64_t *sgbits;          /* [ncells / 64 + 1] */
  uint32_t *sgrank;          /* [ncells / 64 + 1] */
};

/* ---- costs ------------------------------------------------------------------------ */

ASTAR__INLINE uint32_t sg_pack(int32_t x, int32_t y) {
  return (uint32_t)x | (uint32_t)y << 16;
}

/* Octile distance between packed padded points with the quantised costs:
** exact, as every sum of such values ("Exact ties", astar/search.h). */
ASTAR__INLINE double sg_octile(const astar_subgoal *sg, uint32_t a, uint32_t b) {
  const int32_t ax = (int32_t)(a & 0xffffu), ay = (int32_t)(a >> 16);
  const int32_t bx = (int32_t)(b & 0xffffu), by = (int32_t)(b >> 16);
  const int32_t dx = ax > bx ? ax - bx : bx - ax, dy = ay > by ? ay - by : by - ay;
  const int32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
  return (double)(hi - lo) * sg->cs + (double)lo * sg->cd;
}

/* Which forms of a free line are free, from the arc entry's own vertex:
** both (SG_NONE), diagonal-first only (SG_DIAG), straight-first only
** (SG_STRAIGHT). Seen from the other end the two forms swap: sg_flip. */
ASTAR__INLINE uint32_t sg_flip(uint32_t mid) {
  return mid == SG_DIAG ? SG_STRAIGHT : mid == SG_STRAIGHT ? SG_DIAG : mid;
}

/* ---- cells ------------------------------------------------------------------------ */

ASTAR__INLINE bool sg_is_subgoal(const astar_subgoal *sg, uint32_t c) {
  return (sg->sgbits[c >> 6] >> (c & 63u)) & 1u;
}

/* The number of the subgoal at padded cell c (which is one). */
ASTAR__INLINE uint32_t sg_id(const astar_subgoal *sg, uint32_t c) {
  const uint64_t below = sg->sgbits[c >> 6] & ((UINT64_C(1) << (c & 63u)) - 1u);
  return sg->sgrank[c >> 6] + (uint32_t)__builtin_popcountll(below);
}

/* A new object for `grid` serving the costs of `opt`, with `levels` asked
** and its cell tables made (build.c; shared with the loader). Allocates. */
astar_status astar__sg_new(astar_subgoal **out, const astar_grid *grid, const astar_options *opt,
                           uint32_t levels, const astar_allocator *alloc);

/* The part of the tables that depends on the grid only: subgoal cells,
** bitmap, clearances, coordinates (build.c). Allocates sg->cell, sg->xy,
** sg->clr, sg->sgbits, sg->sgrank and sets sg->n. */
astar_status astar__sg_cells(astar_subgoal *sg, const astar_grid *grid);

/* The subgoals direct-h-reachable from padded cell c by the clearance scan
** (Uras, Hernandez and Koenig 2013), written to out[] (room for sg->n);
** returns how many. c itself is never listed; no subgoal twice. For every
** subgoal t listed, the diagonal-first octile line from c to t is free. */
uint32_t astar__sg_scan(const astar_subgoal *sg, const astar_grid *grid, uint32_t c, uint32_t *out);

/* Is the octile line from padded cell a to b that makes its diagonal moves
** first (diag_first) or last free (every cell passable, no corner cut)? */
bool astar__sg_path_free(const astar_grid *grid, uint32_t a, uint32_t b, bool diag_first);

/* Lower subgoals into levels (levels.c): from the SSG in first / adj (every
** vertex at level 1, nup[v] = its degree), run the rounds `levels_asked`
** asks for; rewrites first, nup, adj, level, m, nlevels. Allocates scratch
** it frees. */
astar_status astar__sg_levels(astar_subgoal *sg, const astar_grid *grid);

/* Set sg->amid of the subgoal graph's arcs (all free lines): SG_NONE,
** SG_DIAG or SG_STRAIGHT. Allocates amid. */
astar_status astar__sg_lines(astar_subgoal *sg, const astar_grid *grid);

/* Fill sg->acost from sg->amid, checking that every shortcut is over a lower vertex with
** arcs to both ends (ASTAR_PARSE_ERROR otherwise). Allocates. */
astar_status astar__sg_costs(astar_subgoal *sg);

/* The index of an arc between vertices a and b (in a's up arcs, else in
** b's), or SG_NONE. */
uint32_t astar__sg_arc(const astar_subgoal *sg, uint32_t a, uint32_t b);

/* Release what sg holds, and sg. */
void astar__sg_free(astar_subgoal *sg);

/* Bytes held from its allocator. */
size_t astar__sg_bytes(const astar_subgoal *sg);

#endif /* ASTAR_SUBGOAL_SG_H */
