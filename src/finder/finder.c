/*
** finder/finder.c -- the prepared query (astar/finder.h): what every
** method shares. A finder is checked once -- the options validated, the
** method's refusals asked, the attachments compared with the grid and the
** rules -- and every search afterwards calls the methods' entry points for
** validated options (search/checked.h and the like): no validation a
** query. The finder's state in a workspace (finder/finder.h) holds what
** the methods need besides the workspace's records, made on first use.
*/
#include "engine/engine.h"
#include "finder/finder.h"
#include "gameloop/layers.h"
#include "grid/clearance.h"
#include "heuristics/lm_table.h"
#include "mesh/polyanya.h"
#include "paths/checked.h"
#include "search/checked.h"
#include "spaces/waypoints.h"
#include "subgoal/subgoal.h"

#include <math.h>
#include <string.h>

/* ---- the config and the table -------------------------------------------------- */

void astar_finder_config_init(astar_finder_config *cfg) {
  if (!cfg) return;
  memset(cfg, 0, sizeof *cfg);
  cfg->method = ASTAR_METHOD_ASTAR;
  astar_options_init(&cfg->options);
  astar_engine_options_init(&cfg->engine);
  cfg->unit_size = 1;
}

const char *astar_method_name(astar_method method) {
  if ((unsigned)method < ASTAR_METHOD_ENGINE_COUNT) return astar__engine_method_name(method);
  const astar__method *m = astar__method_row(method);
  return m ? m->info.name : NULL;
}

const astar_method_info *astar_method_info_of(astar_method method) {
  const astar__method *m = astar__method_row(method);
  return m ? &m->info : NULL;
}

astar_status astar_method_from_name(const char *name, astar_method *out) {
  if (!name || !out) return ASTAR_INVALID_ARGUMENT;
  for (int i = 0; i < ASTAR_METHOD_COUNT; i++) {
    const astar_method m = (astar_method)i;
    const astar__method *row = astar__method_row(m);
    const char *other = astar_method_name(m);
    if ((row && strcmp(row->info.name, name) == 0) || (other && strcmp(other, name) == 0)) {
      *out = m;
      return ASTAR_OK;
    }
  }
  return ASTAR_INVALID_ARGUMENT;
}

/* ---- refusals ------------------------------------------------------------------- */

/* The attachments of a config (and a subgoal finder's graph, which is an
** argument, not a field: the config's layout is 0.1.0's), as
** ASTAR_ATTACH_* bits. */
static unsigned attached(const astar_finder_config *c, const astar_subgoal *sg) {
  return (sg ? ASTAR_ATTACH_SUBGOAL : 0u) | (c->jps_plus ? ASTAR_ATTACH_JPS_PLUS : 0u) |
         (c->cpd ? ASTAR_ATTACH_CPD : 0u) | (c->hpa ? ASTAR_ATTACH_HPA : 0u) |
         (c->landmarks ? ASTAR_ATTACH_LANDMARKS : 0u) | (c->table ? ASTAR_ATTACH_TABLE : 0u) |
         (c->waypoints ? ASTAR_ATTACH_WAYPOINTS : 0u);
}

/* Bit i of ASTAR_ATTACH_*: what the method lacks, and what it does not use. */
static const char *const needs_text[] = {
    "jps-plus needs its table: attach cfg.jps_plus (astar_jps_plus_new)",
    "cpd needs its database: attach cfg.cpd (astar_cpd_build)",
    "hpa needs its hierarchy: attach cfg.hpa (astar_hpa_new)",
    "this method needs cfg.landmarks",
    "this method needs cfg.table",
    "this method needs cfg.waypoints",
    "subgoal: needs a subgoal graph (make the finder with astar_finder_new_subgoal)"};
static const char *const unused_text[] = {
    "cfg.jps_plus is attached, but only jps-plus uses it (detach it, or choose jps-plus)",
    "cfg.cpd is attached, but only cpd uses it (detach it, or choose cpd)",
    "cfg.hpa is attached, but only hpa uses it (detach it, or choose hpa)",
    "cfg.landmarks is attached, but this method uses no heuristic it could improve (detach it; "
    "astar and the engine's methods with a heuristic take it)",
    "cfg.table is attached, but only astar on the grid's own loop uses it (detach it, or choose "
    "astar)",
    "cfg.waypoints is attached, but only the engine's methods search a waypoint graph (detach it, "
    "or choose astar, dijkstra, greedy, bidir, ...)",
    "a subgoal graph is given, but only subgoal searches it"};

/* Does the engine run `m` for this config? */
static bool runs_on_engine(const astar__method *m, const astar_grid *grid,
                           const astar_finder_config *cfg) {
  if (m->info.flags & ASTAR_MF_MESH) return false;
  if (!grid) return (unsigned)m->info.method < ASTAR_METHOD_ENGINE_COUNT || !m->ops;
  return !m->ops || (cfg->waypoints && (m->info.takes & ASTAR_ATTACH_WAYPOINTS));
}

const char *astar__fgame_loop_refusal(const astar_options *o, unsigned allow) {
  return astar__options_refusal(o, allow);
}

/* A mesh finder's refusals (astar_finder_new_mesh), then the method's. */
static const char *mesh_reason(const astar__method *m, const astar_mesh *mesh,
                               const astar_finder_config *cfg) {
  if (!(m->info.flags & ASTAR_MF_MESH))
    return "a navigation mesh takes the mesh methods only (polyanya, funnel); this one searches "
           "a grid or a space";
  if (attached(cfg, NULL))
    return "a mesh finder takes no precomputation: detach cfg's jps_plus, cpd, hpa, landmarks, "
           "table and waypoints";
  if (cfg->clearance || cfg->unit_size != 1 || cfg->capability)
    return "units and capabilities are for grid finders: build the mesh with the unit's radius "
           "(astar_navmesh_options.radius)";
  if (cfg->smooth) return "mesh paths are taut or string-pulled already: drop cfg.smooth";
  if (cfg->engine.partial)
    return "mesh finders give no partial paths: leave cfg.engine.partial false";
  if (cfg->engine.observer)
    return "mesh searches report through astar_finder_set_mesh_observer, not "
           "cfg.engine.observer";
  const astar__fcheck c = {NULL, NULL, cfg, false, mesh};
  return m->unsupported ? m->unsupported(&c) : NULL;
}

