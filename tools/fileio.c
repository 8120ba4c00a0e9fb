/*
** fileio.c -- reading files into memory and handing them to the library's
** parsers, which work on buffers only. Errors name the file (and the line and
** column for parse errors) so that a user can go straight to the problem.
**
** Every input is read once, with read(2), into memory the tool owns: never
** mapped, so a file truncated while it is read gives short data (which its
** parser rejects), never a fault. Reading stops past the largest size the
** input's format allows (cli_limit), so /dev/zero or an endless pipe ends
** in a message, not in exhausted memory. An input that cannot be read again
** -- standard input, a pipe, a FIFO, a device -- is kept after its one read,
** so a second reader of the same path (bench with several scenarios of one
** --map) gets the same bytes instead of waiting for ever.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* ---- inputs kept after their one read ------------------------------------------- */

/* An input read before: its bytes, or the message its read failed with.
** `once`: a look-ahead (cli_peek_map), handed over whole to the next read
** of the path; otherwise an input that cannot be read twice, copied to
** every later reader. The tool runs one command; the list lives as long. */
typedef struct kept_input {
  char *path;
  char *data; /* NUL-terminated; NULL when the read failed */
  size_t len;
  char *message; /* the failure, without "astar: " */
  bool once;
  struct kept_input *next;
} kept_input;

static kept_input *kept;

static char *dup_text(const char *s) {
  const size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

static bool keep(const char *path, char *data, size_t len, const char *message, bool once) {
  kept_input *k = calloc(1, sizeof *k);
  if (!k || !(k->path = dup_text(path)) || (message && !(k->message = dup_text(message)))) {
    if (k) free(k->path);
    free(k);
    return false;
  }
  k->data = data;
  k->len = len;
  k->once = once;
  k->next = kept;
  kept = k;
  return true;
}

static void drop(kept_input **at) {
  kept_input *k = *at;
  *at = k->next;
  free(k->path);
  free(k->data);
  free(k->message);
  free(k);
}

/* ---- reading --------------------------------------------------------------------- */

#define FIRST_CHUNK ((size_t)1 << 16) /* bytes asked for first when the size is unknown */

/* The bytes of `path` that a read is allowed, given its first `len`; the
** default: any text file. */
static void text_limit(const char *head, size_t len, const void *ud, cli_limit *out) {
  (void)head, (void)len, (void)ud;
  out->bytes = CLI_TEXT_MAX_BYTES;
  out->stop = false;
  snprintf(out->what, sizeof out->what, "the most a text input of the tool may hold");
}

static void set_message(char *msg, size_t size, const char *fmt, ...) CLI_PRINTF(3, 4);
static void set_message(char *msg, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, size, fmt, ap);
  va_end(ap);
}

/* Read `fd` to its end, or until `limit` says the bytes cannot be valid:
** a malloc'd buffer with a NUL after the data. On failure false with the
** reason in msg (the file not named). `size_hint`: the file's size when
** it is a regular file, else 0. */
static bool read_fd(int fd, uint64_t size_hint, cli_limit_fn limit, const void *ud, char **data,
                    size_t *len, char *msg, size_t msgsize) {
  cli_limit lim;
  memset(&lim, 0, sizeof lim);
  limit("", 0, ud, &lim);
  /* One allocation when the size is known and allowed; otherwise grow. The
  ** size is only a hint: the file may change while it is read. */
  size_t cap = FIRST_CHUNK;
  if (size_hint > 0 && size_hint <= lim.bytes && size_hint < (uint64_t)SIZE_MAX - 1)
    cap = (size_t)size_hint + 1; /* + 1: its end is seen without growing */
  size_t n = 0;
  char *buf = malloc(cap + 1);
  if (!buf) {
    set_message(msg, msgsize, "%s", strerror(ENOMEM));
    return false;
  }
  for (;;) {
    if (n == cap) {
      /* Growing: first ask whether the bytes so far may grow at all. */
      buf[n] = '\0';
      limit(buf, n, ud, &lim);
      if (lim.stop) break;
      if ((uint64_t)n > lim.bytes) {
        set_message(msg, msgsize, "larger than %llu bytes, %s", (unsigned long long)lim.bytes,
                    lim.what);
        free(buf);
        return false;
      }
      /* Up to one byte past the limit: enough to tell it was passed. */
      uint64_t want = (uint64_t)cap * 2;
      if (want > lim.bytes + 1) want = lim.bytes + 1;
      if (want >= (uint64_t)SIZE_MAX - 1) want = (uint64_t)SIZE_MAX - 2;
      char *bigger = want > cap ? realloc(buf, (size_t)want + 1) : NULL;
      if (!bigger) {
        set_message(msg, msgsize, "%s", strerror(ENOMEM));
        free(buf);
        return false;
      }
      buf = bigger;
      cap = (size_t)want;
    }
    const ssize_t got = read(fd, buf + n, cap - n);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      set_message(msg, msgsize, "%s", strerror(errno));
      free(buf);
      return false;
    }
    if (got == 0) break;
    n += (size_t)got;
  }
  buf[n] = '\0';
  limit(buf, n, ud, &lim);
  if (!lim.stop && (uint64_t)n > lim.bytes) {
    set_message(msg, msgsize, "larger than %llu bytes, %s", (unsigned long long)lim.bytes,
                lim.what);
    free(buf);
    return false;
  }
  *data = buf;
  *len = n;
  return true;
}

