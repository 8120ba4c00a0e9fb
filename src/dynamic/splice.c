/*
** dynamic/splice.c -- path splicing (Patel 5.2) and re-costing
** (astar/splice.h). The old path is scanned once from the unit's cell;
** legal steps are copied to the output as they are, and at each break the
** output is rewound to the local start `a` and a bounded A* from a to b is
** written there directly -- so the output is built in one pass, no
** scratch buffer. When the output does not fit, the scan goes on counting
** cells only (searches with cap 0 report their lengths): the decisions
** depend on the old path and the grid, never on the cells written, so the
** needed length is exact.
*/
#include <math.h>
#include <stdlib.h>

#include "core/internal.h"

#include "astar/splice.h"

void astar_splice_options_init(astar_splice_options *sopt) {
  if (!sopt) return;
  *sopt = (astar_splice_options){0};
  sopt->before = 4;
  sopt->after = 8;
  sopt->max_expansions = 0;
  sopt->max_ratio = 1.5;
  sopt->max_splices = 0;
  sopt->no_fallback = false;
}

/* Is a -> b a legal move now? *cost receives its cost (astar_path_cost's
** model; the caller has ruled out turn penalties). */
static bool step_ok(const astar_grid *grid, const astar_options *opt, astar_point a, astar_point b,
                    double *cost) {
  const astar_point two[2] = {a, b};
  return astar_path_cost(grid, opt, two, 2, cost, NULL) == ASTAR_OK;
}

/* Nominal cost of the step a -> b for the length check: move cost times the
** entered cell's terrain, passable or not; a non-unit step counts as the
** octile distance (at terrain 1). */
static double nominal_step(const astar_grid *grid, const astar_options *opt, astar_point a,
                           astar_point b) {
  const int64_t dx = llabs((long long)b.x - a.x), dy = llabs((long long)b.y - a.y);
  if (dx <= 1 && dy <= 1) {
    const double c = (dx && dy) ? opt->diagonal_cost : opt->straight_cost;
    const float t = astar_grid_terrain(grid, b.x, b.y);
    return t > 0.0f ? c * (double)t : c;
  }
  const int64_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
  return opt->diagonal_cost * (double)lo + opt->straight_cost * (double)(hi - lo);
}

static bool unsupported(const astar_options *opt) {
  return opt->turn_penalty > 0.0 || opt->nlayers > 0 || opt->knowledge != NULL ||
         opt->terrain_scale != 1.0;
}

static uint64_t local_budget(const astar_splice_options *sopt, size_t cells) {
  if (sopt->max_expansions) return sopt->max_expansions;
  const uint64_t c = (uint64_t)cells;
  const uint64_t auto_budget = c > (UINT64_C(1) << 28) ? UINT64_MAX / 2 : 32u * c * c;
  return auto_budget < 256u ? 256u : auto_budget;
}

/* Write cell p at output index k when it fits. */
static void put(astar_point *buf, size_t cap, size_t k, astar_point p) {
  if (k < cap) buf[k] = p;
}

