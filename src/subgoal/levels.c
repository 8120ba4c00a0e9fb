/*
** subgoal/levels.c -- the N-level subgoal graph (Uras and Koenig, AAAI
** 2014), built as a contraction restricted to h-reachable shortcuts.
**
** A round visits the subgoals still at the top in index order. Subgoal x is
** lowered when, for every pair (u, v) of its current top neighbours, the
** distance c(u, x) + c(x, v) survives without x: either a witness -- a path
** of no greater cost among the top subgoals other than x, found by a
** bounded Dijkstra search -- or u and v are h-reachable at exactly that
** cost along a free diagonal-first or straight-first line, and the arc u-v
** is added. Lowered, x keeps its arcs to those neighbours as its up arcs
** and leaves the top graph. That is a contraction hierarchy whose
** uncontracted rest (the top) is searched whole: a query going up from
** the start, across the top, and down into what the goal reaches going up
** finds an optimal path (query.c). A bounded witness search that gives up
** only makes the test stricter (x stays, or gets an arc it did not need),
** never wrong.
*/
#include "subgoal/sg.h"

#include <stdlib.h>
#include <string.h>

/* Witness searches settle at most this many vertices; subgoals with more
** top neighbours than SG_MAX_DEGREE stay at the top (the pairs grow as the
** square). Both bound the build's time, not the query's correctness.
** A round lowers no two neighbours (a vertex next to one lowered in this
** round waits for the next): every up arc then climbs a level, which keeps
** the upward searches of a query short. */
#define SG_SETTLE_LIMIT 64u
#define SG_MAX_DEGREE 32u

/* An arc at one end: the other end, the vertex it was shortcut over
** (SG_NONE for a free octile line) and its cost. */
typedef struct sarc {
  uint32_t v, mid;
  double c;
} sarc;

typedef struct vec {
  sarc *a;
  uint32_t len, cap;
} vec;

/* A pair of neighbours of a vertex being lowered and the arc they need. */
typedef struct spair {
  uint32_t u, v, mid;
  double c;
} spair;

typedef struct avec {
  spair *a;
  uint32_t len, cap;
} avec;

/* Make room for one more element in the array *a of len elements of `size`
** bytes (capacity *cap, doubled when full, first when empty). */
static bool grow(const astar_allocator *al, void **a, uint32_t len, uint32_t *cap, size_t size,
                 uint32_t first) {
  if (len < *cap) return true;
  const uint32_t ncap = *cap ? *cap * 2 : first;
  void *na = astar__malloc(al, (size_t)ncap * size);
  if (!na) return false;
  if (len) memcpy(na, *a, (size_t)len * size);
  astar__free(al, *a, (size_t)*cap * size);
  *a = na;
  *cap = ncap;
  return true;
}

static bool avec_push(const astar_allocator *al, avec *v, spair x) {
  void *a = v->a;
  if (!grow(al, &a, v->len, &v->cap, sizeof x, 16)) return false;
  v->a = a;
  v->a[v->len++] = x;
  return true;
}

typedef struct hitem {
  double key;
  uint32_t v;
} hitem;

typedef struct lv {
  astar_subgoal *sg;
  const astar_grid *grid;
  const astar_allocator *al;
  vec *nbr;          /* [n] top neighbours (for a lowered vertex: frozen up arcs) */
  uint8_t *top;      /* [n] still at the top */
  uint32_t *touched; /* [n] the round in which a neighbour was lowered */
  double *dist;      /* [n] witness search */
  uint32_t *seen;    /* [n] stamp of dist */
  uint32_t stamp;
  hitem *heap; /* witness open list, lazy deletion */
  size_t hlen, hcap;
} lv;

static bool vec_push(const astar_allocator *al, vec *v, sarc x) {
  void *a = v->a;
  if (!grow(al, &a, v->len, &v->cap, sizeof x, 8)) return false;
  v->a = a;
  v->a[v->len++] = x;
  return true;
}

static void vec_remove(vec *v, uint32_t x) {
  for (uint32_t i = 0; i < v->len; i++)
    if (v->a[i].v == x) {
      memmove(v->a + i, v->a + i + 1, (size_t)(v->len - i - 1) * sizeof *v->a);
      v->len--;
      return;
    }
}

static sarc *vec_find(const vec *v, uint32_t x) {
  for (uint32_t i = 0; i < v->len; i++)
    if (v->a[i].v == x) return &v->a[i];
  return NULL;
}

