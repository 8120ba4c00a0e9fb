/*
** cmd_simulate.c -- `astar simulate MAP --agents N --budget B`: a game loop
** in miniature for the path-request queue (astar/queue.h). N agents ask for
** paths between random reachable cells; every frame the queue spends at
** most B expansions. Reports how many frames the work took, how long each
** agent waited, the work per frame, and checks every result against the
** same search run one-shot on the grid it was computed on (identical
** results; identical total expansions unless grid edits made the queue
** restart or drop searches).
**
** Pairs are drawn with our own splitmix64 generator from --seed, so a run is
** reproducible on every platform. Start and goal lie on the same island
** (astar/islands.h, for the search's moves and corner rule): a game does not
** ask for a path it knows cannot exist, and one unreachable goal would
** otherwise flood its whole island and dominate the numbers -- unless
** --unreachable asks for some, to show --islands answering them at once.
** --edits moves a wall around while requests are pending, to show the
** queue's policy for grid changes (restart, or ASTAR_STALE).
**
** --algo runs any method the queue serves (issue 26 part 3): the queue
** prepares the method from the request's fields, or -- for a method with
** a precomputation (jps-plus, cpd, hpa, landmarks) -- the request names
** the finder the tool prepared once (cli_prepare). --sizes 1,2,3 gives the
** agents units of those sides in turn, all in the one queue, which derives
** the units' grids itself. Every result is checked against a one-shot
** search of a finder of the same method and unit (astar_finder_find).
**
** Each agent is its request's user pointer: the callback needs no lookup.
*/
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_AGENTS 1000000L
#define MAX_PRIORITIES 1000L
#define MOVING_WALLS 4   /* --edits: walls standing at once */
#define MAX_WINDOW 4096L /* --window */

typedef struct agent {
  astar_point start, goal;
  int priority;
  bool unreachable; /* goal drawn on another island (--unreachable) */
  astar_request_id id;
  long submitted; /* frame of submission */
  long finished;  /* frame of completion, or -1 */
  astar_status status;
  double cost;
  uint64_t expanded;
  uint64_t work;     /* work charged for it (the method's units) */
  int32_t size;      /* unit side (--sizes) */
  uint64_t version;  /* grid version of the outcome */
  uint32_t restarts; /* restarts after grid edits */
  bool answered;     /* answered at submission (no search) */
} agent;

typedef struct sim {
  agent *agents;
  size_t *ended; /* agents whose request ended in the current update */
  size_t nended;
  long frame; /* frame whose update is running */
  size_t done;
} sim;

#define MAX_SIZES 8 /* --sizes: most sides listed */

typedef struct simulate_settings {
  astar_options opt;
  const cli_algo *algo; /* --algo */
  const char *sizes;    /* --sizes: unit sides, "1,2,3" (NULL: 1) */
  long agents, frames, arrivals, priorities, unreachable, edits, window;
  uint64_t restarts, budget, seed;
  bool islands, cooperative, walk;
  cli_world_args world;
} simulate_settings;

/* The request queue; agents moving at once; units walking on a changing map. */
enum { QUEUE, COOP, WORLD };

/* The help below says these numbers. */
_Static_assert(MOVING_WALLS == 4, "--edits' help says 4");
_Static_assert(ASTAR_QUEUE_DEFAULT_RESTARTS == 3, "--restarts' help says 3");

