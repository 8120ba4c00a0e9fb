/*
** search/options.h -- the table of the search options beyond the movement
** rules (astar_options of astar/search.h): one row each, from which
** options.c sets the defaults and checks the values, the grid A*
** decides whether its general loop must run (search/astar.c), and the
** finder tells a method that cannot honour an option so, before any work
** (astar__options_refusal; src/finder/). Adding such an option is its
** field in astar_options, its row here and the code that acts on it (the
** general loop reads it from q->fx->opt, the options as given): see
** docs/architecture.md, "Adding an option".
**
** Columns: the row's name (ASTAR__OPT_<ID>, and its bit for the methods
** that honour it), the field, its default (in use: any other value), the
** check of a value v (a macro below), whether using it needs the grid
** A*'s general loop, and the sentence a method that cannot honour it
** answers with (astar_unsupported_reason's style: what, and what to do).
** Order: the order of the refusals.
*/
#ifndef ASTAR_SEARCH_OPTIONS_H
#define ASTAR_SEARCH_OPTIONS_H

#include "astar/search.h"

#include <math.h>

/* Checks of a value. NaN fails every comparison, so every one of them. */
#define ASTAR__ANY(v) ((void)(v), 1)
#define ASTAR__FACTOR(v) ((v) >= 0.0 && (v) <= ASTAR_OPTION_MAX) /* [0, ASTAR_OPTION_MAX] */
#define ASTAR__UNIT(v) ((v) >= 0.0 && (v) <= 1.0)                /* [0, 1] */
#define ASTAR__NONNEG(v) ((v) >= 0.0)                            /* [0, infinity] */

/* clang-format off */
#define ASTAR__OPTION_ROWS(X)                                                                      \
  X(LAYERS, nlayers, 0, ASTAR__ANY, 1,                                                             \
    "influence layers (options.layers) are the grid A*'s: use method astar")                       \
  X(KNOWLEDGE, knowledge, NULL, ASTAR__ANY, 1,                                                     \
    "fog of war (options.knowledge) is the grid A*'s: use method astar")                           \
  X(ISLANDS, islands, NULL, ASTAR__ANY, 0,                                                         \
    "options.islands are the grid A*'s: use method astar")                                         \
  X(TURN_PENALTY, turn_penalty, 0.0, ASTAR__FACTOR, 0,                                             \
    "a turn penalty is the grid A*'s: use method astar")                                           \
  X(TERRAIN_SCALE, terrain_scale, 1.0, ASTAR__UNIT, 0,                                             \
    "options.terrain_scale is the grid A*'s: use method astar")                                    \
  X(PARTIAL, partial, false, ASTAR__ANY, 1,                                                        \
    "this method gives no partial paths (options.partial: astar, and the engine's methods "        \
    "with one open list)")                                                                         \
  X(STOP, stop_fn, NULL, ASTAR__ANY, 1,                                                            \
    "this method has no deadline hook (options.stop_fn: astar and the engine's methods)")          \
  X(OBSERVER, observer, NULL, ASTAR__ANY, 1,                                                       \
    "this method reports no search events (options.observer: astar, jps, jps-plus, theta, "        \
    "lazy-theta)")                                                                                 \
  X(LIMIT, max_expansions, 0, ASTAR__ANY, 0,                                                       \
    "this method has no expansions to limit (leave options.max_expansions at 0)")                  \
  X(MAX_COST, max_cost, INFINITY, ASTAR__NONNEG, 1,                                                \
    "options.max_cost is the grid A*'s (its general loop): use method astar")
/* clang-format on */

/* The rows' numbers, and their bits. */
#define ASTAR__OPT_ID(id, field, def, check, general, refusal) ASTAR__OPT_##id,
enum { ASTAR__OPTION_ROWS(ASTAR__OPT_ID) ASTAR__OPT_COUNT };
#undef ASTAR__OPT_ID
#define ASTAR__OPT_BIT(id) (1u << ASTAR__OPT_##id)

/* Set every row's field of o to its default. */
void astar__options_defaults(astar_options *o);

/* Does every row's field of o hold a valid value? */
bool astar__options_valid(const astar_options *o);

/* Is an option in use that needs the grid A*'s general loop? */
bool astar__options_general(const astar_options *o);

/* The refusal of the first option in use whose bit `honoured` lacks (a
** sentence, static storage), or NULL: what a method that honours only
** those answers. */
const char *astar__options_refusal(const astar_options *o, unsigned honoured);

#endif /* ASTAR_SEARCH_OPTIONS_H */
