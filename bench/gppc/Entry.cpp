// bench/gppc/Entry.cpp -- libastar as a GPPC entry: the startkit-classic
// Entry.h interface (gppc-dev/startkit-classic; the harness's main.cpp times
// GetPath and validates its answers) answered through the one query API,
// astar/finder.h. Built by bench/gppc/run.sh against the harness extracted by
// bench/gppc/peer.sh (never vendored), and by the ctest `gppc_entry` against
// bench/gppc/mini_driver.cpp.
//
// The method: ASTAR_GPPC_METHOD in the environment, else the one compiled
// in (-DASTAR_GPPC_DEFAULT_METHOD="jps"); one of astar, jps, jps-plus, cpd,
// subgoal (astar_method_from_name's names). The competition's rules: the
// preprocessing phase (PreprocessMap) writes everything the queries use to
// `filename` (index_data/<GetName()>-<map>), the query phase
// (PrepareForSearch) loads it and may not compute it again. So jps-plus,
// cpd and subgoal build their table / CPD / graph and save it with
// astar_jps_plus_save / astar_cpd_save / astar_subgoal_save, and load it
// with the matching _load; astar and jps have nothing to precompute and
// write nothing. Rules: the GPPC's (8 moves, no corner cutting, costs 1 and
// sqrt 2), which are astar_options_init's defaults.
//
// GetPath answers a whole query in one call (every cell of the path),
// copying the finder's astar_point path into the harness's vector inside
// the timed call, as the entries push their paths into it.
#include "Entry.h"

#include <astar/finder.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#ifndef ASTAR_GPPC_DEFAULT_METHOD
#define ASTAR_GPPC_DEFAULT_METHOD "jps"
#endif

namespace {

const char *method_name() {
  const char *m = std::getenv("ASTAR_GPPC_METHOD");
  return (m != nullptr && *m != '\0') ? m : ASTAR_GPPC_DEFAULT_METHOD;
}

// A failure of the entry itself: the harness has no error channel, so say
// what and exit non-zero (run.sh reports the entry as failed on that map).
[[noreturn]] void die(const char *what, const std::string &detail) {
  std::fprintf(stderr, "libastar entry (%s): %s%s%s\n", method_name(), what,
               detail.empty() ? "" : ": ", detail.c_str());
  std::exit(3);
}

astar_method parse_method() {
  astar_method m;
  const char *name = method_name();
  if (astar_method_from_name(name, &m) != ASTAR_OK ||
      (m != ASTAR_METHOD_ASTAR && m != ASTAR_METHOD_JPS && m != ASTAR_METHOD_JPS_PLUS &&
       m != ASTAR_METHOD_CPD && m != ASTAR_METHOD_SUBGOAL))
    die("ASTAR_GPPC_METHOD",
        std::string("'") + name + "' is not one of astar, jps, jps-plus, cpd, subgoal");
  return m;
}

astar_grid *make_grid(const std::vector<bool> &bits, int width, int height) {
  astar_grid *g = nullptr;
  astar_status st = astar_grid_new(&g, width, height, nullptr);
  if (st != ASTAR_OK) die("astar_grid_new", astar_strerror(st));
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      if (!bits[static_cast<size_t>(y) * static_cast<size_t>(width) + static_cast<size_t>(x)])
        astar_grid_set_passable(g, x, y, false);
  return g;
}

void check(astar_status st, const char *what) {
  if (st != ASTAR_OK) die(what, astar_strerror(st));
}

void write_file(const std::string &file, const std::vector<unsigned char> &bytes) {
  FILE *f = std::fopen(file.c_str(), "wb");
  if (f == nullptr) die("cannot write", file + ": " + std::strerror(errno));
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  ok = (std::fclose(f) == 0) && ok;
  if (!ok) die("cannot write", file);
}

std::vector<unsigned char> read_file(const std::string &file) {
  FILE *f = std::fopen(file.c_str(), "rb");
  if (f == nullptr)
    die("cannot read the preprocessed data (run -pre first)", file + ": " + std::strerror(errno));
  std::vector<unsigned char> bytes;
  unsigned char chunk[1 << 16];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof chunk, f)) > 0)
    bytes.insert(bytes.end(), chunk, chunk + n);
  bool err = std::ferror(f) != 0;
  std::fclose(f);
  if (err) die("cannot read", file);
  return bytes;
}

// save(obj, buf, cap, &len) into a byte vector: size first, then the bytes.
template <typename T, typename Save>
std::vector<unsigned char> saved(const T *obj, Save save, const char *what) {
  size_t len = 0;
  astar_status st = save(obj, nullptr, 0, &len);
  if (st != ASTAR_BUFFER_TOO_SMALL && st != ASTAR_OK) die(what, astar_strerror(st));
  std::vector<unsigned char> bytes(len);
  check(save(obj, bytes.data(), bytes.size(), &len), what);
  bytes.resize(len);
  return bytes;
}

