/*
** bridge.c -- the small C API the web playground calls from JavaScript: one
** playground object holding a grid (square, and as hexagons in hex mode), a
** workspace, the search options and the last search's results (status,
** statistics, path and every observer event in a growable buffer that
** JavaScript reads through the HEAP views).
**
** Searches: every method goes through the finder (astar/finder.h), chosen
** in one place (selected_method: the library's method table, listed for the
** page by pg_method_*) and prepared once a run (selected_finder): on the
** square grid A*, JPS, JPS+, HPA*, A* with landmarks, Theta*, Lazy Theta*,
** Anya and the search engine's methods (astar/engine.h: bidirectional,
** IDA*, beam, ...) on the grid as a space; on the hex grid (astar/hex.h),
** the engine's methods on the hex grid as a space. Node ids of both spaces
** are the cell indices y * width + x, as the page numbers cells. Any-angle
** paths (square grid): Theta*, Lazy Theta*, Anya, or a grid path
** string-pulled (astar_path_smooth) -- a line of points through cell
** centres, with the cells it walks (astar_waypoints_expand). Units of k x k cells (square
** grid, astar/clearance.h): the clearance of every cell, and searches on the
** derived grid of the unit's anchor (its top-left cell). D* Lite
** (astar/dstar.h) as an algorithm: its first plan, backward from the goal.
** Walk mode (issue 10): a planner for a unit walking on a map the person
** keeps editing -- D* Lite (astar/dstar.h) or repeated A* -- with the work
** of each repair against a fresh A* (pg_walk_*, near the end of this file).
** MAPF mode (issue 29): many agents on the map, solved by the library's
** MAPF algorithms, beside the collisions of their naive paths (pg_mapf_*).
** Mesh mode (issue 30): the navigation mesh of the current grid map
** (astar/navmesh_build.h), Polyanya's optimal path over it beside Anya's
** on the grid, and the funnel's (pg_mesh_*).
**
** Everything is reached through a pg_state handle, so the library's rule of
** no global mutable state holds here too. Cells are exchanged as one byte
** each: 0 blocked, 1..255 passable with that terrain cost.
*/
#include <astar/astar.h>
#include <astar/mapf.h>
#include <astar/navmesh_build.h>
#include <math.h>
#include <stdio.h>

#include <stdlib.h>
#include <string.h>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#define PG_API EMSCRIPTEN_KEEPALIVE
static double now_ms(void) {
  return emscripten_get_now();
}
#else
/* Native builds exist only to check the bridge with gcc and sanitizers. */
#include <time.h>
#define PG_API
static double now_ms(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
#endif

/* Algorithm numbers of pg_set_options; JPS+ is not an astar_algorithm but a
** separate entry point with its own precomputation; PG_ALGO_ENGINE is the
** search engine with the method of pg_set_engine (on a hex grid every
** search is the engine's); PG_ALGO_THETA and PG_ALGO_LAZY_THETA are the
** any-angle searches of astar/anyangle.h (square grids only). */
enum {
  PG_ALGO_ASTAR = 0,
  PG_ALGO_JPS = 1,
  PG_ALGO_JPS_PLUS = 2,
  PG_ALGO_ENGINE = 3,
  PG_ALGO_THETA = 4,
  PG_ALGO_LAZY_THETA = 5,
  PG_ALGO_ANYA = 6,      /* Anya, the optimal any-angle path (astar/anya.h): no events */
  PG_ALGO_HPA = 7,       /* HPA* (astar/hierarchy.h): no events; overlay by pg_hpa_* */
  PG_ALGO_LANDMARKS = 8, /* the grid's A* with the landmark heuristic (astar/landmarks.h) */
  PG_ALGO_DSTAR = 9      /* D* Lite's first plan (astar/dstar.h): backward from the goal */
};

/* The event type D* Lite's observer is recorded as (after the astar_event_type
** and astar_engine_event_type values): a vertex whose g or rhs the plan set,
** each cell once; g and h NaN (the planner keeps them inside). */
#define PG_EVENT_REACHED 9

/* Landmark attribution on hover (pg_lm_info) keeps one distance field a
** landmark: only on maps up to this many cells. */
#define PG_LM_FIELD_CELLS ((size_t)1 << 18)

/* Geometries of pg_set_geometry. */
enum { PG_SQUARE = 0, PG_HEX = 1 };

/* One recorded observer event, 32 bytes, laid out for Int32Array and
** Float64Array views: cells are row-major indices, -1 for "none". */
typedef struct pg_event {
  int32_t type;   /* astar_event_type */
  int32_t cell;   /* y * width + x */
  int32_t parent; /* parent cell index, -1 for the start */
  int32_t aux;    /* grid searches: the arrival direction with a turn penalty, else -1;
                     engine searches: the side, 0 forward, 1 backward (bidirectional) */
  double g;       /* ITERATION (IDA*): 0; MEET: the cost of the whole path */
  double h;       /* as weighted, f = g + h; ITERATION (IDA*): the new bound */
} pg_event;

/* Unit sides pg_set_unit accepts, and the largest clearance computed (the
** overlay's numbers stop there). */
#define PG_UNIT_MAX 4
#define PG_CLEARANCE_CAP 16

/* Recording stops here (128 MiB of events); the search itself goes on. */
#define PG_MAX_EVENTS ((size_t)4 << 20)

typedef struct pg_state {
  astar_grid *grid;
  astar_workspace *ws;
  /* Hex mode: the same cells as hexagons, kept in step with `grid` by every
  ** edit; NULL in square mode. centers: the library's cell centres
  ** (astar_hex_center, circumradius 1), width * height (x, y) pairs. */
  astar_hex_grid *hex;
  astar_hex_orientation hex_orientation;
  astar_hex_layout hex_layout;
  double *centers;
  bool turns_reserved;        /* astar_workspace_reserve_turns done for this grid */
  astar_jps_plus *jpp;        /* JPS+ precomputation, rebuilt when its grid changes */
  const astar_grid *jpp_grid; /* the grid it was built on (grid or ugrid) */
  uint64_t jpp_version;
  /* Units (astar/clearance.h): the unit's side, the clearance of the grid
  ** (built on first use, kept current lazily), the derived grid of the
  ** unit's anchor (filled before each search with unit > 1) and the
  ** clearance values handed to JavaScript. */
  int32_t unit;         /* 1 .. PG_UNIT_MAX */
  astar_clearance *clr; /* NULL until needed */
  astar_grid *ugrid;    /* NULL until unit > 1 */
  uint8_t *clr_values;  /* width * height, filled by pg_clearance */
  size_t terrain_cells; /* cells with a terrain cost other than 1 */
  uint8_t *cells;       /* width * height bytes exchanged with JavaScript */
  astar_options opt;
  int algorithm;             /* PG_ALGO_* */
  astar_engine_options eopt; /* the engine's method and settings (pg_set_engine) */
  /* Last search. */
  astar_status status;
  astar_result result;
  uint64_t dropped;    /* beam, bandwidth: entries dropped */
  uint64_t iterations; /* IDA*: iterations */
  astar_node meet;     /* bidirectional: where the searches met, else ASTAR_NODE_NONE */
  astar_point *path;
  astar_node *nodes; /* an engine search's path as node ids */
  size_t path_cap;
  /* The line of the last search: Theta*'s points, or with `smooth` the grid
  ** path string-pulled; line_len == 0 without one. walked: the cells along
  ** it (astar_waypoints_expand), grown as needed. */
  bool smooth;         /* pg_set_smooth: string-pull the grid searches' paths */
  astar_point *line;   /* path_cap points */
  size_t line_len;     /* points in line, start and goal included */
  double line_cost;    /* the line's cost (astar_polyline_cost: straight_cost x its
                          Euclidean length without terrain) */
  astar_point *walked; /* cells walked along the line */
  size_t walked_len, walked_cap;
  uint64_t sight_checks; /* Theta*, Lazy Theta*: lines of sight tested */
  /* Anya (astar/anya.h): the optimal line -- Anya's path when it is the
  ** algorithm, else beside every other any-angle line, for comparison -- as
  ** corner points. */
  astar_vec2 *best; /* best_cap points, cell units (centres end in .5) */
  size_t best_len, best_cap;
  double best_cost; /* straight_cost x its Euclidean length */
  double smooth_ms; /* time of astar_path_smooth on the path */
  pg_event *events;
  size_t nevents, events_cap;
  bool events_truncated;
  bool recorded;        /* events were recorded (every algorithm reports them) */
  double time_ms;       /* mean time of one search without observer */
  int32_t time_runs;    /* how many searches that mean is over */
  double precompute_ms; /* JPS+, HPA* or landmarks precomputation of this run, 0 if cached */
  /* HPA* (astar/hierarchy.h): the hierarchy and a query object, rebuilt when
  ** the settings or the move rules change or the map changes other than by
  ** pg_set_cell; cells edited by pg_set_cell are gathered in a rectangle
  ** and applied with astar_hpa_update before the next search. */
  astar_hpa *hpa;
  astar_hpa_query *hq;
  astar_hpa_options hopt; /* pg_set_hpa */
  astar_options hpa_opt;  /* the move rules it was built with */
  uint64_t hpa_version;   /* grid version it reflects, with the dirty rectangle applied */
  bool hpa_dirty;         /* cells x0..x1, y0..y1 edited since the last build / update */
  int32_t hx0, hy0, hx1, hy1;
  int32_t hpa_rebuilt;   /* level-1 clusters recomputed before the last search; -1 none */
  astar_hpa_result hres; /* the last HPA* query */
  astar_point *hnodes;   /* pg_hpa_nodes' buffer */
  size_t hnodes_cap;
  uint32_t *hcross; /* pg_hpa_crossings' buffer (path_cap entries) */
  /* Landmarks (astar/landmarks.h): the table, its settings, and one
  ** distance field per landmark (to it) for the hover's attribution. */
  astar_landmarks *lm;
  astar_landmark_options lmopt; /* pg_set_landmarks */
  astar_options lm_opt;         /* the move rules it was built with */
  astar_field **lm_fields;      /* [count] or NULL (large map, or out of memory) */
  uint32_t lm_nfields;
  astar_point loaded_start, loaded_goal;
  astar_parse_error perr;
  /* The prepared query of the run in progress (pg_run: made for its
  ** searches, freed at its end -- the attachments it points to may change
  ** between runs); NULL outside pg_run. */
  astar_finder *finder;
  struct pg_walk *walk; /* walk mode's planner (pg_walk_new), NULL when off */
  struct pg_mapf *mapf; /* MAPF mode's last run (pg_mapf_run), NULL when none */
  struct pg_mesh *mesh; /* mesh mode's mesh and last query (pg_mesh_*), NULL when off */
  /* D* Lite as an algorithm (PG_ALGO_DSTAR): the planner of the last run,
  ** restarted (no allocation) while the grid, its version and the options
  ** stay -- the timed runs of one pg_run -- else made again; dl_seen marks
  ** the cells already recorded (one event a cell). */
  astar_dstar *dl;
  const astar_grid *dl_grid;
  uint64_t dl_version;
  astar_options dl_opt;
  uint8_t *dl_seen;
} pg_state;

PG_API void pg_walk_end(pg_state *s);
PG_API void pg_mapf_end(pg_state *s);
PG_API void pg_mesh_end(pg_state *s);

/* The next free event record, or NULL when recording has stopped. */
static pg_event *next_event(pg_state *s) {
  if (s->nevents == s->events_cap) {
    if (s->events_cap >= PG_MAX_EVENTS) {
      s->events_truncated = true;
      return NULL;
    }
    size_t cap = s->events_cap ? s->events_cap * 2 : 4096;
    if (cap > PG_MAX_EVENTS) cap = PG_MAX_EVENTS;
    pg_event *e = realloc(s->events, cap * sizeof *e);
    if (!e) {
      s->events_truncated = true;
      return NULL;
    }
    s->events = e;
    s->events_cap = cap;
  }
  return &s->events[s->nevents++];
}

/* Observer of the grid's searches. */
static void observe(void *ctx, const astar_event *ev) {
  pg_state *s = ctx;
  pg_event *e = next_event(s);
  if (!e) return;
  const int32_t w = astar_grid_width(s->grid);
  e->type = (int32_t)ev->type;
  e->cell = ev->cell.y * w + ev->cell.x;
  e->parent = ev->parent.x < 0 ? -1 : ev->parent.y * w + ev->parent.x;
  e->aux = ev->direction;
  e->g = ev->g;
  e->h = ev->h;
}

/* Observer of the engine's searches: node ids are cell indices. */
static void observe_engine(void *ctx, const astar_engine_event *ev) {
  pg_event *e = next_event(ctx);
  if (!e) return;
  e->type = (int32_t)ev->type;
  e->cell = (int32_t)ev->node;
  e->parent = ev->parent == ASTAR_NODE_NONE ? -1 : (int32_t)ev->parent;
  e->aux = ev->side;
  e->g = ev->g;
  e->h = ev->h;
}

static void reset_result(pg_state *s) {
  s->status = ASTAR_NO_PATH;
  memset(&s->result, 0, sizeof s->result);
  s->dropped = 0;
  s->iterations = 0;
  s->meet = ASTAR_NODE_NONE;
  s->nevents = 0;
  s->events_truncated = false;
  s->recorded = false;
  s->time_ms = 0;
  s->time_runs = 0;
  s->precompute_ms = 0;
  s->line_len = 0;
  s->line_cost = 0;
  s->walked_len = 0;
  s->sight_checks = 0;
  s->smooth_ms = 0;
  s->best_len = 0;
  s->best_cost = 0;
}

/* The cell bytes from the square grid. */
static void read_cells(pg_state *s) {
  const int32_t w = astar_grid_width(s->grid), h = astar_grid_height(s->grid);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      float t = astar_grid_terrain(s->grid, x, y);
      uint8_t v = t <= 1.0f ? 1 : t >= 255.0f ? 255 : (uint8_t)(t + 0.5f);
      s->cells[(size_t)y * (size_t)w + (size_t)x] = astar_grid_passable(s->grid, x, y) ? v : 0;
    }
}

/* One cell of the hex grid as the byte `value` says (a blocked cell gets
** terrain 1, as in a parsed hex map). */
static astar_status put_hex_cell(astar_hex_grid *hx, int32_t x, int32_t y, uint8_t value) {
  const float cost = value > 0 ? (float)value : 1.0f;
  astar_status st = astar_hex_grid_set_passable(hx, x, y, value > 0);
  if (st == ASTAR_OK && astar_hex_grid_terrain(hx, x, y) != cost)
    st = astar_hex_grid_set_terrain(hx, x, y, cost);
  return st;
}

/* Hex mode with the given shape: `given` (taken over; the cells must match
** it) or, when NULL, a hex grid made from the cell bytes. The centres are
** the library's (astar_hex_center). On failure nothing changes. */
static astar_status use_hex(pg_state *s, astar_hex_orientation orientation, astar_hex_layout layout,
                            astar_hex_grid *given) {
  const int32_t w = astar_grid_width(s->grid), h = astar_grid_height(s->grid);
  const size_t n = (size_t)w * (size_t)h;
  astar_hex_grid *hx = given;
  astar_status st = ASTAR_OK;
  if (!hx) st = astar_hex_grid_new(&hx, w, h, orientation, layout, NULL);
  double *centers = st == ASTAR_OK ? malloc(n * 2 * sizeof *centers) : NULL;
  if (st == ASTAR_OK && !centers) st = ASTAR_NO_MEMORY;
  for (int32_t y = 0; st == ASTAR_OK && y < h; y++)
    for (int32_t x = 0; st == ASTAR_OK && x < w; x++) {
      const size_t i = (size_t)y * (size_t)w + (size_t)x;
      if (!given) st = put_hex_cell(hx, x, y, s->cells[i]);
      astar_hex_center(orientation, layout, (astar_point){x, y}, &centers[2 * i]);
    }
  if (st != ASTAR_OK) {
    astar_hex_grid_free(hx);
    free(centers);
    return st;
  }
  astar_hex_grid_free(s->hex);
  free(s->centers);
  s->hex = hx;
  s->centers = centers;
  s->hex_orientation = orientation;
  s->hex_layout = layout;
  return ASTAR_OK;
}