/* Read `path` ("-": standard input) once: from the kept inputs when it was
** read before, else from the file system (keeping it when it cannot be read
** again). False with the reason in msg (the file not named). */
static bool read_input(const char *path, cli_limit_fn limit, const void *ud, char **data,
                       size_t *len, char *msg, size_t msgsize) {
  *data = NULL;
  *len = 0;
  for (kept_input **at = &kept; *at; at = &(*at)->next) {
    kept_input *k = *at;
    if (strcmp(k->path, path) != 0) continue;
    bool ok = k->data != NULL;
    if (!ok) {
      set_message(msg, msgsize, "%s", k->message ? k->message : strerror(EIO));
    } else if (k->once) {
      *data = k->data; /* handed over */
      *len = k->len;
      k->data = NULL;
    } else if ((*data = malloc(k->len + 1)) != NULL) {
      memcpy(*data, k->data, k->len + 1);
      *len = k->len;
    } else {
      ok = false;
      set_message(msg, msgsize, "%s", strerror(ENOMEM));
    }
    if (k->once) drop(at);
    return ok;
  }
  const bool is_stdin = strcmp(path, "-") == 0;
  const int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY);
  if (fd < 0) {
    set_message(msg, msgsize, "%s", strerror(errno));
    return false;
  }
  struct stat sb;
  bool regular = false, ok = true;
  uint64_t size = 0;
  if (fstat(fd, &sb) != 0) {
    set_message(msg, msgsize, "%s", strerror(errno));
    ok = false;
  } else if (S_ISDIR(sb.st_mode)) {
    set_message(msg, msgsize, "%s", strerror(EISDIR));
    ok = false;
  } else if (S_ISREG(sb.st_mode)) {
    regular = !is_stdin; /* standard input is consumed even when it is a file */
    size = sb.st_size > 0 ? (uint64_t)sb.st_size : 0;
  }
  if (ok) ok = read_fd(fd, size, limit ? limit : text_limit, ud, data, len, msg, msgsize);
  if (!is_stdin) close(fd);
  if (!regular) {
    /* Later readers get these bytes (or this failure): reading again would
    ** wait for a writer that is gone, or get other bytes. */
    char *copy = ok ? malloc(*len + 1) : NULL;
    if (copy) memcpy(copy, *data, *len + 1);
    if ((!ok || copy) && !keep(path, copy, ok ? *len : 0, ok ? NULL : msg, false)) free(copy);
  }
  return ok;
}

bool cli_read_input(const char *path, cli_limit_fn limit, const void *ud, char **data,
                    size_t *len) {
  char msg[512];
  if (read_input(path, limit, ud, data, len, msg, sizeof msg)) return true;
  cli_error("%s: %s", path, msg);
  return false;
}

bool cli_read_file(const char *path, char **data, size_t *len) {
  return cli_read_input(path, NULL, NULL, data, len);
}

/* ---- maps ------------------------------------------------------------------------- */

/* The value of a Moving AI header line "KEY N" at s[0 .. n-1], or -1. */
static long header_number(const char *s, size_t n, const char *key) {
  const size_t k = strlen(key);
  if (n <= k || memcmp(s, key, k) != 0 || (s[k] != ' ' && s[k] != '\t')) return -1;
  long v = -1;
  for (size_t i = k; i < n; i++) {
    if (s[i] == ' ' || s[i] == '\t') {
      if (v >= 0) break;
      continue;
    }
    if (s[i] < '0' || s[i] > '9') return -1;
    v = (v < 0 ? 0 : v) * 10 + (s[i] - '0');
    if (v > ASTAR_GRID_MAX_SIDE) return ASTAR_GRID_MAX_SIDE + 1L;
  }
  return v;
}

/* A Moving AI map says its size in the header ("height H", "width W" before
** "map"): it holds at most the header, H rows of W cells with two-byte line
** ends and CLI_MAP_SLACK_BYTES of blank lines after them. Any other map
** (ASCII, hex, or a header not read yet): the largest text of the largest
** grid -- ASTAR_GRID_MAX_CELLS cells written two characters each (a hex
** map's cells and the spaces between them), three-byte line ends and
** indents on ASTAR_GRID_MAX_SIDE rows -- and CLI_MAP_SLACK_BYTES of
** comment lines. */
#define MAP_HEADER_BYTES 4096u /* where a Moving AI header must end to bound the read */

