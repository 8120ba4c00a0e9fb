/*
** coop_sim.c -- `astar simulate MAP --agents N --cooperative | --walk`:
** N agents with random start / goal pairs move at the same time, one step
** per frame (astar/spacetime.h's time model: a move or a wait per step).
**
**   --walk           every agent follows its own A* path (independent,
**                    blind to the others), then stays at its goal: the
**                    collisions are counted;
**   --cooperative    cooperative A*: agents plan one after another through a
**                    reservation table (full search, goals held for ever),
**                    an agent whose search fails waits in place (its cell
**                    reserved if nobody else holds it) and tries again every
**                    RETRY frames; or with --window W Silver's WHCA*: every W/2 frames the
**                    table is cleared and every agent plans W steps ahead,
**                    the planning order rotating each round.
**
** Collisions are counted by brute force while walking: two agents in one
** cell at a frame (vertex), or two agents exchanging cells in one step
** (swap). The heuristic of the cooperative searches is a distance field
** per agent's goal (astar/field.h), built once before the first frame and
** reported apart. Starts are distinct, goals are distinct, each pair on
** one island; drawn with splitmix64 from --seed (the same on every platform).
*/
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define RETRY 16 /* full search: frames between the retries of a failed agent */

typedef struct walker {
  astar_point start, goal;
  astar_point *plan; /* [plan_cap] the timed plan: plan[k] = cell at plan_t0 + k */
  size_t plan_cap;
  size_t plan_len;
  long horizon; /* full cooperative search: its horizon (steps) */
  uint32_t plan_t0;
  astar_point pos; /* cell at the current frame */
  double cost;     /* cost walked until `arrived` */
  double running;  /* cost walked so far */
  long arrived;    /* frame it last entered its goal (-1: not there) */
  bool stuck;      /* its plan is the fallback wait of a failed search */
  astar_field *field;
} walker;

static uint64_t next_random(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Distinct starts, distinct goals, each pair on one island of >= 2 cells. */
static bool draw_pairs(walker *a, size_t n, const astar_grid *g, const astar_islands *isl,
                       uint64_t seed) {
  uint64_t state = seed;
  const size_t w = (size_t)astar_grid_width(g), h = (size_t)astar_grid_height(g);
  uint8_t *used = calloc(w * h, 1); /* bit 0: a start, bit 1: a goal */
  if (!used) return false;
  const long tries = 64 * (long)(w * h) + 1000;
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++) {
    ok = false;
    for (long k = 0; k < tries && !ok; k++) {
      const astar_point s = {(int32_t)(next_random(&state) % w),
                             (int32_t)(next_random(&state) % h)};
      const astar_point t = {(int32_t)(next_random(&state) % w),
                             (int32_t)(next_random(&state) % h)};
      const uint32_t id = astar_islands_id(isl, s.x, s.y);
      if (id == 0 || id != astar_islands_id(isl, t.x, t.y) || (s.x == t.x && s.y == t.y)) continue;
      if ((used[(size_t)s.y * w + (size_t)s.x] & 1) || (used[(size_t)t.y * w + (size_t)t.x] & 2))
        continue;
      used[(size_t)s.y * w + (size_t)s.x] |= 1;
      used[(size_t)t.y * w + (size_t)t.x] |= 2;
      a[i].start = a[i].pos = s;
      a[i].goal = t;
      a[i].arrived = -1;
      ok = true;
    }
  }
  free(used);
  return ok;
}

static astar_point plan_at(const walker *a, long t) {
  if (t <= (long)a->plan_t0 || a->plan_len == 0) return a->plan_len ? a->plan[0] : a->pos;
  const size_t k = (size_t)(t - (long)a->plan_t0);
  return k < a->plan_len ? a->plan[k] : a->plan[a->plan_len - 1];
}

typedef struct sim_stats {
  uint64_t expanded, searches, failed;
  uint64_t vertex, swap;
  uint64_t unplanned; /* of those, collisions involving an agent without a plan */
  double plan_seconds, plan_max;
  long frames;
} sim_stats;

