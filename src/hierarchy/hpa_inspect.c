/*
** hpa_inspect.c -- read-only views of an HPA* object for viewers
** (astar/hierarchy.h, "Inspection"): cluster sides, the abstract nodes of a
** level, node membership and the cluster-border crossings of a path. They
** read the canonical per-cluster node lists (hpa.h), so they are correct
** after a build, an update or a load alike; nothing allocates.
*/
#include "hierarchy/hpa.h"

#include "astar/hierarchy.h"

static bool level_ok(const astar_hpa *h, int32_t level) {
  return h && level >= 1 && level <= h->levels;
}

int32_t astar_hpa_cluster_size(const astar_hpa *hpa, int32_t level) {
  return level_ok(hpa, level) ? hpa->lv[level - 1].side : 0;
}

astar_status astar_hpa_level_nodes(const astar_hpa *hpa, int32_t level, astar_point *cells,
                                   size_t cap, size_t *len) {
  if (!len || !level_ok(hpa, level)) return ASTAR_INVALID_ARGUMENT;
  const hpa_level *L = &hpa->lv[level - 1];
  const size_t nclusters = (size_t)L->ncx * (size_t)L->ncy;
  size_t n = 0;
  for (size_t c = 0; c < nclusters; c++) n += L->cl[c].n;
  *len = n;
  if (n == 0) return ASTAR_OK;
  if (!cells || cap < n) return ASTAR_BUFFER_TOO_SMALL;
  /* Cluster order is row-major and each cluster's cells are increasing:
  ** exactly the node numbering of the header. */
  size_t k = 0;
  for (size_t c = 0; c < nclusters; c++) {
    const hpa_cluster *cl = &L->cl[c];
    for (uint32_t i = 0; i < cl->n; i++) {
      cells[k].x = (int32_t)(cl->cell[i] % (uint32_t)hpa->width);
      cells[k].y = (int32_t)(cl->cell[i] / (uint32_t)hpa->width);
      k++;
    }
  }
  return ASTAR_OK;
}

bool astar_hpa_is_node(const astar_hpa *hpa, int32_t level, astar_point cell) {
  if (!level_ok(hpa, level)) return false;
  if (cell.x < 0 || cell.y < 0 || cell.x >= hpa->width || cell.y >= hpa->height) return false;
  const hpa_cluster *cl =
      &hpa->lv[level - 1].cl[astar__hpa_cluster_of(hpa, level - 1, cell.x, cell.y)];
  const uint32_t key = (uint32_t)cell.y * (uint32_t)hpa->width + (uint32_t)cell.x;
  uint32_t lo = 0, hi = cl->n; /* binary search in the increasing cell list */
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (cl->cell[mid] < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < cl->n && cl->cell[lo] == key;
}

/* Cluster of a cell at level l (0-based), outside cells clamped to the grid. */
static uint32_t clamped_cluster(const astar_hpa *h, int l, astar_point p) {
  const int32_t x = p.x < 0 ? 0 : p.x >= h->width ? h->width - 1 : p.x;
  const int32_t y = p.y < 0 ? 0 : p.y >= h->height ? h->height - 1 : p.y;
  return astar__hpa_cluster_of(h, l, x, y);
}

astar_status astar_hpa_path_crossings(const astar_hpa *hpa, int32_t level, const astar_point *path,
                                      size_t length, uint32_t *index, size_t cap, size_t *count) {
  if (!count || !level_ok(hpa, level) || (!path && length > 0)) return ASTAR_INVALID_ARGUMENT;
  const int l = level - 1;
  size_t n = 0;
  for (size_t i = 0; i + 1 < length; i++)
    if (clamped_cluster(hpa, l, path[i]) != clamped_cluster(hpa, l, path[i + 1])) n++;
  *count = n;
  if (n == 0) return ASTAR_OK;
  if (!index || cap < n) return ASTAR_BUFFER_TOO_SMALL;
  size_t k = 0;
  for (size_t i = 0; i + 1 < length; i++)
    if (clamped_cluster(hpa, l, path[i]) != clamped_cluster(hpa, l, path[i + 1]))
      index[k++] = (uint32_t)i;
  return ASTAR_OK;
}
