#!/usr/bin/env python3
"""run.py -- the MAPF benchmark sitting (issue 29 "Measure"): libastar's
solvers beside the two peers, lacam3 (Kei18/lacam3) and EECBS
(Jiaoyang-Li/EECBS), on the same instances at the same time limit; every
solution, ours and the peers', validated by `astar mapf --check` (and by the
small independent validator below, a second opinion).

  run.py scens  [--plan P] [--scens K]          write the seeded scenarios
  run.py run    [--plan P] [--scens K] [--time-limit S] [--jobs J] [--out CSV]
  run.py pibt-step [--map M] [--agents N,...]   PIBT's time per step, ours vs lacam3's
  run.py selftest                               the validator and the format readers

The instances are GENERATED: the Moving AI benchmark's own scenario files are
not in ../shared (two are, random-32-32-10/20), so each map gets K seeded
"random" scenarios from `astar mapf MAP --random N --seed S --write-scen F`
(astar_mapf_random_instance: starts and goals uniform without repetition in
the largest connected component -- the benchmark's "random" rule). The same
seeds give the same files on any machine; they are written under
build/mapf-bench/scen (not committed). An instance of n agents is the first
n lines of a scenario, as in the benchmark.

Every solver runs as its own process under `nice`, at most --jobs at a time,
with the same time limit; a run that outlives limit + grace is killed and
counts as unsolved. A run counts as solved only when its solution passes the
checker. The CSV has a row per (map, agents, scen, solver):
  map,agents,scen,solver,solved,soc,lower_bound,time_first_ms,time_ms,
  wall_ms,makespan,note,load1
soc and makespan are the checker's (one definition of cost for everyone:
an agent's arrival time, the benchmark's), time_first_ms the solver's own
time to its first solution, time_ms its whole run (anytime solvers run to
the limit), wall_ms the process's wall time (map loading included), load1
the machine's load average when the run began (the machine is shared).

Environment (or the matching options): ASTAR (default build/astar);
MAPF_PEERS, where bench/mapf/peers.sh built the peers (default
<repo>/../peers), or each binary: LACAM3 ($MAPF_PEERS/lacam3/build/main),
EECBS ($MAPF_PEERS/eecbs/build/eecbs), LACAM3_PIBT
($MAPF_PEERS/lacam3-pibt/pibt_run). A peer whose binary is absent is
skipped with a note. Python 3 standard library only.
"""

import argparse
import concurrent.futures
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("SHARED", os.path.join(REPO, "..", "shared"))
MAPS = os.path.join(SHARED, "bench", "mapf", "maps")
FIELDS = ["map", "agents", "scen", "solver", "solved", "soc", "lower_bound", "time_first_ms",
          "time_ms", "wall_ms", "makespan", "note", "load1"]

# The sitting: per map, the agent counts of the two solver families, chosen
# around each family's breaking point (search-based CBS/EECBS break at tens
# to a few hundred agents, PIBT/LaCAM at hundreds to a thousand). The
# largest count of a map is the scenario length written by `scens`.
PLANS = {
    "sitting": {
        "random-32-32-20": {"lacam": [100, 250, 400], "cbs": [20, 60, 150]},
        "random-64-64-10": {"lacam": [200, 600, 1000], "cbs": [50, 200, 500]},
        "empty-32-32": {"lacam": [100, 300, 500], "cbs": [50, 150, 300]},
        "maze-32-32-4": {"lacam": [50, 150, 300], "cbs": [10, 30, 80]},
        "room-64-64-8": {"lacam": [200, 600, 1000], "cbs": [20, 60, 150]},
        "warehouse-10-20-10-2-1": {"lacam": [200, 600, 1000], "cbs": [50, 150, 300]},
        "den520d": {"lacam": [200, 600, 1000], "cbs": [50, 200, 500]},
        "Berlin_1_256": {"lacam": [200, 600, 1000], "cbs": [50, 200, 500]},
    },
    # A smoke test of the harness (seconds): two small maps, few agents.
    "quick": {
        "random-32-32-20": {"lacam": [50], "cbs": [10]},
        "empty-32-32": {"lacam": [50], "cbs": [10]},
    },
}

