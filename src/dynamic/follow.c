/*
** dynamic/follow.c -- a unit following a path and its recompute policy
** (astar/replan.h). The follower owns two caller arrays: `path`, the one
** walked, and `spare`, where the next plan is written (a queue request's
** buffer, a search's or a splice's output); adopting a plan swaps them, so
** a plan never overwrites the path the unit is still walking.
*/
#include <string.h>

#include "core/internal.h"

#include "astar/replan.h"

static bool same(astar_point a, astar_point b) {
  return a.x == b.x && a.y == b.y;
}

astar_status astar_follow_init(astar_follow *f, astar_point *path, astar_point *spare, size_t cap,
                               astar_point cell, astar_point goal) {
  if (!f || !path || !spare || path == spare || cap == 0) return ASTAR_INVALID_ARGUMENT;
  *f = (astar_follow){0};
  f->path = path;
  f->spare = spare;
  f->cap = cap;
  f->cell = cell;
  f->goal = goal;
  return ASTAR_OK;
}

astar_status astar_follow_set_goal(astar_follow *f, astar_point goal) {
  if (!f) return ASTAR_INVALID_ARGUMENT;
  f->goal = goal;
  f->len = f->pos = 0;
  f->blocked = f->changed = false;
  return ASTAR_OK;
}

/* The plan now in spare[0 .. n-1] becomes the path, from index `from`. */
static void take_spare(astar_follow *f, size_t n, size_t from) {
  astar_point *t = f->path;
  f->path = f->spare;
  f->spare = t;
  f->len = n;
  f->pos = from;
  f->since_plan = 0;
  f->changed = f->blocked = false;
  f->replans++;
}

static void drop_path(astar_follow *f) {
  f->len = f->pos = 0;
  f->blocked = false;
}

astar_status astar_follow_adopt_path(astar_follow *f, const astar_point *path, size_t n) {
  if (!f || !path || n == 0 || f->pending || !same(path[0], f->cell) || !same(path[n - 1], f->goal))
    return ASTAR_INVALID_ARGUMENT;
  if (n > f->cap) return ASTAR_BUFFER_TOO_SMALL;
  memcpy(f->spare, path, n * sizeof *path);
  take_spare(f, n, 0);
  return ASTAR_OK;
}

void astar_follow_mark_changed(astar_follow *f) {
  if (f) f->changed = true;
}

bool astar_follow_arrived(const astar_follow *f) {
  return f && same(f->cell, f->goal);
}

bool astar_follow_at_turn(const astar_follow *f) {
  if (!f || f->len == 0 || f->pos == 0 || f->pos + 1 >= f->len) return false;
  const astar_point a = f->path[f->pos - 1], b = f->path[f->pos], c = f->path[f->pos + 1];
  return b.x - a.x != c.x - b.x || b.y - a.y != c.y - b.y;
}

astar_replan_reason astar_follow_due(const astar_follow *f, const astar_replan_policy *policy) {
  if (!f || f->pending || astar_follow_arrived(f)) return ASTAR_REPLAN_NONE;
  if (f->len == 0) return ASTAR_REPLAN_NO_PATH;
  if (f->blocked) return ASTAR_REPLAN_BLOCKED;
  if (!policy || f->since_plan < policy->min_steps) return ASTAR_REPLAN_NONE;
  if ((policy->triggers & ASTAR_REPLAN_ON_CHANGE) && f->changed) return ASTAR_REPLAN_CHANGED;
  if ((policy->triggers & ASTAR_REPLAN_ON_EVERY) && policy->every > 0 &&
      f->since_plan >= policy->every)
    return ASTAR_REPLAN_EVERY;
  if ((policy->triggers & ASTAR_REPLAN_ON_TURN) && astar_follow_at_turn(f))
    return ASTAR_REPLAN_TURN;
  return ASTAR_REPLAN_NONE;
}

