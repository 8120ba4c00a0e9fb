/*
** core/counters.c -- the test build's counts (core/counters.h); nothing in
** the library proper.
*/
#include "core/counters.h"

#ifdef ASTAR_TEST_COUNTERS
_Thread_local uint64_t astar__validations;

uint64_t astar__test_validations(void) {
  return astar__validations;
}
#else
typedef int astar__counters_unused; /* ISO C: a translation unit is never empty */
#endif
