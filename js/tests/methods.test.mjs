// methods.test.mjs -- every method of methods(), through Finder, against
// the Dijkstra written in reference.mjs on random grids (uniform costs):
// optimal methods find exactly its cost, any-angle ones no more than it
// and no less than the straight line, the others a legal path at least as
// dear; every method finds a path exactly when one exists (beam and bandwidth
// may miss one when they dropped entries).
import test from 'node:test';
import assert from 'node:assert/strict';
import { Grid, Finder, HexGrid, Graph, methods, JpsPlus, Cpd, Hpa, Landmarks, Subgoal } from 'libastar';
import { dijkstra, rng, randomWalls, pathCost } from './reference.mjs';

const EPS = 1e-9;

function prepare(grid, m) {
  const o = { method: m.name };
  if (m.needs.includes('jpsPlus')) o.jpsPlus = new JpsPlus(grid);
  if (m.needs.includes('cpd')) o.cpd = new Cpd(grid);
  if (m.needs.includes('hpa')) o.hpa = new Hpa(grid, { clusterSize: 8 });
  if (m.needs.includes('subgoal')) o.subgoal = new Subgoal(grid);
  return o;
}

test('methods() lists the library table, every row usable', () => {
  const ms = methods();
  assert.ok(ms.length >= 18, `${ms.length} methods`);
  for (const n of ['astar', 'dijkstra', 'jps', 'jps-plus', 'cpd', 'hpa', 'theta', 'lazy-theta', 'anya', 'fringe', 'ida', 'beam']) {
    assert.ok(ms.some((m) => m.name === n), `method ${n}`);
  }
  for (const m of ms) assert.equal(typeof m.summary, 'string') && assert.ok(m.summary.length > 0);
});

test('every method against Dijkstra on random grids', () => {
  const rand = rng(7);
  let checked = 0;
  for (let round = 0; round < 6; round++) {
    const w = 12 + Math.floor(rand() * 20), h = 12 + Math.floor(rand() * 20);
    const walls = randomWalls(w, h, 0.25, rand);
    const grid = Grid.fromWalls(w, h, walls);
    const finders = methods().filter((m) => m.grid || m.space).map((m) => {
      const o = prepare(grid, m);
      return { m, f: new Finder(grid, o), preps: [o.jpsPlus, o.cpd, o.hpa, o.subgoal].filter(Boolean) };
    });
    for (let q = 0; q < 12; q++) {
      let sx, sy, gx, gy;
      do { sx = Math.floor(rand() * w); sy = Math.floor(rand() * h); } while (walls[sy * w + sx]);
      do { gx = Math.floor(rand() * w); gy = Math.floor(rand() * h); } while (walls[gy * w + gx]);
      const want = dijkstra(w, h, walls, sx, sy, gx, gy);
      for (const { m, f } of finders) {
        const r = f.find(sx, sy, gx, gy);
        const tag = `${m.name} round ${round} (${sx},${sy})->(${gx},${gy})`;
        if (want === Infinity) {
          assert.notEqual(r.status, 'ok', `${tag}: found a path where none exists`);
          assert.deepEqual(r.path, []);
          continue;
        }
        // Beam and bandwidth searches drop entries and may miss a path then.
        if (r.status !== 'ok' && r.dropped > 0) continue;
        assert.equal(r.status, 'ok', `${tag}: ${r.status}`);
        assert.equal(r.path.length, r.length);
        const first = r.path[0], last = r.path[r.length - 1];
        if (m.vec) {
          // Anya: bends as points, the ends at the cells' centres.
          assert.deepEqual(first, [sx + 0.5, sy + 0.5], tag);
          assert.deepEqual(last, [gx + 0.5, gy + 0.5], tag);
        } else {
          assert.deepEqual(first, [sx, sy], tag);
          assert.deepEqual(last, [gx, gy], tag);
        }
        if (m.anyAngle) {
          assert.ok(r.cost <= want + EPS, `${tag}: any-angle ${r.cost} > grid optimum ${want}`);
          assert.ok(r.cost >= Math.hypot(gx - sx, gy - sy) - EPS, `${tag}: below the straight line`);
        } else {
          const c = pathCost(w, h, walls, r.path);
          assert.ok(Math.abs(c - r.cost) < 1e-6, `${tag}: reported cost ${r.cost}, path costs ${c}`);
          if (m.optimal) assert.ok(Math.abs(c - want) < EPS, `${tag}: ${c} vs Dijkstra ${want}`);
          else assert.ok(c >= want - EPS, `${tag}: ${c} below the optimum ${want}`);
        }
        checked++;
      }
    }
    for (const { f, preps } of finders) { f.free(); preps.forEach((p) => p.free()); }
    grid.free();
  }
  assert.ok(checked > 500, `${checked} paths checked`);
});

