/*
** core/loop.h -- what every search loop shares (core/loop.c): the rule by
** which searches reuse the workspace's node records.
*/
#ifndef ASTAR_CORE_LOOP_H
#define ASTAR_CORE_LOOP_H

#include "core/state.h"

/* ---- the node records' reuse rule ----------------------------------------------------- */

/*
** One workspace, one search at a time: the grid searches, the engine and
** Theta* keep their nodes in the same records. So every search that
** begins on a workspace first claims it: whatever ran on it before is over
** (a sliced search in progress, grid or engine, is ended: its step and
** finish say ASTAR_INVALID_ARGUMENT) and every path the records held is
** forgotten (astar_workspace_path and astar_workspace_space_path say
** ASTAR_NO_PATH), since the new search is about to overwrite the records
** they live in. Growing the records claims the workspace too. No
** allocation.
*/
void astar__workspace_claim(astar_workspace *ws);

/* A new generation of the workspace's records (and of the turn states',
** which share its counter): every node reads "not reached", the open list
** is empty, the push count is 0. Marks are cleared when the 16-bit counter
** would wrap (once every 16383 generations: a negligible amortised cost).
** The caller has claimed ws; a new iteration of its own search (IDA*)
** needs no new claim. */
void astar__records_next(astar_workspace *ws);

/* The same for a set of records of its own (the backward half of the
** bidirectional searches). */
void astar__side_next(astar__side *s);

#endif /* ASTAR_CORE_LOOP_H */
