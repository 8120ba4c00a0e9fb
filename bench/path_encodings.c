/*
** path_encodings.c -- bytes per step of every path encoding of
** astar/path.h (Patel 6.1-6.3) on the paths of the Moving AI queries, per
** map family, with encode and decode times. Every query of every .scen under
** the folder is solved with JPS+ (its full cell path, as astar_find_path
** returns it); each path is encoded with every encoding, decoded and
** compared (a mismatch is an error: exit 1), and turned into turn points and
** back. Sizes include each encoding's header; "turn pts" counts 4 bytes a
** turn point (two 16-bit coordinates, no header) for comparison.
**
** Columns: B/step = total bytes / total steps of the family; mean = the
** mean over paths of bytes / steps (paths of 0 steps left out); vs pos =
** total bytes / the POSITIONS encoding's total bytes; enc / dec = ns a step
** (the paths of a map are encoded, then decoded, in batches of up to 2 M
** cells timed as a whole -- the search is not timed).
**
** Build and run from the repository root, after `make`:
**   cc -O2 -Iinclude bench/path_encodings.c build/libastar.a -lm -lpthread \
**      -o build/path_encodings
**   taskset -c 1 ./build/path_encodings [../shared/bench/movingai]
*/
#define _POSIX_C_SOURCE 200809L
#include <astar/astar.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

#define NENC ASTAR_PATH_ENCODING_COUNT
#define BATCH_CELLS (2u << 20) /* cells of the paths timed together */
#define NAMES 256              /* most entries read from one folder */

typedef struct family_stats {
  size_t paths, steps;
  double bytes[NENC + 1];    /* [NENC]: turn points at 4 bytes each */
  double mean_sum[NENC + 1]; /* sum over paths (steps > 0) of bytes / steps */
  size_t mean_n;             /* paths with steps > 0 */
  double enc_ns[NENC], dec_ns[NENC];
} family_stats;

/* Sorted names in `dir` (files or folders) ending with `suffix` ("" for
** any name not starting with '.'); 0 when `dir` cannot be read. */
static size_t list_dir(const char *dir, const char *suffix, char **names) {
  size_t n = 0;
  (void)bench_list_dir(dir, suffix, names, NAMES, &n);
  return n;
}

/* The encodings' check and timing over paths[0 .. count-1] (offsets into
** cells). Returns false on a round-trip mismatch. */
static bool measure(const astar_point *cells, const size_t *off, size_t count, uint8_t *buf,
                    size_t bufcap, size_t *lens, astar_point *back, family_stats *fs) {
  for (int e = 0; e < NENC; e++) {
    size_t at = 0;
    const double t0 = 1e9 * bench_now();
    for (size_t i = 0; i < count; i++) {
      size_t len = 0;
      if (astar_path_encode(cells + off[i], off[i + 1] - off[i], (astar_path_encoding)e, buf + at,
                            bufcap - at, &len) != ASTAR_OK)
        return false;
      lens[i] = len;
      at += len;
    }
    const double t1 = 1e9 * bench_now();
    at = 0;
    size_t bat = 0;
    for (size_t i = 0; i < count; i++) {
      size_t n = 0;
      if (astar_path_decode(buf + at, lens[i], back + bat, BATCH_CELLS - bat, &n) != ASTAR_OK)
        return false;
      at += lens[i];
      bat += n;
    }
    const double t2 = 1e9 * bench_now();
    fs->enc_ns[e] += t1 - t0;
    fs->dec_ns[e] += t2 - t1;
    if (memcmp(back, cells, off[count] * sizeof *cells)) return false;
    for (size_t i = 0; i < count; i++) {
      const size_t steps = off[i + 1] - off[i] - 1;
      fs->bytes[e] += (double)lens[i];
      if (steps) fs->mean_sum[e] += (double)lens[i] / (double)steps;
    }
  }
  /* Turn points: 4 bytes each; their expansion gives the path back. */
  for (size_t i = 0; i < count; i++) {
    const size_t n = off[i + 1] - off[i], steps = n - 1;
    size_t m = 0, k = 0;
    if (astar_path_turn_points(cells + off[i], n, back, BATCH_CELLS, &m) != ASTAR_OK ||
        astar_path_expand_turn_points(back, m, back + m, BATCH_CELLS - m, &k) != ASTAR_OK ||
        k != n || memcmp(back + m, cells + off[i], n * sizeof *cells))
      return false;
    fs->bytes[NENC] += 4.0 * (double)m;
    if (steps) fs->mean_sum[NENC] += 4.0 * (double)m / (double)steps, fs->mean_n++;
    fs->steps += steps;
    fs->paths++;
  }
  return true;
}