static void use_square(pg_state *s) {
  astar_hex_grid_free(s->hex);
  free(s->centers);
  s->hex = NULL;
  s->centers = NULL;
}

/* Forget what was built for the old grid: the clearance, the derived
** grid, Anya's workspace (the grid is replaced). */
static void free_hpa(pg_state *s) {
  astar_hpa_query_free(s->hq);
  astar_hpa_free(s->hpa);
  s->hq = NULL;
  s->hpa = NULL;
  s->hpa_dirty = false;
}

static void free_landmarks(pg_state *s) {
  for (uint32_t i = 0; i < s->lm_nfields; i++) astar_field_free(s->lm_fields[i]);
  free(s->lm_fields);
  s->lm_fields = NULL;
  s->lm_nfields = 0;
  astar_landmarks_free(s->lm);
  s->lm = NULL;
}

static void free_dstar(pg_state *s) {
  astar_dstar_free(s->dl);
  free(s->dl_seen);
  s->dl = NULL;
  s->dl_grid = NULL;
  s->dl_seen = NULL;
}

static void drop_grid_objects(pg_state *s) {
  pg_walk_end(s); /* made on the old grid */
  pg_mapf_end(s); /* its cell indices are the old grid's */
  pg_mesh_end(s); /* built from the old grid */
  free_dstar(s);
  free_hpa(s);
  free_landmarks(s);
  astar_clearance_free(s->clr);
  astar_grid_free(s->ugrid);
  free(s->clr_values);
  s->clr = NULL;
  s->ugrid = NULL;
  s->clr_values = NULL;
}

/* Replace the grid by `g` (taken over): workspace, cell bytes, caches; in
** hex mode a hex grid of the same cells. */
static astar_status adopt_grid(pg_state *s, astar_grid *g) {
  const size_t n = (size_t)astar_grid_width(g) * (size_t)astar_grid_height(g);
  uint8_t *cells = malloc(n);
  astar_point *path = malloc(n * sizeof *path);
  astar_node *nodes = malloc(n * sizeof *nodes);
  astar_point *line = malloc(n * sizeof *line);
  astar_workspace *ws = NULL;
  astar_status st = astar_workspace_new(&ws, g, NULL);
  if (st != ASTAR_OK || !cells || !path || !nodes || !line) {
    free(cells);
    free(path);
    free(nodes);
    free(line);
    astar_workspace_free(ws);
    astar_grid_free(g);
    return st != ASTAR_OK ? st : ASTAR_NO_MEMORY;
  }
  astar_grid_free(s->grid);
  astar_workspace_free(s->ws);
  astar_jps_plus_free(s->jpp);
  drop_grid_objects(s);
  free(s->cells);
  free(s->path);
  free(s->nodes);
  free(s->line);
  s->grid = g;
  s->ws = ws;
  s->jpp = NULL;
  s->turns_reserved = false;
  s->cells = cells;
  s->path = path;
  s->nodes = nodes;
  s->line = line;
  s->path_cap = n;
  s->terrain_cells = 0;
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++)
      if (astar_grid_terrain(g, x, y) != 1.0f) s->terrain_cells++;
  read_cells(s);
  reset_result(s);
  if (s->hex) {
    st = use_hex(s, s->hex_orientation, s->hex_layout, NULL);
    if (st != ASTAR_OK) use_square(s);
    return st;
  }
  return ASTAR_OK;
}

PG_API pg_state *pg_new(int32_t width, int32_t height) {
  pg_state *s = calloc(1, sizeof *s);
  astar_grid *g = NULL;
  if (!s) return NULL;
  astar_options_init(&s->opt);
  astar_engine_options_init(&s->eopt);
  s->unit = 1;
  astar_hpa_options_init(&s->hopt);
  astar_landmark_options_init(&s->lmopt);
  s->hpa_rebuilt = -1;
  if (astar_grid_new(&g, width, height, NULL) != ASTAR_OK || adopt_grid(s, g) != ASTAR_OK) {
    free(s);
    return NULL;
  }
  return s;
}

PG_API void pg_free(pg_state *s) {
  if (!s) return;
  astar_grid_free(s->grid);
  astar_workspace_free(s->ws);
  astar_jps_plus_free(s->jpp);
  drop_grid_objects(s);
  use_square(s);
  free(s->cells);
  free(s->path);
  free(s->nodes);
  free(s->line);
  free(s->walked);
  free(s->best);
  free(s->events);
  free(s->hnodes);
  free(s->hcross);
  free(s);
}

/* A new all-passable grid of the given size (hexagons in hex mode). */
PG_API int pg_resize(pg_state *s, int32_t width, int32_t height) {
  astar_grid *g = NULL;
  astar_status st = astar_grid_new(&g, width, height, NULL);
  return st != ASTAR_OK ? st : adopt_grid(s, g);
}

PG_API int32_t pg_width(const pg_state *s) {
  return astar_grid_width(s->grid);
}
PG_API int32_t pg_height(const pg_state *s) {
  return astar_grid_height(s->grid);
}

/*
** Square (PG_SQUARE) or hex (PG_HEX) cells, the hex grid's orientation
** (astar_hex_orientation: 0 pointy, 1 flat) and layout (astar_hex_layout:
** 0 odd, 1 even). The map's cells stay as they are; in hex mode every search
** runs on the hex grid. Returns ASTAR_OK, ASTAR_INVALID_ARGUMENT or
** ASTAR_NO_MEMORY (then nothing changed).
*/
PG_API int pg_set_geometry(pg_state *s, int32_t geometry, int32_t orientation, int32_t layout) {
  if (geometry == PG_SQUARE) {
    use_square(s);
    reset_result(s);
    return ASTAR_OK;
  }
  if (geometry != PG_HEX || (orientation != ASTAR_HEX_POINTY && orientation != ASTAR_HEX_FLAT) ||
      (layout != ASTAR_HEX_ODD && layout != ASTAR_HEX_EVEN))
    return ASTAR_INVALID_ARGUMENT;
  reset_result(s);
  return use_hex(s, (astar_hex_orientation)orientation, (astar_hex_layout)layout, NULL);
}

/* PG_SQUARE or PG_HEX; the hex grid's orientation and layout. */
PG_API int32_t pg_geometry(const pg_state *s) {
  return s->hex ? PG_HEX : PG_SQUARE;
}
PG_API int32_t pg_hex_orientation(const pg_state *s) {
  return (int32_t)s->hex_orientation;
}
PG_API int32_t pg_hex_layout(const pg_state *s) {
  return (int32_t)s->hex_layout;
}
/* Hex mode: the centre of every cell, (x, y) doubles per cell index, for
** hexagons of circumradius 1 (astar_hex_center); NULL in square mode. */
PG_API const double *pg_hex_centers(const pg_state *s) {
  return s->centers;
}

/* One cell: 0 blocks it, 1..255 makes it passable with that terrain cost. */
PG_API int pg_set_cell(pg_state *s, int32_t x, int32_t y, int32_t value) {
  if (!astar_grid_contains(s->grid, x, y) || value < 0 || value > 255) return ASTAR_OUT_OF_BOUNDS;
  const float old = astar_grid_terrain(s->grid, x, y);
  const float cost = value > 0 ? (float)value : 1.0f;
  const bool was_passable = astar_grid_passable(s->grid, x, y);
  const bool clr_current = s->clr && astar_clearance_current(s->clr, s->grid);
  const bool hpa_current = s->hpa && s->hpa_version == astar_grid_version(s->grid);
  astar_status st = astar_grid_set_passable(s->grid, x, y, value > 0);
  if (st == ASTAR_OK && cost != old) st = astar_grid_set_terrain(s->grid, x, y, cost);
  if (st == ASTAR_OK && s->hex) st = put_hex_cell(s->hex, x, y, (uint8_t)value);
  if (st != ASTAR_OK) return st;
  /* A wall drawn or erased: the clearance follows the change from that cell
  ** (a terrain-only edit leaves it stale: rebuilt when next needed). */
  if (clr_current && was_passable != (value > 0)) {
    const astar_point p = {x, y};
    astar_clearance_update_cells(s->clr, s->grid, &p, 1);
  }
  if (old != 1.0f) s->terrain_cells--;
  if (cost != 1.0f) s->terrain_cells++;
  /* Without terrain the grid drops its layer, which JPS and JPS+ require. */
  if (s->terrain_cells == 0 && astar_grid_has_terrain(s->grid)) astar_grid_clear_terrain(s->grid);
  /* HPA*: remember the edited cell for astar_hpa_update (the issue's
  ** incremental rebuild: only the clusters around it are recomputed). */
  if (hpa_current) {
    if (!s->hpa_dirty) {
      s->hx0 = s->hx1 = x;
      s->hy0 = s->hy1 = y;
    }
    s->hx0 = x < s->hx0 ? x : s->hx0;
    s->hx1 = x > s->hx1 ? x : s->hx1;
    s->hy0 = y < s->hy0 ? y : s->hy0;
    s->hy1 = y > s->hy1 ? y : s->hy1;
    s->hpa_dirty = true;
    s->hpa_version = astar_grid_version(s->grid);
  }
  s->cells[(size_t)y * (size_t)astar_grid_width(s->grid) + (size_t)x] = (uint8_t)value;
  return ASTAR_OK;
}

/* The width * height cell bytes; pg_get_cells fills them from the grid,
** pg_put_cells writes them all to the grid (and the hex grid). */
PG_API uint8_t *pg_cells(pg_state *s) {
  return s->cells;
}

PG_API void pg_get_cells(pg_state *s) {
  read_cells(s);
}

PG_API int pg_put_cells(pg_state *s) {
  const int32_t w = astar_grid_width(s->grid), h = astar_grid_height(s->grid);
  astar_grid_clear_terrain(s->grid);
  s->terrain_cells = 0;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      const uint8_t v = s->cells[(size_t)y * (size_t)w + (size_t)x];
      astar_status st = astar_grid_set_passable(s->grid, x, y, v > 0);
      if (st == ASTAR_OK && v > 1) {
        st = astar_grid_set_terrain(s->grid, x, y, (float)v);
        s->terrain_cells++;
      }
      if (st == ASTAR_OK && s->hex) st = put_hex_cell(s->hex, x, y, v);
      if (st != ASTAR_OK) return st;
    }
  return ASTAR_OK;
}

/* A parsed hex map as the playground's map: a square grid of the same
** cells, and hex mode with the map's shape. */
static astar_status adopt_hex(pg_state *s, astar_hex_grid *hx) {
  const int32_t w = astar_hex_grid_width(hx), h = astar_hex_grid_height(hx);
  astar_grid *g = NULL;
  astar_status st = astar_grid_new(&g, w, h, NULL);
  for (int32_t y = 0; st == ASTAR_OK && y < h; y++)
    for (int32_t x = 0; st == ASTAR_OK && x < w; x++) {
      const float t = astar_hex_grid_terrain(hx, x, y);
      st = astar_grid_set_passable(g, x, y, astar_hex_grid_passable(hx, x, y));
      if (st == ASTAR_OK && t != 1.0f) st = astar_grid_set_terrain(g, x, y, t);
    }
  if (st != ASTAR_OK) {
    astar_grid_free(g);
    astar_hex_grid_free(hx);
    return st;
  }
  use_square(s); /* adopt_grid builds no hex grid: hx is the one */
  st = adopt_grid(s, g);
  if (st == ASTAR_OK)
    st = use_hex(s, astar_hex_grid_orientation(hx), astar_hex_grid_layout(hx), hx);
  else
    astar_hex_grid_free(hx);
  return st;
}

/* Parse a Moving AI .map, an ASCII map (astar_parse_map) or an ASCII hex
** map (astar_hex_parse_map: then hex mode with its shape, see
** pg_geometry) from text[0..len) and make it the grid. On
** ASTAR_PARSE_ERROR, pg_error_* tell where. */
PG_API int pg_load_map(pg_state *s, const char *text, int32_t len) {
  astar_point start, goal;
  astar_status st;
  memset(&s->perr, 0, sizeof s->perr);
  if (astar_hex_is_map(text, (size_t)len)) {
    astar_hex_grid *hx = NULL;
    st = astar_hex_parse_map(&hx, text, (size_t)len, NULL, &start, &goal, &s->perr);
    if (st == ASTAR_OK) st = adopt_hex(s, hx);
  } else {
    astar_grid *g = NULL;
    st = astar_parse_map(&g, text, (size_t)len, NULL, &start, &goal, &s->perr);
    if (st == ASTAR_OK) {
      use_square(s);
      st = adopt_grid(s, g);
    }
  }
  if (st != ASTAR_OK) return st;
  s->loaded_start = start;
  s->loaded_goal = goal;
  return ASTAR_OK;
}

PG_API int32_t pg_error_line(const pg_state *s) {
  return s->perr.line;
}
PG_API int32_t pg_error_column(const pg_state *s) {
  return s->perr.column;
}
PG_API const char *pg_error_message(const pg_state *s) {
  return s->perr.message;
}
/* The S and G cells of a loaded ASCII map as y * width + x, -1 if none. */
PG_API int32_t pg_loaded_start(const pg_state *s) {
  return s->loaded_start.x < 0 ? -1 : s->loaded_start.y * pg_width(s) + s->loaded_start.x;
}
PG_API int32_t pg_loaded_goal(const pg_state *s) {
  return s->loaded_goal.x < 0 ? -1 : s->loaded_goal.y * pg_width(s) + s->loaded_goal.x;
}

/* Search options; the enums take the values of astar/search.h; algorithm
** is a PG_ALGO_* value. */
PG_API int pg_set_options(pg_state *s, int32_t moves, int32_t corner, double straight,
                          double diagonal, int32_t heuristic, double weight, int32_t tie,
                          int32_t reopen, int32_t algorithm, int32_t open_set,
                          double turn_penalty) {
  astar_options o;
  astar_options_init(&o);
  o.moves = moves;
  o.corner = (astar_corner)corner;
  o.straight_cost = straight;
  o.diagonal_cost = diagonal;
  o.heuristic = (astar_heuristic)heuristic;
  o.weight = weight;
  o.tie = (astar_tie)tie;
  o.reopen = (astar_reopen)reopen;
  o.algorithm = algorithm == PG_ALGO_JPS ? ASTAR_ALGO_JPS : ASTAR_ALGO_ASTAR;
  o.open_set = (astar_open_set)open_set;
  o.turn_penalty = turn_penalty;
  if (heuristic == ASTAR_H_CALLBACK || algorithm < 0 || algorithm > PG_ALGO_DSTAR)
    return ASTAR_INVALID_ARGUMENT;
  astar_status st = astar_options_validate(&o);
  if (st != ASTAR_OK) return st;
  s->opt = o;
  s->algorithm = algorithm;
  return ASTAR_OK;
}

/* The unit's side, 1 .. PG_UNIT_MAX (astar/clearance.h): searches on the
** square grid then find the path of the unit's anchor, its top-left cell.
** ASTAR_OK or ASTAR_INVALID_ARGUMENT. */
PG_API int pg_set_unit(pg_state *s, int32_t size) {
  if (size < 1 || size > PG_UNIT_MAX) return ASTAR_INVALID_ARGUMENT;
  s->unit = size;
  return ASTAR_OK;
}

/* The clearance, built or brought up to date for the grid as it is now. */
static astar_status current_clearance(pg_state *s) {
  if (s->clr && astar_clearance_current(s->clr, s->grid)) return ASTAR_OK;
  if (s->clr) return astar_clearance_update(s->clr, s->grid);
  return astar_clearance_new(&s->clr, s->grid, NULL, NULL, 0, PG_CLEARANCE_CAP, NULL);
}

