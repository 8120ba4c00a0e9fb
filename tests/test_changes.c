/*
** test_changes.c -- edits with change tracking (astar/grid.h, astar/graph.h):
** the grid's change ring replayed onto a snapshot gives the grid again, for
** random edit sequences, with ASTAR_STALE exactly when the ring cannot reach
** back (overflow, whole-grid operations, tracking off, clones); graph arc
** cost edits give the same costs as a graph rebuilt from the edited edge
** list (A* against a plain Dijkstra), keep the heuristic admissible, fill the
** cost dictionary then refuse until widened; landmark tables on an edited
** graph report ASTAR_STALE and never overestimate; allocation failure.
*/
#include <astar/astar.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "util/failalloc.h"
#include "util/randmap.h"

/* ---- the grid's change ring --------------------------------------------------- */

typedef struct snapshot {
  int32_t w, h;
  bool pass[64 * 64];
  float terrain[64 * 64];
} snapshot;

static void snap(snapshot *s, const astar_grid *g) {
  s->w = astar_grid_width(g);
  s->h = astar_grid_height(g);
  for (int32_t y = 0; y < s->h; y++)
    for (int32_t x = 0; x < s->w; x++) {
      s->pass[y * s->w + x] = astar_grid_passable(g, x, y);
      s->terrain[y * s->w + x] = astar_grid_terrain(g, x, y);
    }
}

static bool same(const snapshot *a, const snapshot *b) {
  return a->w == b->w && a->h == b->h &&
         !memcmp(a->pass, b->pass, sizeof(bool) * (size_t)(a->w * a->h)) &&
         !memcmp(a->terrain, b->terrain, sizeof(float) * (size_t)(a->w * a->h));
}

/* One random edit; true when it changed the cell. */
static bool random_edit(astar_grid *g, rng *r) {
  const int32_t x = rng_range(r, 0, astar_grid_width(g) - 1);
  const int32_t y = rng_range(r, 0, astar_grid_height(g) - 1);
  const bool was = astar_grid_passable(g, x, y);
  const float t = astar_grid_terrain(g, x, y);
  if (rng_range(r, 0, 2) == 0) {
    CHECK(astar_grid_set_terrain(g, x, y, (float)rng_range(r, 1, 4) * 0.5f) == ASTAR_OK);
  } else {
    CHECK(astar_grid_set_passable(g, x, y, rng_range(r, 0, 1)) == ASTAR_OK);
  }
  return was != astar_grid_passable(g, x, y) || t != astar_grid_terrain(g, x, y);
}

static void test_grid_ring_replays(void) {
  rng r;
  rng_seed(&r, 11);
  astar_cell_change buf[256];
  for (int round = 0; round < 60; round++) {
    astar_grid *g;
    const int32_t w = rng_range(&r, 1, 64), h = rng_range(&r, 1, 64);
    CHECK(astar_grid_new(&g, w, h, NULL) == ASTAR_OK);
    const size_t cap = (size_t)rng_range(&r, 1, 200);
    CHECK(astar_grid_track_changes(g, cap) == ASTAR_OK);
    CHECK_EQ(astar_grid_change_capacity(g), cap);
    snapshot reader, truth;
    snap(&reader, g);
    uint64_t seen = astar_grid_version(g);
    for (int batch = 0; batch < 20; batch++) {
      const int edits = rng_range(&r, 0, 40);
      uint64_t changed = 0;
      for (int i = 0; i < edits; i++) changed += random_edit(g, &r);
      CHECK_EQ(astar_grid_version(g), seen + changed);
      size_t len = 0;
      const astar_status st = astar_grid_changes(g, seen, buf, 256, &len);
      snap(&truth, g);
      if (changed > cap) {
        CHECK(st == ASTAR_STALE);
        reader = truth; /* a reader rebuilds from scratch */
      } else {
        CHECK(st == ASTAR_OK);
        CHECK_EQ(len, changed);
        for (size_t i = 0; i < len; i++) {
          const astar_cell_change *c = &buf[i];
          CHECK_EQ(c->version, seen + i + 1);
          const int32_t at = c->y * w + c->x;
          /* Each entry starts from the state the previous ones left. */
          CHECK(reader.pass[at] == c->was_passable);
          CHECK(reader.terrain[at] == c->old_terrain);
          CHECK(c->was_passable != c->passable || c->old_terrain != c->new_terrain);
          reader.pass[at] = c->passable;
          reader.terrain[at] = c->new_terrain;
        }
        CHECK(same(&reader, &truth));
      }
      seen = astar_grid_version(g);
    }
    astar_grid_free(g);
  }
}