static bool heap_push(lv *L, double key, uint32_t v) {
  if (L->hlen == L->hcap) {
    const size_t ncap = L->hcap * 2;
    hitem *nh = astar__malloc(L->al, ncap * sizeof *nh);
    if (!nh) return false;
    memcpy(nh, L->heap, L->hlen * sizeof *nh);
    astar__free(L->al, L->heap, L->hcap * sizeof *nh);
    L->heap = nh;
    L->hcap = ncap;
  }
  size_t i = L->hlen++;
  while (i > 0) {
    const size_t p = (i - 1) / 2;
    if (!(key < L->heap[p].key)) break;
    L->heap[i] = L->heap[p];
    i = p;
  }
  L->heap[i] = (hitem){key, v};
  return true;
}

static hitem heap_pop(lv *L) {
  const hitem top = L->heap[0], last = L->heap[--L->hlen];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= L->hlen) break;
    if (c + 1 < L->hlen && L->heap[c + 1].key < L->heap[c].key) c++;
    if (!(L->heap[c].key < last.key)) break;
    L->heap[i] = L->heap[c];
    i = c;
  }
  if (L->hlen) L->heap[i] = last;
  return top;
}

/* Dijkstra from u over the top graph without x, up to cost `limit` and
** SG_SETTLE_LIMIT settled vertices: L->dist[v] (where L->seen[v] ==
** L->stamp) is then the cost of some path u..v, an upper bound. */
static bool witness(lv *L, uint32_t u, uint32_t x, double limit) {
  const astar_subgoal *sg = L->sg;
  if (++L->stamp == 0) {
    memset(L->seen, 0, (size_t)sg->n * sizeof *L->seen);
    L->stamp = 1;
  }
  L->hlen = 0;
  L->dist[u] = 0.0;
  L->seen[u] = L->stamp;
  if (!heap_push(L, 0.0, u)) return false;
  uint32_t settled = 0;
  while (L->hlen && settled < SG_SETTLE_LIMIT) {
    const hitem it = heap_pop(L);
    if (it.key > L->dist[it.v]) continue; /* stale entry */
    if (it.key > limit) break;
    settled++;
    const vec *nb = &L->nbr[it.v];
    for (uint32_t i = 0; i < nb->len; i++) {
      const uint32_t w = nb->a[i].v;
      if (w == x) continue;
      const double nd = it.key + nb->a[i].c;
      if (nd > limit) continue;
      if (L->seen[w] == L->stamp && !(nd < L->dist[w])) continue;
      L->seen[w] = L->stamp;
      L->dist[w] = nd;
      if (!heap_push(L, nd, w)) return false;
    }
  }
  return true;
}

/* Try to lower top vertex x: *lowered says whether it was. The arcs it
** needs between its neighbours -- a free octile line when there is one of
** that cost, else a shortcut over x -- go to `add` until it is known to be
** lowered. It stays at the top when it would add more new arcs than it
** has (the top graph would grow). */
static astar_status try_lower(lv *L, uint32_t x, avec *add, bool *lowered) {
  astar_subgoal *sg = L->sg;
  const vec *N = &L->nbr[x];
  *lowered = false;
  add->len = 0;
  if (N->len > SG_MAX_DEGREE) return ASTAR_OK;
  uint32_t fresh = 0;
  for (uint32_t i = 0; i + 1 < N->len; i++) {
    const uint32_t u = N->a[i].v;
    const double cux = N->a[i].c;
    double limit = 0.0;
    for (uint32_t j = i + 1; j < N->len; j++) {
      const double need = cux + N->a[j].c;
      if (need > limit) limit = need;
    }
    if (!witness(L, u, x, limit)) return ASTAR_NO_MEMORY;
    for (uint32_t j = i + 1; j < N->len; j++) {
      const uint32_t v = N->a[j].v;
      const double need = cux + N->a[j].c;
      if (L->seen[v] == L->stamp && L->dist[v] <= need) continue;
      uint32_t mid = x;
      if (sg_octile(sg, sg->xy[u], sg->xy[v]) == need) {
        const bool df = astar__sg_path_free(L->grid, sg->cell[u], sg->cell[v], true);
        const bool sf = astar__sg_path_free(L->grid, sg->cell[u], sg->cell[v], false);
        if (df || sf) mid = df && sf ? SG_NONE : df ? SG_DIAG : SG_STRAIGHT;
      }
      if (!vec_find(&L->nbr[u], v) && ++fresh > N->len) return ASTAR_OK;
      if (!avec_push(L->al, add, (spair){u, v, mid, need})) return ASTAR_NO_MEMORY;
    }
  }
  /* Lower it: it leaves its neighbours' lists, its own list stays as its
  ** up arcs; the new arcs join the top graph (an arc already there takes
  ** the lower cost). */
  for (uint32_t i = 0; i < N->len; i++) vec_remove(&L->nbr[N->a[i].v], x);
  for (uint32_t i = 0; i < add->len; i++) {
    const spair *e = &add->a[i];
    sarc *a = vec_find(&L->nbr[e->u], e->v);
    if (a) {
      if (e->c < a->c) {
        sarc *b = vec_find(&L->nbr[e->v], e->u);
        a->c = b->c = e->c;
        a->mid = e->mid;
        b->mid = sg_flip(e->mid);
      }
      continue;
    }
    if (!vec_push(L->al, &L->nbr[e->u], (sarc){e->v, e->mid, e->c}) ||
        !vec_push(L->al, &L->nbr[e->v], (sarc){e->u, sg_flip(e->mid), e->c}))
      return ASTAR_NO_MEMORY;
  }
  L->top[x] = 0;
  *lowered = true;
  return ASTAR_OK;
}

