/*
** astar/path.h -- storing paths (Patel section 6, and the reversed storage of
** section 5.2): compact portable encodings, waypoints at turns, paths held
** only K steps ahead with the rest computed on demand, and goal-first
** storage for cheap splicing. Part of libastar. Nothing here allocates.
**
** The paths are cell paths as the searches return them: astar_point arrays,
** start first, each step a UNIT step -- to one of the 8 neighbours (dx, dy
** in {-1, 0, 1}, not both 0). Legality on a grid (passable cells, corner
** rule) is not these functions' business: astar_path_cost checks it.
**
** Directions are numbered as everywhere in the library:
**   0 N (0,-1)  1 E (1,0)  2 S (0,1)  3 W (-1,0)
**   4 NE (1,-1) 5 SE (1,1) 6 SW (-1,1) 7 NW (-1,-1)
** (y grows downwards, so N E S W is clockwise on the screen). A TURN is the
** change of direction between two consecutive steps, counted clockwise in
** eighths of a full turn on the compass N NE E SE S SW W NW: 0 straight on,
** 1 = 45 degrees right, 2 = 90 right, 4 = reverse, 7 = 45 left, ...
** With the 4-direction alphabet (below) turns count in quarters.
**
** ---- The byte format (astar_path_encode / astar_path_decode) -----------------
**
** A HEADER, the same for every encoding, then the PAYLOAD:
**   byte 0   0x10 | encoding    (high nibble: format version 1; low nibble:
**                               the astar_path_encoding value, 0 .. 4)
**   byte 1   flags: bit 0 FOUR -- the payload uses the 2-bit direction
**                               alphabet N E S W (set by the encoder exactly
**                               when every step is straight; only for the
**                               DIRECTIONS, TURNS, RUNS and VARIABLE
**                               encodings);
**                   bit 1 WIDE -- POSITIONS stores 32-bit coordinates (set
**                               exactly when a cell after the start lies
**                               outside 0 .. 65535; only for POSITIONS);
**                   other bits 0.
**   then three unsigned LEB128 varints (7 bits a byte, least significant
**   group first, high bit = "more bytes follow", at most 5 bytes, no
**   superfluous 0x80 / 0x00 group): the start's x and y in zigzag form
**   (v >= 0 -> 2v, v < 0 -> -2v-1) and the number of STEPS (cells - 1,
**   < 2^32).
** The payload is a bit stream, packed least significant bit first: bit k of
** the stream is bit (k mod 8) of payload byte k / 8; a "w-bit field" holds
** its value's bits from the least significant one. The last byte is padded
** with 0 bits and nothing follows it. D is 2 with FOUR, else 3: a D-bit
** direction field holds a direction number (with FOUR: 0..3).
**   POSITIONS   for each cell after the start: x then y, each a 16-bit field
**               (0 .. 65535), or with WIDE a 32-bit field (two's complement)
**               -- 4 or 8 bytes a step (Patel 6.1's "two 16-bit integers").
**   DIRECTIONS  each step's direction: D bits a step (3, or 2 with FOUR).
**   TURNS       the first step's direction (D bits), then for every later
**               step its turn relative to the step before (D bits: eighths,
**               or quarters with FOUR) -- Patel 6.1's relative directions.
**   RUNS        maximal runs of one direction, each a D-bit direction and an
**               8-bit field holding (run length - 1); a run longer than 256
**               steps is split into runs of 256 (and a rest) -- Patel 6.2.2's
**               (direction, count) pairs: 11 bits a run, 10 with FOUR.
**   VARIABLE    Patel 6.2.2's variable-length code with run lengths in a
**               universal code: the first run's direction (D bits) and
**               length, then for each later run its turn and length. A
**               length n >= 1 is Elias gamma, least significant bit first:
**               b = floor(log2 n) zero bits, a one bit, then the low b bits of
**               n (a single step, "straight on once", is the 1-bit word "1");
**               so a straight run of n steps costs 2b + 1 bits, not n. Turns
**               (never 0: runs are maximal) are prefix words, written in
**               stream order: 8 directions: +1 "00", -1 "01", +2 "100",
**               -2 "101", +3 "1100", -3 "1101", 4 "111"; FOUR: +1 "0",
**               -1 "10", 2 "11" (the gentle turns, the common ones on grid
**               paths, are the short words).
** A one-cell path (no steps) has an empty payload. Sizes: header (5 to 17
** bytes; 5 for a start with coordinates below 64 and fewer than 128 steps)
** plus the payload rounded up to whole bytes; e.g. 4-connected, N 6, W 3,
** N 5, W 2 (16 steps): RUNS 4 x 10 bits = 5 bytes, VARIABLE 2 + 5 + 2+3 +
** 1+5 + 2+3 = 23 bits = 3 bytes (tests/test_path.c checks these by hand).
** The decoder accepts exactly what this paragraph describes -- anything
** else (unknown version, encoding or flag, truncation, extra bytes, bits
** set in the padding, runs that overshoot the step count, a POSITIONS step
** that is not a unit step, coordinates leaving int32) is ASTAR_PARSE_ERROR.
** The format is the same on every platform (no struct, no host byte order).
*/
#ifndef ASTAR_PATH_H
#define ASTAR_PATH_H