static void test_grid_ring_limits(void) {
  astar_grid *g;
  CHECK(astar_grid_new(&g, 8, 8, NULL) == ASTAR_OK);
  astar_cell_change buf[8];
  size_t len = 99;
  /* Untracked: only "nothing since now" is known. */
  CHECK(astar_grid_changes(g, 0, buf, 8, &len) == ASTAR_OK && len == 0);
  CHECK(astar_grid_set_passable(g, 1, 1, false) == ASTAR_OK);
  CHECK(astar_grid_changes(g, 0, buf, 8, &len) == ASTAR_STALE);
  CHECK(astar_grid_track_changes(g, 4) == ASTAR_OK);
  CHECK(astar_grid_changes(g, 0, buf, 8, &len) == ASTAR_STALE); /* before tracking began */
  const uint64_t v = astar_grid_version(g);
  CHECK(astar_grid_set_passable(g, 1, 1, false) == ASTAR_OK); /* no change */
  CHECK(astar_grid_set_terrain(g, 2, 2, 1.0f) == ASTAR_OK);   /* no change */
  CHECK_EQ(astar_grid_version(g), v);
  CHECK(astar_grid_set_passable(g, 2, 1, false) == ASTAR_OK);
  CHECK(astar_grid_set_terrain(g, 3, 1, 2.5f) == ASTAR_OK);
  CHECK(astar_grid_changes(g, v, buf, 1, &len) == ASTAR_BUFFER_TOO_SMALL && len == 2);
  CHECK(astar_grid_changes(g, v, NULL, 0, &len) == ASTAR_BUFFER_TOO_SMALL && len == 2);
  CHECK(astar_grid_changes(g, v, buf, 8, &len) == ASTAR_OK && len == 2);
  CHECK(buf[1].x == 3 && buf[1].y == 1 && buf[1].old_terrain == 1.0f &&
        buf[1].new_terrain == 2.5f && buf[1].passable && buf[1].was_passable);
  CHECK(astar_grid_changes(g, v + 3, buf, 8, &len) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_grid_changes(NULL, 0, buf, 8, &len) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_grid_changes(g, v, NULL, 8, &len) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_grid_changes(g, v, buf, 8, NULL) == ASTAR_INVALID_ARGUMENT);
  /* Whole-grid operations cannot be listed cell by cell. */
  uint64_t w = astar_grid_version(g);
  CHECK(astar_grid_fill(g, true) == ASTAR_OK);
  CHECK_EQ(astar_grid_version(g), w + 1);
  CHECK(astar_grid_changes(g, w, buf, 8, &len) == ASTAR_STALE);
  CHECK(astar_grid_changes(g, w + 1, buf, 8, &len) == ASTAR_OK && len == 0);
  w = astar_grid_version(g);
  astar_grid_clear_terrain(g);
  CHECK(astar_grid_changes(g, w, buf, 8, &len) == ASTAR_STALE);
  /* A clone starts its own history. */
  astar_grid *c;
  CHECK(astar_grid_clone(&c, g, NULL) == ASTAR_OK);
  CHECK_EQ(astar_grid_change_capacity(c), 0);
  w = astar_grid_version(c);
  CHECK(astar_grid_set_passable(c, 0, 0, false) == ASTAR_OK);
  CHECK(astar_grid_changes(c, w, buf, 8, &len) == ASTAR_STALE);
  astar_grid_free(c);
  /* Off again. */
  CHECK(astar_grid_track_changes(g, 0) == ASTAR_OK);
  CHECK_EQ(astar_grid_change_capacity(g), 0);
  CHECK(astar_grid_track_changes(NULL, 3) == ASTAR_INVALID_ARGUMENT);
  astar_grid_free(g);
}

