/*
** solve.c -- what every MAPF algorithm shares (astar/mapf.h,
** mapf/mapf.h): the one table of algorithms, the options checked once,
** the solver and its scratch, the memory accounting, the limits and the
** clock, the statistics filled around the algorithm's entry function.
**
** Adding an algorithm: its file with its entry function (declared in
** mapf/mapf.h), its astar_mapf_algo value and its row below.
*/
#if !defined(_POSIX_C_SOURCE) || _POSIX_C_SOURCE < 200809L
#undef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#endif

#include "mapf/mapf.h"
#include "core/internal.h"

#include <string.h>
#include <time.h>

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#endif

/* ---- the table ---------------------------------------------------------------------- */

typedef astar_status (*mapf_entry)(mapf_ctx *c);

typedef struct mapf_row {
  astar_mapf_algo_info info;
  mapf_entry entry; /* NULL: not built in (astar_mapf_solve: ASTAR_UNSUPPORTED) */
} mapf_row;

static const mapf_row mapf_rows[ASTAR_MAPF_ALGO_COUNT] = {
    [ASTAR_MAPF_PIBT] =
        {
            {"pibt", "PIBT: priority inheritance with backtracking, one step for all agents", 0},
            mapf_pibt_solve,
        },
    [ASTAR_MAPF_LACAM] =
        {
            {"lacam", "LaCAM: search over configurations, PIBT as generator; first solution",
             ASTAR_MAPF_COMPLETE},
            mapf_lacam_solve,
        },
    [ASTAR_MAPF_LACAM_STAR] =
        {
            {"lacam-star", "LaCAM*: LaCAM improving its solution until the limits run out",
             ASTAR_MAPF_COMPLETE | ASTAR_MAPF_ANYTIME | ASTAR_MAPF_OPTIMAL},
            mapf_lacam_solve,
        },
    [ASTAR_MAPF_CBS] =
        {
            {"cbs", "CBS: conflict-based search, optimal sum of costs", ASTAR_MAPF_OPTIMAL},
            mapf_cbs_solve,
        },
    [ASTAR_MAPF_EECBS] =
        {
            {"eecbs", "EECBS: explicit estimation CBS, sum of costs <= w x optimal",
             ASTAR_MAPF_BOUNDED},
            mapf_cbs_solve,
        },
    [ASTAR_MAPF_PRIORITIZED] =
        {
            {"prioritized", "prioritised planning: space-time A* per agent around earlier paths",
             0},
            mapf_prioritized_solve,
        },
};

const astar_mapf_algo_info *astar_mapf_algo_info_get(astar_mapf_algo algo) {
  if ((unsigned)algo >= ASTAR_MAPF_ALGO_COUNT) return NULL;
  return &mapf_rows[algo].info;
}

astar_status astar_mapf_algo_from_name(const char *name, astar_mapf_algo *out) {
  if (!name || !out) return ASTAR_INVALID_ARGUMENT;
  for (unsigned i = 0; i < ASTAR_MAPF_ALGO_COUNT; i++) {
    if (strcmp(name, mapf_rows[i].info.name) == 0) {
      *out = (astar_mapf_algo)i;
      return ASTAR_OK;
    }
  }
  return ASTAR_INVALID_ARGUMENT;
}

/* ---- options ------------------------------------------------------------------------ */

#define MAPF__STEPS_MAX (1u << 28) /* max_steps and window: ASTAR_TIME_MAX */

void astar_mapf_options_init(astar_mapf_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->algo = ASTAR_MAPF_LACAM_STAR;
  o->w = 1.2;
}

/* Every field in its range (NaN fails every comparison, so it is refused). */
static bool options_ok(const astar_mapf_options *o) {
  if ((unsigned)o->algo >= ASTAR_MAPF_ALGO_COUNT) return false;
  if (!(o->w >= 1.0 && o->w <= 1000.0)) return false;
  if (!(o->time_limit >= 0.0 && o->time_limit <= 1e6)) return false;
  if (o->max_steps > MAPF__STEPS_MAX || o->window > MAPF__STEPS_MAX) return false;
  return true;
}

/* ---- the solver and its memory -------------------------------------------------------- */

struct astar_mapf_solver {
  astar_allocator alloc;
  void *slot[MAPF_SCRATCH_SLOTS];
  size_t slot_bytes[MAPF_SCRATCH_SLOTS];
  size_t memory; /* held now: this struct, the slots, a solve's blocks */
  size_t peak;   /* the most held during the current / last solve */
};