static int cmp_u64(const void *x, const void *y) {
  const uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return (a > b) - (a < b);
}

static int cmp_arc(const void *x, const void *y) {
  const uint32_t a = ((const sarc *)x)->v, b = ((const sarc *)y)->v;
  return (a > b) - (a < b);
}

/* Replace the graph arrays by the hierarchy: per vertex its up arcs (the
** frozen list, or the top list), then its down arcs, each sorted, with
** their shortcut vertices (amid). The costs follow (astar__sg_costs). */
static astar_status assemble(lv *L) {
  astar_subgoal *sg = L->sg;
  const astar_allocator *al = L->al;
  const uint32_t n = sg->n;
  uint32_t *ndown = astar__calloc(al, (size_t)n + 1, sizeof *ndown);
  if (!ndown) return ASTAR_NO_MEMORY;
  uint64_t total = 0;
  for (uint32_t v = 0; v < n; v++) {
    total += L->nbr[v].len;
    if (!L->top[v])
      for (uint32_t i = 0; i < L->nbr[v].len; i++) ndown[L->nbr[v].a[i].v]++;
  }
  for (uint32_t v = 0; v < n; v++) total += ndown[v];
  /* Top-top arcs appear in both lists; a lowered x's up arc to w appears
  ** in x's list and as w's down arc: total counts every entry once. */
  uint32_t *adj = NULL, *amid = NULL;
  if (total < UINT32_MAX) {
    adj = astar__malloc(al, (size_t)(total + 1) * sizeof *adj);
    amid = astar__malloc(al, (size_t)(total + 1) * sizeof *amid);
  }
  if (!adj || !amid) {
    astar__free(al, adj, (size_t)(total + 1) * sizeof *adj);
    astar__free(al, amid, (size_t)(total + 1) * sizeof *amid);
    astar__free(al, ndown, ((size_t)n + 1) * sizeof *ndown);
    return ASTAR_NO_MEMORY;
  }
  uint32_t acc = 0;
  for (uint32_t v = 0; v < n; v++) {
    sg->first[v] = acc;
    sg->nup[v] = L->nbr[v].len;
    if (L->nbr[v].len > 1) qsort(L->nbr[v].a, L->nbr[v].len, sizeof *L->nbr[v].a, cmp_arc);
    for (uint32_t i = 0; i < L->nbr[v].len; i++) {
      adj[acc + i] = L->nbr[v].a[i].v;
      amid[acc + i] = L->nbr[v].a[i].mid;
    }
    acc += L->nbr[v].len + ndown[v];
    ndown[v] = sg->first[v] + sg->nup[v]; /* cursor of the down part */
  }
  sg->first[n] = acc;
  for (uint32_t x = 0; x < n; x++)
    if (!L->top[x])
      for (uint32_t i = 0; i < L->nbr[x].len; i++) {
        const uint32_t k = ndown[L->nbr[x].a[i].v]++;
        adj[k] = x;
        amid[k] = sg_flip(L->nbr[x].a[i].mid); /* seen from the other end */
      }
  /* Down arcs were appended in increasing x: already sorted. */
  astar__free(al, sg->adj, ((size_t)sg->m + 1) * sizeof *sg->adj);
  astar__free(al, sg->amid, ((size_t)sg->m + 1) * sizeof *sg->amid);
  astar__free(al, sg->acost, ((size_t)sg->m + 1) * sizeof *sg->acost);
  sg->acost = NULL;
  sg->adj = adj;
  sg->amid = amid;
  sg->m = acc;
  astar__free(al, ndown, ((size_t)n + 1) * sizeof *ndown);
  return ASTAR_OK;
}

