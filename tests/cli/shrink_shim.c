/*
** shrink_shim.c -- an LD_PRELOAD shim for io_tests.sh (issue 25 item 4): it
** cuts the file named by ASTAR_SHRINK_FILE to ASTAR_SHRINK_TO bytes the
** moment the tool has opened it, mapped it or had its first bytes (
** ASTAR_SHRINK_AT: open, mmap or read) -- a file shrinking under its loader,
** made deterministic. A tool that maps a file and then touches the pages it
** lost dies of SIGBUS; one that reads into its own memory sees a short file,
** or a whole one.
** Built by the test with the system's C compiler; not part of the tool.
*/
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int shrunk;

/* Cut the file once, at the moment `at`, when fd is that file. */
static void shrink(int fd, const char *at) {
  const char *path = getenv("ASTAR_SHRINK_FILE");
  const char *to = getenv("ASTAR_SHRINK_TO");
  const char *when = getenv("ASTAR_SHRINK_AT");
  struct stat a, b;
  if (shrunk || !path || !when || strcmp(when, at) != 0 || fd < 0 || fstat(fd, &a) != 0 ||
      stat(path, &b) != 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino)
    return;
  shrunk = 1;
  if (truncate(path, to ? atol(to) : 0) != 0) shrunk = 2;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
  void *(*real)(void *, size_t, int, int, int, off_t) =
      (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
  void *p = real(addr, len, prot, flags, fd, off);
  if (p != MAP_FAILED) shrink(fd, "mmap");
  return p;
}

ssize_t read(int fd, void *buf, size_t n) {
  ssize_t (*real)(int, void *, size_t) = (ssize_t(*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
  const ssize_t got = real(fd, buf, n);
  if (got > 0) shrink(fd, "read");
  return got;
}

int open(const char *path, int flags, ...) {
  int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
  mode_t mode = 0;
  if (flags & O_CREAT) {
    va_list ap;
    va_start(ap, flags);
    mode = (mode_t)va_arg(ap, int);
    va_end(ap);
  }
  const int fd = real(path, flags, mode);
  shrink(fd, "open");
  return fd;
}
