/*
** golden_check.c -- the golden path hashes of tests/golden/movingai.txt,
** checked by a program that needs nothing but the library and the C
** library: what the cross-platform builds run (32-bit x86 under qemu,
** WebAssembly under Node; .ci/run's determinism and web stages), where the
** astar tool and its image library are not built. The release build checks
** the same file with `astar bench --golden` on every query.
**
**   golden_check GOLDEN_FILE MOVINGAI_DIR EVERY
**
** For every line "ALGO EVERY SCEN HASH" with the EVERY given, finds SCEN in
** a folder of MOVINGAI_DIR, runs every EVERY-th query with ALGO (astar, jps
** or jps-plus, default options) as `astar bench` does, hashes the statuses
** and paths in order (astar_path_hash) and compares. Prints one line per
** map and "N passed, M failed"; exit 0 when all match, 1 otherwise, 2 on a
** usage error.
*/
/* 64-bit inode numbers and offsets on 32-bit systems too (readdir). */
#define _FILE_OFFSET_BITS 64

#include <astar/astar.h>

#include <dirent.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    const size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (n + 1 < cap) break;
    char *grown = realloc(buf, cap * 2);
    if (!grown) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = grown;
    cap *= 2;
  }
  fclose(f);
  if (buf) buf[n] = '\0';
  *len = n;
  return buf;
}

/* DIR/FAMILY/SCEN for the first family folder holding SCEN, into out. */
static bool find_scen(const char *dir, const char *scen, char *out, size_t cap) {
  DIR *d = opendir(dir);
  if (!d) return false;
  bool found = false;
  for (struct dirent *e; !found && (e = readdir(d)) != NULL;) {
    if (e->d_name[0] == '.') continue;
    snprintf(out, cap, "%s/%s/%s", dir, e->d_name, scen);
    FILE *f = fopen(out, "rb");
    if (f) {
      fclose(f);
      found = true;
    }
  }
  closedir(d);
  return found;
}

/* The hash `astar bench --hash` prints for one map, or 0 with a message. */
static uint64_t map_hash(const char *algo, const char *scen_path, size_t every) {
  char map_path[1024];
  const size_t sl = strlen(scen_path);
  if (sl < 6 || sl - 5 >= sizeof map_path) return 0;
  memcpy(map_path, scen_path, sl - 5); /* X.map.scen -> X.map */
  map_path[sl - 5] = '\0';
  size_t ml = 0, sn = 0;
  char *mt = read_all(map_path, &ml), *st = read_all(scen_path, &sn);
  astar_grid *g = NULL;
  astar_scen *scen = NULL;
  astar_workspace *ws = NULL;
  astar_jps_plus *pre = NULL;
  astar_point *path = NULL;
  uint64_t h = 0;
  if (!mt || !st || astar_movingai_parse_map(&g, mt, ml, NULL, NULL) != ASTAR_OK ||
      astar_movingai_parse_scen(&scen, st, sn, NULL, NULL) != ASTAR_OK ||
      astar_workspace_new(&ws, g, NULL) != ASTAR_OK) {
    fprintf(stderr, "golden_check: cannot read %s or %s\n", map_path, scen_path);
    goto done;
  }
  astar_options opt;
  astar_options_init(&opt);
  if (!strcmp(algo, "jps")) {
    opt.algorithm = ASTAR_ALGO_JPS;
  } else if (!strcmp(algo, "jps-plus")) {
    if (astar_jps_plus_new(&pre, g, NULL) != ASTAR_OK) goto done;
  } else if (strcmp(algo, "astar") != 0) {
    fprintf(stderr, "golden_check: unknown algorithm '%s'\n", algo);
    goto done;
  }
  size_t cap = astar_grid_count_passable(g);
  if (cap == 0) cap = 1;
  path = malloc(cap * sizeof *path);
  if (!path) goto done;
  const astar_scen_query *q = astar_scen_queries(scen);
  h = ASTAR_PATH_HASH_INIT;
  for (size_t i = 0; i < astar_scen_count(scen); i += every) {
    astar_result r;
    const astar_status s =
        pre ? astar_jps_plus_find_path(ws, pre, g, &opt, q[i].start, q[i].goal, path, cap, &r)
            : astar_find_path(ws, g, &opt, q[i].start, q[i].goal, path, cap, &r);
    const astar_point head = {(int32_t)s, s == ASTAR_OK ? (int32_t)r.length : 0};
    h = astar_path_hash(&head, 1, h);
    if (s == ASTAR_OK) h = astar_path_hash(path, r.length, h);
  }
done:
  free(path);
  astar_jps_plus_free(pre);
  astar_workspace_free(ws);
  astar_scen_free(scen);
  astar_grid_free(g);
  free(mt), free(st);
  return h;
}

int main(int argc, char **argv) {
  char *end = NULL;
  const unsigned long every = argc == 4 ? strtoul(argv[3], &end, 10) : 0;
  if (argc != 4 || !end || *end || every == 0) {
    fprintf(stderr, "usage: golden_check GOLDEN_FILE MOVINGAI_DIR EVERY (EVERY >= 1)\n");
    return 2;
  }
  size_t len = 0;
  char *text = read_all(argv[1], &len);
  if (!text) {
    fprintf(stderr, "golden_check: cannot read %s\n", argv[1]);
    return 2;
  }
  printf("golden_check: FLT_EVAL_METHOD %d, pointers of %u bits\n", (int)FLT_EVAL_METHOD,
         (unsigned)(sizeof(void *) * 8));
  int passed = 0, failed = 0;
  size_t lineno = 0;
  for (char *line = text, *next; line && *line; line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = '\0';
    lineno++;
    if (*line == '#' || *line == '\0') continue;
    char algo[32], scen[256], where[1024];
    unsigned long long e, want;
    if (sscanf(line, "%31s %llu %255s %16llx", algo, &e, scen, &want) != 4) {
      fprintf(stderr, "%s:%zu: expected 'ALGO EVERY SCEN HASH'\n", argv[1], lineno);
      failed++;
      continue;
    }
    if (e != every) continue;
    if (!find_scen(argv[2], scen, where, sizeof where)) {
      fprintf(stderr, "golden_check: %s not found under %s\n", scen, argv[2]);
      failed++;
      continue;
    }
    const uint64_t got = map_hash(algo, where, (size_t)every);
    if (got == (uint64_t)want) {
      passed++;
      printf("ok   %s %lu %s\n", algo, every, scen);
    } else {
      failed++;
      printf("DIFF %s %lu %s: %016llx, expected %016llx\n", algo, every, scen,
             (unsigned long long)got, want);
    }
    fflush(stdout);
  }
  free(text);
  if (passed + failed == 0) {
    fprintf(stderr, "golden_check: no line of %s has EVERY %lu\n", argv[1], every);
    failed = 1;
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
