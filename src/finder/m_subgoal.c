/*
** finder/m_subgoal.c -- A* over a subgoal graph (src/subgoal/), run whole.
** The graph is no field of the config (its layout is 0.1.0's): the finder
** holds it (astar_finder_new_subgoal), checked against the grid and the
** rules when made and stale after an edit, as the attachments are. The
** search's per-query scratch (its node records over the graph's vertices)
** lives in the method scratch of the workspace's finder state, laid out by
** the graph's code, so a query allocates nothing once the workspace grew.
*/
#include "finder/finder.h"
#include "subgoal/subgoal.h"

#include <stdint.h>
#include <string.h>

extern const astar__method astar__m_subgoal;

/* Only reached with a graph (the framework asks for one first): the
** graph's rules, then the options it cannot honour. */
static const char *unsupported(const astar__fcheck *c) {
  const astar_finder_config *cfg = c->cfg;
  if (cfg->clearance || cfg->capability)
    return "subgoal: the graph serves one-cell units on its own grid: drop cfg.clearance and "
           "cfg.capability";
  if (cfg->smooth)
    return "subgoal: its paths are optimal grid paths already; smoothing them is not offered "
           "(drop cfg.smooth, or smooth the path with astar_path_smooth)";
  const char *why = astar_subgoal_unsupported_reason(c->grid, &cfg->options);
  return why ? why : astar__fgame_loop_refusal(&cfg->options, ASTAR__FG_LIMIT);
}

/* The search's scratch, 16-byte aligned inside the method scratch (whose
** block is aligned for any type, which may be 8 bytes on some targets),
** zeroed when it was not the graph's search that laid it out last. */
static astar_status scratch(astar_workspace *ws, astar__fstate *s, const astar_subgoal *sg,
                            void **mem, size_t *bytes) {
  const size_t want = astar__subgoal_scratch_bytes(sg);
  if (want > SIZE_MAX - 16) return ASTAR_NO_MEMORY;
  void *block;
  bool fresh = false;
  const astar_status st =
      astar__fscratch_method_tagged(ws, s, want + 16, &astar__m_subgoal, &block, &fresh);
  if (st != ASTAR_OK) return st;
  const uintptr_t p = (uintptr_t)block;
  unsigned char *aligned = (unsigned char *)block + ((16 - (p & 15u)) & 15u);
  if (fresh) memset(aligned, 0, want);
  *mem = aligned;
  *bytes = want;
  return ASTAR_OK;
}

static astar_status reserve(const astar_finder *f, astar_workspace *ws, astar__fstate *s) {
  void *mem;
  size_t bytes;
  return scratch(ws, s, f->subgoal, &mem, &bytes);
}

static astar_status run(const astar_finder *f, astar_workspace *ws, astar__fstate *s,
                        const astar__out *out, astar_path_result *res) {
  void *mem;
  size_t bytes;
  astar_status st = scratch(ws, s, f->subgoal, &mem, &bytes);
  if (st != ASTAR_OK) {
    astar__fres_clear(res, st);
    return st;
  }
  astar_result r;
  memset(&r, 0, sizeof r);
  r.end = (astar_point){-1, -1};
  st = astar__subgoal_find_path(f->subgoal, f->grid, mem, bytes, f->opt.max_expansions, s->start,
                                s->goal, out->buf, out->cap, &r);
  astar__fres_from_grid(res, &r, st);
  return st;
}

static const astar__ops ops = {ASTAR__OUT_CELLS, reserve, NULL, NULL, NULL, run};

const astar__method astar__m_subgoal = {
    {ASTAR_METHOD_SUBGOAL, "subgoal",
     "Subgoal graphs (N-level): A* over precomputed obstacle corners, optimal",
     ASTAR_MF_OPTIMAL | ASTAR_MF_GRID | ASTAR_MF_NEEDS_PREP, ASTAR_ATTACH_SUBGOAL,
     ASTAR_ATTACH_SUBGOAL, "subgoals expanded"},
    unsupported,
    NULL,
    &ops};