FAMILIES = {
    "lacam": ["astar-pibt", "astar-lacam-star", "lacam3"],
    "cbs": ["astar-cbs", "astar-eecbs", "eecbs"],
}
W = 1.2  # EECBS's suboptimality bound, ours and the peer's


def tools(args):
    peers = os.environ.get("MAPF_PEERS", os.path.join(REPO, "..", "peers"))
    # absolute: the runs' working directory is a temporary one
    return {k: os.path.abspath(v) for k, v in {
        "astar": args.astar or os.environ.get("ASTAR", os.path.join(REPO, "build", "astar")),
        "lacam3": args.lacam3 or os.environ.get("LACAM3",
                                                os.path.join(peers, "lacam3", "build", "main")),
        "eecbs": args.eecbs or os.environ.get("EECBS",
                                              os.path.join(peers, "eecbs", "build", "eecbs")),
        "lacam3_pibt": os.environ.get("LACAM3_PIBT",
                                      os.path.join(peers, "lacam3-pibt", "pibt_run")),
    }.items()}


def scen_path(scen_dir, mapname, seed):
    return os.path.join(scen_dir, "%s-random-gen-%d.scen" % (mapname, seed))


# ---- scenarios -------------------------------------------------------------------------


def cmd_scens(args):
    t = tools(args)
    os.makedirs(args.scen_dir, exist_ok=True)
    for mapname in PLANS[args.plan]:
        # one length per map whatever the plan (the largest count any plan
        # asks for), so every plan reads the same files
        n = max(max(v) for p in PLANS.values() if mapname in p for v in p[mapname].values())
        for seed in range(1, args.scens + 1):
            out = scen_path(args.scen_dir, mapname, seed)
            cmd = [t["astar"], "mapf", os.path.join(MAPS, mapname + ".map"), "--random", str(n),
                   "--seed", str(seed), "--write-scen", out]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit("run.py: %s failed (%d): %s" % (" ".join(cmd), r.returncode,
                                                         r.stderr.strip()))
            print("wrote", out)


# ---- the independent validator -------------------------------------------------------


def read_map(path):
    with open(path) as f:
        lines = f.read().split("\n")
    h = int(lines[1].split()[1])
    w = int(lines[2].split()[1])
    rows = lines[4:4 + h]
    return w, h, [[c in ".GS" for c in row[:w]] for row in rows]


def read_scen(path, n):
    starts, goals = [], []
    with open(path) as f:
        for line in f:
            p = line.split("\t")
            if len(p) < 8 or not p[0].strip().isdigit():
                continue
            starts.append((int(p[4]), int(p[5])))
            goals.append((int(p[6]), int(p[7])))
            if len(starts) == n:
                break
    return starts, goals


def validate(grid, starts, goals, paths):
    """(fault or None, soc, makespan): the benchmark's rules, goal holding included."""
    w, h, ok = grid
    n = len(starts)
    if len(paths) != n:
        return "agent count %d, want %d" % (len(paths), n), 0, 0
    soc, T = 0, 0
    for i, p in enumerate(paths):
        if not p:
            return "agent %d: empty path" % i, 0, 0
        if tuple(p[0]) != starts[i]:
            return "agent %d: wrong start" % i, 0, 0
        if tuple(p[-1]) != goals[i]:
            return "agent %d: wrong goal" % i, 0, 0
        for t, (x, y) in enumerate(p):
            if not (0 <= x < w and 0 <= y < h and ok[y][x]):
                return "agent %d: off map at t=%d" % (i, t), 0, 0
            if t and abs(x - p[t - 1][0]) + abs(y - p[t - 1][1]) > 1:
                return "agent %d: illegal move at t=%d" % (i, t), 0, 0
        c = len(p) - 1
        while c > 0 and tuple(p[c - 1]) == goals[i]:
            c -= 1
        soc += c
        T = max(T, len(p) - 1)

    def at(i, t):
        p = paths[i]
        return tuple(p[t]) if t < len(p) else tuple(p[-1])

    prev = None
    for t in range(T + 1):
        occ = {}
        for i in range(n):
            c = at(i, t)
            if c in occ:
                return "vertex conflict %d/%d at t=%d" % (occ[c], i, t), soc, T
            occ[c] = i
        if prev is not None:
            for i in range(n):
                a, b = at(i, t - 1), at(i, t)
                if a != b:
                    j = occ.get(a)
                    if j is not None and j != i and at(j, t - 1) == b:
                        return "swap conflict %d/%d at t=%d" % (i, j, t), soc, T
        prev = occ
    return None, soc, T


