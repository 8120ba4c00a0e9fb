/*
** core/moves.c -- the legal-move rules of the square grid: which of the
** eight moves a cell's neighbour byte allows under each corner rule, as a
** test and as the 256-entry table the grid walkers look up (the
** workspace builds one per rule; the waypoint table, HPA*, D* Lite and
** the space-time searches build theirs with it).
*/
#include "core/internal.h"

/* Is the move in direction d allowed from a cell with neighbour byte nb? */
bool astar__move_allowed(int rule, unsigned nb, int d) {
  if (!(nb & (1u << d))) return false;
  if (d < 4) return true;
  if (rule == ASTAR__RULE_STRAIGHT) return false;
  /* Side cells of each diagonal: NE: N,E  SE: S,E  SW: S,W  NW: N,W. */
  static const uint8_t side_a[4] = {ASTAR__N, ASTAR__S, ASTAR__S, ASTAR__N};
  static const uint8_t side_b[4] = {ASTAR__E, ASTAR__E, ASTAR__W, ASTAR__W};
  const unsigned open_sides = ((nb >> side_a[d - 4]) & 1u) + ((nb >> side_b[d - 4]) & 1u);
  switch (rule) {
  case ASTAR__RULE_NO_CUT:
    return open_sides == 2;
  case ASTAR__RULE_ONE_SIDE:
    return open_sides >= 1;
  default:
    return true;
  }
}

void astar__move_table(int rule, uint8_t table[256]) {
  for (unsigned nb = 0; nb < 256; nb++) {
    uint8_t m = 0;
    for (int d = 0; d < 8; d++)
      if (astar__move_allowed(rule, nb, d)) m |= (uint8_t)(1u << d);
    table[nb] = m;
  }
}
