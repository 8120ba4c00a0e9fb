/*
** sim_world.c -- `astar simulate MAP --agents N --replan astar|splice
** [--walls N --wall-period P] [--doors N --door-period D] [--recompute
** every:N|change|waypoint|blocked]`: units walking one cell per frame on a
** map that changes under them (issue 10, parts 5 and 7).
**
** Walls are short random segments of open cells that close and open every
** P frames (each with its own random phase); doors are chokepoint cells
** (open, with both neighbours on one axis blocked and both on the other
** open) that open and close every D frames. A cell where a unit stands, or
** any unit's start or goal, is never closed (it stays open until the next
** toggle). Each unit is an astar_follow (astar/replan.h) with the chosen
** recompute policy; with --recompute change the paths are registered in a
** watch index (astar/watch.h) synced after each frame's edits. Replanning
** either goes through the path-request queue (--replan astar, --budget
** expansions per frame) or splices the path on the spot (--replan splice,
** astar/splice.h). A unit whose plan found no path waits RETRY_FRAMES
** frames before trying again.
**
** Every random choice comes from splitmix64 seeded by --seed, units are
** handled in index order and the report prints no time except on its
** `time:` line: the same command gives the same output on every platform
** but that line.
*/
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define WORLD_MAX_AGENTS 100000L
#define WORLD_MAX_SEGMENTS 100000L
#define WALL_LENGTH 6  /* cells of a wall segment (fewer where the map is blocked) */
#define RETRY_FRAMES 8 /* a unit whose plan failed waits this long */
#define CHANGE_RING 65536u
#define WAIT_PENDING (-2L) /* wait_until: a failed queue plan, frame not set yet */