test('terrain: methods that honour it match Dijkstra with costs; the others refuse', () => {
  const rand = rng(11);
  const w = 20, h = 16;
  const walls = randomWalls(w, h, 0.2, rand);
  const costs = Float32Array.from({ length: w * h }, () => 1 + Math.floor(rand() * 4));
  const grid = Grid.fromWalls(w, h, walls).setCosts(costs);
  assert.ok(grid.hasTerrain);
  for (const m of methods().filter((x) => x.grid && !x.needs.length)) {
    if (!m.terrain) {
      assert.throws(() => new Finder(grid, { method: m.name }), (e) => e.name === 'AstarError' && e.status === 'unsupported', m.name);
      continue;
    }
    const f = new Finder(grid, { method: m.name });
    for (let q = 0; q < 15; q++) {
      let sx, sy, gx, gy;
      do { sx = Math.floor(rand() * w); sy = Math.floor(rand() * h); } while (walls[sy * w + sx]);
      do { gx = Math.floor(rand() * w); gy = Math.floor(rand() * h); } while (walls[gy * w + gx]);
      const want = dijkstra(w, h, walls, sx, sy, gx, gy, { costs });
      const r = f.find(sx, sy, gx, gy);
      if (want === Infinity) { assert.notEqual(r.status, 'ok'); continue; }
      if (m.optimal && !m.anyAngle) assert.ok(Math.abs(r.cost - want) < 1e-6, `${m.name}: ${r.cost} vs ${want}`);
      else assert.ok(r.status === 'ok' || r.dropped > 0, `${m.name}: ${r.status}`);
    }
    f.free();
  }
  grid.free();
});

test('4 moves and the corner rules against Dijkstra', () => {
  const rand = rng(3);
  const w = 24, h = 18;
  const walls = randomWalls(w, h, 0.3, rand);
  const grid = Grid.fromWalls(w, h, walls);
  for (const [opts, ref] of [[{ moves: 4 }, { moves: 4 }], [{ diagonal: false }, { moves: 4 }],
    [{ corner: 'always' }, { corner: 'always' }], [{ corner: 'one-side' }, { corner: 'one-side' }],
    [{ corner: 'never' }, { corner: 'never' }]]) {
    const f = new Finder(grid, opts);
    for (let q = 0; q < 30; q++) {
      const sx = Math.floor(rand() * w), sy = Math.floor(rand() * h), gx = Math.floor(rand() * w), gy = Math.floor(rand() * h);
      const want = dijkstra(w, h, walls, sx, sy, gx, gy, ref);
      const r = f.find(sx, sy, gx, gy);
      if (want === Infinity) assert.notEqual(r.status, 'ok');
      else assert.ok(Math.abs(r.cost - want) < EPS, `${JSON.stringify(opts)}: ${r.cost} vs ${want}`);
    }
    f.free();
  }
  grid.free();
});

test('HexGrid and Graph: the engine methods against Dijkstra on the same graph', () => {
  const rand = rng(5);
  const w = 14, h = 11;
  const hex = new HexGrid(w, h);
  const walls = randomWalls(w, h, 0.2, rand);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (walls[y * w + x]) hex.setWalkable(x, y, false);
  // The same hex grid as a Graph (odd-r pointy neighbours), solved by a JS Dijkstra.
  const nb = (x, y) => (y & 1 ? [[1, 0], [1, -1], [0, -1], [-1, 0], [0, 1], [1, 1]] : [[1, 0], [0, -1], [-1, -1], [-1, 0], [-1, 1], [0, 1]])
    .map(([dx, dy]) => [x + dx, y + dy]).filter(([a, b]) => a >= 0 && b >= 0 && a < w && b < h && !walls[b * w + a]);
  const edges = [];
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (!walls[y * w + x]) for (const [a, b] of nb(x, y)) edges.push([y * w + x, b * w + a, 1]);
  const graph = new Graph(w * h, edges, { directed: true });
  const dist = (s, g) => {
    const d = new Float64Array(w * h).fill(Infinity); d[s] = 0;
    const todo = [s];
    while (todo.length) { const v = todo.shift(); for (const [, b, c] of edges.filter((e) => e[0] === v)) if (d[v] + c < d[b]) { d[b] = d[v] + c; todo.push(b); } }
    return d[g];
  };
  for (const m of methods().filter((x) => x.space && x.optimal)) {
    const fh = new Finder(hex, { method: m.name }), fg = new Finder(graph, { method: m.name });
    for (let q = 0; q < 8; q++) {
      const s = Math.floor(rand() * w * h), g = Math.floor(rand() * w * h);
      if (walls[s] || walls[g]) continue;
      const want = dist(s, g);
      const rh = fh.find(s % w, Math.floor(s / w), g % w, Math.floor(g / w));
      const rg = fg.find(s, g);
      if (want === Infinity) { assert.notEqual(rh.status, 'ok'); assert.notEqual(rg.status, 'ok'); continue; }
      assert.equal(rh.cost, want, `hex ${m.name}`);
      assert.equal(rg.cost, want, `graph ${m.name}`);
      assert.deepEqual(rg.path[0], s);
      assert.deepEqual(rh.path[rh.length - 1], [g % w, Math.floor(g / w)]);
    }
    fh.free(); fg.free();
  }
  graph.free(); hex.free();
});
