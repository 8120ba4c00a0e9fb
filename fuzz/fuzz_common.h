/*
** fuzz/fuzz_common.h -- what the libFuzzer harnesses of fuzz/ share: a
** checking allocator (caps what one input may take, fails a chosen
** allocation, and catches wrong block sizes and leaks), a reader of fuzzed
** bytes, checks on a parser's error record, a reference Dijkstra over any
** space (astar/space.h), and FUZZ_CHECK, which turns a broken promise of the
** library into an abort() that libFuzzer reports as a crash with the input.
*/
#ifndef ASTAR_FUZZ_COMMON_H
#define ASTAR_FUZZ_COMMON_H

#include <astar/astar.h>
#include <astar/engine.h>
#include <astar/space.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Abort with file:line and a message when cond is false. */
#define FUZZ_CHECK(cond, ...)                                                                      \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);                                           \
      abort(); /* not reached: for the static analysers */                                         \
    }                                                                                              \
  } while (0)

/* Print "file:line: check failed: expr: message" and abort(). */
_Noreturn void fuzz_fail(const char *file, int line, const char *expr, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- the checking allocator ------------------------------------------------
** Every block carries its size in a 16-byte header, so a free or resize
** whose osize differs from the block's size aborts (the allocator contract
** of astar/base.h). Requests that would raise the bytes held above `limit`
** are refused (NULL, so the library reports ASTAR_NO_MEMORY): a short valid
** text may legitimately ask for a huge grid or graph, which is not a bug
** but would exhaust libFuzzer's memory limit. fail_at > 0 refuses the
** fail_at-th request (1-based) to test the failure paths. */
typedef struct fuzz_alloc {
  size_t live;      /* bytes held now */
  size_t limit;     /* most bytes held at once */
  uint64_t calls;   /* allocation and growth requests so far */
  uint64_t fail_at; /* request number to refuse; 0: none */
  bool refused;     /* some request was refused (limit or fail_at) */
} fuzz_alloc;

/* A fresh accounting with the given limit (bytes) and no failure planned. */
void fuzz_alloc_init(fuzz_alloc *fa, size_t limit);

/* The library-side handle of `fa` (fa must outlive every object made with it). */
astar_allocator fuzz_allocator(fuzz_alloc *fa);

/* Abort unless every byte taken from `fa` was given back (`what` names the
** object for the message). */
void fuzz_alloc_expect_empty(const fuzz_alloc *fa, const char *what);

/* ---- fuzzed bytes ------------------------------------------------------------ */

/* A cursor over the fuzzer's input; reading past the end gives zeros. */
typedef struct fuzz_bytes {
  const uint8_t *p;
  size_t n;
} fuzz_bytes;

uint8_t fuzz_u8(fuzz_bytes *b);
uint16_t fuzz_u16(fuzz_bytes *b);

/* A 64-bit FNV-1a hash of the input: a deterministic source of choices
** (which allocation to fail, which nodes to query) that does not take
** bytes away from the text formats. */
uint64_t fuzz_hash(const uint8_t *data, size_t size);

/* ---- parser results ------------------------------------------------------------
** The common promise of every text parser (astar/format.h, hex.h, graph.h):
** ASTAR_OK or a failure status; on failure an error record whose message is
** NUL-terminated (and not empty for ASTAR_PARSE_ERROR) and whose line lies
** within the text (at most its line count + 1; line endings LF, CRLF, CR). */
void fuzz_check_parse_error(astar_status st, const astar_parse_error *err, const char *text,
                            size_t len, const char *what);

/* ---- grids ------------------------------------------------------------------- */

/* Abort unless a and b have the same size, passability and terrain
** (`what` names the comparison for the message). */
void fuzz_expect_same_grid(const astar_grid *a, const astar_grid *b, const char *what);

/* ---- reference shortest paths ------------------------------------------------- */

/* Least cost from s to t over the arcs of `space` (a plain binary-heap
** Dijkstra on malloc, independent of the engine), or -1 when t cannot be
** reached. Meant for the small spaces of fuzz inputs. */
double fuzz_space_dijkstra(const astar_space *space, astar_node s, astar_node t);

/* |a - b| <= 1e-9 relative: the harnesses' notion of equal cost. */
bool fuzz_cost_equal(double a, double b);

/* Do a and b name the same cell? */
bool fuzz_same_point(astar_point a, astar_point b);

/* The map-text character of cell p, as the ASCII and hex map formats write
** it: '#' blocked, 'S' the start s, 'G' the goal t, the digit of a terrain
** factor other than 1, else '.'. */
char fuzz_cell_char(bool passable, astar_point p, astar_point s, astar_point t, float terrain);

#endif /* ASTAR_FUZZ_COMMON_H */
