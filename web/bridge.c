/*
** bridge.c -- the small C API the web playground calls from JavaScript: one
** playground object holding a grid, a workspace, the search options and the
** last search's results (status, statistics, path and every observer event
** in a growable buffer that JavaScript reads through the HEAP views).
**
** Everything is reached through a pg_state handle, so the library's rule of
** no global mutable state holds here too. Cells are exchanged as one byte
** each: 0 blocked, 1..255 passable with that terrain cost.
*/
#include <astar/astar.h>

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
** separate entry point with its own precomputation. */
enum { PG_ALGO_ASTAR = 0, PG_ALGO_JPS = 1, PG_ALGO_JPS_PLUS = 2 };

/* One recorded observer event, 32 bytes, laid out for Int32Array and
** Float64Array views: cells are row-major indices, -1 for "none". */
typedef struct pg_event {
  int32_t type;      /* astar_event_type */
  int32_t cell;      /* y * width + x */
  int32_t parent;    /* parent cell index, -1 for the start */
  int32_t direction; /* turn-penalty searches: arrival direction, else -1 */
  double g;
  double h; /* as weighted; f = g + h */
} pg_event;

/* Recording stops here (128 MiB of events); the search itself goes on. */
#define PG_MAX_EVENTS ((size_t)4 << 20)

typedef struct pg_state {
  astar_grid *grid;
  astar_workspace *ws;
  bool turns_reserved; /* astar_workspace_reserve_turns done for this grid */
  astar_jps_plus *jpp; /* JPS+ precomputation, rebuilt when the grid changes */
  uint64_t jpp_version;
  size_t terrain_cells; /* cells with a terrain cost other than 1 */
  uint8_t *cells;       /* width * height bytes exchanged with JavaScript */
  astar_options opt;
  int algorithm; /* PG_ALGO_* */
  /* Last search. */
  astar_status status;
  astar_result result;
  astar_point *path;
  size_t path_cap;
  pg_event *events;
  size_t nevents, events_cap;
  bool events_truncated;
  bool recorded;        /* events were recorded (every algorithm reports them) */
  double time_ms;       /* mean time of one search without observer */
  int32_t time_runs;    /* how many searches that mean is over */
  double precompute_ms; /* JPS+ precomputation of this run, 0 if cached */
  astar_point loaded_start, loaded_goal;
  astar_parse_error perr;
} pg_state;

static void observe(void *ctx, const astar_event *ev) {
  pg_state *s = ctx;
  if (s->nevents == s->events_cap) {
    if (s->events_cap >= PG_MAX_EVENTS) {
      s->events_truncated = true;
      return;
    }
    size_t cap = s->events_cap ? s->events_cap * 2 : 4096;
    if (cap > PG_MAX_EVENTS) cap = PG_MAX_EVENTS;
    pg_event *e = realloc(s->events, cap * sizeof *e);
    if (!e) {
      s->events_truncated = true;
      return;
    }
    s->events = e;
    s->events_cap = cap;
  }
  const int32_t w = astar_grid_width(s->grid);
  pg_event *e = &s->events[s->nevents++];
  e->type = (int32_t)ev->type;
  e->cell = ev->cell.y * w + ev->cell.x;
  e->parent = ev->parent.x < 0 ? -1 : ev->parent.y * w + ev->parent.x;
  e->direction = ev->direction;
  e->g = ev->g;
  e->h = ev->h;
}

static void reset_result(pg_state *s) {
  s->status = ASTAR_NO_PATH;
  memset(&s->result, 0, sizeof s->result);
  s->nevents = 0;
  s->events_truncated = false;
  s->recorded = false;
  s->time_ms = 0;
  s->time_runs = 0;
  s->precompute_ms = 0;
}

/* Replace the grid by `g` (taken over): workspace, cell bytes, caches. */
static astar_status adopt_grid(pg_state *s, astar_grid *g) {
  const size_t n = (size_t)astar_grid_width(g) * (size_t)astar_grid_height(g);
  uint8_t *cells = malloc(n);
  astar_point *path = malloc(n * sizeof *path);
  astar_workspace *ws = NULL;
  astar_status st = astar_workspace_new(&ws, g, NULL);
  if (st != ASTAR_OK || !cells || !path) {
    free(cells);
    free(path);
    astar_workspace_free(ws);
    astar_grid_free(g);
    return st != ASTAR_OK ? st : ASTAR_NO_MEMORY;
  }
  astar_grid_free(s->grid);
  astar_workspace_free(s->ws);
  astar_jps_plus_free(s->jpp);
  free(s->cells);
  free(s->path);
  s->grid = g;
  s->ws = ws;
  s->jpp = NULL;
  s->turns_reserved = false;
  s->cells = cells;
  s->path = path;
  s->path_cap = n;
  s->terrain_cells = 0;
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++)
      if (astar_grid_terrain(g, x, y) != 1.0f) s->terrain_cells++;
  reset_result(s);
  return ASTAR_OK;
}

PG_API pg_state *pg_new(int32_t width, int32_t height) {
  pg_state *s = calloc(1, sizeof *s);
  astar_grid *g = NULL;
  if (!s) return NULL;
  astar_options_init(&s->opt);
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
  free(s->cells);
  free(s->path);
  free(s->events);
  free(s);
}

/* A new all-passable grid of the given size. */
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

