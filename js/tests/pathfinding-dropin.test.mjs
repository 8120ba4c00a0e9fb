// The drop-in's own promises (docs/pathfinding-js.md): clone() is O(1) and
// copy-on-write, nodes are made on demand and write through, edits between
// searches are seen (PathFinding.js's usage patterns, checked against the
// real PathFinding.js), the weights extension gives least-cost paths (checked
// against a Dijkstra written here), and bad input gets a clear error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as PF from 'libastar/pathfinding';
import { rng } from './reference.mjs';

const require = createRequire(import.meta.url);
const REAL = require('pathfinding');
const PFC = require('libastar/pathfinding');
const len = (p) => REAL.Util.pathLength(p);


test('both entries export the same PathFinding.js surface', () => {
  const names = ['Grid', 'Node', 'Util', 'DiagonalMovement', 'Heuristic', 'AStarFinder',
    'BestFirstFinder', 'BreadthFirstFinder', 'DijkstraFinder', 'BiAStarFinder',
    'BiBestFirstFinder', 'BiBreadthFirstFinder', 'BiDijkstraFinder', 'IDAStarFinder',
    'JumpPointFinder'];
  for (const n of names) {
    assert.ok(n in REAL, `${n} is not PathFinding.js's`);
    assert.equal(typeof PF[n], typeof REAL[n], `import: ${n}`);
    assert.equal(typeof PFC[n], typeof REAL[n], `require: ${n}`);
  }
  assert.equal(PF.BreadthFirstSearchFinder, PF.BreadthFirstFinder);
  assert.deepEqual({ ...PF.DiagonalMovement }, { ...REAL.DiagonalMovement });
  for (const h of Object.keys(REAL.Heuristic)) {
    for (const [dx, dy] of [[0, 0], [3, 1], [2, 7], [5, 5]]) {
      assert.equal(PF.Heuristic[h](dx, dy), REAL.Heuristic[h](dx, dy), `Heuristic.${h}(${dx}, ${dy})`);
    }
  }
});

test('clone() shares the cells until one side is edited (copy on write)', () => {
  const g = new PF.Grid(300, 200);
  const c = g.clone();
  assert.equal(c._store, g._store, 'a clone shares the store');
  assert.equal(c._rows, null, 'a clone makes no nodes');
  c.setWalkableAt(5, 5, false);
  assert.notEqual(c._store, g._store, 'an edit of the clone copies');
  assert.equal(g.isWalkableAt(5, 5), true, 'the original is untouched');
  const c2 = g.clone();
  g.setWalkableAt(7, 7, false);
  assert.equal(c2.isWalkableAt(7, 7), true, 'an edit of the original after a clone leaves the clone');
  assert.equal(g.isWalkableAt(7, 7), false);
  assert.equal(c.isWalkableAt(7, 7), true);
});

