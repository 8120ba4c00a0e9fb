// bench/gppc/test/mini_driver.cpp -- the ctest gppc_entry's driver: runs
// bench/gppc/Entry.cpp the way the GPPC harness does (PreprocessMap writes
// the file, PrepareForSearch loads it, GetPath until it returns true) on a
// small map held here, for every ordered pair of cells, and checks every
// answer against the competition's rules on its own: each step one of the 8
// moves onto a passable cell without cutting a corner, from start to goal,
// of the optimal length (a Dijkstra here), and an empty path exactly when
// the goal is unreachable. Usage: mini_driver DIR (the method comes from
// ASTAR_GPPC_METHOD). Exit 0 when every answer is right.
#include "Entry.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <queue>
#include <string>
#include <vector>

static const char *const MAP[] = {
    "..........@.....",
    "..@@@@....@..@..",
    "..@.......@..@..",
    "..@..@@@.....@..",
    "......@...@@@@..",
    "@@@.@.@.........",
    "....@.@..@@.@@@.",
    ".@@@@...@@...@..",
    "........@...@@.@",
    "@@@@@@@@@@@@@..@", // row 10 is walled off (its only diagonal exit
                        // would cut the corner at (12,10)): no path there
    "..@.........@@@@",
};
static const int W = 16, H = 11;

static bool open_cell(int x, int y) {
  return x >= 0 && y >= 0 && x < W && y < H && MAP[y][x] == '.';
}

// Octile Dijkstra from (sx, sy) without corner cutting: the reference.
static std::vector<double> dijkstra(int sx, int sy) {
  std::vector<double> d(W * H, INFINITY);
  typedef std::pair<double, int> item;
  std::priority_queue<item, std::vector<item>, std::greater<item>> q;
  d[sy * W + sx] = 0;
  q.push(item(0, sy * W + sx));
  while (!q.empty()) {
    item it = q.top();
    q.pop();
    int x = it.second % W, y = it.second / W;
    if (it.first > d[it.second]) continue;
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        if ((dx == 0 && dy == 0) || !open_cell(x + dx, y + dy)) continue;
        if (dx != 0 && dy != 0 && (!open_cell(x + dx, y) || !open_cell(x, y + dy))) continue;
        double nd = it.first + ((dx != 0 && dy != 0) ? std::sqrt(2.0) : 1.0);
        int n = (y + dy) * W + x + dx;
        if (nd < d[n] - 1e-12) {
          d[n] = nd;
          q.push(item(nd, n));
        }
      }
  }
  return d;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: mini_driver DIR\n");
    return 2;
  }
  std::vector<bool> bits(W * H);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) bits[y * W + x] = MAP[y][x] == '.';
  std::string file = std::string(argv[1]) + "/" + GetName() + "-mini";
  PreprocessMap(bits, W, H, file);
  void *data = PrepareForSearch(bits, W, H, file);
  long queries = 0, bad = 0;
  for (int s = 0; s < W * H; s++) {
    if (!bits[s]) continue;
    std::vector<double> ref = dijkstra(s % W, s / W);
    for (int g = 0; g < W * H; g++) {
      if (!bits[g]) continue;
      xyLoc a = {static_cast<int16_t>(s % W), static_cast<int16_t>(s / W)};
      xyLoc b = {static_cast<int16_t>(g % W), static_cast<int16_t>(g / W)};
      std::vector<xyLoc> path;
      int calls = 0;
      while (!GetPath(data, a, b, path))
        if (++calls > W * H) break;
      queries++;
      const char *why = nullptr;
      double len = 0;
      if (path.empty()) {
        if (!std::isinf(ref[g])) why = "no path returned, but the goal is reachable";
      } else if (std::isinf(ref[g])) {
        why = "a path to an unreachable goal";
      } else if (path.front().x != a.x || path.front().y != a.y || path.back().x != b.x ||
                 path.back().y != b.y) {
        why = "the path does not run from start to goal";
      } else {
        for (size_t i = 1; i < path.size() && why == nullptr; i++) {
          int dx = path[i].x - path[i - 1].x, dy = path[i].y - path[i - 1].y;
          int x = path[i - 1].x, y = path[i - 1].y;
          if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0))
            why = "a step that is not one of the 8 moves";
          else if (!open_cell(x + dx, y + dy))
            why = "a step onto a blocked cell";
          else if (dx != 0 && dy != 0 && (!open_cell(x + dx, y) || !open_cell(x, y + dy)))
            why = "a diagonal step that cuts a corner";
          len += (dx != 0 && dy != 0) ? std::sqrt(2.0) : 1.0;
        }
        if (why == nullptr && std::fabs(len - ref[g]) > 1e-9) why = "not the optimal length";
      }
      if (why != nullptr && ++bad <= 5)
        std::fprintf(stderr, "%s: (%d,%d) -> (%d,%d): %s (length %.4f, optimal %.4f)\n",
                     GetName().c_str(), a.x, a.y, b.x, b.y, why, len, ref[g]);
    }
  }
  std::printf("%s: %ld queries, %ld wrong\n", GetName().c_str(), queries, bad);
  return bad == 0 ? 0 : 1;
}