static void map_limit(const char *head, size_t len, const void *ud, cli_limit *out) {
  (void)ud;
  out->stop = false;
  out->bytes =
      2 * (uint64_t)ASTAR_GRID_MAX_CELLS + 3 * (uint64_t)ASTAR_GRID_MAX_SIDE + CLI_MAP_SLACK_BYTES;
  snprintf(out->what, sizeof out->what,
           "the most a map may hold (%u cells with a space after each, line ends and %u MiB of "
           "comments)",
           (unsigned)ASTAR_GRID_MAX_CELLS, (unsigned)(CLI_MAP_SLACK_BYTES >> 20));
  long h = -1, w = -1;
  size_t at = 0;
  if (len > MAP_HEADER_BYTES) len = MAP_HEADER_BYTES; /* a header is a few short lines */
  while (at < len) {
    size_t end = at;
    while (end < len && head[end] != '\n' && head[end] != '\r') end++;
    if (end == len) return; /* the line may go on */
    const char *s = head + at;
    const size_t n = end - at;
    at = end + 1;
    if (n == 0) continue;
    if (n == 3 && memcmp(s, "map", 3) == 0) break;
    long v;
    if ((v = header_number(s, n, "height")) >= 0)
      h = v;
    else if ((v = header_number(s, n, "width")) >= 0)
      w = v;
    else if (!(n > 4 && memcmp(s, "type", 4) == 0 && (s[4] == ' ' || s[4] == '\t')))
      return; /* not a Moving AI header */
  }
  if (at > len || h < 1 || w < 1 || h > ASTAR_GRID_MAX_SIDE || w > ASTAR_GRID_MAX_SIDE) return;
  out->bytes = (uint64_t)at + (uint64_t)h * ((uint64_t)w + 2) + CLI_MAP_SLACK_BYTES;
  snprintf(out->what, sizeof out->what,
           "the most a Moving AI map of %ld x %ld cells may hold (its header, the rows, line "
           "ends and %u MiB of blank lines)",
           w, h, (unsigned)(CLI_MAP_SLACK_BYTES >> 20));
}

bool cli_read_map(const char *path, char **text, size_t *len) {
  return cli_read_input(path, map_limit, NULL, text, len);
}

const char *cli_peek_map(const char *path, size_t *len) {
  for (kept_input *k = kept; k; k = k->next)
    if (strcmp(k->path, path) == 0) {
      *len = k->len;
      return k->data;
    }
  char msg[512], *data;
  const bool ok = read_input(path, map_limit, NULL, &data, len, msg, sizeof msg);
  /* Held for the next read of the path: bytes, or the failure to report
  ** then. An input kept already (not a regular file) is there twice, the
  ** look-ahead first. */
  if (!keep(path, ok ? data : NULL, ok ? *len : 0, ok ? NULL : msg, true)) {
    if (ok) free(data);
    return NULL;
  }
  return ok ? data : NULL;
}

bool cli_parse_map(const char *path, const char *text, size_t len, astar_grid **grid,
                   astar_point *start, astar_point *goal) {
  astar_parse_error err;
  memset(&err, 0, sizeof err);
  *grid = NULL;
  const astar_status st = astar_parse_map(grid, text, len, NULL, start, goal, &err);
  if (st != ASTAR_OK) {
    cli_report_parse_error(path, st, &err);
    *grid = NULL;
    return false;
  }
  return true;
}

void cli_report_parse_error(const char *path, astar_status st, const astar_parse_error *err) {
  const char *msg = err && err->message[0] ? err->message : astar_strerror(st);
  /* Any error tied to a place in the text names it: malformed text and
  ** sizes beyond the limits alike. */
  if (err && err->line > 0) {
    if (err->column > 0)
      fprintf(stderr, "%s:%d:%d: %s\n", path, (int)err->line, (int)err->column, msg);
    else
      fprintf(stderr, "%s:%d: %s\n", path, (int)err->line, msg);
  } else {
    fprintf(stderr, "%s: %s\n", path, msg);
  }
}

bool cli_load_map(const char *path, astar_grid **grid, astar_point *start, astar_point *goal) {
  char *text;
  size_t len;
  *grid = NULL;
  if (!cli_read_map(path, &text, &len)) return false;
  const bool ok = cli_parse_map(path, text, len, grid, start, goal);
  free(text);
  return ok;
}

bool cli_load_scen(const char *path, astar_scen **scen) {
  char *text;
  size_t len;
  *scen = NULL;
  if (!cli_read_file(path, &text, &len)) return false;
  astar_parse_error err;
  memset(&err, 0, sizeof err);
  astar_status st = astar_movingai_parse_scen(scen, text, len, NULL, &err);
  free(text);
  if (st != ASTAR_OK) {
    cli_report_parse_error(path, st, &err);
    *scen = NULL;
    return false;
  }
  return true;
}
