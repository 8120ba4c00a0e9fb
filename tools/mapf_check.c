/*
** mapf_check.c -- `astar mapf --check FILE`: a MAPF solution made by anyone,
** checked by the library's validator (astar_mapf_check). Three formats,
** told apart by their first bytes:
**
**   the tool's JSON (--json, -o): an object with "map", "scen" (or
**     "generated": {"seed": S} with "scen": null), "agents" and "paths",
**     per agent a list of [x, y] from time 0; read with cJSON. Relative
**     names are resolved against the JSON's own folder.
**   lacam3's result file (Kei18/lacam3, post_processing.cpp make_log):
**     key=value lines -- agents=, map_file= (the map's name without its
**     folders), starts=(x,y),..., goals=... -- then "solution=" and one line
**     per time step "t:(x,y),(x,y),...," giving every agent's cell (x the
**     column, y the row: lacam3 writes index % width, index / width).
**   EECBS's --outputPaths file (Jiaoyang-Li/EECBS, CBS::savePaths): one
**     line per agent "Agent i: (row,col)->(row,col)->...->": row first,
**     so (row, col) is (y, x). It names neither map nor scen.
**
** A file that cannot be read or parsed is exit 2 with file:line:column (a
** JSON value of the wrong type: file and the value's JSON path), so that a
** benchmark tells it from an invalid solution (exit 1).
*/
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "mapf_tool.h"

#define BAD CLI_EXIT_USAGE /* a file that cannot be read or parsed */

/* What a solution file holds, whatever its format. */
typedef struct mapf_file {
  const char *format; /* "json", "lacam3", "eecbs" */
  char *map, *scen;   /* named by the file (resolved), or NULL */
  bool generated;     /* JSON: "generated": {"seed": S} */
  uint64_t seed;
  size_t agents;       /* the instance's agents (0: as many as paths) */
  size_t npaths;       /* paths in the file */
  astar_point **paths; /* npaths paths */
  size_t *lens;
  astar_point *starts, *goals; /* lacam3's starts= / goals= (nstarts each), or NULL */
  size_t nstarts;
} mapf_file;

static void file_free(mapf_file *f) {
  for (size_t i = 0; f->paths && i < f->npaths; i++) free(f->paths[i]);
  free(f->paths);
  free(f->lens);
  free(f->map);
  free(f->scen);
  free(f->starts);
  free(f->goals);
}

