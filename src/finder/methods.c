/*
** finder/methods.c -- the method table: one row per astar_method, each
** defined in its method's file (m_*.c) as `const astar__method
** astar__m_<name>`. A row here names the enum value and that definition;
** the declaration and the table entry both come from it, so adding a
** method is its file, its enum value (astar/engine.h) and its row below
** (docs/architecture.md, "Adding a method").
*/
#include "finder/finder.h"

/*  the enum value              its row (m_*.c)          its file */
#define ASTAR__METHOD_ROWS(X)                                                                      \
  X(ASTAR_METHOD_ASTAR, astar__m_astar)                 /* m_astar.c */                            \
  X(ASTAR_METHOD_DIJKSTRA, astar__m_dijkstra)           /* m_astar.c */                            \
  X(ASTAR_METHOD_GREEDY, astar__m_greedy)               /* m_engine.c */                           \
  X(ASTAR_METHOD_BIDIRECTIONAL, astar__m_bidirectional) /* m_engine.c */                           \
  X(ASTAR_METHOD_IDA, astar__m_ida)                     /* m_engine.c */                           \
  X(ASTAR_METHOD_BEAM, astar__m_beam)                   /* m_engine.c */                           \
  X(ASTAR_METHOD_DYNAMIC, astar__m_dynamic)             /* m_engine.c */                           \
  X(ASTAR_METHOD_BANDWIDTH, astar__m_bandwidth)         /* m_engine.c */                           \
  X(ASTAR_METHOD_FRONT_TO_FRONT, astar__m_f2f)          /* m_engine.c */                           \
  X(ASTAR_METHOD_RETARGETING, astar__m_retargeting)     /* m_engine.c */                           \
  X(ASTAR_METHOD_JPS, astar__m_jps)                     /* m_jps.c */                              \
  X(ASTAR_METHOD_JPS_PLUS, astar__m_jps_plus)           /* m_jps_plus.c */                         \
  X(ASTAR_METHOD_CPD, astar__m_cpd)                     /* m_cpd.c */                              \
  X(ASTAR_METHOD_HPA, astar__m_hpa)                     /* m_hpa.c */                              \
  X(ASTAR_METHOD_THETA, astar__m_theta)                 /* m_theta.c */                            \
  X(ASTAR_METHOD_LAZY_THETA, astar__m_lazy_theta)       /* m_theta.c */                            \
  X(ASTAR_METHOD_ANYA, astar__m_anya)                   /* m_anya.c */                             \
  X(ASTAR_METHOD_FRINGE, astar__m_fringe)               /* m_fringe.c */                           \
  X(ASTAR_METHOD_POLYANYA, astar__m_polyanya)           /* m_polyanya.c */                         \
  X(ASTAR_METHOD_FUNNEL, astar__m_funnel)               /* m_funnel.c */                           \
  X(ASTAR_METHOD_SUBGOAL, astar__m_subgoal)             /* m_subgoal.c */

/* The rows' declarations. */
#define ASTAR__DECLARE_ROW(value, row) extern const astar__method row;
ASTAR__METHOD_ROWS(ASTAR__DECLARE_ROW)

/* The table, indexed by the enum. */
#define ASTAR__TABLE_ROW(value, row) [value] = &(row),
static const astar__method *const table[ASTAR_METHOD_COUNT] = {
    ASTAR__METHOD_ROWS(ASTAR__TABLE_ROW)};

/* Every value of the enum has a row (test_finder checks that each row
** names its own value). */
#define ASTAR__ONE(value, row) +1 /* NOLINT(bugprone-macro-parentheses): a count */
_Static_assert(0 ASTAR__METHOD_ROWS(ASTAR__ONE) == ASTAR_METHOD_COUNT,
               "a method without a row in methods.c (or a row too many)");

const astar__method *astar__method_row(astar_method m) {
  return (unsigned)m < ASTAR_METHOD_COUNT ? table[m] : NULL;
}