/* The framework's refusals, then the method's. `sg`: a subgoal finder's
** graph (NULL for the other finders). */
static const char *reason(const astar_grid *grid, const astar_space *space, const astar_mesh *mesh,
                          const astar_subgoal *sg, const astar_finder_config *cfg) {
  if (!cfg) return "no config (astar_finder_config_init)";
  if (!grid && !space && !mesh) return "no grid, space or mesh to search";
  const astar__method *m = astar__method_row(cfg->method);
  if (!m) return "unknown method (astar_method)";
  if (mesh) return mesh_reason(m, mesh, cfg);
  if (m->info.flags & ASTAR_MF_MESH)
    return "this method searches a navigation mesh: prepare it on one (astar_finder_new_mesh); "
           "a grid or a space takes the other methods";
  if (!grid && !(m->info.flags & ASTAR_MF_SPACE))
    return "this method searches a square grid with its own loops: prepare it on a grid "
           "(astar_finder_new); a space takes the engine's methods (astar, dijkstra, greedy, "
           "bidir, ida, beam, dynamic, bandwidth, f2f, retarget)";
  const unsigned have = attached(cfg, sg);
  if (!grid) {
    if (cfg->clearance || cfg->unit_size != 1 || cfg->capability)
      return "units and capabilities are for grid finders: a space has no cells";
    if (cfg->smooth) return "smoothing string-pulls grid paths: a space has no lines of sight";
    if (have & ~(unsigned)ASTAR_ATTACH_LANDMARKS)
      return "a space finder takes cfg.landmarks only: the other precomputations belong to a "
             "grid";
  } else {
    if ((cfg->unit_size > 1 || cfg->capability) && !cfg->clearance)
      return "a unit bigger than one cell, or with a capability, needs cfg.clearance "
             "(astar_clearance_new)";
    if (cfg->unit_size > 1 && have)
      return "a precomputation belongs to the map's grid, but a unit bigger than one cell "
             "searches a grid of its own: detach it";
    if (cfg->unit_size > 1 && (m->info.flags & ASTAR_MF_ANY_ANGLE))
      return "any-angle paths are for one-cell units: lines of sight of a point would let a "
             "bigger unit clip corners";
    if (cfg->unit_size > 1 && cfg->smooth)
      return "smoothing is for one-cell units: lines of sight of a point would let a bigger "
             "unit clip corners";
    if (cfg->smooth && (m->info.flags & ASTAR_MF_VEC))
      return "anya: its path is taut already (drop cfg.smooth)";
  }
  for (unsigned b = 0; b < sizeof needs_text / sizeof needs_text[0]; b++) {
    const unsigned bit = 1u << b;
    if ((m->info.needs & bit) && !(have & bit)) return needs_text[b];
    if ((have & bit) && !(m->info.takes & bit)) return unused_text[b];
  }
  if (cfg->landmarks && cfg->table)
    return "one heuristic at a time: attach cfg.landmarks or cfg.table, not both";
  if (cfg->waypoints && cfg->landmarks)
    return "a waypoint graph has its own heuristic, the straight-line distance: detach "
           "cfg.landmarks";
  const bool engine = runs_on_engine(m, grid, cfg);
  if (cfg->table && engine)
    return "cfg.table is the heuristic of astar on the grid's own loop, not over a waypoint "
           "graph";
  const astar__fcheck c = {grid, grid ? NULL : space, cfg, engine, NULL};
  if (engine) return astar__engine_unsupported(&c);
  return m->unsupported ? m->unsupported(&c) : NULL;
}

const char *astar_finder_unsupported_reason(const astar_grid *grid, const astar_space *space,
                                            const astar_finder_config *cfg) {
  return reason(grid, grid ? NULL : space, NULL, NULL, cfg);
}

/* A subgoal finder's config: the caller's (or the defaults), its method
** subgoal whatever cfg->method says. */
static void subgoal_config(astar_finder_config *out, const astar_finder_config *cfg) {
  if (cfg)
    *out = *cfg;
  else
    astar_finder_config_init(out);
  out->method = ASTAR_METHOD_SUBGOAL;
}

const char *astar_finder_subgoal_unsupported_reason(const astar_grid *grid,
                                                    const astar_finder_config *cfg) {
  if (!grid) return "no grid to search";
  astar_finder_config c;
  subgoal_config(&c, cfg);
  /* Any non-NULL graph: the refusals look at its presence, never into it. */
  static const char standin;
  return reason(grid, NULL, NULL, (const astar_subgoal *)(const void *)&standin, &c);
}

const char *astar_finder_mesh_unsupported_reason(const astar_mesh *mesh,
                                                 const astar_finder_config *cfg) {
  if (!mesh) return "no mesh to search";
  return reason(NULL, NULL, mesh, NULL, cfg);
}

/* ---- attachments ------------------------------------------------------------------ */