/*
** The clearance of every cell (astar_clearance_at, every cell type ground,
** every type allowed: the grid's passability alone), capped at
** PG_CLEARANCE_CAP, width * height bytes row-major; NULL when memory runs
** out. Valid until the next call or a new grid.
*/
PG_API const uint8_t *pg_clearance(pg_state *s) {
  const int32_t w = astar_grid_width(s->grid), h = astar_grid_height(s->grid);
  if (current_clearance(s) != ASTAR_OK) return NULL;
  if (!s->clr_values && !(s->clr_values = malloc((size_t)w * (size_t)h))) return NULL;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++)
      s->clr_values[(size_t)y * (size_t)w + (size_t)x] =
          (uint8_t)astar_clearance_at(s->clr, x, y, ASTAR_CAPABILITY_ALL);
  return s->clr_values;
}

/* String-pull the path of every search on the square grid but the any-angle
** ones (astar_path_smooth after the search): 0 off, else on. */
PG_API void pg_set_smooth(pg_state *s, int32_t on) {
  s->smooth = on != 0;
}

/*
** The search engine's method (astar_method: 0 A*, 1 Dijkstra, 2 greedy,
** 3 bidirectional, 4 IDA*, 5 beam, 6 dynamic weighting, 7 bandwidth, ...)
** and its settings, used with PG_ALGO_ENGINE and on hex grids: the beam
** width, dynamic weighting's epsilon, bandwidth's band_e and band_d, and a
** cap on expansions (0: none; the page caps IDA*, whose work can explode).
** Weight, ties and reopening come from pg_set_options. ASTAR_OK or
** ASTAR_INVALID_ARGUMENT (astar_engine_options_validate).
*/
PG_API int pg_set_engine(pg_state *s, int32_t method, int32_t beam_width, double epsilon,
                         double band_e, double band_d, double max_expansions) {
  astar_engine_options o;
  astar_engine_options_init(&o);
  if (method < 0 || method >= ASTAR_METHOD_COUNT || beam_width < 1 || !(max_expansions >= 0))
    return ASTAR_INVALID_ARGUMENT;
  o.method = (astar_method)method;
  o.beam_width = (uint32_t)beam_width;
  o.epsilon = epsilon;
  o.band_e = band_e;
  o.band_d = band_d;
  o.max_expansions = (uint64_t)max_expansions;
  astar_status st = astar_engine_options_validate(&o);
  if (st != ASTAR_OK) return st;
  s->eopt = o;
  return ASTAR_OK;
}

/* Does this search go through the engine? (every search on a hex grid) */
static bool uses_engine(const pg_state *s) {
  return s->algorithm == PG_ALGO_ENGINE || s->hex;
}

/*
** HPA*'s settings (astar/hierarchy.h): the cluster side (ASTAR_HPA_MIN_CLUSTER
** .. ASTAR_HPA_MAX_CLUSTER) and the levels (1 .. 3 here, ratio 2), smoothing
** on. The hierarchy is rebuilt by the next search. ASTAR_OK or
** ASTAR_INVALID_ARGUMENT.
*/
PG_API int pg_set_hpa(pg_state *s, int32_t cluster, int32_t levels, int32_t smooth) {
  if (cluster < ASTAR_HPA_MIN_CLUSTER || cluster > ASTAR_HPA_MAX_CLUSTER || levels < 1 ||
      levels > 3)
    return ASTAR_INVALID_ARGUMENT;
  if (cluster != s->hopt.cluster_size || levels != s->hopt.levels ||
      (smooth != 0) != s->hopt.smooth)
    free_hpa(s);
  s->hopt.cluster_size = cluster;
  s->hopt.levels = levels;
  s->hopt.smooth = smooth != 0;
  return ASTAR_OK;
}

/* The landmarks' settings: count 1 .. 16, choice 0 farthest, 1 avoid. The
** table is rebuilt by the next search. ASTAR_OK or ASTAR_INVALID_ARGUMENT. */
PG_API int pg_set_landmarks(pg_state *s, int32_t count, int32_t choice) {
  if (count < 1 || count > 16 || choice < 0 || choice > 1) return ASTAR_INVALID_ARGUMENT;
  if ((uint32_t)count != s->lmopt.count || (astar_landmark_choice)choice != s->lmopt.choice)
    free_landmarks(s);
  s->lmopt.count = (uint32_t)count;
  s->lmopt.choice = (astar_landmark_choice)choice;
  return ASTAR_OK;
}

/* Do two option sets have the same move rules (what a precomputation holds)? */
static bool same_moves(const astar_options *a, const astar_options *b) {
  return a->moves == b->moves && a->corner == b->corner && a->straight_cost == b->straight_cost &&
         a->diagonal_cost == b->diagonal_cost;
}

/* What HPA* and the landmarks cannot honour (NULL: nothing). */
static const char *precomputed_reason(const pg_state *s) {
  const char *name = s->algorithm == PG_ALGO_HPA ? "HPA*" : "the landmarks";
  static char buf[160];
  if (s->hex) {
    snprintf(buf, sizeof buf, "%s: square grids only", name);
    return buf;
  }
  if (s->unit > 1) {
    snprintf(buf, sizeof buf, "%s: built for a point (size 1), not a unit", name);
    return buf;
  }
  if (s->opt.turn_penalty != 0.0 && s->algorithm == PG_ALGO_HPA)
    return "HPA*'s abstract costs cannot hold a turn penalty";
  return NULL;
}

/* The hierarchy, brought up to date: kept, updated over the edited
** rectangle (astar_hpa_update), or rebuilt. s->hpa_rebuilt: the level-1
** clusters the last build or update recomputed (kept while nothing changes). */
static astar_status current_hpa(pg_state *s) {
  if (s->hpa && !same_moves(&s->hpa_opt, &s->opt)) free_hpa(s);
  const uint64_t version = astar_grid_version(s->grid);
  astar_status st = ASTAR_OK;
  const double t0 = now_ms();
  uint64_t rebuilt = 0;
  if (s->hpa && s->hpa_version == version) {
    if (!s->hpa_dirty) return ASTAR_OK;
    st = astar_hpa_update(s->hpa, s->grid, s->hx0, s->hy0, s->hx1, s->hy1, &rebuilt);
    if (st == ASTAR_OK) st = astar_hpa_query_reserve(s->hq, s->hpa);
  } else {
    free_hpa(s);
    astar_options o = s->opt;
    o.turn_penalty = 0;
    s->hpa_rebuilt = -1;
    st = astar_hpa_new(&s->hpa, s->grid, &o, &s->hopt, NULL);
    if (st == ASTAR_OK) st = astar_hpa_query_new(&s->hq, s->hpa, NULL);
    if (st == ASTAR_OK && !s->hcross && !(s->hcross = malloc(s->path_cap * sizeof *s->hcross)))
      st = ASTAR_NO_MEMORY;
    astar_hpa_stats hs;
    astar_hpa_get_stats(s->hpa, &hs);
    rebuilt = hs.rebuilt;
  }
  if (st != ASTAR_OK) {
    free_hpa(s);
    return st;
  }
  s->precompute_ms = now_ms() - t0;
  s->hpa_opt = s->opt;
  s->hpa_version = version;
  s->hpa_dirty = false;
  s->hpa_rebuilt = (int32_t)rebuilt;
  return ASTAR_OK;
}

/* The landmark table, rebuilt when the map or the move rules changed, and
** (on maps up to PG_LM_FIELD_CELLS) a distance field to each landmark. */
static astar_status current_landmarks(pg_state *s) {
  if (s->lm && same_moves(&s->lm_opt, &s->opt) &&
      astar_landmarks_current(s->lm, s->grid) == ASTAR_OK)
    return ASTAR_OK;
  free_landmarks(s);
  const double t0 = now_ms();
  astar_options o = s->opt;
  o.turn_penalty = 0;
  o.heuristic = ASTAR_H_AUTO;
  astar_status st = astar_landmarks_new_grid(&s->lm, s->grid, &o, &s->lmopt, NULL);
  if (st != ASTAR_OK) return st;
  s->precompute_ms = now_ms() - t0;
  s->lm_opt = s->opt;
  const uint32_t k = astar_landmarks_count(s->lm);
  const size_t cells = (size_t)astar_grid_width(s->grid) * (size_t)astar_grid_height(s->grid);
  if (cells <= PG_LM_FIELD_CELLS && (s->lm_fields = calloc(k, sizeof *s->lm_fields))) {
    const int32_t w = astar_grid_width(s->grid);
    for (; s->lm_nfields < k; s->lm_nfields++) {
      const astar_node n = astar_landmarks_node(s->lm, s->lm_nfields);
      const astar_point p = {(int32_t)(n % (uint32_t)w), (int32_t)(n / (uint32_t)w)};
      if (astar_field_new(&s->lm_fields[s->lm_nfields], s->grid, &o, p, 0, NULL, NULL) != ASTAR_OK)
        break; /* attribution for the first ones only */
    }
  }
  return ASTAR_OK;
}

/* What the engine cannot honour of the options (NULL: nothing), as the
** CLI says it (tools/algos.c): the grid-loop options are A*'s. */
static const char *engine_reason(const pg_state *s) {
  if (s->hex && (s->algorithm == PG_ALGO_JPS || s->algorithm == PG_ALGO_JPS_PLUS))
    return "JPS and JPS+ search square grids only";
  if (s->hex && (s->algorithm == PG_ALGO_THETA || s->algorithm == PG_ALGO_LAZY_THETA ||
                 s->algorithm == PG_ALGO_ANYA))
    return "Theta*, Lazy Theta* and Anya search square grids only";
  if (s->hex && s->unit > 1) return "units bigger than one cell move on square grids only";
  return NULL; /* the rest is the finder's to say (finder_reason) */
}

/* The grid the square searches run on: the unit's derived grid for a unit
** bigger than one cell (filled by pg_run), else the map's. */
static const astar_grid *search_grid(const pg_state *s) {
  return s->unit > 1 && !s->hex ? s->ugrid : s->grid;
}

/* ---- the method: chosen in one place, searched through the finder ----------
** Every search the page offers but D* Lite runs through astar_finder
** (astar/finder.h): selected_method says which method of the library's
** table the selection is, selected_config what the finder is prepared from
** (the page's options, the precomputations kept current by pg_run, the
** recording observers), and finder_search runs it. D* Lite is no method of
** the table but an incremental planner (astar/dstar.h): dstar_search. */

/* The astar_method of the page's selection: the engine's method on hex
** grids and for PG_ALGO_ENGINE, else the PG_ALGO_* value's. */
static astar_method selected_method(const pg_state *s) {
  if (s->hex || s->algorithm == PG_ALGO_ENGINE) return s->eopt.method;
  switch (s->algorithm) {
  case PG_ALGO_JPS:
    return ASTAR_METHOD_JPS;
  case PG_ALGO_JPS_PLUS:
    return ASTAR_METHOD_JPS_PLUS;
  case PG_ALGO_THETA:
    return ASTAR_METHOD_THETA;
  case PG_ALGO_LAZY_THETA:
    return ASTAR_METHOD_LAZY_THETA;
  case PG_ALGO_ANYA:
    return ASTAR_METHOD_ANYA;
  case PG_ALGO_HPA:
    return ASTAR_METHOD_HPA;
  default:
    return ASTAR_METHOD_ASTAR; /* A*, and A* with the landmarks attached */
  }
}

/* Does the engine run method m here (rather than the grid's own loops)? */
static bool engine_runs(const pg_state *s, astar_method m) {
  return s->hex ||
         (m < ASTAR_METHOD_ENGINE_COUNT && m != ASTAR_METHOD_ASTAR && m != ASTAR_METHOD_DIJKSTRA);
}

/* The finder's config for the selection with the grid options `o`; `record`
** attaches the observer that records the events (the methods that report
** them). The precomputations are the bridge's, brought up to date by pg_run. */
static void selected_config(pg_state *s, astar_finder_config *cfg, bool record) {
  const astar_method m = selected_method(s);
  astar_finder_config_init(cfg);
  cfg->method = m;
  cfg->options = s->opt;
  cfg->options.algorithm = ASTAR_ALGO_ASTAR; /* the method decides */
  cfg->engine = s->eopt;
  cfg->engine.weight = s->opt.weight;
  cfg->engine.tie = s->opt.tie;
  cfg->engine.reopen = s->opt.reopen;
  const bool engine = engine_runs(s, m);
  if (engine) cfg->options.max_expansions = s->eopt.max_expansions; /* the page's IDA* cap */
  if (m == ASTAR_METHOD_ANYA) {
    /* Anya is exact by construction: the page's weight, ties and heuristic
    ** are A*'s settings, not Anya's. */
    cfg->options.weight = 1.0;
    cfg->options.tie = ASTAR_TIE_LARGER_G;
    cfg->options.heuristic = ASTAR_H_AUTO;
  }
  if (s->algorithm == PG_ALGO_JPS_PLUS && !s->hex) cfg->jps_plus = s->jpp;
  if (s->algorithm == PG_ALGO_HPA && !s->hex) cfg->hpa = s->hpa;
  if (s->algorithm == PG_ALGO_LANDMARKS && !s->hex) {
    cfg->landmarks = s->lm;
    cfg->options.heuristic = ASTAR_H_AUTO; /* the landmarks are the heuristic */
  }
  if (!record) return;
  if (engine) {
    cfg->engine.observer = observe_engine;
    cfg->engine.observer_ctx = s;
  } else if (m != ASTAR_METHOD_ANYA && m != ASTAR_METHOD_HPA) {
    cfg->options.observer = observe;
    cfg->options.observer_ctx = s;
  }
}

/* The finder for the selection on the grid searched (or the hex grid as a
** space) into *out: ASTAR_OK, or astar_finder_new's status. */
static astar_status selected_finder(pg_state *s, bool record, astar_finder **out) {
  astar_finder_config cfg;
  selected_config(s, &cfg, record);
  if (s->hex) {
    astar_space sp;
    const astar_status st = astar_hex_space(s->hex, &sp);
    return st != ASTAR_OK ? st : astar_finder_new_space(out, &sp, &cfg, NULL);
  }
  return astar_finder_new(out, search_grid(s), &cfg, NULL);
}

/* Why the selection cannot be prepared (NULL: it can): the library's
** sentence (astar_finder_unsupported_reason), or for hex grids the tie
** order the engine's options refuse. */
static const char *finder_reason(pg_state *s) {
  astar_finder_config cfg;
  selected_config(s, &cfg, false);
  /* The precomputations pg_run builds may not exist yet: the reason asks
  ** only whether one is attached, never reads it ("does not check that
  ** the attachments belong to the grid", astar/finder.h). */
  static const char placeholder = 0;
  const void *some = &placeholder;
  const astar_method_info *mi = astar_method_info_of(cfg.method);
  if (mi && (mi->needs & ASTAR_ATTACH_JPS_PLUS) && !cfg.jps_plus) cfg.jps_plus = some;
  if (mi && (mi->needs & ASTAR_ATTACH_HPA) && !cfg.hpa) cfg.hpa = some;
  if (s->algorithm == PG_ALGO_LANDMARKS && !s->hex && !cfg.landmarks) cfg.landmarks = some;
  if (s->hex) {
    if (s->opt.tie == ASTAR_TIE_CROSS)
      return "the engine breaks ties by larger g or newest, then node id (no cross product)";
    astar_space sp;
    if (astar_hex_space(s->hex, &sp) != ASTAR_OK) return NULL;
    return astar_finder_unsupported_reason(NULL, &sp, &cfg);
  }
  return astar_finder_unsupported_reason(search_grid(s), NULL, &cfg);
}

