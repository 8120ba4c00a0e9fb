/*
** jsonout.c -- the few JSON primitives the tool needs (strings and numbers);
** objects are written inline by the commands.
*/
#include <math.h>

#include "cli.h"

void cli_json_string(FILE *out, const char *s) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    switch (*p) {
    case '"':
      fputs("\\\"", out);
      break;
    case '\\':
      fputs("\\\\", out);
      break;
    case '\n':
      fputs("\\n", out);
      break;
    case '\r':
      fputs("\\r", out);
      break;
    case '\t':
      fputs("\\t", out);
      break;
    default:
      if (*p < 0x20)
        fprintf(out, "\\u%04x", *p);
      else
        fputc(*p, out); /* UTF-8 passes through unchanged */
    }
  }
  fputc('"', out);
}

void cli_json_number(FILE *out, double v, int decimals) {
  /* JSON has no NaN or infinity. */
  if (!isfinite(v)) v = 0;
  fprintf(out, "%.*f", decimals, v);
}
