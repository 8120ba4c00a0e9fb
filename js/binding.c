/*
** js/binding.c -- the npm package's WebAssembly binding: the library's one
** query API (astar/finder.h) and its objects, as calls a JavaScript wrapper
** (the modules of js/src) makes with numbers only.
**
** Thin by design: no per-method code. Every search goes through
** astar_finder_* with one workspace per finder; options arrive as a block of
** doubles (jsa_params, slots P_* below, mirrored by js/src/params.js) that
** config_from() turns into an astar_finder_config, so a new option is one
** slot here and one there.
**
** Conventions of this file (the JavaScript side relies on them):
**   - a constructor returns the object's address (> 0) or -status (<= 0);
**     wasm32 addresses are below 2^31, so the sign tells them apart;
**   - other fallible calls return an astar_status;
**   - a search writes its figures into jsa_result (slots R_* below) and its
**     path into one binding-wide buffer (jsa_path_ptr), grown only when a
**     path is longer than any before; the wrapper reads both through typed
**     arrays, so a query allocates nothing on either side of the boundary;
**   - the unsupported-option sentence of the last failed constructor is
**     jsa_reason() (static storage, or NULL).
** The module is single-threaded: the binding-wide buffers are safe.
*/
#include <stdlib.h>
#include <string.h>

#include "astar/finder.h"
#include "astar/format.h"
#include "astar/graph.h"
#include "astar/hex.h"
#include "astar/navmesh_build.h"
#include "astar/queue.h"

#define EXPORT __attribute__((used, visibility("default")))

/* ---- Parameter block: js/src/params.js has the same slots ------------- */
enum {
  P_METHOD,
  P_MOVES,
  P_CORNER,
  P_STRAIGHT,
  P_DIAGONAL,
  P_HEURISTIC,
  P_WEIGHT,
  P_TIE,
  P_REOPEN,
  P_MAX_EXPANSIONS,
  P_OPEN_SET,
  P_PARTIAL,
  P_SMOOTH,
  P_UNIT_SIZE,
  P_MAX_COST,
  P_TERRAIN_SCALE,
  P_TURN_PENALTY,
  P_HEURISTIC_FLOOR,
  P_BEAM_WIDTH,
  P_EPSILON,
  P_BAND_E,
  P_BAND_D,
  P_IDA_TRANSPOSITIONS,
  P_RETARGET_INTERVAL,
  /* Preparation settings (HPA*, landmarks). */
  P_HPA_CLUSTER,
  P_HPA_LEVELS,
  P_HPA_RATIO,
  P_HPA_WIDE_ENTRANCE,
  P_HPA_SMOOTH,
  P_LM_COUNT,
  P_COUNT
};

/* ---- Result block: js/src/params.js has the same slots ---------------- */
enum {
  R_STATUS,
  R_CAUSE,
  R_COST,
  R_LENGTH,
  R_EXPANDED,
  R_GENERATED,
  R_REOPENED,
  R_MAX_OPEN,
  R_WORK,
  R_END_X,
  R_END_Y,
  R_END_NODE,
  R_RETARGETED,
  R_DROPPED,
  R_ITERATIONS,
  R_SIGHT_CHECKS,
  R_ABSTRACT_EXPANDED,
  R_ABSTRACT_LENGTH,
  R_GRID_COST,
  R_MEET,
  R_CORRIDOR,
  R_COUNT
};

static double params[P_COUNT];
static double result[R_COUNT];
static const char *reason;
static astar_parse_error parse_err;
static void *path_buf;
static size_t path_bytes;

EXPORT double *jsa_params(void) {
  return params;
}
EXPORT int jsa_param_count(void) {
  return P_COUNT;
}
EXPORT double *jsa_result(void) {
  return result;
}
EXPORT int jsa_result_count(void) {
  return R_COUNT;
}
EXPORT const char *jsa_reason(void) {
  return reason;
}
EXPORT void *jsa_path_ptr(void) {
  return path_buf;
}
EXPORT astar_parse_error *jsa_parse_error(void) {
  return &parse_err;
}
EXPORT const char *jsa_strerror(int status) {
  return astar_strerror((astar_status)status);
}
EXPORT const char *jsa_version(void) {
  return astar_version();
}
EXPORT int jsa_status_count(void) {
  return ASTAR_STATUS_COUNT;
}
EXPORT void *jsa_malloc(size_t n) {
  return malloc(n ? n : 1);
}
EXPORT void jsa_free(void *p) {
  free(p);
}

/* Make the path buffer hold at least `bytes`: false when memory ran out
** (the old buffer is kept). Grows by doubling so that a run of longer
** paths reallocates O(log n) times. */
static bool path_reserve(size_t bytes) {
  if (bytes <= path_bytes) return true;
  size_t n = path_bytes ? path_bytes : 4096;
  while (n < bytes) n *= 2;
  void *p = realloc(path_buf, n);
  if (!p) return false;
  path_buf = p;
  path_bytes = n;
  return true;
}

/* An object's address or -status. */
static intptr_t handle_or_status(astar_status st, void *obj) {
  return st == ASTAR_OK ? (intptr_t)obj : -(intptr_t)st;
}

