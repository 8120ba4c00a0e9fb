/*
** grid/clearance.h -- what the finder (src/finder/) asks of a clearance
** object (astar/clearance.h) besides the public calls.
*/
#ifndef ASTAR_GRID_CLEARANCE_H
#define ASTAR_GRID_CLEARANCE_H

#include "astar/clearance.h"

/* How many terrain types astar_clearance_set_type has changed on `c` since
** it was made: type edits leave the grid's version as it is, so an object
** derived from the clearance (a finder's unit grid) compares this too. */
uint64_t astar__clearance_type_edits(const astar_clearance *c);

/* Does `c` belong to `grid` as it is now? ASTAR_OK, ASTAR_MISMATCH (another
** size of grid) or ASTAR_STALE (the grid changed since c was current). */
astar_status astar__clearance_check(const astar_clearance *c, const astar_grid *grid);

#endif /* ASTAR_GRID_CLEARANCE_H */
