/*
** fuzz/fuzz_dimacs.c -- libFuzzer harness for the DIMACS shortest-path
** parsers (astar_dimacs_parse_gr, _co and _p2p, astar/graph.h) and for
** searches on the graphs they build.
**
** Input: up to three texts separated by form feeds ('\f'): a .gr, a .co and
** a .p2p (a real triple of files joined so is a seed). With fewer parts the
** last one is used for the missing ones, so a single file is tried as all
** three. The .co is read for the graph's node count (or, without a graph,
** the number of its "v" lines), the .p2p for the graph's node count (or
** 2^20).
**
** Checks, besides what the sanitizers see: failures leave *out NULL, a
** well-formed error record and no memory held; a graph's arcs out and in
** both add up to its arc count; .co coordinates are finite and accepted by
** astar_graph_set_coords and set_heuristic; .p2p queries fit the node count
** and come in line order, and a too-small buffer gives
** ASTAR_BUFFER_TOO_SMALL; the engine's A*, Dijkstra and bidirectional
** searches (with the coordinates' heuristic when there are some) cost what
** a plain Dijkstra over the graph finds; and refusing one of the .gr
** parse's allocations fails it cleanly (ASTAR_NO_MEMORY, nothing held).
*/
#include "fuzz_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Most bytes one parse may hold: a short text may declare 2^31 nodes,
** which is valid and must fail as ASTAR_NO_MEMORY here, not exhaust the
** fuzzer's memory. */
#define GRAPH_LIMIT ((size_t)64 << 20)
/* Node counts up to this are checked arc by arc and searched. */
#define GRAPH_CHECK_NODES 20000u
/* Most nodes of a .co read without a graph. */
#define CO_NODES 65536u
/* Most queries of a .p2p searched. */
#define MAX_SEARCHES 8u

typedef struct part {
  const char *text;
  size_t len;
} part;

/* Number of lines that start with 'v' (a .co's node lines). */
static uint32_t count_v_lines(part p) {
  uint32_t n = 0;
  bool start = true;
  for (size_t i = 0; i < p.len && n < CO_NODES; i++) {
    if (start && p.text[i] == 'v') n++;
    start = p.text[i] == '\n' || p.text[i] == '\r';
  }
  return n ? n : 1;
}

/* Parse the .gr; check its arcs. Returns the graph or NULL. */
static astar_graph *parse_gr(part p, unsigned flags, fuzz_alloc *fa, uint64_t hash) {
  const astar_allocator a = fuzz_allocator(fa);
  astar_graph *g = (astar_graph *)fa; /* not NULL: the parser must store NULL on failure */
  astar_parse_error err;
  memset(&err, 0x55, sizeof err);
  const astar_status st = astar_dimacs_parse_gr(&g, p.text, p.len, flags, &a, &err);
  fuzz_check_parse_error(st, &err, p.text, p.len, "dimacs gr");
  if (st != ASTAR_OK) {
    FUZZ_CHECK(g == NULL, "failed parse (%s) left a graph", astar_strerror(st));
    fuzz_alloc_expect_empty(fa, "failed parse");
    return NULL;
  }
  const uint32_t n = astar_graph_node_count(g);
  FUZZ_CHECK(n >= 1, "a graph of no nodes");
  if (n <= GRAPH_CHECK_NODES) {
    size_t out = 0, in = 0;
    for (astar_node v = 0; v < n; v++) {
      out += astar_graph_out_arcs(g, v, NULL, 0);
      in += astar_graph_in_arcs(g, v, NULL, 0);
    }
    const size_t arcs = astar_graph_arc_count(g);
    FUZZ_CHECK(out == arcs && in == arcs, "%zu arcs, %zu out and %zu in", arcs, out, in);
  }

  /* Refuse one of the parse's allocations: a clean ASTAR_NO_MEMORY. */
  fuzz_alloc fb;
  fuzz_alloc_init(&fb, GRAPH_LIMIT);
  fb.fail_at = 1 + hash % (fa->calls ? fa->calls : 1);
  const astar_allocator b = fuzz_allocator(&fb);
  astar_graph *g2 = (astar_graph *)&fb;
  const astar_status st2 = astar_dimacs_parse_gr(&g2, p.text, p.len, flags, &b, &err);
  FUZZ_CHECK(st2 == ASTAR_NO_MEMORY && g2 == NULL, "allocation %llu of %llu refused: %s",
             (unsigned long long)fb.fail_at, (unsigned long long)fa->calls, astar_strerror(st2));
  fuzz_alloc_expect_empty(&fb, "parse with a refused allocation");
  return g;
}

