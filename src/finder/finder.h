/*
** finder/finder.h -- the finder's inside (astar/finder.h): the prepared
** query, the method table's rows, and the finder's state in a workspace.
**
** A method is one file of this folder exporting an astar__method row --
** its astar_method_info, its own unsupported-reason function and its ops --
** one row of the table in methods.c and its astar_method value; nothing
** here changes for it (what it keeps besides the node records goes in
** the method scratch, astar__fscratch_method). The framework (finder.c) does
** everything the methods share: the common refusals (attachments a method
** does not take, big units, smoothing), validation, staleness, the
** workspace's growth, slicing, smoothing and the conversion of paths.
**
** Ops. A method either resumes across steps (begin / step / finish: the
** grid's A* loop, the engine) or runs whole (run: everything else); the
** framework runs a whole method inside the first step of a sliced search.
** Methods write their native kind of path: cells (most), astar_vec2
** (Anya) or nodes (the engine on a space). Every op may assume the finder
** is current, its options validated and ws grown by `reserve`.
*/
#ifndef ASTAR_FINDER_FINDER_H
#define ASTAR_FINDER_FINDER_H

#include "astar/finder.h"
#include "core/workspace.h"
#include "search/options.h"

/* Kinds of path. */
enum { ASTAR__OUT_CELLS, ASTAR__OUT_VEC, ASTAR__OUT_NODES };

/* Where a search writes its path. */
typedef struct astar__out {
  int kind;   /* ASTAR__OUT_* */
  void *buf;  /* astar_point *, astar_vec2 * or astar_node * (NULL when cap is 0) */
  size_t cap; /* entries of buf */
} astar__out;

/* Phases of a sliced finder search. */
enum { ASTAR__F_IDLE = 0, ASTAR__F_RUNNING, ASTAR__F_ENDED };

/* The workspace slot the finder's state occupies (core/workspace.h). */
#define ASTAR__FINDER_SLOT 0

/*
** The finder's state in a workspace (a slot of astar_workspace.ext), made
** on first use from the workspace's allocator and kept: what a method needs
** besides the workspace's own records (HPA*'s query, Anya's workspace, the
** engine's view of the grid or of a waypoint graph with the query's ends),
** the path scratch, and the sliced search in progress.
*/
typedef struct astar__fstate {
  /* The sliced search (astar_finder_begin ... finish). */
  const struct astar_finder *f; /* its finder (NULL: none) */
  int phase;                    /* ASTAR__F_* */
  bool whole;                   /* a whole method: run in the first step */
  astar_point start, goal;      /* its ends (grid finders) */
  astar_node nstart, ngoal;     /* its ends (space finders) */
  astar_vec2 pstart, pgoal;     /* its ends (mesh finders) */
  uint64_t version;             /* the grid's or space's version at begin */
  uint16_t gen;                 /* ws->gen after begin: the records are still ours */
  astar_status outcome;         /* ENDED: the outcome of the method */
  astar_path_result res;        /* whole methods: what the run gave */
  size_t len;                   /* whole methods: points of the path in the scratch */
  bool stored;                  /* whole methods: the path is in the scratch */
  bool early;                   /* ENDED before the method did (refused at begin, stale):
                                   res says all */
  /* The engine's views (m_engine.c): the grid as a space, a landmark
  ** wrapper, a waypoint query. `espace` is the one searched. */
  astar_grid_space gs;
  astar_space gspace;
  astar_landmarks_space_holder lmh;
  astar_space lmspace;
  astar_waypoints_query wq;
  astar_space wspace;
  const astar_space *espace;
  /* Methods' own query objects, made on first use. */
  astar_hpa_query *hpa;             /* HPA* (m_hpa.c) */
  astar_anya_workspace *anya;       /* Anya (m_anya.c) */
  struct astar__polyanya *polyanya; /* Polyanya's root table (m_polyanya.c) */
  /* The method's own scratch (astar__fscratch_method): bytes a method
  ** lays out as it likes, valid while its search runs -- grown on first
  ** use, kept, never allocated per query after that. */
  void *mem;
  size_t mem_bytes;
  const void *mem_tag; /* who laid the scratch out last (astar__fscratch_method_tagged);
                          NULL: unknown */
  /* The path scratch: a whole method's path between step and finish, the
  ** grid path a smoothing shortens, cells turned into vectors. */
  astar_point *pts;
  size_t pts_cap;
  astar_vec2 *vec;
  size_t vec_cap;
} astar__fstate;