/* One search of s->finder: the path as cells (Anya's as corner points in
** s->best), s->result as the grid searches give it, and the methods'
** figures (dropped, iterations, meeting node, lines of sight). */
static astar_status finder_search(pg_state *s, astar_point start, astar_point goal) {
  astar_path_result res;
  astar_status st;
  const int32_t w = astar_grid_width(s->grid);
  if (s->hex) {
    if (!astar_grid_contains(s->grid, start.x, start.y) ||
        !astar_grid_contains(s->grid, goal.x, goal.y))
      return ASTAR_OUT_OF_BOUNDS;
    st = astar_finder_find_nodes(s->finder, s->ws, (astar_node)(start.y * w + start.x),
                                 (astar_node)(goal.y * w + goal.x), s->nodes, s->path_cap, &res);
    if (st == ASTAR_OK || st == ASTAR_PARTIAL)
      for (size_t i = 0; i < res.length; i++)
        s->path[i] = (astar_point){(int32_t)(s->nodes[i] % (uint32_t)w),
                                   (int32_t)(s->nodes[i] / (uint32_t)w)};
  } else if (selected_method(s) == ASTAR_METHOD_ANYA) {
    /* Anya's bends lie on grid corners; its node pool grows in the
    ** workspace. A path of more bends than s->best holds: grown, again. */
    st = astar_finder_find_vec(s->finder, s->ws, start, goal, s->best, s->best_cap, &res);
    if (st == ASTAR_BUFFER_TOO_SMALL && res.length > s->best_cap) {
      astar_vec2 *b = realloc(s->best, res.length * sizeof *b);
      if (!b) return ASTAR_NO_MEMORY;
      s->best = b;
      s->best_cap = res.length;
      st = astar_finder_find_vec(s->finder, s->ws, start, goal, s->best, s->best_cap, &res);
    }
    s->best_len = st == ASTAR_OK ? res.length : 0;
    s->best_cost = st == ASTAR_OK ? res.cost : 0;
  } else {
    st = astar_finder_find(s->finder, s->ws, start, goal, s->path, s->path_cap, &res);
  }
  memset(&s->result, 0, sizeof s->result);
  s->result.cost = res.cost;
  s->result.length = res.length;
  s->result.stats = res.stats;
  s->result.cause = res.cause;
  s->result.end = res.end;
  s->dropped = res.dropped;
  s->iterations = res.iterations;
  s->meet = res.meet;
  s->sight_checks = res.sight_checks;
  return st;
}

static bool any_angle(const pg_state *s) {
  return !s->hex && (s->algorithm == PG_ALGO_THETA || s->algorithm == PG_ALGO_LAZY_THETA);
}

/* Beside another any-angle line, the optimal one (Anya) under the page's
** move rules, through a finder of its own, into s->best; none (best_len 0)
** when Anya cannot honour the rules or finds nothing. s->result and the
** other figures stay the search's. */
static void best_line(pg_state *s, astar_point start, astar_point goal) {
  astar_finder_config cfg;
  astar_finder_config_init(&cfg);
  cfg.method = ASTAR_METHOD_ANYA;
  cfg.options.moves = s->opt.moves;
  cfg.options.corner = s->opt.corner;
  cfg.options.straight_cost = s->opt.straight_cost;
  cfg.options.diagonal_cost = s->opt.diagonal_cost;
  astar_finder *f = NULL;
  s->best_len = 0;
  if (astar_finder_new(&f, s->grid, &cfg, NULL) != ASTAR_OK) return;
  astar_path_result res;
  astar_status st = astar_finder_find_vec(f, s->ws, start, goal, s->best, s->best_cap, &res);
  if (st == ASTAR_BUFFER_TOO_SMALL && res.length > s->best_cap) {
    astar_vec2 *b = realloc(s->best, res.length * sizeof *b);
    if (b) {
      s->best = b;
      s->best_cap = res.length;
      st = astar_finder_find_vec(f, s->ws, start, goal, s->best, s->best_cap, &res);
    }
  }
  astar_finder_free(f);
  if (st != ASTAR_OK) return;
  s->best_len = res.length;
  s->best_cost = res.cost;
}

/* What Theta* and Lazy Theta* cannot honour (NULL: nothing), in the words
** of the CLI (tools/anyangle.c) without its flags: astar_anyangle_find_path
** returns ASTAR_UNSUPPORTED exactly then (the page sets no other option). */
static const char *anyangle_reason(const pg_state *s) {
  if (s->algorithm == PG_ALGO_ANYA) {
    if (s->unit > 1) return "Anya finds a point's shortest path, not a unit's (size 1)";
    if (astar_grid_has_terrain(s->grid))
      return "the grid has terrain costs; Anya finds the shortest path by length alone";
    return NULL;
  }
  if (s->unit > 1)
    return "any-angle searches move a point: their lines of sight are not a unit's (size 1)";
  if (astar_grid_has_terrain(s->grid))
    return "the grid has terrain costs; any-angle segments cost straight-line distance";
  if (s->opt.turn_penalty != 0.0) return "a turn penalty is an option of A* on the grid";
  if (s->opt.heuristic != ASTAR_H_AUTO)
    return "any-angle searches use the straight-line distance as their heuristic (auto)";
  return NULL;
}

/* What D* Lite cannot honour with the page's options (NULL: nothing);
** astar_dstar_new_grid refuses these (astar/dstar.h). */
static const char *dstar_reason(const pg_state *s) {
  if (s->hex) return "D* Lite: square grids only";
  if (s->opt.turn_penalty != 0.0) return "D* Lite's arc costs cannot hold a turn penalty";
  if (s->opt.moves == 8 && s->opt.heuristic == ASTAR_H_MANHATTAN)
    return "D* Lite needs a consistent heuristic, and Manhattan overestimates diagonal moves";
  return NULL;
}

/* D* Lite's observer while recording: each cell whose g or rhs a plan set
** becomes one PG_EVENT_REACHED event, in the order the planner reached it. */
static void dstar_record(void *ctx, astar_point cell, astar_node node) {
  (void)node;
  pg_state *s = ctx;
  const int32_t w = astar_grid_width(s->grid);
  const size_t i = (size_t)cell.y * (size_t)w + (size_t)cell.x;
  if (s->dl_seen[i]) return;
  s->dl_seen[i] = 1;
  pg_event *e = next_event(s);
  if (!e) return;
  e->type = PG_EVENT_REACHED;
  e->cell = (int32_t)i;
  e->parent = -1;
  e->aux = -1;
  e->g = NAN;
  e->h = NAN;
}

/*
** D* Lite's first plan from start to goal on the search grid (the unit's
** derived grid for a unit bigger than one cell): a search backward from the
** goal. The planner is restarted when the grid and the options are those it
** was made with (the repeated timed runs), else made again. s->result:
** cost, length, expanded (vertices made consistent), generated (vertex
** updates). With `record`, the cells it reached are recorded as events.
*/
static astar_status dstar_search(pg_state *s, astar_point start, astar_point goal, bool record) {
  const astar_grid *g = search_grid(s);
  astar_options o = s->opt;
  o.algorithm = ASTAR_ALGO_ASTAR;
  o.weight = 1.0;
  o.observer = NULL;
  astar_status st;
  if (s->dl && s->dl_grid == g && s->dl_version == astar_grid_version(g) &&
      same_moves(&s->dl_opt, &o) && s->dl_opt.heuristic == o.heuristic) {
    st = astar_dstar_restart(s->dl, g, start, goal);
  } else {
    astar_dstar_free(s->dl);
    s->dl = NULL;
    st = astar_dstar_new_grid(&s->dl, g, &o, ASTAR_DSTAR_LITE, start, goal, NULL);
    s->dl_grid = st == ASTAR_OK ? g : NULL;
    s->dl_version = astar_grid_version(g);
    s->dl_opt = o;
  }
  if (st != ASTAR_OK) return st;
  if (record) {
    const size_t n = (size_t)astar_grid_width(g) * (size_t)astar_grid_height(g);
    free(s->dl_seen);
    s->dl_seen = calloc(n, 1);
    if (!s->dl_seen) return ASTAR_NO_MEMORY;
  }
  astar_dstar_set_observer(s->dl, record ? dstar_record : NULL, s);
  astar_dstar_result r;
  st = astar_dstar_plan(s->dl, &r);
  astar_dstar_set_observer(s->dl, NULL, NULL);
  memset(&s->result, 0, sizeof s->result);
  s->result.stats.expanded = r.stats.expanded;
  s->result.stats.generated = r.stats.updated;
  if (st != ASTAR_OK) return st;
  size_t len = 0;
  st = astar_dstar_path(s->dl, s->path, s->path_cap, &len);
  if (st != ASTAR_OK) return st;
  s->result.cost = r.cost;
  s->result.length = len;
  return ASTAR_OK;
}

/* One search of the selection: D* Lite's plan, or s->finder's search (made
** by pg_run for this run, with or without the recording observer); the
** page's own refusals first (what it offers on square grids only, units). */
static astar_status search_once(pg_state *s, astar_point start, astar_point goal, bool record) {
  if ((s->algorithm == PG_ALGO_HPA || s->algorithm == PG_ALGO_LANDMARKS) && !uses_engine(s) &&
      precomputed_reason(s))
    return ASTAR_UNSUPPORTED;
  if (s->algorithm == PG_ALGO_DSTAR && !s->hex) {
    if (dstar_reason(s)) return ASTAR_UNSUPPORTED;
    return dstar_search(s, start, goal, record);
  }
  if ((any_angle(s) || s->algorithm == PG_ALGO_ANYA) && s->unit > 1)
    return ASTAR_UNSUPPORTED; /* anyangle_reason says why */
  if (uses_engine(s) && engine_reason(s)) return ASTAR_UNSUPPORTED;
  if (!s->finder) {
    /* Prepared once for the run's searches (pg_run frees it). */
    const astar_status st = selected_finder(s, record, &s->finder);
    /* What the method cannot honour is UNSUPPORTED (finder_reason says
    ** why), also where astar_finder_new meets it first as a value out of
    ** the engine's range (a cross-product tie order). */
    if (st != ASTAR_OK) return finder_reason(s) ? ASTAR_UNSUPPORTED : st;
  }
  return finder_search(s, start, goal);
}

/* After a search found a path: the line (Theta*'s points, or the path
** string-pulled when smoothing is on) and the cells it walks. Leaves no line
** when there is none to draw or memory runs out (the page then shows the
** search without it). */
static void make_line(pg_state *s, astar_point start, astar_point goal) {
  const size_t n = s->result.length;
  if (s->algorithm == PG_ALGO_ANYA) return; /* its line is s->best already */
  if (any_angle(s)) {
    memcpy(s->line, s->path, n * sizeof *s->line);
    s->line_len = n;
  } else if (s->smooth && !s->hex && s->unit == 1) {
    size_t len = 0;
    const double t0 = now_ms();
    const astar_status st =
        astar_path_smooth(s->grid, &s->opt, s->path, n, s->line, s->path_cap, &len);
    s->smooth_ms = now_ms() - t0;
    if (st != ASTAR_OK) return;
    s->line_len = len;
  } else {
    return;
  }
  /* Its cells weighted by their terrain (astar/anyangle.h, "Cost"). */
  if (astar_polyline_cost(s->grid, &s->opt, s->line, s->line_len, &s->line_cost, NULL) != ASTAR_OK)
    s->line_cost = s->opt.straight_cost * astar_polyline_length(s->line, s->line_len);
  size_t need = 0;
  if (astar_waypoints_expand(s->line, s->line_len, s->walked, s->walked_cap, &need) ==
      ASTAR_BUFFER_TOO_SMALL) {
    astar_point *w = realloc(s->walked, need * sizeof *w);
    if (!w) {
      s->line_len = 0;
      return;
    }
    s->walked = w;
    s->walked_cap = need;
    astar_waypoints_expand(s->line, s->line_len, s->walked, s->walked_cap, &need);
  }
  s->walked_len = need;
  /* Beside it, the optimal line (Anya) when the map allows one: the search's
  ** own result and statistics stay as they were. */
  if (!astar_grid_has_terrain(s->grid) && s->unit == 1) best_line(s, start, goal);
}

/* pg_run's flags. */
enum {
  PG_RUN_RECORD = 1, /* run with the observer first and record every event */
  PG_RUN_ONCE = 2    /* time a single run (not repeated): dragging S or G */
};

/*
** Search from (sx, sy) to (gx, gy). With PG_RUN_RECORD the search first
** runs with the observer and records every event (A*: cells; JPS and JPS+:
** jump points and the cells each jump scanned). The search is then timed
** without observer -- once with PG_RUN_ONCE, else repeated while that takes
** under ~20 ms, so that short searches get a meaningful mean. Returns the
** status.
*/
PG_API int pg_run(pg_state *s, int32_t sx, int32_t sy, int32_t gx, int32_t gy, int flags) {
  const astar_point start = {sx, sy}, goal = {gx, gy};
  reset_result(s);
  if (s->opt.turn_penalty > 0 && !uses_engine(s) && !s->turns_reserved) {
    astar_status st = astar_workspace_reserve_turns(s->ws, s->grid);
    if (st != ASTAR_OK) return s->status = st;
    s->turns_reserved = true;
  }
  if (s->unit > 1 && !s->hex && !any_angle(s)) {
    /* The unit's anchor moves on the derived grid (astar/clearance.h). */
    astar_status st = current_clearance(s);
    if (st == ASTAR_OK && !s->ugrid)
      st = astar_grid_new(&s->ugrid, astar_grid_width(s->grid), astar_grid_height(s->grid), NULL);
    if (st == ASTAR_OK)
      st = astar_clearance_fill_grid(s->clr, s->grid, s->unit, ASTAR_CAPABILITY_ALL, s->ugrid);
    if (st != ASTAR_OK) return s->status = st;
  }
  if (!s->hex && s->unit == 1 && s->algorithm == PG_ALGO_HPA) {
    astar_status st = current_hpa(s);
    if (st != ASTAR_OK) return s->status = st;
  }
  if (!s->hex && s->unit == 1 && s->algorithm == PG_ALGO_LANDMARKS) {
    astar_status st = current_landmarks(s);
    if (st != ASTAR_OK) return s->status = st;
  }
  const astar_grid *sg = search_grid(s);
  if (s->algorithm == PG_ALGO_JPS_PLUS && !s->hex &&
      (!s->jpp || s->jpp_grid != sg || s->jpp_version != astar_grid_version(sg))) {
    astar_jps_plus_free(s->jpp);
    s->jpp = NULL;
    const double t0 = now_ms();
    astar_status st = astar_jps_plus_new(&s->jpp, sg, NULL);
    s->precompute_ms = now_ms() - t0;
    if (st != ASTAR_OK) return s->status = st;
    s->jpp_grid = sg;
    s->jpp_version = astar_grid_version(sg);
  }
  astar_finder_free(s->finder);
  s->finder = NULL;
  if ((flags & PG_RUN_RECORD) && s->algorithm != PG_ALGO_HPA) {
    s->recorded = true;
    s->status = search_once(s, start, goal, true);
    astar_finder_free(s->finder); /* the recording one */
    s->finder = NULL;
  }
  const double t0 = now_ms();
  double t = t0;
  do {
    s->status = search_once(s, start, goal, false);
    s->time_runs++;
    t = now_ms();
  } while (!(flags & PG_RUN_ONCE) && t - t0 < 20.0 && s->time_runs < 1000000);
  s->time_ms = (t - t0) / s->time_runs;
  astar_finder_free(s->finder);
  s->finder = NULL;
  if (s->status == ASTAR_OK && s->algorithm == PG_ALGO_HPA && !s->hex) {
    /* The overlay's figures (expansions by phase, the abstract path's
    ** cost): HPA*'s inspection query, on the path the finder gave. */
    memset(&s->hres, 0, sizeof s->hres);
    astar_hpa_find_path(s->hq, s->hpa, s->grid, start, goal, s->path, s->path_cap, &s->hres);
  }
  if (s->status == ASTAR_OK && s->algorithm != PG_ALGO_HPA) make_line(s, start, goal);
  return s->status;
}

/* Cells with a terrain cost other than 1. */
PG_API int32_t pg_terrain_cells(const pg_state *s) {
  return (int32_t)s->terrain_cells;
}