# ---- reading the solvers' outputs ------------------------------------------------------


def paths_from_lacam3(text):
    """lacam3's result file: solution= then one line per time step, t:(x,y),..."""
    lines = text.split("solution=", 1)[1].strip().split("\n") if "solution=" in text else []
    configs = []
    for line in lines:
        if ":" not in line:
            continue
        configs.append([(int(a), int(b)) for a, b in re.findall(r"\((\d+),(\d+)\)",
                                                                 line.split(":", 1)[1])])
    if not configs:
        return []
    n = len(configs[0])
    paths = [[c[i] for c in configs] for i in range(n)]
    for p in paths:  # drop the trailing waits at the goal: the path ends at arrival
        while len(p) > 1 and p[-1] == p[-2]:
            p.pop()
    return paths


def paths_from_eecbs(text):
    """EECBS's --outputPaths: 'Agent i: (row,col)->...' -- (row, col) is (y, x)."""
    paths = []
    for line in text.split("\n"):
        if line.startswith("Agent"):
            paths.append([(int(c), int(r)) for r, c in re.findall(r"\((\d+),(\d+)\)", line)])
    return paths


def key_of(d, *names):
    for k in names:
        if k in d and d[k] is not None:
            return d[k]
    return None


# ---- one run ---------------------------------------------------------------------------


