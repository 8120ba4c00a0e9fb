/*
** search/turns.h -- the turn-penalty search (search/turns.c): A* over
** (cell, arrival direction) states, nine per cell, with the general loop's
** features; its records live in the workspace (astar__turns).
*/
#ifndef ASTAR_SEARCH_TURNS_H
#define ASTAR_SEARCH_TURNS_H

#include "search/query.h"

/* Turn-penalty search over (cell, arrival) states (turns.c): push the start
** state, then run like search_loop (same contract, same general features,
** 4-ary heap). The goal / best node found is a state. */
void astar__turns_open(astar_workspace *ws);
astar_status astar__turns_run(astar_workspace *ws, uint64_t budget);

/* Allocation of the turn arrays for `cells` cells (the workspace frees
** them: astar__free_turns). */
astar_status astar__turns_reserve(astar_workspace *ws, uint32_t cells);

#endif /* ASTAR_SEARCH_TURNS_H */