/* Plan one agent from its position at `frame` (cooperative). */
static void plan_coop(walker *a, uint32_t id, long frame, long window,
                      astar_spacetime_workspace *ws, const astar_grid *g, const astar_options *opt,
                      astar_reservations *res, sim_stats *ss) {
  astar_coop_query q;
  astar_coop_query_init(&q);
  q.start = a->pos;
  q.goal = a->goal;
  q.agent = id;
  q.t0 = (uint32_t)frame;
  q.window = (uint32_t)window;
  q.horizon = (uint32_t)a->horizon;
  q.field = a->field;
  astar_coop_result r;
  const astar_status st = astar_coop_find_path(ws, g, opt, res, &q, a->plan, a->plan_cap, &r);
  ss->expanded += r.stats.expanded;
  ss->searches++;
  a->plan_t0 = (uint32_t)frame;
  a->stuck = st != ASTAR_OK;
  if (st == ASTAR_OK) {
    a->plan_len = r.length;
    const uint32_t hold = window ? (uint32_t)window + 1 - (uint32_t)r.length : ASTAR_HOLD_FOREVER;
    astar_reservations_reserve_path(res, id, a->plan, r.length, (uint32_t)frame, hold);
    return;
  }
  /* No plan: wait where it is (reserved when nobody else holds the cell). */
  ss->failed++;
  a->plan[0] = a->pos;
  a->plan_len = 1;
  astar_reservations_reserve_path(res, id, a->plan, 1, (uint32_t)frame,
                                  window ? (uint32_t)window : ASTAR_HOLD_FOREVER);
}