/* The operations of a method (see the top of this file). */
typedef struct astar__ops {
  /* Native kind of path (ASTAR__OUT_*). */
  int native;
  /* Grow ws (and the state) for a search of f: allocation on first use only. */
  astar_status (*reserve)(const struct astar_finder *f, astar_workspace *ws, astar__fstate *s);
  /* Resumable methods: begin on s's ends; step up to budget units of work
  ** (*work: done); finish into out with res filled (res->work excepted). */
  astar_status (*begin)(const struct astar_finder *f, astar_workspace *ws, astar__fstate *s);
  astar_status (*step)(const struct astar_finder *f, astar_workspace *ws, astar__fstate *s,
                       uint64_t budget, uint64_t *work);
  astar_status (*finish)(const struct astar_finder *f, astar_workspace *ws, astar__fstate *s,
                         const astar__out *out, astar_path_result *res);
  /* Whole methods: the search from s's ends into out, res filled (work
  ** included). */
  astar_status (*run)(const struct astar_finder *f, astar_workspace *ws, astar__fstate *s,
                      const astar__out *out, astar_path_result *res);
} astar__ops;

/* What a method's reason function sees. */
typedef struct astar__fcheck {
  const astar_grid *grid;         /* grid finders: the grid (NULL for a space) */
  const astar_space *space;       /* space finders: the space */
  const astar_finder_config *cfg; /* the config */
  bool engine;                    /* the engine runs it (space, waypoints, engine-only method) */
  const astar_mesh *mesh;         /* mesh finders: the mesh (grid and space NULL) */
} astar__fcheck;

/* One row of the method table. */
typedef struct astar__method {
  astar_method_info info;
  /* The method's own refusals beyond the framework's; NULL: none. */
  const char *(*unsupported)(const astar__fcheck *c);
  /* Resolve f->opt / f->eo for the method (after validation); NULL: as is. */
  void (*prepare)(struct astar_finder *f);
  /* The method's ops; NULL for the engine's methods (astar__engine_ops).
  ** On a space (ASTAR_MF_SPACE) the engine runs the methods it has (values
  ** below ASTAR_METHOD_ENGINE_COUNT); any other runs these ops, which
  ** then see f->is_space and write nodes. */
  const astar__ops *ops;
} astar__method;

/* A prepared query (astar/finder.h). */
struct astar_finder {
  astar_allocator alloc;        /* the finder's (and its derived grid's) allocator */
  astar_finder_config cfg;      /* the caller's config, copied */
  const astar__method *m;       /* its table row */
  const astar__ops *ops;        /* the ops that run it: the row's, or the engine's */
  bool engine;                  /* the engine runs it */
  const astar_grid *base;       /* the caller's grid; NULL for a space finder */
  const astar_grid *grid;       /* the grid searched: base, or the derived grid */
  astar_grid *derived;          /* a big unit's grid (owned), or NULL */
  astar_capability capability;  /* the unit's (cfg.capability, 0 read as ALL) */
  astar_space space;            /* a space finder's space (a copy of the value) */
  bool is_space;                /* made by astar_finder_new_space */
  const astar_mesh *mesh;       /* a mesh finder's mesh (astar_finder_new_mesh), else NULL */
  const astar_subgoal *subgoal; /* a subgoal finder's graph (astar_finder_new_subgoal), else
                                   NULL: an attachment that is no field of cfg */
  astar_mesh_observer_fn mesh_observer; /* astar_finder_set_mesh_observer; NULL: none */
  void *mesh_observer_ctx;
  astar_options opt;       /* resolved and validated: what the grid loops take */
  astar_engine_options eo; /* resolved and validated: what the engine takes */
  unsigned reserve;        /* ASTAR_RESERVE_* the engine's method needs */
  bool versioned;          /* attachments: stale once the grid's (space's) version moves */
  uint64_t version;        /* base's (or the space's) version when made or refreshed */
  uint64_t types_version;  /* the clearance's type edits then (big units) */
};

/* Prepare `cfg` (a one-cell unit: no clearance) for `grid` in the caller's
** storage *f, as astar_finder_new does but without allocating: the
** request queue keeps a finder in each request slot. Released by dropping
** the storage (never astar_finder_free). Statuses as astar_finder_new;
** ASTAR_INVALID_ARGUMENT also for a NULL or cfg->clearance set. */
astar_status astar__finder_init(struct astar_finder *f, const astar_grid *grid,
                                const astar_finder_config *cfg);