astar_status astar_mapf_solver_new(astar_mapf_solver **out, const astar_allocator *alloc) {
  if (!out) return ASTAR_INVALID_ARGUMENT;
  *out = NULL;
  astar_allocator a;
  astar__alloc_init(&a, alloc);
  astar_mapf_solver *s = astar__calloc(&a, 1, sizeof *s);
  if (!s) return ASTAR_NO_MEMORY;
  s->alloc = a;
  s->memory = s->peak = sizeof *s;
  *out = s;
  return ASTAR_OK;
}

static void release_slots(astar_mapf_solver *s) {
  for (unsigned i = 0; i < MAPF_SCRATCH_SLOTS; i++) {
    astar__free(&s->alloc, s->slot[i], s->slot_bytes[i]);
    s->memory -= s->slot_bytes[i];
    s->slot[i] = NULL;
    s->slot_bytes[i] = 0;
  }
}

void astar_mapf_solver_free(astar_mapf_solver *s) {
  if (!s) return;
  release_slots(s);
  astar_allocator a = s->alloc;
  astar__free(&a, s, sizeof *s);
}

size_t astar_mapf_solver_memory(const astar_mapf_solver *s) {
  return s ? s->memory : 0;
}

/* Would `more` bytes go over options.max_memory? */
static bool would_exceed(const mapf_ctx *c, size_t more) {
  const size_t cap = c->o->max_memory;
  return cap != 0 && (c->solver->memory > cap || more > cap - c->solver->memory);
}

/* The same, latching c->over_memory when so (a refusal). */
static bool over_memory(mapf_ctx *c, size_t more) {
  if (!would_exceed(c, more)) return false;
  c->over_memory = true;
  return true;
}

static void count(astar_mapf_solver *s, size_t add, size_t sub) {
  s->memory = s->memory + add - sub;
  if (s->memory > s->peak) s->peak = s->memory;
}

/* The allocator handed to library objects made during a solve: the
** solver's, counted and capped. */
static void *counted_fn(void *ud, void *ptr, size_t osize, size_t nsize) {
  mapf_ctx *c = ud;
  astar_mapf_solver *s = c->solver;
  if (!ptr) osize = 0;
  if (nsize == 0) {
    if (ptr) {
      s->alloc.fn(s->alloc.ud, ptr, osize, 0);
      count(s, 0, osize);
    }
    return NULL;
  }
  if (nsize > osize && over_memory(c, nsize - osize)) return NULL;
  void *q = s->alloc.fn(s->alloc.ud, ptr, osize, nsize);
  if (q) count(s, nsize, osize);
  return q;
}

astar_allocator mapf_allocator(mapf_ctx *c) {
  return (astar_allocator){counted_fn, c};
}

void *mapf_alloc(mapf_ctx *c, size_t bytes, astar_status *st) {
  return mapf_realloc(c, NULL, 0, bytes, st);
}

void *mapf_realloc(mapf_ctx *c, void *p, size_t old_bytes, size_t new_bytes, astar_status *st) {
  if (new_bytes == 0) {
    *st = ASTAR_INVALID_ARGUMENT;
    return NULL;
  }
  void *q = counted_fn(c, p, old_bytes, new_bytes);
  if (!q) *st = c->over_memory ? ASTAR_LIMIT_REACHED : ASTAR_NO_MEMORY;
  return q;
}

void mapf_free(mapf_ctx *c, void *p, size_t bytes) {
  if (p) counted_fn(c, p, bytes, 0);
}

void *mapf_scratch(mapf_ctx *c, unsigned slot, size_t bytes, astar_status *st) {
  astar_mapf_solver *s = c->solver;
  if (slot >= MAPF_SCRATCH_SLOTS || bytes == 0) {
    *st = ASTAR_INVALID_ARGUMENT;
    return NULL;
  }
  if (s->slot_bytes[slot] >= bytes) return s->slot[slot];
  size_t want = s->slot_bytes[slot] + s->slot_bytes[slot] / 2; /* amortised growth */
  if (want < bytes) want = bytes;
  if (would_exceed(c, want - s->slot_bytes[slot])) {
    want = bytes; /* at least what was asked, if that fits */
    if (over_memory(c, want - s->slot_bytes[slot])) {
      *st = ASTAR_LIMIT_REACHED;
      return NULL;
    }
  }
  void *q = s->alloc.fn(s->alloc.ud, s->slot[slot], s->slot_bytes[slot], want);
  if (!q) {
    *st = ASTAR_NO_MEMORY;
    return NULL;
  }
  count(s, want, s->slot_bytes[slot]);
  s->slot[slot] = q;
  s->slot_bytes[slot] = want;
  return q;
}

