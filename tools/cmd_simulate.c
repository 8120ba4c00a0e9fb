/*
** cmd_simulate.c -- `astar simulate MAP --agents N --budget B`: a game loop
** in miniature for the path-request queue (astar/queue.h). N agents ask for
** paths between random reachable cells; every frame the queue spends at
** most B expansions. Reports how many frames the work took, how long each
** agent waited, the work per frame, and the same searches run one-shot as
** a sanity check (identical results, identical total expansions).
**
** Pairs are drawn with our own splitmix64 generator from --seed, so a run is
** reproducible on every platform. Start and goal lie on the same island
** (astar/islands.h, for the search's moves and corner rule): a game does not
** ask for a path it knows cannot exist, and one unreachable goal would
** otherwise flood its whole island and dominate the numbers.
*/
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_AGENTS 1000000L
#define MAX_PRIORITIES 1000L

typedef struct agent {
  astar_point start, goal;
  int priority;
  astar_request_id id;
  long submitted; /* frame of submission */
  long finished;  /* frame of completion, or -1 */
  astar_status status;
  double cost;
  uint64_t expanded;
} agent;

typedef struct sim {
  agent *agents;
  long frame; /* frame whose update is running */
  size_t done;
} sim;

static void help(FILE *out) {
  fprintf(out,
          "usage: astar simulate MAP --agents N --budget B [OPTIONS]\n"
          "\n"
          "Simulate a game loop with the path-request queue: N agents request paths\n"
          "between random reachable cells of MAP (Moving AI .map or ASCII; `-` reads\n"
          "standard input); each frame the queue spends at most B node expansions,\n"
          "working on requests by priority (higher first), then in submission order.\n"
          "Prints the frames used until all are done, the latency of the requests in\n"
          "frames (1 = done in the frame it was submitted), expansions and time per\n"
          "frame, and the same searches run one-shot for comparison.\n"
          "\n"
          "Options:\n"
          "  --agents N             number of agents / requests, 1..%ld (required)\n"
          "  --budget B             expansions per frame, >= 1 (required)\n"
          "  --frames F             stop after F frames even if work remains (default 0:\n"
          "                         run until every request is done)\n"
          "  --arrivals R           submit R requests per frame (default 0: all at frame 0)\n"
          "  --priorities K         random priorities 0..K-1 (default 1: all equal)\n"
          "  --seed S               seed of the random pairs and priorities (default 1)\n"
          "  -h, --help             show this help\n"
          "\n%s"
          "\n"
          "Exit status: 0 success, 1 unreadable map or a one-shot mismatch, 2 usage error.\n",
          MAX_AGENTS, cli_search_options_help);
}

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

/* A random cell of island `want` (0: any open cell); false after `tries`
** misses. */
static bool random_cell(const astar_grid *g, const astar_islands *isl, uint32_t want,
                        uint64_t *state, long tries, astar_point *out) {
  const uint32_t w = (uint32_t)astar_grid_width(g), h = (uint32_t)astar_grid_height(g);
  for (long i = 0; i < tries; i++) {
    const astar_point p = {(int32_t)random_below(state, w), (int32_t)random_below(state, h)};
    const uint32_t id = astar_islands_id(isl, p.x, p.y);
    if (id != 0 && (want == 0 || id == want)) {
      *out = p;
      return true;
    }
  }
  return false;
}

/* Draw every agent's start, goal and priority. */
static bool draw_agents(agent *a, size_t n, const astar_grid *g, const astar_islands *isl,
                        uint64_t seed, long priorities) {
  uint64_t state = seed;
  const long cells = (long)astar_grid_width(g) * astar_grid_height(g);
  const long tries = 64 * cells + 1000;
  for (size_t i = 0; i < n; i++) {
    astar_point s = {0, 0}, t = {0, 0};
    bool ok = false;
    /* A start on an island of one cell has no other goal: draw again. */
    for (int k = 0; k < 1000 && !ok; k++) {
      if (!random_cell(g, isl, 0, &state, tries, &s)) break;
      const uint32_t id = astar_islands_id(isl, s.x, s.y);
      if (astar_islands_size(isl, id) < 2) continue;
      do {
        if (!random_cell(g, isl, id, &state, tries, &t)) break;
      } while (t.x == s.x && t.y == s.y);
      ok = t.x != s.x || t.y != s.y;
    }
    if (!ok) return false;
    a[i].start = s;
    a[i].goal = t;
    a[i].priority = (int)random_below(&state, (uint32_t)priorities);
    a[i].finished = -1;
  }
  return true;
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
} frame_stats;

