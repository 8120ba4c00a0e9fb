/*
** progress.h -- a progress line for long runs (a CPD build, a bench over a
** long map): done / total, rate, time left, rewritten on stderr about twice a
** second -- and nothing at all when stderr is not a terminal (logs and CI
** output stay clean).
*/
#ifndef ASTAR_TOOLS_PROGRESS_H
#define ASTAR_TOOLS_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct cli_progress {
  bool show;         /* stderr is a terminal */
  bool shown;        /* a line was written (the end needs a line break) */
  const char *label; /* what runs, e.g. the map's name (not owned) */
  const char *unit;  /* what is counted, e.g. "queries" (not owned) */
  uint64_t total;    /* units in all */
  double t0, last;   /* start and last line written, seconds (cli_now_seconds) */
} cli_progress;

/* Start counting `total` units of `unit` for `label`. */
void cli_progress_start(cli_progress *p, const char *label, const char *unit, uint64_t total);

/* `done` units are finished. Writes the line when half a second has passed
** since the last; returns the seconds spent writing, for callers that time
** their work and leave this out (0 when nothing was written). Cheap enough to
** call every few microseconds of work. */
double cli_progress_update(cli_progress *p, uint64_t done);

/* Clear the line, if one was written. */
void cli_progress_end(cli_progress *p);

#endif /* ASTAR_TOOLS_PROGRESS_H */