class Runner:
    def __init__(self, args):
        self.args = args
        self.t = tools(args)
        self.grids = {}
        self.lb = {}
        self.lock = threading.Lock()

    def grid(self, mapname):
        with self.lock:
            if mapname not in self.grids:
                self.grids[mapname] = read_map(os.path.join(MAPS, mapname + ".map"))
            return self.grids[mapname]

    def have(self, solver):
        b = self.t["astar"] if solver.startswith("astar-") else self.t[solver]
        return os.access(b, os.X_OK)

    def check(self, mapfile, scen, n, solfile):
        """`astar mapf MAP SCEN --check FILE` (the tool reads its own JSON,
        lacam3's result file and EECBS's --outputPaths file; the agent count
        is the file's): (valid, soc, makespan, lb, msg); valid None when the
        tool is absent (harness tests with the peers alone)."""
        if not os.access(self.t["astar"], os.X_OK):
            return None, None, None, None, "no astar --check"
        r = subprocess.run([self.t["astar"], "mapf", mapfile, scen, "--check", solfile],
                           capture_output=True, text=True)
        out = r.stdout
        m = re.search(r"sum of costs (\d+), makespan (\d+)(?: \(lower bound (\d+)\))?", out)
        soc, mk, lb = (int(m.group(1)), int(m.group(2)),
                       int(m.group(3)) if m.group(3) else None) if m else (None, None, None)
        m = re.search(r"agents:\s+(\d+)", out)
        if m and int(m.group(1)) != n:
            return False, soc, mk, lb, "checker saw %s agents, want %d" % (m.group(1), n)
        valid = r.returncode == 0 and "valid:" in out
        msg = ""
        if not valid:
            bad = [l for l in out.split("\n") if l.startswith("INVALID")]
            msg = (bad[0] if bad else r.stderr.strip() or "exit %d" % r.returncode)[:160]
        return valid, soc, mk, lb, msg

    def run(self, mapname, n, seed, solver):
        a, t = self.args, self.t
        mapfile = os.path.join(MAPS, mapname + ".map")
        scen = scen_path(a.scen_dir, mapname, seed)
        T = a.time_limit
        row = dict(map=mapname, agents=n, scen=seed, solver=solver, solved=0, soc="",
                   lower_bound="", time_first_ms="", time_ms="", wall_ms="", makespan="", note="",
                   load1=round(os.getloadavg()[0], 2))
        with tempfile.TemporaryDirectory(prefix="mapf-bench-") as tmp:
            sol = os.path.join(tmp, "solution")
            if solver.startswith("astar-"):
                algo = solver[len("astar-"):]
                cmd = [t["astar"], "mapf", mapfile, scen, "--agents", str(n), "--algo", algo,
                       "--time-limit", str(T), "--json"]
                if algo == "eecbs":
                    cmd += ["--w", str(W)]
            elif solver == "lacam3":
                # single-threaded like ours (its default runs refiner threads)
                cmd = [t["lacam3"], "-m", mapfile, "-i", scen, "-N", str(n), "-t", str(T),
                       "-v", "0", "-s", "0", "--no-multi-thread", "-o", sol]
            elif solver == "eecbs":
                cmd = [t["eecbs"], "-m", mapfile, "-a", scen, "-k", str(n), "-t", str(T),
                       "--suboptimality=%g" % W, "-o", os.path.join(tmp, "stats.csv"),
                       "--outputPaths=" + sol, "-s", "0"]
            else:
                raise ValueError(solver)
            t0 = time.monotonic()
            try:
                r = subprocess.run(["nice", "-n", "10"] + cmd, capture_output=True, text=True,
                                   timeout=T + a.grace, cwd=tmp)
                rc, out, err = r.returncode, r.stdout, r.stderr
            except subprocess.TimeoutExpired:
                rc, out, err = None, "", ""
            row["wall_ms"] = round((time.monotonic() - t0) * 1000, 1)
            if rc is None:
                row["note"] = "killed after %g s" % (T + a.grace)
                return row
            paths, first, total = [], None, None
            if solver.startswith("astar-"):
                try:
                    j = json.loads(out)
                except ValueError:
                    row["note"] = "exit %d: %s" % (rc, (err.strip() or out.strip())[:100])
                    return row
                if not j.get("solved"):
                    row["note"] = str(key_of(j, "status", "error") or "unsolved exit %d" % rc)
                    row["time_ms"] = key_of(j, "time_ms")
                    return row
                with open(sol, "w") as f:
                    f.write(out)
                paths = j.get("paths") or []
                total = key_of(j, "time_ms")
                first = key_of(j, "time_first_ms")
                if first is None and key_of(j, "time_first") is not None:
                    first = j["time_first"] * 1000
                if first is None:
                    first = total
                row["lower_bound"] = key_of(j, "lower_bound") or ""
            elif solver == "lacam3":
                text = open(sol).read() if os.path.exists(sol) else ""
                kv = dict(l.split("=", 1) for l in text.split("\n") if "=" in l and
                          not l.startswith("solution"))
                total = float(kv.get("comp_time", "nan"))
                first = float(kv.get("comp_time_initial_solution", "nan"))
                if kv.get("solved") != "1" or not first <= T * 1000:
                    row["note"] = "unsolved"
                    row["time_ms"] = total
                    return row
                paths = paths_from_lacam3(text)
            else:
                text = open(sol).read() if os.path.exists(sol) else ""
                stats = open(os.path.join(tmp, "stats.csv")).read().split("\n") \
                    if os.path.exists(os.path.join(tmp, "stats.csv")) else []
                cost = -1
                if len(stats) > 1 and stats[1]:
                    total = float(stats[1].split(",")[0]) * 1000  # runtime, s
                    cost = float(stats[1].split(",")[5])  # solution cost; < 0: none
                    first = total
                if cost < 0 or not paths_from_eecbs(text):
                    row["note"] = "unsolved"
                    row["time_ms"] = total
                    return row
                paths = paths_from_eecbs(text)
            row["time_ms"], row["time_first_ms"] = total, first
            # the checker's verdict is the one that counts; ours second
            valid, soc, mk, lb, msg = self.check(mapfile, scen, n, sol)
            starts, goals = read_scen(scen, n)
            fault, psoc, pmk = validate(self.grid(mapname), starts, goals, paths)
            if fault and valid:
                msg = "astar --check passed, run.py's validator: " + fault
                valid = False
            if valid is None:  # only run.py's validator ran: said in the note
                valid = fault is None
                row["note"] = "checked by run.py only"
            if not valid:
                row["note"] = "INVALID: " + (msg or fault or "")
                return row
            row["solved"] = 1
            row["soc"] = soc if soc is not None else psoc
            row["makespan"] = mk if mk is not None else pmk
            if lb is not None:
                row["lower_bound"] = lb
            if row["soc"] != psoc:
                row["note"] += "soc differs: checker %s, run.py %s" % (row["soc"], psoc)
        return row