#include "base.h"
#include "grid.h"
#include "search.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a path is encoded; see the byte format above. */
typedef enum astar_path_encoding {
  ASTAR_PATH_POSITIONS = 0, /* every cell's absolute x, y: 4 (or 8) bytes a step */
  ASTAR_PATH_DIRECTIONS,    /* absolute direction of every step: 3 bits (2 if 4-connected) */
  ASTAR_PATH_TURNS,         /* first direction, then the turn of every step: 3 (2) bits */
  ASTAR_PATH_RUNS,          /* (direction, length) per run of one direction: 11 (10) bits */
  ASTAR_PATH_VARIABLE,      /* prefix-coded turns and Elias-gamma run lengths */
  ASTAR_PATH_ENCODING_COUNT /* number of encodings (not an encoding) */
} astar_path_encoding;

/* Lower-case name of an encoding ("positions", "directions", "turns",
** "runs", "variable"), or NULL for a value out of range. Static storage. */
ASTAR_API const char *astar_path_encoding_name(astar_path_encoding encoding);

/*
** Encode `path` (n >= 1 cells, unit steps) into buf[0 .. *len-1]. `buf` may
** be NULL when cap is 0 (to learn the size). *len always receives the size
** the encoding needs. Returns
**   ASTAR_OK
**   ASTAR_BUFFER_TOO_SMALL  *len > cap; buf[0 .. cap-1] may have been written
**                           (never beyond cap)
**   ASTAR_INVALID_ARGUMENT  path or len NULL, n == 0, an encoding out of
**                           range, or a step that is not a unit step
**   ASTAR_TOO_LARGE         2^32 or more steps
** O(n), one pass; no allocation.
*/
ASTAR_API astar_status astar_path_encode(const astar_point *path, size_t n,
                                         astar_path_encoding encoding, void *buf, size_t cap,
                                         size_t *len);

/* What the header of an encoded path says (astar_path_info). */
typedef struct astar_path_info {
  astar_path_encoding encoding; /* how the payload is encoded */
  astar_point start;            /* first cell of the path */
  size_t cells;                 /* cells of the decoded path: steps + 1, >= 1 */
  bool four;                    /* the FOUR flag: 2-bit direction alphabet */
  bool wide;                    /* the WIDE flag: 32-bit POSITIONS coordinates */
  size_t header_bytes;          /* bytes of the header; the payload follows */
} astar_path_info;

/*
** Read the header of the encoded path buf[0 .. len-1] into *info -- the
** decoded length without decoding. Only the header is checked: a payload
** may still turn out damaged (astar_path_decode checks everything).
** ASTAR_OK, ASTAR_PARSE_ERROR (malformed or truncated header) or
** ASTAR_INVALID_ARGUMENT (buf NULL with len > 0, info NULL). O(1), no
** allocation.
*/
ASTAR_API astar_status astar_path_info_of(const void *buf, size_t len, astar_path_info *info);

