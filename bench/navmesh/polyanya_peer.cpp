// The peer of libastar's Polyanya in the navigation-mesh sitting (issue 30
// "Measure"; docs/navmesh.md): the authors' C++ Polyanya (anyangle/polyanya
// in github:xiangzebo/Polyanya, commit 14a95d3, MIT), driven the way
// `astar bench --mesh FILE SCEN --times CSV` drives ours: the same mesh
// file, the same scenario points as given, one warm-up pass, then REPEAT
// timed passes, each query timed alone (set_start_goal + search: point
// location included, as in astar_finder_find_points). Written for
// libastar's benchmark; it is built outside the repository against the
// peer's sources by bench/navmesh/peer.sh as $NAVMESH_PEER/bin/polyanya_run.
//
// usage: polyanya_run MESH SCEN [REPEAT] > CSV
// CSV: pass,index,micros,length,expanded (length -1: no path; expanded: the
// nodes the peer popped).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "mesh.h"
#include "point.h"
#include "scenario.h"
#include "searchinstance.h"

using namespace polyanya;

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: polyanya_run MESH SCEN [REPEAT]\n");
    return 2;
  }
  const int repeat = argc > 3 ? std::atoi(argv[3]) : 1;
  std::ifstream meshfile(argv[1]);
  if (!meshfile) {
    std::fprintf(stderr, "%s: cannot open\n", argv[1]);
    return 1;
  }
  Mesh mesh(meshfile);
  std::ifstream scenfile(argv[2]);
  std::vector<Scenario> scens;
  if (!scenfile || !load_scenarios(scenfile, scens)) {
    std::fprintf(stderr, "%s: cannot read the scenarios\n", argv[2]);
    return 1;
  }
  SearchInstance si(&mesh);
  for (const Scenario &s : scens) { // warm-up, untimed
    si.set_start_goal(s.start, s.goal);
    si.search();
  }
  std::printf("pass,index,micros,length,expanded\n");
  for (int pass = 0; pass < repeat; pass++) {
    for (size_t i = 0; i < scens.size(); i++) {
      const auto t0 = std::chrono::steady_clock::now();
      si.set_start_goal(scens[i].start, scens[i].goal);
      si.search();
      const auto t1 = std::chrono::steady_clock::now();
      const double us = std::chrono::duration<double, std::micro>(t1 - t0).count();
      std::printf("%d,%zu,%.3f,%.10f,%d\n", pass, i, us, si.get_cost(), si.nodes_popped);
    }
  }
  return 0;
}
