// bench/gppc/shim2014_old.cpp -- one half of the bridge between a GPPC 2014
// entry (the 2014 Entry.h) and the startkit-classic harness (the 2023
// Entry.h). Compiled by bench/gppc/peer.sh together with the entry's own
// sources, with the entry's directory on the include path and the entry's
// four functions renamed by -D (GetName=gppc2014_GetName, ...) so that they
// cannot clash with the harness's (GetName differs only in its return type,
// which C++ does not mangle). Nothing here is the entry's code.
//
// The 2014 interface takes the map as a non-const std::vector<bool>& and the
// file name as const char *, and its xyLoc is the entry's own struct of two
// 16-bit coordinates (int16_t or uint16_t, 4 bytes, no padding: checked
// below). The other half (shim2014_new.cpp) sees only GPPC::xyLoc; the
// bridge passes the harness's std::vector<GPPC::xyLoc> as an opaque pointer
// and this half uses it as the entry's std::vector<xyLoc>: the two element
// types have the same size, alignment and members, so the vectors have the
// same representation in libstdc++. Converting instead would copy every
// path inside the timed GetPath call and, for the entries that answer a
// query over several calls, need a second vector kept between them.
#include <cstdint>
#include <deque>
#include <vector>
#include <algorithm>
#include <cstdio>
#include "Entry.h"

static_assert(sizeof(xyLoc) == 4, "the 2014 xyLoc is two 16-bit coordinates");
static_assert(alignof(xyLoc) == 2, "the 2014 xyLoc is two 16-bit coordinates");

extern "C" {
void gppc2014_bridge_preprocess(std::vector<bool> *bits, int w, int h, const char *file) {
  PreprocessMap(*bits, w, h, file);
}
void *gppc2014_bridge_prepare(std::vector<bool> *bits, int w, int h, const char *file) {
  return PrepareForSearch(*bits, w, h, file);
}
bool gppc2014_bridge_get_path(void *data, int sx, int sy, int gx, int gy, void *path) {
  xyLoc s, g;
  s.x = sx;
  s.y = sy;
  g.x = gx;
  g.y = gy;
  return GetPath(data, s, g, *static_cast<std::vector<xyLoc> *>(path));
}
const char *gppc2014_bridge_name() {
  return GetName();
}
}