static uint64_t rnd(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static uint32_t below(uint64_t *state, uint32_t n) {
  return (uint32_t)(rnd(state) % n);
}

typedef enum replan_mode { REPLAN_ASTAR, REPLAN_SPLICE, REPLAN_DSTAR } replan_mode;
#define DSTAR_MEMORY_MAX ((uint64_t)4 << 30) /* bytes all units' planners may take */
#define DSTAR_CELL_BYTES 56                  /* a planner's bytes a padded cell (astar/dstar.h) */
typedef enum recompute_mode { RC_EVERY, RC_CHANGE, RC_WAYPOINT, RC_BLOCKED } recompute_mode;

static const char *const replan_names[] = {"astar", "splice", "dstar", NULL};

/* --recompute R: dest is the cli_world_args. */
static bool recompute_parse(const cli_opt *o, const char *text, void *dest) {
  (void)o;
  cli_world_args *w = dest;
  static const char *const names[] = {"change", "waypoint", "blocked"};
  static const int modes[] = {RC_CHANGE, RC_WAYPOINT, RC_BLOCKED};
  if (strncmp(text, "every:", 6) == 0) {
    const char *n = text + 6;
    char *end;
    if (!isdigit((unsigned char)*n)) return false;
    errno = 0;
    const long v = strtol(n, &end, 10);
    if (*end != '\0' || errno == ERANGE || v < 1 || v > 1000000L) return false;
    w->recompute = RC_EVERY;
    w->every = v;
    return true;
  }
  for (int i = 0; i < 3; i++)
    if (strcmp(text, names[i]) == 0) {
      w->recompute = modes[i];
      return true;
    }
  return false;
}

static const cli_opt world_rows[] = {
    {.name = "--agents",
     .meta = "N",
     .kind = CLI_INT,
     CLI_AT(cli_world_args, agents),
     .min = 1,
     .max = WORLD_MAX_AGENTS,
     .flags = CLI_HIDDEN,
     .help = "units, %r (required)"},
    {.name = "--frames",
     .meta = "F",
     .kind = CLI_INT,
     CLI_AT(cli_world_args, frames),
     .max = 100000000L,
     .flags = CLI_HIDDEN,
     .help = "stop after F frames (default 0: 20 x (width + height))"},
    {.name = "--replan",
     .meta = "astar|splice|dstar",
     .kind = CLI_CHOICE,
     CLI_AT(cli_world_args, replan),
     .names = replan_names,
     .help = "how a unit replans: a request to the path\n"
             "queue (--budget B expansions per frame, default\n"
             "1000000); a splice of its path on the spot (Patel 5.2:\n"
             "local search, length check, fallback to a full\n"
             "search); or its own D* Lite planner, which repairs\n"
             "its search after every edit (about 56 bytes a cell a\n"
             "unit; --recompute then only adds replans)"},
    {.name = "--recompute",
     .meta = "R",
     .kind = CLI_CUSTOM,
     .size = sizeof(cli_world_args),
     .parse = recompute_parse,
     .range = "every:N (N from 1 to 1000000), change, waypoint or blocked",
     .sample = "change",
     .help = "when a unit replans besides a refused step:\n"
             "every:N (every N steps, 1..1000000), change (its path\n"
             "crosses a changed cell: watch index), waypoint (on\n"
             "each turn of its path), blocked (only when a step is\n"
             "refused); default change"},
    {.name = "--walls",
     .meta = "N",
     .kind = CLI_INT,
     CLI_AT(cli_world_args, walls),
     .max = WORLD_MAX_SEGMENTS,
     .help = "N random wall segments of up to 6 cells, %r"},
    {.name = "--wall-period",
     .meta = "P",
     .kind = CLI_INT,
     CLI_AT(cli_world_args, wall_period),
     .min = 1,
     .max = 1000000L,
     .help = "each wall closes / opens every P frames, %r\n"
             "(default 20)"},
    {.name = "--doors",
     .meta = "N",
     .kind = CLI_INT,
     CLI_AT(cli_world_args, doors),
     .max = WORLD_MAX_SEGMENTS,
     .help = "N chokepoint cells that close / open, %r"},
    {.name = "--door-period",
     .meta = "D",
     .kind = CLI_INT,
     CLI_AT(cli_world_args, door_period),
     .min = 1,
     .max = 1000000L,
     .help = "every D frames, %r (default 30)"},
    {.name = "--splice-before",
     .meta = "K",
     .kind = CLI_INT,
     CLI_AT(cli_world_args, before),
     .max = 1000000L,
     .help = "splicing: cells kept back before a break (default 4)"},
    {.name = "--splice-after",
     .meta = "M",
     .kind = CLI_INT,
     CLI_AT(cli_world_args, after),
     .max = 1000000L,
     .help = "splicing: cells past a break (default 8)"},
    {.name = "--splice-ratio",
     .meta = "R",
     .kind = CLI_NUMBER,
     CLI_AT(cli_world_args, ratio),
     .help = "splicing: the length check's factor, >= 0 (default 1.5)"},
};
const cli_group cli_world_group = CLI_ROWS(world_rows);

void cli_world_defaults(cli_world_args *w) {
  astar_splice_options sopt;
  astar_splice_options_init(&sopt);
  memset(w, 0, sizeof *w);
  w->wall_period = 20;
  w->door_period = 30;
  w->before = 4;
  w->after = 8;
  w->ratio = sopt.max_ratio;
  w->replan = REPLAN_ASTAR;
  w->recompute = RC_CHANGE;
}

/* A toggled group of cells: a wall segment or a door. */
typedef struct toggler {
  size_t first, count; /* its cells: cells[first .. first+count-1] */
  long period, phase;  /* closed during odd half-periods: ((frame + phase) / period) odd */
  bool closed;
} toggler;

typedef struct unit {
  astar_follow f;
  astar_point start;
  astar_watch_id wid;
  bool watched;
  long wait_until;       /* frame before which it does not replan (after a failure) */
  astar_dstar *planner;  /* --replan dstar: its D* Lite planner, made at its first plan */
  astar_point at;        /* --replan dstar: the cell the planner was last told of */
  uint64_t plan_version; /* --replan dstar: grid version of its last plan */
  long arrived_at;       /* frame it arrived, -1 */
} unit;

typedef struct world {
  astar_grid *grid;
  const astar_options *opt;
  unit *units;
  size_t n;
  int32_t w;
  uint32_t *occ;      /* units standing on each cell */
  uint8_t *endpoint;  /* a unit's start or goal */
  astar_point *cells; /* the togglers' cells */
  size_t ncells;
  toggler *tog;
  size_t ntog, nwalls;
  astar_watch *watch;
  size_t *unit_of;  /* [n] the unit of each watch id */
  astar_queue *q;   /* --replan astar: the request queue */
  size_t unwatched; /* registrations that did not fit the watch */
  uint64_t toggles, edits;
  uint64_t reasons[ASTAR_REPLAN_REASON_COUNT];
  uint64_t repairs[5]; /* splice outcomes by astar_repair_kind */
  uint64_t expanded, failed_plans;
} world;

static size_t idx(const world *wd, astar_point p) {
  return (size_t)p.y * (size_t)wd->w + (size_t)p.x;
}

static void watch_path(world *wd, unit *u) {
  if (!wd->watch) return;
  astar_status s;
  if (u->f.len == 0) {
    if (u->watched) astar_watch_remove(wd->watch, u->wid);
    u->watched = false;
    return;
  }
  if (u->watched)
    s = astar_watch_replace(wd->watch, u->wid, wd->opt, u->f.path, u->f.len);
  else
    s = astar_watch_add(wd->watch, wd->opt, u->f.path, u->f.len, &u->wid);
  if (s == ASTAR_OK) {
    u->watched = true;
    wd->unit_of[u->wid] = (size_t)(u - wd->units);
  } else {
    if (u->watched) astar_watch_remove(wd->watch, u->wid);
    u->watched = false;
    wd->unwatched++;
  }
}

/* ---- the map's moving parts ------------------------------------------------------ */

static bool is_door_cell(const astar_grid *g, int32_t x, int32_t y) {
#define P(dx, dy) astar_grid_passable(g, x + (dx), y + (dy))
  if (!P(0, 0)) return false;
  return (P(0, -1) && P(0, 1) && !P(-1, 0) && !P(1, 0)) ||
         (P(-1, 0) && P(1, 0) && !P(0, -1) && !P(0, 1));
#undef P
}

/* Place walls and doors; false when memory runs out. */
static bool place_togglers(world *wd, long walls, long wall_period, long doors, long door_period,
                           uint64_t *state) {
  const int32_t w = astar_grid_width(wd->grid), h = astar_grid_height(wd->grid);
  const size_t total = (size_t)walls + (size_t)doors;
  wd->tog = calloc(total ? total : 1, sizeof *wd->tog);
  wd->cells = calloc((size_t)walls * WALL_LENGTH + (size_t)doors + 1, sizeof *wd->cells);
  uint8_t *used = calloc((size_t)w * (size_t)h, 1);
  if (!wd->tog || !wd->cells || !used) {
    free(used);
    return false;
  }
  for (long k = 0; k < walls; k++) {
    toggler *t = &wd->tog[wd->ntog];
    t->first = wd->ncells;
    t->period = wall_period;
    t->phase = (long)below(state, (uint32_t)wall_period * 2u);
    for (int tries = 0; tries < 100 && t->count == 0; tries++) {
      const astar_point p = {(int32_t)below(state, (uint32_t)w),
                             (int32_t)below(state, (uint32_t)h)};
      const bool horizontal = below(state, 2) == 0;
      for (int i = 0; i < WALL_LENGTH; i++) {
        const astar_point c = {p.x + (horizontal ? i : 0), p.y + (horizontal ? 0 : i)};
        if (!astar_grid_passable(wd->grid, c.x, c.y) || used[idx(wd, c)] ||
            wd->endpoint[idx(wd, c)])
          continue;
        used[idx(wd, c)] = 1;
        wd->cells[wd->ncells++] = c;
        t->count++;
      }
    }
    if (t->count) wd->ntog++;
  }
  wd->nwalls = wd->ntog;
  if (doors > 0) {
    /* Candidates in row order, then a seeded partial shuffle. */
    size_t nc = 0;
    astar_point *cand = malloc((size_t)w * (size_t)h * sizeof *cand);
    if (!cand) {
      free(used);
      return false;
    }
    for (int32_t y = 0; y < h; y++)
      for (int32_t x = 0; x < w; x++) {
        const astar_point c = {x, y};
        if (is_door_cell(wd->grid, x, y) && !used[idx(wd, c)] && !wd->endpoint[idx(wd, c)])
          cand[nc++] = c;
      }
    for (long k = 0; k < doors && (size_t)k < nc; k++) {
      const size_t j = (size_t)k + below(state, (uint32_t)(nc - (size_t)k));
      const astar_point c = cand[j];
      cand[j] = cand[k];
      toggler *t = &wd->tog[wd->ntog++];
      t->first = wd->ncells;
      t->count = 1;
      t->period = door_period;
      t->phase = (long)below(state, (uint32_t)door_period * 2u);
      wd->cells[wd->ncells++] = c;
    }
    free(cand);
  }
  free(used);
  return true;
}

/* Bring every toggler to its state for `frame`. */
static void apply_togglers(world *wd, long frame) {
  for (size_t k = 0; k < wd->ntog; k++) {
    toggler *t = &wd->tog[k];
    const bool closed = ((frame + t->phase) / t->period) % 2 == 1;
    if (closed == t->closed) continue;
    t->closed = closed;
    wd->toggles++;
    for (size_t i = 0; i < t->count; i++) {
      const astar_point c = wd->cells[t->first + i];
      if (closed && wd->occ[idx(wd, c)]) continue; /* a unit stands there */
      if (astar_grid_passable(wd->grid, c.x, c.y) != !closed) {
        astar_grid_set_passable(wd->grid, c.x, c.y, !closed);
        wd->edits++;
      }
    }
  }
}

/* ---- units ------------------------------------------------------------------------- */

/* --replan dstar: bring unit u's planner up to date (made at its first
** plan; told where the unit is and what changed) and take up its path.
** False when no path exists now. */
static bool dstar_replan(world *wd, unit *u, astar_point *buf, size_t cap) {
  astar_status st = ASTAR_OK;
  if (!u->planner) {
    st = astar_dstar_new_grid(&u->planner, wd->grid, wd->opt, ASTAR_DSTAR_LITE, u->f.cell,
                              u->f.goal, NULL);
    u->at = u->f.cell;
  }
  if (st == ASTAR_OK && (u->at.x != u->f.cell.x || u->at.y != u->f.cell.y)) {
    st = astar_dstar_move(u->planner, u->f.cell);
    u->at = u->f.cell;
  }
  if (st == ASTAR_OK) st = astar_dstar_sync(u->planner, wd->grid);
  u->plan_version = astar_grid_version(wd->grid);
  astar_dstar_result res = {0};
  if (st == ASTAR_OK) st = astar_dstar_plan(u->planner, &res);
  wd->expanded += res.stats.expanded;
  /* No vertex changed: the path the unit follows is still the plan. */
  if (st == ASTAR_OK && res.stats.updated == 0 && res.stats.expanded == 0 && u->f.len > 0 &&
      !u->f.blocked)
    return true;
  size_t len = 0;
  if (st == ASTAR_OK) st = astar_dstar_path(u->planner, buf, cap, &len);
  if (st == ASTAR_OK) st = astar_follow_adopt_path(&u->f, buf, len);
  return st == ASTAR_OK;
}

static void on_done(void *ctx, const astar_request_done *d) {
  world *wd = ctx;
  unit *u = d->user;
  const uint64_t before = u->f.replans;
  const astar_status s = astar_follow_adopt(&u->f, d);
  if (s != ASTAR_OK) {
    wd->failed_plans++;
    u->wait_until = WAIT_PENDING; /* the frame loop sets the frame */
  }
  if (u->f.replans != before || u->f.len == 0) watch_path(wd, u);
  astar_queue_release(wd->q, d->id);
}

static bool draw_units(world *wd, const astar_islands *isl, uint64_t *state) {
  const int32_t w = astar_grid_width(wd->grid), h = astar_grid_height(wd->grid);
  const long tries = 64L * w * h + 1000;
  for (size_t i = 0; i < wd->n; i++) {
    astar_point s = {0, 0}, t = {0, 0};
    bool ok = false;
    for (long k = 0; k < tries && !ok; k++) {
      s = (astar_point){(int32_t)below(state, (uint32_t)w), (int32_t)below(state, (uint32_t)h)};
      t = (astar_point){(int32_t)below(state, (uint32_t)w), (int32_t)below(state, (uint32_t)h)};
      const uint32_t a = astar_islands_id(isl, s.x, s.y);
      ok = a != 0 && a == astar_islands_id(isl, t.x, t.y) && (s.x != t.x || s.y != t.y);
    }
    if (!ok) return false;
    wd->units[i].start = s;
    wd->units[i].arrived_at = -1;
    wd->endpoint[idx(wd, s)] = wd->endpoint[idx(wd, t)] = 1;
    wd->units[i].f.goal = t;
  }
  return true;
}

int cli_simulate_world(const char *map_path, const cli_world_args *wa, uint64_t budget,
                       uint64_t seed, const astar_options *options) {
  astar_options opt = *options;
  astar_splice_options sopt;
  astar_splice_options_init(&sopt);
  sopt.max_ratio = wa->ratio;
  const long agents = wa->agents, walls = wa->walls, wall_period = wa->wall_period,
             doors = wa->doors, door_period = wa->door_period, every = wa->every,
             before = wa->before, after = wa->after;
  long frames = wa->frames;
  if (budget == 0) budget = 1000000;
  const replan_mode mode = (replan_mode)wa->replan;
  const recompute_mode rc_mode = (recompute_mode)wa->recompute;
  if (!map_path) return cli_usage_error("simulate: missing MAP (see 'astar simulate --help')");
  if (agents == 0) return cli_usage_error("simulate: missing --agents N");
  if (astar_options_validate(&opt) != ASTAR_OK)
    return cli_usage_error("simulate: the search options are not valid together");
  if (opt.turn_penalty > 0 || opt.partial)
    return cli_usage_error("simulate: --replan/--walls/--doors runs without --turn-penalty and "
                           "--partial");
  sopt.before = (size_t)before;
  sopt.after = (size_t)after;

  astar_grid *grid;
  if (!cli_load_map(map_path, &grid, NULL, NULL)) return CLI_EXIT_FAIL;
  const char *label = strcmp(map_path, "-") == 0 ? "(stdin)" : map_path;
  const int32_t w = astar_grid_width(grid), h = astar_grid_height(grid);
  const size_t cells = (size_t)w * (size_t)h;
  const size_t cap =
      cells < 16 * ((size_t)w + (size_t)h) + 16 ? cells : 16 * ((size_t)w + (size_t)h) + 16;
  if (frames == 0) frames = 20L * (w + h);
  if (mode == REPLAN_DSTAR) {
    const uint64_t need =
        (uint64_t)agents * ((uint64_t)w + 2) * ((uint64_t)h + 2) * DSTAR_CELL_BYTES;
    if (need > DSTAR_MEMORY_MAX) {
      cli_error("simulate: --replan dstar: %ld units' planners on %s would take about %llu MB "
                "(%d bytes a cell each), more than the %llu MB allowed; use fewer --agents",
                agents, label, (unsigned long long)(need >> 20), DSTAR_CELL_BYTES,
                (unsigned long long)(DSTAR_MEMORY_MAX >> 20));
      astar_grid_free(grid);
      return CLI_EXIT_FAIL;
    }
  }
  int rc = CLI_EXIT_FAIL;
  world wd = {0};
  astar_islands *isl = NULL;
  astar_queue *q = NULL;
  astar_workspace *ws = NULL, *chk = NULL;
  astar_point *store = NULL, *buf = NULL;
  astar_watch_id *ids = NULL;
  wd.grid = grid;
  wd.opt = &opt;
  wd.n = (size_t)agents;
  wd.w = w;
  wd.units = calloc(wd.n, sizeof *wd.units);
  wd.occ = calloc(cells, sizeof *wd.occ);
  wd.endpoint = calloc(cells, 1);
  store = malloc(2 * cap * wd.n * sizeof *store);
  buf = malloc(cells * sizeof *buf);
  ids = malloc(wd.n * sizeof *ids);
  wd.unit_of = calloc(wd.n, sizeof *wd.unit_of);
  uint64_t state = seed;
  if (!wd.units || !wd.occ || !wd.endpoint || !store || !buf || !ids || !wd.unit_of) {
    cli_error("out of memory");
    goto done;
  }
  astar_status st = astar_islands_new(&isl, grid, &opt, NULL);
  if (st == ASTAR_OK) st = astar_workspace_new(&ws, grid, NULL);
  if (st == ASTAR_OK) st = astar_workspace_new(&chk, grid, NULL);
  if (st == ASTAR_OK && mode == REPLAN_ASTAR) st = astar_queue_new(&q, grid, wd.n, NULL);
  if (st == ASTAR_OK) st = astar_grid_track_changes(grid, CHANGE_RING);
  /* D* Lite reads the change log itself: it needs no watch index. */
  if (st == ASTAR_OK && rc_mode == RC_CHANGE && mode != REPLAN_DSTAR)
    st =
        astar_watch_new(&wd.watch, grid, (uint32_t)wd.n, wd.n * 12 * ((size_t)w + (size_t)h), NULL);
  if (st != ASTAR_OK) {
    cli_error("simulate: %s", astar_strerror(st));
    goto done;
  }
  if (!draw_units(&wd, isl, &state)) {
    cli_error("simulate: %s has no two connected open cells", label);
    goto done;
  }
  for (size_t i = 0; i < wd.n; i++) {
    unit *u = &wd.units[i];
    const astar_point goal = u->f.goal;
    astar_follow_init(&u->f, store + 2 * cap * i, store + 2 * cap * i + cap, cap, u->start, goal);
    wd.occ[idx(&wd, u->start)]++;
  }
  if (!place_togglers(&wd, walls, wall_period, doors, door_period, &state)) {
    cli_error("out of memory");
    goto done;
  }
  wd.q = q;
  if (q) astar_queue_set_callback(q, on_done, &wd);

  astar_replan_policy pol = {0};
  if (rc_mode == RC_EVERY) pol.triggers = ASTAR_REPLAN_ON_EVERY, pol.every = (uint32_t)every;
  if (rc_mode == RC_CHANGE) pol.triggers = ASTAR_REPLAN_ON_CHANGE;
  if (rc_mode == RC_WAYPOINT) pol.triggers = ASTAR_REPLAN_ON_TURN;

  size_t arrived = 0;
  long frame = 0;
  double t_total = 0, t_max = 0;
  uint64_t stale_syncs = 0;
  for (; frame < frames && arrived < wd.n; frame++) {
    const double t0 = cli_now_seconds();
    if (frame > 0) apply_togglers(&wd, frame);
    if (wd.watch) {
      size_t nid = 0;
      st = astar_watch_sync(wd.watch, grid, ids, wd.n, &nid);
      if (st == ASTAR_STALE)
        stale_syncs++;
      else if (st != ASTAR_OK) {
        cli_error("simulate: watch: %s", astar_strerror(st));
        goto done;
      }
      for (size_t k = 0; k < nid; k++) astar_follow_mark_changed(&wd.units[wd.unit_of[ids[k]]].f);
    }
    for (size_t i = 0; i < wd.n; i++) {
      unit *u = &wd.units[i];
      if (u->arrived_at >= 0 || frame < u->wait_until) continue;
      astar_replan_reason why = astar_follow_due(&u->f, &pol);
      if (mode == REPLAN_DSTAR) {
        /* D* Lite repairs after every edit (cheap where the edit does not
        ** touch its search), and whenever the policy asks. */
        if (why == ASTAR_REPLAN_NONE && u->planner && u->plan_version == astar_grid_version(grid))
          continue;
        if (why == ASTAR_REPLAN_NONE) why = ASTAR_REPLAN_CHANGED;
        wd.reasons[why]++;
        if (!dstar_replan(&wd, u, buf, cells)) {
          wd.failed_plans++;
          u->wait_until = frame + RETRY_FRAMES;
        }
        continue;
      }
      if (why == ASTAR_REPLAN_NONE) continue;
      wd.reasons[why]++;
      if (mode == REPLAN_SPLICE) {
        astar_repair rep;
        st = astar_follow_splice(&u->f, ws, grid, &opt, &sopt, &rep);
        wd.expanded += rep.expanded;
        if (st == ASTAR_OK) {
          wd.repairs[rep.kind]++;
          watch_path(&wd, u);
        } else {
          wd.repairs[rep.kind]++;
          wd.failed_plans++;
          u->wait_until = frame + RETRY_FRAMES;
          if (u->f.len == 0) watch_path(&wd, u);
        }
      } else {
        astar_replan_reason sent;
        st = astar_follow_submit(&u->f, &pol, q, &opt, 0, u, &sent);
        if (st != ASTAR_OK) {
          cli_error("simulate: submit: %s", astar_strerror(st));
          goto done;
        }
      }
    }
    if (q) {
      astar_queue_frame qf;
      st = astar_queue_update(q, budget, &qf);
      if (st != ASTAR_OK) {
        cli_error("simulate: update: %s", astar_strerror(st));
        goto done;
      }
      wd.expanded += qf.expanded;
      /* A failed plan waits before retrying. */
      for (size_t i = 0; i < wd.n; i++)
        if (wd.units[i].wait_until == WAIT_PENDING) wd.units[i].wait_until = frame + RETRY_FRAMES;
    }
    for (size_t i = 0; i < wd.n; i++) {
      unit *u = &wd.units[i];
      if (u->arrived_at >= 0) continue;
      const astar_point from = u->f.cell;
      if (astar_follow_step(&u->f, grid, &opt) == ASTAR_OK &&
          (from.x != u->f.cell.x || from.y != u->f.cell.y)) {
        wd.occ[idx(&wd, from)]--;
        wd.occ[idx(&wd, u->f.cell)]++;
      }
      if (astar_follow_arrived(&u->f)) {
        u->arrived_at = frame;
        arrived++;
        astar_dstar_free(u->planner); /* its memory back at once */
        u->planner = NULL;
        if (u->watched) astar_watch_remove(wd.watch, u->wid);
        u->watched = false;
      }
    }
    const double dt = cli_now_seconds() - t0;
    t_total += dt;
    if (dt > t_max) t_max = dt;
  }

  /* ---- report ---- */
  uint64_t steps = 0, replans = 0, blocked = 0, dropped = 0;
  double walked = 0, best = 0;
  size_t compared = 0;
  for (size_t i = 0; i < wd.n; i++) {
    const unit *u = &wd.units[i];
    steps += u->f.steps;
    replans += u->f.replans;
    blocked += u->f.blocked_steps;
    dropped += u->f.dropped;
    if (u->arrived_at < 0) continue;
    astar_result r;
    if (astar_find_path(chk, grid, &opt, u->start, u->f.goal, buf, cells, &r) == ASTAR_OK) {
      walked += u->f.walked_cost;
      best += r.cost;
      compared++;
    }
  }
  cli_print_map_line(stdout, label, grid);
  fputs("options:  ", stdout);
  cli_describe_options(stdout, &opt);
  printf("\nworld:    %zu walls (period %ld), %zu doors (period %ld), %llu toggles, %llu cell "
         "edits\n",
         wd.nwalls, wall_period, wd.ntog - wd.nwalls, door_period, (unsigned long long)wd.toggles,
         (unsigned long long)wd.edits);
  static const char *const mode_names[] = {"astar", "splice", "dstar"};
  printf("units:    %zu, seed %llu; replan %s", wd.n, (unsigned long long)seed, mode_names[mode]);
  if (mode == REPLAN_SPLICE)
    printf(" (before %zu, after %zu, ratio %g)", sopt.before, sopt.after, sopt.max_ratio);
  else if (mode == REPLAN_DSTAR)
    printf(" (a D* Lite planner a unit, repaired after every edit)");
  else
    printf(" (queue, budget %llu)", (unsigned long long)budget);
  static const char *const rc_names[] = {"every", "change", "waypoint", "blocked"};
  printf("; recompute %s", rc_names[rc_mode]);
  if (rc_mode == RC_EVERY) printf(":%ld", every);
  printf("\narrived:  %zu of %zu in %ld frames\n", arrived, wd.n, frame);
  printf("steps:    %llu walked, %llu blocked (stale path)\n", (unsigned long long)steps,
         (unsigned long long)blocked);
  printf("replans:  %llu adopted; due: no path %llu, blocked %llu, changed %llu, every %llu, "
         "turn %llu; %llu failed",
         (unsigned long long)replans, (unsigned long long)wd.reasons[ASTAR_REPLAN_NO_PATH],
         (unsigned long long)wd.reasons[ASTAR_REPLAN_BLOCKED],
         (unsigned long long)wd.reasons[ASTAR_REPLAN_CHANGED],
         (unsigned long long)wd.reasons[ASTAR_REPLAN_EVERY],
         (unsigned long long)wd.reasons[ASTAR_REPLAN_TURN], (unsigned long long)wd.failed_plans);
  if (mode == REPLAN_ASTAR) printf(", %llu results dropped", (unsigned long long)dropped);
  putchar('\n');
  if (mode == REPLAN_SPLICE)
    printf("splice:   %llu intact, %llu spliced, %llu full searches, %llu gave up, %llu "
           "blocked\n",
           (unsigned long long)wd.repairs[ASTAR_REPAIR_INTACT],
           (unsigned long long)wd.repairs[ASTAR_REPAIR_SPLICED],
           (unsigned long long)wd.repairs[ASTAR_REPAIR_FULL],
           (unsigned long long)wd.repairs[ASTAR_REPAIR_GAVE_UP],
           (unsigned long long)wd.repairs[ASTAR_REPAIR_BLOCKED]);
  if (wd.watch)
    printf("watch:    %llu stale syncs, %zu paths not watched (capacity)\n",
           (unsigned long long)stale_syncs, wd.unwatched);
  printf("expanded: %llu in all\n", (unsigned long long)wd.expanded);
  if (compared)
    printf("cost:     walked %.3f vs optimal %.3f on the final map (%zu units): ratio %.4f\n",
           walked, best, compared, walked / best);
  const double nf = frame ? (double)frame : 1.0;
  printf("time:     %.3f ms in all; per frame mean %.3f ms, max %.3f ms\n", t_total * 1e3,
         t_total / nf * 1e3, t_max * 1e3);
  rc = CLI_EXIT_OK;

done:
  for (size_t i = 0; wd.units && i < wd.n; i++) astar_dstar_free(wd.units[i].planner);
  astar_watch_free(wd.watch);
  astar_queue_free(q);
  astar_islands_free(isl);
  astar_workspace_free(ws);
  astar_workspace_free(chk);
  free(wd.units);
  free(wd.occ);
  free(wd.endpoint);
  free(wd.cells);
  free(wd.tog);
  free(store);
  free(buf);
  free(ids);
  free(wd.unit_of);
  astar_grid_free(grid);
  return rc;
}