/* Parse the .co for n nodes into a new xy array (NULL when it fails). */
static double *parse_co(part p, uint32_t n) {
  double *xy = malloc(sizeof *xy * 2 * n);
  FUZZ_CHECK(xy != NULL, "out of memory for %u nodes", (unsigned)n);
  astar_parse_error err;
  memset(&err, 0x55, sizeof err);
  const astar_status st = astar_dimacs_parse_co(p.text, p.len, n, xy, &err);
  fuzz_check_parse_error(st, &err, p.text, p.len, "dimacs co");
  if (st != ASTAR_OK) {
    free(xy);
    return NULL;
  }
  for (uint32_t i = 0; i < 2 * n; i++) FUZZ_CHECK(isfinite(xy[i]), "coordinate %u", (unsigned)i);
  return xy;
}

/* Parse the .p2p for n nodes; the queries (malloc'ed) and their number. */
static astar_dimacs_query *parse_p2p(part p, uint32_t n, size_t *count) {
  astar_parse_error err;
  memset(&err, 0x55, sizeof err);
  size_t k = 7;
  astar_status st = astar_dimacs_parse_p2p(p.text, p.len, n, NULL, 0, &k, &err);
  fuzz_check_parse_error(st == ASTAR_BUFFER_TOO_SMALL ? ASTAR_OK : st, &err, p.text, p.len,
                         "dimacs p2p");
  *count = 0;
  if (st != ASTAR_OK && st != ASTAR_BUFFER_TOO_SMALL) {
    FUZZ_CHECK(k == 0, "failed parse with %zu queries", k);
    return NULL;
  }
  FUZZ_CHECK((st == ASTAR_OK) == (k == 0), "%s with %zu queries and no room", astar_strerror(st),
             k);
  if (k == 0) return NULL;
  FUZZ_CHECK(k <= p.len, "%zu queries in %zu bytes", k, p.len);
  astar_dimacs_query *q = malloc(sizeof *q * k);
  FUZZ_CHECK(q != NULL, "out of memory for %zu queries", k);
  size_t k2 = 0;
  if (k > 1) { /* one short: still too small, nothing written */
    st = astar_dimacs_parse_p2p(p.text, p.len, n, q, k - 1, &k2, NULL);
    FUZZ_CHECK(st == ASTAR_BUFFER_TOO_SMALL && k2 == k, "%s with room for %zu of %zu",
               astar_strerror(st), k - 1, k);
  }
  st = astar_dimacs_parse_p2p(p.text, p.len, n, q, k, &k2, NULL);
  FUZZ_CHECK(st == ASTAR_OK && k2 == k, "%s with room for all %zu", astar_strerror(st), k);
  for (size_t i = 0; i < k; i++) {
    FUZZ_CHECK(q[i].source < n && q[i].target < n, "query %zu: %u -> %u of %u nodes", i,
               (unsigned)q[i].source, (unsigned)q[i].target, (unsigned)n);
    FUZZ_CHECK(q[i].cost == -1 || (q[i].cost >= 0 && isfinite(q[i].cost)), "query %zu: cost %g", i,
               q[i].cost);
    FUZZ_CHECK(i == 0 || q[i].line > q[i - 1].line, "query %zu: line %d", i, (int)q[i].line);
  }
  *count = k;
  return q;
}