static const cli_opt simulate_rows[] = {
    {.name = "--agents",
     .meta = "N",
     .kind = CLI_INT,
     CLI_AT(simulate_settings, agents),
     .min = 1,
     .max = MAX_AGENTS,
     .kinds = CLI_KIND(QUEUE) | CLI_KIND(COOP),
     .help = "number of agents / requests, %r (required)"},
    {.name = "--budget",
     .meta = "B",
     .kind = CLI_INT,
     CLI_AT(simulate_settings, budget),
     .min = 1,
     .max = UINT64_MAX,
     .kinds = CLI_KIND(QUEUE) | CLI_KIND(WORLD),
     .help = "expansions per frame, >= 1 (required)"},
    {.name = "--frames",
     .meta = "F",
     .kind = CLI_INT,
     CLI_AT(simulate_settings, frames),
     .max = LONG_MAX,
     .kinds = CLI_KIND(QUEUE) | CLI_KIND(COOP),
     .help = "stop after F frames even if work remains (default 0:\n"
             "run until every request is done)"},
    {.name = "--arrivals",
     .meta = "R",
     .kind = CLI_INT,
     CLI_AT(simulate_settings, arrivals),
     .max = MAX_AGENTS,
     .kinds = CLI_KIND(QUEUE),
     .help = "submit R requests per frame (default 0: all at frame 0)"},
    {.name = "--priorities",
     .meta = "K",
     .kind = CLI_INT,
     CLI_AT(simulate_settings, priorities),
     .min = 1,
     .max = MAX_PRIORITIES,
     .kinds = CLI_KIND(QUEUE),
     .help = "random priorities 0..K-1 (default 1: all equal)"},
    {.name = "--seed",
     .meta = "S",
     .kind = CLI_INT,
     CLI_AT(simulate_settings, seed),
     .max = UINT64_MAX,
     .help = "seed of the random pairs and priorities (default 1)"},
    {.name = "--islands",
     .kind = CLI_FLAG,
     CLI_AT(simulate_settings, islands),
     .kinds = CLI_KIND(QUEUE),
     .help = "give the searches the map's islands: a goal on\n"
             "another island is answered at submission"},
    {.name = "--unreachable",
     .meta = "U",
     .kind = CLI_INT,
     CLI_AT(simulate_settings, unreachable),
     .max = MAX_AGENTS,
     .kinds = CLI_KIND(QUEUE),
     .help = "U of the N agents get a goal on another island\n"
             "(default 0)"},
    {.name = "--edits",
     .meta = "E",
     .kind = CLI_INT,
     CLI_AT(simulate_settings, edits),
     .max = LONG_MAX,
     .kinds = CLI_KIND(QUEUE),
     .help = "every E frames a random open cell (no agent's start\n"
             "or goal) becomes a wall and the wall of 4 edits\n"
             "before opens again (default 0: no edits)"},
    CLI_ALGO_ROW(simulate_settings, algo, CLI_KIND(QUEUE)),
    {.name = "--sizes",
     .meta = "LIST",
     .kind = CLI_TEXT,
     CLI_AT(simulate_settings, sizes),
     .kinds = CLI_KIND(QUEUE),
     .sample = "1,2",
     .help = "unit sides the agents get in turn, e.g. 1,2,3 (each\n"
             "1 .. 4, at most 8 listed; default 1): units of every\n"
             "size in one queue, which derives their grids itself"},
    {.name = "--restarts",
     .meta = "K",
     .kind = CLI_INT,
     CLI_AT(simulate_settings, restarts),
     .max = UINT32_MAX,
     .kinds = CLI_KIND(QUEUE),
     .help = "restarts of a search whose grid changed before it\n"
             "ends stale (default 3)"},
    CLI_HELP_ROW,
};
static const cli_group simulate_group = CLI_ROWS(simulate_rows);

static const cli_opt coop_rows[] = {
    {.name = "--cooperative",
     .kind = CLI_FLAG,
     CLI_AT(simulate_settings, cooperative),
     .help = "cooperative A*: agents plan in turn through a\n"
             "reservation table of (cell, time) and moves, so\n"
             "none collides; reports collisions (vertex and swap),\n"
             "makespan, sum of costs, expansions, time per frame"},
    {.name = "--window",
     .meta = "W",
     .kind = CLI_INT,
     CLI_AT(simulate_settings, window),
     .min = 1,
     .max = MAX_WINDOW,
     .help = "with --cooperative: windowed (WHCA*), reservations W\n"
             "steps ahead, replanned every W/2 frames, %r\n"
             "(default 0: full search, goals held)"},
    {.name = "--walk",
     .kind = CLI_FLAG,
     CLI_AT(simulate_settings, walk),
     .help = "the same report for independent A* paths walked at\n"
             "once (blind to each other: collisions counted)"},
};
static const cli_group coop_group = CLI_ROWS(coop_rows);

static const cli_section simulate_sections[] = {
    {"Options:", &simulate_group, 0, 0, NULL, false},
    {"Agents moving at once (one step -- a move or a wait -- per frame; no --budget;\n"
     "distinct random starts and goals; --agents, --seed and --frames apply):",
     &coop_group, 0, CLI_KIND(COOP), NULL, false},
    {"Units walking on a changing map (one cell per frame, blind to each other;\n"
     "--agents N units, 1..100000, between random reachable cells; --seed and\n"
     "--frames apply, --frames defaulting to 20 x (width + height)):",
     &cli_world_group, offsetof(simulate_settings, world), CLI_KIND(WORLD),
     "  Reports units arrived, steps, replans by reason, expansions, blocked steps\n"
     "  (a unit tried to enter a blocked cell: its path was stale), walked cost vs\n"
     "  the optimum on the final map, and time per frame.\n",
     false},
    CLI_SEARCH_SECTIONS(simulate_settings, opt, 0),
};

static void intro(FILE *out) {
  fputs("usage: astar simulate MAP --agents N --budget B [OPTIONS]\n"
        "       astar simulate MAP --agents N --cooperative [--window W] [OPTIONS]\n"
        "       astar simulate MAP --agents N --walk [OPTIONS]\n"
        "       astar simulate MAP --agents N --replan astar|splice|dstar [OPTIONS]\n"
        "\n"
        "Simulate a game loop with the path-request queue: N agents request paths\n"
        "between random reachable cells of MAP (Moving AI .map or ASCII; `-` reads\n"
        "standard input); each frame the queue spends at most B node expansions,\n"
        "working on requests by priority (higher first), then in submission order.\n"
        "Prints the frames used until all are done, the latency of the requests in\n"
        "frames (1 = done in the frame it was submitted), expansions and time per\n"
        "frame, and checks every result against the same search run one-shot on\n"
        "the grid it was computed on. --cooperative and --walk move the agents at\n"
        "once; --replan, --recompute, --walls and --doors walk units on a map that\n"
        "changes (their sections below).\n",
        out);
}