astar_status astar_follow_step(astar_follow *f, const astar_grid *grid, const astar_options *opt) {
  if (!f || !grid) return ASTAR_INVALID_ARGUMENT;
  if (opt && astar_options_validate(opt) != ASTAR_OK) return ASTAR_INVALID_ARGUMENT;
  if (f->len == 0) return ASTAR_NO_PATH;
  if (f->pos + 1 >= f->len || astar_follow_arrived(f)) return ASTAR_OK;
  const astar_point two[2] = {f->path[f->pos], f->path[f->pos + 1]};
  double c = 0.0;
  if (astar_path_cost(grid, opt, two, 2, &c, NULL) != ASTAR_OK) {
    f->blocked = true;
    f->blocked_steps++;
    return ASTAR_STALE;
  }
  f->pos++;
  f->cell = two[1];
  f->steps++;
  f->since_plan++;
  f->walked_cost += c;
  f->blocked = false;
  return ASTAR_OK;
}

astar_status astar_follow_submit(astar_follow *f, const astar_replan_policy *policy,
                                 astar_queue *queue, const astar_options *opt, int priority,
                                 void *user, astar_replan_reason *reason) {
  if (reason) *reason = ASTAR_REPLAN_NONE;
  if (!f || !queue) return ASTAR_INVALID_ARGUMENT;
  const astar_replan_reason why = astar_follow_due(f, policy);
  if (why == ASTAR_REPLAN_NONE) return ASTAR_OK;
  astar_request req = {0};
  req.start = f->cell;
  req.goal = f->goal;
  req.opt = opt;
  req.priority = priority;
  req.path = f->spare;
  req.cap = f->cap;
  req.user = user;
  astar_request_id id = 0;
  const astar_status s = astar_queue_submit_request(queue, &req, &id);
  if (s != ASTAR_OK) return s;
  f->pending = true;
  f->request = id;
  if (reason) *reason = why;
  return ASTAR_OK;
}

static bool drops_path(astar_status s) {
  return s == ASTAR_NO_PATH || s == ASTAR_GOAL_BLOCKED || s == ASTAR_START_BLOCKED;
}

astar_status astar_follow_adopt(astar_follow *f, const astar_request_done *done) {
  if (!f || !done || !f->pending || done->id != f->request) return ASTAR_INVALID_ARGUMENT;
  f->pending = false;
  f->request = 0;
  if (done->status == ASTAR_OK && done->len > 0) {
    /* The plan starts where the unit stood at submission; take it up from
    ** the unit's cell now. */
    for (size_t k = 0; k < done->len; k++)
      if (same(f->spare[k], f->cell)) {
        take_spare(f, done->len, k);
        return done->status;
      }
    f->dropped++;
    return done->status;
  }
  if (drops_path(done->status)) drop_path(f);
  return done->status;
}

astar_status astar_follow_plan(astar_follow *f, astar_workspace *ws, const astar_grid *grid,
                               const astar_options *opt, astar_result *result) {
  if (!f || f->pending) return ASTAR_INVALID_ARGUMENT;
  astar_result r;
  const astar_status s = astar_find_path(ws, grid, opt, f->cell, f->goal, f->spare, f->cap, &r);
  if (result) *result = r;
  if (s == ASTAR_OK)
    take_spare(f, r.length, 0);
  else if (drops_path(s))
    drop_path(f);
  return s;
}

astar_status astar_follow_splice(astar_follow *f, astar_workspace *ws, const astar_grid *grid,
                                 const astar_options *opt, const astar_splice_options *sopt,
                                 astar_repair *rep) {
  if (!f || f->pending) return ASTAR_INVALID_ARGUMENT;
  if (f->len == 0) {
    astar_result r;
    const astar_status s = astar_follow_plan(f, ws, grid, opt, &r);
    if (rep) {
      *rep = (astar_repair){0};
      rep->kind = s == ASTAR_OK ? ASTAR_REPAIR_FULL : ASTAR_REPAIR_GAVE_UP;
      rep->cost = s == ASTAR_OK ? r.cost : 0.0;
      rep->length = s == ASTAR_OK ? r.length : 0;
      rep->expanded = r.stats.expanded;
      rep->full_status = s;
    }
    return s;
  }
  size_t n = 0;
  const astar_status s =
      astar_path_splice(ws, grid, opt, sopt, f->path, f->len, f->pos, f->spare, f->cap, &n, rep);
  if (s == ASTAR_OK)
    take_spare(f, n, 0);
  else if (drops_path(s))
    drop_path(f);
  return s;
}
