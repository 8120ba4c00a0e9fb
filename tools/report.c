/*
** report.c -- small formatting helpers shared by the commands: costs,
** search statistics and paths as coordinate lists.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_format_cost(char *buf, size_t size, double cost) {
  /* Whole costs (the tutorial's 10/14) print as integers; others with enough
  ** digits to compare against Moving AI's 8-decimal optimal lengths. */
  if (isfinite(cost) && cost == floor(cost) && fabs(cost) < 1e15)
    snprintf(buf, size, "%.0f", cost);
  else
    snprintf(buf, size, "%.10g", cost);
}

void cli_print_stats(FILE *out, const astar_stats *st) {
  fprintf(out, "expanded %llu, generated %llu, reopened %llu, max open %llu",
          (unsigned long long)st->expanded, (unsigned long long)st->generated,
          (unsigned long long)st->reopened, (unsigned long long)st->max_open);
}

void cli_print_path(FILE *out, const astar_point *path, size_t n, int indent, int width) {
  int col = indent;
  for (size_t i = 0; i < n; i++) {
    char cell[32];
    int len = snprintf(cell, sizeof cell, "(%d,%d)", (int)path[i].x, (int)path[i].y);
    if (i > 0) {
      if (col + 1 + len > width) {
        fprintf(out, "\n%*s", indent, "");
        col = indent;
      } else {
        fputc(' ', out);
        col++;
      }
    }
    fputs(cell, out);
    col += len;
  }
  fputc('\n', out);
}