int cli_coop_simulate(const char *map_path, long agents, uint64_t seed, bool cooperative,
                      long window, long max_frames, const astar_options *opt_in) {
  astar_options opt = *opt_in;
  astar_grid *grid;
  if (!cli_load_map(map_path, &grid, NULL, NULL)) return CLI_EXIT_FAIL;
  const char *label = strcmp(map_path, "-") == 0 ? "(stdin)" : map_path;
  const size_t n = (size_t)agents;
  const int32_t w = astar_grid_width(grid), h = astar_grid_height(grid);
  const size_t cells = (size_t)w * (size_t)h;
  /* Frames: enough for the longest path with every agent in the way. */
  const long frame_limit = 8L * (w + h) + 4L * (long)n;
  const size_t cap = cells + 2; /* an A* path */
  int rc = CLI_EXIT_FAIL;
  astar_islands *isl = NULL;
  astar_workspace *aws = NULL;
  astar_spacetime_workspace *ws = NULL;
  astar_reservations *res = NULL;
  walker *a = calloc(n, sizeof *a);
  uint32_t *occ = malloc(cells * sizeof *occ); /* agent + 1 in each cell at this frame */
  astar_point *next = calloc(n, sizeof *next);
  astar_point *scratch = malloc(cap * sizeof *scratch);
  sim_stats ss = {0};
  double field_seconds = 0;
  if (!a || !occ || !next || !scratch) {
    cli_error("out of memory");
    goto done;
  }
  astar_status st = astar_islands_new(&isl, grid, &opt, NULL);
  if (st == ASTAR_OK) st = astar_workspace_new(&aws, grid, NULL);
  if (st == ASTAR_OK && cooperative) {
    /* Room for a congested search: 8 states a cell (at most 2^21) for a
    ** full search; a window's search stays near its W steps. The
    ** workspace writes all its memory when created: kept to what is used. */
    const size_t cap_states = window ? ((size_t)1 << 18) : ((size_t)1 << 21);
    const size_t states = cells * 8 < cap_states ? cells * 8 : cap_states;
    st = astar_spacetime_workspace_new(&ws, states, NULL);
  }
  if (st != ASTAR_OK) {
    cli_error("simulate: %s", astar_strerror(st));
    goto done;
  }
  if (!draw_pairs(a, n, grid, isl, seed)) {
    cli_error("simulate: %s has too few open cells for %zu distinct start / goal pairs", label, n);
    goto done;
  }

  const double t_start = cli_now_seconds();
  if (cooperative) {
    const double t0 = cli_now_seconds();
    for (size_t i = 0; i < n; i++) {
      st = astar_field_new(&a[i].field, grid, &opt, a[i].goal, 0.0, NULL, NULL);
      if (st != ASTAR_OK) {
        cli_error("simulate: distance field: %s", astar_strerror(st));
        goto done;
      }
    }
    field_seconds = cli_now_seconds() - t0;
  }
  /* Plan buffers: a window, or the horizon of a full search -- twice the
  ** steps of the agent's path ignoring others (its field cost over the
  ** cheapest step), plus room to let every other agent by. */
  const double min_step =
      (opt.straight_cost < opt.diagonal_cost ? opt.straight_cost : opt.diagonal_cost) *
      (double)astar_grid_min_terrain(grid);
  long longest = 0;
  for (size_t i = 0; i < n; i++) {
    if (cooperative && window == 0) {
      const double c = astar_field_cost(a[i].field, a[i].start.x, a[i].start.y);
      a[i].horizon = 2L * (long)(c / min_step + 1.0) + 2L * (long)n + 64;
      if (a[i].horizon > (long)ASTAR_TIME_MAX / 2) a[i].horizon = (long)ASTAR_TIME_MAX / 2;
      if (a[i].horizon > longest) longest = a[i].horizon;
    }
    a[i].plan_cap = cooperative ? (size_t)(window ? window : a[i].horizon) + 2 : 0;
    if (a[i].plan_cap && !(a[i].plan = calloc(a[i].plan_cap, sizeof *a[i].plan))) {
      cli_error("out of memory");
      goto done;
    }
  }
  if (max_frames == 0) max_frames = frame_limit > longest ? frame_limit : longest;
  if (cooperative) {
    /* Every plan's cells and moves, and a held goal. */
    size_t room = 0;
    for (size_t i = 0; i < n; i++) room += 2 * a[i].plan_cap + 4;
    st = astar_reservations_new(&res, room, NULL);
    if (st != ASTAR_OK) {
      cli_error("simulate: reservation table: %s", astar_strerror(st));
      goto done;
    }
  }
  if (!cooperative || window == 0) {
    /* Plan everybody once, before the first frame. */
    const double t0 = cli_now_seconds();
    for (size_t i = 0; i < n; i++) {
      if (cooperative) {
        plan_coop(&a[i], (uint32_t)i, 0, 0, ws, grid, &opt, res, &ss);
        continue;
      }
      astar_result r;
      st = astar_find_path(aws, grid, &opt, a[i].start, a[i].goal, scratch, cap, &r);
      ss.expanded += r.stats.expanded;
      ss.searches++;
      a[i].plan_t0 = 0;
      if (st != ASTAR_OK) {
        ss.failed++;
        a[i].stuck = true;
        scratch[0] = a[i].start;
        r.length = 1;
      }
      a[i].plan_len = r.length;
      a[i].plan = calloc(r.length, sizeof *a[i].plan);
      if (!a[i].plan) {
        cli_error("out of memory");
        goto done;
      }
      memcpy(a[i].plan, scratch, r.length * sizeof *a[i].plan);
    }
    ss.plan_seconds = ss.plan_max = cli_now_seconds() - t0;
  }
  const long period = window > 1 ? window / 2 : 1;
  size_t first = 0; /* WHCA*: who plans first this round */
  long frame = 0;
  for (;; frame++) {
    /* Who is where: vertex conflicts at this frame. */
    memset(occ, 0, cells * sizeof *occ);
    bool all_home = true;
    for (size_t i = 0; i < n; i++) {
      const size_t c = (size_t)a[i].pos.y * (size_t)w + (size_t)a[i].pos.x;
      if (occ[c]) {
        ss.vertex++;
        ss.unplanned += a[i].stuck || a[occ[c] - 1].stuck;
      }
      occ[c] = (uint32_t)i + 1;
      all_home = all_home && a[i].pos.x == a[i].goal.x && a[i].pos.y == a[i].goal.y &&
                 plan_at(&a[i], LONG_MAX).x == a[i].goal.x &&
                 plan_at(&a[i], LONG_MAX).y == a[i].goal.y;
    }
    if (all_home || frame >= max_frames) break;
    if (cooperative && window > 0 && frame % period == 0) {
      const double t0 = cli_now_seconds();
      astar_reservations_clear(res);
      for (size_t k = 0; k < n; k++) {
        const size_t i = (first + k) % n;
        plan_coop(&a[i], (uint32_t)i, frame, window, ws, grid, &opt, res, &ss);
      }
      first = (first + 1) % n;
      const double dt = cli_now_seconds() - t0;
      ss.plan_seconds += dt;
      if (dt > ss.plan_max) ss.plan_max = dt;
    }
    /* Full search: an agent whose search failed tries again every
    ** RETRY frames from where it stands (the others may have moved on). */
    if (cooperative && window == 0 && frame > 0 && frame % RETRY == 0) {
      const double t0 = cli_now_seconds();
      for (size_t i = 0; i < n; i++) {
        if (!a[i].stuck) continue;
        astar_reservations_release(res, (uint32_t)i, UINT32_MAX);
        plan_coop(&a[i], (uint32_t)i, frame, 0, ws, grid, &opt, res, &ss);
      }
      ss.plan_seconds += cli_now_seconds() - t0;
    }
    /* One step for everybody; swaps counted once per pair. */
    for (size_t i = 0; i < n; i++) next[i] = plan_at(&a[i], frame + 1);
    for (size_t i = 0; i < n; i++) {
      const astar_point u = a[i].pos, v = next[i];
      if (u.x == v.x && u.y == v.y) continue;
      const uint32_t other = occ[(size_t)v.y * (size_t)w + (size_t)v.x];
      if (other && other - 1 > i && next[other - 1].x == u.x && next[other - 1].y == u.y) {
        ss.swap++;
        ss.unplanned += a[i].stuck || a[other - 1].stuck;
      }
    }
    for (size_t i = 0; i < n; i++) {
      const astar_point u = a[i].pos, v = next[i];
      double c;
      if (u.x == v.x && u.y == v.y) {
        c = (u.x == a[i].goal.x && u.y == a[i].goal.y) ? 0.0 : opt.straight_cost;
      } else {
        c = (u.x != v.x && u.y != v.y ? opt.diagonal_cost : opt.straight_cost) *
            (double)astar_grid_terrain(grid, v.x, v.y);
      }
      a[i].running += c;
      a[i].pos = v;
      if (v.x == a[i].goal.x && v.y == a[i].goal.y) {
        if (!(u.x == v.x && u.y == v.y) || a[i].arrived < 0) {
          a[i].arrived = frame + 1;
          a[i].cost = a[i].running;
        }
      } else {
        a[i].arrived = -1;
      }
    }
  }
  ss.frames = frame;
  const double wall = cli_now_seconds() - t_start - field_seconds;

  long makespan = 0;
  size_t home = 0;
  double soc = 0;
  for (size_t i = 0; i < n; i++) {
    if (a[i].arrived < 0) continue;
    home++;
    soc += a[i].cost;
    if (a[i].arrived > makespan) makespan = a[i].arrived;
  }
  cli_print_map_line(stdout, label, grid);
  fputs("options:  ", stdout);
  cli_describe_options(stdout, &opt);
  printf("\nagents:   %zu, seed %llu, ", n, (unsigned long long)seed);
  if (!cooperative)
    puts("independent A* paths walked at once (--walk)");
  else if (window)
    printf("cooperative, windowed (WHCA*): window %ld, replanned every %ld frames\n", window,
           period);
  else
    printf("cooperative, full search (horizon up to %ld steps), goals held\n", longest);
  printf("frames:   %ld (%s)\n", ss.frames,
         home == n ? "every agent at its goal" : "--frames limit reached");
  printf("arrived:  %zu of %zu\n", home, n);
  printf("collisions: %llu (%llu vertex, %llu swap)",
         (unsigned long long)ss.vertex + (unsigned long long)ss.swap, (unsigned long long)ss.vertex,
         (unsigned long long)ss.swap);
  if (ss.unplanned)
    printf("; %llu involve an agent whose search failed (waiting in place, unreserved)",
           (unsigned long long)ss.unplanned);
  putchar('\n');
  printf("makespan: %ld steps; sum of costs %.3f (agents at their goals)\n", makespan, soc);
  printf("search:   %llu searches, %llu expanded (%.1f per agent), %llu without a path\n",
         (unsigned long long)ss.searches, (unsigned long long)ss.expanded,
         (double)ss.expanded / (double)n, (unsigned long long)ss.failed);
  printf("time:     planning %.3f ms (%.1f us per agent; per frame mean %.3f ms, max planning "
         "round %.3f ms); whole run %.3f ms\n",
         ss.plan_seconds * 1e3, ss.plan_seconds * 1e6 / (double)n,
         ss.frames ? ss.plan_seconds * 1e3 / (double)ss.frames : 0.0, ss.plan_max * 1e3,
         wall * 1e3);
  if (cooperative)
    printf("fields:   %zu distance fields in %.3f ms (the heuristic)\n", n, field_seconds * 1e3);
  rc = CLI_EXIT_OK;
  if (cooperative && ss.vertex + ss.swap > ss.unplanned) {
    printf("error: collisions between agents with reserved plans\n");
    rc = CLI_EXIT_FAIL;
  }

done:
  if (a)
    for (size_t i = 0; i < n; i++) {
      free(a[i].plan);
      astar_field_free(a[i].field);
    }
  free(a);
  free(occ);
  free(next);
  free(scratch);
  astar_reservations_free(res);
  astar_spacetime_workspace_free(ws);
  astar_workspace_free(aws);
  astar_islands_free(isl);
  astar_grid_free(grid);
  return rc;
}