test('PathFinding.js usage patterns: clone per search, edits between searches, node.walkable', () => {
  const r = rng(7);
  const W = 24, H = 18;
  const matrix = Array.from({ length: H }, () => Array.from({ length: W }, () => (r() < 0.25 ? 1 : 0)));
  const ours = new PF.Grid(W, H, matrix);
  const theirs = new REAL.Grid(W, H, matrix);
  const fo = new PF.AStarFinder({ diagonalMovement: PF.DiagonalMovement.OnlyWhenNoObstacles });
  const ft = new REAL.AStarFinder({ diagonalMovement: REAL.DiagonalMovement.OnlyWhenNoObstacles });
  const bare = new PF.DijkstraFinder({ allowDiagonal: true }); // searches the grid itself, no clone
  const bareT = new REAL.DijkstraFinder({ allowDiagonal: true });
  let found = 0;
  for (let i = 0; i < 300; i++) {
    const x = Math.floor(r() * W), y = Math.floor(r() * H);
    const how = i % 3;
    const v = r() < 0.5;
    // Three ways to edit: setWalkableAt, a node of grid.nodes, getNodeAt.
    if (how === 0) ours.setWalkableAt(x, y, v);
    else if (how === 1) ours.nodes[y][x].walkable = v;
    else ours.getNodeAt(x, y).walkable = v;
    theirs.setWalkableAt(x, y, v);
    assert.equal(ours.isWalkableAt(x, y), v);
    assert.equal(ours.nodes[y][x].walkable, v, 'a node reads the grid');
    const q = [Math.floor(r() * W), Math.floor(r() * H), Math.floor(r() * W), Math.floor(r() * H)];
    // Every other search: a clone with cells of its own (units marked on a
    // copy), which must not reach the grid.
    const oc = ours.clone();
    const tc = theirs.clone();
    if (i % 2) {
      for (let k = 0; k < 3; k++) {
        const cx = Math.floor(r() * W), cy = Math.floor(r() * H), cv = r() < 0.3;
        oc.setWalkableAt(cx, cy, cv);
        tc.setWalkableAt(cx, cy, cv);
      }
    }
    const a = fo.findPath(...q, oc);
    const b = ft.findPath(...q, tc);
    assert.equal(a.length > 0, b.length > 0, `edit ${i}: reachability`);
    assert.ok(Math.abs(len(a) - len(b)) < 1e-9, `edit ${i}: length ${len(a)} vs ${len(b)}`);
    const c = bare.findPath(...q, ours); // PathFinding.js needs a fresh grid here; the drop-in not
    const d = bareT.findPath(...q, theirs.clone());
    assert.ok(Math.abs(len(c) - len(d)) < 1e-9, `edit ${i}: reused grid ${len(c)} vs ${len(d)}`);
    if (a.length) found++;
  }
  assert.ok(found > 50);
  assert.equal(ours.getNodeAt(3, 4), ours.nodes[4][3], 'one node object per cell');
  assert.ok(ours.getNodeAt(3, 4) instanceof PF.Node);
  assert.equal(ours.getNodeAt(-1, 0), undefined);
});

test('edits of a grid already searched (no clone between) are seen', () => {
  const r = rng(3);
  const W = 16, H = 12;
  const ours = new PF.Grid(W, H);
  const theirs = new REAL.Grid(W, H);
  const fo = new PF.AStarFinder({ allowDiagonal: true });
  const ft = new REAL.AStarFinder({ allowDiagonal: true });
  for (let i = 0; i < 200; i++) {
    const x = Math.floor(r() * W), y = Math.floor(r() * H);
    const v = r() < 0.6 ? false : true;
    ours.setWalkableAt(x, y, v);
    theirs.setWalkableAt(x, y, v);
    const q = [Math.floor(r() * W), Math.floor(r() * H), Math.floor(r() * W), Math.floor(r() * H)];
    const a = fo.findPath(...q, ours);
    const b = ft.findPath(...q, theirs.clone());
    assert.equal(a.length > 0, b.length > 0, `edit ${i}: reachability`);
    assert.ok(Math.abs(len(a) - len(b)) < 1e-9, `edit ${i}: length ${len(a)} vs ${len(b)}`);
  }
  // Weights set after a search: an open row made costly is left.
  const g = new PF.Grid(10, 3);
  const f = new PF.DijkstraFinder();
  assert.equal(f.findPath(0, 1, 9, 1, g).length, 10);
  for (let x = 1; x < 9; x++) g.setWeightAt(x, 1, 10);
  const p = f.findPath(0, 1, 9, 1, g);
  assert.ok(p.slice(1, -1).every(([, y]) => y !== 1), `the costly row is left: ${JSON.stringify(p)}`);
});

test('a grid searched by many finders and many grids by one finder', () => {
  const grids = Array.from({ length: 9 }, (_, k) => {
    const g = new PF.Grid(12, 9);
    for (let y = 0; y < 8; y++) g.setWalkableAt(k + 1, y, false);
    return g;
  });
  const f = new PF.AStarFinder();
  for (let rep = 0; rep < 3; rep++) {
    grids.forEach((g, k) => {
      const p = f.findPath(0, 0, 11, 0, g);
      assert.equal(p.length - 1, 11 + 2 * 8, `grid ${k}: around the wall`);
    });
  }
});

