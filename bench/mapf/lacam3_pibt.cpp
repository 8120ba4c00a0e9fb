// Plain PIBT driven step by step with lacam3's own PIBT (Kei18/lacam3,
// lacam3/src/pibt.cpp): lacam3's executable has no plain-PIBT mode, so this
// driver (written for libastar's benchmark, outside its repository) repeats
// PIBT::set_new_config with the dynamic priorities lacam3's HNode uses, from
// the start configuration until every agent is at its goal or max_steps.
// Built by bench/mapf/peers.sh as $MAPF_PEERS/lacam3-pibt/pibt_run.
// Usage: pibt_run MAP SCEN N [max_steps] [seed] [out.txt]
#include <chrono>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <algorithm>
#include "dist_table.hpp"
#include "instance.hpp"
#include "pibt.hpp"

int main(int argc, char **argv)
{
  if (argc < 4) { fprintf(stderr, "usage: pibt_run MAP SCEN N [max_steps] [seed] [out]\n"); return 2; }
  const int N = atoi(argv[3]);
  const int max_steps = argc > 4 ? atoi(argv[4]) : 10000;
  const int seed = argc > 5 ? atoi(argv[5]) : 0;
  auto t0 = std::chrono::steady_clock::now();
  Instance ins(argv[2], argv[1], N);
  if (!ins.is_valid(1)) return 1;
  auto t1 = std::chrono::steady_clock::now();
  DistTable D(ins);
  PIBT pibt(&ins, &D, seed);
  std::vector<float> pri(N);
  for (int i = 0; i < N; ++i) pri[i] = (float)D.get(i, ins.starts[i]) / 10000;
  std::vector<int> order(N);
  Solution sol{ins.starts};
  bool solved = false;
  int steps = 0;
  for (; steps < max_steps; ++steps) {
    const Config &Q = sol.back();
    bool at_goals = true;
    for (int i = 0; i < N; ++i) if (Q[i] != ins.goals[i]) { at_goals = false; break; }
    if (at_goals) { solved = true; break; }
    if (steps > 0)
      for (int i = 0; i < N; ++i)
        pri[i] = D.get(i, Q[i]) != 0 ? pri[i] + 1 : pri[i] - (int)pri[i];
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return pri[a] > pri[b]; });
    Config Qn(N, nullptr);
    if (!pibt.set_new_config(Q, Qn, order)) break;
    sol.push_back(Qn);
  }
  auto t2 = std::chrono::steady_clock::now();
  double load = std::chrono::duration<double>(t1 - t0).count();
  double run = std::chrono::duration<double>(t2 - t1).count();
  long soc = 0;
  for (int i = 0; i < N; ++i) {
    int c = sol.size();
    while (c > 0 && sol[c - 1][i] == ins.goals[i]) --c;
    soc += c;
  }
  printf("solved=%d\nsteps=%d\nsoc=%ld\nload_s=%.6f\nrun_s=%.6f\nms_per_step=%.6f\n", solved ? 1 : 0,
         (int)sol.size() - 1, soc, load, run, steps ? run * 1000 / (sol.size() - 1) : 0.0);
  if (argc > 6) {
    std::ofstream f(argv[6]);
    f << "agents=" << N << "\nsolved=" << (solved ? 1 : 0) << "\nsolution=\n";
    const int W = ins.G->width;
    for (size_t t = 0; t < sol.size(); ++t) {
      f << t << ":";
      for (int i = 0; i < N; ++i) f << "(" << sol[t][i]->index % W << "," << sol[t][i]->index / W << "),";
      f << "\n";
    }
  }
  return solved ? 0 : 3;
}
