// objects.test.mjs -- preparations saved and loaded (same paths after a
// round trip; refused for another grid), the request queue against the
// one-shot finder, and memory that does not grow over create/free cycles.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Grid, Finder, JpsPlus, Cpd, Hpa, Landmarks, Subgoal, HexGrid, Graph, Queue, AstarError } from 'libastar';
import { W } from '../src/wasm.js';
import { rng, randomWalls } from './reference.mjs';

const rand = rng(21);
const W_ = 40, H_ = 30;
const walls = randomWalls(W_, H_, 0.25, rand);
const queries = [];
for (let i = 0; i < 40; i++) {
  let s, g;
  do { s = Math.floor(rand() * W_ * H_); } while (walls[s]);
  do { g = Math.floor(rand() * W_ * H_); } while (walls[g]);
  queries.push([s % W_, Math.floor(s / W_), g % W_, Math.floor(g / W_)]);
}

test('preparations: save() and load() give the same paths; another grid is refused', () => {
  const grid = Grid.fromWalls(W_, H_, walls);
  const other = Grid.fromWalls(W_, H_, walls).setWalkable(queries[0][0], queries[0][1], false);
  const kinds = [
    ['jps-plus', 'jpsPlus', JpsPlus, (g) => new JpsPlus(g), (g, b) => JpsPlus.load(g, b)],
    ['cpd', 'cpd', Cpd, (g) => new Cpd(g), (g, b) => Cpd.load(g, b)],
    ['hpa', 'hpa', Hpa, (g) => new Hpa(g, { clusterSize: 8 }), (g, b) => Hpa.load(g, b)],
    ['astar', 'landmarks', Landmarks, (g) => new Landmarks(g, { count: 6 }), (g, b) => Landmarks.load(g, b)],
    ['subgoal', 'subgoal', Subgoal, (g) => new Subgoal(g, { levels: 2 }), (g, b) => Subgoal.load(g, b)],
  ];
  for (const [method, key, , make, load] of kinds) {
    const a = make(grid);
    const bytes = a.save();
    assert.ok(bytes instanceof Uint8Array && bytes.length > 16, `${key}: ${bytes.length} bytes`);
    const b = load(grid, bytes);
    assert.deepEqual(b.save(), bytes, `${key}: the loaded one saves the same bytes`);
    const fa = new Finder(grid, { method, [key]: a }), fb = new Finder(grid, { method, [key]: b });
    for (const q of queries) assert.deepEqual(fb.findPath(...q), fa.findPath(...q), `${key} ${q}`);
    assert.throws(() => load(other, bytes), (e) => e instanceof AstarError && e.status === 'mismatch', `${key} on another grid`);
    const damaged = bytes.slice(); damaged[damaged.length >> 1] ^= 0x55;
    assert.throws(() => load(grid, damaged), (e) => e instanceof AstarError && ['parse-error', 'mismatch'].includes(e.status), `${key} damaged`);
    fa.free(); fb.free(); a.free(); b.free();
  }
  // A stale preparation: edit the grid, then the finder refuses until rebuilt.
  const hpa = new Hpa(grid, { clusterSize: 8 });
  const f = new Finder(grid, { method: 'hpa', hpa });
  grid.setWalkable(queries[1][0], queries[1][1], false);
  assert.throws(() => f.findPath(...queries[2]), (e) => e.status === 'stale');
  assert.ok(hpa.sync() >= 1);
  f.refresh();
  assert.ok(Array.isArray(f.findPath(...queries[2])));
  f.free(); hpa.free();
  // A subgoal graph: optimal (A*'s cost), stale after an edit until rebuilt;
  // out-of-range levels and rules it cannot serve are refused.
  let sg = new Subgoal(grid);
  let fs = new Finder(grid, { method: 'subgoal', subgoal: sg });
  const fa = new Finder(grid);
  for (const q of queries) assert.equal(fs.find(...q).cost, fa.find(...q).cost, `subgoal ${q}`);
  assert.throws(() => new Finder(grid, { method: 'subgoal' }), (e) => e instanceof AstarError && e.status === 'unsupported');
  assert.throws(() => new Finder(grid, { method: 'subgoal', subgoal: sg, smooth: true }), (e) => e.status === 'unsupported');
  assert.throws(() => new Subgoal(grid, { levels: 65 }), RangeError);
  assert.throws(() => new Subgoal(grid, { moves: 4 }), (e) => e.status === 'unsupported');
  grid.setWalkable(queries[3][0], queries[3][1], false);
  assert.throws(() => fs.find(...queries[4]), (e) => e.status === 'stale');
  fs.free(); sg.free();
  sg = new Subgoal(grid);
  fs = new Finder(grid, { method: 'subgoal', subgoal: sg });
  assert.equal(fs.find(...queries[4]).cost, fa.find(...queries[4]).cost);
  fs.free(); sg.free(); fa.free();
  // Landmarks of a hex grid and a graph.
  const hex = new HexGrid(10, 8);
  const lm = new Landmarks(hex, { count: 3 });
  const fh = new Finder(hex, { landmarks: lm });
  assert.equal(fh.findPath(0, 0, 9, 7).length > 0, true);
  const lm2 = Landmarks.load(hex, lm.save());
  assert.deepEqual(lm2.save(), lm.save());
  lm2.free();
  fh.free(); lm.free(); hex.free();
  const graph = new Graph(3, [[0, 1, 1], [1, 2, 1]], { coords: [[0, 0], [1, 0], [2, 0]] });
  assert.deepEqual(new Finder(graph).findPath(0, 2), [0, 1, 2]);
  grid.free(); other.free();
});