astar_status astar_path_splice(astar_workspace *ws, const astar_grid *grid,
                               const astar_options *opt, const astar_splice_options *sopt,
                               const astar_point *path, size_t n, size_t pos, astar_point *buf,
                               size_t cap, size_t *len, astar_repair *rep) {
  astar_repair r = {0};
  astar_options defaults, lo;
  astar_splice_options sdef;
  r.kind = ASTAR_REPAIR_GAVE_UP;
  r.full_status = ASTAR_OK;
  r.first_break = n ? n - 1 : 0;
  if (len) *len = 0;
  if (rep) *rep = r;
  if (!ws || !grid || !path || !len || (!buf && cap > 0) || n == 0 || pos >= n)
    return ASTAR_INVALID_ARGUMENT;
  if (!opt) {
    astar_options_init(&defaults);
    opt = &defaults;
  }
  if (!sopt) {
    astar_splice_options_init(&sdef);
    sopt = &sdef;
  }
  if (astar_options_validate(opt) != ASTAR_OK || !(sopt->max_ratio >= 0.0) ||
      !isfinite(sopt->max_ratio))
    return ASTAR_INVALID_ARGUMENT;
  if (unsupported(opt)) return ASTAR_UNSUPPORTED;

  const astar_point unit = path[pos], goal = path[n - 1];
  if (!astar_grid_contains(grid, unit.x, unit.y) || !astar_grid_contains(grid, goal.x, goal.y))
    return ASTAR_OUT_OF_BOUNDS;
  if (!astar_grid_passable(grid, unit.x, unit.y) || !astar_grid_passable(grid, goal.x, goal.y)) {
    r.kind = ASTAR_REPAIR_BLOCKED;
    if (rep) *rep = r;
    return astar_grid_passable(grid, unit.x, unit.y) ? ASTAR_GOAL_BLOCKED : ASTAR_START_BLOCKED;
  }
  lo = *opt;
  lo.partial = false;
  lo.retarget = false;

  /* Invariant of the scan: path[anchor .. i] is legal and sits at output
  ** indices out_anchor .. out_anchor + (i - anchor); out = cells so far. */
  size_t i = pos, anchor = pos, out_anchor = 0, out = 1;
  double acc = 0.0; /* cost of the output so far (rounding aside) */
  double acc_anchor = 0.0;
  bool broke = false, need_full = false;
  astar_result res;
  put(buf, cap, 0, unit);
  while (i < n - 1) {
    double c;
    if (step_ok(grid, opt, path[i], path[i + 1], &c)) {
      put(buf, cap, out++, path[i + 1]);
      acc += c;
      i++;
      continue;
    }
    const size_t j = i;
    if (!broke) r.first_break = j;
    broke = true;
    if (sopt->max_splices && r.splices >= sopt->max_splices) {
      need_full = true;
      break;
    }
    const size_t a = j - anchor > sopt->before ? j - sopt->before : anchor;
    size_t b = (n - 1) - (j + 1) > sopt->after ? j + 1 + sopt->after : n - 1;
    while (b < n - 1 && !astar_grid_passable(grid, path[b].x, path[b].y)) b++;
    double nominal = 0.0;
    for (size_t k = a; k < b; k++) nominal += nominal_step(grid, opt, path[k], path[k + 1]);
    /* Output index of a, and the cost up to it: re-sum the kept steps. */
    const size_t out_a = out_anchor + (a - anchor);
    double acc_a = acc_anchor;
    for (size_t k = anchor; k < a; k++) {
      double sc = 0.0;
      (void)step_ok(grid, opt, path[k], path[k + 1], &sc);
      acc_a += sc;
    }
    lo.max_expansions = local_budget(sopt, b - a + 1);
    const astar_status s =
        astar_find_path(ws, grid, &lo, path[a], path[b], out_a < cap ? buf + out_a : NULL,
                        out_a < cap ? cap - out_a : 0, &res);
    r.local_searches++;
    r.expanded += res.stats.expanded;
    if (s == ASTAR_OK || s == ASTAR_BUFFER_TOO_SMALL) {
      if (!(res.cost <= sopt->max_ratio * nominal)) {
        r.length_check_failed = true;
        need_full = true;
        break;
      }
      r.splices++;
      out = out_a + res.length;
      acc = acc_a + res.cost;
      anchor = i = b;
      out_anchor = out - 1;
      acc_anchor = acc;
      continue;
    }
    if (s == ASTAR_NO_PATH || s == ASTAR_LIMIT_REACHED) {
      need_full = true;
      break;
    }
    r.kind = ASTAR_REPAIR_GAVE_UP;
    if (rep) *rep = r;
    return s; /* ASTAR_CAPACITY, ASTAR_STALE, ASTAR_MISMATCH, ... */
  }

  if (need_full) {
    r.splices = 0;
    if (sopt->no_fallback) {
      r.kind = ASTAR_REPAIR_GAVE_UP;
      if (rep) *rep = r;
      return ASTAR_NO_PATH;
    }
    lo.max_expansions = opt->max_expansions;
    const astar_status s = astar_find_path(ws, grid, &lo, unit, goal, buf, cap, &res);
    r.expanded += res.stats.expanded;
    r.full_status = s;
    if (s != ASTAR_OK && s != ASTAR_BUFFER_TOO_SMALL) {
      r.kind = ASTAR_REPAIR_GAVE_UP;
      if (rep) *rep = r;
      return s;
    }
    r.kind = ASTAR_REPAIR_FULL;
    out = res.length;
    acc = res.cost;
  } else {
    r.kind = broke ? ASTAR_REPAIR_SPLICED : ASTAR_REPAIR_INTACT;
  }
  r.length = out;
  *len = out;
  if (out > cap) {
    r.cost = acc;
    if (rep) *rep = r;
    return ASTAR_BUFFER_TOO_SMALL;
  }
  /* The exact cost in path order, as astar_path_cost sums it. */
  if (astar_path_cost(grid, opt, buf, out, &r.cost, NULL) != ASTAR_OK) r.cost = acc;
  if (rep) *rep = r;
  return ASTAR_OK;
}

astar_status astar_path_recost(const astar_grid *grid, const astar_options *opt,
                               const astar_point *path, size_t n, size_t pos, double *cost,
                               size_t *first_break) {
  if (first_break) *first_break = n ? n - 1 : 0;
  if (!grid || !path || !cost || n == 0 || pos >= n) return ASTAR_INVALID_ARGUMENT;
  *cost = 0.0;
  if (opt && astar_options_validate(opt) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
  size_t bad = 0;
  double c = 0.0;
  const astar_status s = astar_path_cost(grid, opt, path + pos, n - pos, &c, &bad);
  if (s == ASTAR_OK) {
    *cost = c;
    return ASTAR_OK;
  }
  /* bad is the first offending cell: the step into it (bad >= 1) broke, or
  ** the unit's own cell (bad == 0). */
  if (first_break) *first_break = pos + (bad ? bad - 1 : 0);
  return ASTAR_STALE;
}
