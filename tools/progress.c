/*
** progress.c -- the progress line of progress.h. The line is cleared at the
** end rather than left behind, so a terminal shows the report alone.
*/
#include "progress.h"

#include <stdio.h>
#include <unistd.h>

#include "cli.h"

void cli_progress_start(cli_progress *p, const char *label, const char *unit, uint64_t total) {
  p->show = isatty(STDERR_FILENO) != 0;
  p->shown = false;
  p->label = label;
  p->unit = unit;
  p->total = total;
  p->t0 = p->last = cli_now_seconds();
}

double cli_progress_update(cli_progress *p, uint64_t done) {
  if (!p->show) return 0.0;
  const double now = cli_now_seconds();
  if (now - p->last < 0.5) return 0.0;
  const double elapsed = now - p->t0, rate = elapsed > 0.0 ? (double)done / elapsed : 0.0;
  const double left = rate > 0.0 && done < p->total ? (double)(p->total - done) / rate : 0.0;
  fprintf(stderr, "\r\033[K%s: %llu/%llu %s (%.1f%%), %.0f/s, %.0f s left", p->label,
          (unsigned long long)done, (unsigned long long)p->total, p->unit,
          p->total ? 100.0 * (double)done / (double)p->total : 100.0, rate, left);
  fflush(stderr);
  p->shown = true;
  p->last = cli_now_seconds();
  return p->last - now;
}

void cli_progress_end(cli_progress *p) {
  if (!p->shown) return;
  fputs("\r\033[K", stderr);
  fflush(stderr);
  p->shown = false;
}
