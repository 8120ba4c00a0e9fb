/*
** astar/base.h -- status codes, allocator, points, version.
** Part of libastar. Everything else in the public API builds on these.
**
** Conventions that hold for the whole library:
**   - Every fallible function returns an astar_status; ASTAR_OK is 0.
**   - Objects are opaque handles created by astar_X_new() and released by
**     astar_X_free() (which accepts NULL). On failure a constructor stores
**     NULL in *out and leaks nothing.
**   - Results go into caller-owned buffers given as (buf, cap) with the needed
**     length reported back, so a too-small buffer is never overrun.
**   - The library has no global mutable state, performs no I/O, never prints
**     and never aborts. All memory comes from the allocator given to the
**     constructor (or malloc/realloc/free when none is given).
**   - Every object says, in the comment at its declaration (README.md has
**     them all in one table):
**       Retains: what it keeps a pointer to once the call that gave it
**         returns -- a grid, the caller's buffers, callbacks and their
**         contexts, other objects -- each of which must outlive it (or the
**         period said). "Nothing" means every argument is read during the
**         call only and may be freed or changed afterwards. Besides, every
**         object made with an allocator keeps a copy of the astar_allocator
**         and calls it until it is freed: `ud` must outlive the object.
**       Thread safety: which of its calls may run at once from several
**         threads. A "read-only" object is never written by a call taking
**         it as const (no cache, no counter): any number of threads may
**         use it at once while no thread modifies it.
*/
#ifndef ASTAR_BASE_H
#define ASTAR_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ASTAR_VERSION_MAJOR 0
#define ASTAR_VERSION_MINOR 1
#define ASTAR_VERSION_PATCH 0
#define ASTAR_VERSION_STRING "0.1.0"

#if defined(_WIN32) && defined(ASTAR_SHARED)
#if defined(ASTAR_BUILDING)
#define ASTAR_API __declspec(dllexport)
#else
#define ASTAR_API __declspec(dllimport)
#endif
#elif defined(__GNUC__)
#define ASTAR_API __attribute__((visibility("default")))
#else
#define ASTAR_API
#endif

/*
** Status of an operation. Search outcomes that are not errors in the usual
** sense (no path, limit reached) are statuses too, so that every outcome is
** one value a caller can switch on.
*/
typedef enum astar_status {
  ASTAR_OK = 0,             /* success (a search: a complete path was found) */
  ASTAR_NO_PATH,            /* search: the goal cannot be reached from the start */
  ASTAR_LIMIT_REACHED,      /* search: options.max_expansions ran out first */
  ASTAR_START_BLOCKED,      /* search: the start cell is not passable */
  ASTAR_GOAL_BLOCKED,       /* search: the goal cell is not passable */
  ASTAR_BUFFER_TOO_SMALL,   /* output did not fit; the needed length is reported */
  ASTAR_OUT_OF_BOUNDS,      /* a coordinate lies outside the grid */
  ASTAR_INVALID_ARGUMENT,   /* NULL where not allowed, bad option value, ... */
  ASTAR_TOO_LARGE,          /* dimensions beyond the documented limits */
  ASTAR_NO_MEMORY,          /* the allocator returned NULL */
  ASTAR_PARSE_ERROR,        /* malformed input text; see astar_parse_error */
  ASTAR_UNSUPPORTED,        /* valid request this algorithm cannot honour */
  ASTAR_CAPACITY,           /* the workspace is too small for this grid
                               (astar_workspace_reserve grows it) */
  ASTAR_IN_PROGRESS,        /* sliced search: budget used up, call step again */
  ASTAR_PARTIAL,            /* search: no full path; the path to the best node
                               found was returned (options.partial) */
  ASTAR_STOPPED,            /* search: options.stop_fn asked to stop */
  ASTAR_STALE,              /* the grid changed since the object was built */
  ASTAR_TURNS_NOT_RESERVED, /* turn_penalty > 0 on a workspace without turn
                               states (astar_workspace_reserve_turns) */
  ASTAR_QUEUE_FULL,         /* the request queue's table has no free entry */
  ASTAR_MISMATCH,           /* the object was built for another grid, or for
                               other movement rules than the search's */
  ASTAR_EXPIRED,            /* a result the library held is gone: the request
                               queue has started another search since */
  ASTAR_STATUS_COUNT        /* number of statuses (not a status) */
} astar_status;

/* One English sentence describing `status`, without a final period, e.g.
** "no path: the goal is not reachable from the start". Never NULL; an
** unknown value gives "unknown status". Static storage, no allocation. */
ASTAR_API const char *astar_strerror(astar_status status);

/* The library's version as "MAJOR.MINOR.PATCH" (static storage). */
ASTAR_API const char *astar_version(void);

/*
** Allocator, in the style of lua_Alloc. One function handles every request:
**   nsize == 0            free `ptr` (which may be NULL); return NULL.
**   ptr == NULL           allocate nsize bytes (osize is 0).
**   otherwise             resize the osize-byte block `ptr` to nsize bytes.
** Returning NULL for a non-zero nsize means failure; the library then leaves
** `ptr` untouched and reports ASTAR_NO_MEMORY. Blocks must be aligned for any
** object type (as malloc's are). `ud` is passed back unchanged on every call.
** The allocator is called only from the thread that uses the object it was
** given to (constructors, free, reserve/grow calls); searches never call it.
*/
typedef void *(*astar_alloc_fn)(void *ud, void *ptr, size_t osize, size_t nsize);

typedef struct astar_allocator {
  astar_alloc_fn fn; /* NULL: use malloc/realloc/free */
  void *ud;          /* caller context handed to fn */
} astar_allocator;

/* A point in cell units (x right, y down; also a
** navigation mesh's coordinates, astar/mesh.h); a grid point has integer
** coordinates, the centre of cell (x, y) is (x + 0.5, y + 0.5). */
typedef struct astar_vec2 {
  double x; /* column coordinate, cell widths from the left edge of the map */
  double y; /* row coordinate, cell heights from the top edge of the map */
} astar_vec2;

/* A cell coordinate: x is the column (0 = left), y the row (0 = top). */
typedef struct astar_point {
  int32_t x; /* column, 0 .. width-1 */
  int32_t y; /* row, 0 .. height-1 */
} astar_point;

/*
** Where and why a text parser failed (astar/format.h). line and column are
** 1-based; column counts bytes. line == 0 means the error is not tied to a
** position (for example an allocation failure).
*/
typedef struct astar_parse_error {
  int32_t line;      /* 1-based line of the offending text, 0 if none */
  int32_t column;    /* 1-based byte column within that line, 0 if none */
  char message[120]; /* NUL-terminated English explanation */
} astar_parse_error;

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_BASE_H */