/* The table (methods.c, where the rows are declared): the row of `m`,
** NULL for a value that is no method. */
const astar__method *astar__method_row(astar_method m);

/* The engine's ops (m_engine.c), shared by every engine method. */
extern const astar__ops astar__engine_ops;

/* ---- helpers the methods share (finder.c) ------------------------------- */

/* res cleared for a search that ends with `st` before producing anything. */
void astar__fres_clear(astar_path_result *res, astar_status st);

/* The grid searches' result as the finder's (status st). */
void astar__fres_from_grid(astar_path_result *res, const astar_result *r, astar_status st);

/* Write a path of n cells to out (cells: copied; vectors: cell centres),
** or ASTAR_BUFFER_TOO_SMALL when it does not fit; ASTAR_OK otherwise. */
astar_status astar__fout_cells(const astar__out *out, const astar_point *pts, size_t n);

/* Grow the state's cell scratch to n points (kept; allocation only when
** growing). ASTAR_OK or ASTAR_NO_MEMORY. */
astar_status astar__fscratch_cells(astar_workspace *ws, astar__fstate *s, size_t n);

/* The same for the vector scratch. */
astar_status astar__fscratch_vec(astar_workspace *ws, astar__fstate *s, size_t n);

/* The method's scratch of at least `bytes` bytes in *out (kept; allocation
** only when growing, and then the old contents are gone). Aligned for any
** type. ASTAR_OK or ASTAR_NO_MEMORY. A method calls it from its reserve op,
** so that its searches allocate nothing; every method shares the one
** block, since one search at a time runs on a workspace. */
astar_status astar__fscratch_method(astar_workspace *ws, astar__fstate *s, size_t bytes,
                                    void **out);

/* The same for a method that keeps data in the scratch from one search to
** the next (search generations, a layout): *fresh (not NULL) is set when
** the block's contents are not what the method tagged `tag` left there --
** the block is new or grew, or astar__fscratch_method or another tag had it
** since -- and the block is tagged `tag`. */
astar_status astar__fscratch_method_tagged(astar_workspace *ws, astar__fstate *s, size_t bytes,
                                           const void *tag, void **out, bool *fresh);

/* The grid loops' common reservation: node records for f's grid, and turn
** states with a turn penalty. */
astar_status astar__freserve_grid(const astar_finder *f, astar_workspace *ws, astar__fstate *s);

/* What astar__fgame_loop_refusal lets through: the bits of the rows of the
** table of options (search/options.h) a method honours. */
#define ASTAR__FG_PARTIAL ASTAR__OPT_BIT(PARTIAL)   /* options.partial */
#define ASTAR__FG_STOP ASTAR__OPT_BIT(STOP)         /* options.stop_fn */
#define ASTAR__FG_OBSERVER ASTAR__OPT_BIT(OBSERVER) /* options.observer */
#define ASTAR__FG_LIMIT ASTAR__OPT_BIT(LIMIT)       /* options.max_expansions */

/* The first option of the table (search/options.h: layers, knowledge,
** islands, a turn penalty, a terrain scale, partial paths, stop_fn, the
** observer, an expansion limit, max_cost, ...) in use that the method does
** not honour -- `allow` names those it does -- as a sentence (static
** storage), or NULL. A new row is refused by every method that does not
** name it. Methods add their own refusals. */
const char *astar__fgame_loop_refusal(const astar_options *o, unsigned allow);

/* The kind of path f's method writes: the space's nodes, or its ops'. */
ASTAR__INLINE int astar__fnative(const struct astar_finder *f);

/* The engine's refusals (m_engine.c), for every method it runs. */
const char *astar__engine_unsupported(const astar__fcheck *c);

/* Does a precomputation belong to `grid` as it is now (and to the rules of
** `o`)? ASTAR_OK, ASTAR_MISMATCH or ASTAR_STALE (m_cpd.c, m_hpa.c). */
astar_status astar__cpd_check(const astar_cpd *cpd, const astar_grid *grid);
astar_status astar__hpa_fits(const astar_hpa *hpa, const astar_grid *grid, const astar_options *o);

ASTAR__INLINE int astar__fnative(const struct astar_finder *f) {
  return f->is_space ? ASTAR__OUT_NODES : f->ops->native;
}

#endif /* ASTAR_FINDER_FINDER_H */
