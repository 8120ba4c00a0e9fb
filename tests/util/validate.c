/*
** validate.c -- independent path checker. Written from the text of
** astar/search.h only, so that a misreading in the library and a misreading
** here are unlikely to coincide.
*/
#include "util/validate.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

static void say(char *err, size_t cap, const char *fmt, ...) {
  if (!err || cap == 0) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, cap, fmt, ap);
  va_end(ap);
}

static const astar_options *opts_or_default(const astar_options *opt, astar_options *tmp) {
  if (opt) return opt;
  /* The documented defaults, spelled out rather than taken from the library. */
  tmp->moves = 8;
  tmp->corner = ASTAR_CORNER_NO_CUT;
  tmp->straight_cost = 1.0;
  tmp->diagonal_cost = sqrt(2.0);
  tmp->heuristic = ASTAR_H_AUTO;
  tmp->heuristic_fn = NULL;
  tmp->heuristic_ctx = NULL;
  tmp->weight = 1.0;
  tmp->tie = ASTAR_TIE_LARGER_G;
  tmp->reopen = ASTAR_REOPEN_AUTO;
  tmp->max_expansions = 0;
  return tmp;
}

static int in_bounds(const astar_grid *g, astar_point p) {
  return p.x >= 0 && p.y >= 0 && p.x < astar_grid_width(g) && p.y < astar_grid_height(g);
}

static int cell_ok(const astar_grid *g, astar_point p, const char *what, size_t i, char *err,
                   size_t cap) {
  if (!in_bounds(g, p)) {
    say(err, cap, "%s cell %zu (%d,%d) is outside the %dx%d grid", what, i, (int)p.x, (int)p.y,
        (int)astar_grid_width(g), (int)astar_grid_height(g));
    return 0;
  }
  if (!astar_grid_passable(g, p.x, p.y)) {
    say(err, cap, "%s cell %zu (%d,%d) is blocked", what, i, (int)p.x, (int)p.y);
    return 0;
  }
  return 1;
}

int validate_step(const astar_grid *g, const astar_options *opt, astar_point a, astar_point b,
                  double *cost, char *err, size_t cap) {
  astar_options tmp;
  opt = opts_or_default(opt, &tmp);
  if (!in_bounds(g, b)) {
    say(err, cap, "(%d,%d) is outside the grid", (int)b.x, (int)b.y);
    return 0;
  }
  if (!astar_grid_passable(g, b.x, b.y)) {
    say(err, cap, "(%d,%d) is blocked", (int)b.x, (int)b.y);
    return 0;
  }
  int64_t dx = (int64_t)b.x - a.x, dy = (int64_t)b.y - a.y;
  int64_t adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
  if (adx > 1 || ady > 1 || (adx == 0 && ady == 0)) {
    say(err, cap, "(%d,%d) -> (%d,%d) is not a move to a neighbour", (int)a.x, (int)a.y, (int)b.x,
        (int)b.y);
    return 0;
  }
  double base = opt->straight_cost;
  if (adx == 1 && ady == 1) {
    if (opt->moves != 8) {
      say(err, cap, "(%d,%d) -> (%d,%d) is diagonal with %d moves", (int)a.x, (int)a.y, (int)b.x,
          (int)b.y, opt->moves);
      return 0;
    }
    /* The side cells share a side with both a and b. */
    int s1 = astar_grid_passable(g, b.x, a.y), s2 = astar_grid_passable(g, a.x, b.y);
    int blocked = !s1 + !s2;
    int allowed;
    switch (opt->corner) {
    case ASTAR_CORNER_NO_CUT:
      allowed = blocked == 0;
      break;
    case ASTAR_CORNER_ALWAYS:
      allowed = 1;
      break;
    case ASTAR_CORNER_ONE_SIDE:
      allowed = blocked <= 1;
      break;
    default:
      allowed = 0;
      break;
    }
    if (!allowed) {
      say(err, cap, "(%d,%d) -> (%d,%d) cuts a corner (%d side cell(s) blocked, rule %d)", (int)a.x,
          (int)a.y, (int)b.x, (int)b.y, blocked, (int)opt->corner);
      return 0;
    }
    base = opt->diagonal_cost;
  }
  if (cost) *cost = base * (double)astar_grid_terrain(g, b.x, b.y);
  return 1;
}

int validate_walk(const astar_grid *g, const astar_options *opt, const astar_point *path, size_t n,
                  double *cost, size_t *bad, char *err, size_t cap) {
  char why[160];
  double sum = 0;
  if (n == 0 || !path) {
    if (bad) *bad = 0;
    say(err, cap, "empty path");
    return 0;
  }
  if (!cell_ok(g, path[0], "first", 0, err, cap)) {
    if (bad) *bad = 0;
    return 0;
  }
  for (size_t i = 1; i < n; i++) {
    double c;
    if (!validate_step(g, opt, path[i - 1], path[i], &c, why, sizeof why)) {
      if (bad) *bad = i;
      say(err, cap, "step %zu: %s", i, why);
      return 0;
    }
    sum += c;
  }
  if (cost) *cost = sum;
  return 1;
}

int cost_equal(double a, double b) {
  double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
  if (m < 1e-300) m = 1e-300;
  return fabs(a - b) <= 1e-9 * m;
}

int validate_path(const astar_grid *g, const astar_options *opt, astar_point start,
                  astar_point goal, const astar_point *path, size_t n, double claimed, char *err,
                  size_t cap) {
  double sum;
  if (!validate_walk(g, opt, path, n, &sum, NULL, err, cap)) return 0;
  if (path[0].x != start.x || path[0].y != start.y) {
    say(err, cap, "path starts at (%d,%d), not at the start (%d,%d)", (int)path[0].x,
        (int)path[0].y, (int)start.x, (int)start.y);
    return 0;
  }
  if (path[n - 1].x != goal.x || path[n - 1].y != goal.y) {
    say(err, cap, "path ends at (%d,%d), not at the goal (%d,%d)", (int)path[n - 1].x,
        (int)path[n - 1].y, (int)goal.x, (int)goal.y);
    return 0;
  }
  if (!cost_equal(sum, claimed)) {
    say(err, cap, "claimed cost %.17g but the %zu-cell path costs %.17g", claimed, n, sum);
    return 0;
  }
  return 1;
}