static char *dup_text(const char *s) {
  const size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

/* `name` as written in the file at `file`: relative names against the
** file's folder. */
static char *resolve(const char *file, const char *name) {
  const char *slash = strrchr(file, '/');
  if (name[0] == '/' || !slash || strcmp(file, "-") == 0 || strcmp(name, "-") == 0)
    return dup_text(name);
  const size_t dn = (size_t)(slash - file) + 1, n = strlen(name);
  char *r = malloc(dn + n + 1);
  if (!r) return NULL;
  memcpy(r, file, dn);
  memcpy(r + dn, name, n + 1);
  return r;
}

/* Line and column (1-based) of text[at]. */
static void position(const char *text, size_t at, int *line, int *col) {
  *line = 1;
  *col = 1;
  for (size_t i = 0; i < at && text[i]; i++) {
    if (text[i] == '\n') {
      ++*line;
      *col = 1;
    } else {
      ++*col;
    }
  }
}

static void parse_error(const char *file, const char *text, size_t at, const char *what) {
  int line, col;
  position(text, at, &line, &col);
  fprintf(stderr, "%s:%d:%d: %s\n", file, line, col, what);
}

/* Room for path i to hold one more point. */
static bool push_point(mapf_file *f, size_t *caps, size_t i, astar_point p) {
  if (f->lens[i] == caps[i]) {
    const size_t cap = caps[i] ? 2 * caps[i] : 16;
    astar_point *q = realloc(f->paths[i], cap * sizeof *q);
    if (!q) return false;
    f->paths[i] = q;
    caps[i] = cap;
  }
  f->paths[i][f->lens[i]++] = p;
  return true;
}

static bool alloc_paths(mapf_file *f, size_t n) {
  f->npaths = n;
  f->paths = calloc(n ? n : 1, sizeof(astar_point *));
  f->lens = calloc(n ? n : 1, sizeof *f->lens);
  return f->paths && f->lens;
}

/* ---- the tool's JSON ------------------------------------------------------------------- */

/* An integer in [lo, hi] that the JSON number `v` holds exactly. */
static bool json_int(const cJSON *v, double lo, double hi, double *out) {
  if (!cJSON_IsNumber(v)) return false;
  const double d = v->valuedouble;
  if (!(d >= lo && d <= hi) || d != (double)(long long)d) return false;
  *out = d;
  return true;
}

static int read_json(mapf_file *f, const char *file, const char *text, size_t len) {
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
  if (!root) {
    const size_t at = end && end >= text ? (size_t)(end - text) : 0;
    parse_error(file, text, at, "malformed JSON");
    return BAD;
  }
  int rc = -1;
  const char *what = NULL;
  char where[96] = "";
  const cJSON *map = cJSON_GetObjectItemCaseSensitive(root, "map");
  const cJSON *scen = cJSON_GetObjectItemCaseSensitive(root, "scen");
  const cJSON *gen = cJSON_GetObjectItemCaseSensitive(root, "generated");
  const cJSON *agents = cJSON_GetObjectItemCaseSensitive(root, "agents");
  const cJSON *paths = cJSON_GetObjectItemCaseSensitive(root, "paths");
  double d;
  if (!cJSON_IsObject(root)) {
    what = "expected a JSON object with \"map\", \"scen\" and \"paths\"";
  } else if (map && !cJSON_IsString(map)) {
    snprintf(where, sizeof where, "\"map\"");
    what = "expected the map's file name, a string";
  } else if (scen && !cJSON_IsString(scen) && !cJSON_IsNull(scen)) {
    snprintf(where, sizeof where, "\"scen\"");
    what = "expected the scen's file name, a string, or null";
  } else if (agents && !json_int(agents, 1, ASTAR_MAPF_MAX_AGENTS, &d)) {
    snprintf(where, sizeof where, "\"agents\"");
    what = "expected the number of agents, an integer from 1 to 1048576";
  } else if (!cJSON_IsArray(paths)) {
    snprintf(where, sizeof where, "\"paths\"");
    what = "expected the agents' paths, an array (one [[x, y], ...] per agent)";
  } else if (gen && !(cJSON_IsObject(gen) && json_int(cJSON_GetObjectItemCaseSensitive(gen, "seed"),
                                                      0, 18446744073709549568.0, &d))) {
    snprintf(where, sizeof where, "\"generated\"");
    what = "expected {\"seed\": S}, S an integer";
  }
  if (!what) {
    f->format = "json";
    if (map) f->map = resolve(file, map->valuestring);
    if (scen && cJSON_IsString(scen)) f->scen = resolve(file, scen->valuestring);
    if (gen) {
      f->generated = true;
      f->seed = (uint64_t)cJSON_GetObjectItemCaseSensitive(gen, "seed")->valuedouble;
    }
    if (agents) f->agents = (size_t)agents->valuedouble;
    const size_t n = (size_t)cJSON_GetArraySize(paths);
    if (n > ASTAR_MAPF_MAX_AGENTS) {
      snprintf(where, sizeof where, "\"paths\"");
      what = "more paths than the library takes (1048576)";
    } else if (!alloc_paths(f, n)) {
      cli_error("%s", astar_strerror(ASTAR_NO_MEMORY));
      rc = CLI_EXIT_FAIL;
    }
    size_t i = 0;
    const cJSON *path;
    cJSON_ArrayForEach(path, paths) {
      if (what || rc >= 0) break;
      if (!cJSON_IsArray(path)) {
        snprintf(where, sizeof where, "\"paths\"[%zu]", i);
        what = "expected an agent's path, an array of [x, y]";
        break;
      }
      const int plen = cJSON_GetArraySize(path);
      f->paths[i] = malloc((size_t)(plen ? plen : 1) * sizeof *f->paths[i]);
      if (!f->paths[i]) {
        cli_error("%s", astar_strerror(ASTAR_NO_MEMORY));
        rc = CLI_EXIT_FAIL;
        break;
      }
      size_t t = 0;
      const cJSON *cell;
      cJSON_ArrayForEach(cell, path) {
        double x, y;
        if (!cJSON_IsArray(cell) || cJSON_GetArraySize(cell) != 2 ||
            !json_int(cJSON_GetArrayItem(cell, 0), INT32_MIN, INT32_MAX, &x) ||
            !json_int(cJSON_GetArrayItem(cell, 1), INT32_MIN, INT32_MAX, &y)) {
          snprintf(where, sizeof where, "\"paths\"[%zu][%zu]", i, t);
          what = "expected a cell [x, y], two integers";
          break;
        }
        f->paths[i][t++] = (astar_point){(int32_t)x, (int32_t)y};
      }
      f->lens[i] = t;
      i++;
    }
    if (!what && rc < 0 &&
        ((map && !f->map) || (f->scen == NULL && scen && cJSON_IsString(scen)))) {
      cli_error("%s", astar_strerror(ASTAR_NO_MEMORY));
      rc = CLI_EXIT_FAIL;
    }
  }
  if (what) {
    /* cJSON keeps no positions: the value is named by its JSON path. */
    fprintf(stderr, "%s: %s%s%s\n", file, where, where[0] ? ": " : "", what);
    rc = BAD;
  }
  cJSON_Delete(root);
  return rc;
}

/* ---- the text formats ------------------------------------------------------------------ */

typedef struct cursor {
  const char *file, *text;
  size_t at, len;
} cursor;

static bool at_end_of_line(const cursor *c) {
  return c->at >= c->len || c->text[c->at] == '\n' || c->text[c->at] == '\r';
}

static void skip_line(cursor *c) {
  while (c->at < c->len && c->text[c->at] != '\n') c->at++;
  if (c->at < c->len) c->at++;
}

static bool literal(cursor *c, const char *s) {
  const size_t n = strlen(s);
  if (c->len - c->at < n || memcmp(c->text + c->at, s, n) != 0) return false;
  c->at += n;
  return true;
}

/* A decimal integer (an optional '-' and digits) that fits int32_t. */
static bool integer(cursor *c, int32_t *out) {
  size_t i = c->at;
  bool neg = false;
  if (i < c->len && c->text[i] == '-') neg = true, i++;
  if (i >= c->len || !isdigit((unsigned char)c->text[i])) return false;
  long long v = 0;
  for (; i < c->len && isdigit((unsigned char)c->text[i]); i++) {
    v = v * 10 + (c->text[i] - '0');
    if (v > (long long)INT32_MAX + 1) return false;
  }
  if (neg) v = -v;
  if (v > INT32_MAX || v < INT32_MIN) return false;
  *out = (int32_t)v;
  c->at = i;
  return true;
}

/* "(a,b)": a and b. False after a message at the fault. */
static bool pair(cursor *c, int32_t *a, int32_t *b, const char *form) {
  char msg[128];
  snprintf(msg, sizeof msg, "expected %s", form);
  if (!literal(c, "(") || !integer(c, a) || !literal(c, ",") || !integer(c, b) ||
      !literal(c, ")")) {
    parse_error(c->file, c->text, c->at, msg);
    return false;
  }
  return true;
}

/* lacam3's "(x,y),(x,y),...," to the end of the line into *pts. */
static int point_list(cursor *c, astar_point **pts, size_t *n) {
  size_t cap = 0;
  *n = 0;
  while (!at_end_of_line(c)) {
    int32_t x, y;
    if (!pair(c, &x, &y, "(x,y)")) return BAD;
    if (*n == cap) {
      cap = cap ? 2 * cap : 64;
      astar_point *p = realloc(*pts, cap * sizeof *p);
      if (!p) {
        cli_error("%s", astar_strerror(ASTAR_NO_MEMORY));
        return CLI_EXIT_FAIL;
      }
      *pts = p;
    }
    (*pts)[(*n)++] = (astar_point){x, y};
    if (!literal(c, ",") && !at_end_of_line(c)) {
      parse_error(c->file, c->text, c->at, "expected ',' after (x,y)");
      return BAD;
    }
  }
  return -1;
}

static int read_lacam3(mapf_file *f, const char *file, const char *text, size_t len) {
  cursor c = {file, text, 0, len};
  f->format = "lacam3";
  astar_point *row = NULL;
  size_t *caps = NULL;
  int rc = -1;
  bool in_solution = false;
  int32_t expect_t = 0;
  while (rc < 0 && c.at < c.len) {
    if (at_end_of_line(&c)) {
      skip_line(&c);
      continue;
    }
    if (!in_solution) {
      if (literal(&c, "solution=")) {
        in_solution = true;
      } else if (literal(&c, "map_file=")) {
        const size_t b = c.at;
        while (!at_end_of_line(&c)) c.at++;
        char name[1024];
        snprintf(name, sizeof name, "%.*s", (int)(c.at - b), text + b);
        free(f->map);
        f->map = resolve(file, name);
      } else if (literal(&c, "starts=")) {
        size_t n;
        rc = point_list(&c, &f->starts, &n);
        f->nstarts = n;
      } else if (literal(&c, "goals=")) {
        size_t n;
        rc = point_list(&c, &f->goals, &n);
        if (rc < 0 && n != f->nstarts) {
          parse_error(file, text, c.at, "goals= holds another number of cells than starts=");
          rc = BAD;
        }
      }
      skip_line(&c);
      continue;
    }
    /* "t:(x,y),(x,y),...," -- the configuration at time t. */
    int32_t t;
    if (!integer(&c, &t) || t != expect_t || !literal(&c, ":")) {
      char msg[96];
      snprintf(msg, sizeof msg, "expected the time step %d and ':'", (int)expect_t);
      parse_error(file, text, c.at, msg);
      rc = BAD;
      break;
    }
    size_t n;
    const size_t line_at = c.at;
    rc = point_list(&c, &row, &n);
    if (rc >= 0) break;
    if (expect_t == 0) {
      if (n == 0 || n > ASTAR_MAPF_MAX_AGENTS) {
        parse_error(file, text, line_at, "expected the agents' cells (x,y),...");
        rc = BAD;
        break;
      }
      if (!alloc_paths(f, n) || !(caps = calloc(n, sizeof *caps))) {
        cli_error("%s", astar_strerror(ASTAR_NO_MEMORY));
        rc = CLI_EXIT_FAIL;
        break;
      }
    } else if (n != f->npaths) {
      char msg[128];
      snprintf(msg, sizeof msg, "%zu cells at time %d, %zu at time 0: one per agent at every time",
               n, (int)t, f->npaths);
      parse_error(file, text, line_at, msg);
      rc = BAD;
      break;
    }
    for (size_t i = 0; i < n; i++)
      if (!push_point(f, caps, i, row[i])) {
        cli_error("%s", astar_strerror(ASTAR_NO_MEMORY));
        rc = CLI_EXIT_FAIL;
        break;
      }
    expect_t++;
    skip_line(&c);
  }
  if (rc < 0 && !in_solution) {
    fprintf(stderr,
            "%s: no solution= line: lacam3 found no solution (solved=0), or the log was "
            "written short\n",
            file);
    rc = CLI_EXIT_FAIL;
  } else if (rc < 0 && f->npaths == 0) {
    fprintf(stderr, "%s: solution= is followed by no time step: lacam3 found no solution\n", file);
    rc = CLI_EXIT_FAIL;
  }
  free(row);
  free(caps);
  return rc;
}

static int read_eecbs(mapf_file *f, const char *file, const char *text, size_t len) {
  cursor c = {file, text, 0, len};
  f->format = "eecbs";
  size_t cap = 0, *caps = NULL;
  int rc = -1;
  while (rc < 0 && c.at < c.len) {
    if (at_end_of_line(&c)) {
      skip_line(&c);
      continue;
    }
    int32_t i;
    char msg[96];
    snprintf(msg, sizeof msg, "expected \"Agent %zu:\"", f->npaths);
    if (!literal(&c, "Agent ") || !integer(&c, &i) || (size_t)i != f->npaths || !literal(&c, ":")) {
      parse_error(file, text, c.at, msg);
      rc = BAD;
      break;
    }
    if (f->npaths == cap) {
      cap = cap ? 2 * cap : 64;
      astar_point **p = realloc(f->paths, cap * sizeof(astar_point *));
      size_t *l = p ? realloc(f->lens, cap * sizeof *l) : NULL;
      size_t *k = l ? realloc(caps, cap * sizeof *k) : NULL;
      if (p) f->paths = p;
      if (l) f->lens = l;
      if (k) caps = k;
      if (!p || !l || !k) {
        cli_error("%s", astar_strerror(ASTAR_NO_MEMORY));
        rc = CLI_EXIT_FAIL;
        break;
      }
    }
    const size_t a = f->npaths++;
    f->paths[a] = NULL;
    f->lens[a] = 0;
    caps[a] = 0;
    while (c.at < c.len && c.text[c.at] == ' ') c.at++;
    while (!at_end_of_line(&c)) {
      int32_t row, col;
      if (!pair(&c, &row, &col, "(row,col)")) {
        rc = BAD;
        break;
      }
      if (!push_point(f, caps, a, (astar_point){col, row})) {
        cli_error("%s", astar_strerror(ASTAR_NO_MEMORY));
        rc = CLI_EXIT_FAIL;
        break;
      }
      if (!literal(&c, "->") && !at_end_of_line(&c)) {
        parse_error(file, text, c.at, "expected '->' after (row,col)");
        rc = BAD;
        break;
      }
    }
    skip_line(&c);
  }
  if (rc < 0 && f->npaths == 0) {
    fprintf(stderr, "%s: no \"Agent i:\" line: no paths to check\n", file);
    rc = BAD;
  }
  free(caps);
  return rc;
}

/* ---- the command ------------------------------------------------------------------------ */

static int read_solution(mapf_file *f, const char *file) {
  char *text;
  size_t len;
  if (!cli_read_file(file, &text, &len)) return BAD;
  size_t at = 0;
  while (at < len && isspace((unsigned char)text[at])) at++;
  int rc;
  if (at < len && text[at] == '{')
    rc = read_json(f, file, text, len);
  else if (at + 6 <= len && memcmp(text + at, "Agent ", 6) == 0)
    rc = read_eecbs(f, file, text, len);
  else if (strstr(text, "solution=") || strstr(text, "agents="))
    rc = read_lacam3(f, file, text, len);
  else {
    parse_error(file, text, at,
                "not a MAPF solution: expected the JSON of astar mapf --json, lacam3's result "
                "file (solution=) or EECBS's paths (Agent 0: ...)");
    rc = BAD;
  }
  free(text);
  return rc;
}

static void print_fault(const astar_mapf_report *r, size_t npaths, size_t agents) {
  const char *kind = astar_mapf_fault_name(r->fault);
  if (r->fault == ASTAR_MAPF_AGENT_COUNT) {
    printf("INVALID:  %s: the solution has %zu paths, the instance %zu agents\n", kind, npaths,
           agents);
    return;
  }
  printf("INVALID:  %s: ", kind);
  if (r->other != UINT32_MAX)
    printf("agents %u and %u", (unsigned)r->agent, (unsigned)r->other);
  else
    printf("agent %u", (unsigned)r->agent);
  printf(" at time %u", (unsigned)r->time);
  if (r->cell.x != -1 || r->cell.y != -1)
    printf(" in cell (%d,%d)", (int)r->cell.x, (int)r->cell.y);
  fputc('\n', stdout);
}

int mapf_check_command(const char *file, const char *map, const char *scen) {
  mapf_file f;
  memset(&f, 0, sizeof f);
  mapf_instance inst;
  memset(&inst, 0, sizeof inst);
  astar_mapf_solution *sol = NULL;
  int rc = read_solution(&f, file);
  if (rc >= 0) goto done;
  if (f.npaths == 0) {
    fprintf(stderr, "%s: no paths (the solver found no solution): nothing to check\n", file);
    rc = CLI_EXIT_FAIL;
    goto done;
  }
  /* The instance: MAP and SCEN given, else those the file names. */
  const bool map_from_file = !map;
  if (!map) map = f.map;
  if (!scen) scen = f.scen;
  if (!map) {
    rc = cli_usage_error("mapf: --check %s: the %s file names no map: give MAP%s", file, f.format,
                         strcmp(f.format, "eecbs") == 0 ? " SCEN" : "");
    goto done;
  }
  if (map_from_file && strcmp(map, "-") == 0) {
    rc = cli_usage_error("mapf: --check %s: the map was read from standard input: give MAP", file);
    goto done;
  }
  if ((rc = mapf_load_map(&inst, map, BAD)) >= 0) goto done;
  const size_t n = f.agents ? f.agents : f.npaths;
  if (scen) {
    rc = mapf_load_scen(&inst, scen, n, file, BAD);
  } else if (f.generated) {
    rc = mapf_generate(&inst, n, f.seed, BAD);
  } else if (f.starts) {
    inst.scen_path = file;
    rc = mapf_set_agents(&inst, f.starts, f.goals, f.nstarts);
  } else {
    rc = cli_usage_error("mapf: --check %s: the %s file names no scen: give MAP SCEN", file,
                         f.format);
  }
  if (rc >= 0) goto done;
  if ((rc = mapf_make_problem(&inst, BAD)) >= 0) goto done;
  astar_status st = astar_mapf_solution_new(&sol, f.npaths, NULL);
  for (size_t i = 0; st == ASTAR_OK && i < f.npaths; i++)
    st = astar_mapf_solution_set_path(sol, i, f.paths[i], f.lens[i]);
  if (st == ASTAR_INVALID_ARGUMENT) {
    fprintf(stderr, "%s: a path longer than the library takes (2^28 steps)\n", file);
    rc = BAD;
    goto done;
  }
  astar_mapf_report rep;
  if (st == ASTAR_OK) st = astar_mapf_check(inst.problem, sol, &rep, NULL);
  if (st != ASTAR_OK) {
    cli_error("%s: %s", file, astar_strerror(st));
    rc = CLI_EXIT_FAIL;
    goto done;
  }
  printf("solution: %s (%s format), %zu paths\n", file, f.format, f.npaths);
  cli_print_map_line(stdout, strcmp(map, "-") == 0 ? "(stdin)" : map, inst.grid);
  if (inst.generated)
    printf("agents:   %zu generated at random (seed %llu)\n", inst.n, (unsigned long long)f.seed);
  else if (scen)
    printf("agents:   %zu, the first lines of %s\n", inst.n, scen);
  else
    printf("agents:   %zu, the starts= and goals= of %s\n", inst.n, file);
  uint64_t lb = 0;
  const bool have_lb = astar_mapf_lower_bound(inst.problem, &lb, NULL, NULL) == ASTAR_OK;
  if (rep.fault == ASTAR_MAPF_VALID) {
    printf("valid:    no conflict; every agent from its start to its goal by legal moves\n");
    rc = CLI_EXIT_OK;
  } else {
    print_fault(&rep, f.npaths, inst.n);
    rc = CLI_EXIT_FAIL;
  }
  printf("cost:     sum of costs %llu, makespan %u", (unsigned long long)rep.sum_of_costs,
         (unsigned)rep.makespan);
  if (have_lb) printf(" (lower bound %llu)", (unsigned long long)lb);
  fputc('\n', stdout);
done:
  astar_mapf_solution_free(sol);
  mapf_instance_free(&inst);
  file_free(&f);
  return rc;
}
