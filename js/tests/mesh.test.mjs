// mesh.test.mjs -- navigation meshes from JavaScript: Mesh (text, polygons,
// locate), NavMesh (grids, polygon maps, radius, obstacles), and the Finder
// on a mesh -- Polyanya's length equals Anya's on the same random grid (both
// the Euclidean shortest path under Anya's corner rule), the shared
// degenerate meshes' expected lengths, and the same paths as the C tool's
// `astar solve --mesh` (skipped without a tool that has it).
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Grid, Finder, Mesh, NavMesh, AstarError, methods } from 'libastar';
import { rng, randomWalls } from './reference.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NAVMESH = path.join(ROOT, '../shared/bench/navmesh');
const TOOL = process.env.ASTAR_TOOL || path.join(ROOT, 'build/astar');
const near = (a, b, eps = 1e-9) => Math.abs(a - b) <= eps * Math.max(1, Math.abs(b));

// Two unit squares side by side, counter-clockwise by the cross product.
const SQ_V = [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1]];
const SQ_P = [[0, 1, 4, 3], [1, 2, 5, 4]];

function gridOf(w, h, walls) {
  return Grid.fromWalls(w, h, walls);
}

test('Mesh.fromPolygons: accessors, locate, text round trip', () => {
  const m = Mesh.fromPolygons(SQ_V, SQ_P);
  assert.equal(m.vertexCount, 6);
  assert.equal(m.polygonCount, 2);
  assert.deepEqual(m.vertices(), SQ_V);
  assert.deepEqual(m.polygons(), SQ_P);
  assert.equal(m.polygon(0).neighbours[2], 1);
  assert.equal(m.polygon(0).neighbours[3], -1);
  assert.ok(near(m.area, 2));
  assert.deepEqual(m.bounds, [[0, 0], [2, 1]]);
  assert.equal(m.validate(), null);
  assert.deepEqual(m.locate([0.5, 0.5]), { place: 'inside', polygon: 0, other: -1, vertex: -1 });
  assert.deepEqual(m.locate([1, 0.5]), { place: 'edge', polygon: 0, other: 1, vertex: -1 });
  assert.deepEqual(m.locate([1, 1]), { place: 'vertex', polygon: 0, other: -1, vertex: 4 });
  assert.equal(m.locate([3, 3]).place, 'outside');
  const text = m.toText();
  const m2 = Mesh.fromText(text);
  assert.equal(m2.toText(), text);
  assert.deepEqual(m2.polygons(), SQ_P);
  m2.free();
  m.free();
});

test('bad meshes: parse errors carry line and column, bad polygons name the polygon', () => {
  assert.throws(() => Mesh.fromText('mesh\n2\n3 1\n0 0 1 0\n1 0 1 0\nx 1 1 0\n3 0 1 2 -1 -1 -1\n'),
    (e) => e instanceof AstarError && e.status === 'parse-error' && e.line === 6 && e.column >= 1 && /line 6/.test(e.message));
  assert.throws(() => Mesh.fromPolygons(SQ_V, [[0, 1, 4, 3], [1, 4, 5, 2]]),
    (e) => e instanceof AstarError && e.fault.polygon === 1 && /polygon 1/.test(e.message));
  assert.throws(() => Mesh.fromPolygons([[0, 0], [NaN, 0], [1, 1]], [[0, 1, 2]]), /vertices\[1\]\[0\]/);
  assert.throws(() => new Mesh(), TypeError);
  assert.throws(() => Mesh.fromPolygons(SQ_V, SQ_P).locate([1]), RangeError);
});