/* Search s -> t with method m and compare with the reference. */
static void check_search(const astar_space *space, astar_method m, astar_node s, astar_node t) {
  fuzz_alloc fa;
  fuzz_alloc_init(&fa, GRAPH_LIMIT);
  const astar_allocator a = fuzz_allocator(&fa);
  astar_workspace *ws = NULL;
  const unsigned what = m == ASTAR_METHOD_BIDIRECTIONAL ? ASTAR_RESERVE_BACKWARD : 0;
  if (astar_workspace_new_empty(&ws, &a) != ASTAR_OK ||
      astar_workspace_reserve_space(ws, space, what) != ASTAR_OK) {
    astar_workspace_free(ws);
    fuzz_alloc_expect_empty(&fa, "failed workspace");
    return;
  }
  astar_engine_options opt;
  astar_engine_options_init(&opt);
  opt.method = m;
  astar_node *path = malloc(sizeof *path * space->node_count);
  FUZZ_CHECK(path != NULL, "out of memory for a path");
  astar_engine_result r;
  const astar_status st = astar_space_find_path(ws, space, &opt, s, t, path, space->node_count, &r);
  const double ref = fuzz_space_dijkstra(space, s, t);
  if (ref < 0) {
    FUZZ_CHECK(st == ASTAR_NO_PATH, "%s %u -> %u: %s, the reference finds no path",
               astar_method_name(m), (unsigned)s, (unsigned)t, astar_strerror(st));
  } else {
    FUZZ_CHECK(st == ASTAR_OK && fuzz_cost_equal(r.cost, ref),
               "%s %u -> %u: %s cost %.17g, the reference %.17g", astar_method_name(m), (unsigned)s,
               (unsigned)t, astar_strerror(st), r.cost, ref);
    FUZZ_CHECK(r.length >= 1 && path[0] == s && path[r.length - 1] == t, "path ends");
  }
  free(path);
  astar_workspace_free(ws);
  fuzz_alloc_expect_empty(&fa, "freed workspace");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  part parts[3];
  size_t nparts = 0, from = 0;
  for (size_t i = 0; i <= size && nparts < 3; i++) {
    if (i == size || (data[i] == '\f' && nparts < 2)) {
      parts[nparts].text = (const char *)data + from;
      parts[nparts].len = i - from;
      nparts++;
      from = i + 1;
    }
  }
  const part gr = parts[0], co = parts[nparts > 1 ? 1 : 0], p2p = parts[nparts - 1];
  const uint64_t hash = fuzz_hash(data, size);

  fuzz_alloc fa;
  fuzz_alloc_init(&fa, GRAPH_LIMIT);
  const unsigned flags = (hash >> 8) & 1 ? ASTAR_GRAPH_UNDIRECTED : 0;
  astar_graph *g = parse_gr(gr, flags, &fa, hash);
  const uint32_t n = g ? astar_graph_node_count(g) : 0;

  const uint32_t co_nodes = g ? n : count_v_lines(co);
  double *xy = co_nodes <= CO_NODES ? parse_co(co, co_nodes) : NULL;
  if (g && xy) {
    FUZZ_CHECK(astar_graph_set_coords(g, 2, xy) == ASTAR_OK, "set_coords");
    const astar_graph_heuristic kind = (astar_graph_heuristic)((hash >> 16) % ASTAR_GRAPH_H_COUNT);
    FUZZ_CHECK(astar_graph_set_heuristic(g, kind, ASTAR_GRAPH_SCALE_AUTO) == ASTAR_OK,
               "set_heuristic %d", (int)kind);
  }
  free(xy);

  size_t nq = 0;
  astar_dimacs_query *q = parse_p2p(p2p, g ? n : UINT32_C(1) << 20, &nq);
  if (g && n <= GRAPH_CHECK_NODES) {
    astar_space space;
    FUZZ_CHECK(astar_graph_space(g, &space) == ASTAR_OK, "astar_graph_space");
    const astar_method methods[3] = {ASTAR_METHOD_ASTAR, ASTAR_METHOD_DIJKSTRA,
                                     ASTAR_METHOD_BIDIRECTIONAL};
    const astar_method m = methods[(hash >> 24) % 3];
    if (nq == 0) {
      check_search(&space, m, (astar_node)(hash % n), (astar_node)((hash >> 32) % n));
    } else {
      for (size_t i = 0; i < nq && i < MAX_SEARCHES; i++)
        check_search(&space, m, q[i].source, q[i].target);
    }
  }
  free(q);
  astar_graph_free(g);
  fuzz_alloc_expect_empty(&fa, "freed graph");
  return 0;
}