/* ---- Methods ---------------------------------------------------------- */
EXPORT int jsa_method_count(void) {
  return ASTAR_METHOD_COUNT;
}
EXPORT const char *jsa_method_name(int m) {
  const astar_method_info *i = astar_method_info_of((astar_method)m);
  return i ? i->name : NULL;
}
EXPORT const char *jsa_method_summary(int m) {
  const astar_method_info *i = astar_method_info_of((astar_method)m);
  return i ? i->summary : NULL;
}
EXPORT const char *jsa_method_work(int m) {
  const astar_method_info *i = astar_method_info_of((astar_method)m);
  return i ? i->work : NULL;
}
EXPORT int jsa_method_flags(int m) {
  const astar_method_info *i = astar_method_info_of((astar_method)m);
  return i ? (int)i->flags : -1;
}
EXPORT int jsa_method_needs(int m) {
  const astar_method_info *i = astar_method_info_of((astar_method)m);
  return i ? (int)i->needs : -1;
}
EXPORT int jsa_method_takes(int m) {
  const astar_method_info *i = astar_method_info_of((astar_method)m);
  return i ? (int)i->takes : -1;
}
/* The method called `name`, or -1. */
EXPORT int jsa_method_from_name(const char *name) {
  astar_method m;
  return astar_method_from_name(name, &m) == ASTAR_OK ? (int)m : -1;
}

/* ---- Grids ------------------------------------------------------------ */
EXPORT intptr_t jsa_grid_new(int32_t w, int32_t h) {
  astar_grid *g = NULL;
  astar_status st = astar_grid_new(&g, w, h, NULL);
  return handle_or_status(st, g);
}

EXPORT intptr_t jsa_grid_clone(const astar_grid *grid) {
  astar_grid *g = NULL;
  astar_status st = astar_grid_clone(&g, grid, NULL);
  return handle_or_status(st, g);
}

/* Parse a Moving AI map (or the library's ASCII map): the grid or -status,
** jsa_parse_error() saying where with ASTAR_PARSE_ERROR. */
EXPORT intptr_t jsa_grid_parse(const char *text, size_t len) {
  astar_grid *g = NULL;
  memset(&parse_err, 0, sizeof parse_err);
  astar_status st = astar_parse_map(&g, text, len, NULL, NULL, NULL, &parse_err);
  return handle_or_status(st, g);
}

/* Cells from a row-major array, one byte a cell: non-zero is a wall. */
EXPORT void jsa_grid_set_walls(astar_grid *g, const uint8_t *walls) {
  int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) astar_grid_set_passable(g, x, y, walls[(size_t)y * w + x] == 0);
}

/* The cells into a row-major array: 1 for a wall, 0 for a free cell. */
EXPORT void jsa_grid_get_walls(const astar_grid *g, uint8_t *walls) {
  int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) walls[(size_t)y * w + x] = !astar_grid_passable(g, x, y);
}

/* Terrain from a row-major float array (values checked by the wrapper; the
** first refusal is returned and stops the copy). */
EXPORT int jsa_grid_set_terrains(astar_grid *g, const float *costs) {
  int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      astar_status st = astar_grid_set_terrain(g, x, y, costs[(size_t)y * w + x]);
      if (st != ASTAR_OK) return st;
    }
  return ASTAR_OK;
}

EXPORT void jsa_grid_get_terrains(const astar_grid *g, float *costs) {
  int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) costs[(size_t)y * w + x] = astar_grid_terrain(g, x, y);
}

/* The version as a double (exact up to 2^53 edits). */
EXPORT double jsa_grid_version(const astar_grid *g) {
  return (double)astar_grid_version(g);
}

/* ---- Options ---------------------------------------------------------- */

/* A uint64 option from a double slot: 0 for NaN or negative (the wrapper
** has refused those already). */
static uint64_t u64_of(double v) {
  return v > 0 ? (uint64_t)v : 0;
}

static void options_from(astar_options *o) {
  astar_options_init(o);
  o->moves = (int)params[P_MOVES];
  o->corner = (astar_corner)(int)params[P_CORNER];
  o->straight_cost = params[P_STRAIGHT];
  o->diagonal_cost = params[P_DIAGONAL];
  o->heuristic = (astar_heuristic)(int)params[P_HEURISTIC];
  o->weight = params[P_WEIGHT];
  o->tie = (astar_tie)(int)params[P_TIE];
  o->reopen = (astar_reopen)(int)params[P_REOPEN];
  o->max_expansions = u64_of(params[P_MAX_EXPANSIONS]);
  o->open_set = (astar_open_set)(int)params[P_OPEN_SET];
  o->partial = params[P_PARTIAL] != 0;
  o->max_cost = params[P_MAX_COST];
  o->terrain_scale = params[P_TERRAIN_SCALE];
  o->turn_penalty = params[P_TURN_PENALTY];
  o->heuristic_floor = params[P_HEURISTIC_FLOOR];
}

/* The engine's settings from the same slots: a space finder takes all of
** them from here, a grid finder the variants' own. */
static void engine_from(astar_engine_options *e) {
  astar_engine_options_init(e);
  e->weight = params[P_WEIGHT];
  e->tie = (astar_tie)(int)params[P_TIE];
  e->reopen = (astar_reopen)(int)params[P_REOPEN];
  e->max_expansions = u64_of(params[P_MAX_EXPANSIONS]);
  e->partial = params[P_PARTIAL] != 0;
  e->beam_width = (uint32_t)params[P_BEAM_WIDTH];
  e->epsilon = params[P_EPSILON];
  e->band_e = params[P_BAND_E];
  e->band_d = params[P_BAND_D];
  e->ida_transpositions = params[P_IDA_TRANSPOSITIONS] != 0;
  e->retarget_interval = (uint32_t)params[P_RETARGET_INTERVAL];
}

static void config_from(astar_finder_config *cfg) {
  astar_finder_config_init(cfg);
  cfg->method = (astar_method)(int)params[P_METHOD];
  options_from(&cfg->options);
  engine_from(&cfg->engine);
  cfg->smooth = params[P_SMOOTH] != 0;
  cfg->unit_size = (int32_t)params[P_UNIT_SIZE];
}

/* ---- Finders ---------------------------------------------------------- */

