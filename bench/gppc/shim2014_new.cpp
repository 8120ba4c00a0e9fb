// bench/gppc/shim2014_new.cpp -- the other half of the bridge (see
// shim2014_old.cpp): the startkit-classic Entry.h functions the harness's
// main.cpp calls, answered by a GPPC 2014 entry. Compiled with the harness's
// directory on the include path. The map is copied once for the entry's
// non-const 2014 signature (outside the timed queries).
#include <string>
#include <vector>
#include "Entry.h"

static_assert(sizeof(GPPC::xyLoc) == 4, "GPPC::xyLoc is two int16_t");

extern "C" {
void gppc2014_bridge_preprocess(std::vector<bool> *bits, int w, int h, const char *file);
void *gppc2014_bridge_prepare(std::vector<bool> *bits, int w, int h, const char *file);
bool gppc2014_bridge_get_path(void *data, int sx, int sy, int gx, int gy, void *path);
const char *gppc2014_bridge_name();
}

// The entries keep pointers to the map in their search objects; it must
// outlive PrepareForSearch.
static std::vector<bool> entry_map;

void PreprocessMap(const std::vector<bool> &bits, int width, int height,
                   const std::string &filename) {
  entry_map = bits;
  gppc2014_bridge_preprocess(&entry_map, width, height, filename.c_str());
}

void *PrepareForSearch(const std::vector<bool> &bits, int width, int height,
                       const std::string &filename) {
  entry_map = bits;
  return gppc2014_bridge_prepare(&entry_map, width, height, filename.c_str());
}

bool GetPath(void *data, xyLoc s, xyLoc g, std::vector<xyLoc> &path) {
  return gppc2014_bridge_get_path(data, s.x, s.y, g.x, g.y, &path);
}

std::string GetName() {
  return gppc2014_bridge_name();
}