/*
** Why the selected algorithm cannot run with the current options on the
** current grid: the page's own refusals (what it offers on square grids
** only, units for the any-angle searches and the precomputations, D*
** Lite's conditions), else the library's sentence for the method
** (astar_finder_unsupported_reason, finder_reason) -- the sentence the
** tool gives for the same query; NULL when it can run.
*/
PG_API const char *pg_unsupported_reason(pg_state *s) {
  if (uses_engine(s) && engine_reason(s)) return engine_reason(s);
  if ((any_angle(s) || s->algorithm == PG_ALGO_ANYA) && s->unit > 1) return anyangle_reason(s);
  if ((s->algorithm == PG_ALGO_HPA || s->algorithm == PG_ALGO_LANDMARKS) && precomputed_reason(s))
    return precomputed_reason(s);
  if (s->algorithm == PG_ALGO_DSTAR && !s->hex) return dstar_reason(s);
  return finder_reason(s);
}

/* ---- the method table (astar_method_info_of): the page's list of methods ----
** Row i is astar_method i: its name (the tool's --algo value), one line on
** it, its ASTAR_MF_* flags and what a budget charges for it; NULL / 0 past
** the table. pg_method: the astar_method the current selection runs (-1:
** D* Lite, which is no method of the table). */
PG_API int32_t pg_method_count(void) {
  return ASTAR_METHOD_COUNT;
}
PG_API const char *pg_method_name(int32_t i) {
  const astar_method_info *mi = astar_method_info_of((astar_method)i);
  return mi ? mi->name : NULL;
}
PG_API const char *pg_method_summary(int32_t i) {
  const astar_method_info *mi = astar_method_info_of((astar_method)i);
  return mi ? mi->summary : NULL;
}
PG_API int32_t pg_method_flags(int32_t i) {
  const astar_method_info *mi = astar_method_info_of((astar_method)i);
  return mi ? (int32_t)mi->flags : 0;
}
PG_API const char *pg_method_work(int32_t i) {
  const astar_method_info *mi = astar_method_info_of((astar_method)i);
  return mi ? mi->work : NULL;
}
PG_API int32_t pg_method(const pg_state *s) {
  if (s->algorithm == PG_ALGO_DSTAR && !s->hex) return -1;
  return (int32_t)selected_method(s);
}

PG_API int pg_status(const pg_state *s) {
  return s->status;
}
PG_API const char *pg_strerror(int status) {
  return astar_strerror((astar_status)status);
}
PG_API double pg_cost(const pg_state *s) {
  return s->result.cost;
}
PG_API int32_t pg_path_length(const pg_state *s) {
  return (int32_t)s->result.length;
}
/* The path as (x, y) int32 pairs, start first; valid while status is OK. */
PG_API const astar_point *pg_path(const pg_state *s) {
  return s->path;
}
/* Statistics as doubles (JavaScript numbers): 0 expanded, 1 generated (D*
** Lite: vertex updates), 2 reopened, 3 max open, 4 search ms, 5 timed runs,
** 6 JPS+ precompute ms, 7 iterations (IDA*), 8 entries dropped (beam,
** bandwidth), 9 lines of sight tested (Theta*, Lazy Theta*), 10 ms string
** pulling took (smoothing). */
PG_API double pg_stat(const pg_state *s, int32_t which) {
  switch (which) {
  case 0:
    return (double)s->result.stats.expanded;
  case 1:
    return (double)s->result.stats.generated;
  case 2:
    return (double)s->result.stats.reopened;
  case 3:
    return (double)s->result.stats.max_open;
  case 4:
    return s->time_ms;
  case 5:
    return s->time_runs;
  case 6:
    return s->precompute_ms;
  case 7:
    return (double)s->iterations;
  case 8:
    return (double)s->dropped;
  case 9:
    return (double)s->sight_checks;
  case 10:
    return s->smooth_ms;
  default:
    return 0;
  }
}

/* The line of the last search (see make_line) as (x, y) int32 pairs, its
** point count (0: no line), its cost (straight_cost x Euclidean length),
** and the cells it walks. Valid until the next pg_run. */
PG_API const astar_point *pg_line(const pg_state *s) {
  return s->line;
}
PG_API int32_t pg_line_length(const pg_state *s) {
  return (int32_t)s->line_len;
}
PG_API double pg_line_cost(const pg_state *s) {
  return s->line_cost;
}
PG_API const astar_point *pg_walked(const pg_state *s) {
  return s->walked;
}
PG_API int32_t pg_walked_length(const pg_state *s) {
  return s->line_len ? (int32_t)s->walked_len : 0;
}

/* The optimal any-angle line of the last run (Anya: its path, or beside
** Theta*'s or the smoothed line): (x, y) doubles in cell units, a cell's
** centre at (x + 0.5, y + 0.5); its point count (0: none) and its cost
** (straight_cost x its Euclidean length). Valid until the next pg_run. */
PG_API const astar_vec2 *pg_best_line(const pg_state *s) {
  return s->best;
}
PG_API int32_t pg_best_length(const pg_state *s) {
  return (int32_t)s->best_len;
}
PG_API double pg_best_cost(const pg_state *s) {
  return s->best_cost;
}

/* Bidirectional search: the cell where the two searches met, -1 if none. */
PG_API int32_t pg_meet(const pg_state *s) {
  return s->meet == ASTAR_NODE_NONE ? -1 : (int32_t)s->meet;
}

PG_API const pg_event *pg_events(const pg_state *s) {
  return s->events;
}
PG_API int32_t pg_event_count(const pg_state *s) {
  return (int32_t)s->nevents;
}
PG_API int32_t pg_event_size(void) {
  return (int32_t)sizeof(pg_event);
}
/* 1 if events were recorded, 3 if recorded but the buffer ran out. */
PG_API int32_t pg_event_flags(const pg_state *s) {
  return (s->recorded ? 1 : 0) | (s->events_truncated ? 2 : 0);
}

PG_API const char *pg_version(void) {
  return astar_version();
}

/* ---- HPA* overlay (astar/hierarchy.h, "Inspection") ------------------------------
** Valid after a run of HPA* until the next pg_run or map change. */

/* Levels built (0: none). */
PG_API int32_t pg_hpa_levels(const pg_state *s) {
  astar_hpa_stats hs;
  if (!s->hpa) return 0;
  astar_hpa_get_stats(s->hpa, &hs);
  return hs.levels;
}
/* Cluster side of `level` (1-based) in cells, 0 outside. */
PG_API int32_t pg_hpa_cluster_size(const pg_state *s, int32_t level) {
  return astar_hpa_cluster_size(s->hpa, level);
}
/* The abstract nodes of `level` as (x, y) int32 pairs (count by
** pg_hpa_node_count); NULL when there is none or memory runs out. */
PG_API const astar_point *pg_hpa_nodes(pg_state *s, int32_t level) {
  size_t n = 0;
  if (astar_hpa_level_nodes(s->hpa, level, NULL, 0, &n) == ASTAR_INVALID_ARGUMENT || n == 0)
    return NULL;
  if (n > s->hnodes_cap) {
    astar_point *b = realloc(s->hnodes, n * sizeof *b);
    if (!b) return NULL;
    s->hnodes = b;
    s->hnodes_cap = n;
  }
  astar_hpa_level_nodes(s->hpa, level, s->hnodes, s->hnodes_cap, &n);
  return s->hnodes;
}
PG_API int32_t pg_hpa_node_count(const pg_state *s, int32_t level) {
  size_t n = 0;
  astar_hpa_level_nodes(s->hpa, level, NULL, 0, &n);
  return (int32_t)n;
}
/* The top-level transitions of the last path: indices i into pg_path with
** path[i], path[i+1] in different top-level clusters; pg_hpa_crossing_count
** of them. */
PG_API const uint32_t *pg_hpa_crossings(const pg_state *s) {
  return s->hcross;
}
PG_API int32_t pg_hpa_crossing_count(const pg_state *s) {
  size_t n = 0;
  if (!s->hpa || !s->hcross || s->status != ASTAR_OK) return 0;
  if (astar_hpa_path_crossings(s->hpa, pg_hpa_levels(s), s->path, s->result.length, s->hcross,
                               s->path_cap, &n) != ASTAR_OK)
    return 0;
  return (int32_t)n;
}
/* The last query and build: 0 abstract nodes expanded, 1 cells settled
** joining S and G, 2 cells expanded refining, 3 abstract path's nodes (S and
** G included), 4 its cost, 5 level-1 clusters the last build or update
** recomputed (-1: none yet), 6 level-1 clusters in all, 7 bytes. */
PG_API double pg_hpa_stat(const pg_state *s, int32_t which) {
  astar_hpa_stats hs;
  astar_hpa_get_stats(s->hpa, &hs);
  switch (which) {
  case 0:
    return (double)s->hres.expanded_top;
  case 1:
    return (double)s->hres.expanded_insert;
  case 2:
    return (double)s->hres.expanded_refine;
  case 3:
    return (double)s->hres.abstract_length;
  case 4:
    return s->hres.abstract_cost;
  case 5:
    return s->hpa_rebuilt;
  case 6:
    return s->hpa ? (double)hs.level[0].clusters : 0;
  case 7:
    return s->hpa ? (double)hs.memory : 0;
  default:
    return 0;
  }
}

/* ---- landmarks on hover (astar/landmarks.h) ----------------------------------- */

/* Landmarks in the table (0: none built) and the i-th one's cell index. */
PG_API int32_t pg_lm_count(const pg_state *s) {
  return (int32_t)astar_landmarks_count(s->lm);
}
PG_API int32_t pg_lm_node(const pg_state *s, int32_t i) {
  const astar_node n = astar_landmarks_node(s->lm, (uint32_t)i);
  return n == ASTAR_NODE_NONE ? -1 : (int32_t)n;
}

/*
** The heuristic of cell (x, y) towards (gx, gy) with the table, into
** out[0..3]: 0 the built-in octile / Manhattan distance times the smallest
** terrain, 1 the landmark bound (astar_landmarks_heuristic), 2 the value
** the search used (the larger; astar_landmarks_grid_heuristic), 3 the
** landmark whose term is largest (index, -1 unknown), recomputed in double
** precision from the distance fields: |d(a, L) - d(b, L)| without terrain,
** d(a, L) - d(b, L) with terrain (the table's distances TO L). Returns
** ASTAR_OK, ASTAR_OUT_OF_BOUNDS, or ASTAR_INVALID_ARGUMENT without a table.
*/
PG_API int pg_lm_info(const pg_state *s, int32_t x, int32_t y, int32_t gx, int32_t gy,
                      double *out) {
  if (!s->lm) return ASTAR_INVALID_ARGUMENT;
  if (!astar_grid_contains(s->grid, x, y) || !astar_grid_contains(s->grid, gx, gy))
    return ASTAR_OUT_OF_BOUNDS;
  const int32_t w = astar_grid_width(s->grid);
  const double dx = abs(x - gx), dy = abs(y - gy);
  const double lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
  const double oct = s->lm_opt.moves == 4
                         ? s->lm_opt.straight_cost * (dx + dy)
                         : s->lm_opt.diagonal_cost * lo + s->lm_opt.straight_cost * (hi - lo);
  out[0] = oct * astar_grid_min_terrain(s->grid);
  out[1] = astar_landmarks_heuristic(s->lm, (astar_node)(y * w + x), (astar_node)(gy * w + gx));
  out[2] = astar_landmarks_grid_heuristic(s->lm, (astar_point){x, y}, (astar_point){gx, gy});
  out[3] = -1;
  double best = 0;
  const bool sym = !astar_landmarks_has_backward(s->lm);
  for (uint32_t i = 0; i < s->lm_nfields; i++) {
    const double da = astar_field_cost(s->lm_fields[i], x, y);
    const double db = astar_field_cost(s->lm_fields[i], gx, gy);
    if (!isfinite(da) || !isfinite(db)) continue;
    const double t = sym ? fabs(da - db) : da - db;
    if (t > best) {
      best = t;
      out[3] = i;
    }
  }
  return ASTAR_OK;
}

/* ---- walk mode: a unit walking on a map that changes (issue 10) ------------
**
** One planner object per playground: made on the current square grid and
** options for a unit at `agent` walking to `goal`, then told where the unit
** moved (pg_walk_move), which cells changed (pg_walk_changed) and asked for
** a path (pg_walk_plan, pg_walk_path). Each replanner is a table of four
** operations (pg_replanner) over one state (pg_walk), so another replanner
** (D* Lite, path splicing) plugs in as one more table:
**
**   PG_REPLAN_DSTAR  D* Lite (astar/dstar.h): keeps its search across moves
**                    and edits and repairs what the edits invalidated.
**   PG_REPLAN_ASTAR  repeated A*: follows its path while the map stays, and
**                    searches from scratch after every edit batch.
**   PG_REPLAN_SPLICE path splicing (astar/splice.h): follows its path and
**                    after an edit repairs the broken part of it with a
**                    local search, or falls back to a full search.
**
** After each plan that followed an edit (a repair), the bridge also runs a
** fresh A* from the unit's cell (the reference: its expansions and cost,
** which the repair's cost must equal) and keeps the cells the repair
** touched -- for repeated A* every cell it gave a g (pushed or improved),
** for D* Lite the vertices whose g or rhs it changed, when the planner can
** report them (see dstar_touched). */

enum { PG_REPLAN_DSTAR = 0, PG_REPLAN_ASTAR = 1, PG_REPLAN_SPLICE = 2, PG_REPLAN_COUNT };

typedef struct pg_walk pg_walk;

/* The operations of one replanner. Each returns an astar_status. */
typedef struct pg_replanner {
  astar_status (*init)(pg_walk *w, pg_state *s); /* made on s->grid, w->opt, agent, goal */
  void (*release)(pg_walk *w);
  astar_status (*move)(pg_walk *w, pg_state *s); /* the unit is now at w->agent */
  /* cells[0 .. n-1] changed on s->grid (already applied to it) */
  astar_status (*changed)(pg_walk *w, pg_state *s, const astar_point *cells, size_t n);
  /* a path from w->agent to w->goal into w->path / w->len / w->cost, and
  ** the work into w->expanded / w->updated; touched cells via touch() */
  astar_status (*plan)(pg_walk *w, pg_state *s);
} pg_replanner;

struct pg_walk {
  const pg_replanner *ops;
  int32_t kind;         /* PG_REPLAN_* */
  astar_options opt;    /* the page's move rules; weight 1, no turn penalty, A* */
  astar_point agent;    /* the unit's cell */
  astar_point goal;     /* fixed for the walk */
  astar_status status;  /* of the last plan */
  astar_point *path;    /* the last plan's path, agent first; cap cells */
  size_t len, cap;      /* cells in path (0: none); cap = cells of the grid */
  double cost;          /* the path's cost; NaN when repeated A* follows an older plan */
  bool edited;          /* cells changed since the last plan: the next plan is a repair */
  size_t changed_cells; /* cells reported since the last plan */
  /* The last plan (whether or not it was a repair). */
  uint64_t expanded; /* vertices / nodes expanded */
  uint64_t updated;  /* D* Lite: vertex updates; repeated A*: nodes generated */
  double plan_ms;    /* its time */
  /* The last repair: what it cost and a fresh A* from the same cell. */
  int32_t repairs;                    /* plans that followed an edit, the first plan included */
  uint64_t rep_expanded, rep_updated; /* the repair's work (as expanded, updated above) */
  size_t rep_changed;                 /* cells reported before it */
  double rep_ms;                      /* its time */
  double rep_cost;                    /* its path's cost (INFINITY: no path) */
  uint64_t fresh_expanded;            /* a fresh A* from the unit's cell after that repair */
  double fresh_cost;                  /* its cost (INFINITY: no path) */
  double fresh_ms;                    /* its time */
  uint64_t total_expanded;            /* over the walk: every plan's expansions */
  uint64_t total_fresh;               /* over the walk: the fresh A*'s of every repair */
  /* Cells the last repair touched: cell indices, each once (stamp == epoch). */
  int32_t *touched;     /* cap entries */
  size_t ntouched;      /* entries in touched */
  astar_point *scratch; /* cap cells: the changed cells' points, the fresh A*'s path */
  uint32_t *stamp;      /* per cell */
  uint32_t epoch;       /* the current repair's stamp, never 0 */
  size_t on_path;       /* repeated A*, splicing: index of the unit's cell in path */
  bool splice_due;      /* splicing: edits since the last plan (check the path) */
  int32_t splice_kind;  /* splicing: astar_repair_kind of the last repair, else -1 */
  astar_dstar *dstar;   /* D* Lite's planner, NULL for the other replanners */
  int32_t width;        /* D* Lite: the grid's width, for its observer's touches */
  bool repair_open;     /* the touched set was restarted by an edit since the last plan */
};