static void test_grid_ring_alloc(void) {
  failalloc fa;
  failalloc_init(&fa);
  astar_allocator al = failalloc_allocator(&fa);
  astar_grid *g;
  CHECK(astar_grid_new(&g, 16, 16, &al) == ASTAR_OK);
  CHECK(astar_grid_track_changes(g, 10) == ASTAR_OK);
  failalloc_fail_in(&fa, 1);
  CHECK(astar_grid_track_changes(g, 20) == ASTAR_NO_MEMORY);
  CHECK_EQ(astar_grid_change_capacity(g), 10); /* unchanged */
  const uint64_t v = astar_grid_version(g);
  CHECK(astar_grid_set_passable(g, 3, 3, false) == ASTAR_OK);
  astar_cell_change c;
  size_t len;
  CHECK(astar_grid_changes(g, v, &c, 1, &len) == ASTAR_OK && len == 1 && c.x == 3);
  astar_grid_free(g);
  CHECK_EQ(fa.blocks, 0);
}

/* ---- graph arc costs ------------------------------------------------------------- */

#define GN 60
#define GE 240

typedef struct gref {
  astar_graph_edge e[GE];
  size_t m;
  bool undirected;
  double xyz[2 * GN];
} gref;

/* Plain Dijkstra over the edge list: O(n^2 + m), fine for 60 nodes. */
static double ref_cost(const gref *r, astar_node s, astar_node t) {
  double d[GN];
  bool done[GN] = {false};
  for (int i = 0; i < GN; i++) d[i] = INFINITY;
  d[s] = 0.0;
  for (;;) {
    int u = -1;
    for (int i = 0; i < GN; i++)
      if (!done[i] && d[i] < INFINITY && (u < 0 || d[i] < d[u])) u = i;
    if (u < 0) break;
    done[u] = true;
    for (size_t k = 0; k < r->m; k++) {
      const astar_graph_edge *e = &r->e[k];
      if (e->from == (astar_node)u && d[u] + e->cost < d[e->to]) d[e->to] = d[u] + e->cost;
      if (r->undirected && e->to == (astar_node)u && d[u] + e->cost < d[e->from])
        d[e->from] = d[u] + e->cost;
    }
  }
  return d[t];
}

/* The cheapest from -> to arc of the reference (parallel arcs all get the edit). */
static void ref_set(gref *r, astar_node from, astar_node to, double c) {
  for (size_t k = 0; k < r->m; k++) {
    astar_graph_edge *e = &r->e[k];
    if ((e->from == from && e->to == to) || (r->undirected && e->from == to && e->to == from))
      e->cost = c;
  }
}

static void make_gref(gref *r, rng *rn) {
  r->undirected = rng_range(rn, 0, 1);
  r->m = 0;
  for (int i = 0; i < GN; i++) {
    r->xyz[(size_t)2 * i] = rng_range(rn, 0, 20);
    r->xyz[(size_t)2 * i + 1] = rng_range(rn, 0, 20);
  }
  for (size_t k = 0; k < GE; k++) {
    astar_graph_edge *e = &r->e[r->m++];
    e->from = (astar_node)rng_range(rn, 0, GN - 1);
    e->to = (astar_node)rng_range(rn, 0, GN - 1);
    const double dx = r->xyz[(size_t)2 * e->from] - r->xyz[(size_t)2 * e->to];
    const double dy = r->xyz[(size_t)2 * e->from + 1] - r->xyz[(size_t)2 * e->to + 1];
    e->cost = ceil(sqrt(dx * dx + dy * dy)) + 1.0; /* integers: exact sums */
  }
}

