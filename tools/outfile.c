/*
** outfile.c -- writing output files without destroying anything: every file
** the tool writes (precompute -o, convert, render, --trace) goes through
** cli_out_open / cli_out_close.
**
** A regular file, or a new one, is written to a temporary file in the same
** folder and renamed over its name once complete and flushed: a failed
** write (a full disk, a size limit) leaves what was there untouched, and
** the temporary file -- the one thing the tool created -- is removed.
** Anything else (/dev/null, /dev/full, a FIFO, a terminal) is written
** directly and never removed. A symbolic link is followed: its target is
** replaced when it is a regular file, written directly otherwise; the link
** itself stays.
*/
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* "DIR/.NAME.XXXXXX" beside `file`, for mkstemp. */
static char *temp_name(const char *file) {
  const char *slash = strrchr(file, '/');
  const size_t dn = slash ? (size_t)(slash - file) + 1 : 0;
  const char *base = file + dn;
  char *t = malloc(dn + strlen(base) + sizeof "/..XXXXXX");
  if (!t) return NULL;
  memcpy(t, file, dn);
  sprintf(t + dn, ".%s.XXXXXX", base);
  return t;
}

/* Direct writing: the target is not a regular file (or a link that leads
** nowhere yet, which fopen creates). */
static bool open_direct(cli_out *o) {
  o->f = fopen(o->path, "wb");
  if (!o->f) {
    cli_error("%s: %s", o->path, strerror(errno));
    return false;
  }
  return true;
}

bool cli_out_open(cli_out *o, const char *path) {
  memset(o, 0, sizeof *o);
  o->path = path;
  struct stat sb;
  const bool exists = lstat(path, &sb) == 0;
  char *target;
  if (exists && S_ISLNK(sb.st_mode)) {
    /* Replace what the link points to, keep the link. A dangling link (or
    ** a loop) is written through directly, as fopen does. */
    target = realpath(path, NULL);
    if (!target || stat(target, &sb) != 0) {
      free(target);
      return open_direct(o);
    }
  } else if (!(target = malloc(strlen(path) + 1))) {
    cli_error("%s: %s", path, strerror(ENOMEM));
    return false;
  } else {
    strcpy(target, path);
  }
  if (exists && !S_ISREG(sb.st_mode)) {
    free(target);
    if (S_ISDIR(sb.st_mode)) {
      cli_error("%s: %s", path, strerror(EISDIR));
      return false;
    }
    return open_direct(o);
  }
  o->target = target;
  o->tmp = temp_name(target);
  const int fd = o->tmp ? mkstemp(o->tmp) : -1;
  if (fd < 0) {
    const int e = o->tmp ? errno : ENOMEM;
    cli_error("%s: cannot create a temporary file beside it: %s", path, strerror(e));
    free(o->tmp);
    free(o->target);
    memset(o, 0, sizeof *o);
    return false;
  }
  /* The replaced file's mode and owner (the owner only when allowed), or
  ** what fopen would give a new file. */
  mode_t mode;
  if (exists) {
    mode = sb.st_mode & 07777;
    if (fchown(fd, sb.st_uid, sb.st_gid) != 0) errno = 0;
  } else {
    const mode_t mask = umask(0);
    umask(mask);
    mode = 0666 & ~mask;
  }
  (void)fchmod(fd, mode);
  o->f = fdopen(fd, "wb");
  if (!o->f) {
    cli_error("%s: %s", path, strerror(errno));
    close(fd);
    cli_out_abort(o);
    return false;
  }
  return true;
}

bool cli_out_close(cli_out *o) {
  if (!o->f) return false;
  /* fflush first: a write that failed before is tried again and sets errno. */
  errno = 0;
  bool ok = fflush(o->f) == 0;
  int saved = errno;
  if (ok && ferror(o->f)) {
    ok = false;
    saved = 0;
  }
  if (o->err) {
    ok = false;
    saved = o->err;
  }
  if (fclose(o->f) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  o->f = NULL;
  if (ok && o->tmp && rename(o->tmp, o->target) != 0) {
    ok = false;
    saved = errno;
  }
  if (!ok) cli_error("%s: %s", o->path, strerror(saved ? saved : EIO));
  if (o->tmp && !ok) (void)unlink(o->tmp); /* ours: nothing of the old file is lost */
  free(o->tmp);
  free(o->target);
  o->tmp = o->target = NULL;
  return ok;
}

void cli_out_abort(cli_out *o) {
  if (o->f) fclose(o->f);
  o->f = NULL;
  if (o->tmp) (void)unlink(o->tmp);
  free(o->tmp);
  free(o->target);
  o->tmp = o->target = NULL;
}

bool cli_write_file(const char *path, const void *data, size_t len) {
  cli_out o;
  if (!cli_out_open(&o, path)) return false;
  errno = 0;
  if (len > 0 && fwrite(data, 1, len, o.f) != len) o.err = errno ? errno : EIO;
  return cli_out_close(&o);
}