/* How a finder's path comes out: KIND_MESH is a mesh finder's (doubles,
** searched with jsa_find_points). */
enum { KIND_POINTS = 0, KIND_VEC = 1, KIND_NODES = 2, KIND_MESH = 3 };

typedef struct jsa_finder {
  astar_finder *f;
  astar_workspace *ws;        /* the finder's own scratch: grown once, reused by every query */
  astar_clearance *clearance; /* owned: units bigger than one cell */
  astar_space space;          /* a space finder's space (the finder copies it too) */
  int kind;                   /* KIND_* */
} jsa_finder;

static void finder_free(jsa_finder *h) {
  if (!h) return;
  astar_finder_free(h->f);
  astar_workspace_free(h->ws);
  astar_clearance_free(h->clearance);
  free(h);
}

EXPORT void jsa_finder_free(jsa_finder *h) {
  finder_free(h);
}
EXPORT int jsa_finder_kind(const jsa_finder *h) {
  return h->kind;
}

/* A finder for `grid` from the parameter block and the preparations given
** (0 for none): its handle or -status; with ASTAR_UNSUPPORTED, jsa_reason()
** says why. */
EXPORT intptr_t jsa_finder_new(const astar_grid *grid, const astar_jps_plus *jps_plus,
                               const astar_cpd *cpd, const astar_hpa *hpa,
                               const astar_landmarks *landmarks, const astar_subgoal *subgoal) {
  reason = NULL;
  jsa_finder *h = calloc(1, sizeof *h);
  if (!h) return -(intptr_t)ASTAR_NO_MEMORY;
  astar_finder_config cfg;
  config_from(&cfg);
  cfg.jps_plus = jps_plus;
  cfg.cpd = cpd;
  cfg.hpa = hpa;
  cfg.landmarks = landmarks;
  astar_status st = ASTAR_OK;
  if (cfg.unit_size > 1) {
    st = astar_clearance_new(&h->clearance, grid, NULL, NULL, 0, cfg.unit_size, NULL);
    cfg.clearance = h->clearance;
  }
  if (st == ASTAR_OK && subgoal) {
    /* A subgoal graph is the argument of its finder's constructor. */
    st = astar_finder_new_subgoal(&h->f, grid, subgoal, &cfg, NULL);
    if (st == ASTAR_UNSUPPORTED) reason = astar_finder_subgoal_unsupported_reason(grid, &cfg);
  } else if (st == ASTAR_OK) {
    st = astar_finder_new(&h->f, grid, &cfg, NULL);
    if (st == ASTAR_UNSUPPORTED) reason = astar_finder_unsupported_reason(grid, NULL, &cfg);
  }
  if (st == ASTAR_OK) st = astar_workspace_new_empty(&h->ws, NULL);
  if (st != ASTAR_OK) {
    finder_free(h);
    return -(intptr_t)st;
  }
  const astar_method_info *info = astar_method_info_of(cfg.method);
  h->kind = info && (info->flags & ASTAR_MF_VEC) ? KIND_VEC : KIND_POINTS;
  return (intptr_t)h;
}

/* A finder over `space` (filled by jsa_hex_space / jsa_graph_space). */
static intptr_t finder_new_space(const astar_space *space, const astar_landmarks *landmarks) {
  reason = NULL;
  jsa_finder *h = calloc(1, sizeof *h);
  if (!h) return -(intptr_t)ASTAR_NO_MEMORY;
  h->space = *space;
  h->kind = KIND_NODES;
  astar_finder_config cfg;
  config_from(&cfg);
  cfg.engine.method = cfg.method;
  cfg.landmarks = landmarks;
  astar_status st = astar_finder_new_space(&h->f, &h->space, &cfg, NULL);
  if (st == ASTAR_UNSUPPORTED) reason = astar_finder_unsupported_reason(NULL, &h->space, &cfg);
  if (st == ASTAR_OK) st = astar_workspace_new_empty(&h->ws, NULL);
  if (st != ASTAR_OK) {
    finder_free(h);
    return -(intptr_t)st;
  }
  return (intptr_t)h;
}

static void result_from(astar_status st, const astar_path_result *r) {
  result[R_STATUS] = st;
  result[R_CAUSE] = r->cause;
  result[R_COST] = r->cost;
  result[R_LENGTH] = (double)r->length;
  result[R_EXPANDED] = (double)r->stats.expanded;
  result[R_GENERATED] = (double)r->stats.generated;
  result[R_REOPENED] = (double)r->stats.reopened;
  result[R_MAX_OPEN] = (double)r->stats.max_open;
  result[R_WORK] = (double)r->work;
  result[R_END_X] = r->end.x;
  result[R_END_Y] = r->end.y;
  result[R_END_NODE] = r->end_node == ASTAR_NODE_NONE ? -1 : (double)r->end_node;
  result[R_RETARGETED] = r->retargeted;
  result[R_DROPPED] = (double)r->dropped;
  result[R_ITERATIONS] = (double)r->iterations;
  result[R_SIGHT_CHECKS] = (double)r->sight_checks;
  result[R_ABSTRACT_EXPANDED] = (double)r->abstract_expanded;
  result[R_ABSTRACT_LENGTH] = r->abstract_length;
  result[R_GRID_COST] = r->grid_cost;
  result[R_MEET] = r->meet == ASTAR_NODE_NONE ? -1 : (double)r->meet;
  result[R_CORRIDOR] = r->abstract_length;
}