static void test_graph_edits(void) {
  rng rn;
  rng_seed(&rn, 5);
  astar_workspace *ws;
  CHECK(astar_workspace_new_empty(&ws, NULL) == ASTAR_OK);
  astar_engine_options eo;
  astar_engine_options_init(&eo);
  astar_arc_change log[64];
  for (int round = 0; round < 30; round++) {
    gref r;
    make_gref(&r, &rn);
    astar_graph *g;
    CHECK(astar_graph_new(&g, GN, r.e, r.m, r.undirected ? ASTAR_GRAPH_UNDIRECTED : 0, NULL) ==
          ASTAR_OK);
    CHECK(astar_graph_set_coords(g, 2, r.xyz) == ASTAR_OK);
    CHECK(astar_graph_track_changes(g, 64) == ASTAR_OK);
    astar_space sp;
    CHECK(astar_graph_space(g, &sp) == ASTAR_OK);
    CHECK(astar_workspace_reserve_space(ws, &sp, 0) == ASTAR_OK);
    for (int batch = 0; batch < 8; batch++) {
      const uint64_t v0 = astar_graph_version(g);
      size_t made = 0;
      for (int i = 0; i < 6; i++) {
        const astar_graph_edge *e = &r.e[rng_range(&rn, 0, (int32_t)r.m - 1)];
        const astar_node from = rng_range(&rn, 0, 1) ? e->from : e->to;
        const astar_node to = from == e->from ? e->to : e->from;
        /* Costs from 0 to far above: cheap arcs force the scale down. */
        const double c = (double)rng_range(&rn, 0, 40);
        const astar_status st = astar_graph_set_arc_cost(g, from, to, c);
        if (!r.undirected && from != e->from) {
          /* The reverse of a directed arc may not exist. */
          bool exists = false;
          for (size_t k = 0; k < r.m; k++) exists |= r.e[k].from == from && r.e[k].to == to;
          CHECK(st == (exists ? ASTAR_OK : ASTAR_OUT_OF_BOUNDS));
          if (!exists) continue;
        }
        CHECK(st == ASTAR_OK);
        astar_arc a[GE];
        const size_t n = astar_graph_out_arcs(g, from, a, GE);
        double before = -1.0;
        for (size_t k = 0; k < r.m && before < 0; k++)
          if (r.e[k].from == from && r.e[k].to == to) before = r.e[k].cost;
        for (size_t k = 0; k < r.m && before < 0; k++)
          if (r.undirected && r.e[k].from == to && r.e[k].to == from) before = r.e[k].cost;
        if (before != c) made++;
        ref_set(&r, from, to, c);
        for (size_t k = 0; k < n; k++)
          if (a[k].node == to) CHECK(a[k].cost == c);
      }
      CHECK(astar_graph_version(g) <= v0 + made);
      size_t len;
      CHECK(astar_graph_changes(g, v0, log, 64, &len) == ASTAR_OK);
      CHECK_EQ(len, astar_graph_version(g) - v0);
      for (size_t i = 0; i < len; i++) CHECK(log[i].old_cost != log[i].new_cost);
      /* A* equals Dijkstra on the edited list, from a few sources. */
      for (int q = 0; q < 10; q++) {
        const astar_node s = (astar_node)rng_range(&rn, 0, GN - 1);
        const astar_node t = (astar_node)rng_range(&rn, 0, GN - 1);
        astar_engine_result res;
        const astar_status st = astar_space_find_path(ws, &sp, &eo, s, t, NULL, 0, &res);
        const double want = ref_cost(&r, s, t);
        if (want == INFINITY)
          CHECK(st == ASTAR_NO_PATH);
        else
          CHECKF((st == ASTAR_OK || st == ASTAR_BUFFER_TOO_SMALL) && res.cost == want,
                 "round %d %u->%u: %g, want %g", round, s, t, res.cost, want);
      }
    }
    astar_graph_free(g);
  }
  astar_workspace_free(ws);
}