/* One cell: 0 blocks it, 1..255 makes it passable with that terrain cost. */
PG_API int pg_set_cell(pg_state *s, int32_t x, int32_t y, int32_t value) {
  if (!astar_grid_contains(s->grid, x, y) || value < 0 || value > 255) return ASTAR_OUT_OF_BOUNDS;
  const float old = astar_grid_terrain(s->grid, x, y);
  const float cost = value > 0 ? (float)value : 1.0f;
  astar_status st = astar_grid_set_passable(s->grid, x, y, value > 0);
  if (st == ASTAR_OK && cost != old) st = astar_grid_set_terrain(s->grid, x, y, cost);
  if (st != ASTAR_OK) return st;
  if (old != 1.0f) s->terrain_cells--;
  if (cost != 1.0f) s->terrain_cells++;
  /* Without terrain the grid drops its layer, which JPS and JPS+ require. */
  if (s->terrain_cells == 0 && astar_grid_has_terrain(s->grid)) astar_grid_clear_terrain(s->grid);
  s->cells[(size_t)y * (size_t)astar_grid_width(s->grid) + (size_t)x] = (uint8_t)value;
  return ASTAR_OK;
}

/* The width * height cell bytes; pg_get_cells fills them from the grid,
** pg_put_cells writes them all to the grid. */
PG_API uint8_t *pg_cells(pg_state *s) {
  return s->cells;
}

PG_API void pg_get_cells(pg_state *s) {
  const int32_t w = astar_grid_width(s->grid), h = astar_grid_height(s->grid);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      float t = astar_grid_terrain(s->grid, x, y);
      uint8_t v = t <= 1.0f ? 1 : t >= 255.0f ? 255 : (uint8_t)(t + 0.5f);
      s->cells[(size_t)y * (size_t)w + (size_t)x] = astar_grid_passable(s->grid, x, y) ? v : 0;
    }
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
      if (st != ASTAR_OK) return st;
    }
  return ASTAR_OK;
}

/* Parse a Moving AI .map or an ASCII map (astar_parse_map) from text[0..len)
** and make it the grid. On ASTAR_PARSE_ERROR, pg_error_* tell where. */
PG_API int pg_load_map(pg_state *s, const char *text, int32_t len) {
  astar_grid *g = NULL;
  astar_point start, goal;
  memset(&s->perr, 0, sizeof s->perr);
  astar_status st = astar_parse_map(&g, text, (size_t)len, NULL, &start, &goal, &s->perr);
  if (st != ASTAR_OK) return st;
  st = adopt_grid(s, g);
  if (st != ASTAR_OK) return st;
  s->loaded_start = start;
  s->loaded_goal = goal;
  pg_get_cells(s);
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

/* Search options; the enums take the values of astar/search.h. */
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
  if (heuristic == ASTAR_H_CALLBACK || algorithm < 0 || algorithm > PG_ALGO_JPS_PLUS)
    return ASTAR_INVALID_ARGUMENT;
  astar_status st = astar_options_validate(&o);
  if (st != ASTAR_OK) return st;
  s->opt = o;
  s->algorithm = algorithm;
  return ASTAR_OK;
}

static astar_status search_once(pg_state *s, astar_point start, astar_point goal,
                                const astar_options *o) {
  if (s->algorithm == PG_ALGO_JPS_PLUS)
    return astar_jps_plus_find_path(s->ws, s->jpp, s->grid, o, start, goal, s->path, s->path_cap,
                                    &s->result);
  return astar_find_path(s->ws, s->grid, o, start, goal, s->path, s->path_cap, &s->result);
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
  if (s->opt.turn_penalty > 0 && !s->turns_reserved) {
    astar_status st = astar_workspace_reserve_turns(s->ws, s->grid);
    if (st != ASTAR_OK) return s->status = st;
    s->turns_reserved = true;
  }
  if (s->algorithm == PG_ALGO_JPS_PLUS &&
      (!s->jpp || s->jpp_version != astar_grid_version(s->grid))) {
    astar_jps_plus_free(s->jpp);
    s->jpp = NULL;
    const double t0 = now_ms();
    astar_status st = astar_jps_plus_new(&s->jpp, s->grid, NULL);
    s->precompute_ms = now_ms() - t0;
    if (st != ASTAR_OK) return s->status = st;
    s->jpp_version = astar_grid_version(s->grid);
  }
  if (flags & PG_RUN_RECORD) {
    astar_options o = s->opt;
    o.observer = observe;
    o.observer_ctx = s;
    s->recorded = true;
    s->status = search_once(s, start, goal, &o);
  }
  const double t0 = now_ms();
  double t = t0;
  do {
    s->status = search_once(s, start, goal, &s->opt);
    s->time_runs++;
    t = now_ms();
  } while (!(flags & PG_RUN_ONCE) && t - t0 < 20.0 && s->time_runs < 1000);
  s->time_ms = (t - t0) / s->time_runs;
  return s->status;
}

/* Cells with a terrain cost other than 1. */
PG_API int32_t pg_terrain_cells(const pg_state *s) {
  return (int32_t)s->terrain_cells;
}

/*
** Why the selected algorithm cannot run with the current options on the
** current grid: the library's sentence (astar_unsupported_reason, which
** names the first option or grid property it cannot honour), asked for JPS
** when JPS+ is selected -- JPS+ has JPS's rules; NULL when it can run.
*/
PG_API const char *pg_unsupported_reason(pg_state *s) {
  if (s->algorithm == PG_ALGO_ASTAR) return NULL;
  astar_options o = s->opt;
  o.algorithm = ASTAR_ALGO_JPS;
  return astar_unsupported_reason(&o, s->grid);
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
/* Statistics as doubles (JavaScript numbers): 0 expanded, 1 generated,
** 2 reopened, 3 max open, 4 search ms, 5 timed runs, 6 JPS+ precompute ms. */
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
  default:
    return 0;
  }
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