/* One search: its status; the path in jsa_path_ptr() (int32 x, y pairs;
** doubles for KIND_VEC; uint32 nodes for KIND_NODES), R_LENGTH points.
** A path longer than the buffer grows it and is searched again (once per
** new longest path). For a space finder sx is the start node and gx the
** goal (sy, gy unused). */
EXPORT int jsa_find(const jsa_finder *h, int32_t sx, int32_t sy, int32_t gx, int32_t gy) {
  astar_path_result r;
  astar_status st;
  for (;;) {
    if (h->kind == KIND_POINTS) {
      st = astar_finder_find(h->f, h->ws, (astar_point){sx, sy}, (astar_point){gx, gy}, path_buf,
                             path_bytes / sizeof(astar_point), &r);
      if (st == ASTAR_BUFFER_TOO_SMALL && path_reserve(r.length * sizeof(astar_point))) continue;
    } else if (h->kind == KIND_VEC) {
      st = astar_finder_find_vec(h->f, h->ws, (astar_point){sx, sy}, (astar_point){gx, gy},
                                 path_buf, path_bytes / sizeof(astar_vec2), &r);
      if (st == ASTAR_BUFFER_TOO_SMALL && path_reserve(r.length * sizeof(astar_vec2))) continue;
    } else {
      st = astar_finder_find_nodes(h->f, h->ws, (astar_node)sx, (astar_node)gx, path_buf,
                                   path_bytes / sizeof(astar_node), &r);
      if (st == ASTAR_BUFFER_TOO_SMALL && path_reserve(r.length * sizeof(astar_node))) continue;
    }
    break;
  }
  result_from(st, &r);
  return st;
}

/* ---- Navigation meshes (astar/mesh.h, astar/navmesh_build.h) ---------- */

/* The fault of the last failed mesh or polygon-map call. */
static astar_mesh_fault mesh_fault;
/* locate's answer: place, polygon, other, vertex. */
static int32_t mesh_loc[4];
/* bounds: min x, min y, max x, max y. */
static double mesh_box[4];

/* The fault's fields by index: kind, polygon, vertex, other, line, column. */
EXPORT int jsa_mesh_fault_field(int i) {
  const int32_t f[6] = {(int32_t)mesh_fault.kind, mesh_fault.polygon,
                        mesh_fault.vertex,        mesh_fault.other,
                        (int32_t)mesh_fault.line, (int32_t)mesh_fault.column};
  return i >= 0 && i < 6 ? f[i] : 0;
}
EXPORT const char *jsa_mesh_fault_message(void) {
  return mesh_fault.message;
}

/* Read a mesh (format v2 or v1): the mesh or -status, the fault saying
** where and what. */
EXPORT intptr_t jsa_mesh_read(const char *text, size_t len) {
  astar_mesh *m = NULL;
  memset(&mesh_fault, 0, sizeof mesh_fault);
  return handle_or_status(astar_mesh_read(&m, text, len, NULL, &mesh_fault), m);
}

EXPORT intptr_t jsa_mesh_from_polygons(const astar_vec2 *vertices, size_t nv, const uint32_t *sizes,
                                       const int32_t *indices, size_t np) {
  astar_mesh *m = NULL;
  memset(&mesh_fault, 0, sizeof mesh_fault);
  return handle_or_status(
      astar_mesh_from_polygons(&m, vertices, nv, sizes, indices, np, NULL, &mesh_fault), m);
}

EXPORT void jsa_mesh_free(astar_mesh *m) {
  astar_mesh_free(m);
}

/* The mesh as text (format v2) in jsa_path_ptr(): its length, or -status. */
EXPORT int jsa_mesh_write(const astar_mesh *m) {
  size_t len = 0;
  astar_status st = astar_mesh_write(m, NULL, 0, &len);
  if (st != ASTAR_OK && st != ASTAR_BUFFER_TOO_SMALL) return -(int)st;
  if (!path_reserve(len + 1)) return -(int)ASTAR_NO_MEMORY;
  st = astar_mesh_write(m, path_buf, path_bytes, &len);
  return st == ASTAR_OK ? (int)len : -(int)st;
}

EXPORT int jsa_mesh_validate(const astar_mesh *m) {
  memset(&mesh_fault, 0, sizeof mesh_fault);
  return astar_mesh_validate(m, &mesh_fault);
}

EXPORT int32_t *jsa_mesh_location(void) {
  return mesh_loc;
}
EXPORT int jsa_mesh_locate(const astar_mesh *m, double x, double y) {
  astar_mesh_location loc;
  const int32_t p = astar_mesh_locate(m, (astar_vec2){x, y}, &loc);
  mesh_loc[0] = (int32_t)loc.place;
  mesh_loc[1] = loc.polygon;
  mesh_loc[2] = loc.other;
  mesh_loc[3] = loc.vertex;
  return p;
}

EXPORT double jsa_mesh_vertex_count(const astar_mesh *m) {
  return (double)astar_mesh_vertex_count(m);
}
EXPORT double jsa_mesh_polygon_count(const astar_mesh *m) {
  return (double)astar_mesh_polygon_count(m);
}
EXPORT double jsa_mesh_area(const astar_mesh *m) {
  return astar_mesh_area(m);
}
EXPORT double jsa_mesh_version(const astar_mesh *m) {
  return (double)astar_mesh_version(m);
}
EXPORT double *jsa_mesh_bounds(const astar_mesh *m) {
  astar_vec2 lo, hi;
  astar_mesh_bounds(m, &lo, &hi);
  mesh_box[0] = lo.x;
  mesh_box[1] = lo.y;
  mesh_box[2] = hi.x;
  mesh_box[3] = hi.y;
  return mesh_box;
}

/* The vertices as doubles (x, y) in jsa_path_ptr(): 0, or -status. */
EXPORT int jsa_mesh_vertices(const astar_mesh *m) {
  const size_t n = astar_mesh_vertex_count(m);
  if (!path_reserve(n * sizeof(astar_vec2))) return -(int)ASTAR_NO_MEMORY;
  astar_vec2 *out = path_buf;
  for (size_t i = 0; i < n; i++) out[i] = astar_mesh_vertex(m, i);
  return 0;
}