static void test_graph_storage(void) {
  /* Two costs: a one-byte dictionary. */
  astar_graph_edge e[300];
  for (int i = 0; i < 300; i++) e[i] = (astar_graph_edge){(astar_node)i, (astar_node)i + 1, 1.0};
  astar_graph *g;
  CHECK(astar_graph_new(&g, 301, e, 300, 0, NULL) == ASTAR_OK);
  CHECK(astar_graph_set_arc_cost(g, 5, 4, 2.0) == ASTAR_OUT_OF_BOUNDS); /* directed */
  CHECK(astar_graph_set_arc_cost(g, 5, 301, 2.0) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_graph_set_arc_cost(g, 5, 6, -1.0) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_graph_set_arc_cost(g, 5, 6, NAN) == ASTAR_INVALID_ARGUMENT);
  CHECK(astar_graph_set_arc_cost(NULL, 5, 6, 1.0) == ASTAR_INVALID_ARGUMENT);
  /* 255 more distinct costs fit the dictionary, the next does not. */
  for (int i = 0; i < 255; i++)
    CHECK(astar_graph_set_arc_cost(g, (astar_node)i, (astar_node)i + 1, 2.0 + i) == ASTAR_OK);
  CHECK(astar_graph_set_arc_cost(g, 299, 300, 1000.5) == ASTAR_UNSUPPORTED);
  CHECK(astar_graph_set_arc_cost(g, 299, 300, 7.0) == ASTAR_OK); /* already in it */
  CHECK(astar_graph_widen_costs(g) == ASTAR_OK);
  CHECK(astar_graph_set_arc_cost(g, 299, 300, 1000.1) == ASTAR_OK);
  astar_arc a[2];
  CHECK(astar_graph_out_arcs(g, 299, a, 2) == 1 && a[0].cost == 1000.1);
  CHECK(astar_graph_out_arcs(g, 10, a, 2) == 1 && a[0].cost == 12.0);
  CHECK(astar_graph_in_arcs(g, 300, a, 2) == 1 && a[0].cost == 1000.1);
  CHECK_EQ(astar_graph_version(g), 257);
  astar_graph_free(g);
  /* Floats: a non-float cost needs the widening. */
  for (int i = 0; i < 300; i++) e[i].cost = 1.0 + i;
  CHECK(astar_graph_new(&g, 301, e, 300, ASTAR_GRAPH_UNDIRECTED, NULL) == ASTAR_OK);
  CHECK(astar_graph_set_arc_cost(g, 4, 3, 0.1) == ASTAR_UNSUPPORTED);
  CHECK(astar_graph_set_arc_cost(g, 4, 3, 0.5) == ASTAR_OK); /* undirected: both ways */
  CHECK(astar_graph_out_arcs(g, 3, a, 2) == 2);
  CHECK((a[0].node == 4 ? a[0].cost : a[1].cost) == 0.5);
  /* Widening under allocation failure leaves the graph as it was. */
  astar_graph_free(g);
  failalloc fa;
  failalloc_init(&fa);
  astar_allocator al = failalloc_allocator(&fa);
  for (long k = 1; k <= 3; k++) {
    CHECK(astar_graph_new(&g, 301, e, 300, 0, &al) == ASTAR_OK);
    failalloc_fail_in(&fa, k);
    const astar_status st = astar_graph_widen_costs(g);
    CHECK(st == ASTAR_OK || st == ASTAR_NO_MEMORY);
    CHECK(astar_graph_out_arcs(g, 7, a, 2) == 1 && a[0].cost == 8.0);
    failalloc_fail_in(&fa, 1);
    CHECK(astar_graph_track_changes(g, 8) == ASTAR_NO_MEMORY);
    astar_graph_free(g);
    failalloc_init(&fa);
  }
  CHECK_EQ(fa.blocks, 0);
}

