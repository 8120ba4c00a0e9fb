/*
** examples/cpp/lake.cpp -- libastar from C++17: a walker goes round a lake,
** a swimmer crosses it. The C headers are used as they are (they declare
** everything extern "C"); std::unique_ptr frees every object, a status
** other than ASTAR_OK becomes an exception, and paths go into
** std::vector buffers.
**
** The map is ASCII text ('W' water, '#' wall, 'S' and 'G' the ends). The
** parser blocks water in the grid, as the Moving AI benchmark does; the
** terrain types of the cells (astar/clearance.h) open it again for the
** units whose capability holds ASTAR_TYPE_WATER.
**
**   c++ -std=c++17 lake.cpp $(pkg-config --cflags --libs astar) -o lake && ./lake
*/
#include <astar/astar.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr std::string_view kMap = R"(
S.....WWWW.........
......WWWWW........
.....WWWWWW.......G
......WWWWW........
..#####WWW.........
...................
)";

// Objects are freed by their astar_*_free function: Free is that function.
template <auto Free> struct freer {
  template <class T> void operator()(T *p) const noexcept { Free(p); }
};
template <class T, auto Free> using handle = std::unique_ptr<T, freer<Free>>;
using grid_ptr = handle<astar_grid, astar_grid_free>;
using workspace_ptr = handle<astar_workspace, astar_workspace_free>;
using clearance_ptr = handle<astar_clearance, astar_clearance_free>;

struct error : std::runtime_error {
  explicit error(const char *what, astar_status st)
      : std::runtime_error(std::string(what) + ": " + astar_strerror(st)) {}
};

void check(astar_status st, const char *what) {
  if (st != ASTAR_OK) throw error(what, st);
}

// Call a constructor, new_fn(&object, args...), and own what it made.
template <class T, auto Free, class New, class... Args>
handle<T, Free> make(const char *what, New new_fn, Args... args) {
  T *object = nullptr;
  check(new_fn(&object, args...), what);
  return handle<T, Free>(object);
}

struct unit {
  const char *name;
  astar_capability may_enter; // the terrain types it may walk on
};

// The map with the unit's path drawn in: '*' on land, 'o' in the water.
void draw(const std::vector<uint8_t> &types, int32_t w, int32_t h,
          const std::vector<astar_point> &path) {
  std::vector<std::string> rows(static_cast<size_t>(h), std::string(static_cast<size_t>(w), '.'));
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      const uint8_t t = types[static_cast<size_t>(y * w + x)];
      char &c = rows[static_cast<size_t>(y)][static_cast<size_t>(x)];
      if (t == ASTAR_TYPE_WATER) c = '~';
      if (t == ASTAR_TYPE_WALL) c = '#';
    }
  for (const astar_point &p : path) {
    char &c = rows[static_cast<size_t>(p.y)][static_cast<size_t>(p.x)];
    c = c == '~' ? 'o' : '*';
  }
  for (const std::string &row : rows) std::printf("  %s\n", row.c_str());
}

} // namespace

int main() {
  try {
    astar_grid *raw_grid = nullptr;
    astar_point start{}, goal{};
    astar_parse_error perr{};
    const astar_status parsed =
        astar_ascii_parse_map(&raw_grid, kMap.data(), kMap.size(), nullptr, &start, &goal, &perr);
    if (parsed == ASTAR_PARSE_ERROR)
      throw std::runtime_error("map:" + std::to_string(perr.line) + ":" +
                               std::to_string(perr.column) + ": " + perr.message);
    check(parsed, "the map");
    const grid_ptr grid(raw_grid);
    const int32_t w = astar_grid_width(grid.get()), h = astar_grid_height(grid.get());

    // Terrain types from the same text; then open the water in the grid:
    // from now on the types alone decide who may enter it.
    std::vector<uint8_t> types(static_cast<size_t>(w) * static_cast<size_t>(h));
    check(
        astar_terrain_types_parse(kMap.data(), kMap.size(), grid.get(), types.data(), types.size()),
        "terrain types");
    const astar_capability swims =
        ASTAR_CAPABILITY(ASTAR_TYPE_GROUND) | ASTAR_CAPABILITY(ASTAR_TYPE_WATER);
    check(astar_terrain_open(grid.get(), types.data(), swims), "opening the water");

    const unit units[] = {{"walker", ASTAR_CAPABILITY_WALKER}, {"swimmer", swims}};
    const astar_capability caps[] = {units[0].may_enter, units[1].may_enter};
    const clearance_ptr clearance = make<astar_clearance, astar_clearance_free>(
        "clearance", astar_clearance_new, grid.get(), types.data(), caps, std::size(caps), 1,
        nullptr);

    // Each unit searches its own derived grid (the cells it may enter),
    // filled into `scratch`; one workspace serves every search.
    const grid_ptr scratch =
        make<astar_grid, astar_grid_free>("scratch grid", astar_grid_new, w, h, nullptr);
    const workspace_ptr ws = make<astar_workspace, astar_workspace_free>(
        "workspace", astar_workspace_new, grid.get(), nullptr);

    astar_options opt;
    astar_options_init(&opt);
    for (size_t i = 0; i < std::size(units); i++) {
      std::vector<astar_point> path(16);
      astar_result res{};
      astar_status st;
      // A buffer too small is no error: the result says how long the path is.
      while ((st = astar_clearance_find_path(ws.get(), clearance.get(), grid.get(), scratch.get(),
                                             &opt, 1, units[i].may_enter, start, goal, path.data(),
                                             path.size(), &res)) == ASTAR_BUFFER_TOO_SMALL)
        path.resize(res.length);
      check(st, units[i].name);
      path.resize(res.length);
      std::printf("%s: %zu cells, cost %.2f\n", units[i].name, res.length, res.cost);
      draw(types, w, h, path);
    }
    return EXIT_SUCCESS;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "lake: %s\n", e.what());
    return EXIT_FAILURE;
  }
}
