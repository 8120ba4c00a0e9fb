/*
** fileio.c -- reading files into memory and handing them to the library's
** parsers, which work on buffers only. Errors name the file (and the line and
** column for parse errors) so that a user can go straight to the problem.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define CLI_HAVE_MMAP 1
#else
#define CLI_HAVE_MMAP 0
#endif

#include "cli.h"

/* Standard input can be read only once; it is kept, so that a command may
** look at a map before choosing its parser (a hex map's header). */
static char *stdin_copy;
static size_t stdin_len;

/* The whole file into a malloc'd buffer with a NUL after the data; on
** failure false with errno set, nothing printed. */
static bool read_all(const char *path, char **data, size_t *len) {
  bool is_stdin = strcmp(path, "-") == 0;
  if (is_stdin && stdin_copy) {
    char *copy = malloc(stdin_len + 1);
    if (!copy) {
      errno = ENOMEM;
      return false;
    }
    memcpy(copy, stdin_copy, stdin_len + 1);
    *data = copy;
    *len = stdin_len;
    return true;
  }
  FILE *f = is_stdin ? stdin : fopen(path, "rb");
  if (!f) return false;
  /* Grow geometrically rather than asking for the size: works for pipes too. */
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  bool ok = buf != NULL;
  while (ok) {
    if (n == cap) {
      char *bigger = cap < ((size_t)-1 - 1) / 2 ? realloc(buf, cap * 2 + 1) : NULL;
      if (!bigger) {
        ok = false;
        errno = ENOMEM;
        break;
      }
      buf = bigger;
      cap *= 2;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) {
      if (ferror(f)) ok = false;
      break;
    }
  }
  int saved = errno;
  if (!is_stdin) fclose(f);
  if (!ok) {
    free(buf);
    errno = saved ? saved : EIO;
    return false;
  }
  buf[n] = '\0';
  if (is_stdin && (stdin_copy = malloc(n + 1)) != NULL) {
    memcpy(stdin_copy, buf, n + 1);
    stdin_len = n;
  }
  *data = buf;
  *len = n;
  return true;
}

bool cli_read_file(const char *path, char **data, size_t *len) {
  errno = 0;
  if (read_all(path, data, len)) return true;
  cli_error("%s: %s", path, strerror(errno ? errno : EIO));
  return false;
}

bool cli_peek_file(const char *path, char **data, size_t *len) {
  return read_all(path, data, len);
}

bool cli_view_file(const char *path, cli_file_view *v) {
  memset(v, 0, sizeof *v);
#if CLI_HAVE_MMAP
  /* A regular file is mapped: its bytes are the page cache's, with no copy
  ** into fresh memory (16 MB of JPS+ table: 50 ms of page faults and copying
  ** saved on this kind of machine). Anything else is read. */
  if (strcmp(path, "-") != 0) {
    const int fd = open(path, O_RDONLY);
    if (fd < 0) {
      cli_error("%s: %s", path, strerror(errno));
      return false;
    }
    struct stat sb;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 &&
        (unsigned long long)sb.st_size <= (size_t)-1) {
      void *m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
      if (m != MAP_FAILED) {
        close(fd);
        v->data = m;
        v->len = (size_t)sb.st_size;
        v->mapped = m;
        return true;
      }
    }
    close(fd);
  }
#endif
  char *data;
  if (!cli_read_file(path, &data, &v->len)) return false;
  v->data = data;
  v->owned = data;
  return true;
}

void cli_release_view(cli_file_view *v) {
#if CLI_HAVE_MMAP
  if (v->mapped) munmap(v->mapped, v->len);
#endif
  free(v->owned);
  memset(v, 0, sizeof *v);
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
  if (!cli_read_file(path, &text, &len)) return false;
  astar_parse_error err;
  memset(&err, 0, sizeof err);
  astar_status st = astar_parse_map(grid, text, len, NULL, start, goal, &err);
  free(text);
  if (st != ASTAR_OK) {
    cli_report_parse_error(path, st, &err);
    *grid = NULL;
    return false;
  }
  return true;
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
