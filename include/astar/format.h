/*
** astar/format.h -- map and scenario text formats, parsed from memory.
**
** The parsers take a buffer and its length (it need not be NUL-terminated),
** so they can be fed by files, network data or a fuzzer alike; file I/O is the
** caller's business. Line endings may be LF, CRLF or CR, and the last line
** may lack its newline. On failure they fill *err (when not NULL) with the
** 1-based line and column of the problem and a message, return
** ASTAR_PARSE_ERROR (or ASTAR_NO_MEMORY / ASTAR_TOO_LARGE), store NULL in
** *out and leak nothing.
**
** Moving AI map (.map), https://movingai.com/benchmarks/formats.html:
**     type octile
**     height H
**     width W
**     map
**     <H rows of W characters>
**   The header lines may come in any order before "map"; "type" is optional;
**   keywords are case-sensitive.
**   '.', 'G' and 'S' are passable; '@', 'O', 'T' and 'W' are blocked. Any
**   other character is an error. Rows must have exactly W characters.
**
** Moving AI scenario (.map.scen): a "version 1" line (also "1.0"; other
** versions are rejected), then one
** query per line with 9 tab- or space-separated fields: bucket, map name,
** map width, map height, start x, start y, goal x, goal y, optimal length.
** The map name is informational only. Blank lines are ignored.
**
** Plain ASCII map (for hand-written maps and tests): rows of equal length,
**   '.' or ' '  passable          '#', '@', 'T', 'O', 'W'  blocked
**   '1'..'9'    passable with terrain cost 1..9
**   'S'         the start (passable; at most one)
**   'G'         the goal  (passable; at most one)
** Lines whose first character is ';' are comments, anywhere. Leading and
** trailing empty lines are ignored (a line of spaces is a passable row); a
** row of a different length is an error.
**
** Hex maps have their own format and parser: astar_hex_parse_map in
** astar/hex.h.
*/
#ifndef ASTAR_FORMAT_H
#define ASTAR_FORMAT_H

#include "base.h"
#include "grid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parse a Moving AI .map text into a new grid (allocated with `alloc`,
** NULL: malloc). */
ASTAR_API astar_status astar_movingai_parse_map(astar_grid **out, const char *text, size_t len,
                                                const astar_allocator *alloc,
                                                astar_parse_error *err);

/* One scenario line. */
typedef struct astar_scen_query {
  int32_t bucket;        /* first field */
  const char *map;       /* second field, NUL-terminated, owned by the scen */
  int32_t map_width;     /* third field */
  int32_t map_height;    /* fourth field */
  astar_point start;     /* fields 5-6 */
  astar_point goal;      /* fields 7-8 */
  double optimal_length; /* field 9 */
  int32_t line;          /* 1-based line of this query in the text (for messages) */
} astar_scen_query;

/* A parsed scenario. Retains: nothing (the text is copied: the map names
** are the scen's own). Thread safety: read-only after parsing -- any number
** of threads may read it at once. */
typedef struct astar_scen astar_scen;

/* Parse a Moving AI .scen text. Allocates. */
ASTAR_API astar_status astar_movingai_parse_scen(astar_scen **out, const char *text, size_t len,
                                                 const astar_allocator *alloc,
                                                 astar_parse_error *err);

/* Release a scenario. NULL is allowed. */
ASTAR_API void astar_scen_free(astar_scen *scen);

/* Number of queries. */
ASTAR_API size_t astar_scen_count(const astar_scen *scen);

/* The queries, in file order (count elements); valid until astar_scen_free. */
ASTAR_API const astar_scen_query *astar_scen_queries(const astar_scen *scen);

/* The version number given on the first line (1.0 for "version 1"). */
ASTAR_API double astar_scen_version(const astar_scen *scen);

/* Parse a plain ASCII map into a new grid. `start` and `goal` (either may be
** NULL) receive the 'S' and 'G' cells, or (-1, -1) when absent. Allocates. */
ASTAR_API astar_status astar_ascii_parse_map(astar_grid **out, const char *text, size_t len,
                                             const astar_allocator *alloc, astar_point *start,
                                             astar_point *goal, astar_parse_error *err);

/* Parse either format: Moving AI when the first non-blank line starts with
** "type" or "height" or "width", ASCII otherwise. start/goal as above (always
** (-1, -1) for Moving AI). Allocates. */
ASTAR_API astar_status astar_parse_map(astar_grid **out, const char *text, size_t len,
                                       const astar_allocator *alloc, astar_point *start,
                                       astar_point *goal, astar_parse_error *err);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_FORMAT_H */
