/*
** slurp.h -- the tests' whole-file reader (header-only: each test is one
** translation unit). Tests only: the library reads nothing itself.
*/
#ifndef ASTAR_TEST_SLURP_H
#define ASTAR_TEST_SLURP_H

#include <stdio.h>
#include <stdlib.h>

/* The bytes of the file at `path` (the caller frees them), their count in
** *n; NULL if it cannot be opened or is empty. */
static inline char *test_slurp(const char *path, size_t *n) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return NULL;
  char *buf = NULL;
  if (fseek(fp, 0, SEEK_END) == 0) {
    const long len = ftell(fp);
    rewind(fp);
    if (len > 0 && (buf = malloc((size_t)len)) != NULL) *n = fread(buf, 1, (size_t)len, fp);
  }
  fclose(fp);
  return buf;
}

#endif /* ASTAR_TEST_SLURP_H */