// Least cost with weights: Dijkstra over (cell, cost) written here.
function dijkstra(W, H, wall, weight, rule, sx, sy, ex, ey) {
  const dist = new Float64Array(W * H).fill(Infinity);
  const done = new Uint8Array(W * H);
  dist[sy * W + sx] = 0;
  const free = (x, y) => x >= 0 && y >= 0 && x < W && y < H && !wall[y][x];
  for (;;) {
    let u = -1;
    for (let i = 0; i < W * H; i++) if (!done[i] && dist[i] < Infinity && (u < 0 || dist[i] < dist[u])) u = i;
    if (u < 0) return Infinity;
    if (u === ey * W + ex) return dist[u];
    done[u] = 1;
    const x = u % W, y = (u - x) / W;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        if ((!dx && !dy) || !free(x + dx, y + dy)) continue;
        if (dx && dy) {
          if (rule === 'Never') continue;
          const a = free(x + dx, y), b = free(x, y + dy);
          if (rule === 'OnlyWhenNoObstacles' && !(a && b)) continue;
          if (rule === 'IfAtMostOneObstacle' && !(a || b)) continue;
        }
        const v = (y + dy) * W + x + dx;
        const c = dist[u] + (dx && dy ? Math.SQRT2 : 1) * weight[y + dy][x + dx];
        if (c < dist[v]) dist[v] = c;
      }
    }
  }
}

test('weights: least-cost paths, every finder that honours them', () => {
  const r = rng(11);
  for (let s = 0; s < 12; s++) {
    const W = 8 + s, H = 6 + (s % 5);
    const wall = Array.from({ length: H }, () => Array.from({ length: W }, () => (r() < 0.2 ? 1 : 0)));
    const weight = Array.from({ length: H }, () => Array.from({ length: W }, () => [1, 1, 2, 5, 0.5][Math.floor(r() * 5)]));
    const grid = new PF.Grid(W, H, wall, weight);
    const byMethods = new PF.Grid(wall);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) byMethods.setWeightAt(x, y, weight[y][x]);
    for (const rule of ['Never', 'OnlyWhenNoObstacles', 'IfAtMostOneObstacle', 'Always']) {
      const dm = { diagonalMovement: PF.DiagonalMovement[rule] };
      const finders = [new PF.AStarFinder(dm), new PF.DijkstraFinder(dm), new PF.BiAStarFinder(dm),
        new PF.BiDijkstraFinder(dm), new PF.JumpPointFinder(dm)];
      for (let k = 0; k < 4; k++) {
        let sx, sy, ex, ey;
        do { sx = Math.floor(r() * W); sy = Math.floor(r() * H); } while (wall[sy][sx]);
        do { ex = Math.floor(r() * W); ey = Math.floor(r() * H); } while (wall[ey][ex]);
        const best = dijkstra(W, H, wall, weight, rule, sx, sy, ex, ey);
        for (const f of finders) {
          for (const g of [grid, byMethods, grid.clone()]) {
            const p = f.findPath(sx, sy, ex, ey, g);
            if (best === Infinity) { assert.deepEqual(p, []); continue; }
            let cost = 0;
            for (let i = 1; i < p.length; i++) {
              const [x0, y0] = p[i - 1], [x1, y1] = p[i];
              cost += (x0 !== x1 && y0 !== y1 ? Math.SQRT2 : 1) * g.getWeightAt(x1, y1);
            }
            assert.ok(Math.abs(cost - best) < 1e-6 * Math.max(1, best),
              `${f.constructor.name} ${rule} scene ${s}: cost ${cost}, least ${best}`);
          }
        }
      }
    }
  }
});