static void outro(FILE *out) {
  fputs("Exit status: 0 success; 1 unreadable map, a result that differs from the\n"
        "one-shot search, a frame over budget, or no request found a path, or\n"
        "(--cooperative) a collision; 2 usage error.\n",
        out);
}

/* The options seen decide the mode. */
static int simulate_kind(const cli_args *a) {
  static const char *const world[] = {"--replan",      "--recompute", "--walls",
                                      "--wall-period", "--doors",     "--door-period"};
  for (size_t i = 0; i < sizeof world / sizeof world[0]; i++)
    if (cli_seen(a, world[i])) return WORLD;
  if (cli_seen(a, "--cooperative") || cli_seen(a, "--walk") || cli_seen(a, "--window")) return COOP;
  return QUEUE;
}

static const cli_kind simulate_kinds[] = {
    {"queue", "the request queue", "astar simulate --help"},
    {"coop", "agents moving at once (--cooperative, --walk)", "astar simulate --help"},
    {"world", "units walking on a changing map (--replan, --recompute, --walls, --doors)",
     "astar simulate --help"},
};
static const cli_page simulate_pages[] = {
    {CLI_KIND(QUEUE) | CLI_KIND(COOP) | CLI_KIND(WORLD), NULL, intro, outro}};

const cli_spec cli_simulate_spec = {.command = "simulate",
                                    CLI_SECTIONS(simulate_sections),
                                    CLI_KINDS(simulate_kinds),
                                    CLI_PAGES(simulate_pages),
                                    .kind_of = simulate_kind};

/* ---- random numbers (splitmix64: the same stream on every platform) ---------- */