/* Do the attachments belong to `grid` as it is now and to the rules of
** `o`? ASTAR_OK, ASTAR_MISMATCH or ASTAR_STALE (the first found). */
static astar_status check_attachments(const astar_finder_config *cfg, const astar_subgoal *sg,
                                      const astar_grid *grid, const astar_options *o) {
  astar_status st = ASTAR_OK;
  if (sg) st = astar__subgoal_fits(sg, grid, o);
  if (st == ASTAR_OK && cfg->jps_plus) st = astar__jps_plus_check(cfg->jps_plus, grid);
  if (st == ASTAR_OK && cfg->cpd) st = astar__cpd_check(cfg->cpd, grid);
  if (st == ASTAR_OK && cfg->hpa) st = astar__hpa_fits(cfg->hpa, grid, o);
  if (st == ASTAR_OK && cfg->landmarks) {
    st = astar_landmarks_current(cfg->landmarks, grid);
    if (st == ASTAR_OK && !astar__landmarks_rules_match(cfg->landmarks, o)) st = ASTAR_MISMATCH;
  }
  if (st == ASTAR_OK && cfg->table) st = astar_waypoint_table_check(cfg->table, grid, o);
  if (st == ASTAR_OK && cfg->waypoints) {
    st = astar_waypoints_check(cfg->waypoints, grid);
    if (st == ASTAR_OK && !astar__waypoints_rules_match(cfg->waypoints, o)) st = ASTAR_MISMATCH;
  }
  if (st == ASTAR_OK && cfg->clearance) st = astar__clearance_check(cfg->clearance, grid);
  return st;
}

/* ---- making a finder -------------------------------------------------------------- */

/* The engine's options for a grid finder: the search's settings from the
** grid options, the variants' own from cfg.engine. */
static void engine_options_of(astar_engine_options *eo, const astar_finder_config *cfg, bool grid) {
  *eo = cfg->engine;
  eo->method = cfg->method;
  if (!grid) return;
  const astar_options *o = &cfg->options;
  eo->weight = o->weight;
  eo->tie = o->tie;
  eo->reopen = o->reopen;
  eo->max_expansions = o->max_expansions;
  eo->partial = o->partial;
  eo->stop_fn = o->stop_fn;
  eo->stop_ctx = o->stop_ctx;
  eo->stop_interval = o->stop_interval;
}

/* What astar_workspace_reserve_space reserves besides the forward search. */
static unsigned reservation(astar_method m) {
  switch (m) {
  case ASTAR_METHOD_FRONT_TO_FRONT:
    return ASTAR_RESERVE_FRONT_TO_FRONT;
  case ASTAR_METHOD_BIDIRECTIONAL:
  case ASTAR_METHOD_RETARGETING:
  case ASTAR_METHOD_BEAM:
    return ASTAR_RESERVE_BACKWARD;
  default:
    return 0;
  }
}

/* The version a finder follows: the grid's, or the space's version op. */
static uint64_t version_now(const astar_finder *f) {
  if (f->mesh) return astar_mesh_version(f->mesh);
  if (!f->is_space) return f->base->version;
  return f->space.ops->version ? f->space.ops->version(f->space.self) : 0;
}

void astar_finder_free(astar_finder *f) {
  if (!f) return;
  const astar_allocator a = f->alloc;
  astar_grid_free(f->derived);
  astar__free(&a, f, sizeof *f);
}