/*
** Decode the path encoded in buf[0 .. len-1] into cells[0 .. *n-1]. *n
** receives the number of cells whenever the header is readable. Returns
**   ASTAR_OK
**   ASTAR_BUFFER_TOO_SMALL  the buffer is well-formed (checked in full) but
**                           holds more than cap cells; nothing written
**   ASTAR_PARSE_ERROR       malformed, truncated or damaged bytes (see the
**                           format above); cells[0 .. cap-1] may have been
**                           written
**   ASTAR_INVALID_ARGUMENT  n NULL, buf NULL with len > 0, cells NULL with
**                           cap > 0
** Never reads beyond len nor writes beyond cap, whatever the bytes. O(len
** + cells) time (a too-small buffer costs O(len)); no allocation.
*/
ASTAR_API astar_status astar_path_decode(const void *buf, size_t len, astar_point *cells,
                                         size_t cap, size_t *n);

/* ---- Waypoints at turns (Patel 6.3) -------------------------------------------
** The turn points of a unit-step path are its first cell, every cell where
** the direction of the next step differs from that of the step into it, and
** its last cell; between two of them the path goes straight (along one of
** the 8 directions), so they determine it exactly. */

/*
** The turn points of `path` (n >= 1 cells, unit steps) into out[0 .. *m-1]
** (*m always receives their number: 1 for a one-cell path, else >= 2).
** `out` may be `path` itself (the points are compacted forwards).
** ASTAR_OK, ASTAR_BUFFER_TOO_SMALL (nothing written) or
** ASTAR_INVALID_ARGUMENT (NULL path or m, out NULL with cap > 0, n == 0, a
** step that is not a unit step). O(n); no allocation.
*/
ASTAR_API astar_status astar_path_turn_points(const astar_point *path, size_t n, astar_point *out,
                                              size_t cap, size_t *m);

/*
** Expand points[0 .. m-1] (m >= 1) back into the cell path through them,
** into out[0 .. *n-1]: consecutive points must differ and lie on one line of
** the 8 directions (dx == 0, dy == 0 or |dx| == |dy|), which the cells
** between them follow. The turn points of a path expand to exactly that
** path; points that are not turns (collinear ones) are accepted too. *n
** always receives the number of cells when the points are valid.
** ASTAR_OK, ASTAR_BUFFER_TOO_SMALL (nothing written), ASTAR_INVALID_ARGUMENT
** (NULL points or n, out NULL with cap > 0, m == 0, two points equal or
** not on one line) or ASTAR_TOO_LARGE (the path would have SIZE_MAX cells
** or more). O(m + cells); no allocation.
*/
ASTAR_API astar_status astar_path_expand_turn_points(const astar_point *points, size_t m,
                                                     astar_point *out, size_t cap, size_t *n);

/* ---- A path held K steps ahead (Patel 6.4, "limited path length") ----------
** Patel 6.4: the map and a unit's orders change, so a long path is rarely
** walked to its end; a unit can keep only the first steps of its path -- a
** fixed number K, which bounds the memory a unit holds for its path to K+1
** cells whatever the path's length -- and compute the rest when it has
** walked them. astar_path_cursor is that holder, in caller storage: `cells`
** has room for `cap` = K+1 cells. Planning runs one search and keeps the
** first K+1 cells of the path (the workspace, not the caller, holds the
** rest only until the next search on it). When the unit stands on the last
** held cell and it is not the goal, the next step runs a CONTINUATION: one
** new search from that cell to the goal, with the caller's workspace, grid
** and options -- the cost of one search, on demand -- and holds the first
** K+1 cells of its path.
**
** What the walked path is. Let the first search find P and the unit walk
** its first K steps to cell c. The continuation finds an optimal path from c
** (when the search is optimal: weight <= 1, an admissible heuristic, no
** expansion limit), and P's rest from c is one too (a sub-path of an optimal
** path is optimal), so on an unchanged grid the walked path COSTS the same
** as P. Without a turn penalty, that holds for any number of
** continuations. Its CELLS equal P's exactly when the search from c picks
** P's rest among the equally cheap paths -- always when that rest is the
** only optimal path from c, and otherwise often but not always: the tie
** order (astar/search.h) depends on g, which is counted from the search's
** start, so it can break ties otherwise from c than from P's start
** (tests/test_path.c measures how often on random maps). With a turn
** penalty the continuation does not know the direction the unit arrives
** in, so the walked cost may exceed P's by up to one penalty per
** continuation. On a changed grid the continuation plans on the new grid:
** the point of the scheme. */