/* Polygon i: its vertex count n (0 for an empty slot); its n vertex
** indices then its n neighbours (int32) in jsa_path_ptr(); -status when the
** buffer cannot grow. */
EXPORT int jsa_mesh_polygon(const astar_mesh *m, double i) {
  const int32_t *v, *nb;
  const uint32_t n = astar_mesh_polygon(m, (size_t)i, &v, &nb);
  if (!path_reserve(2 * (size_t)n * sizeof(int32_t) + 1)) return -(int)ASTAR_NO_MEMORY;
  int32_t *out = path_buf;
  if (n) {
    memcpy(out, v, n * sizeof *v);
    memcpy(out + n, nb, n * sizeof *nb);
  }
  return (int)n;
}

/* A builder from a grid, or from polygon-map text (fault on a parse error). */
EXPORT intptr_t jsa_navmesh_from_grid(const astar_grid *g, double radius, int merge) {
  astar_navmesh_options o;
  astar_navmesh_options_init(&o);
  o.radius = radius;
  o.merge = merge != 0;
  astar_navmesh *nm = NULL;
  return handle_or_status(astar_navmesh_from_grid(&nm, g, &o, NULL), nm);
}

EXPORT intptr_t jsa_navmesh_from_poly(const char *text, size_t len, double radius, int merge) {
  astar_polymap *pm = NULL;
  memset(&mesh_fault, 0, sizeof mesh_fault);
  astar_status st = astar_polymap_read(&pm, text, len, NULL, &mesh_fault);
  if (st != ASTAR_OK) return -(intptr_t)st;
  astar_navmesh_options o;
  astar_navmesh_options_init(&o);
  o.radius = radius;
  o.merge = merge != 0;
  astar_navmesh *nm = NULL;
  st = astar_navmesh_from_polymap(&nm, pm, &o, NULL);
  astar_polymap_free(pm);
  return handle_or_status(st, nm);
}

EXPORT void jsa_navmesh_free(astar_navmesh *nm) {
  astar_navmesh_free(nm);
}
EXPORT const astar_mesh *jsa_navmesh_mesh(const astar_navmesh *nm) {
  return astar_navmesh_mesh(nm);
}

/* Add an obstacle of n (x, y) doubles: its id (> 0) or -status. */
EXPORT double jsa_navmesh_add_obstacle(astar_navmesh *nm, const astar_vec2 *points, size_t n) {
  uint32_t id = 0;
  const astar_status st = astar_navmesh_add_obstacle(nm, points, n, &id);
  return st == ASTAR_OK ? (double)id : -(double)st;
}
EXPORT int jsa_navmesh_remove_obstacle(astar_navmesh *nm, double id) {
  if (!(id >= 1 && id <= 4294967295.0)) return ASTAR_INVALID_ARGUMENT;
  return astar_navmesh_remove_obstacle(nm, (uint32_t)id);
}
/* The build's figures by index: constraints, triangles, free triangles,
** polygons, removed, added, memory. */
EXPORT double jsa_navmesh_stat(const astar_navmesh *nm, int i) {
  astar_navmesh_stats s;
  astar_navmesh_stats_get(nm, &s);
  const size_t f[7] = {s.constraints, s.triangles, s.free_triangles, s.polygons,
                       s.removed,     s.added,     s.memory};
  return i >= 0 && i < 7 ? (double)f[i] : 0;
}

/* A mesh finder from the parameter block (method, weight, maxExpansions):
** its handle or -status (jsa_reason() with ASTAR_UNSUPPORTED). */
EXPORT intptr_t jsa_finder_new_mesh(const astar_mesh *mesh) {
  reason = NULL;
  jsa_finder *h = calloc(1, sizeof *h);
  if (!h) return -(intptr_t)ASTAR_NO_MEMORY;
  h->kind = KIND_MESH;
  astar_finder_config cfg;
  astar_finder_config_init(&cfg);
  cfg.method = (astar_method)(int)params[P_METHOD];
  cfg.engine.weight = params[P_WEIGHT];
  cfg.engine.max_expansions = u64_of(params[P_MAX_EXPANSIONS]);
  astar_status st = astar_finder_new_mesh(&h->f, mesh, &cfg, NULL);
  if (st == ASTAR_UNSUPPORTED) reason = astar_finder_mesh_unsupported_reason(mesh, &cfg);
  if (st == ASTAR_OK) st = astar_workspace_new_empty(&h->ws, NULL);
  if (st != ASTAR_OK) {
    finder_free(h);
    return -(intptr_t)st;
  }
  return (intptr_t)h;
}

/* A mesh finder's search between points: the status; the path as doubles
** (x, y) in jsa_path_ptr(), R_LENGTH points. */
EXPORT int jsa_find_points(const jsa_finder *h, double sx, double sy, double gx, double gy) {
  astar_path_result r;
  astar_status st;
  for (;;) {
    st = astar_finder_find_points(h->f, h->ws, (astar_vec2){sx, sy}, (astar_vec2){gx, gy}, path_buf,
                                  path_bytes / sizeof(astar_vec2), &r);
    if (st == ASTAR_BUFFER_TOO_SMALL && path_reserve(r.length * sizeof(astar_vec2))) continue;
    break;
  }
  result_from(st, &r);
  return st;
}

/* Bring a finder up to its grid's version (astar_finder_refresh). */
EXPORT int jsa_finder_refresh(jsa_finder *h) {
  return astar_finder_refresh(h->f);
}

/* ---- Preparations (save/load to bytes where the library can) ---------- */

