// bench/js/compare.mjs -- the npm package against PathFinding.js 0.4.18 on
// Moving AI maps, in one Node process (make bench-js; docs/npm-benchmark.md).
//
// Per map, the same evenly spread queries of its .scen file, each timed
// alone (monotonic clock around the one call; the six runners take turns
// query by query; best of --reps passes), for:
//   pf-astar / pf-jps    PathFinding.js's AStarFinder / JumpPointFinder with
//                        OnlyWhenNoObstacles and octile (Moving AI's rules),
//                        on grid.clone() as its README says (clone timed
//                        apart: clone_us);
//   dropin-astar / -jps  the same code with `libastar/pathfinding` in place
//                        of `pathfinding` (clone included: it is O(1));
//   native-astar / -jps  the package's own API: new Finder(grid, { method })
//                        and finder.findPath (the same [[x, y], ...] paths).
// Every path is checked (start, end, each step a legal move under no corner
// cutting) and its cost computed the same way; the costs must agree with
// PathFinding.js's to 1e-9 relative (its A* and JPS are exact under these
// rules) and with the .scen optimum to 1e-5 (6-digit files). Any mismatch
// fails the run (exit 1).
//
// Usage: node --expose-gc bench/js/compare.mjs [--queries N] [--reps R]
//        [--markdown] [MAP ...]   (MAP: a path under ../shared/bench/movingai,
//        e.g. dao/den520d; default: five maps of different families)
// Needs `make npm` (js/dist) and `cd js && npm ci` (pathfinding@0.4.18).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DATA = path.resolve(ROOT, '..', 'shared', 'bench', 'movingai');
const requireJs = createRequire(path.join(ROOT, 'js', 'package.json'));
const PFJS = requireJs('pathfinding');
const PFJS_VERSION = requireJs('pathfinding/package.json').version;
const DROPIN = await import(path.join(ROOT, 'js', 'src', 'pathfinding.js'));
const NATIVE = await import(path.join(ROOT, 'js', 'src', 'index.js'));

const DEFAULT_MAPS = ['dao/den520d', 'bg512/AR0011SR', 'maze/maze512-8-0', 'room/32room_000',
  'street/Berlin_0_512'];

const argv = process.argv.slice(2);
const opt = { queries: 300, reps: 1, markdown: false, maps: [] };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--queries') opt.queries = parseInt(argv[++i], 10);
  else if (a === '--reps') opt.reps = parseInt(argv[++i], 10);
  else if (a === '--markdown') opt.markdown = true;
  else if (a.startsWith('-')) { console.error(`compare.mjs: unknown option ${a}`); process.exit(2); }
  else opt.maps.push(a);
}
if (!(opt.queries > 0) || !(opt.reps > 0)) {
  console.error('compare.mjs: --queries and --reps take a positive integer');
  process.exit(2);
}
if (!opt.maps.length) opt.maps = DEFAULT_MAPS;

// ---- Moving AI files (README of the data: CRLF, no final newline, ...) ----
function loadMap(file) {
  const text = fs.readFileSync(file, 'utf8');
  const lines = text.split(/\r?\n/);
  let w = -1, h = -1, i = 0;
  for (; i < lines.length; i++) {
    const t = lines[i].trim().split(/\s+/);
    if (t[0] === 'height') h = +t[1];
    else if (t[0] === 'width') w = +t[1];
    else if (t[0] === 'map') { i++; break; }
  }
  const wall = new Uint8Array(w * h);
  const matrix = [];
  for (let y = 0; y < h; y++) {
    const row = lines[i + y];
    const mrow = new Array(w);
    for (let x = 0; x < w; x++) {
      const c = row[x];
      const blocked = !(c === '.' || c === 'G' || c === 'S');
      wall[y * w + x] = blocked ? 1 : 0;
      mrow[x] = blocked ? 1 : 0;
    }
    matrix.push(mrow);
  }
  return { w, h, wall, matrix, text };
}

function loadScen(file, n) {
  const qs = [];
  for (const line of fs.readFileSync(file, 'utf8').split(/\r?\n/)) {
    const t = line.split('\t');
    if (t.length < 9) continue;
    qs.push({ sx: +t[4], sy: +t[5], gx: +t[6], gy: +t[7], opt: parseFloat(t[8]) });
  }
  if (qs.length <= n) return qs;
  const out = [];
  for (let i = 0; i < n; i++) out.push(qs[Math.floor((i * qs.length) / n)]);
  return out;
}

