/*
** core/counters.h -- counts that only the tests read. The library proper
** has no such state (no global state: base.h); a build with
** ASTAR_TEST_COUNTERS defined (the test build of the library,
** astar_counted in tests/CMakeLists.txt) counts, per thread:
**   validations   astar_options_validate and astar_engine_options_validate
**                 calls -- issue 26 asks for at most one per query, and
**                 none per query of a prepared finder (astar/finder.h).
** The counts are read through astar__test_validations(), which exists in
** that build only.
*/
#ifndef ASTAR_CORE_COUNTERS_H
#define ASTAR_CORE_COUNTERS_H

#include "astar/base.h"

#ifdef ASTAR_TEST_COUNTERS
extern _Thread_local uint64_t astar__validations;
#define ASTAR__COUNT_VALIDATION() ((void)astar__validations++)
/* The calling thread's count of validations since it started. */
ASTAR_API uint64_t astar__test_validations(void);
#else
#define ASTAR__COUNT_VALIDATION() ((void)0)
#endif

#endif /* ASTAR_CORE_COUNTERS_H */