// What the query phase holds: the grid, what the method loaded, the finder,
// the workspace and the path buffer (sized for the longest possible path:
// every passable cell once).
struct Query {
  astar_grid *grid = nullptr;
  astar_jps_plus *jps_plus = nullptr;
  astar_cpd *cpd = nullptr;
  astar_subgoal *subgoal = nullptr;
  astar_finder *finder = nullptr;
  astar_workspace *ws = nullptr;
  std::vector<astar_point> buf;
};

} // namespace

std::string GetName() {
  return std::string("libastar-") + method_name();
}

void PreprocessMap(const std::vector<bool> &bits, int width, int height,
                   const std::string &filename) {
  astar_method m = parse_method();
  if (m == ASTAR_METHOD_ASTAR || m == ASTAR_METHOD_JPS) return; // nothing to precompute
  astar_grid *grid = make_grid(bits, width, height);
  std::vector<unsigned char> bytes;
  if (m == ASTAR_METHOD_JPS_PLUS) {
    astar_jps_plus *t = nullptr;
    check(astar_jps_plus_new(&t, grid, nullptr), "astar_jps_plus_new");
    bytes = saved(t, astar_jps_plus_save, "astar_jps_plus_save");
    astar_jps_plus_free(t);
  } else if (m == ASTAR_METHOD_CPD) {
    astar_cpd *c = nullptr;
    check(astar_cpd_build(&c, grid, nullptr, nullptr), "astar_cpd_build");
    bytes = saved(c, astar_cpd_save, "astar_cpd_save");
    astar_cpd_free(c);
  } else {
    astar_subgoal *sg = nullptr;
    astar_status st = astar_subgoal_build(&sg, grid, nullptr, nullptr);
    if (st == ASTAR_UNSUPPORTED) {
      const char *why = astar_subgoal_unsupported_reason(grid, nullptr);
      die("astar_subgoal_build", std::string("unsupported") + (why ? std::string(": ") + why : ""));
    }
    check(st, "astar_subgoal_build");
    bytes = saved(sg, astar_subgoal_save, "astar_subgoal_save");
    astar_subgoal_free(sg);
  }
  write_file(filename, bytes);
  astar_grid_free(grid);
}

void *PrepareForSearch(const std::vector<bool> &bits, int width, int height,
                       const std::string &filename) {
  astar_method m = parse_method();
  Query *q = new Query;
  q->grid = make_grid(bits, width, height);
  astar_finder_config cfg;
  astar_finder_config_init(&cfg);
  cfg.method = m;
  std::vector<unsigned char> bytes;
  if (m == ASTAR_METHOD_JPS_PLUS || m == ASTAR_METHOD_CPD || m == ASTAR_METHOD_SUBGOAL)
    bytes = read_file(filename);
  if (m == ASTAR_METHOD_JPS_PLUS) {
    check(astar_jps_plus_load(&q->jps_plus, q->grid, bytes.data(), bytes.size(), nullptr),
          "astar_jps_plus_load");
    cfg.jps_plus = q->jps_plus;
  } else if (m == ASTAR_METHOD_CPD) {
    check(astar_cpd_load(&q->cpd, q->grid, bytes.data(), bytes.size(), nullptr), "astar_cpd_load");
    cfg.cpd = q->cpd;
  } else if (m == ASTAR_METHOD_SUBGOAL) {
    check(astar_subgoal_load(&q->subgoal, q->grid, bytes.data(), bytes.size(), nullptr),
          "astar_subgoal_load");
  }
  astar_status st = (m == ASTAR_METHOD_SUBGOAL)
                        ? astar_finder_new_subgoal(&q->finder, q->grid, q->subgoal, &cfg, nullptr)
                        : astar_finder_new(&q->finder, q->grid, &cfg, nullptr);
  if (st == ASTAR_UNSUPPORTED) {
    const char *why = astar_finder_unsupported_reason(q->grid, nullptr, &cfg);
    die("astar_finder_new", std::string("unsupported") + (why ? std::string(": ") + why : ""));
  }
  check(st, "astar_finder_new");
  check(astar_workspace_new(&q->ws, q->grid, nullptr), "astar_workspace_new");
  q->buf.resize(astar_grid_count_passable(q->grid) + 1);
  return q;
}

bool GetPath(void *data, xyLoc s, xyLoc g, std::vector<xyLoc> &path) {
  Query *q = static_cast<Query *>(data);
  astar_path_result res;
  astar_status st = astar_finder_find(q->finder, q->ws, astar_point{s.x, s.y},
                                      astar_point{g.x, g.y}, q->buf.data(), q->buf.size(), &res);
  if (st == ASTAR_NO_PATH) return true; // an empty path: no path
  if (st != ASTAR_OK) die("astar_finder_find", astar_strerror(st));
  path.reserve(path.size() + res.length);
  for (size_t i = 0; i < res.length; i++) {
    xyLoc p;
    p.x = static_cast<int16_t>(q->buf[i].x);
    p.y = static_cast<int16_t>(q->buf[i].y);
    path.push_back(p);
  }
  return true;
}