test('Polyanya equals Anya on random grids; the funnel is never shorter and stays in the mesh', () => {
  const rand = rng(30);
  let compared = 0;
  for (let round = 0; round < 6; round++) {
    const w = 16 + Math.floor(rand() * 20), h = 12 + Math.floor(rand() * 20);
    const walls = randomWalls(w, h, 0.28, rand);
    const grid = gridOf(w, h, walls);
    const nav = new NavMesh(grid);
    assert.ok(near(nav.mesh.area, walls.reduce((n, c) => n + (c ? 0 : 1), 0)));
    const poly = new Finder(nav.mesh, { method: 'polyanya' });
    const funnel = new Finder(nav, { method: 'funnel' });
    const anya = new Finder(grid, { method: 'anya' });
    for (let q = 0; q < 40; q++) {
      const sx = Math.floor(rand() * w), sy = Math.floor(rand() * h);
      const gx = Math.floor(rand() * w), gy = Math.floor(rand() * h);
      if (walls[sy * w + sx] || walls[gy * w + gx]) continue;
      const a = anya.find(sx, sy, gx, gy);
      const s = [sx + 0.5, sy + 0.5], g = [gx + 0.5, gy + 0.5];
      const p = poly.find(s, g);
      assert.equal(p.ok, a.ok, `(${s}) -> (${g}): ${p.status} vs anya ${a.status}`);
      if (!a.ok) continue;
      assert.ok(near(p.cost, a.cost), `(${s}) -> (${g}): polyanya ${p.cost} vs anya ${a.cost}`);
      assert.deepEqual(p.path[0], s);
      assert.deepEqual(p.path[p.path.length - 1], g);
      let len = 0;
      for (let i = 1; i < p.path.length; i++) len += Math.hypot(p.path[i][0] - p.path[i - 1][0], p.path[i][1] - p.path[i - 1][1]);
      assert.ok(near(len, p.cost));
      assert.deepEqual(poly.findPath(s, g), p.path);
      assert.deepEqual(Array.from(poly.findPathFlat(s, g)), p.path.flat());
      const f = funnel.find(s, g);
      assert.ok(f.ok && f.cost >= p.cost - 1e-9 && f.corridor >= 1);
      for (let i = 1; i < f.path.length; i++) {
        const mid = [(f.path[i][0] + f.path[i - 1][0]) / 2, (f.path[i][1] + f.path[i - 1][1]) / 2];
        assert.notEqual(nav.mesh.locate(mid).place, 'outside');
      }
      compared++;
    }
    poly.free(); funnel.free(); anya.free(); nav.free(); grid.free();
  }
  assert.ok(compared > 100, `${compared} queries compared`);
});

test('mesh finder: refusals, blocked ends, argument errors', () => {
  const grid = Grid.fromArray([[0, 0, 0, 0], [0, 1, 1, 0], [0, 0, 0, 0]]);
  const nav = new NavMesh(grid);
  assert.deepEqual(methods().filter((m) => m.mesh).map((m) => m.name), ['polyanya', 'funnel']);
  assert.throws(() => new Finder(nav.mesh, { method: 'astar' }), (e) => e instanceof AstarError && e.status === 'unsupported' && /polyanya/.test(e.message));
  assert.throws(() => new Finder(grid, { method: 'polyanya' }), (e) => e.status === 'unsupported');
  const f = new Finder(nav, { method: 'polyanya' });
  assert.equal(f.find([-1, 0.5], [3.5, 0.5]).status, 'start-blocked');
  assert.equal(f.find([0.5, 0.5], [1.5, 1.5]).status, 'goal-blocked');
  assert.deepEqual(f.findPath([0.5, 0.5], [1.5, 1.5]), []);
  assert.throws(() => f.findPath([0.5, Infinity], [1, 1]), /start\[1\]/);
  assert.throws(() => f.findPath('a', [1, 1]), TypeError);
  assert.deepEqual(f.findPath(0.5, 0.5, 3.5, 0.5), [[0.5, 0.5], [3.5, 0.5]]);
  assert.throws(() => nav.free(), /still alive/);
  f.free();
  assert.throws(() => new NavMesh(grid, { radius: -1 }), /radius must be a number in \[0, 1000000\]/);
  assert.throws(() => new NavMesh(grid, { radius: 1, bogus: 1 }), /unknown option 'bogus'/);
  assert.throws(() => new NavMesh(Grid.fromArray([[1, 1]])), (e) => e.status === 'no-path');
  nav.free();
  grid.free();
});

test('obstacles added and removed; the finder follows the edits', () => {
  const grid = new Grid(12, 8);
  const nav = new NavMesh(grid);
  const f = new Finder(nav, { method: 'polyanya' });
  const s = [0.5, 4], g = [11.5, 4];
  assert.ok(near(f.find(s, g).cost, 11));
  const v0 = nav.mesh.version;
  const id = nav.addObstacle([[5, -1], [7, -1], [7, 6], [5, 6]]);
  assert.ok(id >= 1);
  assert.equal(nav.mesh.version, v0 + 1);
  assert.equal(nav.mesh.validate(), null);
  const want = 2 * Math.hypot(4.5, 2) + 2;
  assert.ok(near(f.find(s, g).cost, want), `${f.find(s, g).cost} vs ${want}`);
  assert.ok(near(nav.mesh.area, 96 - 12));
  nav.removeObstacle(id);
  assert.ok(near(f.find(s, g).cost, 11));
  assert.throws(() => nav.removeObstacle(id), (e) => e.status === 'invalid-argument');
  assert.throws(() => nav.addObstacle([[0, 0], [1, 1]]), RangeError);
  f.free(); nav.free(); grid.free();
});