test('the queue delivers what the one-shot finder finds, within its budgets', () => {
  const grid = Grid.fromWalls(W_, H_, walls);
  const q = new Queue(grid, { capacity: 64 });
  const astar = new Finder(grid), jps = new Finder(grid, { method: 'jps' });
  const ids = queries.map((qq, i) => (i % 2 ? q.submit(...qq, { finder: jps }) : q.submit(...qq, { method: 'astar', priority: i % 3 })));
  assert.throws(() => jps.free(), /still alive/); // pending requests retain their finder
  let frames = 0, work = 0;
  while (q.pending > 0) {
    const fr = q.update(200);
    work += fr.work;
    frames++;
    assert.ok(frames < 10000);
  }
  assert.ok(frames > 5, `${frames} frames`);
  queries.forEach((qq, i) => {
    const out = q.take(ids[i]);
    const want = (i % 2 ? jps : astar).find(...qq);
    assert.equal(out.status, want.status === 'ok' ? 'ok' : want.status, `${qq}`);
    assert.deepEqual(out.path, want.path);
    assert.equal(out.cost, want.cost);
    assert.equal(q.state(ids[i]), 'unknown');
  });
  const id = q.submit(0, 0, W_ - 1, H_ - 1);
  q.cancel(id);
  assert.equal(q.state(id), 'cancelled');
  q.release(id);
  q.free();
  jps.free(); astar.free(); grid.free();
});

test('no leaks: memory stays flat over many create/search/free cycles', () => {
  const cycle = () => {
    const g = Grid.fromWalls(W_, H_, walls);
    const f = new Finder(g, { method: 'astar' });
    const j = new JpsPlus(g);
    const fj = new Finder(g, { method: 'jps-plus', jpsPlus: j });
    const h = new HexGrid(20, 20);
    const fh = new Finder(h);
    const q = new Queue(g);
    for (const qq of queries.slice(0, 5)) { f.findPath(...qq); fj.find(...qq); q.submit(...qq); }
    q.update(1e6);
    j.save();
    fh.findPath(0, 0, 19, 19);
    q.free(); fh.free(); h.free(); fj.free(); j.free(); f.free(); g.free();
  };
  for (let i = 0; i < 50; i++) cycle();
  const before = W.memory.buffer.byteLength;
  for (let i = 0; i < 1500; i++) cycle();
  const after = W.memory.buffer.byteLength;
  assert.equal(after, before, `memory grew from ${before} to ${after} bytes over 1500 cycles`);
});
