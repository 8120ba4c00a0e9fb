/*
** png_encode.c -- the PNG writer of `astar render` alone: reads a picture
** (a PNG, e.g. one the tool wrote), then writes its pixels with
** render_png_write (tools/png.c) to /dev/null RUNS times and prints the
** size and the median CPU time. Built against any tree's tools/png.c, it
** compares two encoders on the same pixels without the search and drawing
** that dominate a whole `astar render` (docs/seeing-the-search.md).
**
** Build and run from the repository root:
**   cc -O2 -Itools bench/png_encode.c tools/png.c -lpng -o build/png_encode
**   ./build/png_encode PICTURE.png [RUNS]        (default 7 runs)
*/
#define _POSIX_C_SOURCE 200809L

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "render.h"

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s PICTURE.png [RUNS]\n", argv[0]);
    return 2;
  }
  const int runs = argc > 2 ? atoi(argv[2]) : 7;
  if (runs < 1 || runs > 1000) {
    fprintf(stderr, "RUNS: 1 to 1000\n");
    return 2;
  }
  png_image img;
  memset(&img, 0, sizeof img);
  img.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&img, argv[1])) {
    fprintf(stderr, "%s: %s\n", argv[1], img.message);
    return 1;
  }
  img.format = PNG_FORMAT_RGB;
  uint8_t *rgb = malloc(PNG_IMAGE_SIZE(img));
  double *t = malloc(sizeof *t * (size_t)runs);
  if (!rgb || !t || !png_image_finish_read(&img, NULL, rgb, 0, NULL)) {
    fprintf(stderr, "%s: %s\n", argv[1], rgb && t ? img.message : "out of memory");
    png_image_free(&img);
    free(rgb);
    free(t);
    return 1;
  }
  size_t bytes = 0;
  int status = 0;
  for (int r = 0; r < runs && status == 0; r++) {
    FILE *f = fopen("/dev/null", "wb");
    if (!f) {
      perror("/dev/null");
      status = 1;
      break;
    }
    const double t0 = cpu_seconds();
    if (!render_png_write(f, (int)img.width, (int)img.height, rgb, false, &bytes)) {
      perror("render_png_write");
      status = 1;
    }
    t[r] = cpu_seconds() - t0;
    fclose(f);
  }
  if (status == 0) {
    qsort(t, (size_t)runs, sizeof *t, by_value);
    printf("%s: %u x %u px, %zu bytes, %.1f ms (median of %d, CPU time)\n", argv[1], img.width,
           img.height, bytes, t[runs / 2] * 1e3, runs);
  }
  free(rgb);
  free(t);
  return status;
}