/* Bytes of a save: the size into jsa_result[R_LENGTH]; then the caller
** gives a buffer of that size. Each save is called twice: the first call
** (buf NULL) asks the size. */
typedef astar_status (*save_fn)(const void *obj, void *buf, size_t cap, size_t *len);
static int save_size(save_fn fn, const void *obj) {
  size_t len = 0;
  astar_status st = fn(obj, NULL, 0, &len);
  result[R_LENGTH] = (double)len;
  return st == ASTAR_BUFFER_TOO_SMALL ? ASTAR_OK : st;
}
static astar_status jps_save(const void *o, void *b, size_t c, size_t *l) {
  return astar_jps_plus_save(o, b, c, l);
}
static astar_status cpd_save(const void *o, void *b, size_t c, size_t *l) {
  return astar_cpd_save(o, b, c, l);
}
static astar_status hpa_save(const void *o, void *b, size_t c, size_t *l) {
  return astar_hpa_save(o, b, c, l);
}
static astar_status lm_save(const void *o, void *b, size_t c, size_t *l) {
  return astar_landmarks_save(o, b, c, l);
}
static astar_status sg_save(const void *o, void *b, size_t c, size_t *l) {
  return astar_subgoal_save(o, b, c, l);
}
static const save_fn savers[5] = {jps_save, cpd_save, hpa_save, lm_save, sg_save};

/* kind: 0 JPS+, 1 CPD, 2 HPA*, 3 landmarks, 4 subgoal graph. */
EXPORT int jsa_prep_save_size(int kind, const void *obj) {
  return save_size(savers[kind], obj);
}
EXPORT int jsa_prep_save(int kind, const void *obj, void *buf, size_t cap) {
  size_t len = 0;
  return savers[kind](obj, buf, cap, &len);
}

EXPORT intptr_t jsa_jps_plus_new(const astar_grid *g) {
  astar_jps_plus *p = NULL;
  astar_status st = astar_jps_plus_new(&p, g, NULL);
  return handle_or_status(st, p);
}
EXPORT intptr_t jsa_jps_plus_load(const astar_grid *g, const void *buf, size_t len) {
  astar_jps_plus *p = NULL;
  astar_status st = astar_jps_plus_load(&p, g, buf, len, NULL);
  return handle_or_status(st, p);
}
EXPORT void jsa_jps_plus_free(astar_jps_plus *p) {
  astar_jps_plus_free(p);
}

/* A CPD with the parameter block's movement rules; ASTAR_UNSUPPORTED: jsa_reason(). */
EXPORT intptr_t jsa_cpd_new(const astar_grid *g) {
  reason = NULL;
  astar_options o;
  options_from(&o);
  astar_cpd_config cfg;
  astar_cpd_config_init(&cfg);
  cfg.rules = &o;
  astar_cpd *p = NULL;
  astar_status st = astar_cpd_build(&p, g, &cfg, NULL);
  if (st == ASTAR_UNSUPPORTED) reason = astar_cpd_unsupported_reason(g, &o);
  return handle_or_status(st, p);
}
EXPORT intptr_t jsa_cpd_load(const astar_grid *g, const void *buf, size_t len) {
  astar_cpd *p = NULL;
  astar_status st = astar_cpd_load(&p, g, buf, len, NULL);
  return handle_or_status(st, p);
}
EXPORT void jsa_cpd_free(astar_cpd *p) {
  astar_cpd_free(p);
}

/* A subgoal graph with the parameter block's movement rules and `levels`
** (0: N-level); ASTAR_UNSUPPORTED: jsa_reason(). */
EXPORT intptr_t jsa_subgoal_new(const astar_grid *g, int levels) {
  reason = NULL;
  astar_subgoal_config cfg;
  astar_subgoal_config_init(&cfg);
  options_from(&cfg.options);
  cfg.levels = (uint32_t)levels;
  astar_subgoal *p = NULL;
  astar_status st = astar_subgoal_build(&p, g, &cfg, NULL);
  if (st == ASTAR_UNSUPPORTED) reason = astar_subgoal_unsupported_reason(g, &cfg.options);
  return handle_or_status(st, p);
}
EXPORT intptr_t jsa_subgoal_load(const astar_grid *g, const void *buf, size_t len) {
  astar_subgoal *p = NULL;
  astar_status st = astar_subgoal_load(&p, g, buf, len, NULL);
  return handle_or_status(st, p);
}
EXPORT void jsa_subgoal_free(astar_subgoal *p) {
  astar_subgoal_free(p);
}

static void hpa_options_from(astar_hpa_options *h) {
  astar_hpa_options_init(h);
  h->cluster_size = (int32_t)params[P_HPA_CLUSTER];
  h->levels = (int32_t)params[P_HPA_LEVELS];
  h->ratio = (int32_t)params[P_HPA_RATIO];
  h->wide_entrance = (int32_t)params[P_HPA_WIDE_ENTRANCE];
  h->smooth = params[P_HPA_SMOOTH] != 0;
}
EXPORT intptr_t jsa_hpa_new(const astar_grid *g) {
  astar_options o;
  options_from(&o);
  astar_hpa_options h;
  hpa_options_from(&h);
  astar_hpa *p = NULL;
  astar_status st = astar_hpa_new(&p, g, &o, &h, NULL);
  return handle_or_status(st, p);
}
EXPORT intptr_t jsa_hpa_load(const astar_grid *g, const void *buf, size_t len) {
  astar_options o;
  options_from(&o);
  astar_hpa *p = NULL;
  astar_status st = astar_hpa_load(&p, g, &o, buf, len, NULL);
  return handle_or_status(st, p);
}
/* Bring the hierarchy up to the grid's edits: the clusters rebuilt into R_LENGTH. */
EXPORT int jsa_hpa_sync(astar_hpa *p, const astar_grid *g) {
  uint64_t rebuilt = 0;
  astar_status st = astar_hpa_sync(p, g, &rebuilt);
  result[R_LENGTH] = (double)rebuilt;
  return st;
}
EXPORT void jsa_hpa_free(astar_hpa *p) {
  astar_hpa_free(p);
}