/* Check `cfg` for `grid` (or `space`) and set *f up from it (every field
** but the derived grid: the caller's storage, cleared here). No allocation. */
static astar_status setup_finder(astar_finder *f, const astar_grid *grid, const astar_space *space,
                                 const astar_mesh *mesh, const astar_subgoal *sg,
                                 const astar_finder_config *cfg, const astar_allocator *alloc) {
  if (!cfg || (!grid && !space && !mesh)) return ASTAR_INVALID_ARGUMENT;
  if (!grid && !mesh && astar_space_validate(space) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
  const astar__method *m = astar__method_row(cfg->method);
  if (!m) return ASTAR_INVALID_ARGUMENT;
  /* Values first: every option validated here, once for every query. */
  astar_options o = cfg->options;
  o.algorithm = ASTAR_ALGO_ASTAR; /* `method` decides */
  if (grid) {
    if (astar_options_validate(&o) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
    for (size_t i = 0; i < o.nlayers; i++)
      if (!astar__layer_fits(o.layers[i], grid)) return ASTAR_INVALID_ARGUMENT;
    if (o.knowledge && !astar__knowledge_fits(o.knowledge, grid)) return ASTAR_INVALID_ARGUMENT;
    if (cfg->unit_size < 1 || cfg->unit_size > ASTAR_CLEARANCE_MAX) return ASTAR_INVALID_ARGUMENT;
    if (cfg->clearance &&
        (cfg->unit_size > astar_clearance_max_size(cfg->clearance) ||
         astar_clearance_at(cfg->clearance, 0, 0,
                            cfg->capability ? cfg->capability : ASTAR_CAPABILITY_ALL) < 0))
      return ASTAR_INVALID_ARGUMENT;
  }
  const bool engine = runs_on_engine(m, grid, cfg);
  astar_engine_options eo;
  engine_options_of(&eo, cfg, grid != NULL);
  /* A space finder always takes cfg.engine, whoever runs its method. */
  if ((engine || !grid) && astar_engine_options_validate(&eo) != ASTAR_OK)
    return ASTAR_INVALID_ARGUMENT;
  if (reason(grid, space, mesh, sg, cfg)) return ASTAR_UNSUPPORTED;
  astar_status st = ASTAR_OK;
  if (grid) {
    st = check_attachments(cfg, sg, grid, &o);
  } else if (cfg->landmarks && space) {
    st = astar_landmarks_space_current(cfg->landmarks, space);
    if (st == ASTAR_INVALID_ARGUMENT) st = ASTAR_MISMATCH;
  }
  if (st != ASTAR_OK) return st;

  memset(f, 0, sizeof *f);
  astar__alloc_init(&f->alloc, alloc);
  f->cfg = *cfg;
  f->m = m;
  f->engine = engine;
  f->ops = engine ? &astar__engine_ops : m->ops;
  f->base = grid;
  f->grid = grid;
  f->is_space = space != NULL && grid == NULL;
  f->mesh = mesh;
  f->subgoal = sg;
  if (f->is_space) f->space = *space;
  f->opt = o;
  f->eo = eo;
  f->reserve = reservation(cfg->method);
  f->capability = cfg->capability ? cfg->capability : ASTAR_CAPABILITY_ALL;
  f->versioned = attached(cfg, sg) != 0 || cfg->clearance != NULL;
  return ASTAR_OK;
}

/* The last of a finder's setting up: its version, the method's resolution. */
static void setup_done(astar_finder *f) {
  f->version = version_now(f);
  if (f->m->prepare && !f->engine) f->m->prepare(f);
}

astar_status astar__finder_init(astar_finder *f, const astar_grid *grid,
                                const astar_finder_config *cfg) {
  if (!f || !grid || !cfg || cfg->clearance) return ASTAR_INVALID_ARGUMENT;
  const astar_status st = setup_finder(f, grid, NULL, NULL, NULL, cfg, NULL);
  if (st == ASTAR_OK) setup_done(f);
  return st;
}

static astar_status make(astar_finder **out, const astar_grid *grid, const astar_space *space,
                         const astar_mesh *mesh, const astar_subgoal *sg,
                         const astar_finder_config *cfg, const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  astar_finder tmp;
  astar_status st = setup_finder(&tmp, grid, space, mesh, sg, cfg, alloc);
  if (st != ASTAR_OK) return st;
  astar_finder *f = astar__malloc(&tmp.alloc, sizeof *f);
  if (!f) return ASTAR_NO_MEMORY;
  *f = tmp;
  if (grid && cfg->clearance) {
    /* The unit's own grid, owned by the finder. */
    st = astar_grid_new(&f->derived, grid->width, grid->height, &f->alloc);
    if (st == ASTAR_OK)
      st = astar_clearance_fill_grid(cfg->clearance, grid, cfg->unit_size, f->capability,
                                     f->derived);
    if (st != ASTAR_OK) {
      astar_finder_free(f);
      return st;
    }
    f->grid = f->derived;
    f->types_version = astar__clearance_type_edits(cfg->clearance);
  }
  setup_done(f);
  *out = f;
  return ASTAR_OK;
}

astar_status astar_finder_new(astar_finder **out, const astar_grid *grid,
                              const astar_finder_config *cfg, const astar_allocator *alloc) {
  if (!grid) {
    if (out) *out = NULL;
    return ASTAR_INVALID_ARGUMENT;
  }
  return make(out, grid, NULL, NULL, NULL, cfg, alloc);
}

astar_status astar_finder_new_space(astar_finder **out, const astar_space *space,
                                    const astar_finder_config *cfg, const astar_allocator *alloc) {
  if (!space) {
    if (out) *out = NULL;
    return ASTAR_INVALID_ARGUMENT;
  }
  return make(out, NULL, space, NULL, NULL, cfg, alloc);
}

astar_status astar_finder_new_mesh(astar_finder **out, const astar_mesh *mesh,
                                   const astar_finder_config *cfg, const astar_allocator *alloc) {
  if (!mesh) {
    if (out) *out = NULL;
    return ASTAR_INVALID_ARGUMENT;
  }
  return make(out, NULL, NULL, mesh, NULL, cfg, alloc);
}

const astar_mesh *astar_finder_mesh(const astar_finder *f) {
  return f ? f->mesh : NULL;
}

astar_status astar_finder_set_mesh_observer(astar_finder *f, astar_mesh_observer_fn fn, void *ctx) {
  if (!f || !f->mesh) return ASTAR_INVALID_ARGUMENT;
  f->mesh_observer = fn;
  f->mesh_observer_ctx = fn ? ctx : NULL;
  return ASTAR_OK;
}

const astar_finder_config *astar_finder_config_of(const astar_finder *f) {
  return f ? &f->cfg : NULL;
}

const astar_grid *astar_finder_grid(const astar_finder *f) {
  return f ? f->grid : NULL;
}

/* ---- refreshing -------------------------------------------------------------------- */

/* The unit's anchor (x, y) on the derived grid again: passable when the
** unit fits, its factor the largest of the footprint's cells (as
** astar_clearance_fill_grid computes them). */
static void refill_anchor(const astar_finder *f, int32_t x, int32_t y) {
  const astar_grid *g = f->base;
  const int32_t k = f->cfg.unit_size;
  astar_grid *d = f->derived;
  if (g->terrain) {
    float mx = 0.0f;
    for (int32_t j = y; j < y + k && j < g->height; j++)
      for (int32_t i = x; i < x + k && i < g->width; i++) {
        const float t = g->terrain[astar__index(g, i, j)];
        if (t > mx) mx = t;
      }
    astar_grid_set_terrain(d, x, y, mx);
  }
  astar_grid_set_passable(d, x, y, astar_clearance_fits(f->cfg.clearance, x, y, k, f->capability));
}

/* Bring the derived grid up to the base grid: around the cells changed
** since f->version when the change log reaches back, else whole. */
static astar_status refill(astar_finder *f) {
  const astar_grid *g = f->base;
  const astar_clearance *c = f->cfg.clearance;
  const int32_t k = f->cfg.unit_size;
  const uint64_t n = g->version - f->version;
  const bool same_layers = (g->terrain != NULL) == (f->derived->terrain != NULL);
  /* A change touches k x k anchors; past the cells' worth, refill whole. */
  const bool cheap = n * (uint64_t)k * (uint64_t)k <= (uint64_t)g->width * (uint64_t)g->height;
  if (same_layers && cheap && astar__grid_log_covers(g, f->version) &&
      astar__clearance_type_edits(c) == f->types_version) {
    for (uint64_t v = f->version + 1; v <= g->version; v++) {
      const astar_cell_change *ch = &g->log[v % g->log_cap];
      for (int32_t y = ch->y - k + 1; y <= ch->y; y++)
        for (int32_t x = ch->x - k + 1; x <= ch->x; x++)
          if (x >= 0 && y >= 0) refill_anchor(f, x, y);
    }
    return ASTAR_OK;
  }
  return astar_clearance_fill_grid(c, g, k, f->capability, f->derived);
}

astar_status astar_finder_refresh(astar_finder *f) {
  if (!f) return ASTAR_INVALID_ARGUMENT;
  if (f->is_space || f->mesh) {
    if (f->cfg.landmarks) {
      const astar_status st = astar_landmarks_space_current(f->cfg.landmarks, &f->space);
      if (st != ASTAR_OK) return st == ASTAR_INVALID_ARGUMENT ? ASTAR_MISMATCH : st;
    }
    f->version = version_now(f);
    return ASTAR_OK;
  }
  /* The rules as given (f->opt may carry a method's heuristic callback). */
  astar_status st = check_attachments(&f->cfg, f->subgoal, f->base, &f->cfg.options);
  if (st != ASTAR_OK) return st;
  if (f->derived && (f->base->version != f->version ||
                     astar__clearance_type_edits(f->cfg.clearance) != f->types_version)) {
    st = refill(f);
    if (st != ASTAR_OK) return st;
  }
  f->version = f->base->version;
  if (f->cfg.clearance) f->types_version = astar__clearance_type_edits(f->cfg.clearance);
  return ASTAR_OK;
}

/* Is the finder at its grid's (space's) version? */
static astar_status current(const astar_finder *f) {
  if (!f->versioned) return ASTAR_OK;
  if (version_now(f) != f->version) return ASTAR_STALE;
  if (f->cfg.clearance && astar__clearance_type_edits(f->cfg.clearance) != f->types_version)
    return ASTAR_STALE;
  return ASTAR_OK;
}

/* ---- the state in a workspace ------------------------------------------------------- */

static void state_release(astar_workspace *ws, void *state) {
  astar__fstate *s = state;
  astar__free(&ws->alloc, s->mem, s->mem_bytes);
  astar_hpa_query_free(s->hpa);
  astar_anya_workspace_free(s->anya);
  astar__polyanya_free(s->polyanya);
  astar__free(&ws->alloc, s->pts, s->pts_cap * sizeof *s->pts);
  astar__free(&ws->alloc, s->vec, s->vec_cap * sizeof *s->vec);
  astar__free(&ws->alloc, s, sizeof *s);
}

static size_t state_memory(const void *state) {
  const astar__fstate *s = state;
  return sizeof *s + s->mem_bytes + astar_hpa_query_memory(s->hpa) +
         astar_anya_workspace_memory(s->anya) + astar__polyanya_memory(s->polyanya) +
         s->pts_cap * sizeof *s->pts + s->vec_cap * sizeof *s->vec;
}

/* The finder's state in ws, made on first use (NULL: no memory). */
static astar__fstate *state_of(astar_workspace *ws) {
  astar__ws_slot *slot = &ws->ext[ASTAR__FINDER_SLOT];
  if (!slot->state) {
    astar__fstate *s = astar__malloc(&ws->alloc, sizeof *s);
    if (!s) return NULL;
    memset(s, 0, sizeof *s);
    slot->state = s;
    slot->release = state_release;
    slot->memory = state_memory;
  }
  return slot->state;
}

astar_status astar__fscratch_method_tagged(astar_workspace *ws, astar__fstate *s, size_t bytes,
                                           const void *tag, void **out, bool *fresh) {
  *fresh = s->mem_tag != tag || !tag;
  if (bytes > s->mem_bytes) {
    void *p = astar__malloc(&ws->alloc, bytes);
    if (!p) return ASTAR_NO_MEMORY;
    astar__free(&ws->alloc, s->mem, s->mem_bytes);
    s->mem = p;
    s->mem_bytes = bytes;
    *fresh = true;
  }
  s->mem_tag = tag;
  *out = s->mem;
  return ASTAR_OK;
}

astar_status astar__fscratch_method(astar_workspace *ws, astar__fstate *s, size_t bytes,
                                    void **out) {
  bool fresh;
  return astar__fscratch_method_tagged(ws, s, bytes, NULL, out, &fresh);
}

astar_status astar__fscratch_cells(astar_workspace *ws, astar__fstate *s, size_t n) {
  if (n <= s->pts_cap) return ASTAR_OK;
  size_t bytes;
  if (!astar__mul(n, sizeof *s->pts, &bytes)) return ASTAR_NO_MEMORY;
  astar_point *p = astar__malloc(&ws->alloc, bytes);
  if (!p) return ASTAR_NO_MEMORY;
  astar__free(&ws->alloc, s->pts, s->pts_cap * sizeof *s->pts);
  s->pts = p;
  s->pts_cap = n;
  s->stored = false;
  return ASTAR_OK;
}

astar_status astar__fscratch_vec(astar_workspace *ws, astar__fstate *s, size_t n) {
  if (n <= s->vec_cap) return ASTAR_OK;
  size_t bytes;
  if (!astar__mul(n, sizeof *s->vec, &bytes)) return ASTAR_NO_MEMORY;
  astar_vec2 *p = astar__malloc(&ws->alloc, bytes);
  if (!p) return ASTAR_NO_MEMORY;
  astar__free(&ws->alloc, s->vec, s->vec_cap * sizeof *s->vec);
  s->vec = p;
  s->vec_cap = n;
  s->stored = false;
  return ASTAR_OK;
}

astar_status astar__freserve_grid(const astar_finder *f, astar_workspace *ws, astar__fstate *s) {
  (void)s;
  astar_status st = astar_workspace_reserve(ws, f->grid);
  if (st == ASTAR_OK && f->opt.turn_penalty > 0.0) st = astar_workspace_reserve_turns(ws, f->grid);
  return st;
}

/* ---- results and paths ---------------------------------------------------------------- */

void astar__fres_clear(astar_path_result *res, astar_status st) {
  memset(res, 0, sizeof *res);
  res->status = st;
  res->cause = st;
  res->end = (astar_point){-1, -1};
  res->end_node = ASTAR_NODE_NONE;
  res->meet = ASTAR_NODE_NONE;
}

void astar__fres_from_grid(astar_path_result *res, const astar_result *r, astar_status st) {
  astar__fres_clear(res, st);
  res->cause = r->cause;
  res->cost = r->cost;
  res->length = r->length;
  res->stats = r->stats;
  res->work = r->stats.expanded;
  res->end = r->end;
  res->retargeted = r->retargeted;
}

astar_status astar__fout_cells(const astar__out *out, const astar_point *pts, size_t n) {
  if (n > out->cap) return ASTAR_BUFFER_TOO_SMALL;
  if (out->kind == ASTAR__OUT_VEC) {
    astar_vec2 *v = out->buf;
    for (size_t i = 0; i < n; i++)
      v[i] = (astar_vec2){(double)pts[i].x + 0.5, (double)pts[i].y + 0.5};
  } else if (n) {
    memmove(out->buf, pts, n * sizeof *pts);
  }
  return ASTAR_OK;
}

/* Does a search of f writing `kind` go through the cell scratch (smoothing,
** or cells turned into vectors)? */
static bool through_scratch(const astar_finder *f, int kind) {
  return astar__fnative(f) == ASTAR__OUT_CELLS && (f->cfg.smooth || kind != ASTAR__OUT_CELLS);
}

/* Points a path of f's may need in the cell scratch: a grid path visits a
** cell once (HPA*'s, rarely, more: grown then). */
static size_t scratch_cells(const astar_finder *f) {
  return f->grid->ncells;
}

/* Anya's vector scratch to begin with (grown to the most bends seen). */
#define VEC_SCRATCH0 256u

/* The method's search from s's ends into `out` (its native kind), whole or
** begin / step to the end / finish. */
static astar_status raw(const astar_finder *f, astar_workspace *ws, astar__fstate *s,
                        const astar__out *out, astar_path_result *res) {
  if (f->ops->run) return f->ops->run(f, ws, s, out, res);
  astar_status st = f->ops->begin(f, ws, s);
  if (st != ASTAR_OK) {
    astar__fres_clear(res, st);
    return st;
  }
  uint64_t work;
  (void)f->ops->step(f, ws, s, 0, &work); /* its outcome is the finish's to tell */
  return f->ops->finish(f, ws, s, out, res);
}

/* A whole method's path kept in the scratch (a sliced search between its
** step and finish, or a path to smooth or convert): the run into the
** scratch, grown and run again when the path did not fit (HPA*, Anya). */
static astar_status run_into_scratch(const astar_finder *f, astar_workspace *ws, astar__fstate *s,
                                     astar_path_result *res) {
  const bool vec = astar__fnative(f) == ASTAR__OUT_VEC;
  for (;;) {
    const astar__out so = {vec ? ASTAR__OUT_VEC : ASTAR__OUT_CELLS,
                           vec ? (void *)s->vec : (void *)s->pts, vec ? s->vec_cap : s->pts_cap};
    const astar_status st = raw(f, ws, s, &so, res);
    if (st != ASTAR_BUFFER_TOO_SMALL || res->length <= so.cap) {
      s->stored = st == ASTAR_OK || st == ASTAR_PARTIAL;
      s->len = s->stored ? res->length : 0;
      return st;
    }
    const astar_status g =
        vec ? astar__fscratch_vec(ws, s, res->length) : astar__fscratch_cells(ws, s, res->length);
    if (g != ASTAR_OK) {
      astar__fres_clear(res, g);
      return g;
    }
  }
}

/* The path in the scratch (status st, res describing it) to `out`: smoothed
** when the finder smooths, converted to out's kind. */
static astar_status deliver(const astar_finder *f, astar__fstate *s, astar_status st,
                            astar_path_result *res, const astar__out *out) {
  if (st != ASTAR_OK && st != ASTAR_PARTIAL) return st;
  if (astar__fnative(f) == ASTAR__OUT_VEC) {
    if (res->length > out->cap) return ASTAR_BUFFER_TOO_SMALL;
    if (res->length) memmove(out->buf, s->vec, res->length * sizeof *s->vec);
    return st;
  }
  size_t n = res->length;
  if (f->cfg.smooth) {
    size_t m = n;
    double cost = res->cost;
    if (astar__path_smooth_checked(f->grid, &f->opt, s->pts, n, s->pts, n, &m) == ASTAR_OK &&
        astar__polyline_cost_checked(f->grid, &f->opt, s->pts, m, &cost, NULL) == ASTAR_OK) {
      res->grid_cost = res->cost;
      res->cost = cost;
      res->length = n = m;
    }
  }
  const astar_status o = astar__fout_cells(out, s->pts, n);
  return o == ASTAR_OK ? st : o;
}

/* One whole search into `out`. */
static astar_status search(const astar_finder *f, astar_workspace *ws, astar__fstate *s,
                           const astar__out *out, astar_path_result *res) {
  if (!through_scratch(f, out->kind)) return raw(f, ws, s, out, res);
  astar_status st = astar__fscratch_cells(ws, s, scratch_cells(f));
  if (st != ASTAR_OK) {
    astar__fres_clear(res, st);
    return st;
  }
  st = run_into_scratch(f, ws, s, res);
  return deliver(f, s, st, res, out);
}

/* Is the call's kind of path the finder's? */
static bool kind_fits(const astar_finder *f, int kind, bool points) {
  if (f->mesh || points) return f->mesh && points && kind == ASTAR__OUT_VEC;
  if (f->is_space) return kind == ASTAR__OUT_NODES;
  if (kind == ASTAR__OUT_NODES) return false;
  return kind == ASTAR__OUT_VEC || astar__fnative(f) == ASTAR__OUT_CELLS;
}

/* A search's common start: the state, the sliced search there cancelled,
** the finder current, ws grown. */
static astar_status setup(const astar_finder *f, astar_workspace *ws, astar__fstate **out) {
  astar__fstate *s = state_of(ws);
  *out = s;
  if (!s) return ASTAR_NO_MEMORY;
  s->phase = ASTAR__F_IDLE;
  s->f = NULL;
  const astar_status st = current(f);
  if (st != ASTAR_OK) return st;
  return f->ops->reserve(f, ws, s);
}

/* The ends of a search: cells (grid finders), nodes (space finders) or
** points (mesh finders, `points` set). */
typedef struct ends {
  astar_point start, goal;
  astar_node nstart, ngoal;
  astar_vec2 pstart, pgoal;
  bool points;
} ends;

static void set_ends(astar__fstate *s, const ends *e) {
  s->start = e->start;
  s->goal = e->goal;
  s->nstart = e->nstart;
  s->ngoal = e->ngoal;
  s->pstart = e->pstart;
  s->pgoal = e->pgoal;
}

static bool finite_ends(const ends *e) {
  return !e->points || (isfinite(e->pstart.x) && isfinite(e->pstart.y) && isfinite(e->pgoal.x) &&
                        isfinite(e->pgoal.y));
}

static astar_status find(const astar_finder *f, astar_workspace *ws, const ends *e,
                         const astar__out *out, astar_path_result *res) {
  astar_path_result local;
  if (!res) res = &local;
  if (!f || !ws || (out->cap && !out->buf) || !kind_fits(f, out->kind, e->points) ||
      !finite_ends(e)) {
    astar__fres_clear(res, ASTAR_INVALID_ARGUMENT);
    return ASTAR_INVALID_ARGUMENT;
  }
  astar__fstate *s; /* every way on fills *res whole */
  astar_status st = setup(f, ws, &s);
  if (st == ASTAR_OK) {
    set_ends(s, e);
    st = search(f, ws, s, out, res);
  } else {
    astar__fres_clear(res, st);
  }
  res->status = st;
  return st;
}

astar_status astar_finder_find(const astar_finder *f, astar_workspace *ws, astar_point start,
                               astar_point goal, astar_point *path, size_t cap,
                               astar_path_result *res) {
  const astar__out out = {ASTAR__OUT_CELLS, path, cap};
  const ends e = {start, goal, ASTAR_NODE_NONE, ASTAR_NODE_NONE, {0, 0}, {0, 0}, false};
  return find(f, ws, &e, &out, res);
}

astar_status astar_finder_find_vec(const astar_finder *f, astar_workspace *ws, astar_point start,
                                   astar_point goal, astar_vec2 *path, size_t cap,
                                   astar_path_result *res) {
  const astar__out out = {ASTAR__OUT_VEC, path, cap};
  const ends e = {start, goal, ASTAR_NODE_NONE, ASTAR_NODE_NONE, {0, 0}, {0, 0}, false};
  return find(f, ws, &e, &out, res);
}

astar_status astar_finder_find_nodes(const astar_finder *f, astar_workspace *ws, astar_node start,
                                     astar_node goal,
                                     astar_node *path, // NOLINT: written through out.buf
                                     size_t cap, astar_path_result *res) {
  const astar__out out = {ASTAR__OUT_NODES, path, cap};
  const ends e = {{-1, -1}, {-1, -1}, start, goal, {0, 0}, {0, 0}, false};
  return find(f, ws, &e, &out, res);
}

astar_status astar_finder_find_points(const astar_finder *f, astar_workspace *ws, astar_vec2 start,
                                      astar_vec2 goal, astar_vec2 *path, size_t cap,
                                      astar_path_result *res) {
  const astar__out out = {ASTAR__OUT_VEC, path, cap};
  const ends e = {{-1, -1}, {-1, -1}, ASTAR_NODE_NONE, ASTAR_NODE_NONE, start, goal, true};
  return find(f, ws, &e, &out, res);
}

/* ---- sliced searches ---------------------------------------------------------------- */

static astar_status begin(const astar_finder *f, astar_workspace *ws, const ends *e, bool nodes) {
  if (!f || !ws || f->is_space != nodes || (f->mesh != NULL) != e->points || !finite_ends(e))
    return ASTAR_INVALID_ARGUMENT;
  astar__fstate *s;
  astar_status st = setup(f, ws, &s);
  if (!s) return st;
  s->f = f;
  set_ends(s, e);
  s->version = version_now(f);
  s->whole = f->ops->run != NULL;
  s->stored = false;
  s->early = false;
  /* Whatever a step or the finish may need is grown now: a whole method's
  ** path, the path smoothing shortens, cells turned into vectors (the kind
  ** the finish asks for is not known yet). */
  if (st == ASTAR_OK && !f->is_space)
    st = astar__fnative(f) == ASTAR__OUT_VEC ? astar__fscratch_vec(ws, s, VEC_SCRATCH0)
                                             : astar__fscratch_cells(ws, s, scratch_cells(f));
  if (st == ASTAR_OK && !s->whole) st = f->ops->begin(f, ws, s);
  if (st != ASTAR_OK) {
    s->phase = ASTAR__F_ENDED;
    s->outcome = st;
    s->early = true;
    astar__fres_clear(&s->res, st);
    return st;
  }
  s->phase = ASTAR__F_RUNNING;
  return ASTAR_OK;
}

astar_status astar_finder_begin(const astar_finder *f, astar_workspace *ws, astar_point start,
                                astar_point goal) {
  const ends e = {start, goal, ASTAR_NODE_NONE, ASTAR_NODE_NONE, {0, 0}, {0, 0}, false};
  return begin(f, ws, &e, false);
}

astar_status astar_finder_begin_points(const astar_finder *f, astar_workspace *ws, astar_vec2 start,
                                       astar_vec2 goal) {
  const ends e = {{-1, -1}, {-1, -1}, ASTAR_NODE_NONE, ASTAR_NODE_NONE, start, goal, true};
  return begin(f, ws, &e, false);
}

astar_status astar_finder_begin_nodes(const astar_finder *f, astar_workspace *ws, astar_node start,
                                      astar_node goal) {
  const ends e = {{-1, -1}, {-1, -1}, start, goal, {0, 0}, {0, 0}, false};
  return begin(f, ws, &e, true);
}

/* The state of ws's sliced search, or NULL when none was begun. */
static astar__fstate *sliced(astar_workspace *ws) {
  if (!ws) return NULL;
  astar__fstate *s = ws->ext[ASTAR__FINDER_SLOT].state;
  return s && s->phase != ASTAR__F_IDLE && s->f ? s : NULL;
}

astar_status astar_finder_step(astar_workspace *ws, uint64_t budget, uint64_t *work) {
  if (work) *work = 0;
  astar__fstate *s = sliced(ws);
  if (!s) return ASTAR_INVALID_ARGUMENT;
  if (s->phase == ASTAR__F_ENDED) return s->outcome;
  const astar_finder *f = s->f;
  astar_status st;
  uint64_t done = 0;
  if (version_now(f) != s->version) {
    st = ASTAR_STALE; /* the map changed under the search */
    astar__fres_clear(&s->res, st);
    s->early = true;
  } else if (s->whole) {
    st = run_into_scratch(f, ws, s, &s->res);
    done = s->res.work;
  } else {
    st = f->ops->step(f, ws, s, budget, &done);
  }
  if (work) *work = done;
  if (st == ASTAR_IN_PROGRESS) return st;
  s->phase = ASTAR__F_ENDED;
  s->outcome = st;
  return st;
}

static astar_status finish(astar_workspace *ws, const astar__out *out, astar_path_result *res) {
  astar_path_result local;
  if (!res) res = &local;
  astar__fstate *s = sliced(ws);
  if (!s || (out->cap && !out->buf) || !kind_fits(s->f, out->kind, s->f->mesh != NULL)) {
    astar__fres_clear(res, ASTAR_INVALID_ARGUMENT);
    return ASTAR_INVALID_ARGUMENT;
  }
  if (s->phase == ASTAR__F_RUNNING) return ASTAR_IN_PROGRESS;
  const astar_finder *f = s->f;
  astar_status st = s->outcome;
  s->phase = ASTAR__F_IDLE;
  s->f = NULL;
  if (s->whole || s->early) {
    /* Ended before the method did (stale, refused at begin) or ran whole:
    ** s->res says what happened and the path, if any, is in the scratch. */
    *res = s->res;
    if (s->whole && s->stored) st = deliver(f, s, st, res, out);
  } else if (through_scratch(f, out->kind)) {
    const astar__out so = {ASTAR__OUT_CELLS, s->pts, s->pts_cap};
    st = f->ops->finish(f, ws, s, &so, res);
    st = deliver(f, s, st, res, out);
  } else {
    st = f->ops->finish(f, ws, s, out, res);
  }
  res->status = st;
  return st;
}

astar_status astar_finder_finish(astar_workspace *ws, astar_point *path, size_t cap,
                                 astar_path_result *res) {
  const astar__out out = {ASTAR__OUT_CELLS, path, cap};
  return finish(ws, &out, res);
}

astar_status astar_finder_finish_vec(astar_workspace *ws, astar_vec2 *path, size_t cap,
                                     astar_path_result *res) {
  const astar__out out = {ASTAR__OUT_VEC, path, cap};
  return finish(ws, &out, res);
}

/* NOLINTNEXTLINE(readability-non-const-parameter): written through out.buf */
astar_status astar_finder_finish_nodes(astar_workspace *ws, astar_node *path, size_t cap,
                                       astar_path_result *res) {
  const astar__out out = {ASTAR__OUT_NODES, path, cap};
  return finish(ws, &out, res);
}

void astar_finder_cancel(astar_workspace *ws) {
  astar__fstate *s = sliced(ws);
  if (!s) return;
  s->phase = ASTAR__F_IDLE;
  s->f = NULL;
}

astar_status astar_finder_new_subgoal(astar_finder **out, const astar_grid *grid,
                                      const astar_subgoal *sg, const astar_finder_config *cfg,
                                      const astar_allocator *alloc) {
  if (!grid || !sg) {
    if (out) *out = NULL;
    return ASTAR_INVALID_ARGUMENT;
  }
  astar_finder_config c;
  subgoal_config(&c, cfg);
  return make(out, grid, NULL, NULL, sg, &c, alloc);
}

const astar_subgoal *astar_finder_subgoal(const astar_finder *f) {
  return f ? f->subgoal : NULL;
}