/* A cursor, in caller storage. Retains: the storage given to
** astar_path_cursor_init, which must outlive the cursor's use; the
** workspace, grid and options of plan and next serve during those calls
** only. Thread safety: one thread at a time (plan, hold and next write it). */
/* NOLINTNEXTLINE(clang-analyzer-optin.performance.Padding): grouped by topic */
typedef struct astar_path_cursor {
  astar_point *cells; /* caller storage, [cap]; cells[pos] is the unit's cell */
  size_t cap;         /* K + 1 >= 2: the most cells held */
  size_t count;       /* cells held: cells[0 .. count-1], count <= cap */
  size_t pos;         /* index of the unit's current cell, pos < count */
  size_t total;       /* cells of the path last planned from cells[0] (goal included) */
  astar_point goal;   /* where the path ends */
  uint64_t plans;     /* searches run: the first plan and every continuation */
  double cost;        /* cost reported by the last search (from cells[0]) */
} astar_path_cursor;

/*
** Prepare `c` to hold at most `cap` cells of a path in storage[0 .. cap-1]
** (the caller keeps ownership; it must outlive the cursor's use). The cursor
** holds no path yet. ASTAR_OK or ASTAR_INVALID_ARGUMENT (c or storage NULL,
** cap < 2). No allocation.
*/
ASTAR_API astar_status astar_path_cursor_init(astar_path_cursor *c, astar_point *storage,
                                              size_t cap);

/*
** Plan from `start` to `goal`: astar_find_path(ws, grid, opt, ...) (opt may
** be NULL; opt->algorithm picks A* or JPS), then hold the first min(cap,
** length) cells of its path. Returns the search's status: ASTAR_OK when a
** path was found, however long (the cursor then holds it, pos 0), or any
** other outcome of astar_find_path (the cursor then holds nothing: count 0);
** ASTAR_INVALID_ARGUMENT for a NULL c. Never allocates.
*/
ASTAR_API astar_status astar_path_cursor_plan(astar_path_cursor *c, astar_workspace *ws,
                                              const astar_grid *grid, const astar_options *opt,
                                              astar_point start, astar_point goal);

/*
** Hold the first min(cap, n) cells of a path the caller already has (path[0
** .. n-1], n >= 1, unit steps not checked), its goal path[n-1]: what plan
** does after its search. ASTAR_OK or ASTAR_INVALID_ARGUMENT. No allocation.
*/
ASTAR_API astar_status astar_path_cursor_hold(astar_path_cursor *c, const astar_point *path,
                                              size_t n);

/* Is the unit on the goal (or does the cursor hold no path)? Then
** astar_path_cursor_next has no step to give. */
ASTAR_API bool astar_path_cursor_done(const astar_path_cursor *c);

/*
** Take the next step: *cell receives the cell the unit moves to, which
** becomes the current one. When the unit stands on the last held cell and
** it is not the goal, this first runs the continuation (see above) with
** ws, grid and opt (as for astar_path_cursor_plan); otherwise ws, grid and
** opt are not used and may be NULL. Returns ASTAR_OK; the continuation's
** status when it found no path (ASTAR_NO_PATH on a grid changed meanwhile,
** ASTAR_LIMIT_REACHED, ...: the cursor then holds nothing and *cell is
** unchanged); ASTAR_INVALID_ARGUMENT for NULL c or cell, or when
** astar_path_cursor_done. Never allocates.
*/
ASTAR_API astar_status astar_path_cursor_next(astar_path_cursor *c, astar_workspace *ws,
                                              const astar_grid *grid, const astar_options *opt,
                                              astar_point *cell);