static void lm_options_from(astar_landmark_options *l) {
  astar_landmark_options_init(l);
  l->count = (uint32_t)params[P_LM_COUNT];
}
EXPORT intptr_t jsa_landmarks_new_grid(const astar_grid *g) {
  astar_options o;
  options_from(&o);
  astar_landmark_options l;
  lm_options_from(&l);
  astar_landmarks *p = NULL;
  astar_status st = astar_landmarks_new_grid(&p, g, &o, &l, NULL);
  return handle_or_status(st, p);
}
EXPORT intptr_t jsa_landmarks_load_grid(const astar_grid *g, const void *buf, size_t len) {
  astar_options o;
  options_from(&o);
  astar_landmarks *p = NULL;
  astar_status st = astar_landmarks_load_grid(&p, g, &o, buf, len, NULL);
  return handle_or_status(st, p);
}
/* Landmarks of a space: a HexGrid's or a Graph's (jsa_space_*). */
static astar_space space_scratch;
EXPORT intptr_t jsa_landmarks_new_space(void) {
  astar_landmark_options l;
  lm_options_from(&l);
  astar_landmarks *p = NULL;
  astar_status st = astar_landmarks_new(&p, &space_scratch, &l, NULL);
  return handle_or_status(st, p);
}
EXPORT intptr_t jsa_landmarks_load_space(const void *buf, size_t len) {
  astar_landmarks *p = NULL;
  astar_status st = astar_landmarks_load(&p, &space_scratch, buf, len, NULL);
  return handle_or_status(st, p);
}
EXPORT void jsa_landmarks_free(astar_landmarks *p) {
  astar_landmarks_free(p);
}

/* ---- Hex grids and graphs: spaces the engine's methods search --------- */
EXPORT intptr_t jsa_hex_new(int32_t w, int32_t h, int orientation, int layout) {
  astar_hex_grid *g = NULL;
  astar_status st = astar_hex_grid_new(&g, w, h, (astar_hex_orientation)orientation,
                                       (astar_hex_layout)layout, NULL);
  return handle_or_status(st, g);
}
EXPORT void jsa_hex_free(astar_hex_grid *g) {
  astar_hex_grid_free(g);
}
EXPORT int jsa_hex_set_passable(astar_hex_grid *g, int32_t x, int32_t y, int passable) {
  return astar_hex_grid_set_passable(g, x, y, passable != 0);
}
EXPORT int jsa_hex_passable(const astar_hex_grid *g, int32_t x, int32_t y) {
  return astar_hex_grid_passable(g, x, y);
}
EXPORT int jsa_hex_set_terrain(astar_hex_grid *g, int32_t x, int32_t y, float cost) {
  return astar_hex_grid_set_terrain(g, x, y, cost);
}
EXPORT float jsa_hex_terrain(const astar_hex_grid *g, int32_t x, int32_t y) {
  return astar_hex_grid_terrain(g, x, y);
}
/* The node of offset cell (x, y): y * width + x (astar_hex_grid_node). */
EXPORT uint32_t jsa_hex_node(const astar_hex_grid *g, int32_t x, int32_t y) {
  return astar_hex_grid_node(g, (astar_point){x, y});
}
/* Put the hex grid's space into the binding's scratch (landmarks) and make a finder. */
EXPORT int jsa_hex_space(const astar_hex_grid *g) {
  return astar_hex_space(g, &space_scratch);
}
EXPORT intptr_t jsa_finder_new_space(const astar_landmarks *landmarks) {
  return finder_new_space(&space_scratch, landmarks);
}

/* A graph from `nedges` edges given as three arrays (the wrapper checks
** them): from[], to[] (uint32) and cost[] (double); flags as astar_graph_new. */
EXPORT intptr_t jsa_graph_new(uint32_t nodes, const uint32_t *from, const uint32_t *to,
                              const double *cost, size_t nedges, unsigned flags) {
  astar_graph_edge *e = malloc((nedges ? nedges : 1) * sizeof *e);
  if (!e) return -(intptr_t)ASTAR_NO_MEMORY;
  for (size_t i = 0; i < nedges; i++) e[i] = (astar_graph_edge){from[i], to[i], cost[i]};
  astar_graph *g = NULL;
  astar_status st = astar_graph_new(&g, nodes, e, nedges, flags, NULL);
  free(e);
  return handle_or_status(st, g);
}
EXPORT void jsa_graph_free(astar_graph *g) {
  astar_graph_free(g);
}
EXPORT int jsa_graph_set_coords(astar_graph *g, int dims, const double *xyz) {
  return astar_graph_set_coords(g, dims, xyz);
}
EXPORT int jsa_graph_set_heuristic(astar_graph *g, int kind, double scale) {
  return astar_graph_set_heuristic(g, (astar_graph_heuristic)kind, scale);
}
EXPORT int jsa_graph_space(const astar_graph *g) {
  return astar_graph_space(g, &space_scratch);
}

/* ---- The request queue (astar/queue.h) --------------------------------
** Requests are submitted without a path buffer; the queue's callback copies
** every delivered path into a block of its own size (kept in `done`, by
** id, until the request is released), so paths of any length arrive
** without the queue stopping an update to hold one. */
typedef struct done_path {
  astar_request_id id;
  astar_point *path;
  size_t len;
} done_path;

typedef struct jsa_queue {
  astar_queue *q;
  done_path *done;
  size_t ndone, cap;
  bool oom; /* a path could not be copied (no memory): reported by update */
} jsa_queue;

static done_path *done_find(jsa_queue *jq, astar_request_id id) {
  for (size_t i = 0; i < jq->ndone; i++)
    if (jq->done[i].id == id) return &jq->done[i];
  return NULL;
}

