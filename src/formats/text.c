/*
** formats/text.c -- parse errors and quoting of untrusted text, shared by the
** Moving AI / ASCII, hex map and DIMACS parsers so that their messages agree.
*/
#include "formats/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

astar_status astar__parse_fail(astar_parse_error *err, astar_status st, int32_t line, size_t col,
                               const char *fmt, ...) {
  if (err) {
    va_list ap;
    err->line = line;
    err->column = col > INT32_MAX ? INT32_MAX : (int32_t)col;
    va_start(ap, fmt);
    /* clang-tidy 14 reports ap uninitialised here when one run analyses this
    ** file twice (the static and the shared library's compile commands).
    ** NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized) */
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
  }
  return st;
}

const char *astar__quote(char *buf, size_t cap, const char *s, size_t n) {
  static const char hex[] = "0123456789abcdef";
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    const unsigned char c = (unsigned char)s[i];
    if (o + 8 >= cap) { /* room for "\xNN", "..." and the NUL */
      memcpy(buf + o, "...", 3);
      o += 3;
      break;
    }
    if (c >= 0x20 && c < 0x7f) {
      buf[o++] = (char)c;
    } else {
      buf[o++] = '\\';
      buf[o++] = 'x';
      buf[o++] = hex[c >> 4];
      buf[o++] = hex[c & 15];
    }
  }
  buf[o] = '\0';
  return buf;
}