test('radius: paths keep away from the obstacles', () => {
  const grid = Grid.fromArray([[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0], [0, 0, 1, 1, 0, 0], [0, 0, 1, 1, 0, 0], [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]]);
  const r = 0.3;
  const nav = new NavMesh(grid, { radius: r });
  const p = new Finder(nav, { method: 'polyanya' }).find([0.5, 3], [5.5, 3]);
  assert.ok(p.ok);
  for (let i = 1; i < p.path.length; i++) {
    for (let t = 0; t <= 1; t += 0.02) {
      const x = p.path[i - 1][0] + (p.path[i][0] - p.path[i - 1][0]) * t;
      const y = p.path[i - 1][1] + (p.path[i][1] - p.path[i - 1][1]) * t;
      assert.ok(Math.hypot(Math.max(2 - x, 0, x - 4), Math.max(2 - y, 0, y - 4)) >= r - 1e-9, `(${x}, ${y})`);
    }
  }
});

test('polygon maps: the mesh of a poly text', () => {
  const text = 'poly\n1\n2\n4 0 0 10 0 10 6 0 6\n4 3 1 6 1 6 5 3 5\n';
  const nav = new NavMesh(text);
  assert.ok(near(nav.mesh.area, 60 - 12));
  const p = new Finder(nav, { method: 'polyanya' }).find([1, 3], [9, 3]);
  assert.ok(near(p.cost, Math.hypot(2, 2) + 3 + Math.hypot(3, 2)), `${p.cost}`);
  assert.throws(() => new NavMesh('poly\n1\n1\n3 0 0 1 zz 1 1\n'), (e) => e.status === 'parse-error' && e.line === 4);
});

const scen = (name) => fs.readFileSync(path.join(NAVMESH, 'scenarios/tests', `${name}.scen`), 'utf8')
  .split('\n').slice(1).map((l) => l.trim().split(/\s+/)).filter((f) => f.length >= 9).map((f) => f.slice(4, 9).map(Number));

test('the shared degenerate meshes and their expected lengths', { skip: !fs.existsSync(NAVMESH) && `no ${NAVMESH}` }, () => {
  for (const name of ['square', 'bad-ambig', 'bad-collinear', 'bad-collinear2-rot0', 'bad-collinear2-rot45', 'bad-collinear2-rot90']) {
    const m = Mesh.fromText(fs.readFileSync(path.join(NAVMESH, 'meshes/tests', `${name}.mesh`), 'utf8'));
    const f = new Finder(m, { method: 'polyanya' });
    for (const [sx, sy, gx, gy, want] of scen(name)) {
      const r = f.find([sx, sy], [gx, gy]);
      if (want < 0) {
        // Polyanya's harness gives up on an end ON bad-ambig's pinch vertex;
        // in the library's model the pinch is in both squares' closures.
        assert.equal(name, 'bad-ambig');
        assert.ok(r.ok && near(r.cost, sx === gx && sy === gy ? 0 : 0.01 * Math.SQRT2), `${name}: ${r.cost}`);
      } else {
        // the harness's figures, rounded to the digits it printed
        assert.ok(r.ok && Math.abs(r.cost - want) <= 0.021 * (1 + want), `${name}: ${r.cost} vs ${want}`);
      }
    }
    f.free();
    m.free();
  }
});

function toolHasMesh() {
  if (!fs.existsSync(TOOL)) return false;
  try { return /--mesh/.test(execFileSync(TOOL, ['solve', '--help'], { encoding: 'utf8' })); } catch { return false; }
}

test('same paths as `astar solve --mesh`', { skip: !toolHasMesh() && `no ${TOOL} with solve --mesh` }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'astar-mesh-'));
  try {
    const rand = rng(7);
    const w = 30, h = 20;
    const walls = randomWalls(w, h, 0.25, rand);
    const grid = gridOf(w, h, walls);
    const nav = new NavMesh(grid);
    const file = path.join(dir, 'g.mesh');
    fs.writeFileSync(file, nav.mesh.toText());
    let compared = 0;
    for (const method of ['polyanya', 'funnel']) {
      const f = new Finder(Mesh.fromText(fs.readFileSync(file, 'utf8')), { method });
      for (let q = 0; q < 8; q++) {
        const s = [rand() * w, rand() * h], g = [rand() * w, rand() * h];
        const got = f.find(s, g);
        if (!got.ok) continue;
        const out = execFileSync(TOOL, ['solve', '--mesh', file, ...s.map(String), ...g.map(String), '--algo', method], { encoding: 'utf8' });
        const cost = Number(out.match(/^length:\s+(\S+)/m)?.[1]);
        assert.ok(near(got.cost, cost, 1e-6), `${method} ${s} -> ${g}: ${got.cost} vs tool ${cost}`);
        compared++;
      }
    }
    assert.ok(compared > 4);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