// Cost of a cell path under Moving AI's rules; NaN if it is not a legal path.
function pathCost(m, q, p) {
  if (!p.length || p[0][0] !== q.sx || p[0][1] !== q.sy) return NaN;
  const last = p[p.length - 1];
  if (last[0] !== q.gx || last[1] !== q.gy) return NaN;
  const free = (x, y) => x >= 0 && y >= 0 && x < m.w && y < m.h && m.wall[y * m.w + x] === 0;
  let c = 0;
  for (let i = 1; i < p.length; i++) {
    const [x0, y0] = p[i - 1];
    const [x1, y1] = p[i];
    const dx = x1 - x0, dy = y1 - y0;
    if (Math.abs(dx) > 1 || Math.abs(dy) > 1 || (!dx && !dy) || !free(x1, y1)) return NaN;
    if (dx && dy) {
      if (!free(x0 + dx, y0) || !free(x0, y0 + dy)) return NaN;
      c += Math.SQRT2;
    } else c += 1;
  }
  return c;
}

const now = () => performance.now();
const median = (a) => {
  const s = Float64Array.from(a).sort();
  const k = s.length >> 1;
  return s.length % 2 ? s[k] : (s[k - 1] + s[k]) / 2;
};
const gc = () => { if (globalThis.gc) globalThis.gc(); };

// The runners, interleaved: query by query, each runner in turn, so that
// the machine's load at any moment falls on all of them alike (this 2-core
// VM is shared). Per query the best of --reps passes; the paths of pass 0.
function runAll(runners, qs, warm = 5) {
  for (const r of runners) for (let i = 0; i < Math.min(warm, qs.length); i++) r.solve(qs[i]);
  gc();
  const out = runners.map((r) => ({
    label: r.label,
    us: new Float64Array(qs.length).fill(Infinity),
    extra: new Float64Array(qs.length),
    paths: new Array(qs.length),
  }));
  for (let rep = 0; rep < opt.reps; rep++) {
    for (let i = 0; i < qs.length; i++) {
      runners.forEach((r, k) => {
        const res = r.solve(qs[i]);
        const o = out[k];
        if (res.us < o.us[i]) { o.us[i] = res.us; o.extra[i] = res.extra || 0; }
        if (rep === 0) o.paths[i] = res.path;
      });
    }
  }
  return out;
}

const rows = [];
let failures = 0;
for (const name of opt.maps) {
  const mapFile = path.join(DATA, `${name}.map`);
  const m = loadMap(mapFile);
  const qs = loadScen(`${mapFile}.scen`, opt.queries);
  const dm = { diagonalMovement: PFJS.DiagonalMovement.OnlyWhenNoObstacles, heuristic: PFJS.Heuristic.octile };

  // PathFinding.js: one base grid, a clone per query (not in its time).
  const pfBase = new PFJS.Grid(m.w, m.h, m.matrix);
  const pfRun = (finder) => (q) => {
    const c0 = now();
    const g = pfBase.clone();
    const t0 = now();
    const p = finder.findPath(q.sx, q.sy, q.gx, q.gy, g);
    return { us: 1e3 * (now() - t0), extra: 1e3 * (t0 - c0), path: p };
  };
  // The drop-in: the same code, clone included (O(1) here).
  const diBase = new DROPIN.Grid(m.w, m.h, m.matrix);
  const diRun = (finder) => (q) => {
    const t0 = now();
    const p = finder.findPath(q.sx, q.sy, q.gx, q.gy, diBase.clone());
    return { us: 1e3 * (now() - t0), path: p };
  };
  // The native API.
  const grid = NATIVE.Grid.fromWalls(m.w, m.h, m.wall);
  const naRun = (finder) => (q) => {
    const t0 = now();
    const p = finder.findPath(q.sx, q.sy, q.gx, q.gy);
    return { us: 1e3 * (now() - t0), path: p };
  };
  const nativeAstar = new NATIVE.Finder(grid, { method: 'astar' });
  const nativeJps = new NATIVE.Finder(grid, { method: 'jps' });

  const runs = runAll([
    { label: 'pf-astar', solve: pfRun(new PFJS.AStarFinder(dm)) },
    { label: 'pf-jps', solve: pfRun(new PFJS.JumpPointFinder(dm)) },
    { label: 'dropin-astar', solve: diRun(new DROPIN.AStarFinder({ ...dm, heuristic: DROPIN.Heuristic.octile })) },
    { label: 'dropin-jps', solve: diRun(new DROPIN.JumpPointFinder({ ...dm, heuristic: DROPIN.Heuristic.octile })) },
    { label: 'native-astar', solve: naRun(nativeAstar) },
    { label: 'native-jps', solve: naRun(nativeJps) },
  ], qs);
  nativeAstar.free();
  nativeJps.free();
  grid.free();

  // Costs: every path legal, all equal to PathFinding.js's A* (1e-9
  // relative) and to the scen optimum (1e-5).
  const ref = runs[0].paths.map((p, i) => pathCost(m, qs[i], p));
  for (const r of runs) {
    let bad = 0, off = 0;
    r.paths.forEach((p, i) => {
      const c = pathCost(m, qs[i], p);
      if (!(Math.abs(c - ref[i]) <= 1e-9 * Math.max(1, ref[i]))) bad++;
      if (!(Math.abs(c - qs[i].opt) <= 1e-5 * Math.max(1, qs[i].opt))) off++;
    });
    r.mismatch = bad;
    r.offOptimum = off;
    if (bad || off) failures++;
  }
  const med = Object.fromEntries(runs.map((r) => [r.label, median(r.us)]));
  const cloneMed = median(runs[0].extra);
  rows.push({ map: name, w: m.w, h: m.h, queries: qs.length, med, cloneMed, runs });
  if (!opt.markdown) {
    console.log(`${name} (${m.w}x${m.h}, ${qs.length} queries): median us/query ` +
      runs.map((r) => `${r.label} ${med[r.label].toFixed(1)}` +
        (r.mismatch || r.offOptimum ? ` [cost mismatches ${r.mismatch}, off optimum ${r.offOptimum}]` : '')).join(', ') +
      `; pf clone ${cloneMed.toFixed(1)}`);
  }
}