/* The up arc of x to w: its index, or SG_NONE (binary search: the up part
** of a list is sorted). */
static uint32_t up_arc(const astar_subgoal *sg, uint32_t x, uint32_t w) {
  uint32_t lo = sg->first[x], hi = sg->first[x] + sg->nup[x];
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (sg->adj[mid] < w)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < sg->first[x] + sg->nup[x] && sg->adj[lo] == w ? lo : SG_NONE;
}

uint32_t astar__sg_arc(const astar_subgoal *sg, uint32_t a, uint32_t b) {
  const uint32_t i = up_arc(sg, a, b);
  return i != SG_NONE ? i : up_arc(sg, b, a);
}

astar_status astar__sg_lines(astar_subgoal *sg, const astar_grid *grid) {
  if (!sg->amid) sg->amid = astar__malloc(&sg->alloc, ((size_t)sg->m + 1) * sizeof *sg->amid);
  if (!sg->amid) return ASTAR_NO_MEMORY;
  for (uint32_t v = 0; v < sg->n; v++)
    for (uint32_t i = sg->first[v]; i < sg->first[v + 1]; i++) {
      const bool df = astar__sg_path_free(grid, sg->cell[v], sg->cell[sg->adj[i]], true);
      const bool sf = astar__sg_path_free(grid, sg->cell[v], sg->cell[sg->adj[i]], false);
      sg->amid[i] = df && sf ? SG_NONE : df ? SG_DIAG : SG_STRAIGHT;
    }
  return ASTAR_OK;
}

astar_status astar__sg_costs(astar_subgoal *sg) {
  const astar_allocator *al = &sg->alloc;
  const uint32_t n = sg->n, m = sg->m;
  if (!sg->acost) sg->acost = astar__malloc(al, ((size_t)m + 1) * sizeof *sg->acost);
  uint32_t *byl = astar__malloc(al, ((size_t)n + 1) * sizeof *byl);
  uint32_t cnt[SG_MAX_LEVELS + 2];
  if (!sg->acost || !byl) {
    astar__free(al, byl, ((size_t)n + 1) * sizeof *byl);
    return ASTAR_NO_MEMORY;
  }
  /* Vertices by level (counting sort): a shortcut's vertex is lower than
  ** both its ends, so its arcs' costs are known when the shortcut's is
  ** needed. Every cost is checked: a file that breaks the structure is
  ** malformed (ASTAR_PARSE_ERROR), never a wrong answer. */
  memset(cnt, 0, sizeof cnt);
  for (uint32_t v = 0; v < n; v++) cnt[sg->level[v] + 1]++;
  for (uint32_t l = 1; l < SG_MAX_LEVELS + 2; l++) cnt[l] += cnt[l - 1];
  for (uint32_t v = 0; v < n; v++) byl[cnt[sg->level[v]]++] = v;
  astar_status st = ASTAR_OK;
  for (uint32_t k = 0; k < n && st == ASTAR_OK; k++) {
    const uint32_t x = byl[k];
    for (uint32_t i = sg->first[x], e = sg->first[x] + sg->nup[x]; i < e; i++) {
      const uint32_t w = sg->adj[i], mid = sg->amid[i];
      if (mid >= SG_DIAG) {
        sg->acost[i] = sg_octile(sg, sg->xy[x], sg->xy[w]);
        continue;
      }
      if (mid >= n || sg->level[mid] >= sg->level[x] || sg->level[mid] >= sg->level[w]) {
        st = ASTAR_PARSE_ERROR;
        break;
      }
      const uint32_t i1 = up_arc(sg, mid, x), i2 = up_arc(sg, mid, w);
      if (i1 == SG_NONE || i2 == SG_NONE) {
        st = ASTAR_PARSE_ERROR;
        break;
      }
      sg->acost[i] = sg->acost[i1] + sg->acost[i2];
    }
  }
  /* Down arcs: the cost of the other end's up arc, with the same vertex. */
  for (uint32_t w = 0; w < n && st == ASTAR_OK; w++)
    for (uint32_t i = sg->first[w] + sg->nup[w]; i < sg->first[w + 1]; i++) {
      const uint32_t j = up_arc(sg, sg->adj[i], w);
      if (j == SG_NONE || sg->amid[j] != sg_flip(sg->amid[i])) {
        st = ASTAR_PARSE_ERROR;
        break;
      }
      sg->acost[i] = sg->acost[j];
    }
  astar__free(al, byl, ((size_t)n + 1) * sizeof *byl);
  return st;
}