def cmd_run(args):
    runner = Runner(args)
    plan = PLANS[args.plan]
    maps = args.maps.split(",") if args.maps else list(plan)
    solvers = args.solvers.split(",") if args.solvers else None
    jobs = []
    for mapname in maps:
        for fam, counts in plan[mapname].items():
            for n in counts:
                for seed in range(1, args.scens + 1):
                    for s in FAMILIES[fam]:
                        if solvers is None or s in solvers:
                            jobs.append((mapname, n, seed, s))
    done = set()
    if os.path.exists(args.out) and not args.fresh:
        with open(args.out) as f:
            for r in csv.DictReader(f):
                done.add((r["map"], int(r["agents"]), int(r["scen"]), r["solver"]))
    else:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w", newline="") as f:
            csv.DictWriter(f, FIELDS).writeheader()
    skipped = sorted({s for (_, _, _, s) in jobs if not runner.have(s)})
    for s in skipped:
        print("run.py: %s: binary absent, skipped" % s, file=sys.stderr)
    todo = [j for j in jobs if j not in done and j[3] not in skipped]
    for m in maps:
        for seed in range(1, args.scens + 1):
            if not os.path.exists(scen_path(args.scen_dir, m, seed)):
                sys.exit("run.py: %s missing: run `run.py scens` first"
                         % scen_path(args.scen_dir, m, seed))
    print("run.py: %d runs (%d already in %s), time limit %g s, %d at a time"
          % (len(todo), len(jobs) - len(todo) - sum(1 for j in jobs if j[3] in skipped),
             args.out, args.time_limit, args.jobs), file=sys.stderr)
    wlock = threading.Lock()
    t0 = time.monotonic()
    count = [0]

    def one(job):
        row = runner.run(*job)
        with wlock:
            with open(args.out, "a", newline="") as f:
                csv.DictWriter(f, FIELDS).writerow(row)
            count[0] += 1
            print("[%d/%d %.0fs] %s n=%d scen=%d %s: %s %s %s" % (
                count[0], len(todo), time.monotonic() - t0, job[0], job[1], job[2], job[3],
                "solved" if row["solved"] else "-", row["soc"], row["note"]), file=sys.stderr)

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        list(ex.map(one, todo))


# ---- PIBT's time per step --------------------------------------------------------------