// ---- The table ------------------------------------------------------------
const f1 = (v) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
const x = (a, b) => `${(a / b).toFixed(1)}x`;
const lines = [];
lines.push(`PathFinding.js ${PFJS_VERSION} vs libastar ${NATIVE.version} (Node ${process.version}), ` +
  `median microseconds per query (best of ${opt.reps} pass(es) per query, runners interleaved)`);
lines.push('');
lines.push('| map | queries | PF A* | PF A* + clone | drop-in A* | native A* | A* ratio (PF / drop-in) | A* ratio (PF + clone / drop-in) | A* ratio (PF / native) | PF JPS | drop-in JPS | native JPS | JPS ratio (PF / drop-in) | JPS ratio (PF / native) | costs |');
lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
for (const r of rows) {
  const d = r.med;
  const okCosts = r.runs.every((u) => !u.mismatch && !u.offOptimum);
  const pfClone = median(r.runs[0].us.map((u, i) => u + r.runs[0].extra[i]));
  lines.push(`| ${r.map} (${r.w}x${r.h}) | ${r.queries} | ${f1(d['pf-astar'])} | ${f1(pfClone)} | ` +
    `${f1(d['dropin-astar'])} | ${f1(d['native-astar'])} | **${x(d['pf-astar'], d['dropin-astar'])}** | ` +
    `${x(pfClone, d['dropin-astar'])} | ${x(d['pf-astar'], d['native-astar'])} | ${f1(d['pf-jps'])} | ` +
    `${f1(d['dropin-jps'])} | ${f1(d['native-jps'])} | ${x(d['pf-jps'], d['dropin-jps'])} | ` +
    `${x(d['pf-jps'], d['native-jps'])} | ${okCosts ? 'identical' : 'MISMATCH'} |`);
}
if (rows.length > 1) {
  // Geometric means of the per-map ratios.
  const gm = (f) => Math.exp(rows.reduce((a, r) => a + Math.log(f(r)), 0) / rows.length);
  const pc = (r) => median(r.runs[0].us.map((u, i) => u + r.runs[0].extra[i]));
  lines.push(`| geometric mean of the ${rows.length} maps | | | | | | **${gm((r) => r.med['pf-astar'] / r.med['dropin-astar']).toFixed(1)}x** | ` +
    `${gm((r) => pc(r) / r.med['dropin-astar']).toFixed(1)}x | ${gm((r) => r.med['pf-astar'] / r.med['native-astar']).toFixed(1)}x | | | | ` +
    `${gm((r) => r.med['pf-jps'] / r.med['dropin-jps']).toFixed(1)}x | ${gm((r) => r.med['pf-jps'] / r.med['native-jps']).toFixed(1)}x | |`);
}
console.log(lines.join('\n'));
if (failures) {
  console.error(`compare.mjs: ${failures} run(s) with path costs that differ (see above)`);
  process.exit(1);
}