astar_status astar__sg_levels(astar_subgoal *sg, const astar_grid *grid) {
  const astar_allocator *al = &sg->alloc;
  const uint32_t n = sg->n;
  lv L;
  memset(&L, 0, sizeof L);
  L.sg = sg;
  L.grid = grid;
  L.al = al;
  avec add = {NULL, 0, 0};
  uint64_t *order = NULL; /* a round's top vertices: degree << 32 | index */
  astar_status st = ASTAR_NO_MEMORY;
  L.nbr = astar__calloc(al, (size_t)n + 1, sizeof *L.nbr);
  L.top = astar__malloc(al, (size_t)n + 1);
  L.dist = astar__malloc(al, ((size_t)n + 1) * sizeof *L.dist);
  L.seen = astar__calloc(al, (size_t)n + 1, sizeof *L.seen);
  L.touched = astar__calloc(al, (size_t)n + 1, sizeof *L.touched);
  order = astar__malloc(al, ((size_t)n + 1) * sizeof *order);
  L.hcap = 256;
  L.heap = astar__malloc(al, L.hcap * sizeof *L.heap);
  if (!L.nbr || !L.top || !L.dist || !L.seen || !L.heap || !L.touched || !order) goto out;
  for (uint32_t v = 0; v < n; v++) {
    L.top[v] = 1;
    for (uint32_t i = sg->first[v]; i < sg->first[v + 1]; i++)
      if (!vec_push(al, &L.nbr[v],
                    (sarc){sg->adj[i], sg->amid[i], sg_octile(sg, sg->xy[v], sg->xy[sg->adj[i]])}))
        goto out;
  }
  const uint32_t max_rounds = (sg->levels_asked ? sg->levels_asked : SG_MAX_LEVELS) - 1;
  uint32_t rounds = 0, ntop = n;
  while (rounds < max_rounds) {
    uint32_t lowered = 0, k = 0;
    for (uint32_t x = 0; x < n; x++)
      if (L.top[x]) order[k++] = (uint64_t)L.nbr[x].len << 32 | x;
    if (k > 1) qsort(order, k, sizeof *order, cmp_u64);
    for (uint32_t j = 0; j < k; j++) {
      const uint32_t x = (uint32_t)order[j];
      if (L.touched[x] == rounds + 1) continue;
      bool low;
      if ((st = try_lower(&L, x, &add, &low)) != ASTAR_OK) goto out;
      if (low) {
        for (uint32_t i = 0; i < L.nbr[x].len; i++) L.touched[L.nbr[x].a[i].v] = rounds + 1;
        sg->level[x] = (uint8_t)(rounds + 1);
        lowered++;
      }
    }
    st = ASTAR_NO_MEMORY;
    if (!lowered) break;
    rounds++;
    const uint32_t before = ntop;
    ntop -= lowered;
    if (!sg->levels_asked && (uint64_t)lowered * 100 < before) break;
  }
  sg->nlevels = rounds + 1;
  for (uint32_t v = 0; v < n; v++)
    if (L.top[v]) sg->level[v] = (uint8_t)sg->nlevels;
  st = assemble(&L);
  if (st == ASTAR_OK) st = astar__sg_costs(sg);
out:
  if (L.nbr)
    for (uint32_t v = 0; v < n; v++)
      astar__free(al, L.nbr[v].a, (size_t)L.nbr[v].cap * sizeof(sarc));
  astar__free(al, add.a, (size_t)add.cap * sizeof(spair));
  astar__free(al, L.nbr, ((size_t)n + 1) * sizeof *L.nbr);
  astar__free(al, L.top, (size_t)n + 1);
  astar__free(al, L.dist, ((size_t)n + 1) * sizeof *L.dist);
  astar__free(al, L.seen, ((size_t)n + 1) * sizeof *L.seen);
  astar__free(al, L.touched, ((size_t)n + 1) * sizeof *L.touched);
  astar__free(al, L.heap, L.hcap * sizeof *L.heap);
  astar__free(al, order, ((size_t)n + 1) * sizeof *order);
  return st;
}
