/*
** formats/text.h -- what every text parser in formats/ shares: the error
** record of a failed parse and a safe rendering of the bytes that caused it.
*/
#ifndef ASTAR_FORMATS_TEXT_H
#define ASTAR_FORMATS_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "astar/format.h"

/* Fill *err (when not NULL) with line, column (clamped to INT32_MAX) and a
** printf-formatted message truncated to err->message; return st. */
astar_status astar__parse_fail(astar_parse_error *err, astar_status st, int32_t line, size_t col,
                               const char *fmt, ...);

/* buf (cap >= 12 bytes) gets the n bytes at s with every byte outside
** printable ASCII as \xNN, cut with "..." when it would not fit; returns buf. */
const char *astar__quote(char *buf, size_t cap, const char *s, size_t n);

#endif /* ASTAR_FORMATS_TEXT_H */