/* Cell (x, y) touched by the current repair (kept once). */
static void touch(pg_walk *w, int32_t width, astar_point c) {
  const int32_t i = c.y * width + c.x;
  if (w->stamp[i] == w->epoch) return;
  w->stamp[i] = w->epoch;
  w->touched[w->ntouched++] = i;
}

/* ---- repeated A* */

typedef struct touch_ctx {
  pg_walk *w;
  int32_t width;
} touch_ctx;

/* Observer: every cell given a g (pushed, improved, reopened). */
static void observe_touch(void *ctx, const astar_event *ev) {
  touch_ctx *t = ctx;
  if (ev->type == ASTAR_EVENT_PUSH || ev->type == ASTAR_EVENT_IMPROVE ||
      ev->type == ASTAR_EVENT_REOPEN)
    touch(t->w, t->width, ev->cell);
}

static astar_status again_init(pg_walk *w, pg_state *s) {
  (void)w;
  (void)s;
  return ASTAR_OK;
}
static void again_release(pg_walk *w) {
  (void)w;
}
/* The unit follows its path: only a step off it calls for a search. */
static astar_status again_move(pg_walk *w, pg_state *s) {
  (void)s;
  if (w->on_path + 1 < w->len && w->path[w->on_path + 1].x == w->agent.x &&
      w->path[w->on_path + 1].y == w->agent.y)
    w->on_path++;
  else
    w->len = 0; /* off the path: search at the next plan */
  return ASTAR_OK;
}
static astar_status again_changed(pg_walk *w, pg_state *s, const astar_point *cells, size_t n) {
  (void)s;
  (void)cells;
  (void)n;
  w->len = 0; /* any edit: search again from scratch */
  return ASTAR_OK;
}
/* The rest of the path from the unit's cell (it is on it). */
static void trim_path(pg_walk *w) {
  memmove(w->path, w->path + w->on_path, (w->len - w->on_path) * sizeof *w->path);
  w->len -= w->on_path;
  w->on_path = 0;
}

/* A search from scratch from the unit's cell, the cells it gives a g
** touched. */
static astar_status full_search(pg_walk *w, pg_state *s) {
  astar_options o = w->opt;
  touch_ctx t = {w, astar_grid_width(s->grid)};
  o.observer = observe_touch;
  o.observer_ctx = &t;
  astar_result r;
  const astar_status st =
      astar_find_path(s->ws, s->grid, &o, w->agent, w->goal, w->path, w->cap, &r);
  w->expanded = r.stats.expanded;
  w->updated = r.stats.generated;
  w->len = st == ASTAR_OK ? r.length : 0;
  w->cost = st == ASTAR_OK ? r.cost : INFINITY;
  w->on_path = 0;
  return st;
}

static astar_status again_plan(pg_walk *w, pg_state *s) {
  w->expanded = w->updated = 0;
  if (w->len > 0 && w->status == ASTAR_OK) {
    /* Still on its path and nothing changed: the rest of it. */
    trim_path(w);
    w->cost = NAN; /* not tracked along the way */
    return ASTAR_OK;
  }
  return full_search(w, s);
}

static const pg_replanner repeated_astar = {again_init, again_release, again_move, again_changed,
                                            again_plan};

/* ---- path splicing (astar/splice.h) */

/* An edit: the path is checked (and repaired where broken) at the next plan. */
static astar_status splice_changed(pg_walk *w, pg_state *s, const astar_point *cells, size_t n) {
  (void)s;
  (void)cells;
  (void)n;
  w->splice_due = true;
  return ASTAR_OK;
}
static astar_status splice_plan(pg_walk *w, pg_state *s) {
  w->expanded = w->updated = 0;
  const bool due = w->splice_due;
  w->splice_due = false;
  if (w->len == 0 || w->status != ASTAR_OK) {
    if (due) w->splice_kind = ASTAR_REPAIR_FULL; /* no path to repair */
    return full_search(w, s);
  }
  if (!due) {
    trim_path(w);
    w->cost = NAN;
    return ASTAR_OK;
  }
  /* The local searches (and the fallback) report the cells they reach. */
  astar_options o = w->opt;
  touch_ctx t = {w, astar_grid_width(s->grid)};
  o.observer = observe_touch;
  o.observer_ctx = &t;
  astar_repair r;
  size_t len = 0;
  const astar_status st = astar_path_splice(s->ws, s->grid, &o, NULL, w->path, w->len, w->on_path,
                                            w->scratch, w->cap, &len, &r);
  w->splice_kind = (int32_t)r.kind;
  w->expanded = r.expanded;
  w->on_path = 0;
  w->len = st == ASTAR_OK ? len : 0;
  w->cost = st == ASTAR_OK ? r.cost : INFINITY;
  if (st == ASTAR_OK) memcpy(w->path, w->scratch, len * sizeof *w->path);
  return st;
}

static const pg_replanner splicing = {again_init, again_release, again_move, splice_changed,
                                      splice_plan};

/* ---- D* Lite (astar/dstar.h) */

/* The planner's observer (astar_dstar_set_observer): every vertex whose
** rhs or g the repair changed -- by the edits (update_cells) and by the
** plan -- is a touched cell. */
static void dstar_observe(void *ctx, astar_point cell, astar_node node) {
  (void)node;
  pg_walk *w = ctx;
  touch(w, w->width, cell);
}

static astar_status dstar_init(pg_walk *w, pg_state *s) {
  w->width = astar_grid_width(s->grid);
  astar_status st =
      astar_dstar_new_grid(&w->dstar, s->grid, &w->opt, ASTAR_DSTAR_LITE, w->agent, w->goal, NULL);
  if (st == ASTAR_OK) st = astar_dstar_set_observer(w->dstar, dstar_observe, w);
  return st;
}
static void dstar_release(pg_walk *w) {
  astar_dstar_free(w->dstar);
  w->dstar = NULL;
}
static astar_status dstar_move(pg_walk *w, pg_state *s) {
  (void)s;
  return astar_dstar_move(w->dstar, w->agent);
}
static astar_status dstar_changed(pg_walk *w, pg_state *s, const astar_point *cells, size_t n) {
  return astar_dstar_update_cells(w->dstar, s->grid, cells, n);
}
static astar_status dstar_plan(pg_walk *w, pg_state *s) {
  (void)s;
  astar_dstar_result r;
  astar_status st = astar_dstar_plan(w->dstar, &r);
  w->expanded = r.stats.expanded;
  w->updated = r.stats.updated;
  w->len = 0;
  w->cost = st == ASTAR_OK ? r.cost : INFINITY;
  if (st == ASTAR_OK) st = astar_dstar_path(w->dstar, w->path, w->cap, &w->len);
  if (st != ASTAR_OK) w->len = 0;
  return st;
}

static const pg_replanner dstar_lite = {dstar_init, dstar_release, dstar_move, dstar_changed,
                                        dstar_plan};

/* The replanner of `kind`, NULL for an unknown kind. */
static const pg_replanner *replanner(int32_t kind) {
  switch (kind) {
  case PG_REPLAN_DSTAR:
    return &dstar_lite;
  case PG_REPLAN_ASTAR:
    return &repeated_astar;
  case PG_REPLAN_SPLICE:
    return &splicing;
  default:
    return NULL;
  }
}

/* Bit k set: replanner k exists (PG_REPLAN_*): the page offers those. */
PG_API int32_t pg_walk_kinds(void) {
  int32_t bits = 0;
  for (int32_t k = 0; k < PG_REPLAN_COUNT; k++)
    if (replanner(k)) bits |= 1 << k;
  return bits;
}

static void walk_free(pg_walk *w) {
  if (!w) return;
  if (w->ops) w->ops->release(w);
  free(w->path);
  free(w->touched);
  free(w->scratch);
  free(w->stamp);
  free(w);
}

/* End walk mode (nothing when it is off). */
PG_API void pg_walk_end(pg_state *s) {
  walk_free(s->walk);
  s->walk = NULL;
}

/*
** Walk mode: a planner of `kind` (PG_REPLAN_*) on the square grid with the
** page's move rules (pg_set_options: moves, corner, costs, heuristic;
** weight 1, no turn penalty, A* whatever the algorithm) for a unit at
** (ax, ay) walking to (gx, gy). Replaces any earlier one. Plans nothing
** yet. Returns ASTAR_OK; ASTAR_UNSUPPORTED (hex mode, a unit bigger than
** one cell, an unknown kind, or options D* Lite refuses);
** ASTAR_OUT_OF_BOUNDS; ASTAR_NO_MEMORY.
*/
PG_API int pg_walk_new(pg_state *s, int32_t kind, int32_t ax, int32_t ay, int32_t gx, int32_t gy) {
  pg_walk_end(s);
  const pg_replanner *ops = replanner(kind);
  if (!ops || s->hex || s->unit != 1) return ASTAR_UNSUPPORTED;
  if (!astar_grid_contains(s->grid, ax, ay) || !astar_grid_contains(s->grid, gx, gy))
    return ASTAR_OUT_OF_BOUNDS;
  pg_walk *w = calloc(1, sizeof *w);
  if (!w) return ASTAR_NO_MEMORY;
  const size_t n = (size_t)astar_grid_width(s->grid) * (size_t)astar_grid_height(s->grid);
  w->kind = kind;
  w->cap = n;
  w->path = malloc(n * sizeof *w->path);
  w->touched = malloc(n * sizeof *w->touched);
  w->scratch = malloc(n * sizeof *w->scratch);
  w->stamp = calloc(n, sizeof *w->stamp);
  w->opt = s->opt;
  w->opt.algorithm = ASTAR_ALGO_ASTAR;
  w->opt.weight = 1.0;
  w->opt.turn_penalty = 0;
  w->opt.observer = NULL;
  w->agent = (astar_point){ax, ay};
  w->goal = (astar_point){gx, gy};
  w->status = ASTAR_NO_PATH;
  w->edited = true; /* the first plan counts as a repair of nothing */
  w->splice_kind = -1;
  astar_status st =
      w->path && w->touched && w->scratch && w->stamp ? ops->init(w, s) : ASTAR_NO_MEMORY;
  if (st != ASTAR_OK) {
    walk_free(w);
    return st;
  }
  w->ops = ops;
  s->walk = w;
  return ASTAR_OK;
}

/* The unit moved to (x, y) (usually the next cell of the path). Returns
** ASTAR_OK, ASTAR_INVALID_ARGUMENT (no walk), ASTAR_OUT_OF_BOUNDS. */
PG_API int pg_walk_move(pg_state *s, int32_t x, int32_t y) {
  pg_walk *w = s->walk;
  if (!w) return ASTAR_INVALID_ARGUMENT;
  if (!astar_grid_contains(s->grid, x, y)) return ASTAR_OUT_OF_BOUNDS;
  w->agent = (astar_point){x, y};
  return w->ops->move(w, s);
}

/* The cells idx[0 .. n-1] (y * width + x) changed on the grid (pg_set_cell
** or pg_put_cells already applied them). Returns ASTAR_OK,
** ASTAR_INVALID_ARGUMENT (no walk), ASTAR_OUT_OF_BOUNDS (an index outside
** the grid: nothing reported), or the planner's status. */
/* A new touched set: the cells of the repair now starting. */
static void start_repair(pg_walk *w) {
  w->ntouched = 0;
  if (++w->epoch == 0) { /* wrapped: clear the stamps */
    memset(w->stamp, 0, w->cap * sizeof *w->stamp);
    w->epoch = 1;
  }
}

PG_API int pg_walk_changed(pg_state *s, const int32_t *idx, int32_t n) {
  pg_walk *w = s->walk;
  if (!w || n < 0) return ASTAR_INVALID_ARGUMENT;
  const int32_t width = astar_grid_width(s->grid);
  const size_t cells = w->cap;
  astar_point *pts = w->scratch;
  if ((size_t)n > cells) return ASTAR_OUT_OF_BOUNDS;
  for (int32_t k = 0; k < n; k++)
    if (idx[k] < 0 || (size_t)idx[k] >= cells) return ASTAR_OUT_OF_BOUNDS;
  if (n == 0) return ASTAR_OK;
  /* The repair starts with the edits: D* Lite's planner does part of its
  ** work (vertex updates) as it takes them in. */
  if (!w->repair_open) start_repair(w);
  w->repair_open = true;
  for (int32_t k = 0; k < n; k++) pts[k] = (astar_point){idx[k] % width, idx[k] / width};
  const astar_status st = w->ops->changed(w, s, pts, (size_t)n);
  w->edited = true;
  w->changed_cells += (size_t)n;
  return st;
}

/*
** Plan from the unit's cell to the goal. After an edit (and at the first
** plan) this is a repair: its work and the cells it touched are kept, and
** a fresh A* from the same cell runs for comparison (pg_walk_stat). Returns
** the planner's status: ASTAR_OK (pg_walk_path is the path), ASTAR_NO_PATH,
** ASTAR_START_BLOCKED, ASTAR_GOAL_BLOCKED; ASTAR_INVALID_ARGUMENT (no walk).
*/
PG_API int pg_walk_plan(pg_state *s) {
  pg_walk *w = s->walk;
  if (!w) return ASTAR_INVALID_ARGUMENT;
  const bool repair = w->edited;
  if (repair && !w->repair_open) start_repair(w); /* the first plan */
  w->repair_open = false;
  const double t0 = now_ms();
  w->status = w->ops->plan(w, s);
  w->plan_ms = now_ms() - t0;
  w->total_expanded += w->expanded;
  if (!repair) return w->status;
  w->edited = false;
  w->repairs++;
  w->rep_expanded = w->expanded;
  w->rep_updated = w->updated;
  w->rep_changed = w->changed_cells;
  w->changed_cells = 0;
  w->rep_ms = w->plan_ms;
  w->rep_cost = w->status == ASTAR_OK ? w->cost : INFINITY;
  /* The reference: a fresh A* from the unit's cell on the map as it is. */
  astar_result r;
  const double t1 = now_ms();
  const astar_status fs =
      astar_find_path(s->ws, s->grid, &w->opt, w->agent, w->goal, w->scratch, w->cap, &r);
  w->fresh_ms = now_ms() - t1;
  w->fresh_expanded = r.stats.expanded;
  w->fresh_cost = fs == ASTAR_OK ? r.cost : INFINITY;
  w->total_fresh += w->fresh_expanded;
  return w->status;
}

/* The last plan's path, unit's cell first, as (x, y) int32 pairs, and its
** length (0: none). Valid until the next pg_walk_* call. */
PG_API const astar_point *pg_walk_path(const pg_state *s) {
  return s->walk ? s->walk->path : NULL;
}
PG_API int32_t pg_walk_path_length(const pg_state *s) {
  return s->walk && s->walk->status == ASTAR_OK ? (int32_t)s->walk->len : 0;
}

/* The cells the last repair touched (cell indices, each once) and their
** count; valid until the next pg_walk_plan. */
PG_API const int32_t *pg_walk_touched(const pg_state *s) {
  return s->walk ? s->walk->touched : NULL;
}
PG_API int32_t pg_walk_touched_count(const pg_state *s) {
  return s->walk ? (int32_t)s->walk->ntouched : 0;
}