/* Run the frames. Returns false on a library failure (message printed). */
static bool run_frames(astar_queue *q, sim *s, size_t n, uint64_t budget, long arrivals,
                       long max_frames, astar_point *buf, size_t cap, const astar_options *opt,
                       frame_stats *fs) {
  size_t next = 0;
  memset(fs, 0, sizeof *fs);
  for (long frame = 0;; frame++) {
    const size_t batch = arrivals > 0 ? (size_t)arrivals : n;
    for (size_t k = 0; k < batch && next < n; k++, next++) {
      agent *a = &s->agents[next];
      /* One buffer for all: a path is written when its request ends and
      ** the callback is done with it before the next one ends. */
      astar_request req = {0};
      req.start = a->start;
      req.goal = a->goal;
      req.opt = opt;
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
    if (f.expanded > fs->expanded_max) fs->expanded_max = f.expanded;
    fs->seconds_total += dt;
    if (dt > fs->seconds_max) fs->seconds_max = dt;
  }
  return true;
}

/* The same searches one-shot: compare every result and time them. Returns
** the number of agents whose outcome differs. */
static size_t run_one_shot(const astar_grid *g, const astar_options *opt, agent *agents, size_t n,
                           astar_point *buf, size_t cap, uint64_t *expanded, double *seconds,
                           bool *ok) {
  astar_workspace *ws;
  size_t diff = 0;
  *expanded = 0;
  *seconds = 0;
  *ok = astar_workspace_new(&ws, g, NULL) == ASTAR_OK;
  if (!*ok) return 0;
  for (size_t i = 0; i < n; i++) {
    agent *a = &agents[i];
    if (a->finished < 0) continue;
    astar_result r;
    const double t0 = cli_now_seconds();
    const astar_status st = astar_find_path(ws, g, opt, a->start, a->goal, buf, cap, &r);
    *seconds += cli_now_seconds() - t0;
    *expanded += r.stats.expanded;
    diff += st != a->status || r.cost != a->cost || r.stats.expanded != a->expanded;
  }
  astar_workspace_free(ws);
  return diff;
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

int cli_cmd_simulate(int argc, char **argv) {
  cli_parser p;
  astar_options opt;
  astar_options_init(&opt);
  const char *map_path = NULL;
  long agents = 0, frames = 0, arrivals = 0, priorities = 1;
  uint64_t budget = 0, seed = 1;
  bool have_budget = false;

  cli_parser_init(&p, argc, argv, "simulate");
  for (int kind; (kind = cli_next(&p)) != CLI_ARG_END;) {
    if (kind == CLI_ARG_POSITIONAL) {
      if (map_path) return cli_usage_error("simulate: unexpected argument '%s'", p.arg);
      map_path = p.arg;
      continue;
    }
    const int r = cli_search_option(&p, &opt);
    if (r < 0) return CLI_EXIT_USAGE;
    if (r > 0) continue;
    const char *v;
    if (cli_is(&p, "--help", "-h")) {
      help(stdout);
      return CLI_EXIT_OK;
    } else if (cli_is(&p, "--agents", NULL)) {
      if (!(v = cli_value(&p)) || !cli_parse_int(p.name, v, 1, MAX_AGENTS, &agents))
        return CLI_EXIT_USAGE;
    } else if (cli_is(&p, "--budget", NULL)) {
      if (!(v = cli_value(&p)) || !cli_parse_u64(p.name, v, &budget)) return CLI_EXIT_USAGE;
      if (budget == 0) return cli_usage_error("%s: expected an integer >= 1, got '%s'", p.name, v);
      have_budget = true;
    } else if (cli_is(&p, "--frames", NULL)) {
      if (!(v = cli_value(&p)) || !cli_parse_int(p.name, v, 0, LONG_MAX, &frames))
        return CLI_EXIT_USAGE;
    } else if (cli_is(&p, "--arrivals", NULL)) {
      if (!(v = cli_value(&p)) || !cli_parse_int(p.name, v, 0, MAX_AGENTS, &arrivals))
        return CLI_EXIT_USAGE;
    } else if (cli_is(&p, "--priorities", NULL)) {
      if (!(v = cli_value(&p)) || !cli_parse_int(p.name, v, 1, MAX_PRIORITIES, &priorities))
        return CLI_EXIT_USAGE;
    } else if (cli_is(&p, "--seed", NULL)) {
      if (!(v = cli_value(&p)) || !cli_parse_u64(p.name, v, &seed)) return CLI_EXIT_USAGE;
    } else {
      return cli_unknown_option(&p);
    }
  }
  if (!map_path) return cli_usage_error("simulate: missing MAP (see 'astar simulate --help')");
  if (agents == 0) return cli_usage_error("simulate: missing --agents N");
  if (!have_budget) return cli_usage_error("simulate: missing --budget B");
  if (astar_options_validate(&opt) != ASTAR_OK)
    return cli_usage_error("simulate: the search options are not valid together");

  astar_grid *grid;
  if (!cli_load_map(map_path, &grid, NULL, NULL)) return CLI_EXIT_FAIL;
  const char *label = strcmp(map_path, "-") == 0 ? "(stdin)" : map_path;
  const size_t n = (size_t)agents;
  const size_t cap = (size_t)astar_grid_width(grid) * (size_t)astar_grid_height(grid);
  int rc = CLI_EXIT_FAIL;
  astar_islands *isl = NULL;
  astar_queue *q = NULL;
  sim s = {0};
  astar_point *buf = malloc(cap * sizeof *buf);
  s.agents = calloc(n, sizeof *s.agents);
  if (!buf || !s.agents) {
    cli_error("out of memory");
    goto done;
  }
  astar_status st = astar_islands_new(&isl, grid, &opt, NULL);
  if (st == ASTAR_OK) st = astar_queue_new(&q, grid, n, NULL);
  if (st != ASTAR_OK) {
    cli_error("simulate: %s", astar_strerror(st));
    goto done;
  }
  if (!draw_agents(s.agents, n, grid, isl, seed, priorities)) {
    cli_error("simulate: %s has no two connected open cells", label);
    goto done;
  }
  astar_queue_set_callback(q, on_done, &s);

  frame_stats fs;
  if (!run_frames(q, &s, n, budget, arrivals, frames, buf, cap, &opt, &fs)) goto done;
  const size_t unfinished = astar_queue_pending(q);

  cli_print_map_line(stdout, label, grid);
  fputs("options:  ", stdout);
  cli_describe_options(stdout, &opt);
  printf("\nagents:   %zu, ", n);
  if (arrivals > 0)
    printf("%ld arriving per frame", arrivals);
  else
    fputs("all at frame 0", stdout);
  printf(", priorities %ld, seed %llu\n", priorities, (unsigned long long)seed);
  printf("budget:   %llu expansions per frame\n", (unsigned long long)budget);
  if (unfinished)
    printf("frames:   %ld (--frames limit; %zu requests unfinished)\n", fs.frames, unfinished);
  else
    printf("frames:   %ld until all done\n", fs.frames);
  print_outcomes(&s, n);
  print_latency(&s, n, priorities);
  const double nf = fs.frames ? (double)fs.frames : 1.0;
  printf("expanded: %llu in all; per frame mean %.1f, max %llu (budget %llu)\n",
         (unsigned long long)fs.expanded_total, (double)fs.expanded_total / nf,
         (unsigned long long)fs.expanded_max, (unsigned long long)budget);
  printf("time:     %.3f ms in all; per frame mean %.1f us, max %.1f us\n", fs.seconds_total * 1e3,
         fs.seconds_total / nf * 1e6, fs.seconds_max * 1e6);

  uint64_t one_expanded;
  double one_seconds;
  bool ok;
  const size_t diff =
      run_one_shot(grid, &opt, s.agents, n, buf, cap, &one_expanded, &one_seconds, &ok);
  if (!ok) {
    cli_error("simulate: out of memory");
    goto done;
  }
  /* Work of cancelled or unfinished requests is not comparable; with all
  ** done the totals must agree exactly. */
  const bool same_total = unfinished > 0 || one_expanded == fs.expanded_total;
  printf("one-shot: %llu expanded in %.3f ms (%zu searches); results %s, totals %s\n",
         (unsigned long long)one_expanded, one_seconds * 1e3, s.done, diff ? "DIFFER" : "identical",
         unfinished   ? "not compared (unfinished requests)"
         : same_total ? "equal"
                      : "DIFFER");
  if (fs.expanded_max > budget) printf("error: a frame exceeded the budget\n");
  rc = (diff || !same_total || fs.expanded_max > budget) ? CLI_EXIT_FAIL : CLI_EXIT_OK;

done:
  astar_queue_free(q);
  astar_islands_free(isl);
  free(s.agents);
  free(buf);
  astar_grid_free(grid);
  return rc;
}