/* ---- time and limits ------------------------------------------------------------------ */

/* Seconds on the system's monotonic clock (reading a clock is not I/O). */
static double monotonic_seconds(void *ud) {
  (void)ud;
#if defined(_WIN32)
  LARGE_INTEGER f, t;
  QueryPerformanceFrequency(&f);
  QueryPerformanceCounter(&t);
  return (double)t.QuadPart / (double)f.QuadPart;
#elif defined(CLOCK_MONOTONIC)
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#else
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#endif
}

static double now(const mapf_ctx *c) {
  return c->o->clock ? c->o->clock(c->o->clock_ud) : monotonic_seconds(NULL);
}

double mapf_elapsed(mapf_ctx *c) {
  return now(c) - c->t_begin;
}

bool mapf_out_of_limits(mapf_ctx *c, uint64_t work_done) {
  const astar_mapf_options *o = c->o;
  if (o->max_work && work_done >= o->max_work) return true;
  if (c->over_memory) return true;
  if (o->time_limit > 0) {
    if (c->out_of_time) return true;
    if (c->tick++ % 1024 == 0 && mapf_elapsed(c) >= o->time_limit) c->out_of_time = true;
    return c->out_of_time;
  }
  return false;
}

void mapf_report_solution(mapf_ctx *c) {
  const double t = mapf_elapsed(c);
  if (c->stats->time_first < 0) c->stats->time_first = t;
  c->stats->improvements++;
  if (c->o->on_improve)
    c->o->on_improve(c->o->improve_ud, astar_mapf_solution_sum_of_costs(c->out), t);
}

/* ---- solving ----------------------------------------------------------------------------- */

astar_status astar_mapf_solve(astar_mapf_solver *s, const astar_mapf_problem *p,
                              const astar_mapf_options *o, astar_mapf_solution *out,
                              astar_mapf_stats *stats) {
  astar_mapf_stats local;
  if (!stats) stats = &local;
  memset(stats, 0, sizeof *stats);
  stats->time_first = -1;
  astar_mapf_options defaults;
  if (!o) {
    astar_mapf_options_init(&defaults);
    o = &defaults;
  }
  if (!s || !p || !out || astar_mapf_solution_agents(out) != p->n || !options_ok(o))
    return ASTAR_INVALID_ARGUMENT;
  astar_mapf_solution_clear(out);

  mapf_ctx c;
  memset(&c, 0, sizeof c);
  c.p = p;
  c.o = o;
  c.solver = s;
  c.out = out;
  c.stats = stats;
  c.t_begin = now(&c);
  /* scratch kept from an earlier, larger solve must not count against
  ** this one's cap */
  if (o->max_memory && s->memory > o->max_memory) release_slots(s);
  s->peak = s->memory;

  const mapf_row *row = &mapf_rows[o->algo];
  astar_status st = ASTAR_OK;
  if (!row->entry) st = ASTAR_UNSUPPORTED;
  if (st == ASTAR_OK) st = mapf_dist_new(&c);
  /* the lower bound from the distance tables (which the solvers want
  ** anyway): an agent that cannot reach its goal ends the solve */
  for (uint32_t i = 0; st == ASTAR_OK && i < p->n; i++) {
    const uint32_t d = mapf_dist_get(&c, i, p->start[i], &st);
    if (st != ASTAR_OK) break;
    if (d == MAPF_DIST_INF) st = ASTAR_NO_PATH;
    stats->lower_bound += d;
  }
  if (st == ASTAR_OK) {
    stats->bound = (double)stats->lower_bound;
    st = row->entry(&c);
  }
  if (c.dist) mapf_dist_free(&c);
  if (st == ASTAR_OK) {
    stats->solved = true;
    stats->sum_of_costs = astar_mapf_solution_sum_of_costs(out);
    stats->makespan = astar_mapf_solution_makespan(out);
  } else {
    stats->optimal = false;
    astar_mapf_solution_clear(out);
  }
  if (st == ASTAR_NO_PATH || st == ASTAR_UNSUPPORTED) stats->lower_bound = 0;
  stats->peak_memory = s->peak;
  stats->time_total = mapf_elapsed(&c);
  return st;
}
