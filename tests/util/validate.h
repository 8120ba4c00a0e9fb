/*
** validate.h -- an independent path checker for the tests. It re-derives the
** movement model of astar/search.h from scratch (it never calls
** astar_path_cost, which the tests check against it).
*/
#ifndef ASTAR_TEST_VALIDATE_H
#define ASTAR_TEST_VALIDATE_H

#include <astar/astar.h>

/* Is the single move a -> b legal under `opt` on `g`: b in bounds and
** passable, a and b adjacent, diagonal allowed by moves and the corner rule?
** On success *cost (if not NULL) receives the move's cost. On failure the
** reason goes to err (cap bytes, may be NULL). Does not check a itself. */
int validate_step(const astar_grid *g, const astar_options *opt, astar_point a, astar_point b,
                  double *cost, char *err, size_t cap);

/* Check the n cells of `path` as a walk: every cell in bounds and passable,
** every step legal. On success returns 1 and *cost (if not NULL) is the sum
** of step costs in path order. On failure returns 0, *bad (if not NULL) is
** the index of the first offending cell and err explains. n == 0 fails. */
int validate_walk(const astar_grid *g, const astar_options *opt, const astar_point *path, size_t n,
                  double *cost, size_t *bad, char *err, size_t cap);

/* Full check of a search result: validate_walk, path[0] == start,
** path[n-1] == goal, and `claimed` equal to the recomputed cost within 1e-9
** relative. Returns 1 when all hold, else 0 with a message in err. `opt`
** may be NULL (the library defaults). */
int validate_path(const astar_grid *g, const astar_options *opt, astar_point start,
                  astar_point goal, const astar_point *path, size_t n, double claimed, char *err,
                  size_t cap);

/* |a - b| <= 1e-9 * max(|a|, |b|, 1e-300): the tests' notion of equal cost. */
int cost_equal(double a, double b);

#endif