def cmd_pibt_step(args):
    """Ours (astar mapf --algo pibt) vs lacam3's PIBT run step by step
    ($MAPF_PEERS/lacam3-pibt/pibt_run, bench/mapf/lacam3_pibt.cpp linking lacam3;
    lacam3's executable has no plain-PIBT mode)."""
    t = tools(args)
    mapfile = os.path.join(MAPS, args.map + ".map")
    scen = scen_path(args.scen_dir, args.map, 1)
    rows = []
    for n in [int(x) for x in args.agents.split(",")]:
        for rep in range(args.reps):
            r = subprocess.run(["nice", "-n", "10", t["astar"], "mapf", mapfile, scen, "--agents",
                                str(n), "--algo", "pibt", "--json"],
                               capture_output=True, text=True)
            try:
                j = json.loads(r.stdout)
            except ValueError:
                j = {}
            steps = key_of(j, "steps", "makespan") or 0
            ours = (key_of(j, "time_ms") or 0) / steps if steps else float("nan")
            rows.append(("libastar", args.map, n, rep, bool(j.get("solved")), steps,
                         key_of(j, "time_ms"), ours))
            if os.access(t["lacam3_pibt"], os.X_OK):
                r = subprocess.run(["nice", "-n", "10", t["lacam3_pibt"], mapfile, scen, str(n),
                                    "100000", "0"], capture_output=True, text=True)
                kv = dict(l.split("=", 1) for l in r.stdout.split("\n") if "=" in l)
                rows.append(("lacam3-pibt", args.map, n, rep, kv.get("solved") == "1",
                             int(kv.get("steps", 0)), float(kv.get("run_s", "nan")) * 1000,
                             float(kv.get("ms_per_step", "nan"))))
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["solver", "map", "agents", "rep", "solved", "steps", "time_ms", "ms_per_step"])
        for row in rows:
            w.writerow(row)
    print("wrote", args.out, file=sys.stderr)


# ---- a self-test of the harness's own parts ----------------------------------------------