/*
** Copy the first min(cap, length) cells of the path found by the last
** astar_find_path on `ws` (status ASTAR_OK or ASTAR_BUFFER_TOO_SMALL) into
** path[0 ..], whatever its length: *copied receives the cells written,
** *total (may be NULL) the path's length. O(length) time, no allocation.
** ASTAR_OK, ASTAR_NO_PATH (the last search found none) or
** ASTAR_INVALID_ARGUMENT (ws or copied NULL, path NULL with cap > 0).
*/
ASTAR_API astar_status astar_workspace_path_head(const astar_workspace *ws, astar_point *path,
                                                 size_t cap, size_t *copied, size_t *total);

/* ---- Goal-first storage for splicing (Patel 5.2's implementation note) -----
** A path kept reversed -- goal at index 0, the unit's current cell on top at
** count-1 -- is a stack: taking the next step and replacing the first part
** of the path by a new segment (path splicing) both work at the top end of
** the array, so they cost O(cells changed), never O(path length).
** A stack lives in caller storage. Retains: the storage given to
** astar_path_stack_init, which must outlive its use. Thread safety: one
** thread at a time while it is written (set, step, splice); peek and copy
** only read. */
typedef struct astar_path_stack {
  astar_point *cells; /* caller storage [cap]: cells[0] the goal, cells[count-1] the
                         current cell (the path read backwards) */
  size_t cap;         /* room in cells */
  size_t count;       /* cells of the path still ahead, current one included; 0: none */
} astar_path_stack;

/* Prepare `s` over storage[0 .. cap-1] (cap >= 1), holding no path.
** ASTAR_OK or ASTAR_INVALID_ARGUMENT. No allocation. */
ASTAR_API astar_status astar_path_stack_init(astar_path_stack *s, astar_point *storage, size_t cap);

/* Store path[0 .. n-1] (start first, n >= 1) goal-first: O(n).
** ASTAR_OK, ASTAR_BUFFER_TOO_SMALL (n > cap; unchanged) or
** ASTAR_INVALID_ARGUMENT (NULL s or path, n == 0). No allocation. */
ASTAR_API astar_status astar_path_stack_set(astar_path_stack *s, const astar_point *path, size_t n);

/* Take the next step, O(1): the current cell is dropped and *cell (may be
** NULL) receives the new current cell. ASTAR_OK, or ASTAR_INVALID_ARGUMENT
** (s NULL, or fewer than 2 cells: the unit is on the goal). */
ASTAR_API astar_status astar_path_stack_step(astar_path_stack *s, astar_point *cell);

/*
** Splice (Patel 5.2): replace the first m cells of the path ahead -- the
** current cell p[0] through p[m-1] -- by seg[0 .. k-1], a new route from
** p[0] to p[m-1] given start first as a search returns it: seg[0] must be
** p[0] and seg[k-1] must be p[m-1]. O(m + k): the cells beyond p[m-1] are
** not touched. ASTAR_OK; ASTAR_BUFFER_TOO_SMALL when count - m + k > cap
** (unchanged); ASTAR_INVALID_ARGUMENT (NULL s or seg, m == 0, m > count, k
** == 0, endpoints that do not match; unchanged). No allocation.
*/
ASTAR_API astar_status astar_path_stack_splice(astar_path_stack *s, size_t m,
                                               const astar_point *seg, size_t k);

/* The i-th cell ahead (0: the current cell) into *cell: O(1). ASTAR_OK or
** ASTAR_INVALID_ARGUMENT (NULL arguments, i >= count). */
ASTAR_API astar_status astar_path_stack_peek(const astar_path_stack *s, size_t i,
                                             astar_point *cell);

/* Copy the path ahead, current cell first, into out[0 .. *n-1]: O(count).
** ASTAR_OK, ASTAR_BUFFER_TOO_SMALL (*n = count; nothing written) or
** ASTAR_INVALID_ARGUMENT. No allocation. */
ASTAR_API astar_status astar_path_stack_copy(const astar_path_stack *s, astar_point *out,
                                             size_t cap, size_t *n);

#ifdef __cplusplus
}
#endif

#endif /* ASTAR_PATH_H */
