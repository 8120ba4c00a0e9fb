#!/usr/bin/env python3
"""bench/gppc/table.py -- the two helpers of bench/gppc/run.sh.

  table.py sample SCEN OUT N    write OUT: SCEN's header and at most N of its
                                queries, evenly spaced over the file (every
                                bucket keeps its share); all of them if N <= 0
  table.py table RUNDIR         read RUNDIR/runs.tsv and the harness's files it
                                names, print the Markdown tables, exit 1 when
                                any answer failed validation

runs.tsv (one line per entry, map and round, written by run.sh):
  entry family map cells passable round pre_s pre_rss_kb storage_bytes
  run_rc run_rss_kb workdir
workdir holds each round's result.R.csv (the harness's result.csv: times
in ns) and check.R.out (its stdout: the validator's line per query,
"sx sy gx gy valid|invalid-K n x y ... length").
"""
import csv
import math
import os
import statistics
import sys


def sample(scen, out, n):
    with open(scen, newline="") as f:
        lines = f.read().splitlines()
    head, body = (lines[:1], lines[1:]) if lines and lines[0].startswith("version") else ([], lines)
    body = [l for l in body if l.strip()]
    if n > 0 and len(body) > n:
        body = [body[(i * len(body)) // n] for i in range(n)]
    with open(out, "w") as f:
        f.write("\n".join(head + body) + "\n")


def read_check(path):
    """Per query: (ok, why). ok needs the validator's 'valid', a path from
    start to goal, and a path at all when the scenario has one."""
    rows = []
    with open(path) as f:
        for line in f:
            t = line.split()
            if len(t) < 6 or not all(x.lstrip("-").isdigit() for x in t[:4]):
                continue  # an entry's own chatter on stdout
            if not (t[4] == "valid" or t[4].startswith("invalid")):
                continue
            sx, sy, gx, gy = map(int, t[:4])
            n = int(t[5])
            pts = list(map(int, t[6:6 + 2 * n]))
            if t[4] != "valid":
                rows.append((False, t[4]))
            elif n == 0:
                rows.append((None, "no path"))  # judged against the reference below
            elif (pts[0], pts[1]) != (sx, sy) or (pts[-2], pts[-1]) != (gx, gy):
                rows.append((False, "wrong endpoints"))
            else:
                rows.append((True, ""))
    return rows


def fmt_us(ns):
    us = ns / 1000.0
    if us >= 100:
        return "%.0f" % us
    if us >= 10:
        return "%.1f" % us
    return "%.2f" % us


def fmt_bytes(b):
    if b is None:
        return "-"
    for unit, k in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if b >= k:
            return "%.1f %s" % (b / k, unit)
    return "%d B" % b


def table(rundir):
    runs = []
    with open(os.path.join(rundir, "runs.tsv")) as f:
        for r in csv.reader(f, delimiter="\t"):
            if r and r[0] != "entry":
                runs.append(r)
    # (entry, family, map) -> per round figures
    cell = {}
    failures = []
    for (entry, family, mapname, cells, passable, rnd, pre_s, pre_rss, storage, rc, run_rss,
         work) in runs:
        key = (entry, family, mapname)
        c = cell.setdefault(key, {"cells": int(cells), "passable": int(passable), "rounds": [],
                                  "pre_s": [], "storage": None, "rss": 0, "error": None,
                                  "bad": 0, "n": 0, "subopt": [], "nsub": 0})
        if pre_s == "skip":
            c["error"] = rc  # the reason, from run.sh
            continue
        if rc != "0":
            c["error"] = "exit %s%s" % (rc, (": " + open(os.path.join(work, "err.txt")).read()
                                              .strip().splitlines()[-1][:120])
                                        if os.path.exists(os.path.join(work, "err.txt")) and
                                        open(os.path.join(work, "err.txt")).read().strip() else "")
            failures.append("%s on %s: %s" % (entry, mapname, c["error"]))
            continue
        c["pre_s"].append(float(pre_s))
        c["storage"] = int(storage)
        c["rss"] = max(c["rss"], int(run_rss))
        checks = read_check(os.path.join(work, "check.%s.out" % rnd))
        with open(os.path.join(work, "result.%s.csv" % rnd)) as f:
            res = list(csv.DictReader(f))
        if len(checks) != len(res):
            c["error"] = "%d answers validated of %d" % (len(checks), len(res))
            failures.append("%s on %s: %s" % (entry, mapname, c["error"]))
            continue
        tot, first, mx = [], [], []
        bad = 0
        sub = []
        for (ok, why), q in zip(checks, res):
            ref = float(q["ref_length"])
            plen = float(q["path_length"])
            if ok is None:  # an empty path: right only when the scenario has none
                ok = ref == 0
                why = "no path returned, reference %.5f" % ref
            if not ok:
                bad += 1
                if bad <= 3:
                    failures.append("%s on %s round %s: query %s: %s" % (
                        entry, mapname, rnd, q["experiment_id"], why))
            if ref > 0:
                sub.append(plen / ref)
            tot.append(int(q["time_cost"]))
            first.append(int(q["20steps_cost"]))
            mx.append(int(q["max_step_time"]))
        c["bad"] += bad
        c["n"] = len(res)
        c["subopt"] = sub
        c["nsub"] = sum(1 for s in sub if s > 1 + 1e-5)
        c["rounds"].append((tot, first, mx))

    # Families and entries in first-seen order.
    families, entries = [], []
    for (e, fam, m) in cell:
        if fam not in families:
            families.append(fam)
        if e not in entries:
            entries.append(e)

    def fam_figs(e, fam):
        """Per family: medians over rounds of the per-map figures, then the
        query-weighted mean over the family's maps (max: the maximum)."""
        keys = [k for k in cell if k[0] == e and k[1] == fam]
        if not keys:
            return None
        errs = [cell[k]["error"] for k in keys if cell[k]["error"]]
        if errs:
            return {"error": errs[0]}
        n = sum(cell[k]["n"] for k in keys)

        def per_query(k, i):
            """Each query's median over the rounds: a query the scheduler
            preempted in one round (a time slice is 1000 times a short
            query) does not move the figures; a slow query stays slow."""
            rounds = [r[i] for r in cell[k]["rounds"]]
            return [statistics.median(v) for v in zip(*rounds)]

        tot = [t for k in keys for t in per_query(k, 0)]
        f = {
            "error": None,
            "n": n,
            "mean": statistics.mean(tot),
            "first": statistics.mean([t for k in keys for t in per_query(k, 1)]),
            "max": max(t for k in keys for t in per_query(k, 2)),
            "total": sum(tot),
            "pre": sum(statistics.median(cell[k]["pre_s"]) for k in keys),
            "storage": sum(cell[k]["storage"] for k in keys),
            "cells": sum(cell[k]["cells"] for k in keys),
            "rss": max(cell[k]["rss"] for k in keys),
            "bad": sum(cell[k]["bad"] for k in keys),
            "rounds": min(len(cell[k]["rounds"]) for k in keys),
            "sub": [s for k in keys for s in cell[k]["subopt"]],
            "nsub": sum(cell[k]["nsub"] for k in keys),
        }
        return f

    ours = [e for e in entries if e.startswith("libastar-")]
    print("### Mean µs per query (a query's GetPath calls summed; each query's median of the rounds)\n")
    print("| entry | " + " | ".join(families) + " |")
    print("|---|" + "---:|" * len(families))
    for e in entries:
        row = []
        for fam in families:
            f = fam_figs(e, fam)
            row.append("-" if f is None else ("n/a" if f["error"] else fmt_us(f["mean"])))
        print("| %s | %s |" % (e, " | ".join(row)))
    print()
    print("### Each entry's time over libastar's fastest method on the family "
          "(above 1: libastar is faster)\n")
    bests = {}
    for fam in families:
        cands = [(fam_figs(e, fam)["mean"], e) for e in ours
                 if fam_figs(e, fam) and not fam_figs(e, fam)["error"]]
        bests[fam] = min(cands) if cands else None
    print("| entry | " + " | ".join(families) + " |")
    print("|---|" + "---:|" * len(families))
    print("| *libastar's fastest* | " + " | ".join(
        bests[f][1].replace("libastar-", "") if bests[f] else "-" for f in families) + " |")
    for e in entries:
        if e in ours:
            continue
        row = []
        for fam in families:
            f = fam_figs(e, fam)
            row.append("-" if f is None or f["error"] or not bests[fam] else
                       "%.2f" % (f["mean"] / bests[fam][0]))
        print("| %s | %s |" % (e, " | ".join(row)))
    print()
    for fam in families:
        nq = {}
        for k in cell:
            if k[1] == fam:
                nq[k[2]] = max(nq.get(k[2], (0, 0, 0)), (cell[k]["cells"], cell[k]["passable"],
                                                         cell[k]["n"]))
        maps = sorted((m,) + v for m, v in nq.items())
        print("### %s: %s\n" % (fam, ", ".join("%s (%d cells, %d passable, %d queries)" %
                                               (m, c, p, n) for m, c, p, n in maps)))
        best = None
        for e in ours:
            f = fam_figs(e, fam)
            if f and not f["error"] and (best is None or f["mean"] < best[1]["mean"]):
                best = (e, f)
        print("| entry | µs/query | 20-step µs | max µs | total ms | subopt. (mean, worst, # >1) "
              "| precomp. s | storage | bytes/cell | RSS MB | validated | entry ÷ %s |" %
              (best[0] if best else "ours"))
        print("|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---|---:|")
        for e in entries:
            f = fam_figs(e, fam)
            if f is None:
                continue
            if f["error"]:
                print("| %s | %s |  |  |  |  |  |  |  |  |  |  |" % (e, f["error"]))
                continue
            sub = f["sub"]
            subtxt = "%.4f, %.4f, %d" % (statistics.mean(sub), max(sub), f["nsub"]) if sub else "-"
            valid = ("%d/%d valid x%d" % (f["n"] - 0, f["n"], f["rounds"]) if f["bad"] == 0 else
                     "**%d INVALID**" % f["bad"])
            ratio = "%.2f" % (f["mean"] / best[1]["mean"]) if best else "-"
            print("| %s | %s | %s | %s | %.1f | %s | %.2f | %s | %s | %.0f | %s | %s |" % (
                e, fmt_us(f["mean"]), fmt_us(f["first"]), fmt_us(f["max"]), f["total"] / 1e6,
                subtxt, f["pre"], fmt_bytes(f["storage"]) if f["storage"] else "0",
                "%.2f" % (f["storage"] / f["cells"]), f["rss"] / 1024.0, valid, ratio))
        print()
    bad = sum(cell[k]["bad"] for k in cell)
    if failures:
        print("### Failures\n")
        for line in failures:
            print("- " + line)
        print()
    ours_failed = [l for l in failures if l.startswith("libastar-")]
    if bad:
        print("validation: %d answers FAILED" % bad)
        return 1
    if ours_failed:
        print("validation: libastar failed to answer (above)")
        return 1
    print("validation: every answer valid (the startkit's validator, endpoints, a path "
          "wherever the scenario has one)")
    return 0


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "sample":
        sample(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "table":
        return table(sys.argv[2])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
