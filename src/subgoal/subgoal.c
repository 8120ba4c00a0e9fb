/*
** subgoal/subgoal.c -- PLACEHOLDER on the lead branch i31-core: the
** subgoal-graph owner replaces this file (build, save / load, query).
*/
#include "subgoal/subgoal.h"

void astar_subgoal_config_init(astar_subgoal_config *cfg) {
  if (!cfg) return;
  astar_options_init(&cfg->options);
  cfg->levels = 0;
}

const char *astar_subgoal_unsupported_reason(const astar_grid *grid, const astar_options *opt) {
  (void)grid;
  (void)opt;
  return "subgoal: not built yet";
}

astar_status astar_subgoal_build(astar_subgoal **out, const astar_grid *grid,
                                 const astar_subgoal_config *cfg, const astar_allocator *alloc) {
  (void)grid;
  (void)cfg;
  (void)alloc;
  if (out) *out = NULL;
  return ASTAR_UNSUPPORTED;
}

void astar_subgoal_free(astar_subgoal *sg) {
  (void)sg;
}

astar_status astar_subgoal_get_info(const astar_subgoal *sg, astar_subgoal_info *info) {
  (void)sg;
  (void)info;
  return ASTAR_INVALID_ARGUMENT;
}

astar_status astar_subgoal_save(const astar_subgoal *sg, void *buf, size_t cap, size_t *len) {
  (void)sg;
  (void)buf;
  (void)cap;
  (void)len;
  return ASTAR_INVALID_ARGUMENT;
}

astar_status astar_subgoal_load(astar_subgoal **out, const astar_grid *grid, const void *buf,
                                size_t len, const astar_allocator *alloc) {
  (void)grid;
  (void)buf;
  (void)len;
  (void)alloc;
  if (out) *out = NULL;
  return ASTAR_UNSUPPORTED;
}

astar_status astar_subgoal_verify(const astar_subgoal *sg, const astar_grid *grid) {
  (void)sg;
  (void)grid;
  return ASTAR_INVALID_ARGUMENT;
}

astar_status astar__subgoal_fits(const astar_subgoal *sg, const astar_grid *grid,
                                 const astar_options *opt) {
  (void)sg;
  (void)grid;
  (void)opt;
  return ASTAR_MISMATCH;
}

size_t astar__subgoal_scratch_bytes(const astar_subgoal *sg) {
  (void)sg;
  return 0;
}

astar_status astar__subgoal_find_path(const astar_subgoal *sg, const astar_grid *grid,
                                      void *scratch, size_t scratch_bytes, uint64_t max_expansions,
                                      astar_point start, astar_point goal, astar_point *path,
                                      size_t cap, astar_result *res) {
  (void)sg;
  (void)grid;
  (void)scratch;
  (void)scratch_bytes;
  (void)max_expansions;
  (void)start;
  (void)goal;
  (void)path;
  (void)cap;
  (void)res;
  return ASTAR_UNSUPPORTED;
}
