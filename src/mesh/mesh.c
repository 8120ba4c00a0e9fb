/*
** mesh/mesh.c -- the navigation mesh object (astar/mesh.h): its accessors,
** construction from arrays, edits and the data derived from the polygons
** (mesh/mesh.h says the layout and its invariants).
*/
#include "mesh/mesh.h"

#include <string.h>

size_t astar_mesh_vertex_count(const astar_mesh *mesh) {
  return mesh ? mesh->nv : 0;
}

size_t astar_mesh_polygon_count(const astar_mesh *mesh) {
  return mesh ? mesh->np : 0;
}

astar_vec2 astar_mesh_vertex(const astar_mesh *mesh, size_t i) {
  if (!mesh || i >= mesh->nv) return (astar_vec2){0, 0};
  return mesh->v[i];
}

uint32_t astar_mesh_polygon(const astar_mesh *mesh, size_t i, const int32_t **vertices,
                            const int32_t **neighbours) {
  if (!mesh || i >= mesh->np || mesh->pn[i] == 0) {
    if (vertices) *vertices = NULL;
    if (neighbours) *neighbours = NULL;
    return 0;
  }
  if (vertices) *vertices = mesh->pv + mesh->poff[i];
  if (neighbours) *neighbours = mesh->pnb + mesh->poff[i];
  return mesh->pn[i];
}

void astar_mesh_bounds(const astar_mesh *mesh, astar_vec2 *min, astar_vec2 *max) {
  const astar_vec2 zero = {0, 0};
  if (min) *min = mesh ? mesh->min : zero;
  if (max) *max = mesh ? mesh->max : zero;
}

double astar_mesh_area(const astar_mesh *mesh) {
  return mesh ? mesh->area : 0.0;
}

uint64_t astar_mesh_version(const astar_mesh *mesh) {
  return mesh ? mesh->version : 0;
}