static void on_done(void *ctx, const astar_request_done *d) {
  jsa_queue *jq = ctx;
  size_t len = 0;
  astar_status st = astar_queue_path(jq->q, d->id, NULL, 0, &len);
  if (st != ASTAR_BUFFER_TOO_SMALL || len == 0) return; /* no path */
  if (jq->ndone == jq->cap) {
    size_t n = jq->cap ? 2 * jq->cap : 16;
    done_path *p = realloc(jq->done, n * sizeof *p);
    if (!p) {
      jq->oom = true;
      return;
    }
    jq->done = p;
    jq->cap = n;
  }
  astar_point *path = malloc(len * sizeof *path);
  if (!path || astar_queue_path(jq->q, d->id, path, len, &len) != ASTAR_OK) {
    free(path);
    jq->oom = true;
    return;
  }
  jq->done[jq->ndone++] = (done_path){d->id, path, len};
}

EXPORT intptr_t jsa_queue_new(const astar_grid *g, uint32_t capacity) {
  jsa_queue *jq = calloc(1, sizeof *jq);
  if (!jq) return -(intptr_t)ASTAR_NO_MEMORY;
  astar_status st = astar_queue_new(&jq->q, g, capacity, NULL);
  if (st != ASTAR_OK) {
    free(jq);
    return -(intptr_t)st;
  }
  astar_queue_set_callback(jq->q, on_done, jq);
  return (intptr_t)jq;
}

EXPORT void jsa_queue_free(jsa_queue *jq) {
  if (!jq) return;
  astar_queue_free(jq->q);
  for (size_t i = 0; i < jq->ndone; i++) free(jq->done[i].path);
  free(jq->done);
  free(jq);
}

/* Submit: with a finder (0: the parameter block's method and options, as
** the queue prepares them). The id (> 0) or -status; ASTAR_UNSUPPORTED:
** jsa_reason(). */
EXPORT intptr_t jsa_queue_submit(jsa_queue *jq, const jsa_finder *f, int32_t sx, int32_t sy,
                                 int32_t gx, int32_t gy, int priority) {
  reason = NULL;
  astar_options o;
  astar_request r = {0};
  r.start = (astar_point){sx, sy};
  r.goal = (astar_point){gx, gy};
  r.priority = priority;
  if (f) {
    r.finder = f->f;
  } else {
    options_from(&o);
    r.opt = &o;
    r.method = (astar_method)(int)params[P_METHOD];
    r.unit_size = (int32_t)params[P_UNIT_SIZE];
    r.smooth = params[P_SMOOTH] != 0;
  }
  astar_request_id id = 0;
  astar_status st = astar_queue_submit_request(jq->q, &r, &id);
  if (st == ASTAR_UNSUPPORTED) reason = astar_queue_unsupported_reason(jq->q, &r);
  return st == ASTAR_OK ? (intptr_t)id : -(intptr_t)st;
}

/* One frame: the frame's figures into jsa_result: R_WORK work done,
** R_LENGTH finished, R_EXPANDED pending, R_GENERATED restarted, R_COST debt. */
EXPORT int jsa_queue_update(jsa_queue *jq, double budget) {
  astar_queue_frame fr;
  memset(&fr, 0, sizeof fr);
  jq->oom = false;
  astar_status st = astar_queue_update(jq->q, (uint64_t)budget, &fr);
  result[R_WORK] = (double)fr.expanded;
  result[R_LENGTH] = fr.finished;
  result[R_EXPANDED] = fr.pending;
  result[R_GENERATED] = fr.restarted;
  result[R_COST] = (double)fr.debt;
  if (st == ASTAR_OK && jq->oom) st = ASTAR_NO_MEMORY;
  return st;
}

/* A request's state (astar_request_state); when done its outcome in
** jsa_result (as jsa_find) and its path copied into the binding's path
** buffer (R_LENGTH points). */
EXPORT int jsa_queue_poll(jsa_queue *jq, uint32_t id) {
  astar_request_done d;
  astar_request_state s = astar_queue_outcome(jq->q, id, &d);
  if (s != ASTAR_REQUEST_DONE) return s;
  astar_path_result r;
  memset(&r, 0, sizeof r);
  r.status = d.status;
  r.cause = d.result.cause;
  r.cost = d.result.cost;
  r.stats = d.result.stats;
  r.work = d.work;
  r.end = d.result.end;
  r.end_node = ASTAR_NODE_NONE;
  r.meet = ASTAR_NODE_NONE;
  r.retargeted = d.result.retargeted;
  done_path *p = done_find(jq, id);
  r.length = 0;
  if (p && path_reserve(p->len * sizeof(astar_point))) {
    memcpy(path_buf, p->path, p->len * sizeof(astar_point));
    r.length = p->len;
  }
  /* Requests have no buffer of their own (cap 0): a found path is reported
  ** BUFFER_TOO_SMALL by the queue and was copied by on_done. */
  astar_status st = d.status;
  if (st == ASTAR_BUFFER_TOO_SMALL && r.length) st = ASTAR_OK;
  r.status = st;
  result_from(st, &r);
  result[R_ITERATIONS] = d.restarts;
  return s;
}

EXPORT int jsa_queue_cancel(jsa_queue *jq, uint32_t id) {
  return astar_queue_cancel(jq->q, id);
}

EXPORT int jsa_queue_release(jsa_queue *jq, uint32_t id) {
  done_path *p = done_find(jq, id);
  if (p) {
    free(p->path);
    *p = jq->done[--jq->ndone];
  }
  return astar_queue_release(jq->q, id);
}

EXPORT double jsa_queue_pending(const jsa_queue *jq) {
  return (double)astar_queue_pending(jq->q);
}
