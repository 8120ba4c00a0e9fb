// bench/gppc/test/Entry.h -- the four functions of the GPPC harness's entry
// interface (gppc-dev/startkit-classic), declared here so that the ctest
// gppc_entry can compile bench/gppc/Entry.cpp without the harness (which is
// never part of this repository). Same signatures and the same xyLoc layout
// (two int16_t in namespace GPPC); the harness's own Entry.h is used by
// bench/gppc/run.sh.
#ifndef ASTAR_GPPC_TEST_ENTRY_H
#define ASTAR_GPPC_TEST_ENTRY_H
#include <cstdint>
#include <string>
#include <vector>

namespace GPPC {
struct xyLoc {
  int16_t x;
  int16_t y;
};
} // namespace GPPC
typedef GPPC::xyLoc xyLoc;

void PreprocessMap(const std::vector<bool> &bits, int width, int height,
                   const std::string &filename);
void *PrepareForSearch(const std::vector<bool> &bits, int width, int height,
                       const std::string &filename);
bool GetPath(void *data, xyLoc s, xyLoc g, std::vector<xyLoc> &path);
std::string GetName();
#endif