/* Landmarks built before an edit that lowers costs would overestimate: the
** wrapper falls back to the base heuristic, and says the table is stale. */
static void test_landmarks_stale(void) {
  rng rn;
  rng_seed(&rn, 9);
  astar_workspace *ws;
  CHECK(astar_workspace_new_empty(&ws, NULL) == ASTAR_OK);
  astar_engine_options eo;
  astar_engine_options_init(&eo);
  for (int round = 0; round < 10; round++) {
    gref r;
    make_gref(&r, &rn);
    r.undirected = true;
    astar_graph *g;
    CHECK(astar_graph_new(&g, GN, r.e, r.m, ASTAR_GRAPH_UNDIRECTED, NULL) == ASTAR_OK);
    astar_space base, sp;
    CHECK(astar_graph_space(g, &base) == ASTAR_OK);
    astar_landmarks *lm;
    CHECK(astar_landmarks_new(&lm, &base, NULL, NULL) == ASTAR_OK);
    astar_landmarks_space_holder holder;
    CHECK(astar_landmarks_space(&sp, &holder, &base, lm) == ASTAR_OK);
    CHECK(astar_landmarks_space_current(lm, &sp) == ASTAR_OK);
    CHECK(astar_workspace_reserve_space(ws, &sp, 0) == ASTAR_OK);
    /* Make a few arcs nearly free. */
    for (int i = 0; i < 5; i++) {
      const astar_graph_edge *e = &r.e[rng_range(&rn, 0, (int32_t)r.m - 1)];
      CHECK(astar_graph_set_arc_cost(g, e->from, e->to, 0.0) == ASTAR_OK);
      ref_set(&r, e->from, e->to, 0.0);
    }
    CHECK(astar_landmarks_space_current(lm, &sp) == ASTAR_STALE);
    CHECK(astar_landmarks_space_current(lm, &base) == ASTAR_STALE);
    for (int q = 0; q < 20; q++) {
      const astar_node s = (astar_node)rng_range(&rn, 0, GN - 1);
      const astar_node t = (astar_node)rng_range(&rn, 0, GN - 1);
      const double want = ref_cost(&r, s, t);
      CHECK(sp.ops->heuristic(sp.self, s, t) <= want);
      astar_engine_result res;
      const astar_status st = astar_space_find_path(ws, &sp, &eo, s, t, NULL, 0, &res);
      if (want < INFINITY)
        CHECK((st == ASTAR_OK || st == ASTAR_BUFFER_TOO_SMALL) && res.cost == want);
    }
    astar_landmarks_free(lm);
    astar_graph_free(g);
  }
  astar_workspace_free(ws);
}

/* ---- objects built on a grid: follow the edits, or say stale ------------------ */

static uint8_t *saved(const astar_hpa *h, size_t *n) {
  if (astar_hpa_save(h, NULL, 0, n) != ASTAR_BUFFER_TOO_SMALL) return NULL;
  uint8_t *b = malloc(*n);
  if (b && astar_hpa_save(h, b, *n, n) != ASTAR_OK) {
    free(b);
    return NULL;
  }
  return b;
}

/* HPA* synced from the change ring equals a fresh build, byte for byte, with
** scattered edits, a ring that overflowed and a whole-grid operation. */
static void test_hpa_sync(void) {
  rng r;
  rng_seed(&r, 21);
  for (int round = 0; round < 6; round++) {
    randmap_spec spec;
    randmap_random_spec(&spec, &r, 64, 1);
    astar_grid *g;
    CHECK(randmap_make(&g, &spec, &r) == ASTAR_OK);
    CHECK(astar_grid_track_changes(g, 40) == ASTAR_OK);
    astar_hpa_options ho;
    astar_hpa_options_init(&ho);
    ho.cluster_size = 8;
    ho.levels = 1 + round % 3;
    astar_hpa *h;
    CHECK(astar_hpa_new(&h, g, NULL, &ho, NULL) == ASTAR_OK);
    for (int batch = 0; batch < 8; batch++) {
      const int edits = batch == 5 ? 200 : rng_range(&r, 1, 12); /* batch 5 overflows the ring */
      const uint64_t v0 = astar_grid_version(g);
      for (int i = 0; i < edits; i++) random_edit(g, &r);
      const bool lost = astar_grid_version(g) - v0 > 40 || batch == 6;
      if (batch == 6) CHECK(astar_grid_fill(g, true) == ASTAR_OK);
      uint64_t rebuilt;
      CHECK(astar_hpa_sync(h, g, &rebuilt) == ASTAR_OK);
      astar_hpa *fresh;
      CHECK(astar_hpa_new(&fresh, g, NULL, &ho, NULL) == ASTAR_OK);
      size_t na, nb;
      uint8_t *a = saved(h, &na), *b = saved(fresh, &nb);
      CHECKF(a && b && na == nb && !memcmp(a, b, na), "round %d batch %d", round, batch);
      astar_hpa_stats st;
      astar_hpa_get_stats(fresh, &st);
      if (lost)
        CHECK_EQ(rebuilt, st.level[0].clusters);
      else
        CHECK(rebuilt <= (uint64_t)edits * 4);
      free(a);
      free(b);
      astar_hpa_free(fresh);
      CHECK(astar_hpa_sync(h, g, &rebuilt) == ASTAR_OK && rebuilt == 0);
    }
    astar_grid *other;
    CHECK(astar_grid_clone(&other, g, NULL) == ASTAR_OK);
    CHECK(astar_hpa_sync(h, other, NULL) == ASTAR_MISMATCH);
    astar_grid_free(other);
    astar_hpa_free(h);
    astar_grid_free(g);
  }
}

