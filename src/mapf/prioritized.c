#include "mapf/mapf.h"
astar_status mapf_prioritized_solve(mapf_ctx *c) {
  (void)c;
  return ASTAR_UNSUPPORTED;
}
