/*
** engine/bandwidth.c -- bandwidth search (Patel 4.4; Harris 1974): A* for
** a heuristic known to lie in a band around the true remaining cost h*,
**     h* (n) - d <= h(n) <= h*(n) + e         (options band_d, band_e),
** with two properties:
**   1. the path costs C <= C* + e;
**   2. a node generated with f > f_min + e + d, f_min the key of the node
**      being expanded, can be dropped without losing property 1.
** The loop is the A* loop of search.c (weight 1, closed nodes reopened),
** whose drop rule compares each generated node's f with the expanded
** node's f + e->band; this file sets the band.
**
** Proof sketch. Let P be an optimal path. As for A* with reopening, until
** the goal is expanded some open node n of P has its optimal g (a node of
** P closed with its optimal g generated its successor on P with the
** successor's optimal g). Its key f(n) = g*(n) + h(n) <= g*(n) + h*(n) + e
** = C* + e. (1) The goal t is expanded with the least key, and h(t) >= 0,
** so g(t) <= f(t) <= f(n) <= C* + e. (2) The node m being expanded has
** g(m) at least the cost of some path to m, and any path through m costs
** at least C*, so f(m) = g(m) + h(m) >= g(m) + h*(m) - d >= C* - d; hence
** f(m) + e + d >= C* + e >= f(n) for every node n of P with its optimal g:
** such a node is never dropped, and the invariant of (1) holds. (The band
** can only hold for nodes from which the goal is reachable; a node from
** which it is not has only such successors, none of them on P, so what it
** drops does not matter.) A dropped
** entry is forgotten: a node dropped when new stays unreached and may come
** back with any g; an open node keeps its older key; a closed one stays
** closed. If the heuristic leaves the band the bound is void and the goal
** may be lost: ASTAR_NO_PATH with result.dropped > 0.
*/
#include "core/workspace.h"
#include "engine/engine.h"

void astar__bandwidth_begin(astar__engine *e) {
  e->weight = 1.0;
  e->band = e->opt.band_e + e->opt.band_d;
}