/* Walk statistics as doubles: 0 the last plan's expansions, 1 its updates
** (D* Lite: vertex updates; repeated A*: nodes generated), 2 its ms, 3
** repairs so far, 4 the last repair's expansions, 5 its updates, 6 the
** cells reported before it, 7 its ms, 8 its path's cost (Infinity: none),
** 9 the fresh A*'s expansions, 10 its cost, 11 its ms, 12 expansions of
** every plan of the walk, 13 the fresh A*'s of every repair, 14 the kind
** (PG_REPLAN_*), 15 the last plan's status, 16 splicing: what the last
** repair did (astar_repair_kind: 0 intact, 1 spliced, 2 full search, 3 gave
** up, 4 blocked; -1 for the other replanners); -1 without a walk. */
PG_API double pg_walk_stat(const pg_state *s, int32_t which) {
  const pg_walk *w = s->walk;
  if (!w) return -1;
  switch (which) {
  case 0:
    return (double)w->expanded;
  case 1:
    return (double)w->updated;
  case 2:
    return w->plan_ms;
  case 3:
    return w->repairs;
  case 4:
    return (double)w->rep_expanded;
  case 5:
    return (double)w->rep_updated;
  case 6:
    return (double)w->rep_changed;
  case 7:
    return w->rep_ms;
  case 8:
    return w->rep_cost;
  case 9:
    return (double)w->fresh_expanded;
  case 10:
    return w->fresh_cost;
  case 11:
    return w->fresh_ms;
  case 12:
    return (double)w->total_expanded;
  case 13:
    return (double)w->total_fresh;
  case 14:
    return w->kind;
  case 15:
    return w->status;
  case 16:
    return w->splice_kind;
  default:
    return 0;
  }
}

/* ---- MAPF mode (issue 29): many agents on the map, none colliding ------------------ */

/*
** A random instance of N agents on the passable cells of the square grid
** (astar_mapf_random_instance: the benchmark's random-scenario rule,
** seeded), solved by an algorithm of the library's MAPF table
** (astar/mapf.h, listed for the page by pg_mapf_algo_*) and checked by the
** library's validator. Beside it, the naive plan: each agent's own
** shortest 4-connected path, planned as if it were alone (a breadth-first
** search from its goal), and the collisions those paths would have --
** vertex (two agents in one cell at one time, an agent at its goal
** included) and swap (two agents exchanging cells in one step) -- which
** the page marks while the MAPF agents walk past each other. Terrain costs
** do not apply (the MAPF model: unit steps and waits). Paths are kept as
** cell indices (y * width + x), one run after another with an offset
** table, so JavaScript reads them with one Int32Array view each.
*/

/* One collision of the naive plan, 16 bytes for an Int32Array view. */
typedef struct pg_collision {
  int32_t time; /* a swap: the end of the step */
  int32_t cell; /* a swap: the cell the first agent enters */
  int32_t a, b; /* the agents, a < b */
} pg_collision;

/* Collisions recorded at most (the count goes on). */
#define PG_MAPF_MAX_COLLISIONS 8192

typedef struct pg_mapf {
  int32_t agents, width;
  astar_status status; /* the solve's */
  astar_mapf_stats stats;
  astar_mapf_report report; /* the validator's verdict on the solution */
  double ms;                /* time of the solve */
  int32_t *offsets;         /* agents + 1: agent i's path is cells[offsets[i] .. offsets[i+1]) */
  int32_t *cells;
  int32_t *naive_offsets; /* the same for the naive plan (empty for an agent with no path) */
  int32_t *naive_cells;
  pg_collision *collisions;
  int32_t ncollisions;      /* recorded */
  int64_t total_collisions; /* found */
  uint64_t naive_soc;       /* sum of the naive paths' lengths */
  int32_t naive_makespan;
} pg_mapf;

static void mapf_free(pg_mapf *m) {
  if (!m) return;
  free(m->offsets);
  free(m->cells);
  free(m->naive_offsets);
  free(m->naive_cells);
  free(m->collisions);
  free(m);
}

/* MAPF mode off: its result freed (nothing when there is none). */
PG_API void pg_mapf_end(pg_state *s) {
  mapf_free(s->mapf);
  s->mapf = NULL;
}

/* The library's MAPF algorithm table (astar_mapf_algo_info_get), for the
** page's menu: the count, and row i's name, summary and flags
** (ASTAR_MAPF_OPTIMAL 1, BOUNDED 2, COMPLETE 4, ANYTIME 8); NULL / 0
** outside the table. */
PG_API int32_t pg_mapf_algo_count(void) {
  return ASTAR_MAPF_ALGO_COUNT;
}
PG_API const char *pg_mapf_algo_name(int32_t i) {
  const astar_mapf_algo_info *a = astar_mapf_algo_info_get((astar_mapf_algo)i);
  return a ? a->name : NULL;
}
PG_API const char *pg_mapf_algo_summary(int32_t i) {
  const astar_mapf_algo_info *a = astar_mapf_algo_info_get((astar_mapf_algo)i);
  return a ? a->summary : NULL;
}
PG_API int32_t pg_mapf_algo_flags(int32_t i) {
  const astar_mapf_algo_info *a = astar_mapf_algo_info_get((astar_mapf_algo)i);
  return a ? (int32_t)a->flags : 0;
}
/* The validator's name of a fault kind (astar_mapf_fault_name). */
PG_API const char *pg_mapf_fault_name(int32_t fault) {
  return astar_mapf_fault_name((astar_mapf_fault)fault);
}

/* The naive plan: agent i's shortest path from starts[i] to goals[i] on the
** 4-connected passable cells, alone on the map (a breadth-first search from
** the goal; each step goes to a neighbour one closer, the first in the
** order right, down, left, up). dist and queue: width * height scratch. */
static astar_status mapf_naive(pg_mapf *m, const astar_grid *g, const astar_point *starts,
                               const astar_point *goals, int32_t *dist, int32_t *queue) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g), n = m->agents;
  static const int32_t dx[4] = {1, 0, -1, 0}, dy[4] = {0, 1, 0, -1};
  size_t total = 0, cap = 0;
  m->naive_offsets = malloc(((size_t)n + 1) * sizeof *m->naive_offsets);
  if (!m->naive_offsets) return ASTAR_NO_MEMORY;
  m->naive_offsets[0] = 0;
  for (int32_t i = 0; i < n; i++) {
    for (size_t c = 0; c < (size_t)w * (size_t)h; c++) dist[c] = -1;
    size_t head = 0, tail = 0;
    const int32_t gi = goals[i].y * w + goals[i].x, si = starts[i].y * w + starts[i].x;
    dist[gi] = 0;
    queue[tail++] = gi;
    while (head < tail && dist[si] < 0) {
      const int32_t c = queue[head++], cx = c % w, cy = c / w;
      for (int k = 0; k < 4; k++) {
        const int32_t nx = cx + dx[k], ny = cy + dy[k];
        if (!astar_grid_contains(g, nx, ny) || !astar_grid_passable(g, nx, ny)) continue;
        if (dist[ny * w + nx] >= 0) continue;
        dist[ny * w + nx] = dist[c] + 1;
        queue[tail++] = ny * w + nx;
      }
    }
    const size_t len = dist[si] < 0 ? 0 : (size_t)dist[si] + 1;
    if (total + len > cap) {
      size_t ncap = cap ? cap : 1024;
      while (ncap < total + len) ncap *= 2;
      int32_t *p = realloc(m->naive_cells, ncap * sizeof *p);
      if (!p) return ASTAR_NO_MEMORY;
      m->naive_cells = p;
      cap = ncap;
    }
    int32_t c = si;
    for (size_t t = 0; t < len; t++) {
      m->naive_cells[total + t] = c;
      if (t + 1 == len) break;
      const int32_t cx = c % w, cy = c / w;
      for (int k = 0; k < 4; k++) {
        const int32_t nx = cx + dx[k], ny = cy + dy[k];
        if (astar_grid_contains(g, nx, ny) && dist[ny * w + nx] == dist[c] - 1) {
          c = ny * w + nx;
          break;
        }
      }
    }
    total += len;
    m->naive_offsets[i + 1] = (int32_t)total;
    if (len) {
      m->naive_soc += len - 1;
      if ((int32_t)len - 1 > m->naive_makespan) m->naive_makespan = (int32_t)len - 1;
    }
  }
  return ASTAR_OK;
}

/* Agent i's cell at time t in a plan of offsets / cells (its last cell
** holds once its path has ended); -1 for an agent without a path. */
static int32_t mapf_at(const int32_t *offsets, const int32_t *cells, int32_t i, int32_t t) {
  const int32_t a = offsets[i], len = offsets[i + 1] - a;
  if (len == 0) return -1;
  return cells[a + (t < len ? t : len - 1)];
}

/* The naive plan's collisions, time by time: who is in each cell at t
** (occ[t & 1], stamped t + 1 in seen[t & 1]) gives the vertex collisions
** (an agent entering a cell another holds at that time), and who was there
** at t - 1 the swaps. */
static astar_status mapf_collisions(pg_mapf *m, size_t cells_count) {
  const int32_t n = m->agents;
  m->collisions = malloc(PG_MAPF_MAX_COLLISIONS * sizeof *m->collisions);
  int32_t *buf = calloc(4 * cells_count, sizeof *buf);
  if (!m->collisions || !buf) {
    free(buf);
    return ASTAR_NO_MEMORY;
  }
  int32_t *occ[2] = {buf, buf + cells_count},
          *seen[2] = {buf + 2 * cells_count, buf + 3 * cells_count};
  for (int32_t t = 0; t <= m->naive_makespan; t++) {
    int32_t *o = occ[t & 1], *sn = seen[t & 1];
    const int32_t *po = occ[(t & 1) ^ 1], *ps = seen[(t & 1) ^ 1];
    for (int32_t i = 0; i < n; i++) {
      const int32_t c = mapf_at(m->naive_offsets, m->naive_cells, i, t);
      if (c < 0) continue;
      if (sn[c] == t + 1) { /* vertex: the agent already there, and i */
        m->total_collisions++;
        if (m->ncollisions < PG_MAPF_MAX_COLLISIONS)
          m->collisions[m->ncollisions++] = (pg_collision){t, c, o[c], i};
      } else {
        sn[c] = t + 1;
        o[c] = i;
      }
      if (t == 0) continue;
      const int32_t from = mapf_at(m->naive_offsets, m->naive_cells, i, t - 1);
      if (from == c || ps[c] != t) continue;
      /* j was in c at t - 1: a swap when j is in `from` at t (counted once,
      ** by the later-numbered agent of the two). */
      const int32_t j = po[c];
      if (j < i && mapf_at(m->naive_offsets, m->naive_cells, j, t) == from) {
        m->total_collisions++;
        if (m->ncollisions < PG_MAPF_MAX_COLLISIONS)
          m->collisions[m->ncollisions++] = (pg_collision){t, c, j, i};
      }
    }
  }
  free(buf);
  return ASTAR_OK;
}

/*
** MAPF mode: a random instance of `agents` agents (seeded by `seed`) on the
** square grid's passable cells, solved with algorithm `algo` (a row of
** pg_mapf_algo_*) within `time_limit` seconds (0: none) and at most
** `max_work` units of work (0: none; the deterministic limit), EECBS with
** bound `w`; the solution checked by astar_mapf_check, and the naive plan
** and its collisions computed. Replaces the last run. Returns the solve's
** status: ASTAR_OK (pg_mapf_path_* hold the solution), ASTAR_NO_PATH,
** ASTAR_LIMIT_REACHED (the instance and the naive plan are kept: the page
** shows them without a solution); ASTAR_UNSUPPORTED (hex mode, or the
** algorithm cannot take the problem); ASTAR_TOO_LARGE (more agents than
** cells in the map's largest region); ASTAR_INVALID_ARGUMENT; ASTAR_NO_MEMORY.
*/
PG_API int pg_mapf_run(pg_state *s, int32_t algo, int32_t agents, double seed, double time_limit,
                       double max_work, double w) {
  pg_mapf_end(s);
  if (s->hex) return ASTAR_UNSUPPORTED;
  if (agents < 1 || !(seed >= 0 && seed < 18446744073709551616.0) || !(max_work >= 0) ||
      !(max_work < 18446744073709551616.0) || !astar_mapf_algo_info_get((astar_mapf_algo)algo))
    return ASTAR_INVALID_ARGUMENT;
  const int32_t width = astar_grid_width(s->grid), height = astar_grid_height(s->grid);
  const size_t ncells = (size_t)width * (size_t)height;
  pg_mapf *m = calloc(1, sizeof *m);
  astar_point *ends = malloc(2 * (size_t)agents * sizeof *ends);
  int32_t *scratch = malloc(2 * ncells * sizeof *scratch);
  astar_mapf_problem *p = NULL;
  astar_mapf_solver *solver = NULL;
  astar_mapf_solution *sol = NULL;
  astar_status st = m && ends && scratch ? ASTAR_OK : ASTAR_NO_MEMORY;
  if (st == ASTAR_OK) {
    m->agents = agents;
    m->width = width;
    st = astar_mapf_random_instance(s->grid, (uint64_t)seed, (size_t)agents, ends, ends + agents,
                                    NULL);
  }
  if (st == ASTAR_OK)
    st = astar_mapf_problem_new(&p, s->grid, ends, ends + agents, (size_t)agents, NULL, NULL);
  if (st == ASTAR_OK) st = astar_mapf_solver_new(&solver, NULL);
  if (st == ASTAR_OK) st = astar_mapf_solution_new(&sol, (size_t)agents, NULL);
  if (st == ASTAR_OK) st = mapf_naive(m, s->grid, ends, ends + agents, scratch, scratch + ncells);
  if (st == ASTAR_OK) st = mapf_collisions(m, ncells);
  if (st == ASTAR_OK) {
    astar_mapf_options o;
    astar_mapf_options_init(&o);
    o.algo = (astar_mapf_algo)algo;
    o.time_limit = time_limit;
    o.max_work = (uint64_t)max_work;
    o.w = w;
    o.seed = (uint64_t)seed;
    const double t0 = now_ms();
    m->status = astar_mapf_solve(solver, p, &o, sol, &m->stats);
    m->ms = now_ms() - t0;
    if (m->status != ASTAR_OK && m->status != ASTAR_NO_PATH && m->status != ASTAR_LIMIT_REACHED)
      st = m->status;
  }
  /* The solution as cell indices, and the validator's verdict on it. */
  if (m) m->report.fault = ASTAR_MAPF_AGENT_COUNT; /* no solution checked */
  if (st == ASTAR_OK && m->status == ASTAR_OK) {
    size_t total = 0;
    for (int32_t i = 0; i < agents; i++) {
      size_t len = 0;
      (void)astar_mapf_solution_path(sol, (size_t)i, &len);
      total += len;
    }
    m->offsets = malloc(((size_t)agents + 1) * sizeof *m->offsets);
    m->cells = malloc((total ? total : 1) * sizeof *m->cells);
    if (!m->offsets || !m->cells) st = ASTAR_NO_MEMORY;
    for (int32_t i = 0, k = 0; st == ASTAR_OK && i < agents; i++) {
      size_t len = 0;
      const astar_point *path = astar_mapf_solution_path(sol, (size_t)i, &len);
      m->offsets[i] = k;
      for (size_t t = 0; t < len; t++) m->cells[k++] = path[t].y * width + path[t].x;
      m->offsets[i + 1] = k;
    }
    if (st == ASTAR_OK) st = astar_mapf_check(p, sol, &m->report, NULL);
  } else if (st == ASTAR_OK) {
    m->offsets = calloc((size_t)agents + 1, sizeof *m->offsets);
    if (!m->offsets) st = ASTAR_NO_MEMORY;
  }
  astar_mapf_solution_free(sol);
  astar_mapf_solver_free(solver);
  astar_mapf_problem_free(p);
  free(ends);
  free(scratch);
  if (st != ASTAR_OK) {
    mapf_free(m);
    return st;
  }
  s->mapf = m;
  return m->status;
}