def cmd_selftest(args):
    """The validator catches planted faults; the peers' formats parse as they
    should (EECBS's (row, col) turned to (x, y)); `astar mapf --check`, when
    built, agrees on the same files. No peer needed; about a second."""
    grid = (4, 3, [[True] * 4, [True, False, True, True], [True] * 4])
    S, G = [(0, 0), (3, 0)], [(3, 0), (0, 0)]
    good = [[(0, 0), (1, 0), (2, 0), (3, 0)], [(3, 0), (3, 1), (3, 2), (2, 2), (1, 2), (0, 2),
                                               (0, 1), (0, 0)]]
    cases = [
        ("valid", good, None),
        ("vertex", [good[0], [(3, 0), (2, 0), (2, 0), (1, 0), (0, 0)]], "vertex conflict"),
        ("swap", [good[0], [(3, 0), (2, 0), (1, 0), (0, 0)]], "swap conflict"),
        ("wrong start", [[(1, 0), (2, 0), (3, 0)], good[1]], "wrong start"),
        ("illegal move", [[(0, 0), (2, 0), (3, 0)], good[1]], "illegal move"),
        ("wall", [[(0, 0), (1, 0), (1, 1), (2, 1), (3, 1), (3, 0)], good[1]], "off map"),
    ]
    fails = 0
    for name, paths, want in cases:
        fault = validate(grid, S, G, paths)[0]
        ok = (fault is None) if want is None else (fault is not None and want in fault)
        fails += not ok
        print("%s %s: %s" % ("ok  " if ok else "FAIL", name, fault))
    # an agent that arrived holds its cell: agent 0 sits at (1,0) from t=1, agent 1 passes at t=2
    fault = validate(grid, [(0, 0), (3, 0)], [(1, 0), (0, 0)],
                     [[(0, 0), (1, 0)], [(3, 0), (2, 0), (1, 0), (0, 0)]])[0]
    ok = fault is not None and "vertex conflict" in fault
    fails += not ok
    print("%s goal held for ever: %s" % ("ok  " if ok else "FAIL", fault))
    lac = "agents=2\nsolved=1\nsolution=\n0:(0,0),(3,0),\n1:(1,0),(2,0),\n2:(1,0),(2,0),\n"
    ok = paths_from_lacam3(lac) == [[(0, 0), (1, 0)], [(3, 0), (2, 0)]]
    fails += not ok
    print("%s lacam3 format" % ("ok  " if ok else "FAIL"))
    ee = "Agent 0: (0,0)->(0,1)->\nAgent 1: (2,3)->(1,3)->\n"
    ok = paths_from_eecbs(ee) == [[(0, 0), (1, 0)], [(3, 2), (3, 1)]]
    fails += not ok
    print("%s EECBS format, (row,col) -> (x,y)" % ("ok  " if ok else "FAIL"))
    astar = tools(args)["astar"]
    if os.access(astar, os.X_OK):
        with tempfile.TemporaryDirectory(prefix="mapf-selftest-") as tmp:
            mp, sc = os.path.join(tmp, "t.map"), os.path.join(tmp, "t.scen")
            with open(mp, "w") as f:
                f.write("type octile\nheight 3\nwidth 4\nmap\n....\n.@..\n....\n")
            with open(sc, "w") as f:
                f.write("version 1\n0\tt.map\t4\t3\t0\t0\t3\t0\t3\n"
                        "0\tt.map\t4\t3\t3\t0\t0\t0\t3\n")
            for name, paths, want in cases:
                pf = os.path.join(tmp, "paths.txt")
                with open(pf, "w") as f:  # EECBS's format: (row,col)
                    for i, p in enumerate(paths):
                        f.write("Agent %d: %s\n" % (i, "".join("(%d,%d)->" % (y, x) for x, y in p)))
                valid = Runner(args).check(mp, sc, 2, pf)[0]
                ok = valid == (want is None)
                fails += not ok
                print("%s astar mapf --check, %s: %s" % ("ok  " if ok else "FAIL", name,
                                                         "valid" if valid else "invalid"))
    else:
        print("(astar not built: its --check not tried)")
    print("selftest: %d failed" % fails)
    sys.exit(1 if fails else 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["scens", "run", "pibt-step", "selftest"])
    ap.add_argument("--plan", default="sitting", choices=sorted(PLANS))
    ap.add_argument("--scens", type=int, default=5, help="scenarios per map (default 5)")
    ap.add_argument("--scen-dir", default=os.path.join(REPO, "build", "mapf-bench", "scen"))
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds (default 10)")
    ap.add_argument("--grace", type=float, default=20.0,
                    help="seconds past the limit before a run is killed (default 20)")
    ap.add_argument("--jobs", type=int, default=2, help="processes at a time (default 2)")
    ap.add_argument("--maps", help="comma-separated subset of the plan's maps")
    ap.add_argument("--solvers", help="comma-separated subset: " +
                    ",".join(FAMILIES["lacam"] + FAMILIES["cbs"]))
    ap.add_argument("--out", help="the CSV (default build/mapf-bench/results.csv; pibt-step: "
                    "build/mapf-bench/pibt-step.csv)")
    ap.add_argument("--fresh", action="store_true", help="overwrite --out instead of resuming")
    ap.add_argument("--astar")
    ap.add_argument("--lacam3")
    ap.add_argument("--eecbs")
    ap.add_argument("--map", default="den520d", help="pibt-step: the map (default den520d)")
    ap.add_argument("--agents", default="300,600,1000", help="pibt-step: agent counts")
    ap.add_argument("--reps", type=int, default=3, help="pibt-step: repetitions (default 3)")
    args = ap.parse_args()
    if args.jobs < 1:
        ap.error("--jobs: at least 1")
    if args.out is None:
        args.out = os.path.join(REPO, "build", "mapf-bench", "pibt-step.csv"
                                if args.command == "pibt-step" else "results.csv")
    {"scens": cmd_scens, "run": cmd_run, "pibt-step": cmd_pibt_step,
     "selftest": cmd_selftest}[args.command](args)


if __name__ == "__main__":
    main()