/* After an edit, every object built on the grid says ASTAR_STALE (or
** follows): islands, JPS+, fields, landmarks, waypoint graphs. */
static void test_derived_stale(void) {
  astar_grid *g;
  CHECK(astar_grid_new(&g, 30, 20, NULL) == ASTAR_OK);
  for (int32_t y = 2; y < 18; y++) CHECK(astar_grid_set_passable(g, 15, y, false) == ASTAR_OK);
  astar_workspace *ws;
  CHECK(astar_workspace_new(&ws, g, NULL) == ASTAR_OK);
  astar_islands *isl;
  CHECK(astar_islands_new(&isl, g, NULL, NULL) == ASTAR_OK);
  astar_jps_plus *jp;
  CHECK(astar_jps_plus_new(&jp, g, NULL) == ASTAR_OK);
  astar_field *f;
  CHECK(astar_field_new(&f, g, NULL, (astar_point){29, 10}, 0.0, NULL, NULL) == ASTAR_OK);
  astar_landmarks *lm;
  CHECK(astar_landmarks_new_grid(&lm, g, NULL, NULL, NULL) == ASTAR_OK);
  astar_waypoints *wp;
  CHECK(astar_waypoints_new(&wp, g, NULL, 0, NULL) == ASTAR_OK);
  CHECK(astar_islands_current(isl, g));
  CHECK(astar_landmarks_current(lm, g) == ASTAR_OK);
  CHECK(astar_waypoints_check(wp, g) == ASTAR_OK);
  astar_point path[200];
  astar_result res;
  CHECK(astar_field_path(f, g, (astar_point){0, 10}, path, 200, &res) == ASTAR_OK);
  /* Close the gap at the top: the wall now splits the map. */
  CHECK(astar_grid_set_passable(g, 15, 0, false) == ASTAR_OK);
  CHECK(astar_grid_set_passable(g, 15, 1, false) == ASTAR_OK);
  CHECK(astar_grid_set_passable(g, 15, 18, false) == ASTAR_OK);
  CHECK(astar_grid_set_passable(g, 15, 19, false) == ASTAR_OK);
  CHECK(!astar_islands_current(isl, g));
  astar_options o;
  astar_options_init(&o);
  o.islands = isl;
  CHECK(astar_find_path(ws, g, &o, (astar_point){0, 10}, (astar_point){29, 10}, path, 200, &res) ==
        ASTAR_STALE);
  CHECK(astar_islands_update(isl, g) == ASTAR_OK);
  CHECK(astar_find_path(ws, g, &o, (astar_point){0, 10}, (astar_point){29, 10}, path, 200, &res) ==
        ASTAR_NO_PATH);
  CHECK(astar_jps_plus_find_path(ws, jp, g, NULL, (astar_point){0, 10}, (astar_point){29, 10}, path,
                                 200, &res) == ASTAR_STALE);
  CHECK(astar_field_path(f, g, (astar_point){0, 10}, path, 200, &res) == ASTAR_STALE);
  CHECK(astar_landmarks_current(lm, g) == ASTAR_STALE);
  CHECK(astar_landmarks_grid_heuristic(lm, (astar_point){0, 10}, (astar_point){29, 10}) == 0.0);
  CHECK(astar_waypoints_check(wp, g) == ASTAR_STALE);
  astar_waypoints_free(wp);
  astar_landmarks_free(lm);
  astar_field_free(f);
  astar_jps_plus_free(jp);
  astar_islands_free(isl);
  astar_workspace_free(ws);
  astar_grid_free(g);
}

int main(void) {
  RUN(test_grid_ring_replays);
  RUN(test_grid_ring_limits);
  RUN(test_grid_ring_alloc);
  RUN(test_graph_edits);
  RUN(test_graph_storage);
  RUN(test_landmarks_stale);
  RUN(test_hpa_sync);
  RUN(test_derived_stale);
  return check_summary();
}