static uint64_t next_random(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static uint32_t random_below(uint64_t *state, uint32_t n) {
  return (uint32_t)(next_random(state) % n);
}

/* A random cell of island `want` (0: any open cell; with `other`, any
** island but `want`); false after `tries` misses. */
static bool random_cell(const astar_grid *g, const astar_islands *isl, uint32_t want, bool other,
                        uint64_t *state, long tries, astar_point *out) {
  const uint32_t w = (uint32_t)astar_grid_width(g), h = (uint32_t)astar_grid_height(g);
  for (long i = 0; i < tries; i++) {
    const astar_point p = {(int32_t)random_below(state, w), (int32_t)random_below(state, h)};
    const uint32_t id = astar_islands_id(isl, p.x, p.y);
    if (id != 0 && (want == 0 || (other ? id != want : id == want))) {
      *out = p;
      return true;
    }
  }
  return false;
}

/* Does agent i of n get an unreachable goal? u of them, spread evenly. */
static bool pick_unreachable(size_t i, size_t n, size_t u) {
  return u > 0 && (i * u) / n != ((i + 1) * u) / n;
}

/* Draw every agent's start, goal and priority; agent i gets side
** sides[i % nsides] and is drawn on that side's islands, isl[i % nsides]
** (a big unit's anchors: the islands of its derived grid), so that its
** start and goal are cells it fits on. */
static bool draw_agents(agent *a, size_t n, size_t unreachable, const astar_grid *g,
                        const astar_islands *const *isls, const int32_t *sides, size_t nsides,
                        uint64_t seed, long priorities) {
  uint64_t state = seed;
  const long cells = (long)astar_grid_width(g) * astar_grid_height(g);
  const long tries = 64 * cells + 1000;
  for (size_t i = 0; i < n; i++) {
    astar_point s = {0, 0}, t = {0, 0};
    bool ok = false;
    const bool away = pick_unreachable(i, n, unreachable);
    const astar_islands *isl = isls[i % nsides];
    /* A start on an island of one cell has no other goal: draw again. */
    for (int k = 0; k < 1000 && !ok; k++) {
      if (!random_cell(g, isl, 0, false, &state, tries, &s)) break;
      const uint32_t id = astar_islands_id(isl, s.x, s.y);
      if (away) {
        ok = random_cell(g, isl, id, true, &state, tries, &t);
        break;
      }
      if (astar_islands_size(isl, id) < 2) continue;
      do {
        if (!random_cell(g, isl, id, false, &state, tries, &t)) break;
      } while (t.x == s.x && t.y == s.y);
      ok = t.x != s.x || t.y != s.y;
    }
    if (!ok) return false;
    a[i].start = s;
    a[i].goal = t;
    a[i].unreachable = away;
    a[i].size = sides[i % nsides];
    a[i].priority = (int)random_below(&state, (uint32_t)priorities);
    a[i].finished = -1;
  }
  return true;
}

/* ---- grid edits (--edits): a wall moving around ---------------------------------- */

typedef struct editor {
  long every;                     /* frames between edits (0: none) */
  uint64_t state;                 /* random stream of the cells */
  uint8_t *endpoint;              /* [cells] 1 for an agent's start or goal */
  astar_point wall[MOVING_WALLS]; /* the walls placed, oldest first */
  int nwalls;
  long edits;
} editor;

/* Close a random open cell that is no agent's endpoint; reopen the oldest
** wall once MOVING_WALLS stand. */
static void edit_grid(editor *e, astar_grid *g) {
  const uint32_t w = (uint32_t)astar_grid_width(g), h = (uint32_t)astar_grid_height(g);
  if (e->nwalls == MOVING_WALLS) {
    astar_grid_set_passable(g, e->wall[0].x, e->wall[0].y, true);
    memmove(e->wall, e->wall + 1, (MOVING_WALLS - 1) * sizeof e->wall[0]);
    e->nwalls--;
  }
  for (int k = 0; k < 10000; k++) {
    const astar_point p = {(int32_t)random_below(&e->state, w),
                           (int32_t)random_below(&e->state, h)};
    if (!astar_grid_passable(g, p.x, p.y) || e->endpoint[(size_t)p.y * w + (size_t)p.x]) continue;
    astar_grid_set_passable(g, p.x, p.y, false);
    e->wall[e->nwalls++] = p;
    break;
  }
  e->edits++;
}

/* ---- the simulation -------------------------------------------------------------- */

/* A request ended: its user pointer is the agent. */
static void on_done(void *ctx, const astar_request_done *d) {
  sim *s = ctx;
  agent *a = d->user;
  a->finished = s->frame;
  a->status = d->status;
  a->cost = d->result.cost;
  a->expanded = d->result.stats.expanded;
  a->work = d->work;
  a->version = d->grid_version;
  a->restarts = d->restarts;
  s->ended[s->nended++] = (size_t)(a - s->agents);
  s->done++;
}

static int cmp_long(const void *a, const void *b) {
  const long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}

typedef struct frame_stats {
  long frames;
  uint64_t expanded_total, expanded_max;
  double seconds_total, seconds_max;
  uint64_t restarted; /* searches restarted after edits */
} frame_stats;

/* The one-shot check of every result, on the grid it was computed on: a
** finder of the request's method per unit size (made again after edits,
** with the units' clearance), or the tool's prepared one. */
typedef struct checker {
  astar_workspace *ws;
  astar_point *buf;
  size_t cap;
  astar_finder_config cfg;             /* the method, its options */
  const astar_finder *given;           /* the tool's finder (a precomputation; size 1) */
  astar_finder *finder[MAX_SIZES + 1]; /* per unit side */
  astar_clearance *clearance;          /* for sides > 1 */
  int32_t max_size;
  bool made;
  uint64_t built;    /* the grid's version when the finders were made */
  uint64_t expanded; /* one-shot work */
  uint64_t results;  /* the queue's results' work */
  double seconds;    /* one-shot time */
  size_t searches;   /* one-shot searches */
  size_t differ;     /* results that differ */
  size_t unchecked;  /* results computed on an older grid (cannot be replayed) */
  size_t stale;      /* ASTAR_STALE results */
  size_t found;      /* results with a path (ok or partial) */
} checker;

static void checker_drop(checker *c) {
  for (int k = 0; k <= MAX_SIZES; k++) {
    astar_finder_free(c->finder[k]);
    c->finder[k] = NULL;
  }
  astar_clearance_free(c->clearance);
  c->clearance = NULL;
  c->made = false;
}

/* The finders for the grid as it is now. */
static astar_status checker_finders(checker *c, const astar_grid *g) {
  if (c->made && c->built == astar_grid_version(g)) return ASTAR_OK;
  checker_drop(c);
  astar_status st = ASTAR_OK;
  if (c->max_size > 1) st = astar_clearance_new(&c->clearance, g, NULL, NULL, 0, c->max_size, NULL);
  for (int32_t k = 1; st == ASTAR_OK && k <= c->max_size; k++) {
    if (k == 1 && c->given) continue;
    astar_finder_config cfg = c->cfg;
    cfg.unit_size = k;
    cfg.clearance = k > 1 ? c->clearance : NULL;
    st = astar_finder_new(&c->finder[k], g, &cfg, NULL);
  }
  c->made = st == ASTAR_OK;
  c->built = astar_grid_version(g);
  return st;
}

static void check_ended(checker *c, sim *s, const astar_grid *g) {
  const bool ready = s->nended == 0 || checker_finders(c, g) == ASTAR_OK;
  for (size_t k = 0; k < s->nended; k++) {
    agent *a = &s->agents[s->ended[k]];
    c->found += a->status == ASTAR_OK || a->status == ASTAR_PARTIAL;
    if (a->status == ASTAR_STALE) { /* its work is lost */
      c->stale++;
      continue;
    }
    c->results += a->work;
    if (a->version != astar_grid_version(g)) {
      c->unchecked++;
      continue;
    }
    const astar_finder *f = a->size == 1 && c->given ? c->given : c->finder[a->size];
    astar_path_result r;
    const double t0 = cli_now_seconds();
    const astar_status st = ready
                                ? astar_finder_find(f, c->ws, a->start, a->goal, c->buf, c->cap, &r)
                                : ASTAR_NO_MEMORY;
    c->seconds += cli_now_seconds() - t0;
    c->expanded += st == ASTAR_NO_MEMORY ? 0 : r.work;
    c->searches++;
    c->differ += st != a->status || r.cost != a->cost || r.stats.expanded != a->expanded;
  }
  s->nended = 0;
}

/* Run the frames. Returns false on a library failure (message printed). */
static bool run_frames(astar_queue *q, sim *s, size_t n, uint64_t budget, long arrivals,
                       long max_frames, astar_point *buf, size_t cap, const astar_request *proto,
                       astar_grid *grid, astar_islands *isl, editor *ed, checker *chk,
                       frame_stats *fs) {
  size_t next = 0;
  memset(fs, 0, sizeof *fs);
  for (long frame = 0;; frame++) {
    if (ed->every > 0 && frame > 0 && frame % ed->every == 0 &&
        (next < n || astar_queue_pending(q) > 0)) {
      /* The game edits its map between frames; islands follow. */
      edit_grid(ed, grid);
      if (isl) astar_islands_update(isl, grid);
    }
    const size_t batch = arrivals > 0 ? (size_t)arrivals : n;
    for (size_t k = 0; k < batch && next < n; k++, next++) {
      agent *a = &s->agents[next];
      /* One buffer for all: a path is written when its request ends and
      ** the callback is done with it before the next one ends. */
      astar_request req = *proto; /* the method, or the tool's finder */
      req.start = a->start;
      req.goal = a->goal;
      if (!req.finder) req.unit_size = a->size;
      req.priority = a->priority;
      req.path = buf;
      req.cap = cap;
      req.user = a;
      const astar_status st = astar_queue_submit_request(q, &req, &a->id);
      if (st != ASTAR_OK) {
        cli_error("simulate: submitting request %zu: %s", next, astar_strerror(st));
        return false;
      }
      a->submitted = frame;
      a->answered = astar_queue_poll(q, a->id, NULL, NULL) == ASTAR_REQUEST_DONE;
    }
    if (next == n && astar_queue_pending(q) == 0) break;
    if (max_frames > 0 && frame >= max_frames) break;
    s->frame = frame;
    astar_queue_frame f;
    const double t0 = cli_now_seconds();
    const astar_status st = astar_queue_update(q, budget, &f);
    const double dt = cli_now_seconds() - t0;
    if (st != ASTAR_OK) {
      cli_error("simulate: update: %s", astar_strerror(st));
      return false;
    }
    fs->frames++;
    fs->expanded_total += f.expanded;
    fs->restarted += f.restarted;
    if (f.expanded > fs->expanded_max) fs->expanded_max = f.expanded;
    fs->seconds_total += dt;
    if (dt > fs->seconds_max) fs->seconds_max = dt;
    check_ended(chk, s, grid);
  }
  return true;
}

static void print_latency(const sim *s, size_t n, long priorities) {
  long *lat = malloc((n ? n : 1) * sizeof *lat);
  if (!lat) return;
  size_t m = 0;
  double sum = 0;
  for (size_t i = 0; i < n; i++)
    if (s->agents[i].finished >= 0) {
      lat[m] = s->agents[i].finished - s->agents[i].submitted + 1;
      sum += (double)lat[m++];
    }
  if (m > 0) {
    qsort(lat, m, sizeof *lat, cmp_long);
    const size_t p95 = (size_t)((double)m * 0.95 + 0.999999) - 1; /* nearest rank */
    printf("latency:  mean %.1f, p95 %ld, max %ld frames\n", sum / (double)m,
           lat[p95 < m ? p95 : m - 1], lat[m - 1]);
  }
  free(lat);
  if (priorities <= 1 || m == 0) return;
  fputs("          by priority:", stdout);
  for (long p = priorities - 1; p >= 0; p--) {
    double ps = 0;
    size_t pn = 0;
    long pmax = 0;
    for (size_t i = 0; i < n; i++) {
      const agent *a = &s->agents[i];
      if (a->priority != p || a->finished < 0) continue;
      const long l = a->finished - a->submitted + 1;
      ps += (double)l;
      pn++;
      if (l > pmax) pmax = l;
    }
    if (pn) printf(" %ld: mean %.1f max %ld;", p, ps / (double)pn, pmax);
  }
  putchar('\n');
}

static void print_outcomes(const sim *s, size_t n) {
  size_t count[ASTAR_STATUS_COUNT + 1] = {0};
  for (size_t i = 0; i < n; i++) {
    const agent *a = &s->agents[i];
    if (a->finished < 0) continue;
    count[(unsigned)a->status < ASTAR_STATUS_COUNT ? a->status : ASTAR_STATUS_COUNT]++;
  }
  printf("finished: %zu of %zu (", s->done, n);
  const char *sep = "";
  for (int k = 0; k <= ASTAR_STATUS_COUNT; k++)
    if (count[k]) {
      printf("%s%s %zu", sep, astar_strerror((astar_status)k), count[k]);
      sep = ", ";
    }
  puts(")");
}

/* Requests answered at submission (no search) and how long their agents
** waited; the unreachable goals among them. */
static void print_answered(const sim *s, size_t n, size_t unreachable) {
  size_t answered = 0, away = 0, away_answered = 0;
  long away_max = 0;
  for (size_t i = 0; i < n; i++) {
    const agent *a = &s->agents[i];
    answered += a->answered;
    if (!a->unreachable || a->finished < 0) continue;
    away++;
    away_answered += a->answered;
    const long l = a->finished - a->submitted + 1;
    if (l > away_max) away_max = l;
  }
  if (answered == 0 && unreachable == 0) return;
  printf("answered: %zu at submission (no search; delivered at the start of the next update)\n",
         answered);
  if (unreachable > 0)
    printf("          unreachable goals: %zu finished, %zu of them at submission, latency max %ld "
           "frames\n",
           away, away_answered, away_max);
}

/* --sizes: "1,2,3" into sides[0 .. *n-1], each 1 .. the queue's default
** largest unit; false after a usage error. */
static bool parse_sizes(const char *text, int32_t *sides, size_t *n) {
  *n = 0;
  const char *p = text;
  for (;;) {
    char *end;
    const long v = strtol(p, &end, 10);
    if (end == p || v < 1 || v > ASTAR_QUEUE_DEFAULT_MAX_UNIT || *n == MAX_SIZES ||
        (*end != ',' && *end != '\0')) {
      cli_usage_error("--sizes: expected a list of unit sides from 1 to %d (at most %d, e.g. "
                      "1,2,3), got '%s'",
                      ASTAR_QUEUE_DEFAULT_MAX_UNIT, MAX_SIZES, text);
      return false;
    }
    sides[(*n)++] = (int32_t)v;
    if (*end == '\0') return true;
    p = end + 1;
  }
}

int cli_cmd_simulate(int argc, char **argv) {
  simulate_settings set;
  memset(&set, 0, sizeof set);
  astar_options_init(&set.opt);
  set.priorities = 1;
  set.restarts = ASTAR_QUEUE_DEFAULT_RESTARTS;
  set.seed = 1;
  set.algo = cli_find_algo("astar");
  cli_world_defaults(&set.world);
  cli_args a;
  const int prc = cli_parse(&a, &cli_simulate_spec, argc, argv, &set);
  if (prc >= 0) return prc;
  if (a.npos > 1) return cli_usage_error("simulate: unexpected argument '%s'", a.pos[1]);
  const char *map_path = a.npos ? a.pos[0] : NULL;
  /* Units walking on a changing map: tools/sim_world.c. */
  if (a.kind == WORLD)
    return cli_simulate_world(map_path, &set.world, set.budget, set.seed, &set.opt);
  astar_options opt = set.opt;
  const long agents = set.agents, frames = set.frames, arrivals = set.arrivals,
             priorities = set.priorities, unreachable = set.unreachable, edits = set.edits,
             window = set.window;
  const uint64_t restarts = set.restarts, budget = set.budget, seed = set.seed;
  const bool have_budget = cli_given(&a, "--budget") > 0, use_islands = set.islands;
  const bool cooperative = set.cooperative, walk = set.walk;
  const bool have_window = cli_given(&a, "--window") > 0;
  if (!map_path) return cli_usage_error("simulate: missing MAP (see 'astar simulate --help')");
  if (agents == 0) return cli_usage_error("simulate: missing --agents N");
  if (cooperative && walk)
    return cli_usage_error("simulate: --cooperative and --walk exclude each other");
  if (have_window && !cooperative) return cli_usage_error("simulate: --window needs --cooperative");
  /* The request queue's options were refused with --cooperative or --walk
  ** by name (cli_parse). */
  if (cooperative || walk) {
    if (astar_options_validate(&opt) != ASTAR_OK)
      return cli_usage_error("simulate: the search options are not valid together");
    return cli_coop_simulate(map_path, agents, seed, cooperative, window, frames, &opt);
  }
  if (!have_budget) return cli_usage_error("simulate: missing --budget B");
  if (unreachable > agents)
    return cli_usage_error("simulate: --unreachable %ld exceeds --agents %ld", unreachable, agents);
  if (astar_options_validate(&opt) != ASTAR_OK)
    return cli_usage_error("simulate: the search options are not valid together");
  const cli_algo *algo = set.algo;
  int32_t sides[MAX_SIZES] = {1};
  size_t nsides = 1;
  if (set.sizes && !parse_sizes(set.sizes, sides, &nsides)) return CLI_EXIT_USAGE;
  int32_t max_side = 1;
  for (size_t k = 0; k < nsides; k++)
    if (sides[k] > max_side) max_side = sides[k];
  const char *why = cli_algo_unsupported_options(algo, &opt);
  if (why) return cli_usage_error("simulate: --algo %s: %s", algo->name, why);
  if (algo->pre && max_side > 1)
    return cli_usage_error("simulate: --algo %s --sizes %s: %s", algo->name, set.sizes,
                           cli_algo_unsupported_unit(algo, &opt, max_side));
  /* The islands are the map's, for one-cell units: a bigger unit's search
  ** of its own grid would find them mismatched (ASTAR_STALE). */
  if (use_islands && max_side > 1)
    return cli_usage_error(
        "simulate: --islands are the map's one-cell islands: not with --sizes %s", set.sizes);
  if (algo->pre && edits > 0)
    return cli_usage_error("simulate: --algo %s with --edits: its precomputation would have to be "
                           "rebuilt after every edit (a method without one: astar, jps, ...)",
                           algo->name);
  if (!cli_algo_has_finder(algo))
    return cli_usage_error("simulate: --algo %s: not a method of the queue", algo->name);

  astar_grid *grid;
  if (!cli_load_map(map_path, &grid, NULL, NULL)) return CLI_EXIT_FAIL;
  const char *label = strcmp(map_path, "-") == 0 ? "(stdin)" : map_path;
  const size_t n = (size_t)agents;
  const size_t cells = (size_t)astar_grid_width(grid) * (size_t)astar_grid_height(grid);
  const size_t cap = cells;
  int rc = CLI_EXIT_FAIL;
  astar_islands *isl = NULL;
  astar_queue *q = NULL;
  sim s = {0};
  editor ed = {0};
  checker chk = {0};
  cli_prepared prep = {0};
  astar_point *buf = malloc(cap * sizeof *buf);
  s.agents = calloc(n, sizeof *s.agents);
  s.ended = calloc(n, sizeof *s.ended);
  ed.endpoint = calloc(cells, 1);
  chk.buf = malloc(cap * sizeof *chk.buf);
  chk.cap = cap;
  if (!buf || !s.agents || !s.ended || !ed.endpoint || !chk.buf) {
    cli_error("out of memory");
    goto done;
  }
  astar_status st = astar_islands_new(&isl, grid, &opt, NULL);
  if (st == ASTAR_OK) st = astar_queue_new(&q, grid, n, NULL);
  if (st == ASTAR_OK) st = astar_workspace_new(&chk.ws, grid, NULL);
  /* Searches with a turn penalty run over (cell, direction) states, which
  ** the queue's workspace (and the checker's) must reserve once. */
  if (st == ASTAR_OK && opt.turn_penalty > 0) st = astar_queue_reserve_turns(q);
  if (st == ASTAR_OK && opt.turn_penalty > 0) st = astar_workspace_reserve_turns(chk.ws, grid);
  if (st != ASTAR_OK) {
    cli_error("simulate: %s", astar_strerror(st));
    goto done;
  }
  if (use_islands) opt.islands = isl;
  /* What every request asks: the tool's finder for a method with a
  ** precomputation (prepared once), else the method for the queue to
  ** prepare per unit size. */
  astar_request proto = {0};
  if (algo->pre) {
    if (!cli_prepare(&prep, algo, grid, &opt, label, NULL)) goto done;
    proto.finder = prep.finder;
  } else {
    proto.method = algo->method;
    proto.opt = &opt;
  }
  for (size_t k = 0; k < nsides; k++) {
    astar_request r = proto;
    if (!r.finder) r.unit_size = sides[k];
    if ((why = astar_queue_unsupported_reason(q, &r)) != NULL) {
      rc = cli_usage_error("simulate: --algo %s%s%s: %s", algo->name,
                           nsides > 1 || sides[0] > 1 ? " --sizes " : "",
                           nsides > 1 || sides[0] > 1 ? set.sizes : "", cli_reason_text(why));
      goto done;
    }
  }
  /* Each side's islands: the map's for 1, its derived grid's for a big
  ** unit (what the queue searches for it). */
  const astar_islands *isl_of[MAX_SIZES];
  astar_islands *big_isl[MAX_SIZES] = {0};
  astar_grid *derived[MAX_SIZES] = {0};
  astar_clearance *clr = NULL;
  if (max_side > 1) st = astar_clearance_new(&clr, grid, NULL, NULL, 0, max_side, NULL);
  for (size_t k = 0; k < nsides && st == ASTAR_OK; k++) {
    isl_of[k] = isl;
    if (sides[k] == 1) continue;
    st = astar_grid_new(&derived[k], astar_grid_width(grid), astar_grid_height(grid), NULL);
    if (st == ASTAR_OK)
      st = astar_clearance_fill_grid(clr, grid, sides[k], ASTAR_CAPABILITY_ALL, derived[k]);
    if (st == ASTAR_OK) st = astar_islands_new(&big_isl[k], derived[k], &opt, NULL);
    isl_of[k] = big_isl[k];
  }
  const bool drawn = st == ASTAR_OK && draw_agents(s.agents, n, (size_t)unreachable, grid, isl_of,
                                                   sides, nsides, seed, priorities);
  for (size_t k = 0; k < nsides; k++) {
    astar_islands_free(big_isl[k]);
    astar_grid_free(derived[k]);
  }
  astar_clearance_free(clr);
  if (st != ASTAR_OK) {
    cli_error("simulate: %s", astar_strerror(st));
    goto done;
  }
  if (!drawn) {
    if (unreachable > 0 && astar_islands_count(isl) < 2)
      cli_error("simulate: %s has a single island: no goal can be unreachable", label);
    else
      cli_error("simulate: %s has no two connected open cells%s", label,
                max_side > 1 ? " for every unit side of --sizes" : "");
    goto done;
  }
  astar_finder_config_init(&chk.cfg);
  chk.cfg.method = algo->method;
  chk.cfg.options = opt;
  chk.given = prep.finder;
  chk.max_size = max_side;
  if (max_side > 1) astar_grid_track_changes(grid, 256);
  astar_queue_set_restarts(q, (uint32_t)restarts);
  astar_queue_set_callback(q, on_done, &s);
  ed.every = edits;
  ed.state = seed ^ 0x5EED5EED5EED5EEDull;
  const size_t w = (size_t)astar_grid_width(grid);
  for (size_t i = 0; i < n; i++) {
    ed.endpoint[(size_t)s.agents[i].start.y * w + (size_t)s.agents[i].start.x] = 1;
    ed.endpoint[(size_t)s.agents[i].goal.y * w + (size_t)s.agents[i].goal.x] = 1;
  }

  frame_stats fs;
  if (!run_frames(q, &s, n, budget, arrivals, frames, buf, cap, &proto, grid,
                  use_islands ? isl : NULL, &ed, &chk, &fs))
    goto done;
  const size_t unfinished = astar_queue_pending(q);
  /* Report the map as loaded: the moving walls go. */
  for (int k = 0; k < ed.nwalls; k++)
    astar_grid_set_passable(grid, ed.wall[k].x, ed.wall[k].y, true);

  cli_print_map_line(stdout, label, grid);
  fputs("options:  ", stdout);
  cli_describe_options(stdout, &opt);
  if (opt.turn_penalty > 0) printf(", turn penalty %g", opt.turn_penalty);
  if (opt.partial) fputs(", partial paths", stdout);
  if (use_islands) fputs(", islands", stdout);
  if (strcmp(algo->name, "astar") != 0) printf(", algorithm %s", algo->name);
  if (nsides > 1 || sides[0] > 1) printf(", unit sides %s", set.sizes);
  printf("\nagents:   %zu, ", n);
  if (arrivals > 0)
    printf("%ld arriving per frame", arrivals);
  else
    fputs("all at frame 0", stdout);
  printf(", priorities %ld, seed %llu", priorities, (unsigned long long)seed);
  if (unreachable > 0) printf(", %ld with an unreachable goal", unreachable);
  const astar_method_info *info = astar_method_info_of(algo->method);
  const bool sliced = info && (info->flags & ASTAR_MF_SLICED);
  const char *work = info ? info->work : "units of work";
  printf("\nbudget:   %llu %s per frame%s\n", (unsigned long long)budget,
         strcmp(work, "node expansions") == 0 ? "expansions" : work,
         sliced ? "" : " (run whole: a run may overshoot once, repaid from the next frames)");
  if (unfinished)
    printf("frames:   %ld (--frames limit; %zu requests unfinished)\n", fs.frames, unfinished);
  else
    printf("frames:   %ld until all done\n", fs.frames);
  print_outcomes(&s, n);
  print_answered(&s, n, (size_t)unreachable);
  print_latency(&s, n, priorities);
  const double nf = fs.frames ? (double)fs.frames : 1.0;
  printf("expanded: %llu in all; per frame mean %.1f, max %llu (budget %llu)\n",
         (unsigned long long)fs.expanded_total, (double)fs.expanded_total / nf,
         (unsigned long long)fs.expanded_max, (unsigned long long)budget);
  printf("time:     %.3f ms in all; per frame mean %.1f us, max %.1f us\n", fs.seconds_total * 1e3,
         fs.seconds_total / nf * 1e6, fs.seconds_max * 1e6);
  /* Work the queue spent on searches that were restarted, ended stale, or
  ** are unfinished: everything beyond the results' own expansions. */
  const uint64_t wasted = fs.expanded_total > chk.results ? fs.expanded_total - chk.results : 0;
  if (edits > 0)
    printf("edits:    %ld (a wall moved every %ld frames); %llu searches restarted, %zu ended "
           "stale (--restarts %llu), %llu expansions lost to them\n",
           ed.edits, edits, (unsigned long long)fs.restarted, chk.stale,
           (unsigned long long)restarts, (unsigned long long)wasted);

  /* With every request done and no restart or stale search, the totals
  ** must agree exactly. */
  const bool comparable = unfinished == 0 && fs.restarted == 0 && chk.stale == 0;
  const bool same_total = !comparable || chk.results == fs.expanded_total;
  printf("one-shot: %llu expanded in %.3f ms (%zu searches", (unsigned long long)chk.expanded,
         chk.seconds * 1e3, chk.searches);
  if (chk.unchecked) printf(", %zu results of an older grid not replayed", chk.unchecked);
  printf("); results %s, totals %s\n", chk.differ ? "DIFFER" : "identical",
         !comparable  ? (unfinished ? "not compared (unfinished requests)"
                                    : "not compared (restarted or stale searches)")
         : same_total ? "equal"
                      : "DIFFER");
  /* A sliced method never exceeds a frame's budget; a whole run may, once,
  ** and repays it (astar/queue.h, "Methods"). */
  const bool over = sliced && fs.expanded_max > budget;
  if (over) printf("error: a frame exceeded the budget\n");
  if (chk.found == 0) printf("error: no request found a path\n");
  rc = (chk.differ || !same_total || over || chk.found == 0) ? CLI_EXIT_FAIL : CLI_EXIT_OK;

done:
  checker_drop(&chk);
  cli_prepared_free(&prep);
  astar_queue_free(q);
  astar_islands_free(isl);
  astar_workspace_free(chk.ws);
  free(chk.buf);
  free(ed.endpoint);
  free(s.ended);
  free(s.agents);
  free(buf);
  astar_grid_free(grid);
  return rc;
}