test('weights: a weighted clone does not change the original; JPS follows weights set later', () => {
  const g = new PF.Grid(10, 3);
  const jps = new PF.JumpPointFinder({ diagonalMovement: PF.DiagonalMovement.OnlyWhenNoObstacles });
  assert.equal(jps.findPath(0, 1, 9, 1, g).length, 10);
  const c = g.clone();
  for (let x = 1; x < 9; x++) c.setWeightAt(x, 1, 10);
  assert.equal(g.getWeightAt(4, 1), 1);
  assert.equal(g.hasWeights(), false);
  assert.equal(c.hasWeights(), true);
  const p = jps.findPath(0, 1, 9, 1, c);
  assert.ok(p.every(([, y], i) => i === 0 || i === p.length - 1 || y !== 1), 'around the costly row');
  assert.deepEqual(jps.findPath(0, 1, 9, 1, g).map(([, y]) => y), Array(10).fill(1), 'the original: straight');
  assert.equal(c.getNodeAt(3, 1).weight, 10);
});

test('errors: bad options, coordinates and grids are named', () => {
  assert.throws(() => new PF.AStarFinder({ heuristic: (dx, dy) => dx + dy }),
    (e) => e instanceof TypeError && /heuristic must be one of PF\.Heuristic/.test(e.message));
  assert.throws(() => new PF.JumpPointFinder({ heuristic: () => 0 }), /heuristic/);
  assert.throws(() => new PF.AStarFinder({ diagonalMovement: 9 }),
    (e) => e instanceof RangeError && /diagonalMovement/.test(e.message));
  assert.throws(() => new PF.AStarFinder({ weight: -1 }), (e) => e instanceof RangeError && /weight/.test(e.message));
  const g = new PF.Grid(4, 3);
  const f = new PF.AStarFinder();
  assert.throws(() => f.findPath(4, 0, 0, 0, g), (e) => e instanceof RangeError && /start: \(4, 0\) is outside the 4 x 3 grid/.test(e.message));
  assert.throws(() => f.findPath(0, 0, 0, 1.5, g), (e) => e instanceof RangeError && /end/.test(e.message));
  assert.throws(() => f.findPath(0, 0, 1, 1, new REAL.Grid(4, 3)), (e) => e instanceof TypeError && /grid must be a PF\.Grid/.test(e.message));
  assert.throws(() => new PF.Grid(3, 2, [[0, 0, 0]]), /Matrix size does not fit/);
  assert.throws(() => new PF.Grid(0, 2), (e) => e instanceof RangeError && /width/.test(e.message));
  assert.throws(() => g.setWeightAt(1, 1, 0), (e) => e instanceof RangeError && /weight/.test(e.message));
  assert.throws(() => g.setWeightAt(1, 1, NaN), RangeError);
  assert.throws(() => g.setWalkableAt(9, 1, false), RangeError);
  assert.throws(() => new PF.Grid([[0, 0]], [[1, -2]]), /weights\[0\]\[1\]/);
});

test('IDA* answers [] when there is no path (PathFinding.js never returns)', () => {
  const g = new PF.Grid([[0, 1, 0], [0, 1, 0], [0, 1, 0]]);
  for (const d of [1, 2, 3, 4]) {
    assert.deepEqual(new PF.IDAStarFinder({ diagonalMovement: d }).findPath(0, 0, 2, 2, g), []);
  }
  const f = new PF.IDAStarFinder({ timeLimit: 0.5, trackRecursion: true });
  assert.equal(f.timeLimit, 0.5);
  assert.equal(f.findPath(0, 0, 0, 2, g).length, 3);
});

test('a walled start is searched from, as PathFinding.js does; the grid is left as it was', () => {
  const g = new PF.Grid([[1, 0, 0], [0, 0, 0]]);
  const p = new PF.AStarFinder().findPath(0, 0, 2, 1, g);
  const pr = new REAL.AStarFinder().findPath(0, 0, 2, 1, new REAL.Grid([[1, 0, 0], [0, 0, 0]]));
  assert.equal(pr.length, 4);
  assert.equal(p.length, pr.length);
  assert.deepEqual(p[0], [0, 0]);
  assert.equal(g.isWalkableAt(0, 0), false);
  assert.deepEqual(new PF.AStarFinder().findPath(1, 0, 0, 0, g), [], 'a walled end is not reached');
  assert.equal(new PF.BiAStarFinder().findPath(1, 0, 0, 0, g).length, 2, 'except by the bidirectional finders');
  assert.equal(g.isWalkableAt(0, 0), false);
});