/* The last run's agents (0: none). */
PG_API int32_t pg_mapf_agents(const pg_state *s) {
  return s->mapf ? s->mapf->agents : 0;
}
/* The solution: agents + 1 offsets into the cells (cell indices; agent i's
** path is cells[offsets[i] .. offsets[i + 1]), its cell at t = 0, 1, ...
** up to its arrival; all empty without a solution). Valid until the next
** pg_mapf_run or pg_mapf_end. */
PG_API const int32_t *pg_mapf_offsets(const pg_state *s) {
  return s->mapf ? s->mapf->offsets : NULL;
}
PG_API const int32_t *pg_mapf_cells(const pg_state *s) {
  return s->mapf ? s->mapf->cells : NULL;
}
/* The naive plan, the same way (agent i's start is its first cell, its
** goal the last; an agent that cannot reach its goal has an empty path). */
PG_API const int32_t *pg_mapf_naive_offsets(const pg_state *s) {
  return s->mapf ? s->mapf->naive_offsets : NULL;
}
PG_API const int32_t *pg_mapf_naive_cells(const pg_state *s) {
  return s->mapf ? s->mapf->naive_cells : NULL;
}
/* The naive plan's collisions (pg_collision records: time, cell, a, b), at
** most PG_MAPF_MAX_COLLISIONS of them, in time order; pg_mapf_stat 12 the
** number found. */
PG_API const pg_collision *pg_mapf_collisions(const pg_state *s) {
  return s->mapf ? s->mapf->collisions : NULL;
}
PG_API int32_t pg_mapf_collision_count(const pg_state *s) {
  return s->mapf ? s->mapf->ncollisions : 0;
}

/* The last run's figures as doubles: 0 the solve's status, 1 solved, 2
** optimal, 3 sum of costs, 4 makespan, 5 lower bound, 6 proven bound, 7 ms
** of the solve, 8 seconds to the first solution (-1: none), 9 solutions
** found, 10 high-level nodes, 11 low-level expansions, 12 the naive plan's
** collisions, 13 its sum of costs, 14 its makespan, 15 the validator's
** fault (ASTAR_MAPF_VALID = 0), 16 the fault's agent (-1: none), 17 its
** time, 18 peak scratch bytes; -1 without a run. */
PG_API double pg_mapf_stat(const pg_state *s, int32_t which) {
  const pg_mapf *m = s->mapf;
  if (!m) return -1;
  switch (which) {
  case 0:
    return m->status;
  case 1:
    return m->stats.solved;
  case 2:
    return m->stats.optimal;
  case 3:
    return (double)m->stats.sum_of_costs;
  case 4:
    return m->stats.makespan;
  case 5:
    return (double)m->stats.lower_bound;
  case 6:
    return m->stats.bound;
  case 7:
    return m->ms;
  case 8:
    return m->stats.time_first;
  case 9:
    return m->stats.improvements;
  case 10:
    return (double)m->stats.high_level;
  case 11:
    return (double)m->stats.low_level;
  case 12:
    return (double)m->total_collisions;
  case 13:
    return (double)m->naive_soc;
  case 14:
    return m->naive_makespan;
  case 15:
    return m->report.fault;
  case 16:
    return m->report.agent == UINT32_MAX ? -1.0 : (double)m->report.agent;
  case 17:
    return m->report.time;
  case 18:
    return (double)m->stats.peak_memory;
  default:
    return 0;
  }
}

/* ---- Mesh mode (issue 30): the navigation mesh of the grid, Polyanya beside Anya -------- */

/*
** The navigation mesh of the current square grid (astar_navmesh_from_grid:
** every passable cell free, terrain ignored, Anya's corner rule; merged
** convex polygons or the triangles, an agent radius), kept while the grid's
** version and the settings stay, and one query over it: Polyanya's path
** (optimal), the funnel's (A* over the polygons, string-pulled) and Anya's
** on the grid itself, all three between the same two points -- the centres
** of the start and goal cells -- so the page shows Polyanya's length equal
** to Anya's (the same Euclidean shortest path under the same corner rule;
** with a radius > 0 Polyanya's is longer: the paths keep that far from the
** walls, Anya's do not). The mesh goes to the page as vertices (x, y
** doubles) and polygons (an offset table into vertex indices), each
** polygon outlined; paths as (x, y) doubles. No events: the searches'
** figures only (expanded, generated, time).
*/

/* Paths of pg_mesh_run, by `which`. */
enum { PG_MESH_POLYANYA = 0, PG_MESH_FUNNEL = 1, PG_MESH_ANYA = 2, PG_MESH_PATHS = 3 };

typedef struct pg_mesh_line {
  astar_status status;
  astar_vec2 *pts;
  size_t len, cap;
  double cost, ms;
  uint64_t expanded, generated;
  uint32_t corridor; /* funnel: polygons of the corridor */
} pg_mesh_line;

typedef struct pg_mesh {
  astar_navmesh *nm;
  const astar_grid *grid; /* the grid it was built from, at grid_version */
  uint64_t grid_version;
  double radius;
  bool merge;
  double build_ms;
  astar_finder *poly, *funnel, *anya;
  /* The mesh for drawing: vertices, polygon offsets (polygons + 1) and
  ** vertex indices, compacted (no empty slots). */
  double *verts;
  int32_t *offsets, *indices;
  int32_t nverts, npolys;
  pg_mesh_line paths[PG_MESH_PATHS];
} pg_mesh;

static void mesh_free(pg_mesh *m) {
  if (!m) return;
  astar_finder_free(m->poly);
  astar_finder_free(m->funnel);
  astar_finder_free(m->anya);
  astar_navmesh_free(m->nm);
  free(m->verts);
  free(m->offsets);
  free(m->indices);
  for (int i = 0; i < PG_MESH_PATHS; i++) free(m->paths[i].pts);
  free(m);
}

/* Mesh mode off: the mesh and the last query freed. */
PG_API void pg_mesh_end(pg_state *s) {
  mesh_free(s->mesh);
  s->mesh = NULL;
}

/* The drawing arrays of m's mesh. */
static astar_status mesh_arrays(pg_mesh *m) {
  const astar_mesh *mesh = astar_navmesh_mesh(m->nm);
  const size_t nv = astar_mesh_vertex_count(mesh), np = astar_mesh_polygon_count(mesh);
  size_t total = 0, live = 0;
  for (size_t i = 0; i < np; i++) {
    const uint32_t n = astar_mesh_polygon(mesh, i, NULL, NULL);
    total += n;
    live += n > 0;
  }
  m->verts = malloc((nv ? nv : 1) * 2 * sizeof *m->verts);
  m->offsets = malloc((live + 1) * sizeof *m->offsets);
  m->indices = malloc((total ? total : 1) * sizeof *m->indices);
  if (!m->verts || !m->offsets || !m->indices) return ASTAR_NO_MEMORY;
  for (size_t i = 0; i < nv; i++) {
    const astar_vec2 v = astar_mesh_vertex(mesh, i);
    m->verts[2 * i] = v.x;
    m->verts[2 * i + 1] = v.y;
  }
  size_t k = 0, p = 0;
  m->offsets[0] = 0;
  for (size_t i = 0; i < np; i++) {
    const int32_t *vs;
    const uint32_t n = astar_mesh_polygon(mesh, i, &vs, NULL);
    if (!n) continue;
    memcpy(m->indices + k, vs, n * sizeof *vs);
    k += n;
    m->offsets[++p] = (int32_t)k;
  }
  m->nverts = (int32_t)nv;
  m->npolys = (int32_t)live;
  return ASTAR_OK;
}

/*
** Build (or keep) the mesh of the current grid with agent radius `radius`
** (0 .. 1e6) and `merge` (1: convex polygons, 0: the triangles). Returns
** ASTAR_OK, ASTAR_UNSUPPORTED (hex mode: meshes are built from the square
** grid), ASTAR_INVALID_ARGUMENT (radius out of range), ASTAR_NO_PATH
** (nothing is free) or ASTAR_NO_MEMORY; on failure mesh mode is off.
*/
PG_API int pg_mesh_build(pg_state *s, double radius, int32_t merge) {
  if (s->hex) {
    pg_mesh_end(s);
    return ASTAR_UNSUPPORTED;
  }
  if (!(radius >= 0 && radius <= 1e6)) {
    pg_mesh_end(s);
    return ASTAR_INVALID_ARGUMENT;
  }
  pg_mesh *m = s->mesh;
  if (m && m->grid == s->grid && m->grid_version == astar_grid_version(s->grid) &&
      m->radius == radius && m->merge == (merge != 0))
    return ASTAR_OK;
  pg_mesh_end(s);
  m = calloc(1, sizeof *m);
  if (!m) return ASTAR_NO_MEMORY;
  astar_navmesh_options o;
  astar_navmesh_options_init(&o);
  o.radius = radius;
  o.merge = merge != 0;
  const double t0 = now_ms();
  astar_status st = astar_navmesh_from_grid(&m->nm, s->grid, &o, NULL);
  m->build_ms = now_ms() - t0;
  if (st == ASTAR_OK) st = mesh_arrays(m);
  astar_finder_config cfg;
  astar_finder_config_init(&cfg);
  cfg.method = ASTAR_METHOD_POLYANYA;
  if (st == ASTAR_OK) st = astar_finder_new_mesh(&m->poly, astar_navmesh_mesh(m->nm), &cfg, NULL);
  cfg.method = ASTAR_METHOD_FUNNEL;
  if (st == ASTAR_OK) st = astar_finder_new_mesh(&m->funnel, astar_navmesh_mesh(m->nm), &cfg, NULL);
  if (st != ASTAR_OK) {
    mesh_free(m);
    return st;
  }
  /* Anya on the grid (refused on a grid with terrain: its path is then
  ** missing, with the status, and the mesh's stands alone). */
  cfg.method = ASTAR_METHOD_ANYA;
  if (astar_finder_new(&m->anya, s->grid, &cfg, NULL) != ASTAR_OK) m->anya = NULL;
  m->grid = s->grid;
  m->grid_version = astar_grid_version(s->grid);
  m->radius = radius;
  m->merge = merge != 0;
  for (int i = 0; i < PG_MESH_PATHS; i++) m->paths[i].status = ASTAR_NO_PATH;
  s->mesh = m;
  return ASTAR_OK;
}

/* One search of `f` into p (points grown as needed), timed. */
static void mesh_search(pg_state *s, const astar_finder *f, bool grid, astar_point sc,
                        astar_point gc, pg_mesh_line *p) {
  const astar_vec2 a = {sc.x + 0.5, sc.y + 0.5}, b = {gc.x + 0.5, gc.y + 0.5};
  astar_path_result r;
  memset(&r, 0, sizeof r);
  astar_status st;
  double t0;
  for (;;) {
    t0 = now_ms();
    st = grid ? astar_finder_find_vec(f, s->ws, sc, gc, p->pts, p->cap, &r)
              : astar_finder_find_points(f, s->ws, a, b, p->pts, p->cap, &r);
    if (st != ASTAR_BUFFER_TOO_SMALL || r.length <= p->cap) break;
    astar_vec2 *q = realloc(p->pts, r.length * 2 * sizeof *q);
    if (!q) {
      st = ASTAR_NO_MEMORY;
      break;
    }
    p->pts = q;
    p->cap = r.length * 2;
  }
  p->ms = now_ms() - t0;
  p->status = st;
  p->len = st == ASTAR_OK ? r.length : 0;
  p->cost = st == ASTAR_OK ? r.cost : 0;
  p->expanded = r.stats.expanded;
  p->generated = r.stats.generated;
  p->corridor = r.abstract_length;
}

/*
** The query from cell (sx, sy) to cell (gx, gy) -- their centres -- on the
** mesh of pg_mesh_build (built first when the grid changed since): Polyanya,
** the funnel, and Anya on the grid. Returns Polyanya's status (ASTAR_OK,
** ASTAR_NO_PATH, ASTAR_START_BLOCKED, ASTAR_GOAL_BLOCKED, ...), or the
** build's failure; each path's own status is pg_mesh_stat.
*/
PG_API int pg_mesh_run(pg_state *s, int32_t sx, int32_t sy, int32_t gx, int32_t gy) {
  pg_mesh *m = s->mesh;
  if (!m) return ASTAR_INVALID_ARGUMENT;
  astar_status st = (astar_status)pg_mesh_build(s, m->radius, m->merge);
  if (st != ASTAR_OK) return st;
  m = s->mesh;
  if (!s->ws && astar_workspace_new_empty(&s->ws, NULL) != ASTAR_OK) return ASTAR_NO_MEMORY;
  const astar_point a = {sx, sy}, b = {gx, gy};
  mesh_search(s, m->poly, false, a, b, &m->paths[PG_MESH_POLYANYA]);
  mesh_search(s, m->funnel, false, a, b, &m->paths[PG_MESH_FUNNEL]);
  if (m->anya) {
    mesh_search(s, m->anya, true, a, b, &m->paths[PG_MESH_ANYA]);
  } else {
    m->paths[PG_MESH_ANYA].status = ASTAR_UNSUPPORTED;
    m->paths[PG_MESH_ANYA].len = 0;
  }
  return m->paths[PG_MESH_POLYANYA].status;
}

PG_API int32_t pg_mesh_vertex_count(const pg_state *s) {
  return s->mesh ? s->mesh->nverts : 0;
}
PG_API int32_t pg_mesh_polygon_count(const pg_state *s) {
  return s->mesh ? s->mesh->npolys : 0;
}
/* (x, y) doubles, pg_mesh_vertex_count of them; NULL without a mesh. */
PG_API const double *pg_mesh_vertices(const pg_state *s) {
  return s->mesh ? s->mesh->verts : NULL;
}
/* Polygon i is vertices indices[offsets[i] .. offsets[i + 1]). */
PG_API const int32_t *pg_mesh_offsets(const pg_state *s) {
  return s->mesh ? s->mesh->offsets : NULL;
}
PG_API const int32_t *pg_mesh_indices(const pg_state *s) {
  return s->mesh ? s->mesh->indices : NULL;
}
/* Path `which` (0 Polyanya, 1 funnel, 2 Anya) of the last pg_mesh_run as
** (x, y) doubles, and its point count (0 without a path). */
PG_API const astar_vec2 *pg_mesh_path(const pg_state *s, int32_t which) {
  return s->mesh && which >= 0 && which < PG_MESH_PATHS ? s->mesh->paths[which].pts : NULL;
}
PG_API int32_t pg_mesh_path_length(const pg_state *s, int32_t which) {
  return s->mesh && which >= 0 && which < PG_MESH_PATHS ? (int32_t)s->mesh->paths[which].len : 0;
}

/* Path `which`'s figures: 0 status, 1 cost (its Euclidean length), 2
** expanded, 3 generated, 4 ms, 5 corridor polygons (funnel); the mesh's
** (which -1): 0 polygons, 1 vertices, 2 area, 3 build ms, 4 bytes, 5 radius,
** 6 merged, 7 triangles. -1 without a mesh. */
PG_API double pg_mesh_stat(const pg_state *s, int32_t which, int32_t what) {
  const pg_mesh *m = s->mesh;
  if (!m) return -1;
  if (which < 0) {
    astar_navmesh_stats st;
    astar_navmesh_stats_get(m->nm, &st);
    switch (what) {
    case 0:
      return m->npolys;
    case 1:
      return m->nverts;
    case 2:
      return astar_mesh_area(astar_navmesh_mesh(m->nm));
    case 3:
      return m->build_ms;
    case 4:
      return (double)st.memory;
    case 5:
      return m->radius;
    case 6:
      return m->merge;
    case 7:
      return (double)st.free_triangles;
    default:
      return 0;
    }
  }
  if (which >= PG_MESH_PATHS) return -1;
  const pg_mesh_line *p = &m->paths[which];
  switch (what) {
  case 0:
    return p->status;
  case 1:
    return p->cost;
  case 2:
    return (double)p->expanded;
  case 3:
    return (double)p->generated;
  case 4:
    return p->ms;
  case 5:
    return p->corridor;
  default:
    return 0;
  }
}