static bool run_map(const char *dir, const char *scen_name, family_stats *fs) {
  char path[2048], map_path[2048];
  snprintf(path, sizeof path, "%s/%s", dir, scen_name);
  snprintf(map_path, sizeof map_path, "%s/%.*s", dir, (int)(strlen(scen_name) - 5), scen_name);
  size_t mlen, slen;
  char *mtext = bench_slurp(map_path, &mlen), *stext = bench_slurp(path, &slen);
  astar_grid *g = NULL;
  astar_scen *sc = NULL;
  astar_jps_plus *pre = NULL;
  astar_workspace *ws = NULL;
  bool ok = mtext && stext &&
            astar_parse_map(&g, mtext, mlen, NULL, NULL, NULL, NULL) == ASTAR_OK &&
            astar_movingai_parse_scen(&sc, stext, slen, NULL, NULL) == ASTAR_OK &&
            astar_jps_plus_new(&pre, g, NULL) == ASTAR_OK &&
            astar_workspace_new(&ws, g, NULL) == ASTAR_OK;
  free(mtext), free(stext);
  const size_t nq = ok ? astar_scen_count(sc) : 0;
  astar_point *cells = malloc(BATCH_CELLS * sizeof *cells);
  astar_point *back = malloc(BATCH_CELLS * sizeof *back);
  size_t *off = malloc((nq + 2) * sizeof *off);
  size_t *lens = malloc((nq + 1) * sizeof *lens);
  const size_t bufcap = BATCH_CELLS * 8 + (nq + 1) * 32;
  uint8_t *buf = malloc(bufcap);
  if (!cells || !back || !off || !lens || !buf) ok = false;
  /* First touches of the buffers are not the encodings' time. */
  if (ok)
    memset(cells, 0, BATCH_CELLS * sizeof *cells), memset(back, 0, BATCH_CELLS * sizeof *back);
  if (ok) memset(buf, 0, bufcap);
  const astar_scen_query *q = ok ? astar_scen_queries(sc) : NULL;
  size_t count = 0;
  if (ok) off[0] = 0;
  for (size_t i = 0; ok && i < nq; i++) {
    astar_result r;
    const size_t at = off[count];
    astar_status st = astar_jps_plus_find_path(ws, pre, g, NULL, q[i].start, q[i].goal, cells + at,
                                               BATCH_CELLS - at, &r);
    if (st == ASTAR_BUFFER_TOO_SMALL) { /* this batch is full: measure it, start another */
      ok = measure(cells, off, count, buf, bufcap, lens, back, fs);
      count = 0;
      st = astar_workspace_path(ws, cells, BATCH_CELLS, &r.length);
    }
    if (st != ASTAR_OK) continue; /* no path: nothing to store */
    off[count + 1] = off[count] + r.length;
    count++;
  }
  if (ok && count) ok = measure(cells, off, count, buf, bufcap, lens, back, fs);
  if (!ok) fprintf(stderr, "%s: failed (load, memory, or a round-trip mismatch)\n", path);
  free(cells), free(back), free(off), free(lens), free(buf);
  astar_workspace_free(ws);
  astar_jps_plus_free(pre);
  astar_scen_free(sc);
  astar_grid_free(g);
  return ok;
}

static void print_family(const char *name, const family_stats *fs) {
  printf("%-8s %6zu paths %9zu steps\n", name, fs->paths, fs->steps);
  for (int e = 0; e <= NENC; e++) {
    const double steps = fs->steps ? (double)fs->steps : 1.0;
    const char *label = e < NENC ? astar_path_encoding_name((astar_path_encoding)e) : "turn pts";
    printf("  %-11s B/step %7.4f  mean %7.4f  vs pos %6.4f", label, fs->bytes[e] / steps,
           fs->mean_n ? fs->mean_sum[e] / (double)fs->mean_n : 0.0,
           fs->bytes[0] > 0 ? fs->bytes[e] / fs->bytes[0] : 0.0);
    if (e < NENC)
      printf("  enc %6.2f  dec %6.2f ns/step", fs->enc_ns[e] / steps, fs->dec_ns[e] / steps);
    printf("\n");
  }
}

int main(int argc, char **argv) {
  const char *root = argc > 1 ? argv[1] : "../shared/bench/movingai";
  char *fam[NAMES], *scen[NAMES], dir[1024];
  const size_t nf = list_dir(root, "", fam);
  family_stats all;
  memset(&all, 0, sizeof all);
  bool ok = nf > 0;
  const double t0 = 1e9 * bench_now();
  for (size_t f = 0; f < nf; f++) {
    snprintf(dir, sizeof dir, "%s/%s", root, fam[f]);
    const size_t ns = list_dir(dir, ".scen", scen);
    if (ns == 0) continue;
    family_stats fs;
    memset(&fs, 0, sizeof fs);
    for (size_t s = 0; s < ns; s++) {
      ok = run_map(dir, scen[s], &fs) && ok;
      free(scen[s]);
    }
    print_family(fam[f], &fs);
    all.paths += fs.paths, all.steps += fs.steps, all.mean_n += fs.mean_n;
    for (int e = 0; e <= NENC; e++) {
      all.bytes[e] += fs.bytes[e], all.mean_sum[e] += fs.mean_sum[e];
      if (e < NENC) all.enc_ns[e] += fs.enc_ns[e], all.dec_ns[e] += fs.dec_ns[e];
    }
  }
  for (size_t f = 0; f < nf; f++) free(fam[f]);
  print_family("all", &all);
  printf("wall %.1f s\n", (1e9 * bench_now() - t0) / 1e9);
  if (!ok) fprintf(stderr, "errors (see above)\n");
  return ok ? 0 : 1;
}
