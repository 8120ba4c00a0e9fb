/*
** engine/dynamic.c -- dynamic weighting (Patel 4.3; Pohl 1973): A* with
** f(n) = g(n) + w(n) h(n), where the weight falls as the search gets
** nearer the goal: early on it runs toward the goal like weighted A*, near
** the goal it weighs the true cost. Pohl's weight is
**     w(n) = 1 + epsilon max(0, 1 - d(n) / N)
** for a depth d(n) and an anticipated depth N. Here N = h(start) and the
** depth is the progress the heuristic credits n with, d(n) = max(0, N -
** h(n)), so that
**     w(n) = 1 + epsilon min(1, h(n) / N)          (w = 1 when N = 0):
** 1 + epsilon at the start and beyond, falling to 1 at the goal. The loop
** is the A* loop of search.c, which weighs each generated node's h with
** astar__engine_w (engine.h); this file sets it up.
**
** Why not d = g (the depth in cost)? Then f = g + (1 + epsilon (1 - g/N)) h
** decreases in g wherever epsilon h > N: a node reached by a longer path
** gets a lower weight and often a lower f, the search prefers detours and
** reopens without end (measured on the Moving AI dao maps: 4x to 200x the
** expansions of A* for epsilon 0.5 to 2). With d from h, f grows with g as
** in A*.
**
** The bound C <= (1 + epsilon) C* (h admissible, closed nodes reopened: the
** default, ASTAR_REOPEN_AUTO). Let P be an optimal path. Until the goal is
** expanded, some open node n of P has its optimal g(n) = g*(n): the start
** does, and a node of P closed with its optimal g generated its successor
** on P with the successor's optimal g, which then is open (or was
** reopened). Its key f(n) = g*(n) + w(n) h(n) <= g*(n) + (1 + epsilon) h*(n)
** <= (1 + epsilon) (g*(n) + h*(n)) = (1 + epsilon) C*, since w <= 1 +
** epsilon and h <= h*. The goal t is expanded with the least key, so g(t)
** <= f(t) <= f(n) <= (1 + epsilon) C*.
**
** Without reopening (ASTAR_REOPEN_NEVER), for a consistent heuristic: C <=
** (1 + 2 epsilon) C*. The weighted heuristic phi(h) = w h = h + epsilon h
** min(h, N) / N grows with h with slope at most L = 1 + 2 epsilon, so
** phi(h(a)) <= phi(h(b)) + L c(a, b) for every arc. Then every node s is
** expanded with g(s) <= L g*(s) (by induction over expansions: on an
** optimal path to s, the first node s_i not closed has g(s_i) <= L
** g*(s_i) from its closed predecessor; s is taken before s_i, so g(s) +
** phi(h(s)) <= g(s_i) + phi(h(s_i)) <= L g*(s_i) + phi(h(s)) + L c*(s_i,
** s) = L g*(s) + phi(h(s))). This is the faster setting (fewer expansions
** than A* on game maps; docs/performance.md); the default keeps the
** tighter bound for any admissible heuristic.
*/
#include "core/workspace.h"
#include "engine/engine.h"

void astar__dynamic_begin(astar__engine *e) {
  const double n = astar__engine_h(e, e->start);
  e->weight = 1.0;
  if (n > 0.0 && n <= DBL_MAX && e->opt.epsilon > 0.0) {
    e->dyn_eps = e->opt.epsilon;
    e->dyn_inv_n = 1.0 / n;
  }
}
